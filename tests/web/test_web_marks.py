"""What just happened and why it ended, on the page: the last move marked on each game's
board after a bot's move, Djambi's bot moves since my turn stepped through with their
paths, multi-line log entries, the end screen's reason in both languages, a Djambi player
put out told at once, and no mark moving with reduced motion.

Marks come from the engines (payload ``marks``, keys in docs/games/<game>.md)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

MAX_ACTIONS = 5000  # a game driven through the API that has not ended by then never will
SEAT_MENTION = re.compile(r"\b(?:player|joueur) \d+\b", re.IGNORECASE)

# The games as the lobby makes them: me at seat 1, bots elsewhere. (Guildes has a test of
# its own below: its cards are put face up by whoever places last, a race with the bots.)
TABLES: dict[str, dict[str, Any]] = {
    "tyrus": {},
    "djambi": {"options": {"quiet_rounds": "2"}},
    "tyros": {"players": 3},
}
# The same games with every seat a person that the test plays through the API.
PEOPLE = {"tyrus": 2, "djambi": 4, "guildes": 3, "tyros": 3}
# A bot's move marked: an element of the board with data-mark="last", and the move shown
# near the board another seat's than mine (the lobby seats me first: player 0).
BOT_MOVE_MARKED = """() => {
  const stepper = document.querySelector('#move-stepper');
  return !!stepper && stepper.dataset.player !== undefined && stepper.dataset.player !== '0'
    && document.querySelector('.board-area svg [data-mark="last"]') !== null;
}"""
# Guildes's cards are put face up together, by the action of whoever places last: the
# cards just revealed marked on a tableau, told as player 2's move.
CARDS_MARKED = """() =>
  document.querySelector('.guildes-board .tableau-row [data-mark="last"]') !== null
  && document.querySelector('#move-stepper[data-player="2"]') !== null"""
# A fresh move's path, animated or not: its line's animation as the page computes it.
FRESH_PATH_ANIMATION = """() => {
  const line = document.querySelector('.mark-path.mark-anim[data-mark="last"] .mark-line');
  const piece = document.querySelector('.piece.mark-slide');
  return line && piece ? [getComputedStyle(line).animationName,
                          getComputedStyle(piece).animationName] : null;
}"""


def click_until(page: Page, condition: str, *, seed: int, max_clicks: int = 400) -> Any:
    """Click random legal choices on my turns until ``condition`` (a JS function) holds;
    the value it gave then. Fails only if the game ends first or the clicks run out."""
    rng = random.Random(seed)
    for _ in range(max_clicks):
        page.wait_for_function(
            f"({condition})() || ['mine', 'over'].includes(document.body.dataset.turn)"
        )
        value = page.evaluate(f"({condition})()")
        if value:
            return value
        assert page.evaluate("document.body.dataset.turn") != "over", "over before the mark"
        choices = page.locator(".choosable:not([disabled])")
        if choices.count() == 0:
            page.wait_for_function(
                "document.body.dataset.turn !== 'mine'"
                " || document.querySelector('.choosable:not([disabled])') !== null"
            )
            continue
        pass_ = page.locator('.choosable[data-key="verb:pass"]')
        target = pass_.first if pass_.count() and rng.random() < 0.5 else None
        try:
            (target or choices.nth(rng.randrange(choices.count()))).click(timeout=2000)
        except Exception:  # the page redrew under the pointer: look again
            continue
    raise AssertionError(f"no mark after {max_clicks} clicks")


@pytest.mark.parametrize("game", list(TABLES))
def test_a_bots_move_is_marked_on_the_board(
    game: str,
    server: Any,
    open_page: Callable[..., Any],
    create_table: Callable[..., str],
    screenshot: Callable[..., None],
) -> None:
    page = open_page().page
    spec = TABLES[game]
    create_table(page, server.base, game, players=spec.get("players"), options=spec.get("options"))
    screenshot(page, f"marks-{game}-start")
    click_until(page, BOT_MOVE_MARKED, seed=3)
    expect_stepper_and_log(page)
    screenshot(page, f"marks-{game}-middle")


def expect_stepper_and_log(page: Page) -> None:
    stepper = page.locator("#move-stepper")
    expect(stepper).to_contain_text(re.compile(r"Move \d+ of \d+ since|Your last move"))
    # The log's entries: the action first, the events that followed as lines of their own.
    entries, actions = page.evaluate(
        """() => [document.querySelectorAll('.log ol > li').length,
                  document.querySelectorAll('.log ol > li > .log-action').length]"""
    )  # read in one go: the bots play on
    assert entries == actions > 0


def test_guildes_cards_revealed_by_another_players_placing_are_marked(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    """The others' seats played through the API, so that the order is known (bots would
    race me to place last): I place first on the page, players 1 and 2 after me, and
    player 2's placing puts everyone's cards face up, marked on the tableaux."""
    created = server.create(
        {"game": "guildes", "seats": [{"kind": "human", "name": f"P{i}"} for i in range(3)]}
    )
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    draft_until_placing(server, game_id, tokens)
    page = open_page().page
    page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
    page.wait_for_function("document.body.dataset.turn === 'mine'")
    version = server.state(game_id, tokens[0])["version"]
    page.locator(".choosable:not([disabled])").first.click()
    page.wait_for_function("document.body.dataset.turn !== 'mine'")
    for player in (1, 2):
        seen = server.state(game_id, tokens[player])
        assert seen["version"] > version  # my placing reached the server first
        server.act(game_id, tokens[player], seen["legal_actions"][0], seen["version"])
    page.wait_for_function(CARDS_MARKED)
    expect_stepper_and_log(page)
    screenshot(page, "marks-guildes-middle")


def draft_until_placing(server: Any, game_id: str, tokens: list[str]) -> None:
    """Every seat keeps its hand's first card until the placing of the first round."""
    for _ in range(MAX_ACTIONS):
        state = server.state(game_id, tokens[0])
        if state["view"]["phase"] == "place":
            assert state["to_move"] == [0, 1, 2]
            return
        player = state["to_move"][0]
        seen = server.state(game_id, tokens[player])
        server.act(game_id, tokens[player], seen["legal_actions"][0], seen["version"])
    raise AssertionError("no placing")


