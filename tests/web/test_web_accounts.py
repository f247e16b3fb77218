"""Accounts in the browser: two people sign up, create and join a Tyrus table; one signs in
on a third browser and finds the game in "My games" with "your turn", and plays it with
the cookie alone. A stale or wrong token in the address never loses a seat."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page


def sign_up(page: Page, name: str, password: str) -> None:
    page.locator("#account-name").wait_for()
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("#account .sign-up summary")
    page.click("#account-sign-up")
    page.locator(f'#account [data-account="{name}"]').wait_for()


def sign_in(page: Page, name: str, password: str, panel: str = "account") -> None:
    page.locator(f"#{panel}-name").wait_for()
    page.fill(f"#{panel}-name", name)
    page.fill(f"#{panel}-password", password)
    page.click(f"#{panel}-sign-in")


def kept_seats(page: Page) -> dict[str, Any]:
    seats: dict[str, Any] = page.evaluate(
        "JSON.parse(localStorage.getItem('machiavel.seats') || '{}')"
    )
    return seats


# Whether the page keeps a seat of game arg[0] by a token other than arg[1].
ANOTHER_TOKEN_KEPT = """([game, token]) => {
  const kept = JSON.parse(localStorage.getItem('machiavel.seats') || '{}')[game];
  return kept !== undefined && kept.token !== token;
}"""


def play_one(page: Page) -> None:
    """Play the first legal action from the list of all of them; wait for the new state."""
    version = int(page.get_attribute(".game-page", "data-version") or 0)
    page.click(".all-actions summary")
    page.locator(".all-actions button[data-action]").first.click()
    page.wait_for_function(
        f"Number(document.querySelector('.game-page').dataset.version) > {version}"
    )


def test_accounts_create_join_and_find_the_game_elsewhere(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    suffix = secrets.token_hex(3)  # the server is shared by the session's tests
    ada, bob = f"Ada{suffix}", f"Bob{suffix}"
    password = "a long password"

    first = open_page().page
    first.goto(server.base + "/")
    sign_up(first, ada, password)
    first.select_option("#new-game", "tyrus")
    first.select_option('select.seat-kind[data-seat="1"]', "human")
    first.click("#create")
    first.wait_for_selector(".tyrus-board")
    game_id: str = first.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    first.locator(".account-seat").wait_for()  # the seat is in Ada's account

    second = open_page().page
    second.goto(server.base + "/")
    sign_up(second, bob, password)
    second.locator(f'#open-games .game-entry[data-id="{game_id}"] button.join').click()
    second.wait_for_selector(".tyrus-board")
    assert bob in second.locator(".game-head").inner_text()
    first.locator(".seats", has_text=bob).wait_for()  # pushed to Ada's page

    # Make it Ada's turn: Bob plays if Tyrus chose him to begin.
    if server.state(game_id)["to_move"] == [1]:
        play_one(second)
    assert server.state(game_id)["to_move"] == [0]

    third = open_page().page  # Ada on another device: no token, only the account
    third.goto(server.base + "/")
    sign_in(third, ada, password)
    entry = third.locator(f'#my-games .game-entry[data-id="{game_id}"][data-your-turn="yes"]')
    entry.wait_for()
    assert "your turn" in entry.inner_text()
    screenshot(third, "lobby-my-games")
    entry.locator("a.button").click()
    third.wait_for_selector(".tyrus-board")
    assert kept_seats(third) == {}  # no token in this browser
    assert ada in third.locator(".game-head").inner_text()
    third.locator("#status", has_text="Your turn").wait_for()
    play_one(third)
    second.wait_for_function(
        "Number(document.querySelector('.game-page').dataset.version) >= "
        f"{server.state(game_id)['version']}"
    )
    # Signing out: this browser watches.
    third.goto(server.base + "/")
    third.click("#sign-out")
    third.locator("#account-name").wait_for()
    third.goto(f"{server.base}/#/game/{game_id}")
    third.locator(".game-head", has_text="Watching").wait_for()


def test_a_stale_or_wrong_token_in_the_address_never_loses_a_seat(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    created = server.create(
        {"game": "tyrus", "seats": [{"kind": "human", "name": "Host"}, {"kind": "human"}]}
    )
    game_id, invite = created["id"], created["seats"][1]["token"]
    link = f"{server.base}/#/game/{game_id}?token={invite}"
    watched = open_page()
    friend = watched.page
    friend.goto(link)
    friend.fill("#join-name", "Cy")
    friend.click("text=Take this seat")  # a new token: the invite link is stale now
    # Kept when the join is answered: the push of the seat's new name ("Cy" in the head)
    # can come first, so the name alone does not say the token is kept yet.
    friend.wait_for_function(ANOTHER_TOKEN_KEPT, arg=[game_id, invite])
    friend.locator(".game-head", has_text="You are").wait_for()
    kept = kept_seats(friend)[game_id]
    assert kept["player"] == 1 and kept["token"] != invite

    for address in (link, f"{server.base}/#/game/{game_id}?token=wrong"):
        friend.goto(server.base + "/")
        friend.wait_for_selector("#new-table")
        friend.goto(address)
        friend.locator(".notice.error", has_text="does not open a seat").wait_for()
        friend.locator(".game-head", has_text="Cy").wait_for()  # still seated
        assert "You are" in friend.locator(".game-head").inner_text()
        assert kept_seats(friend)[game_id] == kept  # the seat's token is kept
        friend.locator("#game-account").wait_for()  # offered: sign in to keep the seat
    screenshot(friend, "stale-link-kept-seat")

    # Signing up from the game page, the seat goes into the account.
    friend.fill("#game-account-name", f"Cy{secrets.token_hex(3)}")
    friend.fill("#game-account-password", "a long password")
    friend.click("#game-account .sign-up summary")
    friend.click("#game-account-sign-up")
    friend.click("#keep-seat")
    friend.locator(".account-seat").wait_for()
    assert kept_seats(friend)[game_id] == kept
    # The refused tokens were answered 403, as they must be: Chromium logs those answers.
    refused = [e for e in watched.errors if "status of 403 (Forbidden)" in e]
    assert len(refused) == 2  # once per address, not again after signing up
    watched.errors[:] = [e for e in watched.errors if e not in refused]
