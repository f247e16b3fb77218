"""The page patches its DOM (docs/web.md, "Drawing: patched, not rebuilt"): what a person
is doing survives pushes; keyboard players keep their place on the board; a phone-wide page
never scrolls sideways.

Pushes here are moves made through the API and the bots' answers to them. Every wait is on
what the page shows, bounded (PAGE_WAIT_MS); none stands in for a condition.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from support.waiting import PAGE_WAIT_MS

PHONE = {"width": 390, "height": 844}
EASY_BOT = {"kind": "bot", "level": "easy"}
IN_BOARD = "!!document.activeElement && !!document.activeElement.closest('.board-area')"


def open_game(page: Page, server: Any, game_id: str, token: str) -> None:
    """A game page as the seat of ``token``, its socket live (pushes reach it from now)."""
    page.goto(f"{server.base}/#/game/{game_id}?token={token}")
    page.wait_for_selector('#connection[data-status="live"]')


def shows_version(page: Page, version: int) -> None:
    page.wait_for_selector(f'.game-page[data-version="{version}"]', timeout=PAGE_WAIT_MS)


def settled_version(server: Any, game_id: str) -> int:
    """The version once the bots have answered: the game waits for a person (or is over).
    Asked again until then; only a stuck server reaches the bound."""
    deadline = time.monotonic() + PAGE_WAIT_MS / 1000
    while time.monotonic() < deadline:
        state = server.state(game_id)
        people = {s["player"] for s in state["seats"] if s["kind"] == "human"}
        if state["is_over"] or people & set(state["to_move"]):
            version: int = state["version"]
            return version
        time.sleep(0.05)  # a bot is thinking: ask again (a poll, not a wait for time)
    raise AssertionError("the bots never let a person play")


def push_moves(server: Any, game_id: str, tokens: dict[int, str], at_least: int) -> int:
    """Moves by the people (first legal action, through the API) and the bots' answers
    until the game moved ``at_least`` times: pushes to every page; the last version."""
    first = server.state(game_id)["version"]
    while True:
        version = settled_version(server, game_id)
        state = server.state(game_id)
        if version - first >= at_least or state["is_over"]:
            return version
        person = next(p for p in state["to_move"] if p in tokens)
        seat = server.state(game_id, tokens[person])
        server.act(game_id, tokens[person], seat["legal_actions"][0], seat["version"])


def test_a_name_typed_survives_bot_moves_with_focus_and_caret(
    server: Any, open_page: Callable[..., Any]
) -> None:
    # Ada and two bots play; the fourth seat, without a name yet, is this page's.
    created = server.create(
        {
            "game": "djambi",
            "seats": [{"kind": "human", "name": "Ada"}, EASY_BOT, EASY_BOT, {"kind": "human"}],
        }
    )
    game_id = created["id"]
    tokens = {0: created["seats"][0]["token"], 3: created["seats"][3]["token"]}
    page: Page = open_page().page
    open_game(page, server, game_id, tokens[3])
    page.click("#join-name")
    page.keyboard.type("Zoé Martin")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")  # the caret inside the name: "Zoé Mar|tin"

    shows_version(page, push_moves(server, game_id, tokens, at_least=4))

    expect(page.locator("#join-name")).to_have_value("Zoé Martin")
    assert page.evaluate("document.activeElement.id") == "join-name"
    assert page.evaluate("document.getElementById('join-name').selectionStart") == 7
    page.keyboard.type("x")  # typing goes on where it was
    expect(page.locator("#join-name")).to_have_value("Zoé Marxtin")


def test_an_open_panel_stays_open_and_the_log_keeps_its_scroll(
    server: Any, open_page: Callable[..., Any]
) -> None:
    created = server.create(
        {
            "game": "djambi",
            "seats": [{"kind": "human", "name": "Ada"}, EASY_BOT, EASY_BOT, EASY_BOT],
        }
    )
    game_id, tokens = created["id"], {0: created["seats"][0]["token"]}
    page: Page = open_page().page
    open_game(page, server, game_id, tokens[0])
    page.click("#game-account .sign-up summary")  # signed out and seated: "no account yet?"
    expect(page.locator("#game-account .sign-up")).to_have_attribute("open", "")
    shows_version(page, push_moves(server, game_id, tokens, at_least=6))
    expect(page.locator("#game-account .sign-up")).to_have_attribute("open", "")
    # The log scrolled up by the person stays where they left it when a push adds lines.
    log = page.locator(".log ol")
    page.add_style_tag(content=".log ol { max-height: 3rem !important; }")  # it overflows
    log.evaluate("node => { node.scrollTop = 0; }")
    lines = page.locator(".log ol li").count()
    shows_version(page, push_moves(server, game_id, tokens, at_least=4))
    expect(page.locator(".log ol li")).not_to_have_count(lines)
    assert log.evaluate("node => node.scrollTop") == 0


ON_A_TARGET = IN_BOARD + " && document.activeElement.matches('.choosable:not(.selected)')"


def focus_a_target(page: Page) -> None:
    """Tab until a board target not chosen yet has the focus (a keyboard player's way)."""
    for _ in range(300):
        if page.evaluate(ON_A_TARGET):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reaches a board target")


def version_of(page: Page) -> int:
    return int(page.get_attribute(".game-page", "data-version") or "0")


def test_keyboard_moves_in_tyrus_keep_the_focus_on_the_board(
    server: Any, open_page: Callable[..., Any]
) -> None:
    created = server.create(
        {"game": "tyrus", "seats": [{"kind": "human", "name": "Ada"}, EASY_BOT]}
    )
    game_id, ada = created["id"], created["seats"][0]["token"]
    page: Page = open_page().page
    open_game(page, server, game_id, ada)
    keys = ["Enter", " "]
    for turn in range(4):
        page.wait_for_function("['mine', 'over'].includes(document.body.dataset.turn)")
        if page.evaluate("document.body.dataset.turn") == "over":
            break
        before = version_of(page)
        steps = 0
        while version_of(page) == before:  # a tile, then a building: one key each
            page.wait_for_selector(".board-area .choosable")
            focus_a_target(page)
            page.keyboard.press(keys[(turn + steps) % 2])
            steps += 1
            assert steps <= 4, "a move takes a tile and a building"
            assert page.evaluate(IN_BOARD), f"turn {turn}: focus left the board"
            page.wait_for_function(
                f"Number(document.querySelector('.game-page').dataset.version) > {before}"
                " || !!document.querySelector('.board-area .selected')"
            )
        assert page.evaluate(IN_BOARD), f"turn {turn}: the answer took the focus off the board"
        # The bot's move arrives as a push: the focus stays where it was. (When the bot has
        # placed all its tiles of the election, it is my turn again with no push between.)
        page.wait_for_function(
            f"Number(document.querySelector('.game-page').dataset.version) > {before + 1}"
            " || ['mine', 'over'].includes(document.body.dataset.turn)"
        )
        assert page.evaluate(IN_BOARD), f"turn {turn}: the push took the focus off the board"
    # The moves made by keyboard reached the server: Ada played at least one.
    assert any(entry["player"] == 0 for entry in server.state(game_id)["marks"])


@pytest.mark.parametrize(
    ("game", "players"), [("tyrus", 2), ("djambi", 4), ("guildes", 4), ("tyros", 4)]
)
def test_a_phone_wide_page_never_scrolls_sideways(
    game: str, players: int, server: Any, open_page: Callable[..., Any]
) -> None:
    # A chosen seed (one person at the table): Ada's first turn is an expansion with tiles
    # to pick, not a hand that cannot expand (Y5), whatever the draw.
    seats = [{"kind": "human", "name": "Ada"}] + [EASY_BOT] * (players - 1)
    created = server.create({"game": game, "seats": seats, "seed": 3})
    game_id, ada = created["id"], created["seats"][0]["token"]
    page: Page = open_page(viewport=PHONE).page
    open_game(page, server, game_id, ada)
    page.wait_for_selector(".board-area svg, .board-area table")
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"{game}: the page is {width} px wide"
    if game == "tyros":
        tyros_chosen_cell_is_in_view(page)
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"{game}: the page is {width} px wide"


# The map cell of each tile chip the person may play, and whether the map's box shows it.
CELLS_IN_VIEW = """() => {
  const box = document.querySelector('.board-scroll').getBoundingClientRect();
  return [...document.querySelectorAll(CHIPS)].map((chip) => {
    const cell = document.querySelector(`.board-scroll [data-cell="${chip.dataset.tile}"]`);
    const r = cell.getBoundingClientRect();
    return [chip.dataset.tile, r.left >= box.left && r.right <= box.right];
  });
}"""


def tyros_chosen_cell_is_in_view(page: Page) -> None:
    """The map scrolls in its own box (as wide as the screen); a tile picked from the hand
    brings its cell into that box's view."""
    box = page.locator(".board-scroll").first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.wait_for_function("document.body.dataset.turn === 'mine'")
    page.wait_for_selector(".tile-chip.choosable")
    chips: list[list[Any]] = page.evaluate(CELLS_IN_VIEW.replace("CHIPS", "'.tile-chip.choosable'"))
    hidden = [tile for tile, seen in chips if not seen]
    tile = hidden[0] if hidden else chips[-1][0]
    page.click(f'.tile-chip.choosable[data-tile="{tile}"]')
    page.wait_for_selector(f'.board-scroll [data-cell="{tile}"].selected')
    seen = page.evaluate(CELLS_IN_VIEW.replace("CHIPS", "'.tile-chip'"))
    shown = dict(seen)
    assert shown[tile], f"cell {tile} is out of the map's view"
