"""Djambi actions in words for the game log, in English and French.

Djambi hides nothing from any viewer, so every viewer reads the same line. A line tells the
action, then what it sets off, read on a clone where the action was applied: the kill a
Reporter makes by itself (D5), the victims of a scandal, a Chief dying walled in (D10),
a player eliminated and who takes over their colours (D8) or that they become vassals, who
commands the vassals (D10), the end of the game (D11). The French words are those of the
client and of djambi.fr.txt: le Chef, l'Assassin, le Reporter, le Diplomate, le
Nécromobile, les Militants; un cadavre; faire éclater un scandale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from machiavel.core.errors import IllegalAction
from machiavel.games.djambi.board import (
    CHIEF,
    COLOUR_OF,
    COLOURS,
    DIPLOMAT,
    KIND_OF,
    MOVE_ACTION_SQUARES,
    NEIGHBOURS,
    ORTHOGONAL_NEIGHBOURS,
    PASS,
    PIECE_NAMES,
    REPORTER,
    REVIVE_WORD,
    SCANDAL,
    SQUARE_ACTIONS,
    SQUARE_INDEX,
    SQUARE_NAMES,
)
from machiavel.games.djambi.position import VASSAL

if TYPE_CHECKING:
    from machiavel.games.djambi.rules import DjambiState

COLOURS_FR = ("rouge", "vert", "jaune", "bleu")  # every piece's name is masculine
COLOURS_FR_PIECES = ("rouges", "vertes", "jaunes", "bleues")  # "les pièces vertes"
KINDS_FR = ("Chef", "Assassin", "Reporter", "Diplomate", "Nécromobile", "Militant")
ENDS_FR = {
    "last Chief standing": "dernier Chef en vie",
    "quiet rounds, centre held": "tours sans mort, centre tenu",
    "quiet rounds, shared draw": "tours sans mort, partage",
    "no Chief left": "plus aucun Chef",
}

Death = tuple[int, int]  # (square, piece code) of a piece that dies where it stands


@dataclass(frozen=True)
class Aftermath:
    """What an action sets off beyond itself (empty for most actions)."""

    reporter_kills: tuple[Death, ...] = ()  # D5: the automatic kill, or a scandal's victims
    walled_in: tuple[Death, ...] = ()  # D10: Chiefs dying surrounded
    eliminated: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # (player, heir, colours)
    vassals: tuple[int, ...] = ()  # vassal colours whose master changed or that are new
    vassal_master: int = -1  # who commands them now (the holder of the centre), or -1
    winners: tuple[int, ...] = ()
    end: str | None = None


def describe(state: DjambiState, player: int, action: str, language: str) -> str:
    """An action about to be applied, in words, with what it sets off."""
    action = state.normalize_action(action)
    after = aftermath(state, player, action)
    if language == "fr":
        return _french(state, player, action, after)
    return _english(state, player, action, after)


# ---- what an action sets off ------------------------------------------------------------
def aftermath(state: DjambiState, player: int, action: str) -> Aftermath:
    """The consequences of ``action``, read on a clone where it was applied."""
    trial = state.clone()
    try:
        trial.apply(player, action)
    except IllegalAction:
        return Aftermath()
    reporter, walled = _deaths(state, trial, player, action)
    vassals, master = _vassal_change(state, trial)
    return Aftermath(
        reporter_kills=reporter,
        walled_in=walled,
        eliminated=_eliminations(state, trial),
        vassals=vassals,
        vassal_master=master,
        winners=trial.winners if trial.over else (),
        end=trial.end_reason if trial.over else None,
    )


def _deaths(
    before: DjambiState, after: DjambiState, player: int, action: str
) -> tuple[tuple[Death, ...], tuple[Death, ...]]:
    """Pieces dying where they stand, but the one the action names (``kill <sq>``): the
    Reporter's (its automatic kill, D5, or a scandal's victims) and Chiefs walled in (D10).
    Every other kill moves its victim, so it is not counted here."""
    named = SQUARE_ACTIONS.get(action, -1) if action.startswith("kill") else -1
    reporters_reach = _reporters_reach(before, player, action)
    reporter: list[Death] = []
    walled: list[Death] = []
    for square, piece in enumerate(before.board):
        if piece <= 0 or after.board[square] != -piece or square == named:
            continue
        if square in reporters_reach:
            reporter.append((square, piece))
        elif KIND_OF[piece] == CHIEF:
            walled.append((square, piece))
    return tuple(reporter), tuple(walled)


def _reporters_reach(state: DjambiState, player: int, action: str) -> frozenset[int]:
    """Squares where a death is the Reporter's doing: around it for a scandal, its
    orthogonal enemy neighbours after a move of its own (D5)."""
    from machiavel.games.djambi import rules  # rules imports this module

    if action == SCANDAL:
        return frozenset(NEIGHBOURS[state.actor])
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is None or not _first_step(state):
        return frozenset()
    origin, target = squares
    board = state.board
    if KIND_OF[board[origin]] != REPORTER or board[target] != 0:
        return frozenset()
    rel = state.relations(player)
    return frozenset(
        n for n in ORTHOGONAL_NEIGHBOURS[target] if board[n] > 0 and rel[board[n]] == rules.ENEMY
    )


def _eliminations(
    before: DjambiState, after: DjambiState
) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """D8, D10: (player, heir or VASSAL, colours they controlled) for each player out."""
    out = []
    for player in before.players_in_game():
        if not after.in_game(player):
            colours = tuple(c for c, m in enumerate(before.controllers) if m == player)
            out.append((player, after.controllers[player], colours))
    return tuple(out)


def _living_vassals(state: DjambiState) -> tuple[int, ...]:
    board = state.board
    return tuple(
        c
        for c, m in enumerate(state.controllers)
        if m == VASSAL and any(v > 0 and COLOUR_OF[v] == c for v in board)
    )


def _vassal_change(before: DjambiState, after: DjambiState) -> tuple[tuple[int, ...], int]:
    """D10: the living vassal colours and their master, when new vassals appear or the
    holder of the centre (who commands them) changes; nothing otherwise."""
    vassals = _living_vassals(after)
    master = after.holder()
    if not vassals:
        return (), -1
    if master == before.holder() and set(vassals) <= set(_living_vassals(before)):
        return (), -1
    return vassals, master


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


def _passed_colour(state: DjambiState, player: int) -> int:
    """D8: the colour whose turn a first-step ``pass`` gives up, when not the player's."""
    colour = state.moving_colour()
    return colour if colour >= 0 and colour != player else -1


