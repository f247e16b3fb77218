"""What telling a game costs the server (a benchmark, not a test).

    .venv/bin/python benchmarks/narration.py                # 5 random games of each game
    .venv/bin/python benchmarks/narration.py --games 10 --runs 7

A server replays a stored game when it loads it, writing the log as it goes. For random
whole games of each game this measures, per action (median over ``--runs``, wall-clock):

- ``apply``: the action alone;
- ``describe``: the action and its line for every viewer in every language (what the log
  cost before events and marks existed);
- ``narrate``: ``machiavel.core.narration.narrate``, what the server does now: the line,
  the events that followed for every viewer in every language, the board marks, and the
  copy of the state they are computed against.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

import machiavel
from machiavel.core.narration import describe_all, narrate
from machiavel.core.playout import random_playout
from machiavel.core.rng import Rng

GAMES = {"tyrus": 2, "djambi": 4, "guildes": 4, "tyros": 4}


def histories(game: str, players: int, count: int) -> list[list[tuple[int, str]]]:
    found = []
    for seed in range(count):
        state = machiavel.game(game).new(players, seed=seed)
        random_playout(state, Rng(seed + 1))
        found.append(list(state.history))
    return found


def replay_with(
    game: str, players: int, seed: int, history: list[tuple[int, str]], how: str
) -> None:
    state = machiavel.game(game).new(players, seed=seed)
    for player, action in history:
        if how == "narrate":
            narrate(state, player, action)
            continue
        if how == "describe":
            describe_all(state, player, action)
        state.apply(player, action)


def replay_all(game: str, players: int, found: list[list[tuple[int, str]]], how: str) -> None:
    for seed, history in enumerate(found):
        replay_with(game, players, seed, history, how)


def per_action_us(run: Callable[[], None], actions: int, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) / actions * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':8} {'actions':>8} {'apply µs':>9} {'describe µs':>12} {'narrate µs':>11}")
    for game, players in GAMES.items():
        found = histories(game, players, args.games)
        actions = sum(len(h) for h in found)
        figures = [
            per_action_us(partial(replay_all, game, players, found, how), actions, args.runs)
            for how in ("apply", "describe", "narrate")
        ]
        apply_us, describe_us, narrate_us = figures
        print(f"{game:8} {actions:8} {apply_us:9.1f} {describe_us:12.1f} {narrate_us:11.1f}")


if __name__ == "__main__":
    main()
