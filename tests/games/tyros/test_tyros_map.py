"""The reconstructed map (Y2, Y3): every route check of the rule book, by the engine's finder.

``route_cost``/``shortest_routes``/``is_route`` read the same breadth-first distance table
(``BOARD.distance``) that the engine uses to price moves; the last tests check the engine's
legal moves against it directly.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

import machiavel
from machiavel.games.tyros.board import (
    BOARD,
    NODE_COUNT,
    TYROS,
    is_route,
    map_view,
    route_cost,
    shortest_routes,
)
from machiavel.games.tyros.rules import FIRST_GAME, TyrosState

GAME = machiavel.game("tyros")


def route(text: str) -> list[str]:
    return text.split("-")


# ---- Y2: the book's allowed, shortest and forbidden routes ------------------------------
def test_y2_tyros_to_23_costs_4_by_two_routes() -> None:
    assert route_cost("tyros", "23") == 4
    assert shortest_routes("tyros", "23") == [
        ["tyros", *route("31-27-22-23")],
        ["tyros", *route("32-28-24-23")],
    ]


def test_y2_31_to_29_costs_4_round_turkey() -> None:
    assert route_cost("31", "29") == 4
    assert route("31-30-26-25-29") in shortest_routes("31", "29")
    assert is_route(route("31-30-26-25-29"))
    assert not is_route(route("31-30-29"))  # no sea between 30 and 29


def test_y2_22_to_8_has_a_single_shortest_route() -> None:
    assert route_cost("22", "8") == 3
    assert shortest_routes("22", "8") == [route("22-17-12-8")]


def test_y2_22_to_15_has_a_single_shortest_route() -> None:
    assert route_cost("22", "15") == 3
    assert shortest_routes("22", "15") == [route("22-17-16-15")]


def test_y2_15_to_10_goes_round_italy() -> None:
    assert route_cost("15", "10") == 5
    assert shortest_routes("15", "10") == [route("15-16-17-12-11-10"), route("15-16-17-16-11-10")]
    assert not is_route(route("15-10"))  # northern Italy is land


def test_y2_greece_and_italy_are_land() -> None:
    assert not is_route(route("26-21-16"))  # no sea between 21 and 16
    assert not is_route(route("15-16-11"))  # Italy's east coast does not face 11
    assert is_route(route("15-16-17-16-11"))  # round the peninsula: 16 twice


def test_y2_italy_has_two_coasts() -> None:
    routes = map_view()["sea_routes"]
    italy = sorted(pair for pair in routes if "16e" in pair or "16w" in pair)
    assert italy == [["11", "16w"], ["15", "16e"], ["16e", "17"], ["16w", "17"]]
    assert not any("16" in pair for pair in routes)  # Italy appears only by its coasts
    assert route_cost("16e", "16w") == 2  # from one coast to the other: via Sicily
    assert route_cost("16e", "11") == 3
    assert route_cost("16w", "11") == 1
    assert BOARD.node_token[BOARD.built_node[16]] == "16w"  # a ship built there: west coast


def test_y2_open_sea_is_never_entered() -> None:
    cells = {c["id"]: (c["x"], c["y"]) for c in map_view()["cells"]}
    assert cells["sea"] == (5, 3)
    assert all("sea" not in pair for pair in map_view()["sea_routes"])
    # 27 and 28 sit either side of the open sea: 2 through it, 4 round it.
    assert route_cost("27", "28") == 4
    assert shortest_routes("27", "28") == [
        route("27-22-23-24-28"),
        ["27", "31", "tyros", "32", "28"],
    ]


def test_y2_grid_positions_and_names() -> None:
    view = map_view()
    cells = {c["id"]: c for c in view["cells"]}
    assert len(cells) == 34  # 32 numbered cells, Tyros, the open sea
    assert (cells["1"]["x"], cells["1"]["y"]) == (0, 0)
    assert (cells["16"]["x"], cells["16"]["y"], cells["16"]["name"]) == (3, 1, "Italia")
    assert (cells["tyros"]["x"], cells["tyros"]["y"]) == (6, 3)
    assert (cells["32"]["x"], cells["32"]["y"]) == (6, 4)
    assert not any(c["x"] == 1 and c["y"] == 4 for c in view["cells"])  # the hole


def test_y2_neighbours_share_a_side() -> None:
    assert BOARD.neighbours[16] == (11, 15, 17, 21)
    assert BOARD.neighbours[5] == (4,)  # nothing east of Mauretania
    assert BOARD.neighbours[28] == (24, 32)  # the open sea is nobody's neighbour
    for cell in range(len(BOARD.neighbours)):
        for other in BOARD.neighbours[cell]:
            assert cell in BOARD.neighbours[other]


def test_y2_first_game_kingdoms_are_not_neighbours() -> None:
    for a in FIRST_GAME:
        for b in FIRST_GAME:
            assert b not in BOARD.neighbours[a]


def test_y2_map_file_is_marked_reconstructed() -> None:
    package = "machiavel.games.tyros"
    data = json.loads(resources.files(package).joinpath("map.json").read_text("utf-8"))
    assert data["reconstructed"] is True
    assert "RECONSTRUCTED" in data["about"]


def test_y3_tyros_neighbours_31_and_32_only() -> None:
    assert BOARD.neighbours[TYROS] == (31, 32)
    assert route_cost("tyros", "31") == route_cost("tyros", "32") == 1
    assert route_cost("tyros", "27") == 2


# ---- the engine prices moves with the same table ----------------------------------------
def ship_at(state: TyrosState, node: str, colour: int, cells: list[int], cards: int) -> None:
    """Player 0 alone on the board with one ship on ``node``; ``cells`` get ``colour``."""
    state.phase = "actions"
    state.current = 0
    state.ships = [[] for _ in range(state.n)]
    state.ships[0] = [BOARD.node_token.index(node)]
    state.markers = [-1] * len(state.markers)
    for cell in cells:
        state.markers[cell] = colour
    state.hands[0] = [0] * 5
    state.hands[0][colour] = cards
    state._refresh_to_move()
    state._legal_cache.clear()
    state._legal_sets.clear()
    state._forget_board()  # markers changed by hand


def move_costs(state: TyrosState) -> dict[str, int]:
    costs = {}
    for action in state.legal_actions(0):
        if action.startswith("move "):
            _, where, _, cards = action.split()[:4]
            costs[where.split(">")[1]] = len(cards.split(","))
    return costs


@pytest.mark.parametrize(
    ("start", "end", "book_cost"),
    [("tyros", "23", 4), ("31", "29", 4), ("22", "8", 3), ("22", "15", 3), ("15", "10", 5)],
)
def test_y2_engine_moves_cost_the_books_routes(start: str, end: str, book_cost: int) -> None:
    state = GAME.new(4, seed=1)
    assert isinstance(state, TyrosState)
    ship_at(state, start, 0, [int(end)], book_cost)
    assert move_costs(state) == {end: book_cost}
    ship_at(state, start, 0, [int(end)], book_cost - 1)
    assert move_costs(state) == {}


def test_y2_engine_distance_table_is_the_route_finder() -> None:
    for a in range(NODE_COUNT):
        for b in range(NODE_COUNT):
            if a != b:
                expected = route_cost(BOARD.node_token[a], BOARD.node_token[b])
                assert BOARD.distance[a][b] == (-1 if expected is None else expected)


def test_y2_engine_italy_coasts() -> None:
    state = GAME.new(4, seed=1)
    assert isinstance(state, TyrosState)
    ship_at(state, "15", 1, [16], 5)
    assert move_costs(state) == {"16e": 1, "16w": 3}  # the west coast: round via Sicily
    ship_at(state, "16e", 1, [16, 11], 5)
    assert move_costs(state) == {"16w": 2, "11": 3}
