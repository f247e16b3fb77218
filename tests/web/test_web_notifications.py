"""Account settings, the host's new invite link, and in-page notifications: the settings
form changes the e-mail address, `notify` and the password (the server's sentence when
the old password is wrong); a re-invited seat's old link no longer seats anybody and the
new one does; the tab title counts the games waiting for you and a browser notification
is shown when it becomes your turn in a game that is not on screen."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

PASSWORD = "a long password"

# Records every Notification the page creates (the real one is still made when it can be).
RECORD_NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  window.__notes = [];
  function Recorded(title, options) {
    window.__notes.push({ title, body: (options || {}).body || "" });
    try {
      return new Real(title, options);
    } catch {
      return { close() {} };
    }
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Recorded;
})();
"""


def sign_up(page: Page, name: str) -> None:
    page.locator("#account-name").wait_for()
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account .sign-up summary")
    page.click("#account-sign-up")
    page.locator(f'#account [data-account="{name}"]').wait_for()


def get_me(page: Page, base: str) -> dict[str, Any]:
    """GET /api/me with the page's session cookie."""
    answer = page.context.request.get(base + "/api/me")
    assert answer.status == 200, answer.text()
    me: dict[str, Any] = answer.json()
    return me


def page_post(page: Page, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    """A POST from the page itself (its cookie and Origin, as the page's own requests)."""
    result: tuple[int, Any] = page.evaluate(
        """async ([path, body]) => {
          const answer = await fetch(path, {method: "POST",
            headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
          return [answer.status, await answer.json()];
        }""",
        [path, body],
    )
    return result


def forbidden_only(errors: list[str], expected: int) -> None:
    """Drop the 403 answers Chromium logs for refusals the test asked for."""
    refused = [e for e in errors if "status of 403 (Forbidden)" in e]
    assert len(refused) == expected, errors
    errors[:] = [e for e in errors if e not in refused]


def test_the_settings_change_email_notify_and_password(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    watched = open_page()
    page = watched.page
    page.goto(server.base + "/")
    name = f"Set{secrets.token_hex(3)}"
    sign_up(page, name)
    assert get_me(page, server.base) == {"name": name, "email": None, "notify": True, "bot": False}

    page.click("#account-settings summary")
    page.fill("#account-new-email", "ada@example.org")
    page.click("#account-save-email")
    expect(page.locator("#account-settings-message")).to_have_text("E-mail address saved.")
    assert get_me(page, server.base)["email"] == "ada@example.org"

    expect(page.locator("#account-notify")).to_be_checked()  # the default
    page.uncheck("#account-notify")
    expect(page.locator("#account-settings-message")).to_have_text(
        "No more e-mails when it is your turn."
    )
    assert get_me(page, server.base)["notify"] is False
    page.check("#account-notify")
    expect(page.locator("#account-settings-message")).to_contain_text("You will get an e-mail")
    assert get_me(page, server.base)["notify"] is True

    # A wrong current password: the server's sentence, and nothing changes.
    page.fill("#account-old-password", "not my password")
    page.fill("#account-new-password", "another long password")
    page.click("#account-change-password")
    expect(page.locator("#account-settings-error")).to_have_text(
        "the current password (old_password) is wrong"
    )
    screenshot(page, "account-settings", phone_too=True)
    forbidden_only(watched.errors, 1)

    page.fill("#account-old-password", PASSWORD)
    page.click("#account-change-password")
    expect(page.locator("#account-settings-message")).to_contain_text("Password changed")
    expect(page.locator("#account-old-password")).to_have_value("")

    page.click("#account-remove-email")
    expect(page.locator("#account-settings-message")).to_have_text("E-mail address removed.")
    assert get_me(page, server.base) == {"name": name, "email": None, "notify": True, "bot": False}
    expect(page.locator("#account-new-email")).to_have_value("")

    # The new password is the one that signs in now.
    status, _ = server.call(
        "POST", "/api/session", {"name": name, "password": "another long password"}
    )
    assert status == 200

    # In French too.
    page.click('.lang-switch button[data-lang="fr"]')
    page.click("#account-settings summary")
    expect(page.locator("#account-settings")).to_contain_text("Changer le mot de passe")
    expect(page.locator("#account-settings")).to_contain_text("Sur cet appareil")


def test_the_host_re_invites_a_seat_never_taken(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    host = open_page().page
    host.goto(server.base + "/")
    host.wait_for_selector("#new-table")
    host.fill("#lobby-name", "Ada")
    host.select_option("#new-game", "tyrus")
    host.select_option('select.seat-kind[data-seat="1"]', "human")
    host.click("#create")
    host.wait_for_selector(".tyrus-board")
    link_field = host.locator('.invites li[data-player="1"] input.invite-link')
    old_link = link_field.input_value()

    host.click('.invites button.reinvite[data-player="1"]')
    expect(link_field).not_to_have_value(old_link)
    new_link = link_field.input_value()
    assert "token=" in new_link
    expect(host.locator(".notice.info")).to_contain_text("the old one no longer opens")
    expect(host.locator('.invites li[data-player="1"] button', has_text="Copy")).to_be_visible()
    screenshot(host, "reinvite")

    # The old link seats nobody: its opener watches and is told why.
    stale = open_page()
    stale.page.goto(old_link)
    stale.page.locator(".notice.error", has_text="does not open a seat").wait_for()
    expect(stale.page.locator(".game-head")).to_contain_text("Watching")
    assert stale.page.locator("text=Take this seat").count() == 0
    forbidden_only(stale.errors, 1)

    # The new one does.
    friend = open_page().page
    friend.goto(new_link)
    friend.fill("#join-name", "Cy")
    friend.click("text=Take this seat")
    friend.locator(".game-head", has_text="Cy").wait_for()
    host.locator(".seats", has_text="Cy").wait_for()
    expect(host.locator(".invites button.reinvite")).to_have_count(0)  # a seat taken


def move_while_turn_of(server: Any, game_id: str, token: str, player: int) -> None:
    """Play the first legal action of `player` until it is no longer their turn."""
    state = server.state(game_id, token)
    while state["to_move"] == [player]:
        state = server.act(game_id, token, state["legal_actions"][0], state["version"])


def test_the_tab_title_and_a_notification_when_it_is_your_turn_elsewhere(
    server: Any, open_page: Callable[..., Any]
) -> None:
    page = open_page().page
    page.context.grant_permissions(["notifications"], origin=server.base)
    page.add_init_script(RECORD_NOTIFICATIONS)
    page.goto(server.base + "/")
    sign_up(page, f"Tab{secrets.token_hex(3)}")
    expect(page).to_have_title("machiavel")

    # Two Tyrus games of Ada's account (seat 0) against Bob (seat 1, by token); Bob to move.
    games: list[tuple[str, str, str]] = []  # (id, Ada's token, Bob's token)
    for _ in range(2):
        status, created = page_post(
            page, "/api/games", {"game": "tyrus", "seats": [{"kind": "human"}] * 2}
        )
        assert status == 201, created
        status, joined = server.call(
            "POST", f"/api/games/{created['id']}/join", {"name": "Bob", "seat": 1}
        )
        assert status == 200, joined
        ada = created["seats"][0]["token"]
        move_while_turn_of(server, created["id"], ada, 0)
        games.append((created["id"], ada, joined["token"]))
    (on_screen, _, bob_here), (elsewhere, _, bob_there) = games
    # The lobby lists them (GET /api/me/games, which the tab title reads too).
    for game_id, _, _ in games:
        page.locator(f'#my-games .game-entry[data-id="{game_id}"]').wait_for()

    # "Notify me" and the sound, asked by clicks.
    page.click("#account-settings summary")
    page.check("#account-browser-notify")
    page.wait_for_function("localStorage.getItem('machiavel.notifications') === 'on'")
    page.check("#account-sound")
    page.wait_for_function("localStorage.getItem('machiavel.sound') === 'on'")

    page.goto(f"{server.base}/#/game/{on_screen}")
    page.wait_for_selector(".tyrus-board")
    page.locator("#status", has_text="Waiting for").wait_for()
    page.wait_for_function("document.documentElement.dataset.waiting === '0'")  # none waiting

    move_while_turn_of(server, elsewhere, bob_there, 1)
    page.evaluate("window.dispatchEvent(new Event('focus'))")  # the tab gets the focus
    expect(page).to_have_title("(1) machiavel")
    page.wait_for_function("window.__notes.length === 1")
    note = page.evaluate("window.__notes[0]")
    assert note["title"] == "Your turn: Tyrus" and elsewhere in note["body"], note

    # A move in the game on screen is pushed: the title follows, no notification for it.
    move_while_turn_of(server, on_screen, bob_here, 1)
    page.locator("#status", has_text="Your turn").wait_for()
    expect(page).to_have_title("(2) machiavel")
    assert page.evaluate("window.__notes.length") == 1