# ---- English ----------------------------------------------------------------------------
def _piece(code: int) -> str:
    return f"the {PIECE_NAMES[code]}" if code > 0 else "a corpse"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _english(state: DjambiState, player: int, action: str, after: Aftermath) -> str:
    line = f"{COLOURS[player]}: {_english_action(state, player, action, after)}"
    return "; ".join([line, *_english_aftermath(after)])


def _english_action(state: DjambiState, player: int, action: str, after: Aftermath) -> str:
    board = state.board
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is not None:
        origin, target = squares
        piece, other = board[origin], board[target]
        mover = PIECE_NAMES[piece]
        if other == 0:
            victims = "".join(
                f" and kills {_piece(code)} on {SQUARE_NAMES[square]}"
                for square, code in after.reporter_kills
            )
            return f"the {mover} moves {action}{victims}"
        if other < 0:
            return f"the {mover} takes up the corpse on {SQUARE_NAMES[target]}"
        if KIND_OF[piece] == DIPLOMAT:
            return f"the {mover} takes up {_piece(other)} ({action})"
        return f"the {mover} kills {_piece(other)} ({action})"
    square = SQUARE_ACTIONS.get(action)
    if square is not None:
        where = SQUARE_NAMES[square]
        if action.startswith("kill"):
            return f"the Reporter kills {_piece(board[square])} on {where}"
        held = "the corpse" if state.hand < 0 else _piece(state.hand)
        return f"{held} is put down on {where}"
    if action == SCANDAL:
        scandal = f"the Reporter on {SQUARE_NAMES[state.actor]} causes a scandal"
        dead = [f"{_piece(c)} on {SQUARE_NAMES[s]}" for s, c in after.reporter_kills]
        if not dead:  # not applicable now: nothing to tell
            return scandal
        return f"{scandal}: {_and(dead)} {'die' if len(dead) > 1 else 'dies'}"
    if action == PASS:
        if not _first_step(state):
            return "the Reporter spares all"
        colour = _passed_colour(state, player)
        return f"passes {COLOURS[colour]}'s turn" if colour >= 0 else "passes"
    revived = _revival(state, action)
    if revived is not None:
        corpse, up, code = revived
        return f"the {PIECE_NAMES[code]} rises again on {up} (the corpse on {corpse})"
    return action


def _english_aftermath(after: Aftermath) -> list[str]:
    clauses = [
        f"the {PIECE_NAMES[code]} on {SQUARE_NAMES[square]} is walled in and dies (D10)"
        for square, code in after.walled_in
    ]
    for player, heir, colours in after.eliminated:
        names = _and([COLOURS[c] for c in colours])
        if heir == VASSAL:
            clauses.append(f"{COLOURS[player]} is out: the {names} pieces become vassals")
        else:
            clauses.append(f"{COLOURS[player]} is out: {COLOURS[heir]} takes over {names}")
    if after.vassals and after.end is None:
        names = _and([COLOURS[c] for c in after.vassals])
        if after.vassal_master >= 0:
            master = COLOURS[after.vassal_master]
            clauses.append(f"the vassals ({names}) obey {master}, who holds the centre")
        else:
            clauses.append(f"nobody commands the vassals ({names}) while nobody holds the centre")
    if after.end is not None:
        winners = _and([COLOURS[w] for w in after.winners])
        verdict = f"{winners} wins" if len(after.winners) == 1 else f"{winners} share a draw"
        clauses.append(f"game over, {verdict} ({after.end})")
    return clauses


