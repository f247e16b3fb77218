"""A spectator's page (and a player's) shows nothing that viewer may not see."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from support.seeds import dealt

# A tile stands alone ("S5"); the page also shows the game id and its tokens, random
# texts of letters, digits, "-" and "_" that may hold "-S4-" (about one id in 5,000).
TILE = re.compile(r"(?<![\w-])[SMP](?:10|[1-9])(?![\w-])")
# Every text of the page and every attribute value but geometry (path data is "M10 20...").
PAGE_TEXTS = """() => {
  const skip = new Set(["d", "points", "viewBox", "transform", "style", "class"]);
  const out = [];
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) { out.push(node.textContent); continue; }
    if (node.tagName === "SCRIPT" || node.tagName === "STYLE") continue;
    for (const attr of node.attributes) if (!skip.has(attr.name)) out.push(attr.value);
    if (node.value !== undefined && typeof node.value === "string") out.push(node.value);
  }
  return out.join("\\n");
}"""


def play_some(server: Any, game_id: str, tokens: list[str], count: int) -> list[tuple[int, str]]:
    """Play ``count`` actions through the API (first legal action of a seat to move)."""
    played: list[tuple[int, str]] = []
    for _ in range(count):
        public = server.state(game_id)
        player = public["to_move"][0]
        seat = server.state(game_id, tokens[player])
        action = seat["legal_actions"][len(played) % len(seat["legal_actions"])]
        server.act(game_id, tokens[player], action, seat["version"])
        played.append((player, action))
    return played


def shows_everything_played(page: Page, version: int) -> None:
    """Wait until the page shows the game at ``version``, its socket live (nothing more
    is coming that could show something else)."""
    page.wait_for_selector(f'.game-page[data-version="{version}"]')
    page.wait_for_selector('#connection[data-status="live"]')


def test_tyrus_pages_show_no_hidden_tile(server: Any, open_page: Callable[..., Any]) -> None:
    created = server.create(
        {
            "game": "tyrus",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    played = play_some(server, game_id, tokens, 9)  # past the first tally (6 tiles)

    # The same game rebuilt here from the deal the server stored: the true hands and
    # building contents.
    truth = dealt(server.database_url, game_id)
    for player, action in played:
        truth.apply(player, action)
    spectator = truth.view(None)
    revealed = {x["tile"] for tally in spectator["tallies"] for x in tally["tiles"]}
    assert revealed, "the test must run past a tally"
    views = [truth.view(p) for p in (0, 1)]
    placed_by: list[set[str]] = [set(), set()]  # tiles in buildings, by who placed them
    for b, building in enumerate(views[0]["buildings"]):
        for i, tile in enumerate(building["tiles"]):
            placer = tile["player"]
            placed_by[placer].add(views[placer]["buildings"][b]["tiles"][i]["tile"])
    hidden_from_all = (
        set(views[0]["hand"]) | set(views[1]["hand"]) | placed_by[0] | placed_by[1]
    ) - revealed
    assert hidden_from_all, "the test needs hidden tiles to look for"

    page = open_page().page
    page.goto(f"{server.base}/#/game/{game_id}?spectate=1")
    page.wait_for_selector(".tyrus-board")
    shows_everything_played(page, len(played))
    shown = set(TILE.findall(page.evaluate(PAGE_TEXTS)))
    assert shown, "the tally's tiles are on the page (the search works)"
    assert shown <= revealed, f"the spectator page shows hidden tiles: {shown - revealed}"
    assert page.locator(".hand .hand-tile").count() == 0

    # Seat 0's page: its own tiles, never Bo's hidden ones.
    mine = set(views[0]["hand"]) | placed_by[0] | revealed
    bos_secrets = (set(views[1]["hand"]) | placed_by[1]) - mine
    assert bos_secrets
    seat_page = open_page().page
    seat_page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
    seat_page.wait_for_selector(".tyrus-board")
    shows_everything_played(seat_page, len(played))
    shown_to_ada = set(TILE.findall(seat_page.evaluate(PAGE_TEXTS)))
    assert set(views[0]["hand"]) <= shown_to_ada
    assert not shown_to_ada & bos_secrets
    assert tokens[1] not in seat_page.evaluate(PAGE_TEXTS) + seat_page.evaluate(
        "JSON.stringify(localStorage)"
    )


def test_guildes_and_tyros_spectators_see_no_hand(
    server: Any, open_page: Callable[..., Any]
) -> None:
    for game, marker in (("guildes", ".guildes-board"), ("tyros", ".tyros-board")):
        created = server.create({"game": game, "players": 3})
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        play_some(server, game_id, tokens, 4)
        page = open_page().page
        page.goto(f"{server.base}/#/game/{game_id}?spectate=1")
        page.wait_for_selector(marker)
        texts = page.evaluate(PAGE_TEXTS)
        assert page.locator(".panel.hand, .panel.kept, .panel.all-hands").count() == 0
        assert page.locator(".choosable").count() == 0
        assert not any(token in texts for token in tokens)
        seat = server.state(game_id, tokens[0])
        seat_page = open_page().page
        seat_page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
        seat_page.wait_for_selector(marker)
        hand_panel = seat_page.locator(".panel.hand, .panel.kept").first
        assert hand_panel.count() == 1
        if game == "tyros":  # the seat sees its own tiles, by number
            for tile in seat["view"]["my_tiles"]:
                assert seat_page.locator(f'[data-tile="{tile}"]').count() == 1
