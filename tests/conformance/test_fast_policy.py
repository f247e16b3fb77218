"""Search's fast entry points keep the bots honest (issue 16).

A game's heuristic may offer ``choose_in(state, player)`` (``StatePolicy``) and
``ranked_in`` (``StateRanking``): search reads its own worlds through them instead of a JSON
view. For every game and player count, over many games played partly by the heuristic and
partly at random:

- the fast choice is exactly the seat's choice (``choose(state.seat(player))``), and the
  fast ranking the seat's ranking: so it reads nothing the view does not show;
- it is the same in a world the player cannot tell from the truth (``resample``): nothing
  it reads depends on what others hide;
- reading the state changes nothing in it.

``play_legal`` (an action from the legal list, not checked again) leaves the same state as
``apply``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.bots.base import RankingBot, StatePolicy, StateRanking
from machiavel.core.contract import Game, State
from machiavel.core.rng import Rng
from support.setups import SETUPS

seeds = st.integers(min_value=0, max_value=2**48)


def fingerprint(state: State) -> str:
    return json.dumps([state.to_json(), [state.view(p) for p in range(state.players)]])


def ranker(spec: Game, seed: int) -> StateRanking:
    fresh = spec.heuristic_bot(seed)
    assert isinstance(fresh, StateRanking)
    return fresh


def assert_fast_matches_seat(spec: Game, state: State, player: int, seed: int) -> None:
    fast = spec.heuristic_bot(seed)
    if not isinstance(fast, StatePolicy):
        return
    before = fingerprint(state)
    choice = fast.choose_in(state, player)
    assert choice in state.legal_actions(player)
    assert choice == spec.heuristic_bot(seed).choose(state.seat(player))
    world = state.resample(player, Rng(seed))
    again = spec.heuristic_bot(seed)
    assert isinstance(again, StatePolicy)
    assert again.choose_in(world, player) == choice, "reads hidden things"
    if isinstance(fast, StateRanking):
        order = ranker(spec, seed).ranked_in(state, player)
        seat_ranker = spec.heuristic_bot(seed)
        assert isinstance(seat_ranker, RankingBot)
        assert order == seat_ranker.ranked(state.seat(player))
        assert ranker(spec, seed).ranked_in(world, player) == order, "ranks on hidden things"
    assert fingerprint(state) == before, "reading the state changed it"


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=seeds)
def test_the_fast_choice_is_the_seats_choice_and_reads_nothing_hidden(
    game_id: str, players: int, seed: int
) -> None:
    spec = machiavel.game(game_id)
    state = spec.new(players, seed=seed)
    if not isinstance(spec.heuristic_bot(seed), StatePolicy):
        pytest.skip(f"{game_id}'s heuristic has no fast entry point")
    rng = Rng(seed)
    policy = spec.heuristic_bot(seed + 1)
    assert isinstance(policy, StatePolicy)
    played = 0
    while not state.is_over:
        movers = state.to_move
        player = movers[0] if len(movers) == 1 else rng.choice(movers)
        if rng.below(3) == 0:  # now and then, check every player to move here
            for mover in movers:
                assert_fast_matches_seat(spec, state, mover, seed + played)
        # Half heuristic, half random: positions a search meets, and others besides.
        if rng.below(2):
            action = policy.choose_in(state, player)
        else:
            action = rng.choice(state.legal_actions(player))
        state.apply(player, action)
        played += 1


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=4, derandomize=True)
@given(seed=seeds)
def test_play_legal_leaves_the_state_apply_leaves(game_id: str, players: int, seed: int) -> None:
    spec = machiavel.game(game_id)
    checked, trusted = spec.new(players, seed=seed), spec.new(players, seed=seed)
    rng = Rng(seed)
    while not checked.is_over:
        movers = checked.to_move
        player = movers[0] if len(movers) == 1 else rng.choice(movers)
        action = rng.choice(trusted.legal_list(player))
        checked.apply(player, action)
        trusted.play_legal(player, action)
        assert trusted.to_move == checked.to_move
    assert trusted.to_json() == checked.to_json()


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=4, derandomize=True)
@given(seed=seeds, limit=st.integers(min_value=1, max_value=400))
def test_a_games_own_random_playout_plays_what_the_contracts_loop_plays(
    game_id: str, players: int, seed: int, limit: int
) -> None:
    """A game's ``random_playout`` (if it has its own) draws the same numbers and plays
    the same actions as the contract's loop, from anywhere in a game."""
    spec = machiavel.game(game_id)
    start = spec.new(players, seed=seed)
    State.random_playout(start, Rng(seed), Rng(seed).below(200))  # somewhere in a game
    own, reference = start.clone(), start.clone()
    own_rng, reference_rng = Rng(seed + 1), Rng(seed + 1)
    played = own.random_playout(own_rng, limit)
    assert played == State.random_playout(reference, reference_rng, limit)
    assert own.to_json() == reference.to_json()
    assert own_rng.state == reference_rng.state
