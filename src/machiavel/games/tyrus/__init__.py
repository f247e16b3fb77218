"""Tyrus: two players, elections won by bluff, blocks and counters (rulings T1-T9)."""

from __future__ import annotations

from typing import Any, ClassVar

from machiavel.bots.base import Bot
from machiavel.core.contract import Game, JsonDict, Option, Setup, State
from machiavel.games.tyrus.bot import TyrusHeuristicBot
from machiavel.games.tyrus.render import render
from machiavel.games.tyrus.rules import TyrusState

SUMMARY = """\
Tyrus - 2 players. Nine elections are held in the citadels (soldiers vote), markets
(merchants vote) and temples (priests vote); each player owns one building of each kind.
Each player has 30 tiles: soldiers, merchants, priests valued 1-10, 9 in hand at the start.
An election card is turned; players alternate placing 3 tiles each, face down, in any of
the six buildings (their own or the rival's). A placed tile never moves.
Tally, in each player's own building of the election's kind: votes = own tiles of the
elected profession, minus the rival's blockers there (merchant blocks soldier, soldier
blocks priest, priest blocks merchant), themselves reduced by your own counters (tiles of
the profession that blocks the blocker). Scores below zero count as zero.
The higher score wins the representative; equal scores make the election null.
The tiles of the two buildings of the election are then discarded; the others stay.
Each player draws 3 tiles while the reserve lasts (none before elections 8 and 9).
Win at once with 3 elections in a row (no null between) or 5 elections; after nine
elections, more representatives wins; then the higher total of the 3 tiles left in hand.
Actions: '<tile> <building>', e.g. 'M8 rival-citadel' or 'S3 temple'.
Option memory_mode: only the latest tally stays visible."""


class Tyrus(Game):
    id = "tyrus"
    title = "Tyrus"
    min_players = 2
    max_players = 2
    option_specs = (
        Option(
            "memory_mode",
            False,
            "show only the latest tally, as when discards are turned away (T9)",
            choices=(False, True),
        ),
    )
    summary = SUMMARY
    search_hints: ClassVar[dict[str, Any]] = {
        "rollout": "heuristic",
        "guide": "heuristic",
        "widening": 1.5,
    }  # docs/bots.md

    def _initial_state(self, setup: Setup) -> State:
        return TyrusState(self, setup)

    def render(self, view: JsonDict) -> str:
        return render(view)

    def heuristic_bot(self, seed: int | None) -> Bot:
        return TyrusHeuristicBot(seed)


GAME = Tyrus()

__all__ = ["GAME", "Tyrus", "TyrusState"]
