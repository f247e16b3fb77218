"""The chat panel and "Play again" on the game page (docs/web.md, "Chat and play again").

Two seats chat live both ways; markup in a message shows as its characters; what is typed
survives pushes redrawing the page; a refusal (the rate limit) is shown and the text kept;
a spectator reads the players and writes in the spectators' channel, which the players
read only once the game is over; the replay shows the messages written up to each step;
one player plays again, the other joins from the pushed button, seats rotated.

Every wait is on what the page shows, bounded (PAGE_WAIT_MS); none stands in for a condition.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from support.waiting import PAGE_WAIT_MS

HTML = '<img src=x onerror="window.pwned = 1"> <b>bold</b> & &amp;'
SPECTATOR_CHANNEL = '#chat .chat-message[data-channel="spectators"]'


def two_people(server: Any) -> tuple[str, list[str]]:
    """A Tyrus table of two people (the server draws the deal: tables of two people never
    choose their seed)."""
    created = server.create(
        {
            "game": "tyrus",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    return created["id"], [seat["token"] for seat in created["seats"]]


def open_game(open_page: Callable[..., Any], server: Any, game_id: str, query: str) -> Page:
    """A game page with its socket live (pushes from now on reach it)."""
    page: Page = open_page().page
    page.goto(f"{server.base}/#/game/{game_id}?{query}")
    page.wait_for_selector('#connection[data-status="live"]')
    page.wait_for_selector("#chat")
    return page


def say(page: Page, text: str) -> None:
    """Write a message and wait until it came back from the server (the box empties)."""
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-text")).to_have_value("", timeout=PAGE_WAIT_MS)


def shown(page: Page, text: str) -> None:
    page.locator("#chat .chat-text", has_text=text).first.wait_for()


def texts(page: Page) -> list[str]:
    found: list[str] = page.locator("#chat .chat-text").all_inner_texts()
    return found


def play_one_move(server: Any, game_id: str, tokens: list[str]) -> int:
    """The seat to move plays its first legal action through the API; the new version."""
    player = server.state(game_id)["to_move"][0]
    seat = server.state(game_id, tokens[player])
    version: int = server.act(game_id, tokens[player], seat["legal_actions"][0], seat["version"])[
        "version"
    ]
    return version


def play_to_the_end(server: Any, game_id: str, tokens: list[str], seed: int = 7) -> int:
    """Random legal actions through the API until the game is over; the final version."""
    choose = random.Random(seed)
    while True:
        public = server.state(game_id)
        if public["is_over"]:
            version: int = public["version"]
            return version
        player = public["to_move"][0]
        seat = server.state(game_id, tokens[player])
        server.act(game_id, tokens[player], choose.choice(seat["legal_actions"]), seat["version"])


def kept_seat(page: Page, game_id: str) -> Any:
    return page.evaluate(
        "id => JSON.parse(localStorage.getItem('machiavel.seats') || '{}')[id] || null", game_id
    )


def test_two_seats_chat_live_both_ways_and_text_stays_text(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    game_id, tokens = two_people(server)
    ada = open_game(open_page, server, game_id, f"token={tokens[0]}")
    bo = open_game(open_page, server, game_id, f"token={tokens[1]}")
    expect(ada.locator("#chat .chat-empty")).to_be_visible()

    say(ada, "Hello Bo")
    shown(bo, "Hello Bo")
    line = bo.locator("#chat .chat-message").first
    assert line.locator(".chat-author").inner_text() == "Ada"
    assert line.get_attribute("data-channel") == "players"
    assert line.locator('.badge-wrap [data-player="0"]').count() == 1  # Ada's seat badge
    say(bo, "Hi Ada,\tready?")  # a tab becomes a space, as the server stores it
    shown(ada, "Hi Ada, ready?")

    # Markup is shown as its characters on both pages, never run nor parsed.
    say(bo, HTML)
    for page in (ada, bo):
        shown(page, "<b>bold</b>")
        assert texts(page)[-1] == HTML
        assert page.locator("#chat img, #chat b").count() == 0
        assert page.evaluate("window.pwned") is None
    assert texts(ada) == texts(bo) == ["Hello Bo", "Hi Ada, ready?", HTML]
    screenshot(ada, "chat", phone_too=True)


def test_typing_survives_pushes_and_a_refusal_keeps_the_text(
    server: Any, open_page: Callable[..., Any]
) -> None:
    game_id, tokens = two_people(server)
    ada = open_game(open_page, server, game_id, f"token={tokens[0]}")
    ada.fill("#chat-text", "half a sen")
    ada.press("#chat-text", "ArrowLeft")  # the caret inside the text, not at its end
    version = play_one_move(server, game_id, tokens)  # a push redraws the whole page
    ada.wait_for_selector(f'.game-page[data-version="{version}"]')
    expect(ada.locator("#chat-text")).to_have_value("half a sen")
    assert ada.evaluate("document.activeElement.id") == "chat-text"
    assert ada.evaluate("document.getElementById('chat-text').selectionStart") == 9
    ada.keyboard.type("x")  # typing goes on where it was
    expect(ada.locator("#chat-text")).to_have_value("half a sexn")

    # At most 5 messages in 10 s and 30 in 10 min per seat: one is refused (429) at the
    # latest at the 31st, however slow the machine; the refused text stays in the box.
    refused = None
    for number in range(1, 32):
        text = f"message {number}"
        ada.fill("#chat-text", text)
        ada.press("#chat-text", "Enter")
        ada.wait_for_function(
            "document.getElementById('chat-text').value === ''"
            " || document.getElementById('chat-error').textContent !== ''"
        )
        if ada.locator("#chat-error").inner_text():
            refused = text
            break
    assert refused is not None, "no message was refused"
    expect(ada.locator("#chat-error")).to_contain_text("too many chat messages")
    expect(ada.locator("#chat-text")).to_have_value(refused)
    assert refused not in texts(ada)
    assert ada.locator(".notice.error").count() == 0  # said by the box, not the page


def test_a_spectator_reads_the_players_and_writes_to_spectators(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    game_id, tokens = two_people(server)
    ada = open_game(open_page, server, game_id, f"token={tokens[0]}")
    watcher = open_game(open_page, server, game_id, "spectate=1")
    expect(watcher.locator("#chat .chat-note")).to_contain_text("spectators' channel")

    say(ada, "Good luck")
    shown(watcher, "Good luck")
    say(watcher, "Ada should take the temple")
    line = watcher.locator(SPECTATOR_CHANNEL)
    expect(line).to_contain_text("spectator")
    expect(line.locator(".chat-channel")).to_have_text("spectators")
    # Ada's socket would get the spectators' message before her own next one: it did not.
    say(ada, "Thanks")
    shown(ada, "Thanks")
    assert texts(ada) == ["Good luck", "Thanks"]
    screenshot(watcher, "chat-spectator")

    # Once the game is over, the players read the spectators' channel too.
    play_to_the_end(server, game_id, tokens)
    ada.wait_for_selector("#end-screen")
    ada.locator(SPECTATOR_CHANNEL, has_text="Ada should take the temple").wait_for()
    assert texts(ada) == ["Good luck", "Ada should take the temple", "Thanks"]


def test_the_replay_shows_the_chat_up_to_each_step(
    server: Any, open_page: Callable[..., Any]
) -> None:
    game_id, tokens = two_people(server)

    def write(text: str, token: str | None = None) -> None:
        status, answer = server.call(
            "POST", f"/api/games/{game_id}/chat", {"text": text, "token": token}
        )
        assert status == 200, answer

    write("before any move", tokens[0])
    play_one_move(server, game_id, tokens)
    play_one_move(server, game_id, tokens)
    write("after two moves", tokens[1])
    write("a spectator's word")
    steps = play_to_the_end(server, game_id, tokens)
    write("good game", tokens[0])

    page = open_page().page
    page.goto(f"{server.base}/#/replay/{game_id}?step=0")
    page.locator("#replay-step", has_text=f"step 0 of {steps}").wait_for()
    assert texts(page) == ["before any move"]
    assert page.locator("#chat-text").count() == 0  # a replay is read, not written
    page.click("#replay-next")
    page.locator("#replay-step", has_text=f"step 1 of {steps}").wait_for()
    assert texts(page) == ["before any move"]
    page.click("#replay-next")
    page.locator("#replay-step", has_text=f"step 2 of {steps}").wait_for()
    assert texts(page) == ["before any move", "after two moves", "a spectator's word"]
    page.click("#replay-last")
    page.locator("#replay-step", has_text=f"step {steps} of {steps}").wait_for()
    assert texts(page)[-1] == "good game"
    assert page.locator(SPECTATOR_CHANNEL).count() == 1


def test_play_again_and_join_the_rematch(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    game_id, tokens = two_people(server)
    play_to_the_end(server, game_id, tokens)
    ada = open_game(open_page, server, game_id, f"token={tokens[0]}")
    bo = open_game(open_page, server, game_id, f"token={tokens[1]}")
    watcher = open_game(open_page, server, game_id, "spectate=1")
    for page in (ada, bo):
        page.wait_for_selector("#end-screen #play-again")
    assert watcher.locator("#end-screen #play-again, #end-screen #watch-rematch").count() == 0
    screenshot(bo, "play-again")

    ada.click("#play-again")
    ada.wait_for_function(f"!location.hash.includes({game_id!r})")
    new_id: str = ada.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    ada.locator(".game-head .game-id", has_text=new_id).wait_for()
    assert "Ada" in ada.locator(".game-head").inner_text()
    assert kept_seat(ada, new_id)["player"] == 1  # seats rotated: Ada was seat 1, now 2

    # Bo's page and the spectator's were told by a push.
    bo.click("#end-screen #join-rematch")
    bo.locator(".game-head .game-id", has_text=new_id).wait_for()
    assert "You are" in bo.locator(".game-head").inner_text()
    assert "Bo" in bo.locator(".game-head").inner_text()
    assert kept_seat(bo, new_id)["player"] == 0
    seats = server.state(new_id)["seats"]
    assert [(seat["name"], seat["claimed"]) for seat in seats] == [("Bo", True), ("Ada", True)]
    watcher.click("#end-screen #watch-rematch")
    watcher.locator(".game-head .game-id", has_text=new_id).wait_for()
    assert "Watching" in watcher.locator(".game-head").inner_text()
    # Both seats play the new game from these pages: Bo's token works, so does Ada's.
    for page in (ada, bo):
        page.wait_for_selector('#connection[data-status="live"]')
        assert page.locator("#play-again, #join-rematch").count() == 0
