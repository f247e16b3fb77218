"""`machiavel bench`: speed of every registered game through the contract, on one core."""

from __future__ import annotations

import time
from dataclasses import dataclass

from machiavel.core.contract import Game
from machiavel.core.registry import game, games
from machiavel.core.rng import Rng


@dataclass
class BenchResult:
    game: str
    players: int
    games: int
    actions: int
    turns: int
    seconds: float
    legal_calls: int
    legal_seconds: float
    ismcts_per_second: float = 0.0
    opening_legal_microseconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def turns_per_second(self) -> float:
        return self.turns / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    @property
    def mean_legal_microseconds(self) -> float:
        return 1e6 * self.legal_seconds / max(1, self.legal_calls)


def default_players(spec: Game) -> int:
    """The count benchmarked: the most common table, at most four."""
    return min(spec.max_players, 4)


def bench_game(game_id: str, players: int | None, seconds: float, seed: int = 1) -> BenchResult:
    """Random full games for about ``seconds``, untimed inside so that games/s is the
    engine's own speed; then ``legal_actions`` timed call by call in a shorter pass."""
    spec = game(game_id)
    count = default_players(spec) if players is None else players
    rng = Rng(seed)
    finished = actions = turns = 0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds or finished == 0:
        state = spec.new(count, seed=rng.next_u64())
        previous = -1
        while not state.is_over:
            waiting = state.to_move
            player = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
            state.apply(player, rng.choice(state.legal_actions(player)))
            actions += 1
            # A turn is a run of actions by one player (a Djambi kill and its corpse).
            turns += player != previous
            previous = player
        finished += 1
    elapsed = clock() - start
    legal_calls, legal_seconds = _time_legal_actions(spec, count, max(seconds / 3, 0.01), rng)
    return BenchResult(
        game_id, count, finished, actions, turns, elapsed, legal_calls, legal_seconds
    )


def _time_legal_actions(spec: Game, players: int, seconds: float, rng: Rng) -> tuple[int, float]:
    """Calls and total time of ``legal_actions`` on every fresh state of random games."""
    calls = 0
    total = 0.0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds or calls == 0:
        state = spec.new(players, seed=rng.next_u64())
        while not state.is_over:
            waiting = state.to_move
            player = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
            before = clock()
            legal = state.legal_actions(player)
            total += clock() - before
            calls += 1
            state.apply(player, rng.choice(legal))
    return calls, total


def bench_opening_legal(game_id: str, calls: int = 2000, seed: int = 1) -> float:
    """Mean microseconds to list the legal actions of a game's first position (uncached)."""
    spec = game(game_id)
    state = spec.new(default_players(spec), seed=seed)
    player = state.to_move[0]
    start = time.perf_counter()
    for _ in range(calls):
        state._legal(player)  # the computation itself, without the per-version cache
    return 1e6 * (time.perf_counter() - start) / calls


def bench_ismcts(game_id: str, seconds: float, seed: int = 1) -> float:
    """ISMCTS iterations per second (random rollouts) from the opening of a game."""
    from machiavel.bots.ismcts import IsmctsBot

    spec = game(game_id)
    state = spec.new(default_players(spec), seed=seed)
    searcher = IsmctsBot(seed, seconds=seconds)
    _, stats = searcher.search(state.seat(state.to_move[0]), seed)
    return stats.iterations / stats.seconds


def bench_all(seconds: float, only: list[str] | None = None) -> list[BenchResult]:
    results = []
    for game_id in only or list(games()):
        result = bench_game(game_id, None, seconds)
        result.ismcts_per_second = bench_ismcts(game_id, min(seconds, 2.0))
        result.opening_legal_microseconds = bench_opening_legal(game_id)
        results.append(result)
    return results