def test_djambi_bot_moves_since_my_turn_are_stepped_through_with_their_paths(
    server: Any, open_page: Callable[..., Any], create_table: Callable[..., str]
) -> None:
    page = open_page().page
    create_table(page, server.base, "djambi")
    rng = random.Random(5)
    page.wait_for_function("document.body.dataset.turn === 'mine'")
    squares = page.locator(".square.choosable")
    squares.nth(rng.randrange(squares.count())).click()
    targets = page.locator(".square.choosable")
    targets.nth(rng.randrange(targets.count())).click()
    # My move sent, the three bots answer (the first rounds kill no Chief: three moves).
    page.wait_for_function(
        "document.body.dataset.turn === 'mine'"
        " && document.querySelector('#move-stepper[data-moves=\"3\"]') !== null"
    )
    stepper = page.locator("#move-stepper")
    expect(stepper).to_contain_text("Move 3 of 3 since your turn")
    # Every move's paths drawn: the latest move's as "last", the others' as earlier moves.
    # A move has a path for each of its actions that moves a piece: two when a Diplomat
    # then puts a piece down (D6). The table's seed is drawn at random, so the bots'
    # moves, and how many paths they have, are whatever it makes them.
    last_paths = page.locator('.mark-path[data-mark="last"]')
    earlier_paths = page.locator('.mark-path[data-mark="earlier"]')
    expect(last_paths.first).to_be_visible()
    last, earlier = last_paths.count(), earlier_paths.count()  # nobody moves until I do
    assert last >= 1 and earlier >= 2
    seen: set[str] = set()
    stepped_paths = 0
    for number in (2, 1):
        page.click("#move-prev")
        expect(stepper).to_have_attribute("data-move", str(number))
        expect(stepper).to_contain_text(f"Move {number} of 3 since your turn")
        paths = page.locator(".mark-path")  # the move stepped to, alone, as "last"
        expect(paths.first).to_be_visible()
        assert paths.count() == page.locator('.mark-path[data-mark="last"]').count()
        stepped_paths += paths.count()
        first = paths.first
        seen.add(f"{first.get_attribute('data-from')}>{first.get_attribute('data-to')}")
        # The piece that moved is on the path's end... unless a later move took it away.
        assert stepper.locator(".log-action").count() >= 1
    assert len(seen) == 2
    assert stepped_paths == earlier  # the earlier moves are the ones stepped through
    expect(page.locator("#move-prev")).to_be_disabled()
    page.click("#move-next")
    page.click("#move-next")
    expect(stepper).to_have_attribute("data-move", "3")
    expect(page.locator("#move-next")).to_be_disabled()
    expect(page.locator(".mark-path")).to_have_count(last)


