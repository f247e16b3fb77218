"""Search's fast paths read the same things as the slow ones (issue 16).

The heuristic reads one ``Situation`` either from the seat's JSON view or straight from
the state's fields; the engine adds a tally's scores up without building the count the
log explains. Each fast reading must equal the slow one.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.rng import Rng
from machiavel.games.tyrus.bot import (
    TyrusHeuristicBot,
    UnseenMeans,
    read_situation,
    situation_in,
)
from machiavel.games.tyrus.rules import KINDS, TILES, TyrusState, count_building, election_score

GAME = machiavel.game("tyrus")
seeds = st.integers(min_value=0, max_value=2**48)


def game_start(seed: int, memory_mode: bool) -> TyrusState:
    state = GAME.new(2, seed=seed, options={"memory_mode": memory_mode})
    assert isinstance(state, TyrusState)
    return state


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=seeds, memory_mode=st.booleans())
def test_the_state_and_the_view_give_the_same_situation(seed: int, memory_mode: bool) -> None:
    """Over whole games (half heuristic, half random moves), for both players: the
    situation read from the fields is the one read from the view, also with the unseen
    means remembered from one decision to the next, and also in a world the player
    cannot tell from the true one (nothing hidden is read)."""
    state = game_start(seed, memory_mode)
    rng = Rng(seed)
    remembered = {0: UnseenMeans(), 1: UnseenMeans()}
    heuristic = TyrusHeuristicBot(seed)
    while not state.is_over:
        for player in (0, 1):
            from_view = read_situation(state.view(player), player)
            assert situation_in(state, player) == from_view
            assert situation_in(state, player, remembered[player]) == from_view
            world = state.resample(player, Rng(seed + len(state.history)))
            assert situation_in(world, player) == from_view
        mover = state.to_move[0]
        if rng.below(2):
            action = heuristic.choose_in(state, mover)
        else:
            action = rng.choice(state.legal_actions(mover))
        state.apply(mover, action)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=seeds, memory_mode=st.booleans())
def test_one_bot_reused_across_searches_chooses_as_a_fresh_one(
    seed: int, memory_mode: bool
) -> None:
    """A search keeps one heuristic for all its play-outs: what it remembers (the unseen
    means) never changes its choice, whichever worlds it saw before."""
    state = game_start(seed, memory_mode)
    rng = Rng(seed)
    reused = TyrusHeuristicBot(seed)
    while not state.is_over:
        mover = state.to_move[0]
        for player in (0, 1):  # a world of the other player in between, as search does
            world = state.resample(player, Rng(seed + player))
            if world.to_move:
                reused.choose_in(world, world.to_move[0])
        choice = reused.choose_in(state, mover)
        assert choice == TyrusHeuristicBot(seed).choose(state.seat(mover))
        state.apply(mover, choice if rng.below(2) else rng.choice(state.legal_actions(mover)))


placements = st.lists(st.tuples(st.integers(0, 1), st.sampled_from(TILES)), max_size=12)


@settings(max_examples=400, derandomize=True)
@given(owner=st.integers(0, 1), kind=st.sampled_from(KINDS), placed=placements)
def test_the_score_added_up_directly_is_the_counts_score(
    owner: int, kind: str, placed: list[tuple[int, str]]
) -> None:
    assert election_score(owner, kind, placed) == count_building(owner, kind, placed).score
