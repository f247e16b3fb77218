"""Turn-based tables in the browser: two people with accounts play a turn-based Tyrus from
two browsers, one having invited the other by account name in the lobby form; the other
finds the invitation in "Your games" and plays with the cookie alone; then one of them signs
in on a third browser, finds the game with "your turn" and plays from there. The lobby and
the game page say whose turn it is and since when, kept right by the page's clock (moved
forward by Playwright's fake clock: no request, no real waiting). The host invites an
account from the game page too."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from playwright.sync_api import Page, Request, expect

PASSWORD = "a long password"
MOVES_EACH = 3  # actions each person plays from the first two browsers


def sign_up(page: Page, name: str) -> None:
    page.locator("#account-name").wait_for()
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account .sign-up summary")
    page.click("#account-sign-up")
    page.locator(f'#account [data-account="{name}"]').wait_for()


def sign_in(page: Page, name: str) -> None:
    page.locator("#account-name").wait_for()
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-sign-in")
    page.locator(f'#account [data-account="{name}"]').wait_for()


def not_found_only(errors: list[str], expected: int) -> None:
    """Drop the 404 answers Chromium logs for the unknown accounts the test asked for."""
    refused = [e for e in errors if "status of 404 (Not Found)" in e]
    assert len(refused) == expected, errors
    errors[:] = [e for e in errors if e not in refused]


def version_of(page: Page) -> int:
    return int(page.get_attribute(".game-page", "data-version") or 0)


def play_one(page: Page, server_version: int) -> None:
    """Once the page shows the server's latest state and says it is its turn, play the
    first legal action from the list of all of them; wait for the next state."""
    page.wait_for_function(
        "document.body.dataset.turn === 'mine' &&"
        f" Number(document.querySelector('.game-page').dataset.version) >= {server_version}"
    )
    page.click(".all-actions summary")
    page.locator(".all-actions button[data-action]").first.click()
    page.wait_for_function(
        f"Number(document.querySelector('.game-page').dataset.version) > {server_version}"
    )


def create_turn_based_tyrus(page: Page, guest: str) -> None:
    """Fill the lobby form: Tyrus, turn-based, seat 2 a person invited by account name."""
    page.select_option("#new-game", "tyrus")
    invite = page.locator('input.seat-account[data-seat="1"]')
    expect(invite).to_be_hidden()  # a bot's seat: nobody to invite
    page.select_option('select.seat-kind[data-seat="1"]', "human")
    expect(invite).to_be_visible()
    invite.fill(guest)
    page.check("#pace-turn-based")
    page.click("#create")


def test_two_accounts_play_a_turn_based_tyrus_and_one_finds_it_on_a_third_browser(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    suffix = secrets.token_hex(3)  # the server is shared by the session's tests
    ada, bob = f"Ada{suffix}", f"Bob{suffix}"

    guest = open_page().page
    guest.goto(server.base + "/")
    sign_up(guest, bob)

    watched = open_page()
    host = watched.page
    host.goto(server.base + "/")
    sign_up(host, ada)
    expect(host.locator("#pace-live")).to_be_checked()  # live unless chosen
    assert "e-mail" in host.locator("fieldset.pace").inner_text()
    # An account that does not exist: the server's sentence, and no table.
    create_turn_based_tyrus(host, f"Nobody{suffix}")
    expect(host.locator("#new-table .error")).to_contain_text(
        f"seat 1: there is no account named 'Nobody{suffix}'"
    )
    not_found_only(watched.errors, 1)
    screenshot(host, "turn-based-create-form")
    host.locator('input.seat-account[data-seat="1"]').fill(bob)
    host.click("#create")
    host.wait_for_selector(".tyrus-board")
    game_id: str = host.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    state = server.state(game_id)
    assert state["pace"] == "turn-based"
    assert state["seats"][1]["reserved"] and state["seats"][1]["name"] == bob
    expect(host.locator("#turn-note .pace-tag")).to_have_text("Turn-based")
    expect(host.locator('.seats li[data-player="1"]')).to_contain_text(f"{bob} (invited)")

    # Bob finds the invitation in "Your games" (counted in the tab title) and opens it.
    invitation = guest.locator(f'#my-games .game-entry.invitation[data-id="{game_id}"]')
    expect(invitation).to_contain_text("Invitation: Tyrus")
    expect(invitation.locator(".pace-tag")).to_have_text("Turn-based")
    expect(guest).to_have_title("(1) machiavel")
    screenshot(guest, "turn-based-invitation")
    invitation.locator("a.button").click()
    guest.wait_for_selector(".tyrus-board")
    expect(guest.locator(".game-head")).to_contain_text(re.compile(rf"You are \d {bob}"))
    expect(guest.locator(".account-seat")).to_be_visible()  # the seat is Bob's account's

    # They play in turns, each from their own browser, until each played a few actions.
    pages = {0: host, 1: guest}
    names = {0: ada, 1: bob}
    played = {0: 0, 1: 0}
    while min(played.values()) < MOVES_EACH:
        state = server.state(game_id)
        assert sum(played.values()) < 10 * MOVES_EACH, f"one person never plays: {played}"
        mover = state["to_move"][0]
        waiting = pages[1 - mover]
        if state["to_move"] == [mover]:  # the other one's page says whose turn it is
            waiting.wait_for_function(
                f"Number(document.querySelector('.game-page').dataset.version) >= {state['version']}"
            )
            expect(waiting.locator("#turn-note .turn-line")).to_contain_text(
                re.compile(rf"{names[mover]}'s turn for \S")
            )
        play_one(pages[mover], state["version"])
        played[mover] += 1
    expect(host.locator('.seats li[data-player="1"]')).not_to_contain_text("invited")
    assert server.state(game_id)["seats"][1]["claimed"]

    # Whoever's turn it is now signs in on a third browser: the game, "your turn", and play.
    state = server.state(game_id)
    mover = state["to_move"][0]
    third = open_page().page
    third.goto(server.base + "/")
    sign_in(third, names[mover])
    entry = third.locator(f'#my-games .game-entry[data-id="{game_id}"][data-your-turn="yes"]')
    expect(entry).to_contain_text("your turn")
    expect(entry.locator(".turn-line")).to_have_text(re.compile(r"^your turn for "))
    expect(entry.locator(".pace-tag")).to_have_text("Turn-based")
    assert entry.get_attribute("data-invited") == "no"
    screenshot(third, "turn-based-your-games")
    entry.locator("a.button").click()
    third.wait_for_selector(".tyrus-board")
    expect(third.locator("#status")).to_contain_text("Your turn")
    expect(third.locator("#turn-note .turn-line")).to_have_text(re.compile(r"^your turn for "))
    play_one(third, state["version"])
    pages[mover].wait_for_function(
        f"Number(document.querySelector('.game-page').dataset.version) > {state['version']}"
    )  # pushed to the first browser of the same account
    assert server.state(game_id)["version"] == state["version"] + 1


def test_the_lobby_and_game_page_say_the_pace_and_whose_turn_since_when(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    seats = [{"kind": "human", "name": "Cleo"}, {"kind": "human", "name": "Dan"}]
    slow = server.create({"game": "tyrus", "seats": seats, "pace": "turn-based"})
    live = server.create({"game": "tyrus", "seats": seats})
    mover = seats[server.state(slow["id"])["to_move"][0]]["name"]  # the deal says who begins
    live_mover = seats[server.state(live["id"])["to_move"][0]]["name"]
    since = server.state(slow["id"])["turn_since"]
    turn_began = datetime.fromisoformat(since.replace("Z", "+00:00"))

    page = open_page().page
    # The page's time is Playwright's, from the turn's start: moved on below, not waited.
    page.clock.install(time=turn_began)
    page.goto(server.base + "/")
    entry = page.locator(f'#running-games .game-entry[data-id="{slow["id"]}"]')
    expect(entry.locator(".pace-tag")).to_have_text("Turn-based")
    expect(entry.locator(".turn-line")).to_contain_text(f"{mover}'s turn for ")
    time_node = entry.locator(".turn-line time.since")
    assert time_node.get_attribute("datetime") == since
    assert time_node.get_attribute("title")  # the date and time itself, as a tooltip
    other = page.locator(f'#running-games .game-entry[data-id="{live["id"]}"]')
    expect(other.locator(".turn-line")).to_contain_text(f"{live_mover}'s turn for ")
    expect(other.locator(".pace-tag")).to_have_count(0)  # live: the usual pace, no mark
    screenshot(page, "turn-based-lobby")

    # The game page: half an hour, then three hours later by the page's clock, the text
    # follows on its own.
    page.goto(f"{server.base}/#/game/{slow['id']}?spectate=1")
    note = page.locator("#turn-note")
    expect(note.locator(".turn-line")).to_contain_text(f"{mover}'s turn for ")
    asked: list[str] = []

    def record(request: Request) -> None:
        asked.append(request.url)

    page.on("request", record)
    page.clock.pause_at(turn_began + timedelta(minutes=30))
    expect(note.locator(".turn-line")).to_contain_text(f"{mover}'s turn for 30 minutes")
    page.clock.fast_forward("02:30:00")
    expect(note.locator(".turn-line")).to_contain_text(f"{mover}'s turn for 3 hours")
    page.click('button[data-lang="fr"]')
    expect(note).to_contain_text("Au tour par tour au tour de")
    expect(note).to_contain_text(f"{mover} depuis 3 heures")
    page.click('button[data-lang="en"]')
    page.remove_listener("request", record)
    assert asked == []  # the text is redrawn from the time, the server is not asked again


def test_the_host_invites_an_account_from_the_game_page(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    suffix = secrets.token_hex(3)
    ada, bob = f"Ada{suffix}", f"Bob{suffix}"
    guest = open_page().page
    guest.goto(server.base + "/")
    sign_up(guest, bob)

    watched = open_page()
    host = watched.page
    host.goto(server.base + "/")
    sign_up(host, ada)
    host.select_option("#new-game", "tyrus")
    host.select_option('select.seat-kind[data-seat="1"]', "human")
    host.check("#pace-turn-based")
    host.click("#create")
    host.wait_for_selector(".tyrus-board")
    game_id: str = host.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    form = host.locator('.invites form.invite-by-account[data-player="1"]')
    form.locator("input.invite-account").fill(f"Nobody{suffix}")
    form.locator("button.invite-account-button").click()
    expect(host.locator(".notice.error")).to_contain_text("there is no account named")
    not_found_only(watched.errors, 1)

    form.locator("input.invite-account").fill(bob)
    form.locator("button.invite-account-button").click()
    expect(host.locator(".notice.info")).to_contain_text(f"{bob} is invited to seat 2")
    expect(form.locator(".reserved-for")).to_have_text(f"kept for {bob}")
    expect(form.locator("input.invite-account")).to_have_value("")
    expect(host.locator('.seats li[data-player="1"]')).to_contain_text(f"{bob} (invited)")
    screenshot(host, "turn-based-host-invites")

    invitation = guest.locator(f'#my-games .game-entry.invitation[data-id="{game_id}"]')
    invitation.locator("a.button").click()
    guest.wait_for_selector(".tyrus-board")
    expect(guest.locator(".game-head")).to_contain_text(re.compile(rf"You are \d {bob}"))
    state = server.state(game_id)
    while 1 not in state["to_move"]:  # Bob's seat is taken when he first plays
        play_one(host, state["version"])
        state = server.state(game_id)
    play_one(guest, state["version"])
    expect(host.locator(".invites form.invite-by-account")).to_have_count(0)  # taken now