def play_through_api(server: Any, game: str, seed: int) -> tuple[str, list[str]]:
    """A table of people only, each played by the test with random legal actions (passing
    often in Tyros, to keep it short) until the game is over: its id and the seats' tokens."""
    body: dict[str, Any] = {
        "game": game,
        "seats": [{"kind": "human", "name": f"P{i + 1}"} for i in range(PEOPLE[game])],
    }
    if game == "djambi":
        body["options"] = {"quiet_rounds": 2}
    created = server.create(body)
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        state = server.state(game_id, tokens[0])
        if state["is_over"]:
            return game_id, tokens
        player = state["to_move"][0]
        seen = server.state(game_id, tokens[player])
        legal = seen["legal_actions"]
        passes = [a for a in legal if a == "pass"]
        action = passes[0] if passes and rng.random() < 0.6 else rng.choice(legal)
        server.act(game_id, tokens[player], action, seen["version"])
    raise AssertionError(f"{game} not over after {MAX_ACTIONS} actions")


def expect_reason(page: Page, ending: str) -> None:
    """The end screen's reason: the engine's sentence, seats written as the page names them."""
    reason = page.locator("#end-screen #ending")
    expect(reason).to_be_visible()
    text = reason.inner_text()
    for part in SEAT_MENTION.split(ending):
        assert part.strip() in text, (part, text)


@pytest.mark.parametrize("game", list(PEOPLE))
def test_the_end_screen_states_why_the_game_ended(
    game: str, server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    game_id, tokens = play_through_api(server, game, seed=11)
    ending = server.state(game_id, tokens[0])["ending"]
    assert ending["en"] and ending["fr"]
    page = open_page().page
    page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
    page.wait_for_selector("#end-screen")
    expect_reason(page, ending["en"])
    screenshot(page, f"marks-{game}-end")
    page.click('.lang-switch button:has-text("FR")')
    expect(page.locator("#end-screen h2")).to_have_text("Partie terminée")
    expect_reason(page, ending["fr"])


def test_a_djambi_player_put_out_is_told_and_may_keep_watching(
    server: Any, open_page: Callable[..., Any]
) -> None:
    """Seat 1's colour taken out of the game in the view the page gets (a Chief's death
    needs a long game): the notice says so at once, then folds into a line."""
    created = server.create(
        {"game": "djambi", "seats": [{"kind": "human", "name": f"P{i}"} for i in range(4)]}
    )
    game_id, token = created["id"], created["seats"][0]["token"]
    page: Page = open_page().page

    def out_of_game(route: Route) -> None:
        answer = route.fetch()
        payload = answer.json()
        view = payload["view"]
        view["in_game"] = [c for c in view["in_game"] if c != view["you"]]
        route.fulfill(response=answer, body=json.dumps(payload))

    page.route(re.compile(rf".*/api/games/{game_id}\?.*"), out_of_game)
    # No push either: the socket's first state would bring the true view back.
    page.route_web_socket(re.compile(r".*/api/games/.*/ws.*"), lambda route: None)
    page.goto(f"{server.base}/#/game/{game_id}?token={token}")
    notice = page.locator("section#out-of-game")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("You are out of the game")
    expect(page.locator("#out-lobby")).to_have_attribute("href", "#/")
    page.click("#keep-watching")
    expect(page.locator("section#out-of-game")).to_have_count(0)
    expect(page.locator("#out-of-game")).to_contain_text("watching")


@pytest.mark.parametrize("reduced", [False, True])
def test_marks_animate_unless_motion_is_reduced(
    reduced: bool,
    server: Any,
    open_page: Callable[..., Any],
    create_table: Callable[..., str],
) -> None:
    page = open_page().page
    page.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
    create_table(page, server.base, "djambi")
    # A bot's move arriving while the page is open is fresh: it animates, unless reduced.
    # (Read at once with the check: a fresh move stays fresh for a while only.)
    names = click_until(page, FRESH_PATH_ANIMATION, seed=4)
    assert names == (["none", "none"] if reduced else ["mark-draw", "mark-slide"])
