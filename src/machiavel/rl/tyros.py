"""Tyros for the research adapters: every action numbered, a view as a vector (docs/rl.md).

Actions are listed (about 107,000 for 4 players; moves with their payments and city fees
are most of them) from the map, the card kinds and the engine's limits, in the order of
``ACTION_KINDS``. The observation puts the viewer's seat first: a player's policy reads
"me, the next player, ..." whichever seat it plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np

from machiavel.core.contract import JsonDict
from machiavel.games.tyros.board import BOARD, CELL_COUNT, NODE_BY_TOKEN, NODE_COUNT, cell_token
from machiavel.games.tyros.cards import (
    CARD_NAMES,
    COLOURS,
    JOKERS,
    KINDS,
    MULTISETS,
    PER_COLOUR,
    TOTAL_CARDS,
    Vec,
    pay_vec,
    sub_multisets,
    vec_str,
)
from machiavel.games.tyros.rules import (
    CITIES_EACH,
    CITY_COST,
    KEEP_AT_MOST,
    MARKERS_PER_COLOUR,
    MAX_OFFERS_PER_TURN,
    MAX_OWN_SHIPS_IN_OPEN_TYROS,
    MAX_SHIPS_PER_CELL,
    MAX_TRADES_PER_ROUND,
    OFFER_MAX_CARDS,
    SHIPS_EACH,
    TILE_COUNT,
    TILES_EACH,
)
from machiavel.rl.encoding import ListedEncoding, Vector

TILES = range(1, TILE_COUNT + 1)  # terrain tiles are the numbered cells
CELLS = [cell_token(cell) for cell in range(CELL_COUNT)]  # "tyros", "1" .. "32"
CELL_INDEX = {token: cell for cell, token in enumerate(CELLS)}
NODES = BOARD.node_token  # where a ship stands: cells, and "16e"/"16w" for Italy
ITALY = next(cell for cell, nodes in enumerate(BOARD.cell_nodes) if len(nodes) > 1)
PHASES = ("expand", "actions", "offer", "keep", "over")
# Y8 points: a city scores at most 12, a cell held by ships at most 6, a majority 7, and
# the bonus for a city in every empire 7.
CITY_POINTS, SHIP_POINTS, BONUS_POINTS = 12, 6, 7
MAX_CITY_POINTS = CITIES_EACH * CITY_POINTS
MAX_SHIP_POINTS = SHIPS_EACH * SHIP_POINTS
MAX_MAJORITY_POINTS = len(COLOURS) * BONUS_POINTS
MAX_POINTS = MAX_CITY_POINTS + MAX_SHIP_POINTS + MAX_MAJORITY_POINTS + BONUS_POINTS
# The largest empire holds at most all cities and ships, and one majority.
MAX_LARGEST_EMPIRE_POINTS = MAX_CITY_POINTS + MAX_SHIP_POINTS + BONUS_POINTS
ROUNDS_SEEN = 16  # the round number is scaled by this and clipped (random games: 5-6)
CARD_MAXIMA = (PER_COLOUR,) * len(COLOURS) + (JOKERS,)  # how many of each kind exist
PLAYER_NUMBERS = 13  # numbers per player before their known cards and shown tiles


# ---- actions ---------------------------------------------------------------------------
def _possible(vec: Vec) -> bool:
    """Whether a hand can hold these cards at all (14 per colour, 4 jokers)."""
    return all(count <= most for count, most in zip(vec, CARD_MAXIMA, strict=True))


def colour_payments(cost: int) -> list[str]:
    """Y6 canonical payments of ``cost`` cards of one colour: that colour first, jokers for
    the missing ones (all jokers spells the same for every colour: listed once)."""
    payments = (
        pay_vec(colour, cost - jokers, jokers)
        for colour in range(len(COLOURS))
        for jokers in range(cost + 1)
    )
    return list(dict.fromkeys(vec_str(vec) for vec in payments if _possible(vec)))


def expand_actions() -> Iterator[str]:
    for tile in TILES:
        for colour in COLOURS:
            yield f"expand {tile} {colour}"


def under_actions() -> Iterator[str]:
    for tile in TILES:
        yield f"under {tile}"


def move_actions() -> Iterator[str]:
    """From every node to every other it has a sea route to, every canonical payment of
    that route's cost, each followed by the same with each card kind as a city fee (Y6)."""
    for source in range(NODE_COUNT):
        for dest in range(NODE_COUNT):
            cost = BOARD.distance[source][dest]
            if cost <= 0:
                continue
            for payment in colour_payments(cost):
                text = f"move {NODES[source]}>{NODES[dest]} pay {payment}"
                yield text
                for fee in CARD_NAMES:
                    yield f"{text} fee {fee}"