# ---- French -----------------------------------------------------------------------------
def piece_fr(code: int) -> str:
    """``le Chef bleu``, ``l'Assassin rouge``; ``un cadavre`` for a corpse."""
    if code <= 0:
        return "un cadavre"
    kind = KINDS_FR[KIND_OF[code]]
    article = "l'" if kind[0] in "AEIOUÉ" else "le "
    return f"{article}{kind} {COLOURS_FR[COLOUR_OF[code]]}"


def _et(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} et {words[-1]}"


def _french(state: DjambiState, player: int, action: str, after: Aftermath) -> str:
    line = f"{COLOURS_FR[player]} : {_french_action(state, player, action, after)}"
    return " ; ".join([line, *_french_aftermath(after)])


def _french_action(state: DjambiState, player: int, action: str, after: Aftermath) -> str:
    board = state.board
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is not None:
        origin, target = squares
        piece, other = board[origin], board[target]
        mover = piece_fr(piece)
        to = SQUARE_NAMES[target]
        if other == 0:
            victims = "".join(
                f" et tue {piece_fr(code)} en {SQUARE_NAMES[square]}"
                for square, code in after.reporter_kills
            )
            return f"{mover} va de {SQUARE_NAMES[origin]} à {to}{victims}"
        if other < 0:
            return f"{mover} enlève le cadavre en {to}"
        if KIND_OF[piece] == DIPLOMAT:
            return f"{mover} enlève {piece_fr(other)} ({action})"
        return f"{mover} tue {piece_fr(other)} ({action})"
    square = SQUARE_ACTIONS.get(action)
    if square is not None:
        where = SQUARE_NAMES[square]
        if action.startswith("kill"):
            return f"le Reporter tue {piece_fr(board[square])} en {where}"
        held = "le cadavre" if state.hand < 0 else piece_fr(state.hand)
        return f"{held} est posé en {where}"
    if action == SCANDAL:
        scandal = f"le Reporter en {SQUARE_NAMES[state.actor]} fait éclater un scandale"
        dead = [f"{piece_fr(c)} en {SQUARE_NAMES[s]}" for s, c in after.reporter_kills]
        if not dead:  # not applicable now: nothing to tell
            return scandal
        return f"{scandal} : {_et(dead)} {'meurent' if len(dead) > 1 else 'meurt'}"
    if action == PASS:
        if not _first_step(state):
            return "le Reporter épargne tout le monde"
        colour = _passed_colour(state, player)
        return f"passe le tour de {COLOURS_FR[colour]}" if colour >= 0 else "passe"
    revived = _revival(state, action)
    if revived is not None:
        corpse, up, code = revived
        return f"{piece_fr(code)} ressuscite en {up} (le cadavre en {corpse})"
    return action


def _french_aftermath(after: Aftermath) -> list[str]:
    clauses = [
        f"{piece_fr(code)} en {SQUARE_NAMES[square]}, encerclé, meurt (D10)"
        for square, code in after.walled_in
    ]
    for player, heir, colours in after.eliminated:
        if heir == VASSAL:
            names = _et([COLOURS_FR_PIECES[c] for c in colours])
            clauses.append(f"{COLOURS_FR[player]} est éliminé : les pièces {names} sont vassales")
        else:
            names = _et([COLOURS_FR[c] for c in colours])
            clauses.append(
                f"{COLOURS_FR[player]} est éliminé : {COLOURS_FR[heir]} prend le contrôle de {names}"
            )
    if after.vassals and after.end is None:
        names = _et([COLOURS_FR_PIECES[c] for c in after.vassals])
        if after.vassal_master >= 0:
            master = COLOURS_FR[after.vassal_master]
            clauses.append(
                f"les pièces vassales ({names}) obéissent à {master}, qui tient le centre"
            )
        else:
            clauses.append(
                f"les pièces vassales ({names}) n'obéissent à personne tant que le centre est vide"
            )
    if after.end is not None:
        winners = _et([COLOURS_FR[w] for w in after.winners])
        verdict = f"{winners} gagne" if len(after.winners) == 1 else f"match nul entre {winners}"
        clauses.append(f"partie finie, {verdict} ({ENDS_FR.get(after.end, after.end)})")
    return clauses
