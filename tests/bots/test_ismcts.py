"""ISMCTS: legal, deterministic for a seed and budget, sees only its seat, finds good moves."""

from __future__ import annotations

import math

import pytest

import machiavel
from machiavel.bots.ismcts import EasyBot, IsmctsBot, soft_shares, win_shares
from machiavel.core.contract import Seat
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.tyrus.rules import TyrusState


def opening(game_id: str, steps: int = 3, seed: int = 4) -> machiavel.State:
    spec = machiavel.game(game_id)
    state = spec.new(min(spec.max_players, 4), seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        random_step(state, rng)
    return state


@pytest.mark.parametrize("game_id", machiavel.games())
def test_it_plays_a_legal_action_in_every_game(game_id: str) -> None:
    state = opening(game_id)
    player = state.to_move[0]
    searcher = IsmctsBot(seed=1, iterations=30, stop_early=False)
    action = searcher.choose(state.seat(player))
    assert action in state.legal_actions(player)
    assert searcher.last.iterations == 30


def test_the_same_seed_and_budget_give_the_same_move() -> None:
    state = opening("tyrus", steps=7)
    player = state.to_move[0]
    moves = {IsmctsBot(seed=5, iterations=200).choose(state.seat(player)) for _ in range(3)}
    assert len(moves) == 1


class SpySeat(Seat):
    """A seat that records that only the seat interface was used."""

    calls: list[str]

    def view(self) -> machiavel.core.JsonDict:
        self.calls.append("view")
        return super().view()

    def legal_actions(self) -> list[str]:
        self.calls.append("legal_actions")
        return super().legal_actions()

    def resample(self, rng: Rng) -> machiavel.State:
        self.calls.append("resample")
        return super().resample(rng)


def test_it_searches_through_resampled_worlds_only() -> None:
    state = opening("tyrus", steps=5)
    seat = SpySeat(state, state.to_move[0])
    seat.calls = []
    IsmctsBot(seed=2, iterations=40, stop_early=False).choose(seat)
    assert seat.calls.count("resample") == 40


def test_it_finds_the_winning_last_tile() -> None:
    """Election 9, last placement: only a high soldier in its own citadel wins the game."""
    spec = machiavel.game("tyrus")
    state = spec.new(2, seed=3)
    assert isinstance(state, TyrusState)
    rng = Rng(3)
    while not (state.election == 9 and state.placed == 5) and not state.is_over:
        random_step(state, rng)
    if state.is_over:
        pytest.skip("this seed ended early")
    mover = state.to_move[0]
    other = 1 - mover
    # Rig the decisive position: all else equal, the mover holds S10 and two useless tiles.
    state.results = [mover, other] * 4
    state.turned[-1] = "citadel"
    for index in (0, 3):
        state.buildings[index] = []
    state.hands[mover] = ["S10", "M1"]
    state.buildings[other * 3] = [(other, "S1")]
    state._legal_cache.clear()
    state._legal_sets.clear()
    action = IsmctsBot(seed=1, iterations=300).choose(state.seat(mover))
    assert action == "S10 citadel"


def test_win_shares_split_shared_wins() -> None:
    state = opening("tyrus", steps=0)
    state._winners = (0, 1)  # type: ignore[attr-defined]
    assert win_shares(state) == [0.5, 0.5]


def test_levels_and_parameters() -> None:
    assert isinstance(machiavel.bot("hard", seed=1), IsmctsBot)
    assert machiavel.bot("hard", seed=1).seconds == 1.0  # type: ignore[attr-defined]
    expert = machiavel.bot("expert", seed=1)
    assert isinstance(expert, IsmctsBot) and expert.jobs == 2 and expert.seconds == 5.0
    assert isinstance(machiavel.bot("easy", seed=1), EasyBot)
    assert machiavel.bot("ismcts", seed=1, iterations=7).iterations == 7  # type: ignore[attr-defined]
    with pytest.raises(machiavel.UnknownBot, match="rollout"):
        machiavel.bot("ismcts", seed=1, rollout="magic")
    with pytest.raises(machiavel.UnknownBot, match="parameters"):
        machiavel.bot("random", seed=1, depth=3)


def test_root_parallel_search_merges_both_trees() -> None:
    state = opening("tyrus", steps=2)
    player = state.to_move[0]
    searcher = IsmctsBot(seed=9, iterations=50, jobs=2, stop_early=False)
    try:
        first = searcher.choose(state.seat(player))
        assert searcher.last.iterations == 100
        again = IsmctsBot(seed=9, iterations=50, jobs=2, stop_early=False)
        assert again.choose(state.seat(player)) == first
        again.close()
    finally:
        searcher.close()


def test_heuristic_rollouts_work() -> None:
    state = opening("tyrus", steps=4)
    player = state.to_move[0]
    action = IsmctsBot(seed=3, iterations=20, rollout="heuristic").choose(state.seat(player))
    assert action in state.legal_actions(player)


def test_stopping_early_plays_the_move_of_the_full_search() -> None:
    """Under an iteration budget, stopping once the lead cannot be caught changes no move."""
    settled = 0
    for game_id in machiavel.games():
        for steps in range(0, 40, 8):
            state = opening(game_id, steps=steps, seed=steps + 1)
            player = state.to_move[0]
            if state.is_over or len(state.legal_actions(player)) < 2:
                continue
            quick = IsmctsBot(seed=steps, iterations=120)
            full = IsmctsBot(seed=steps, iterations=120, stop_early=False)
            assert quick.choose(state.seat(player)) == full.choose(state.seat(player))
            assert full.last.iterations == 120 and not full.last.settled_early
            if quick.last.settled_early:
                settled += 1
                assert quick.last.iterations < 120
    assert settled > 0, "no search ever settled early"


class ScoredState:
    """Just enough of a state for the cut-off valuations: its estimate."""

    def __init__(self, scores: list[float]) -> None:
        self.scores = scores

    def estimate(self) -> list[float]:
        return self.scores


def test_soft_shares_follow_the_scores() -> None:
    shares = soft_shares(ScoredState([10.0, 14.0, 14.0, 2.0]), temperature=4.0)  # type: ignore[arg-type]
    assert sum(shares) == pytest.approx(1.0)
    assert shares[1] == shares[2] > shares[0] > shares[3] > 0
    assert shares[1] / shares[0] == pytest.approx(math.e)


def test_cut_off_play_outs_use_the_temperature() -> None:
    state = opening("tyros", steps=20)
    player = state.to_move[0]
    searcher = IsmctsBot(seed=4, iterations=30, rollout_limit=5, cutoff_temperature=3.0)
    assert searcher.choose(state.seat(player)) in state.legal_actions(player)
    with pytest.raises(machiavel.UnknownBot, match="cutoff_temperature"):
        machiavel.bot("ismcts", seed=1, cutoff_temperature=0)
    with pytest.raises(machiavel.UnknownBot, match="widening must be positive"):
        machiavel.bot("ismcts", seed=1, widening=-1)
    with pytest.raises(machiavel.UnknownBot, match="exploration must be zero or more"):
        machiavel.bot("ismcts", seed=1, exploration=-0.5)


@pytest.mark.parametrize("game_id", machiavel.games())
def test_each_games_search_hints_are_valid_settings(game_id: str) -> None:
    """A game's hints fill what the caller leaves out; explicit parameters win."""
    hints = machiavel.game(game_id).search_hints
    settings = IsmctsBot(seed=1).settings_for(game_id)
    for name, value in hints.items():
        assert getattr(settings, name) == value
    explicit = IsmctsBot(seed=1, rollout="random", widening=2.0).settings_for(game_id)
    assert (explicit.rollout, explicit.widening) == ("random", 2.0)
