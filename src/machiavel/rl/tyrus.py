"""Tyrus for the research adapters: 180 numbered placements and a 534-number observation.

Actions are numbered tile by tile (S1..S10, M1..M10, P1..P10), each with the six buildings
in the engine's order (``citadel, market, temple, rival-citadel, rival-market,
rival-temple``): ``number = 6 * tile + building``. The buildings are named from the mover's
side, so the observation is too: "mine" is the viewer, "rival" the other player, and the
buildings are the viewer's three, then the rival's three. docs/rl.md lists every field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

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
from machiavel.rl.layout import Field, Layout, fill, fraction, many_hot, one_hot

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

    def every_action(self) -> Sequence[str]:
        return [action for tile in TILES for action in ACTIONS_OF_TILE[tile]]

    @property
    def observation_size(self) -> int:
        return LAYOUT.size

    def observe(self, view: JsonDict, out: Vector) -> None:
        me = _viewer(view)
        _observe_tiles(view, me, out)
        tallies = view["tallies"]
        for tally in tallies:
            _observe_revealed(tally, me, out)
        if tallies:
            _observe_latest_tally(tallies[-1], me, out)
        _observe_election(view, me, out)
        _observe_history(view, me, out)
        _observe_counts(view, me, out)
        _observe_ending(view, me, out)


def _viewer(view: JsonDict) -> int:
    """The seat the observation is written from (a spectator's from player 0's)."""
    viewer = view["viewer"]
    return 0 if viewer is None else int(viewer)


def _side(player: int, me: int) -> int:
    """0 for the viewer, 1 for the rival."""
    return 0 if player == me else 1


def _tile_indices(tiles: Sequence[str]) -> list[int]:
    return [TILE_ORDER[tile] for tile in tiles]


def _observe_tiles(view: JsonDict, me: int, out: Vector) -> None:
    """The viewer's hand and the tiles standing in the six buildings."""
    many_hot(out, FIELDS["hand"], _tile_indices(view["hand"] or []))
    hidden = [0.0] * 6
    for building in view["buildings"]:
        place = _side(building["owner"], me) * 3 + KINDS.index(building["kind"])
        for placed in building["tiles"]:
            if placed["player"] == me and placed["tile"] is not None:
                one_hot(out, FIELDS["my_placed"], place * len(TILES) + TILE_ORDER[placed["tile"]])
            else:
                hidden[place] += 1  # the rival's (a spectator's view: every tile)
    fill(out, FIELDS["hidden_placed"], [fraction(c, MOST_IN_BUILDING) for c in hidden])


def _observe_revealed(tally: JsonDict, me: int, out: Vector) -> None:
    for shown in tally["tiles"]:
        name = "my_revealed" if shown["player"] == me else "rival_revealed"
        one_hot(out, FIELDS[name], TILE_ORDER[shown["tile"]])


def _observe_latest_tally(tally: JsonDict, me: int, out: Vector) -> None:
    one_hot(out, FIELDS["tally_kind"], KINDS.index(tally["kind"]))
    one_hot(out, FIELDS["tally_election"], tally["election"] - 1)
    scores = tally["scores"]
    fill(
        out,
        FIELDS["tally_scores"],
        [fraction(scores[me], TOP_SCORE), fraction(scores[1 - me], TOP_SCORE)],
    )
    one_hot(out, FIELDS["tally_winner"], _result_index(tally["winner"], me))
    for shown in tally["tiles"]:
        block = _side(shown["building_of"], me) * 2 + _side(shown["player"], me)
        one_hot(out, FIELDS["tally_tiles"], block * len(TILES) + TILE_ORDER[shown["tile"]])


def _result_index(winner: int | None, me: int) -> int:
    """0: the viewer won, 1: the rival, 2: a null election."""
    return 2 if winner is None else _side(winner, me)


def _observe_election(view: JsonDict, me: int, out: Vector) -> None:
    one_hot(out, FIELDS["election"], view["election"] - 1)
    one_hot(out, FIELDS["election_kind"], KINDS.index(view["election_kind"]))
    one_hot(out, FIELDS["placed"], min(view["placed_this_election"], PLACES - 1))
    out[FIELDS["i_begin_election"].offset] = float(view["election_first_player"] == me)
    out[FIELDS["i_begin_odd"].offset] = float(view["first_player"] == me)
    out[FIELDS["my_turn"].offset] = float(me in view["to_move"])
    remaining = view["cards_remaining"]
    fill(out, FIELDS["cards_remaining"], [fraction(remaining[k], CARDS_OF_KIND) for k in KINDS])


def _observe_history(view: JsonDict, me: int, out: Vector) -> None:
    """The card of every election turned so far and the result of every one held."""
    for number, kind in enumerate(view["cards_turned"]):
        one_hot(out, FIELDS["card_kinds"], number * len(KINDS) + KINDS.index(kind))
    for result in view["results"]:
        index = _result_index(result["winner"], me)
        one_hot(out, FIELDS["card_winners"], (result["election"] - 1) * 3 + index)


def _observe_counts(view: JsonDict, me: int, out: Vector) -> None:
    def pair(values: Sequence[int], maximum: int) -> list[float]:
        return [fraction(values[me], maximum), fraction(values[1 - me], maximum)]

    fill(out, FIELDS["elections_won"], pair(view["elections_won"], WINS_TO_WIN))
    fill(out, FIELDS["hand_counts"], pair(view["hand_counts"], OPENING_HAND))
    fill(out, FIELDS["reserve_counts"], pair(view["reserve_counts"], RESERVE))
    fill(out, FIELDS["discard_counts"], pair(view["discard_counts"], MOST_PLACED))
    out[FIELDS["memory_mode"].offset] = float(bool(view["memory_mode"]))


def _observe_ending(view: JsonDict, me: int, out: Vector) -> None:
    out[FIELDS["is_over"].offset] = float(bool(view["is_over"]))
    many_hot(out, FIELDS["winners"], [_side(p, me) for p in view["winners"]])
    final_hands = view.get("final_hands")
    if final_hands is not None:
        many_hot(out, FIELDS["rival_final_hand"], _tile_indices(final_hands[1 - me]))
