"""The lobby, seats and invite links, the languages, replays."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import machiavel
from machiavel.games.guildes.data import EVENT_IDS, TRICK_LETTERS
from support.waiting import Progress

# A Djambi log line, the seat shown by its badge and name: "2 easy bot moved their Militant
# from h7 to h6", "2 robot facile a déplacé son Militant de h7 à h6".
ENGLISH_LINE = re.compile(r"easy bot [a-z]+ (their|the|a|an) ")
FRENCH_LINE = re.compile(r"robot facile a [a-zéè]+ (son|sa|ses|le|la|l'|un|une) ")


def wait_until_over(server: Any, game_id: str, stuck: float = 120) -> dict[str, Any]:
    """The end of a bots' game, however long it takes: only a game that stops moving for
    ``stuck`` seconds fails."""
    progress = Progress(f"game {game_id}", stuck)
    while True:
        state: dict[str, Any] = server.state(game_id)
        if state["is_over"]:
            return state
        progress.saw(state["version"])
        time.sleep(0.05)


def bots_begin(game: str, players: int) -> int:
    """A seed whose first player is not seat 0 (the person's seat in these tests)."""
    return next(
        seed for seed in range(100) if 0 not in machiavel.game(game).new(players, seed).to_move
    )


def test_join_a_free_seat_from_the_lobby(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    created = server.create(
        {"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"}]}
    )
    game_id = created["id"]
    page = open_page().page
    page.goto(server.base + "/")
    entry = page.locator(f'#open-games .game-entry[data-id="{game_id}"]')
    entry.wait_for()
    page.fill("#lobby-name", "Bea")
    screenshot(page, "lobby", phone_too=True)
    entry.locator("button.join").click()
    page.wait_for_selector(".tyrus-board")
    assert "Bea" in page.locator(".game-head").inner_text()
    seats = server.state(game_id)["seats"]
    assert seats[0]["name"] == "Bea" and seats[0]["claimed"]
    # The seat is no longer open; the game is among this browser's games.
    page.goto(server.base + "/")
    page.locator(f'#my-games .game-entry[data-id="{game_id}"]').wait_for()
    assert page.locator(f'#open-games .game-entry[data-id="{game_id}"]').count() == 0


def test_an_invite_link_seats_a_friend_and_both_pages_stay_live(
    server: Any, open_page: Callable[..., Any], create_table: Callable[..., str]
) -> None:
    host = open_page().page
    host.goto(server.base + "/")
    host.wait_for_selector("#new-table")
    host.select_option("#new-game", "tyrus")
    host.select_option('select.seat-kind[data-seat="1"]', "human")
    host.fill("#lobby-name", "Ada")
    host.click("#create")
    host.wait_for_selector(".tyrus-board")
    link = host.locator(".invites input.invite-link").input_value()
    assert "token=" in link

    friend = open_page().page
    friend.goto(link)
    friend.wait_for_selector(".tyrus-board")
    assert "token=" not in friend.url  # kept by the browser, not left in the address bar
    friend.fill("#join-name", "Cy")
    friend.click("text=Take this seat")
    friend.locator(".game-head", has_text="Cy").wait_for()
    host.locator(".seats", has_text="Cy").wait_for()  # pushed to the host's page

    # Two moves each by clicking; every move shows up on the other page. The mover's page
    # is waited for: the friend's restarts as seated once the join is answered, which
    # the push of "Cy" to the head can come before.
    game_id = link.split("/game/")[1].split("?")[0]
    for _ in range(4):
        page = (host, friend)[server.state(game_id)["to_move"][0]]
        page.wait_for_function("document.body.dataset.turn === 'mine'")
        version = int(page.get_attribute(".game-page", "data-version") or 0)
        page.locator(".hand .hand-tile.choosable").first.click()
        page.locator(".building.choosable").first.click()
        # The other page shows the move; the mover's own page too, before its turn mark
        # is read again (else a page still drawing its move looks "mine").
        for seen in (host, friend):
            seen.wait_for_function(
                f"Number(document.querySelector('.game-page').dataset.version) > {version}"
            )
    assert server.state(game_id)["version"] == 4
    assert host.locator(".log ol > li").count() == friend.locator(".log ol > li").count() == 4


