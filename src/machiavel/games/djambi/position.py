"""Djambi positions: reading and checking a hand-built position, writing one back.

A position is ``{"turn": colour, "turn_colour": colour or null, "pieces": {square:
"<colour> <kind>"}, "corpses": [squares], "controllers": {colour: colour or null}}``;
``turn_colour``, ``corpses`` and ``controllers`` may be left out. ``turn`` is the player to
move (a living Chief's colour); ``turn_colour`` the colour whose turn it is (D8: an
inherited or vassal colour that ``turn`` plays), ``turn`` itself when left out, or null for
an extra turn of the centre's holder (D9). A colour whose Chief is dead and that controls
itself (or maps to null) is a vassal colour (D10); a colour whose Chief lives always
controls itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from machiavel.core.contract import JsonDict
from machiavel.core.errors import InvalidSetup
from machiavel.games.djambi.board import (
    ALL_PIECES,
    ARMY_COUNTS,
    CENTRE,
    CHIEF,
    COLOUR_INDEX,
    COLOUR_OF,
    COLOURS,
    KIND_INDEX,
    KIND_OF,
    KINDS,
    PIECE_NAMES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    SQUARES,
    UNKNOWN_CORPSE,
    piece_code,
)

POSITION_KEYS = ("turn", "turn_colour", "pieces", "corpses", "controllers")
VASSAL = -1  # the controller of a vassal colour
EXTRA_TURN = -1  # the turn colour of an extra turn (D9): it belongs to no colour


@dataclass
class Position:
    """A checked position: the board, each colour's controller, the player to move and
    the colour whose turn it is (``EXTRA_TURN`` for an extra turn)."""

    board: list[int]
    controllers: list[int]
    turn: int
    turn_colour: int


def parse_position(raw: Any) -> Position:
    """Check a position given as data; ``InvalidSetup`` says what is wrong with it."""
    if not isinstance(raw, Mapping):
        raise InvalidSetup(f"a Djambi position is an object with {_keys()}, not {raw!r}")
    unknown = sorted(str(k) for k in raw if k not in POSITION_KEYS)
    if unknown:
        raise InvalidSetup(f"a Djambi position has no key {', '.join(unknown)} (keys: {_keys()})")
    for key in ("turn", "pieces"):
        if key not in raw:
            raise InvalidSetup(f"a Djambi position needs {key!r} (keys: {_keys()})")
    board = [0] * SQUARES
    _read_pieces(raw["pieces"], board)
    _read_corpses(raw.get("corpses", []), board)
    _check_counts(board)
    living_chiefs = {COLOUR_OF[v] for v in board if v > 0 and KIND_OF[v] == CHIEF}
    controllers = _read_controllers(raw.get("controllers", {}), living_chiefs)
    turn = _colour(raw["turn"], "'turn'")
    if turn not in living_chiefs:
        raise InvalidSetup(
            f"'turn' is {COLOURS[turn]}, but the {COLOURS[turn]} Chief is not on the board: "
            "only a player with a living Chief can be to move"
        )
    if len(living_chiefs) < 2:
        raise InvalidSetup(
            "a Djambi position needs at least two living Chiefs (with one, the game is over, D11)"
        )
    turn_colour = _read_turn_colour(raw, board, controllers, turn)
    return Position(board, controllers, turn, turn_colour)


def _keys() -> str:
    return ", ".join(repr(k) for k in POSITION_KEYS)


def _square(name: Any, where: str) -> int:
    index = SQUARE_INDEX.get(name) if isinstance(name, str) else None
    if index is None:
        raise InvalidSetup(
            f"{where}: {name!r} is not a square (squares are a1 to i9: files a-i, ranks 1-9)"
        )
    return index


def _colour(name: Any, where: str) -> int:
    index = COLOUR_INDEX.get(name) if isinstance(name, str) else None
    if index is None:
        raise InvalidSetup(f"{where}: {name!r} is not a colour (colours: {', '.join(COLOURS)})")
    return index


def _read_pieces(pieces: Any, board: list[int]) -> None:
    if not isinstance(pieces, Mapping):
        raise InvalidSetup('\'pieces\' must map squares to pieces, e.g. {"a1": "red chief"}')
    for name, piece in pieces.items():
        square = _square(name, "'pieces'")
        words = piece.split() if isinstance(piece, str) else []
        if len(words) != 2 or words[0] not in COLOUR_INDEX or words[1] not in KIND_INDEX:
            raise InvalidSetup(
                f"'pieces': the piece on {name} is {piece!r}; a piece is '<colour> <kind>' with "
                f"colours {', '.join(COLOURS)} and kinds {', '.join(KINDS)}"
            )
        code = piece_code(COLOUR_INDEX[words[0]], KIND_INDEX[words[1]])
        if square == CENTRE and KIND_OF[code] != CHIEF:
            raise InvalidSetup(
                f"'pieces': a {words[1]} cannot stand on the centre e5: only a Chief (or a "
                "corpse) stays there between turns (D2)"
            )
        board[square] = code


def _read_corpses(corpses: Any, board: list[int]) -> None:
    if not isinstance(corpses, list | tuple):
        raise InvalidSetup('\'corpses\' must be a list of squares, e.g. ["d4", "e6"]')
    for name in corpses:
        square = _square(name, "'corpses'")
        if board[square] > 0:
            raise InvalidSetup(
                f"'corpses': {name} already holds the {PIECE_NAMES[board[square]]}; "
                "a square holds one piece, living or dead"
            )
        if board[square] < 0:
            raise InvalidSetup(f"'corpses': {name} is listed twice")
        board[square] = UNKNOWN_CORPSE


def _check_counts(board: list[int]) -> None:
    for colour, colour_name in enumerate(COLOURS):
        for kind, allowed in enumerate(ARMY_COUNTS):
            count = board.count(piece_code(colour, kind))
            if count > allowed:
                raise InvalidSetup(
                    f"'pieces': {colour_name} has {count} {KINDS[kind]}s but an army has "
                    f"{allowed} (D1)"
                )
    total = sum(1 for v in board if v != 0)
    if total > ALL_PIECES:
        raise InvalidSetup(
            f"the position has {total} pieces and corpses, but Djambi has only {ALL_PIECES}"
        )


def _read_turn_colour(
    raw: Mapping[str, Any], board: list[int], controllers: list[int], turn: int
) -> int:
    """D8, D9: the colour whose turn it is, which the player to move must play."""
    if "turn_colour" not in raw:
        return turn
    name = raw["turn_colour"]
    holder = _holder(board)
    if name is None:
        if holder != turn or sum(1 for c, m in enumerate(controllers) if c == m) < 3:
            raise InvalidSetup(
                "'turn_colour' null means an extra turn, which only the player holding the "
                "centre plays, while three or more players are in the game (D9)"
            )
        return EXTRA_TURN
    colour = _colour(name, "'turn_colour'")
    if colour == turn:
        return colour
    master = controllers[colour]
    if master == VASSAL and holder == turn:
        master = turn  # D10: vassals obey the holder of the centre
    if master != turn:
        raise InvalidSetup(
            f"'turn_colour' is {name}, but {COLOURS[turn]} does not play {name}: a colour's "
            "turn is played by its controller, a vassal colour's by the holder of the centre "
            "(D8, D10)"
        )
    if not any(v > 0 and COLOUR_OF[v] == colour for v in board):
        raise InvalidSetup(
            f"'turn_colour' is {name}, but {name} has no living piece: its turn is skipped (D8)"
        )
    return colour


def _holder(board: list[int]) -> int:
    """The colour of the living Chief on the centre, or -1."""
    piece = board[CENTRE]
    return COLOUR_OF[piece] if piece > 0 and KIND_OF[piece] == CHIEF else -1


def _read_controllers(raw: Any, living_chiefs: set[int]) -> list[int]:
    """D8, D10: each colour's controlling player (its Chief's colour) or VASSAL."""
    if not isinstance(raw, Mapping):
        raise InvalidSetup('\'controllers\' must map colours to colours, e.g. {"green": "red"}')
    controllers = [c if c in living_chiefs else VASSAL for c in range(len(COLOURS))]
    for name, master in raw.items():
        colour = _colour(name, "'controllers'")
        target = colour if master is None else _colour(master, f"'controllers' of {name}")
        if colour in living_chiefs:
            if target != colour:
                raise InvalidSetup(
                    f"'controllers': the {name} Chief is alive, so {name} controls itself "
                    f"and cannot be controlled by {master} (D8)"
                )
            continue
        if target == colour:
            controllers[colour] = VASSAL
        elif target not in living_chiefs:
            raise InvalidSetup(
                f"'controllers': {name} cannot be controlled by {master}, whose Chief is not "
                "on the board; a controller must be a player still in the game (D8)"
            )
        else:
            controllers[colour] = target
    return controllers


def position_data(
    board: list[int], controllers: list[int], turn: int | None, turn_colour: int | None = None
) -> JsonDict:
    """A position (the same format ``parse_position`` reads) for a board; ``turn_colour``
    (``EXTRA_TURN`` for an extra turn) is written only when it is not ``turn`` itself."""
    data: JsonDict = {"turn": None if turn is None else COLOURS[turn]}
    if turn is not None and turn_colour is not None and turn_colour != turn:
        data["turn_colour"] = None if turn_colour == EXTRA_TURN else COLOURS[turn_colour]
    return data | {
        "pieces": {SQUARE_NAMES[s]: PIECE_NAMES[v] for s, v in enumerate(board) if v > 0},
        "corpses": [SQUARE_NAMES[s] for s, v in enumerate(board) if v < 0],
        "controllers": {
            COLOURS[c]: None if m == VASSAL else COLOURS[m] for c, m in enumerate(controllers)
        },
    }


def canonical_position(raw: Any) -> JsonDict:
    """The checked position rewritten in its canonical form (what a Setup stores)."""
    checked = parse_position(raw)
    return position_data(checked.board, checked.controllers, checked.turn, checked.turn_colour)
