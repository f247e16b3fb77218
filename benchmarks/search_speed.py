"""ISMCTS iterations per second of an older commit and of the working tree, side by side.

The older commit (by default 73a8bd3, the reference of issue 16) is checked out in a
temporary folder; each round searches the same positions once with each tree, one after
the other, in fresh processes pinned to the same core, with each game's search hints (the
settings of the `hard` and `expert` bots). The positions are the opening and the states a
quarter and half way through a seeded random game. Iterations are divided by the CPU time
the search used (not the wall clock), so other work on the machine changes the figures
little. Prints the median iterations per CPU second of each tree and their ratio, per game:

    .venv/bin/python benchmarks/search_speed.py --seconds 2 --rounds 3
    .venv/bin/python benchmarks/search_speed.py --base 73a8bd3 --against HEAD --game tyros

Only the engines' and the bot's code differ between the two runs: both import the
``machiavel`` package of their own tree through ``PYTHONPATH`` in this interpreter.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from bench_compare import (  # same folder: run as a script
    compare,
    comparison_arguments,
    run_in_tree,
)

ROOT = Path(__file__).resolve().parent.parent
# Runs inside each tree: only what the contract offered at the reference commit.
MEASURE = """
import json, sys, time
from machiavel.bots.ismcts import IsmctsBot
from machiavel.core.registry import game, games
from machiavel.core.rng import Rng

seconds = float(sys.argv[1])
FRACTIONS = (0.0, 0.25, 0.5)

def positions(game_id):
    spec = game(game_id)
    players = min(spec.max_players, 4)
    rng = Rng(7)
    trial = spec.new(players, seed=7)
    length = 0
    while not trial.is_over:
        mover = trial.to_move[0]
        trial.apply(mover, rng.choice(trial.legal_actions(mover)))
        length += 1
    found = []
    for fraction in FRACTIONS:
        state, rng = spec.new(players, seed=7), Rng(7)
        for _ in range(int(length * fraction)):
            mover = state.to_move[0]
            state.apply(mover, rng.choice(state.legal_actions(mover)))
        found.append(state)
    return found

result = {}
for game_id in sys.argv[2:] or list(games()):
    iterations = used = 0.0
    for state in positions(game_id):
        player = state.to_move[0]
        bot = IsmctsBot(1, seconds=seconds / len(FRACTIONS), stop_early=False)
        start = time.process_time()
        _, stats = bot.search(state.seat(player), 1)
        used += time.process_time() - start
        iterations += stats.iterations
    result[game_id] = iterations / used
print(json.dumps(result))
"""
Figures = dict[str, float]  # game -> ISMCTS iterations per second


def measure(tree: Path, seconds: float, games: list[str], cpu: int | None) -> Figures:
    """One search run over every game with ``tree``'s code."""
    result: Figures = run_in_tree(tree, MEASURE, seconds, games, cpu)
    return result


def report(base: str, other: str, before: list[Figures], after: list[Figures]) -> None:
    print(f"ISMCTS iterations per CPU second (median of {len(before)} rounds, search hints)")
    print(f"{'game':8} {base[:10]:>12} {other[:14]:>14} {'ratio':>7}")
    for game in before[0]:
        old = statistics.median(run[game] for run in before)
        new = statistics.median(run[game] for run in after)
        print(f"{game:8} {old:12.1f} {new:14.1f} {new / old:7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    comparison_arguments(parser, "73a8bd3")
    args = parser.parse_args()
    before, after = compare(args, measure)
    report(args.base, args.against or "working tree", before, after)


if __name__ == "__main__":
    main()