def test_french_and_english(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    page = open_page(locale="en-GB").page
    page.goto(server.base + "/")
    page.wait_for_selector("#new-table")
    assert "New table" in page.inner_text("#new-table")
    page.click('.lang-switch button[data-lang="fr"]')
    assert "Nouvelle table" in page.inner_text("#new-table")
    page.reload()
    page.wait_for_selector("#new-table")
    assert "Nouvelle table" in page.inner_text("#new-table")  # remembered
    assert page.evaluate("document.documentElement.lang") == "fr"
    missing = page.evaluate("import('/i18n.js').then(m => m.missingKeys())")
    assert missing == {"fr": [], "en": []}
    # Guildes' event and Coup Tordu titles come from the French book: each has its English
    # (the last four, "+1 <guild> -1", read the same in both).
    keys = [f"guildes.event.{e}" for e in EVENT_IDS] + [
        f"guildes.trick.{letter}" for letter in TRICK_LETTERS if letter < "F"
    ]
    found = page.evaluate(
        "keys => import('/i18n.js').then(m => keys.map(k => m.languagesOf(k)))", keys
    )
    assert found == [["en", "fr"]] * len(keys)
    created = server.create(
        {
            "game": "djambi",
            "seed": bots_begin("djambi", 4),  # D1: else Ada might begin, and nobody moves
            "seats": [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "level": "easy"}] * 3,
        }
    )
    page.goto(f"{server.base}/#/game/{created['id']}?spectate=1")
    page.wait_for_selector(".djambi-board")
    assert "rouge" in page.inner_text(".armies")
    first_line = page.locator(".log ol > li").first
    first_line.wait_for()  # the bots have moved
    assert FRENCH_LINE.search(first_line.inner_text()), first_line.inner_text()
    screenshot(page, "djambi-spectator-fr", phone_too=True)
    asked: list[str] = []  # the log comes in both languages: switching asks nothing
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    page.click('.lang-switch button[data-lang="en"]')
    assert "red" in page.inner_text(".armies")
    assert ENGLISH_LINE.search(first_line.inner_text()), first_line.inner_text()
    page.click('.lang-switch button[data-lang="fr"]')
    assert FRENCH_LINE.search(first_line.inner_text()), first_line.inner_text()
    assert asked == []


