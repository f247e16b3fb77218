"""Djambi for the research adapters: every step of a turn numbered, the board as planes.

Actions, in this order (docs/rl.md gives the ranges):

1. every move ``<from>-<to>`` along a line of the board (D2: every piece moves in straight
   lines), from a1 to i9, each origin's targets from a1 to i9: first steps and the moves
   out of the centre;
2. ``corpse <sq>``, ``place <sq>``, ``kill <sq>`` for the 81 squares each, then ``pass``;
3. ``scandal``, only with option ``reporter=scandal`` (D5);
4. ``revive <corpse> <target>``, only with option ``aggressivity`` (D12): a corpse on any
   square but the centre (no piece but a Chief ever dies there), a target in a colour's
   starting block or the ring around it, colour by colour.

Options that add actions add them at the end, so every other action keeps its number
whatever the options. The observation is written from the viewer's seat: colours are
counted clockwise from the viewer's own (the viewer's first), while squares stay those of
the actions (a1 first), so that the board lines up with the moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from machiavel.core.contract import JsonDict
from machiavel.games.djambi import Djambi
from machiavel.games.djambi.board import (
    ALL_PIECES,
    BLOCK_RINGS,
    CENTRE,
    COLOUR_INDEX,
    COLOURS,
    CORPSE_ACTIONS,
    KILL_ACTIONS,
    KIND_INDEX,
    KINDS,
    MOVE_ACTIONS,
    PASS,
    PLACE_ACTIONS,
    RAYS,
    SCANDAL,
    SQUARE_INDEX,
    SQUARES,
    START_BLOCKS,
    revive_action,
)
from machiavel.games.djambi.rules import KILLS_PER_REVIVAL, STEP_NAMES
from machiavel.rl.encoding import ListedEncoding, Vector
from machiavel.rl.layout import Field, Layout, fill, fraction, many_hot, one_hot

SEATS = len(COLOURS)
PIECE_KINDS = len(KINDS)
STEPS = tuple(dict.fromkeys(STEP_NAMES))  # move, corpse, place, kill, exit, revive
# A scandal kills at most the 8 neighbours of the Reporter: with a kill or two counted
# before, that owes at most 3 revivals at once (D12).
MOST_REVIVALS_DUE = 3


def _option_maximum(name: str) -> int:
    """The largest value Djambi's option ``name`` accepts."""
    maximum = next(o.maximum for o in Djambi.option_specs if o.name == name)
    assert maximum is not None, f"Djambi's option {name} has no maximum"
    return maximum


MOST_QUIET_ROUNDS = _option_maximum("quiet_rounds")


def move_actions() -> list[str]:
    """Every ``<from>-<to>`` along a line, origins a1..i9, targets a1..i9 for each."""
    return [
        MOVE_ACTIONS[origin][target]
        for origin in range(SQUARES)
        for target in sorted(square for ray in RAYS[origin] for square in ray)
    ]


def revive_actions() -> list[str]:
    """D12: a corpse off the centre standing up in a colour's block or ring (not its own square)."""
    targets = [t for colour in range(SEATS) for t in (*START_BLOCKS[colour], *BLOCK_RINGS[colour])]
    return [
        revive_action(corpse, target)
        for corpse in range(SQUARES)
        if corpse != CENTRE
        for target in targets
        if target != corpse
    ]


def _observation_layout() -> tuple[Layout, dict[str, Field]]:
    seats = "seats: colours clockwise from the viewer's, the viewer's first"
    layout = Layout()
    add = layout.add
    fields = [
        add(
            "pieces",
            SEATS * PIECE_KINDS * SQUARES,
            f"living pieces at 81 x (6 x seat + kind) + square ({seats}; kinds: chief, "
            "assassin, reporter, diplomat, necromobile, militant; squares: a1, b1, .. i9)",
        ),
        add("corpses", SQUARES, "1 on each square holding a corpse (corpses look alike)"),
        add("acting", SQUARES, "1 on the square of the piece whose turn is under way"),
        add(
            "my_colour", SEATS, "the viewer's colour: red, green, yellow, blue (a spectator: none)"
        ),
        add(
            "controllers",
            SEATS * (SEATS + 1),
            "at 5 x seat + the seat of the colour's controller, or + 4 for a vassal (D8, D10)",
        ),
        add("in_game", SEATS, "1 for each seat whose Chief lives"),
        add("centre", SEATS + 1, "the seat holding the centre, or 4: nobody"),
        add("turn", SEATS + 1, "the seat of the player to move, or 4 once over"),
        add(
            "turn_colour", SEATS + 1, "the seat whose colour's turn it is (D8), or 4: extra or over"
        ),
        add("extra_turn", 1, "1 in an extra turn (D9)"),
        add("step", len(STEPS) + 1, "the step: move, corpse, place, kill, exit, revive, over"),
        add(
            "in_hand",
            2 + SEATS * PIECE_KINDS,
            "0: nothing in hand, 1: a corpse, 2 + 6 x seat + kind: the piece a Diplomat took up",
        ),
        add(
            "kills",
            SEATS * KILLS_PER_REVIVAL,
            "each seat's kills modulo 3 (D12), at 3 x seat + rest",
        ),
        add("kill_counts", SEATS, f"each seat's kills / {ALL_PIECES} (at most 1)"),
        add("revivals_due", 1, f"revivals due now (D12) / {MOST_REVIVALS_DUE}"),
        add("quiet", 1, "quiet_turns / quiet_turn_limit (D11)"),
        add("quiet_limit", 1, f"quiet_turn_limit / ({MOST_QUIET_ROUNDS} x 4)"),
        add("options", 3, "1 for reporter=scandal, for inherited_turns=book, for aggressivity"),
        add("winners", SEATS, "once over: 1 for each winning seat"),
    ]
    return layout, {field.name: field for field in fields}