def city_actions() -> Iterator[str]:
    """Every cell, every city cost; in Italy with two ships (one per coast) the ship that
    goes home is named."""
    two_ships = CITY_COST[MAX_SHIPS_PER_CELL - 1]
    for cell in range(CELL_COUNT):
        for cost in CITY_COST:
            for payment in colour_payments(cost):
                yield f"city {CELLS[cell]} pay {payment}"
        if cell == ITALY:
            for payment in colour_payments(two_ships):
                for node in BOARD.cell_nodes[ITALY]:
                    yield f"city {CELLS[cell]} pay {payment} return {NODES[node]}"


def city_ship_payments() -> list[str]:
    """A ship at a city: one card of the cell's colour (a joker without one), plus any one
    card when a ship stands there already (Y6). Cells take every colour, so every single
    card and every pair (each holds a colour or a joker to be the first card) occurs."""
    return [vec_str(vec) for size in (1, 2) for vec in MULTISETS[size]]


def open_tyros_payments(players: int) -> list[str]:
    """A ship in Tyros before its city: one card of any colour per ship there counting the
    new one (Y6). Each player holds at most 2 there and the builder fewer than 2."""
    most = MAX_OWN_SHIPS_IN_OPEN_TYROS * players
    every_size = (sub_multisets((most,) * KINDS, size) for size in range(1, most + 1))
    return [vec_str(vec) for vecs in every_size for vec in vecs if _possible(vec)]


def ship_actions(players: int) -> Iterator[str]:
    at_a_city = city_ship_payments()
    in_tyros = list(dict.fromkeys(open_tyros_payments(players) + at_a_city))
    for cell in range(CELL_COUNT):
        for payment in in_tyros if cell == 0 else at_a_city:
            yield f"ship {CELLS[cell]} pay {payment}"


def bank_actions() -> Iterator[str]:
    """Discard 1-3 for as many from the deck, then 3 for one other kind from the discard."""
    for size in (1, 2, 3):
        for vec in MULTISETS[size]:
            yield f"bank {vec_str(vec)}"
    for vec in MULTISETS[3]:
        for take in range(KINDS):
            if not vec[take]:
                yield f"bank {vec_str(vec)} take {CARD_NAMES[take]}"


def offer_actions(players: int) -> Iterator[str]:
    """House limit: 1-2 cards given, 1-2 asked, no kind on both sides; to every seat."""
    sizes = range(1, OFFER_MAX_CARDS + 1)
    sets = [vec for size in sizes for vec in MULTISETS[size]]
    for target in range(players):
        for give in sets:
            for ask in sets:
                if not any(give[kind] and ask[kind] for kind in range(KINDS)):
                    yield f"offer {target} give {vec_str(give)} ask {vec_str(ask)}"


def keep_actions() -> Iterator[str]:
    for vec in MULTISETS[KEEP_AT_MOST]:
        yield f"keep {vec_str(vec)}"


@cache
def every_tyros_action(players: int) -> tuple[str, ...]:
    """Every action in the documented order (docs/rl.md, "Tyros"); built once per player
    count, shared by every encoding (an action space and an observer each hold one)."""
    return (
        *expand_actions(),
        *under_actions(),
        *move_actions(),
        *city_actions(),
        *ship_actions(players),
        *bank_actions(),
        *offer_actions(players),
        "accept",
        "refuse",
        "pass",
        *keep_actions(),
    )


