"""`machiavel bench` of an older commit and of the working tree, side by side in one run.

The older commit is checked out (``git worktree``) in a temporary folder; each round runs
the engine benchmark once from each tree, one after the other, in fresh processes pinned to
the same core, so that both see the same machine. The medians over the rounds and their
ratios are printed per game:

    .venv/bin/python benchmarks/bench_compare.py --base 73a8bd3 --seconds 3 --rounds 3
    .venv/bin/python benchmarks/bench_compare.py --base c2d66fd --against 90c3093  # two commits

Only the engines' code differs between the two runs: both import the ``machiavel`` package
of their own tree through ``PYTHONPATH`` in this interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
MEASURE = """
import json, sys
from machiavel.benchmark import bench_all
seconds = float(sys.argv[1])
games = sys.argv[2:] or None
print(json.dumps({r.game: {"games/s": r.games_per_second,
                           "legal us": r.mean_legal_microseconds,
                           "ismcts it/s": r.ismcts_per_second}
                  for r in bench_all(seconds, games)}))
"""
FIGURES = ("games/s", "legal us", "ismcts it/s")
T = TypeVar("T")
Figures = dict[str, dict[str, float]]  # game -> figure -> value


def run_in_tree(tree: Path, script: str, seconds: float, games: list[str], cpu: int | None) -> Any:
    """The JSON that ``script`` prints last, run with ``tree``'s ``machiavel`` in a process
    of its own (pinned to ``cpu`` if given)."""
    command = [sys.executable, "-c", script, str(seconds), *games]
    if cpu is not None:
        command = ["taskset", "-c", str(cpu), *command]
    environment = {**os.environ, "PYTHONPATH": str(tree / "src")}
    output = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    return json.loads(output.stdout.strip().splitlines()[-1])


def measure(tree: Path, seconds: float, games: list[str], cpu: int | None) -> Figures:
    """One ``bench_all`` run with ``tree``'s engines."""
    result: Figures = run_in_tree(tree, MEASURE, seconds, games, cpu)
    return result


def medians(runs: list[Figures]) -> Figures:
    return {
        game: {figure: statistics.median(run[game][figure] for run in runs) for figure in FIGURES}
        for game in runs[0]
    }


def checkout(folder: Path, commit: str) -> Path:
    """A detached work tree of ``commit`` in ``folder`` (removed by the caller)."""
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), commit],
        check=True,
        capture_output=True,
    )
    return folder


def report(base: str, other: str, before: Figures, after: Figures) -> None:
    print(f"{'game':8} {'figure':12} {base[:10]:>12} {other[:14]:>14} {'ratio':>7}")
    for game, figures in before.items():
        for figure in FIGURES:
            old, new = figures[figure], after[game][figure]
            print(f"{game:8} {figure:12} {old:12.1f} {new:14.1f} {new / old:7.2f}")


def alternate(
    base: str,
    against: str | None,
    rounds: int,
    measure_tree: Callable[[Path], T],
) -> tuple[list[T], list[T]]:
    """``measure_tree`` on ``base`` and on ``against`` (default: the working tree), one
    after the other ``rounds`` times, each commit checked out in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="machiavel-bench-") as folder:
        base_tree = checkout(Path(folder) / "base", base)
        other_tree = ROOT if against is None else checkout(Path(folder) / "other", against)
        try:
            before, after = [], []
            for round_number in range(1, rounds + 1):
                print(f"round {round_number}/{rounds}", file=sys.stderr)
                before.append(measure_tree(base_tree))
                after.append(measure_tree(other_tree))
        finally:
            for tree in {base_tree, other_tree} - {ROOT}:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                    check=True,
                )
    return before, after


def comparison_arguments(parser: argparse.ArgumentParser, base: str | None) -> None:
    """The options every side-by-side benchmark takes (``base``: the default older commit,
    None to make it required)."""
    if base is None:
        parser.add_argument("--base", required=True, help="the older commit to compare with")
    else:
        parser.add_argument("--base", default=base, help=f"the older commit (default {base})")
    parser.add_argument("--against", help="a commit to compare it with (default: the working tree)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree (median)")
    parser.add_argument("--game", action="append", default=[], help="only this game")
    parser.add_argument("--cpu", type=int, default=0, help="core to pin to (-1: none)")


def compare(
    args: argparse.Namespace, measure_tree: Callable[[Path, float, list[str], int | None], T]
) -> tuple[list[T], list[T]]:
    """``measure_tree`` run on both trees the options name, in turn, ``--rounds`` times."""
    cpu = None if args.cpu < 0 else args.cpu
    return alternate(
        args.base,
        args.against,
        args.rounds,
        lambda tree: measure_tree(tree, args.seconds, args.game, cpu),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    comparison_arguments(parser, None)
    args = parser.parse_args()
    before, after = compare(args, measure)
    report(args.base, args.against or "working tree", medians(before), medians(after))


if __name__ == "__main__":
    main()
