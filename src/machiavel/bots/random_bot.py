"""The uniform random bot: a baseline and the fastest rollout policy."""

from __future__ import annotations

from machiavel.core.contract import Seat
from machiavel.core.errors import IllegalAction
from machiavel.core.rng import Rng, random_seed


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(random_seed() if seed is None else seed)

    def choose(self, seat: Seat) -> str:
        actions = seat.legal_actions()
        if not actions:
            raise IllegalAction(f"player {seat.player} has nothing to play now")
        return self.rng.choice(actions)