def test_a_finished_game_is_replayed_step_by_step(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    bots = [{"kind": "bot", "level": "easy"}] * 2
    game_id = server.create({"game": "tyrus", "seats": bots, "seed": 99})["id"]
    final = wait_until_over(server, game_id)
    page = open_page().page
    page.goto(f"{server.base}/#/game/{game_id}?spectate=1")
    page.wait_for_selector("#end-screen")
    page.click("#end-screen >> text=Watch the replay")
    page.wait_for_selector(".replay .tyrus-board")
    steps = final["version"]
    # A replay opens at the start (the end is one click away).
    page.locator("#replay-step", has_text=f"step 0 of {steps}").wait_for()
    page.click("#replay-last")
    page.locator("#replay-step", has_text=f"step {steps} of {steps}").wait_for()
    page.click("#replay-first")
    page.locator("#replay-step", has_text=f"step 0 of {steps}").wait_for()
    hands = page.locator(".panel.hands .hand-row")
    assert hands.count() == 2  # every hand revealed
    assert hands.nth(0).locator(".hand-tile").count() == 9
    page.click("#replay-next")
    page.locator("#replay-step", has_text=f"step 1 of {steps}").wait_for()
    first_move = server.call("GET", f"/api/games/{game_id}/replay?step=1")[1]["actions"][0]
    first_mover, first_action = int(first_move[0]), first_move[1]
    # The move in words, as in the log, never the engine's action syntax.
    assert first_action not in page.inner_text(".last-action")
    assert words(page.inner_text(".last-action")).startswith(f"{first_mover + 1} easy bot ")
    # Every tile in the buildings is shown face up in a replay.
    page.keyboard.press("ArrowRight")
    page.locator("#replay-step", has_text=f"step 2 of {steps}").wait_for()
    assert page.locator(".building .hidden-tile").count() == 0
    assert page.locator(".building .tile.known").count() == 2
    screenshot(page, "tyrus-replay", phone_too=True)
    # The log as each line's author saw it, in the page's language, seats named as
    # everywhere on the page (badge with the 1-based number, then "easy bot"), never as the
    # engine's 0-based "player 0".
    lines = page.locator(".log ol > li")
    assert lines.count() == 2
    assert words(lines.first.inner_text()).startswith(f"{first_mover + 1} easy bot placed ")
    assert lines.first.locator(f'.player-label[data-player="{first_mover}"]').count() == 1
    assert not re.search(r"\b(player|joueur) \d", page.inner_text(".log"), re.IGNORECASE)
    page.click('.lang-switch button[data-lang="fr"]')
    assert words(lines.first.inner_text()).startswith(f"{first_mover + 1} robot facile a posé ")
    assert " a posé la tuile " in page.inner_text(".last-action")


def words(text: str) -> str:
    return " ".join(text.split())


def test_a_page_left_while_it_loads_draws_nothing_more(
    server: Any, open_page: Callable[..., Any]
) -> None:
    """Leaving a page before its first answers came (a click on a lobby link, the language
    switch) stops it for good: the lobby no longer drew itself over the next page, nor kept
    its refresh timer; a game page no longer opened its socket, nor drew the answer to a
    move sent just before it was left. Each page is stopped at once, and the test waits
    for the end of what it had begun, so nothing is left to chance."""
    created = server.create({"game": "tyrus", "seats": [{"kind": "human"}] * 2})
    page = open_page().page
    page.goto(server.base + "/#/ratings/tyrus")
    page.locator(".ratings-page").wait_for()
    left = page.evaluate(
        """async (gameId) => {
            const { LobbyPage } = await import('/lobby.js');
            const { GamePage } = await import('/game.js');
            const lobbyRoot = document.createElement('div');
            const lobby = new LobbyPage(lobbyRoot);
            const lobbyStarted = lobby.start();
            lobby.stop();
            await lobbyStarted;
            const gameRoot = document.createElement('div');
            const game = new GamePage(gameRoot, gameId, { spectate: true });
            const gameStarted = game.start();
            game.stop();
            await gameStarted;
            return {
                lobby: lobbyRoot.childElementCount, timer: lobby.timer,
                game: gameRoot.innerText, socket: game.live !== null,
            };
        }""",
        created["id"],
    )
    assert left == {"lobby": 0, "timer": None, "game": "Loading…", "socket": False}
    assert page.locator(".ratings-page").count() == 1  # the page on screen is untouched

    # A game page left while its move is on the way: the move stands, nothing is drawn.
    player = server.state(created["id"])["to_move"][0]
    token = created["seats"][player]["token"]
    seat = server.state(created["id"], token)
    drawn = page.evaluate(
        """async ([gameId, token, action]) => {
            const { GamePage } = await import('/game.js');
            const root = document.createElement('div');
            const game = new GamePage(root, gameId, { token });
            await game.start();
            const moved = game.play(action);
            game.stop();
            const left = root.innerHTML;
            await moved;
            return { before: left, after: root.innerHTML };
        }""",
        [created["id"], token, seat["legal_actions"][0]],
    )
    assert drawn["after"] == drawn["before"]
    assert server.state(created["id"])["version"] == seat["version"] + 1
