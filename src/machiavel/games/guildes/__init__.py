"""Guildes: 3-6 players draft guild cards to win three rounds of votes (rulings G1-G7)."""

from __future__ import annotations

from typing import Any, ClassVar

from machiavel.bots.base import Bot
from machiavel.core.contract import Game, JsonDict, Option, Setup, State
from machiavel.games.guildes.bot import GuildesHeuristicBot
from machiavel.games.guildes.render import render
from machiavel.games.guildes.rules import GuildesState

SUMMARY = """\
Guildes - 3 to 6 players, three rounds of voting in the city of Portyl.
110 guild cards: Pêcheurs, Artisans, Érudits, Bourgeois, Chevaliers, Nobles, Prêtres,
Alchimistes, and 15 Milice. With 3 players the Alchimistes and 3 Milice are removed.
Each round: deal (10 cards each with 3 players, 9 with 4, 7 with 5, 6 with 6); drafting:
everyone at once keeps one card of the hand they hold and passes the rest in the direction
of the round's event card, until every card is kept; placing: everyone at once chooses a
kept card face down, all are revealed together, until 8/7/5/5 cards are placed; the rest
is discarded. Placed cards stay for the whole game.
Count after each round: in round 1 the player with most cards of a guild takes its value;
in round 2 the first two places score, in round 3 the first three (Pêcheurs and Bourgeois
two, Alchimistes four). Tied players share the values of the places they cover, rounded
down. Each Milice card is worth 3 votes at every count. Most votes after round 3 wins;
a tie shares the win.
Actions: 'keep Érudits', 'place Milice' (accents and case optional).
Options: events (the six event cards' effects), dirty_tricks (the Coup Tordu cards A-I).
"""


class Guildes(Game):
    id = "guildes"
    title = "Guildes"
    min_players = 3
    max_players = 6
    option_specs = (
        Option(
            "events",
            False,
            "play the effects of the six event cards, one a round (G6)",
            choices=(False, True),
        ),
        Option(
            "dirty_tricks",
            False,
            "deal the Coup Tordu cards A-I, played in letter order after placing (G7)",
            choices=(False, True),
        ),
    )
    summary = SUMMARY
    search_hints: ClassVar[dict[str, Any]] = {"guide": "heuristic"}  # docs/bots.md

    def _initial_state(self, setup: Setup) -> State:
        return GuildesState(self, setup)

    def render(self, view: JsonDict) -> str:
        return render(view)

    def heuristic_bot(self, seed: int | None) -> Bot:
        return GuildesHeuristicBot(seed)


GAME = Guildes()

__all__ = ["GAME", "Guildes", "GuildesState"]