LAYOUT, FIELDS = _observation_layout()


class Encoding(ListedEncoding):
    """Djambi for four players: moves, follow-ups, and the actions options add."""

    version: ClassVar[int] = 1

    def every_action(self) -> Sequence[str]:
        squares = [*CORPSE_ACTIONS, *PLACE_ACTIONS, *KILL_ACTIONS]
        actions = [*move_actions(), *squares, PASS]
        if self.options.get("reporter") == "scandal":
            actions.append(SCANDAL)
        if self.options.get("aggressivity"):
            actions += revive_actions()
        return actions

    @property
    def observation_size(self) -> int:
        return LAYOUT.size

    def observe(self, view: JsonDict, out: Vector) -> None:
        you = view["you"]
        me = 0 if you is None else COLOUR_INDEX[you]  # a spectator's: from red's seat
        one_hot(out, FIELDS["my_colour"], None if you is None else me)
        _observe_board(view, me, out)
        _observe_sides(view, me, out)
        _observe_turn(view, me, out)
        _observe_counts(view, me, out)


def _seat(colour: str | None, me: int) -> int:
    """A colour counted clockwise from the viewer's (0: the viewer's own); 4 for none."""
    return SEATS if colour is None else (COLOUR_INDEX[colour] - me) % SEATS


def _piece_index(piece: str, me: int) -> int:
    """A ``"<colour> <kind>"`` as seat x kind (remembered: a view names a few dozen)."""
    index = _PIECE_INDICES.get((piece, me))
    if index is None:
        colour, kind = piece.split()
        index = _seat(colour, me) * PIECE_KINDS + KIND_INDEX[kind]
        if len(_PIECE_INDICES) < 4096:
            _PIECE_INDICES[piece, me] = index
    return index


_PIECE_INDICES: dict[tuple[str, int], int] = {}


def _observe_board(view: JsonDict, me: int, out: Vector) -> None:
    pieces = FIELDS["pieces"]
    for square, piece in view["pieces"].items():
        one_hot(out, pieces, _piece_index(piece, me) * SQUARES + SQUARE_INDEX[square])
    many_hot(out, FIELDS["corpses"], [SQUARE_INDEX[square] for square in view["corpses"]])
    acting = view["acting"]
    one_hot(out, FIELDS["acting"], None if acting is None else SQUARE_INDEX[acting])


def _observe_sides(view: JsonDict, me: int, out: Vector) -> None:
    """Who controls each colour (D8, D10), who is still in, who holds the centre."""
    for colour, master in view["controllers"].items():
        one_hot(out, FIELDS["controllers"], _seat(colour, me) * (SEATS + 1) + _seat(master, me))
    many_hot(out, FIELDS["in_game"], [_seat(colour, me) for colour in view["in_game"]])
    one_hot(out, FIELDS["centre"], _seat(view["centre"], me))
    many_hot(out, FIELDS["winners"], [(winner - me) % SEATS for winner in view["winners"]])


def _observe_turn(view: JsonDict, me: int, out: Vector) -> None:
    """Whose turn, which colour's, which step of it, and what is in hand."""
    one_hot(out, FIELDS["turn"], _seat(view["turn"], me))
    one_hot(out, FIELDS["turn_colour"], _seat(view["turn_colour"], me))
    out[FIELDS["extra_turn"].offset] = float(bool(view["extra_turn"]))
    step = view["step"]
    one_hot(out, FIELDS["step"], len(STEPS) if step is None else STEPS.index(step))
    in_hand = view["in_hand"]
    if in_hand is None:
        one_hot(out, FIELDS["in_hand"], 0)
    elif in_hand == "corpse":
        one_hot(out, FIELDS["in_hand"], 1)
    else:
        one_hot(out, FIELDS["in_hand"], 2 + _piece_index(in_hand, me))


def _observe_counts(view: JsonDict, me: int, out: Vector) -> None:
    """Kills (D12), revivals due, the quiet count (D11) and the options."""
    kills = [0] * SEATS
    for colour, count in view["kills"].items():
        kills[_seat(colour, me)] = int(count)
    for seat, count in enumerate(kills):
        one_hot(out, FIELDS["kills"], seat * KILLS_PER_REVIVAL + count % KILLS_PER_REVIVAL)
    fill(out, FIELDS["kill_counts"], [fraction(count, ALL_PIECES) for count in kills])
    out[FIELDS["revivals_due"].offset] = fraction(view["revivals_due"], MOST_REVIVALS_DUE)
    limit = view["quiet_turn_limit"]
    out[FIELDS["quiet"].offset] = fraction(view["quiet_turns"], limit) if limit > 0 else 0.0
    out[FIELDS["quiet_limit"].offset] = fraction(limit, MOST_QUIET_ROUNDS * SEATS)
    options = [
        view["reporter"] == "scandal",
        view["inherited_turns"] == "book",
        bool(view["aggressivity"]),
    ]
    fill(out, FIELDS["options"], [float(flag) for flag in options])
