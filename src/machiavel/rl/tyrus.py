"""Tyrus for the research adapters: 180 numbered placements and a 534-number observation.

Actions are numbered tile by tile (S1..S10, M1..M10, P1..P10), each with the six buildings
in the engine's order (``citadel, market, temple, rival-citadel, rival-market,
rival-temple``): ``number = 6 * tile + building``. The buildings are named from the mover's
side, so the observation is too: "mine" is the viewer, "rival" the other player, and the
buildings are the viewer's three, then the rival's three. docs/rl.md lists every field.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from machiavel.core.contract import JsonDict
from machiavel.games.tyrus.rules import (
    ACTIONS_OF_TILE,
    DECK,
    ELECTIONS,
    KINDS,
    OPENING_HAND,
    TILE_ORDER,
    TILES,
    TILES_PER_ELECTION,
    WINS_TO_WIN,
)
from machiavel.rl.encoding import ListedEncoding, Vector
from machiavel.rl.layout import Field, Layout

PLAYERS = 2
SIDES = ("mine", "rival")
RESERVE = len(TILES) - OPENING_HAND
CARDS_OF_KIND = DECK.count(KINDS[0])  # T3: the deck holds as many cards of each kind
# A building keeps its tiles until an election of its kind: at most the six elections of
# other kinds and the one of its own kind, 3 tiles of each player an election.
MOST_IN_BUILDING = TILES_PER_ELECTION * (ELECTIONS - 2)
MOST_PLACED = TILES_PER_ELECTION * ELECTIONS  # every tile a player ever places
# The highest tally score: every tile of the elected profession, 1 + 2 + ... + 10.
TOP_SCORE = sum(range(1, 11))
# Tiles placed in the election: 0-5 while it is held, 6 once the game has ended with it
# (the engine keeps the count of the last election).
PLACES = 2 * TILES_PER_ELECTION + 1


def _observation_layout() -> tuple[Layout, dict[str, Field]]:
    tiles = "tiles S1..S10, M1..M10, P1..P10"
    sides = "side 0: the viewer, 1: the rival"
    pair = "the viewer's, the rival's"
    layout = Layout()
    add = layout.add
    fields = [
        add("hand", len(TILES), f"1 for each tile in the viewer's hand ({tiles})"),
        add(
            "my_placed",
            6 * len(TILES),
            "the viewer's tiles standing in the buildings, at 30 x building + tile; buildings: "
            "the viewer's citadel, market, temple, then the rival's",
        ),
        add(
            "hidden_placed",
            6,
            "face-down tiles the viewer cannot see (the rival's) in each building "
            f"/ {MOST_IN_BUILDING}",
        ),
        add("rival_revealed", len(TILES), "the rival's tiles shown by the tallies the view holds"),
        add("my_revealed", len(TILES), "the viewer's tiles shown by the tallies the view holds"),
        add("tally_kind", len(KINDS), "latest tally: its kind (citadel, market, temple)"),
        add("tally_election", ELECTIONS, "latest tally: its election (1-9)"),
        add("tally_scores", 2, f"latest tally: the scores, {pair} / {TOP_SCORE}"),
        add("tally_winner", 3, "latest tally: won by the viewer, by the rival, null"),
        add(
            "tally_tiles",
            4 * len(TILES),
            f"latest tally's tiles at 30 x (2 x building's side + placer's side) + tile ({sides})",
        ),
        add("election", ELECTIONS, "the election being held (1-9)"),
        add("election_kind", len(KINDS), "its kind: citadel, market, temple"),
        add("placed", PLACES, "tiles placed in it so far (0-5; 6 once the game is over)"),
        add("i_begin_election", 1, "1 if the viewer places first in this election"),
        add("i_begin_odd", 1, "1 if the viewer is the first player (T2: odd elections)"),
        add("my_turn", 1, "1 if the viewer is to move"),
        add("cards_remaining", len(KINDS), f"election cards left of each kind / {CARDS_OF_KIND}"),
        add(
            "card_kinds",
            ELECTIONS * len(KINDS),
            "election k's card once turned, at 3 x (k-1) + kind",
        ),
        add(
            "card_winners",
            ELECTIONS * 3,
            "election k once held, at 3 x (k-1) + result (viewer won, rival won, null)",
        ),
        add("elections_won", 2, f"elections won, {pair} / {WINS_TO_WIN}"),
        add("hand_counts", 2, f"tiles in hand, {pair} / {OPENING_HAND}"),
        add("reserve_counts", 2, f"tiles in reserve, {pair} / {RESERVE}"),
        add("discard_counts", 2, f"tiles discarded, {pair} / {MOST_PLACED}"),
        add("memory_mode", 1, "1 with option memory_mode (T9)"),
        add("is_over", 1, "1 once the game is over"),
        add("winners", 2, "once over: 1 for each winner (the viewer, the rival)"),
        add("rival_final_hand", len(TILES), "once over: the rival's tiles left in hand"),
    ]
    return layout, {field.name: field for field in fields}


LAYOUT, FIELDS = _observation_layout()


class Encoding(ListedEncoding):
    """Tyrus for two players (both option values: memory_mode only changes the view)."""

    version: ClassVar[int] = 1

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        # By viewer: (the latest tally of the last view read, how many, the vector of zeros
        # with what those tallies give written in), as bytes of float32.
        self._tallies_seen: list[tuple[JsonDict, int, bytes] | None] = [None] * PLAYERS

    def every_action(self) -> Sequence[str]:
        return [action for tile in TILES for action in ACTIONS_OF_TILE[tile]]

    @property
    def observation_size(self) -> int:
        return LAYOUT.size

    def observe(self, view: JsonDict, out: Vector) -> None:
        out[:] = self.vector(view)

    def vector(self, view: JsonDict) -> Vector:
        """The observation, as ``observe`` writes it (tests/rl pin its numbers): each 1 put
        at a position read from tables made once (below), then the fractions."""
        viewer = view["viewer"]
        me = 0 if viewer is None else int(viewer)  # a spectator's from player 0's side
        slots = _SLOTS[me]
        # What the tallies give is written first, in a vector of its own made once per
        # tally and viewer: views share their tallies until the next (Tyrus's engine
        # copies each tally once for them), so the same tally objects mean the same numbers.
        tallies = view["tallies"]
        if tallies:
            latest = tallies[-1]
            seen = self._tallies_seen[me]
            if seen is not None and seen[0] is latest and seen[1] == len(tallies):
                base = seen[2]
            else:
                base = _tallies_vector(tallies, me)
                self._tallies_seen[me] = (latest, len(tallies), base)
                # The rival's view holds the same tallies, and comes next in a game.
                self._tallies_seen[1 - me] = (
                    latest,
                    len(tallies),
                    _tallies_vector(tallies, 1 - me),
                )
        else:
            base = _ZEROS
        out = array("f", base)  # float32, written number by number (plain loops: the
        # fastest here), then seen by numpy as is
        hand = _HAND_SLOT
        for tile in view["hand"] or ():
            out[hand[tile]] = 1.0
        counts = [0, 0, 0, 0, 0, 0]  # hidden tiles in each place
        for building in view["buildings"]:
            tiles = building["tiles"]
            if tiles:
                place = (building["owner"] != me) * 3 + _KIND[building["kind"]]
                mine = slots.placed[place]
                hidden = 0
                for placed in tiles:
                    tile = placed["tile"]
                    if tile is not None and placed["player"] == me:
                        out[mine[tile]] = 1.0
                    else:
                        hidden += 1  # the rival's (a spectator's view: every tile)
                counts[place] += hidden
        out[_ELECTION + _ELECTION_INDEX[view["election"]]] = 1.0
        out[_ELECTION_KIND + _KIND[view["election_kind"]]] = 1.0
        out[_PLACED + min(view["placed_this_election"], PLACES - 1)] = 1.0
        if view["election_first_player"] == me:
            out[_I_BEGIN_ELECTION] = 1.0
        if view["first_player"] == me:
            out[_I_BEGIN_ODD] = 1.0
        if me in view["to_move"]:
            out[_MY_TURN] = 1.0
        for card, kind in zip(_CARD_SLOTS, view["cards_turned"], strict=False):
            out[card[kind]] = 1.0
        results = slots.results_of
        for result in view["results"]:
            out[results[result["election"]][result["winner"]]] = 1.0
        if view["memory_mode"]:
            out[_MEMORY_MODE] = 1.0
        if view["is_over"]:
            out[_IS_OVER] = 1.0
        for player in view["winners"]:
            out[_WINNERS + (player != me)] = 1.0
        final_hands = view.get("final_hands")
        if final_hands is not None:
            final = _RIVAL_FINAL_SLOT
            for tile in final_hands[1 - me]:
                out[final[tile]] = 1.0
        # The fractions, looked up (written by _write_fraction only past the tables).
        in_building = _IN_BUILDING_FRACTION
        for place, count in enumerate(counts):
            if count:
                value = in_building.get(count)
                if value is None:
                    _write_fraction(out, _HIDDEN + place, count, in_building)
                else:
                    out[_HIDDEN + place] = value
        remaining = view["cards_remaining"]
        of_kind = _OF_KIND_FRACTION
        for slot, kind in _CARDS_REMAINING_SLOTS:
            value = of_kind.get(remaining[kind])
            if value is None:
                _write_fraction(out, slot, remaining[kind], of_kind)
            else:
                out[slot] = value
        rival = 1 - me
        for slot, name, fractions in _PAIRS:
            values = view[name]
            value = fractions.get(values[me])
            other = fractions.get(values[rival])
            if value is None or other is None:
                _write_fraction(out, slot, values[me], fractions)
                _write_fraction(out, slot + 1, values[rival], fractions)
            else:
                out[slot] = value
                out[slot + 1] = other
        return np.frombuffer(out, dtype=np.float32)


def _tallies_vector(tallies: list[JsonDict], me: int) -> bytes:
    """A vector of zeros with what ``tallies`` (a view's, not empty) give ``me`` written
    in: the tiles they revealed, and the latest tally's tiles, kind, election, result and
    scores (each in fields of its own, so written apart from the rest)."""
    out = array("f", _ZEROS)
    mine, rival = _MY_REVEALED_SLOT, _RIVAL_REVEALED_SLOT
    for tally in tallies:
        for shown in tally["tiles"]:
            if shown["player"] == me:
                out[mine[shown["tile"]]] = 1.0
            else:
                out[rival[shown["tile"]]] = 1.0
    latest = tallies[-1]
    for shown in latest["tiles"]:  # by (the building's side, the placer's side)
        block = _TALLY_TILES_SLOT[shown["building_of"] != me][shown["player"] != me]
        out[block[shown["tile"]]] = 1.0
    out[_TALLY_KIND + _KIND[latest["kind"]]] = 1.0
    out[_TALLY_ELECTION + _ELECTION_INDEX[latest["election"]]] = 1.0
    winner = latest["winner"]
    out[_TALLY_WINNER + (2 if winner is None else (winner != me))] = 1.0
    scores = latest["scores"]
    _write_fraction(out, _TALLY_SCORES, scores[me], _TOP_SCORE_FRACTION)
    _write_fraction(out, _TALLY_SCORES + 1, scores[1 - me], _TOP_SCORE_FRACTION)
    return out.tobytes()


_N = len(TILES)
_KIND = {kind: index for index, kind in enumerate(KINDS)}
_ELECTION_INDEX = {election: election - 1 for election in range(1, ELECTIONS + 1)}
_HAND_SLOT = {tile: FIELDS["hand"].offset + index for tile, index in TILE_ORDER.items()}
_RIVAL_FINAL_SLOT = {
    tile: FIELDS["rival_final_hand"].offset + index for tile, index in TILE_ORDER.items()
}
_MY_REVEALED_SLOT = {tile: FIELDS["my_revealed"].offset + i for tile, i in TILE_ORDER.items()}
_RIVAL_REVEALED_SLOT = {tile: FIELDS["rival_revealed"].offset + i for tile, i in TILE_ORDER.items()}
# [building's side][placer's side] (0: the viewer, 1: the rival) -> the slot of each tile
_TALLY_TILES_SLOT = [
    [
        {
            tile: FIELDS["tally_tiles"].offset + (building * 2 + placer) * _N + i
            for tile, i in TILE_ORDER.items()
        }
        for placer in range(2)
    ]
    for building in range(2)
]
_CARD_SLOT = {
    (number, kind): FIELDS["card_kinds"].offset + number * len(KINDS) + index
    for number in range(ELECTIONS)
    for kind, index in _KIND.items()
}
# election k's card: kind -> slot, for k = 1 .. 9 (a tenth card is a key error, as before)
_CARD_SLOTS = [
    {kind: _CARD_SLOT[number, kind] for kind in KINDS} for number in range(ELECTIONS)
] + [{} for _ in range(len(DECK) + 1 - ELECTIONS)]
_TALLY_KIND = FIELDS["tally_kind"].offset
_TALLY_ELECTION = FIELDS["tally_election"].offset
_TALLY_WINNER = FIELDS["tally_winner"].offset
_ELECTION = FIELDS["election"].offset
_ELECTION_KIND = FIELDS["election_kind"].offset
_PLACED = FIELDS["placed"].offset
_I_BEGIN_ELECTION = FIELDS["i_begin_election"].offset
_I_BEGIN_ODD = FIELDS["i_begin_odd"].offset
_MY_TURN = FIELDS["my_turn"].offset


def _fraction(count: float, maximum: float) -> float:
    """``count / maximum``, kept within [0, 1] (a count past its usual maximum reads 1)."""
    return min(max(count / maximum, 0.0), 1.0)


class _Fractions(dict[float, float]):
    """``_fraction(count, maximum)`` of the counts a view may hold, looked up."""

    def __init__(self, maximum: int) -> None:
        super().__init__((count, _fraction(count, maximum)) for count in range(4 * maximum))
        self.maximum = maximum


def _write_fraction(out: array[float], slot: int, count: float, fractions: _Fractions) -> None:
    value = fractions.get(count)
    out[slot] = _fraction(count, fractions.maximum) if value is None else value


_ZEROS = bytes(4 * LAYOUT.size)
_HIDDEN = FIELDS["hidden_placed"].offset
_TALLY_SCORES = FIELDS["tally_scores"].offset
_IN_BUILDING_FRACTION = _Fractions(MOST_IN_BUILDING)
_TOP_SCORE_FRACTION = _Fractions(TOP_SCORE)
_OF_KIND_FRACTION = _Fractions(CARDS_OF_KIND)
_CARDS_REMAINING_SLOTS = [
    (FIELDS["cards_remaining"].offset + k, kind) for k, kind in enumerate(KINDS)
]
_PAIRS = [
    (FIELDS[name].offset, name, _Fractions(maximum))
    for name, maximum in [
        ("elections_won", WINS_TO_WIN),
        ("hand_counts", OPENING_HAND),
        ("reserve_counts", RESERVE),
        ("discard_counts", MOST_PLACED),
    ]
]
_MEMORY_MODE = FIELDS["memory_mode"].offset
_IS_OVER = FIELDS["is_over"].offset
_WINNERS = FIELDS["winners"].offset


class _Slots:
    """Where the ones of a viewer's observation go, by what the view lists."""

    def __init__(self, me: int) -> None:
        players = range(PLAYERS)

        def side(player: int) -> int:  # 0 for the viewer, 1 for the rival
            return 0 if player == me else 1

        # the slot of each of the viewer's tiles in each place (the viewer's citadel, market,
        # temple, then the rival's)
        self.placed = [
            {
                tile: FIELDS["my_placed"].offset + place * _N + index
                for tile, index in TILE_ORDER.items()
            }
            for place in range(6)
        ]
        self.results = {
            (election, winner): FIELDS["card_winners"].offset
            + (election - 1) * 3
            + (2 if winner is None else side(winner))
            for election in range(1, ELECTIONS + 1)
            for winner in [*players, None]
        }
        # the same by election: election -> winner -> slot
        self.results_of = {
            election: {
                winner: slot
                for (number, winner), slot in self.results.items()
                if number == election
            }
            for election in range(1, ELECTIONS + 1)
        }


_SLOTS = [_Slots(me) for me in range(PLAYERS)]
