"""Djambi, "Machiavelli's chess": four parties fight for the centre (rulings D1-D12)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from machiavel.bots.base import Bot
from machiavel.core.contract import Game, JsonDict, Option, Setup, State
from machiavel.games.djambi.bot import DjambiHeuristicBot
from machiavel.games.djambi.position import canonical_position
from machiavel.games.djambi.render import render
from machiavel.games.djambi.rules import DEFAULT_QUIET_ROUNDS, DjambiState

SUMMARY = """\
Djambi - 4 players on a 9x9 board; e5 in the middle is the centre, "the Power".
Each army starts in a corner: Chief (C), Assassin (A), Reporter (R), Diplomat (D),
Necromobile (N) and 4 Militants (M). Red a1, green a9, yellow i9, blue i1, played clockwise.
Pieces move in straight lines over empty squares (Militants 1 or 2 squares); none jumps.
Any piece may cross the empty centre; only a Chief may stay on it.
Chief and Militant kill by moving onto an enemy and then put the corpse on any empty square
(a Chief's corpse may go on the centre). The Assassin kills by moving onto an enemy; the
corpse goes where it came from. The Reporter, after moving, kills an enemy orthogonally
next to it. The Diplomat moves onto a living piece and puts it on any empty square. The
Necromobile moves onto a corpse and puts it on any empty square. A piece entering the
centre to act on what lies there must leave it at once.
A player whose Chief dies is out; the killer takes over all their pieces, and plays that
colour's turn with its pieces (or, with inherited_turns=skip, moves them in their own turn).
A Chief on the centre gives its player an extra turn after every turn of a colour they do
not play (3+ players left). A Chief walled in by corpses, the board's edges and its own
pieces, with no Necromobile, dies; its pieces obey whoever holds the centre. The last Chief
standing wins; after 40 rounds without a death the holder of the centre wins, else the
survivors share a draw.
Actions: 'c3-e5' (a move), then as asked: 'corpse d4', 'place f6', 'kill e6', 'scandal',
'pass', 'e5-f6' (leave the centre), 'revive c4 a2'."""


class Djambi(Game):
    id = "djambi"
    title = "Djambi"
    min_players = 4
    max_players = 4
    option_specs = (
        Option(
            "reporter",
            "single",
            "single: the Reporter kills one orthogonal enemy after moving; scandal: it may "
            "instead kill every living piece around it, vassals included (D5)",
            choices=("single", "scandal"),
        ),
        Option(
            "inherited_turns",
            "book",
            "book: a colour whose Chief is dead keeps its turn, played by its new controller "
            "with that colour's pieces, and a player moves their own colour in their own turn; "
            "skip: that colour's turn is skipped and its controller moves any piece of their "
            "side in their own turn (D8)",
            choices=("book", "skip"),
        ),
        Option(
            "quiet_rounds",
            DEFAULT_QUIET_ROUNDS,
            "the game ends after this many full rounds (a turn of each colour taking turns) "
            "without a death (D11)",
            minimum=1,
            maximum=200,  # five times the book's count: enough for any house rule
        ),
        Option(
            "aggressivity",
            False,
            "every third kill lets the killer raise one of their dead pieces (D12)",
            choices=(False, True),
        ),
    )
    summary = SUMMARY
    # 2: the D5, D8, D9 and D10 amendments (issue 12); games stored under 1 were played with
    # inherited_turns=skip, which the server's migration 0003 records in them.
    rules_version = 2
    # docs/bots.md: short heuristic play-outs valued by material (``estimate``) beat long
    # random ones by far (random play-outs never punish an exposed Chief).
    search_hints: ClassVar[dict[str, Any]] = {
        "guide": "heuristic",
        "rollout": "heuristic",
        "rollout_limit": 12,
        "cutoff_temperature": 3.0,
        "widening": 1.0,
    }

    def _initial_state(self, setup: Setup) -> State:
        return DjambiState(self, setup)

    def from_position(
        self,
        position: JsonDict,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> DjambiState:
        """A game starting from a hand-built position (see docs/games/djambi.md); the
        position is checked, stored in the setup in canonical form, so that ``replay`` and
        ``from_json`` rebuild it."""
        setup = self.make_setup(4, seed, options, position=canonical_position(position))
        return DjambiState(self, setup)

    def render(self, view: JsonDict) -> str:
        return render(view)

    def heuristic_bot(self, seed: int | None) -> Bot:
        return DjambiHeuristicBot(seed)


GAME = Djambi()

__all__ = ["GAME", "Djambi", "DjambiState"]
