"""Tyros: Phoenician trade and expansion for 3-4 players (rulings Y1-Y8)."""

from __future__ import annotations

from typing import Any, ClassVar

from machiavel.bots.base import Bot
from machiavel.core.contract import Game, JsonDict, Option, Setup, State
from machiavel.games.tyros.bot import TyrosHeuristicBot
from machiavel.games.tyros.render import render
from machiavel.games.tyros.rules import TyrosState

SUMMARY = """\
Tyros - 3 or 4 players, Phoenician merchants. A map of 32 cells (7x5 grid, Tyros in the
east) holds four neutral empires: orange, yellow, green, violet. Each player has 10 ships
(2 start in Tyros) and 10 cities. Each round:
1. Trade cards are dealt (12 each with 3 players, 10 with 4): 14 per colour, 4 jokers.
2. Expansion: in turn, play a terrain tile whose cell touches an empire and put a marker
   of a neighbouring empire's colour there (two turns each with 3 players, and in the
   first round with 4). No playable tile: show your tiles, put one under the pile, draw.
   Tiles 31 and 32 also give Tyros a marker.
3. Actions, one per turn until everybody passes in a row: move a ship (one card of the
   destination's colour per cell crossed by sea; 2 ships per cell at most; a card to the
   owner of a city you stop at), build a city where you alone have ships (5 cards of the
   cell's colour, 4 with two ships; a ship goes home), build a ship at your city or in
   Tyros, trade with the bank (1-3 for as many from the deck, or 3 for one from the
   discard pile), offer a trade to one player (they accept or refuse), or pass.
4. Keep at most 3 cards; the first player moves left.
The game ends after the round in which someone plays their last tile. Empires ranked by
size score 12/10/9/8 per city and 6/5/4/3 per cell held by ships of one player alone;
7 for the first with a city in every empire; 7 for most cities in an empire.
Actions: 'expand 12 orange', 'move tyros>31 pay orange', 'city 31 pay ...', 'pass'...
Option setup: first-game (fixed empires) or random."""


class Tyros(Game):
    id = "tyros"
    title = "Tyros"
    min_players = 3
    max_players = 4
    option_specs = (
        Option(
            "setup",
            "first-game",
            "where the four empires start: the book's first-game cells or drawn tiles (Y4)",
            choices=("first-game", "random"),
        ),
    )
    summary = SUMMARY
    # docs/bots.md: short heuristic play-outs valued by a softmax of the points; children
    # grow in the heuristic's order (offers last), so the search weighs its best few moves.
    search_hints: ClassVar[dict[str, Any]] = {
        "guide": "heuristic",
        "rollout": "heuristic",
        "rollout_limit": 30,
        "cutoff_temperature": 4.0,
        "widening": 1.0,
    }

    def _initial_state(self, setup: Setup) -> State:
        return TyrosState(self, setup)

    def render(self, view: JsonDict) -> str:
        return render(view)

    def heuristic_bot(self, seed: int | None) -> Bot:
        return TyrosHeuristicBot(seed)


GAME = Tyros()

__all__ = ["GAME", "Tyros", "TyrosState"]
