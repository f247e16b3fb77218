"""The page works under its Content-Security-Policy (no inline script or style, no eval,
no other origin): the lobby, a table made there, a move, the bot's answer pushed over the
WebSocket, a leaderboard and a player's page, with not one CSP violation reported by
Chromium (issue 14).

Only selector waits here: Playwright's wait_for_function uses eval, which the policy
refuses (the other browser tests bypass the policy for that reason).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

# Chromium fires securitypolicyviolation on the document for each refused script, style,
# connection or eval; the page keeps them where the test can read them.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def version_of(page: Page) -> int:
    return int(page.get_attribute(".game-page", "data-version") or -1)


def test_the_page_plays_under_its_policy_with_no_violation(
    server: Any, open_page: Callable[..., Any], create_table: Callable[..., str]
) -> None:
    watched = open_page(under_csp=True)
    page: Page = watched.page
    page.add_init_script(RECORD_VIOLATIONS)
    policies: list[str] = []

    def keep_policy(response: Any) -> None:
        if response.url.startswith(server.base) and response.request.resource_type == "document":
            policies.append(response.headers.get("content-security-policy", ""))

    page.on("response", keep_policy)
    game_id = create_table(page, server.base, "tyrus", level="easy")
    page.wait_for_selector("body[data-turn='mine']")
    # A move by clicking (a tile, then a building); then the bot's move, which only a
    # WebSocket push brings: my turn again, two versions on at least.
    version = version_of(page)
    page.locator(".hand .hand-tile").first.click()
    page.locator(".building.choosable").first.click()
    if page.locator(".choosable.confirm").count():
        page.locator(".choosable.confirm").click()
    page.wait_for_selector(
        "body[data-turn='mine'] .game-page"
        f":not([data-version='{version}']):not([data-version='{version + 1}'])"
    )
    assert game_id in page.url
    page.goto(f"{server.base}/#/ratings/tyrus")
    page.wait_for_selector(".ratings-page")
    page.goto(f"{server.base}/#/players/{'easy bot'}")
    page.wait_for_selector(".ratings-page")
    assert policies and all("script-src 'self';" in policy for policy in policies)
    assert violations(page) == []
    assert watched.errors == []  # a refused script, style or eval is a console error too
