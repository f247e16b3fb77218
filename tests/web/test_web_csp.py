"""The page works under its Content-Security-Policy (no inline script or style, no other
origin): a table made through the lobby, a move, the bot's answer pushed over the
WebSocket, and not one CSP violation reported by Chromium (issue 14)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

# Chromium fires securitypolicyviolation on the document for each refused load or style;
# the page keeps them where the test can read them.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def test_the_page_plays_under_its_policy_with_no_violation(
    server: Any, open_page: Callable[..., Any], create_table: Callable[..., str]
) -> None:
    watched = open_page()
    page: Page = watched.page
    page.add_init_script(RECORD_VIOLATIONS)
    policies: list[str] = []
    page.on(
        "response",
        lambda r: (
            policies.append(r.headers.get("content-security-policy", ""))
            if r.url.startswith(server.base) and r.request.resource_type == "document"
            else None
        ),
    )
    game_id = create_table(page, server.base, "tyrus", level="easy")
    page.wait_for_function("document.body.dataset.turn === 'mine'")
    version = int(page.get_attribute(".game-page", "data-version") or -1)
    # A move by clicking; the bot's answer then comes as a push over the WebSocket.
    page.locator(".hand .hand-tile").first.click()
    page.locator(".building.choosable").first.click()
    if page.locator(".choosable.confirm").count():
        page.locator(".choosable.confirm").click()
    page.wait_for_function(
        f"Number(document.querySelector('.game-page').dataset.version) > {version + 1}"
    )
    assert game_id in page.url
    assert policies and all("script-src 'self';" in policy for policy in policies)
    assert violations(page) == []
    assert watched.errors == []  # a refused script or style is also a console error