# ---- observation -----------------------------------------------------------------------
def observation_fields(players: int) -> list[tuple[str, int]]:
    """(name, length) of each field, in order; seats are rotated, the viewer first."""
    n = players
    per_player = PLAYER_NUMBERS + KINDS + TILE_COUNT
    return [
        ("to_move", n),
        ("is_over", 1),
        ("winners", n),
        ("phase", len(PHASES)),
        ("round", 1),
        ("first_player", n),
        ("current_player", n),
        ("expansion_turns_left", 1),
        ("final_round", 1),
        ("tyros_open", 1),
        ("deck", 1),
        ("pile", 1),
        ("discard", KINDS),
        ("offers_this_turn", 1),
        ("passes_in_a_row", 1),
        ("all_empires_bonus", n),
        ("offer", 1 + 2 * n + 2 * KINDS),
        ("empires", len(COLOURS) * (1 + len(COLOURS))),
        ("markers", CELL_COUNT * len(COLOURS)),
        ("cities", CELL_COUNT * n),
        ("ships", NODE_COUNT * n),
        ("removed_tiles", TILE_COUNT),
        ("pile_known", 2 * TILE_COUNT),
        ("my_tiles", TILE_COUNT),
        ("hand", KINDS),
        ("kept", 1 + KINDS),
        ("player_info", n * per_player),
    ]


class _Writer:
    """Writes a view's fields into the observation, seats rotated so the viewer is first."""

    def __init__(self, view: JsonDict, out: Vector, offsets: Mapping[str, int]) -> None:
        self.view = view
        self.out = out
        self.offsets = offsets
        self.n: int = view["players"]
        viewer = view.get("viewer")
        self.viewer: int = viewer if isinstance(viewer, int) else 0  # a spectator: seat 0

    def slot(self, seat: int) -> int:
        return (seat - self.viewer) % self.n

    def put(self, field: str, index: int, value: float) -> None:
        self.out[self.offsets[field] + index] = value

    def flag(self, field: str, index: int, on: object) -> None:
        if on:
            self.put(field, index, 1.0)

    def seat(self, field: str, seat: object, base: int = 0) -> None:
        """One-hot of a seat (nothing for None)."""
        if isinstance(seat, int):
            self.put(field, base + self.slot(seat), 1.0)

    def cards(
        self, field: str, counts: Mapping[str, int] | None, base: int = 0, most: int | None = None
    ) -> None:
        """Card counts by kind, each divided by ``most`` or by how many of it exist."""
        if counts:
            for kind, name in enumerate(CARD_NAMES):
                self.put(field, base + kind, counts[name] / (most or CARD_MAXIMA[kind]))


class Encoding(ListedEncoding):
    """Tyros for 3 or 4 players (the ``setup`` option changes neither numbering nor layout)."""

    version = 1

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.fields = observation_fields(players)
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, length in self.fields:
            self.offsets[name] = offset
            offset += length
        self._size = offset

    def every_action(self) -> Sequence[str]:
        return every_tyros_action(self.players)

    @property
    def observation_size(self) -> int:
        return self._size

    def observe(self, view: JsonDict, out: Vector) -> None:
        write = _Writer(view, out, self.offsets)
        _turn(write)
        _offer(write)
        _board(write)
        _tiles(write)
        _own(write)
        _players(write)
        np.clip(out, 0.0, 1.0, out=out)  # only the round number can overflow its scale


def _turn(write: _Writer) -> None:
    view, n = write.view, write.n
    for seat in view["to_move"]:
        write.seat("to_move", seat)
    write.flag("is_over", 0, view["is_over"])
    for seat in view["winners"]:
        write.seat("winners", seat)
    write.put("phase", PHASES.index(view["phase"]), 1.0)
    write.put("round", 0, view["round"] / ROUNDS_SEEN)
    write.seat("first_player", view["first_player"])
    write.seat("current_player", view["current_player"])
    write.put("expansion_turns_left", 0, view["expansion_turns_left"] / (2 * n))
    write.flag("final_round", 0, view["final_round"])
    write.flag("tyros_open", 0, view["tyros_open"])
    write.put("deck", 0, view["deck"] / TOTAL_CARDS)
    write.put("pile", 0, view["pile"] / TILE_COUNT)
    write.cards("discard", view["discard"])
    write.put("offers_this_turn", 0, view["offers_this_turn"] / MAX_OFFERS_PER_TURN)
    write.put("passes_in_a_row", 0, view["passes_in_a_row"] / n)
    write.seat("all_empires_bonus", view["all_empires_bonus"])


