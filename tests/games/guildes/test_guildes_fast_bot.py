"""The heuristic's two readings of a position agree (issue 16): ``Table.from_view`` (what
``choose`` and ``ranked`` read, the player's JSON view) and ``Table.from_state`` (what
search's ``choose_in`` and ``ranked_in`` read, the state's fields), at every position of
whole games of every variant, played by random and heuristic moves."""

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


def assert_both_readings_agree(state: GuildesState, seed: int) -> None:
    for player in state.to_move:
        from_view = Table.from_view(state.view(player), player)
        assert readings(Table.from_state(state, player)) == readings(from_view)
        seat_choice = GuildesHeuristicBot(seed).choose(state.seat(player))
        assert GuildesHeuristicBot(seed).choose_in(state, player) == seat_choice
        order = GuildesHeuristicBot(seed).ranked(state.seat(player))
        assert order[0] == seat_choice and sorted(order) == sorted(state.legal_actions(player))
        assert GuildesHeuristicBot(seed).ranked_in(state, player) == order


@settings(max_examples=24, deadline=None, derandomize=True)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=3, max_value=6),
    events=st.booleans(),
    tricks=st.booleans(),
)
def test_the_state_reading_is_the_view_reading(
    seed: int, players: int, events: bool, tricks: bool
) -> None:
    state = GAME.new(players, seed=seed, options={"events": events, "dirty_tricks": tricks})
    assert isinstance(state, GuildesState)
    rng, bot = Rng(seed), GuildesHeuristicBot(seed)
    step = 0
    while not state.is_over:
        assert_both_readings_agree(state, seed)
        if step % 2:  # the heuristic's moves too: it always draws with D, for one
            player = state.to_move[0]
            state.apply(player, bot.choose(state.seat(player)))
        else:
            random_step(state, rng)
        step += 1
