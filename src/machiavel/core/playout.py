"""Random play-outs through the contract only (used by tests, benchmarks and search)."""

from __future__ import annotations

from machiavel.core.contract import State
from machiavel.core.rng import Rng


def random_step(state: State, rng: Rng) -> tuple[int, str]:
    """Apply one uniformly random legal action of a random player to move; return it."""
    waiting = state.to_move
    player = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
    action = rng.choice(state.legal_actions(player))
    state.apply(player, action)
    return player, action


def random_playout(state: State, rng: Rng, max_actions: int = 100_000) -> int:
    """Play random actions until the game ends; return how many were played.

    Raises ``RuntimeError`` if the game has not ended after ``max_actions``: a game that
    never ends is a bug.
    """
    played = 0
    while not state.is_over:
        if played >= max_actions:
            raise RuntimeError(f"{state.game.id} did not end after {max_actions} actions")
        random_step(state, rng)
        played += 1
    return played