def _offer(write: _Writer) -> None:
    offer = write.view["offer"]
    if offer is None:
        return
    n = write.n
    write.put("offer", 0, 1.0)
    write.seat("offer", offer["from"], 1)
    write.seat("offer", offer["to"], 1 + n)
    write.cards("offer", offer["give"], 1 + 2 * n, OFFER_MAX_CARDS)
    write.cards("offer", offer["ask"], 1 + 2 * n + KINDS, OFFER_MAX_CARDS)


def _board(write: _Writer) -> None:
    view, n = write.view, write.n
    stride = 1 + len(COLOURS)
    for empire in view["empires"]:
        base = COLOURS.index(empire["colour"]) * stride
        write.put("empires", base, empire["size"] / MARKERS_PER_COLOUR)
        write.put("empires", base + empire["rank"], 1.0)
    for cell, colour in view["markers"].items():
        write.put("markers", CELL_INDEX[cell] * len(COLOURS) + COLOURS.index(colour), 1.0)
    for cell, owner in view["cities"].items():
        write.seat("cities", owner, CELL_INDEX[cell] * n)
    # A player holds at most 2 ships on a node (Y6, and in Tyros before its city).
    for ship in view["ships"]:
        node = NODE_BY_TOKEN[ship["cell"] + ship.get("coast", "")]
        index = node * n + write.slot(ship["owner"])
        write.out[write.offsets["ships"] + index] += 1.0 / MAX_OWN_SHIPS_IN_OPEN_TYROS


def _tiles(write: _Writer) -> None:
    view = write.view
    for tile in view["removed_tiles"]:
        write.put("removed_tiles", tile - 1, 1.0)
    for depth, tile in view["pile_known"]:
        write.put("pile_known", 2 * (tile - 1), 1.0)
        write.put("pile_known", 2 * (tile - 1) + 1, depth / TILE_COUNT)
    for tile in view["my_tiles"] or ():
        write.put("my_tiles", tile - 1, 1.0)


def _own(write: _Writer) -> None:
    write.cards("hand", write.view["hand"])
    kept = write.view["kept"]
    if kept is not None:
        write.put("kept", 0, 1.0)
        write.cards("kept", kept, 1, KEEP_AT_MOST)


def _players(write: _Writer) -> None:
    per_player = PLAYER_NUMBERS + KINDS + TILE_COUNT
    for seat, info in enumerate(write.view["player_info"]):
        base = write.slot(seat) * per_player
        score = info["score"]
        scaled = (
            info["cards"] / TOTAL_CARDS,
            info["tiles"] / TILES_EACH,
            info["ships_in_supply"] / SHIPS_EACH,
            info["cities_in_supply"] / CITIES_EACH,
            info["trades_this_round"] / MAX_TRADES_PER_ROUND,
            float(info["must_keep"]),
            float(info["has_kept"]),
            score["cities"] / MAX_CITY_POINTS,
            score["ships"] / MAX_SHIP_POINTS,
            score["majorities"] / MAX_MAJORITY_POINTS,
            score["all_empires_bonus"] / BONUS_POINTS,
            score["in_largest_empire"] / MAX_LARGEST_EMPIRE_POINTS,
            write.view["scores"][seat] / MAX_POINTS,
        )
        for index, value in enumerate(scaled):
            write.put("player_info", base + index, value)
        write.cards("player_info", info.get("known_cards"), base + len(scaled))
        for tile in info["shown_tiles"]:
            write.put("player_info", base + len(scaled) + KINDS + tile - 1, 1.0)
