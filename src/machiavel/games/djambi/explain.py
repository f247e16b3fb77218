"""Why a Djambi action is refused, in words (rulings D2-D12).

``rules`` imports this module, so the step constants of ``rules`` are imported inside the
functions that need them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.games.djambi.board import (
    ASSASSIN,
    CENTRE,
    CHIEF,
    COLOUR_OF,
    COLOURS,
    DIPLOMAT,
    KIND_OF,
    KINDS,
    MILITANT,
    MOVE_ACTION_SQUARES,
    NECROMOBILE,
    PASS,
    PIECE_NAMES,
    REPORTER,
    SCANDAL,
    SIZE,
    SQUARE_ACTIONS,
    SQUARE_NAMES,
)

if TYPE_CHECKING:
    from machiavel.games.djambi.rules import DjambiState

SHOWN = 12


def explain(state: DjambiState, player: int, action: str) -> str:
    """The reason ``action`` is not legal for ``player`` now, then what is legal."""
    from machiavel.games.djambi import rules

    phase = state.phase
    if phase == rules.MOVE:
        reason = _first_step(state, player, action)
    elif phase == rules.EXIT:
        reason = _exit(state, action)
    elif phase in (rules.CORPSE, rules.BURY, rules.PLACE):
        reason = _placement(state, action)
    elif phase == rules.KILL:
        reason = _reporter(state, action)
    else:
        reason = (
            f"{action!r} is not a revival now: write 'revive <corpse square> <square>' to "
            "raise one of your own dead pieces in or next to your starting corner (D12)"
        )
    return f"{reason}. {_legal_summary(state, player)}"


def _legal_summary(state: DjambiState, player: int) -> str:
    legal = state.legal_actions(player)
    shown = ", ".join(legal[:SHOWN]) + (", ..." if len(legal) > SHOWN else "")
    return f"Legal now ({len(legal)}): {shown}"


def _piece(code: int) -> str:
    return f"the {PIECE_NAMES[code]}" if code > 0 else "a corpse"


def _side(state: DjambiState, player: int) -> str:
    colours = [COLOURS[c] for c, m in enumerate(state.controllers) if m == player]
    return " and ".join(colours) if colours else "no colour"


def _first_step(state: DjambiState, player: int, action: str) -> str:
    from machiavel.games.djambi import rules

    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is None:
        if action == PASS:
            return "you may pass only when none of the pieces you may move now can move"
        return (
            f"{action!r} is not a move: a turn starts with '<from>-<to>', squares a1 to i9 "
            "(for example c3-e5)"
        )
    origin, target = squares
    board = state.board
    piece = board[origin]
    where = SQUARE_NAMES[origin]
    if piece == 0:
        return f"there is no piece on {where}"
    if piece < 0:
        return f"{where} holds a corpse; the dead do not move by themselves"
    relation = state.relations(player)[piece]
    if relation == rules.WALL:
        return (
            f"{_piece(piece)} on {where} is a vassal: nobody may move it while nobody holds "
            "the centre (D10)"
        )
    if relation != rules.MINE:
        return f"{_piece(piece)} on {where} is not yours: you play {_side(state, player)}"
    only = state.moving_colour()
    if only >= 0 and COLOUR_OF[piece] != only:
        return _not_this_colours_turn(only, player, piece, where)
    return _path_and_target(state, player, origin, target)


def _not_this_colours_turn(only: int, player: int, piece: int, where: str) -> str:
    """D8 (option ``inherited_turns=book``): a turn belongs to one colour."""
    turn = COLOURS[only]
    if only == player:
        return (
            f"{_piece(piece)} on {where} moves on {COLOURS[COLOUR_OF[piece]]}'s turn: in your "
            f"own turn you move a {turn} piece (D8)"
        )
    return f"this is {turn}'s turn, which you play with a {turn} piece (D8)"


def _line(origin: int, target: int) -> list[int] | None:
    """The squares strictly between two squares on a line, or None if not on one."""
    df = target % SIZE - origin % SIZE
    dr = target // SIZE - origin // SIZE
    if (df, dr) == (0, 0) or (df and dr and abs(df) != abs(dr)):
        return None
    distance = max(abs(df), abs(dr))
    step = (df > 0) - (df < 0) + SIZE * ((dr > 0) - (dr < 0))
    return [origin + step * i for i in range(1, distance)]


def _path_and_target(state: DjambiState, player: int, origin: int, target: int) -> str:
    board = state.board
    piece, other = board[origin], board[target]
    kind = KIND_OF[piece]
    name = KINDS[kind].capitalize()
    between = _line(origin, target)
    to = SQUARE_NAMES[target]
    if between is None:
        if origin == target:
            return "a piece must move to another square"
        return (
            f"pieces move in straight lines (D2): {to} is not in line with {SQUARE_NAMES[origin]}"
        )
    if kind == MILITANT and len(between) > 1:
        return "a Militant moves only 1 or 2 squares (D2)"
    for square in between:
        if board[square] != 0:
            return (
                f"the way to {to} is blocked by {_piece(board[square])} on "
                f"{SQUARE_NAMES[square]}: no piece jumps (D2)"
            )
    if other == 0:
        if target == CENTRE and kind != CHIEF:
            return f"only a Chief may stop on the empty centre e5; a {name} may only cross it (D2)"
        return f"the {name} cannot go to {to} now"
    if other < 0:
        if kind == NECROMOBILE:
            return f"the Necromobile cannot take up the corpse on {to} now"
        return f"{to} holds a corpse: only a Necromobile moves onto corpses (D7)"
    return _onto_living(state, player, origin, target, name)


def _onto_living(state: DjambiState, player: int, origin: int, target: int, name: str) -> str:
    from machiavel.games.djambi import rules

    board = state.board
    piece, other = board[origin], board[target]
    kind = KIND_OF[piece]
    to = SQUARE_NAMES[target]
    relation = state.relations(player)[other]
    if relation == rules.WALL:
        return f"{_piece(other)} on {to} is a vassal nobody controls: nobody may touch it (D10)"
    if kind == DIPLOMAT:
        if COLOUR_OF[other] == COLOUR_OF[piece]:
            return "a Diplomat never relocates a piece of its own colour (D6)"
        return f"the Diplomat cannot relocate {_piece(other)} now"
    if relation == rules.MINE:
        return f"{_piece(other)} on {to} is on your side: no piece lands on its own side (D2)"
    if kind == REPORTER:
        return (
            "a Reporter moves only to empty squares; it kills after moving, an enemy on an "
            "orthogonally adjacent square (D5)"
        )
    if kind == NECROMOBILE:
        return "a Necromobile moves only to empty squares or onto corpses; it never kills (D7)"
    if target == CENTRE and kind == MILITANT:
        return "a Militant never kills the Chief holding the centre (D3)"
    if target == CENTRE and kind == ASSASSIN:
        return "the Assassin could not leave the centre after this kill, as it must (D4)"
    return f"the {name} cannot take {_piece(other)} on {to} now"


def _exit(state: DjambiState, action: str) -> str:
    piece = KINDS[KIND_OF[state.board[CENTRE]]].capitalize()
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is None or squares[0] != CENTRE:
        return f"the {piece} on the centre must leave it at once (D4, D6, D7): write 'e5-<square>'"
    other = state.board[squares[1]]
    if other != 0:
        if KIND_OF[state.board[CENTRE]] == ASSASSIN:
            return "leaving the centre, the Assassin may only move or kill an enemy Chief (D4)"
        return f"the {piece} leaves the centre by a plain move to an empty square (D6, D7)"
    return f"the {piece} cannot reach {SQUARE_NAMES[squares[1]]}: no piece jumps (D2)"


def _placement(state: DjambiState, action: str) -> str:
    from machiavel.games.djambi import rules

    living = state.phase == rules.PLACE
    word = "place" if living else "corpse"
    what = (
        f"the {PIECE_NAMES[state.hand]} relocated by the Diplomat (D6)"
        if living
        else "the corpse (D3, D7)"
    )
    square = SQUARE_ACTIONS.get(action)
    if square is None or not action.startswith(word):
        return f"the turn is not over: put down {what} with '{word} <square>'"
    name = SQUARE_NAMES[square]
    if state.board[square] != 0:
        return f"{name} is not empty: {what} goes on an empty square"
    if square == CENTRE:
        if living:
            return "only a Chief may be relocated onto the centre (D6)"
        if state.phase == rules.BURY:
            return "a Necromobile never puts a corpse on the centre (D7)"
        return "only a Chief's corpse may be put on the centre (D3)"
    return f"{name} is the last way out of the centre, and the piece there must leave it"


def _reporter(state: DjambiState, action: str) -> str:
    if action == SCANDAL:
        return "a scandal needs the option reporter=scandal and a living piece around (D5)"
    if action == PASS:
        return "the Reporter must kill an enemy next to it when there is one (D5)"
    square = SQUARE_ACTIONS.get(action)
    if square is None or not action.startswith("kill"):
        return "the Reporter has moved: choose whom it kills with 'kill <square>' (D5)"
    return (
        f"the Reporter kills only a living enemy piece on a square orthogonally next to it, "
        f"not {SQUARE_NAMES[square]} (D5)"
    )
