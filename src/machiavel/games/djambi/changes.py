"""What one Djambi action changed, read by comparing the state before it with the state
after it: the pieces that died and how, the players put out and who took their colours
(D8, D10), the vassals' master (D10) and the holder of the centre (D9).

The log (``words.py``) and the board marks (``rules.DjambiState._marks``) both read these,
so a death is told and marked alike.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from machiavel.games.djambi.board import (
    CHIEF,
    COLOUR_OF,
    DIPLOMAT,
    KIND_OF,
    MOVE_ACTION_SQUARES,
    NEIGHBOURS,
    ORTHOGONAL_NEIGHBOURS,
    REPORTER,
    SCANDAL,
    SQUARE_ACTIONS,
)
from machiavel.games.djambi.position import VASSAL

if TYPE_CHECKING:
    from machiavel.games.djambi.rules import DjambiState

Death = tuple[int, int]  # (square where the piece died, its piece code)


@dataclass(frozen=True)
class Deaths:
    """The deaths of one action, by cause; ``direct``: the victim the action itself names
    (the piece moved onto, or the Reporter's chosen victim), whose line is the action's."""

    direct: tuple[Death, ...] = ()
    by_reporter: tuple[Death, ...] = ()  # D5: the automatic kill after its move
    by_scandal: tuple[Death, ...] = ()  # D5 option: the Reporter's 8 neighbours
    walled_in: tuple[Death, ...] = ()  # D10: Chiefs with no way out
    other: tuple[Death, ...] = ()  # none is known; kept so that no death goes untold

    def all(self) -> tuple[Death, ...]:
        return (*self.direct, *self.by_reporter, *self.by_scandal, *self.walled_in, *self.other)


def living(state: DjambiState) -> Counter[int]:
    """Living pieces by code, the one a Diplomat holds in hand included (D6)."""
    count = Counter(v for v in state.board if v > 0)
    if state.hand > 0:
        count[state.hand] += 1
    return count


def death_list(before: DjambiState, after: DjambiState) -> list[Death]:
    """Every piece that died, with the square it died on: the square it stood on before,
    which no longer holds it (codes repeat only for Militants, and no action moves a piece
    of the same code as one it kills)."""
    dead = living(before) - living(after)
    out: list[Death] = []
    for code, count in sorted(dead.items()):
        squares = [s for s, v in enumerate(before.board) if v == code and after.board[s] != code]
        out.extend((square, code) for square in squares[:count])
    return sorted(out)


# The last answer of ``deaths``: an action is told to every viewer in every language, each
# asking for the same deaths (the states are kept, so their ids cannot be reused).
_last_deaths: list[tuple[DjambiState, DjambiState, int, int, str, Deaths]] = []


def deaths(before: DjambiState, after: DjambiState, player: int, action: str) -> Deaths:
    """The deaths of ``action`` by ``player``, sorted by cause."""
    if _last_deaths:
        old_before, old_after, version, old_player, old_action, found = _last_deaths[0]
        same_states = old_before is before and old_after is after and version == after.version
        if same_states and (old_player, old_action) == (player, action):
            return found
    found = _deaths(before, after, player, action)
    _last_deaths[:] = [(before, after, after.version, player, action, found)]
    return found


def _deaths(before: DjambiState, after: DjambiState, player: int, action: str) -> Deaths:
    named = direct_victim_square(before, action)
    reach = reporters_reach(before, player, action)
    groups: dict[str, list[Death]] = {
        "direct": [],
        "by_reporter": [],
        "by_scandal": [],
        "walled_in": [],
        "other": [],
    }
    for square, code in death_list(before, after):
        if square == named:
            cause = "direct"
        elif square in reach:
            cause = "by_scandal" if action == SCANDAL else "by_reporter"
        elif KIND_OF[code] == CHIEF:
            cause = "walled_in"
        else:
            cause = "other"
        groups[cause].append((square, code))
    return Deaths(**{cause: tuple(found) for cause, found in groups.items()})


def direct_victim_square(before: DjambiState, action: str) -> int:
    """The square of the living piece the action kills by its own terms, or -1: the piece
    a first step (or the Assassin's way out of the centre, D4) lands on, a Diplomat's
    excepted, or the Reporter's chosen victim (``kill <sq>``, D5)."""
    if action.startswith("kill "):
        return SQUARE_ACTIONS.get(action, -1)
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is None:
        return -1
    origin, target = squares
    board = before.board
    if board[origin] > 0 and board[target] > 0 and KIND_OF[board[origin]] != DIPLOMAT:
        return target
    return -1


def reporters_reach(before: DjambiState, player: int, action: str) -> frozenset[int]:
    """Squares where a death is the Reporter's doing though the action names no victim:
    around it for a scandal, its orthogonal enemy neighbours after a move of its own (D5)."""
    from machiavel.games.djambi import rules  # rules imports this module

    if action == SCANDAL:
        return frozenset(NEIGHBOURS[before.actor])
    squares = MOVE_ACTION_SQUARES.get(action)
    if squares is None or before.phase != rules.MOVE:
        return frozenset()
    origin, target = squares
    board = before.board
    if KIND_OF[board[origin]] != REPORTER or board[target] != 0:
        return frozenset()
    rel = before.relations(player)
    return frozenset(
        n for n in ORTHOGONAL_NEIGHBOURS[target] if board[n] > 0 and rel[board[n]] == rules.ENEMY
    )


def eliminations(before: DjambiState, after: DjambiState) -> list[tuple[int, int, list[int]]]:
    """D8, D10: (player, heir or VASSAL, colours they controlled) for each player put out."""
    out = []
    for player in before.players_in_game():
        if not after.in_game(player):
            colours = [c for c, m in enumerate(before.controllers) if m == player]
            out.append((player, after.controllers[player], colours))
    return out


def living_vassals(state: DjambiState) -> list[int]:
    """D10: vassal colours that still have a living piece."""
    board = state.board
    return [
        c
        for c, m in enumerate(state.controllers)
        if m == VASSAL and any(v > 0 and COLOUR_OF[v] == c for v in board)
    ]


def vassal_change(before: DjambiState, after: DjambiState) -> tuple[list[int], int]:
    """D10: the living vassal colours and their master (the holder of the centre, or -1)
    when new vassals appear or their master changes; ``([], -1)`` otherwise."""
    vassals = living_vassals(after)
    master = after.holder()
    if not vassals:
        return [], -1
    if master == before.holder() and set(vassals) <= set(living_vassals(before)):
        return [], -1
    return vassals, master


def placed_corpse(before: DjambiState, after: DjambiState, killed: set[int]) -> int:
    """The square where the action put a corpse down (D3, D4, D7), or -1: one that holds a
    corpse now and did not before, other than where a piece died in place."""
    for square, value in enumerate(after.board):
        if value < 0 and before.board[square] >= 0 and square not in killed:
            return square
    return -1
