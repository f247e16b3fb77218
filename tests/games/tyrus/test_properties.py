"""Property tests over many random Tyrus games: conservation, no leaks, round trips."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.rng import Rng
from machiavel.games.tyrus.rules import TILES, TyrusState

GAME = machiavel.game("tyrus")
seeds = st.integers(min_value=0, max_value=2**48)


def tiles_of(state: TyrusState, player: int) -> Counter[str]:
    places: Counter[str] = Counter(state.hands[player] + state.reserves[player])
    places.update(state.discards[player])
    places.update(t for b in state.buildings for owner, t in b if owner == player)
    return places


def random_game(seed: int, memory_mode: bool = False) -> TyrusState:
    state = GAME.new(2, seed=seed, options={"memory_mode": memory_mode})
    assert isinstance(state, TyrusState)
    return state


def advance(state: TyrusState, rng: Rng, steps: int) -> None:
    """Play up to ``steps`` random actions (fewer if the game ends)."""
    for _ in range(steps):
        if state.is_over:
            return
        player = state.to_move[0]
        state.apply(player, rng.choice(state.legal_actions(player)))


@settings(max_examples=1500)
@given(seed=seeds, memory_mode=st.booleans())
def test_every_tile_is_always_in_exactly_one_place(seed: int, memory_mode: bool) -> None:
    state = random_game(seed, memory_mode)
    rng = Rng(seed)
    while True:
        for player in (0, 1):
            assert tiles_of(state, player) == Counter(TILES)
        if state.is_over:
            break
        player = state.to_move[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    assert state.winners and len(state.results) <= 9


@settings(max_examples=600)
@given(seed=seeds, memory_mode=st.booleans(), stop=st.integers(0, 53), data=st.data())
def test_a_view_is_the_same_whichever_hidden_tile_the_opponent_placed(
    seed: int, memory_mode: bool, stop: int, data: st.DataObject
) -> None:
    state = random_game(seed, memory_mode)
    advance(state, Rng(seed), stop)
    if state.is_over or state.placed == 5:
        return  # the last tile of an election is revealed by the tally at once
    mover = state.to_move[0]
    building = data.draw(st.sampled_from(["citadel", "rival-temple", "market", "rival-citadel"]))
    first, second = data.draw(
        st.lists(st.sampled_from(state.hands[mover]), min_size=2, max_size=2, unique=True)
    )
    a, b = state.clone(), state.clone()
    a.apply(mover, f"{first} {building}")
    b.apply(mover, f"{second} {building}")
    for viewer in (1 - mover, None):
        assert a.view(viewer) == b.view(viewer)
    assert a.view(mover) != b.view(mover)


@settings(max_examples=400)
@given(seed=seeds, stop=st.integers(0, 60))
def test_json_and_replay_round_trips(seed: int, stop: int) -> None:
    state = random_game(seed)
    advance(state, Rng(seed), stop)
    saved = state.to_json()
    assert GAME.from_json(json.dumps(saved)).to_json() == saved
    assert GAME.replay(state.setup, state.history).to_json() == saved


@settings(max_examples=300)
@given(seed=seeds, stop=st.integers(0, 53), world=st.integers(0, 2**32))
def test_resample_keeps_the_view_and_plays_on(seed: int, stop: int, world: int) -> None:
    state = random_game(seed, memory_mode=bool(seed % 2))
    advance(state, Rng(seed), stop)
    for viewer in (0, 1):
        resampled = state.resample(viewer, Rng(world))
        assert resampled.view(viewer) == state.view(viewer)
        for player in (0, 1):
            assert tiles_of(resampled, player) == Counter(TILES)
        play_rng = Rng(world)
        while not resampled.is_over:
            mover = resampled.to_move[0]
            resampled.apply(mover, play_rng.choice(resampled.legal_actions(mover)))


@settings(max_examples=200)
@given(seed=seeds, stop=st.integers(0, 52), data=st.data())
def test_resample_uses_nothing_the_player_does_not_know(
    seed: int, stop: int, data: st.DataObject
) -> None:
    state = random_game(seed)
    advance(state, Rng(seed), stop)
    if state.is_over or state.placed == 5:
        return
    mover = state.to_move[0]
    first, second = data.draw(
        st.lists(st.sampled_from(state.hands[mover]), min_size=2, max_size=2, unique=True)
    )
    a, b = state.clone(), state.clone()
    a.apply(mover, f"{first} rival-market")
    b.apply(mover, f"{second} rival-market")
    world_a = a.resample(1 - mover, Rng(seed))
    world_b = b.resample(1 - mover, Rng(seed))
    for viewer in (0, 1, None):
        assert world_a.view(viewer) == world_b.view(viewer)


@settings(max_examples=300)
@given(seed=seeds, stop=st.integers(0, 53), junk=st.text(max_size=20))
def test_every_legal_action_is_accepted_and_others_change_nothing(
    seed: int, stop: int, junk: str
) -> None:
    state = random_game(seed)
    advance(state, Rng(seed), stop)
    if state.is_over:
        return
    mover = state.to_move[0]
    legal = set(state.legal_actions(mover))
    for action in legal:
        trial = state.clone()
        trial.apply(mover, action)
    before = state.to_json()
    candidates = [junk, *(f"{tile} {b}" for tile in TILES for b in ("citadel", "rival-temple"))]
    for action in candidates:
        if state.normalize_action(action) in legal:
            continue
        try:
            state.apply(mover, action)
        except machiavel.IllegalAction as error:
            assert str(error)
        else:
            raise AssertionError(f"{action!r} was accepted though not legal")
        assert state.to_json() == before
    with pytest.raises(machiavel.IllegalAction, match="turn"):
        state.apply(1 - mover, next(iter(legal)))
    assert state.to_json() == before
