"""Djambi actions in words for the game log, in English and French.

Djambi hides nothing from any viewer, so every viewer reads the same line. The French
words are those of the client and of djambi.fr.txt: le Chef, l'Assassin, le Reporter, le
Diplomate, le Nécromobile, les Militants; un cadavre; faire éclater un scandale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machiavel.games.djambi.board import (
    COLOUR_OF,
    COLOURS,
    DIPLOMAT,
    KIND_OF,
    MOVE_ACTION_SQUARES,
    PASS,
    PIECE_NAMES,
    REVIVE_WORD,
    SCANDAL,
    SQUARE_ACTIONS,
    SQUARE_INDEX,
    SQUARE_NAMES,
)

if TYPE_CHECKING:
    from machiavel.games.djambi.rules import DjambiState

COLOURS_FR = ("rouge", "vert", "jaune", "bleu")  # every piece's name is masculine
KINDS_FR = ("Chef", "Assassin", "Reporter", "Diplomate", "Nécromobile", "Militant")


def describe(state: DjambiState, player: int, action: str, language: str) -> str:
    """An action about to be applied, in words."""
    if language == "fr":
        return _french(state, player, action)
    return _english(state, player, action)


def _piece(code: int) -> str:
    return f"the {PIECE_NAMES[code]}" if code > 0 else "a corpse"


def _english(state: DjambiState, player: int, action: str) -> str:
    who = COLOURS[player]
    board = state.board
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is not None:
        origin, target = squares
        piece, other = board[origin], board[target]
        mover = PIECE_NAMES[piece]
        if other == 0:
            return f"{who}: the {mover} moves {action}"
        if other < 0:
            return f"{who}: the {mover} takes up the corpse on {SQUARE_NAMES[target]}"
        if KIND_OF[piece] == DIPLOMAT:
            return f"{who}: the {mover} takes up {_piece(other)} ({action})"
        return f"{who}: the {mover} kills {_piece(other)} ({action})"
    square = SQUARE_ACTIONS.get(action)
    if square is not None:
        where = SQUARE_NAMES[square]
        if action.startswith("kill"):
            return f"{who}: the Reporter kills {_piece(board[square])} on {where}"
        held = "the corpse" if state.hand < 0 else _piece(state.hand)
        return f"{who}: {held} is put down on {where}"
    if action == SCANDAL:
        return f"{who}: the Reporter on {SQUARE_NAMES[state.actor]} causes a scandal"
    if action == PASS:
        return f"{who}: passes" if _first_step(state) else f"{who}: the Reporter spares all"
    revived = _revival(state, action)
    if revived is not None:
        dead, up, code = revived
        return f"{who}: the {PIECE_NAMES[code]} rises again on {up} (the corpse on {dead})"
    return f"{who}: {action}"


def piece_fr(code: int) -> str:
    """``le Chef bleu``, ``l'Assassin rouge``; ``un cadavre`` for a corpse."""
    if code <= 0:
        return "un cadavre"
    kind = KINDS_FR[KIND_OF[code]]
    article = "l'" if kind[0] in "AEIOUÉ" else "le "
    return f"{article}{kind} {COLOURS_FR[COLOUR_OF[code]]}"


def _french(state: DjambiState, player: int, action: str) -> str:
    who = COLOURS_FR[player]
    board = state.board
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is not None:
        origin, target = squares
        piece, other = board[origin], board[target]
        mover = piece_fr(piece)
        to = SQUARE_NAMES[target]
        if other == 0:
            return f"{who} : {mover} va de {SQUARE_NAMES[origin]} à {to}"
        if other < 0:
            return f"{who} : {mover} enlève le cadavre en {to}"
        if KIND_OF[piece] == DIPLOMAT:
            return f"{who} : {mover} enlève {piece_fr(other)} ({action})"
        return f"{who} : {mover} tue {piece_fr(other)} ({action})"
    square = SQUARE_ACTIONS.get(action)
    if square is not None:
        where = SQUARE_NAMES[square]
        if action.startswith("kill"):
            return f"{who} : le Reporter tue {piece_fr(board[square])} en {where}"
        held = "le cadavre" if state.hand < 0 else piece_fr(state.hand)
        return f"{who} : {held} est posé en {where}"
    if action == SCANDAL:
        return f"{who} : le Reporter en {SQUARE_NAMES[state.actor]} fait éclater un scandale"
    if action == PASS:
        if _first_step(state):
            return f"{who} : passe"
        return f"{who} : le Reporter épargne tout le monde"
    revived = _revival(state, action)
    if revived is not None:
        dead, up, code = revived
        return f"{who} : {piece_fr(code)} ressuscite en {up} (le cadavre en {dead})"
    return f"{who} : {action}"


def _first_step(state: DjambiState) -> bool:
    """Whether the turn is at its first step (a pass there passes the whole turn)."""
    from machiavel.games.djambi import rules  # rules imports this module

    return state.phase == rules.MOVE


def _revival(state: DjambiState, action: str) -> tuple[str, str, int] | None:
    """D12 ``revive <corpse> <square>``: the squares and the piece that stands up again
    (once up, everybody sees which piece it is)."""
    words = action.split()
    if len(words) != 3 or words[0] != REVIVE_WORD:
        return None
    corpse, target = words[1], words[2]
    if corpse not in SQUARE_INDEX or target not in SQUARE_INDEX:
        return None
    code = -state.board[SQUARE_INDEX[corpse]]
    if code not in PIECE_NAMES:  # not a corpse, or one nobody knows
        return None
    return corpse, target, code
