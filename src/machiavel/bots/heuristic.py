"""The heuristic bot: delegates to the heuristic of the game its seat belongs to."""

from __future__ import annotations

from machiavel.bots.base import Bot
from machiavel.core.contract import Seat
from machiavel.core.registry import game
from machiavel.core.rng import random_seed


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = random_seed() if seed is None else seed
        self._per_game: dict[str, Bot] = {}

    def choose(self, seat: Seat) -> str:
        inner = self._per_game.get(seat.game)
        if inner is None:
            inner = game(seat.game).heuristic_bot(self.seed)
            self._per_game[seat.game] = inner
        return inner.choose(seat)
