"""The heuristic's two readings of a position agree (issue 16): ``Table.from_view`` (what
``choose`` reads, the player's JSON view) and ``Table.from_state`` (what search's
``choose_in`` reads, the state's fields), over random positions of every variant."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.guildes.bot import GuildesHeuristicBot, Table
from machiavel.games.guildes.rules import GuildesState

GAME = machiavel.game("guildes")


def readings(table: Table) -> dict[str, object]:
    known = dict(vars(table))
    known["scores"] = list(table.scores)
    return known


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=3, max_value=6),
    events=st.booleans(),
    tricks=st.booleans(),
    steps=st.integers(min_value=0, max_value=400),
)
def test_the_state_reading_is_the_view_reading(
    seed: int, players: int, events: bool, tricks: bool, steps: int
) -> None:
    state = GAME.new(players, seed=seed, options={"events": events, "dirty_tricks": tricks})
    assert isinstance(state, GuildesState)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        random_step(state, rng)
    for player in state.to_move:
        from_view = Table.from_view(state.view(player), player)
        assert readings(Table.from_state(state, player)) == readings(from_view)
        seat_choice = GuildesHeuristicBot(seed).choose(state.seat(player))
        assert GuildesHeuristicBot(seed).choose_in(state, player) == seat_choice
