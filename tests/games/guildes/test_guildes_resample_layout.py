"""``resample`` keeps, per state and player, the layout of what the player knows (search
draws thousands of worlds from one state): the worlds are those a fresh copy of the state
gives, before and after the state moves on."""

from __future__ import annotations

import machiavel
from machiavel.core.contract import State
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng

GAME = machiavel.game("guildes")


def world(state: State, player: int, seed: int) -> object:
    return state.resample(player, Rng(seed)).to_json()


def test_a_kept_layout_draws_the_worlds_a_fresh_copy_draws() -> None:
    for seed in range(8):
        options = {"events": seed % 2 == 1, "dirty_tricks": seed % 4 >= 2}
        state = GAME.new(3 + seed % 4, seed=seed, options=options)
        rng = Rng(seed)
        step = 0
        while not state.is_over:
            if step % 13 == 0:
                for player in range(state.players):
                    first = world(state, player, step)
                    assert world(state, player, step) == first  # the layout kept
                    assert world(state.clone(), player, step) == first  # laid out anew
            random_step(state, rng)  # the state moves on: its layouts are read again
            step += 1
