"""Instructions per action of the server's accept path: an older commit and the working tree.

``benchmarks/accept_path.py`` gives CPU time per action, which moves by 10-20% from one
run to the next on a busy virtual machine: more than most single changes to the server.
This counts instructions instead (``valgrind --tool=callgrind``), which do not depend on
what else the machine runs. Each tree plays ``accept_path.py`` twice under callgrind, with
two numbers of actions; the difference of the two counts, divided by the difference of
the actions, is the cost of one action with start-up, imports and the warm-up cancelled
out. Every thread of the process is counted (the event loop's and the store thread's,
SQLite included). One game at a time by default: its actions then reach the store thread
in the same order, one commit each, and two runs of one tree agree within 1%. With many
games, how actions group into commits follows the threads' timing, and the same tree's
counts moved by 13% from one run to the next:

    .venv/bin/python benchmarks/accept_instructions.py --base 17635b0
    .venv/bin/python benchmarks/accept_instructions.py --base HEAD~3 --against HEAD

The older commit is checked out in a temporary folder and its engines are compiled there
(``scripts/compile_engines.py``, a few minutes) so that both trees run compiled engines;
the working tree must be compiled already (``make compile``). Both trees run this tree's
``accept_path.py`` with their own ``machiavel`` through ``PYTHONPATH``. A run under
callgrind is about fifty times slower than without: the defaults take about two minutes a
tree, besides compiling.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_compare import alternate  # same folder: run as a script

ROOT = Path(__file__).resolve().parent.parent
ACCEPT_PATH = ROOT / "benchmarks" / "accept_path.py"
COLLECTED = re.compile(r"Collected : (\d+)")  # callgrind's total, on standard error


def instructions(tree: Path, games: int, actions: int, warmup: int) -> int:
    """Instructions of one ``accept_path.py`` run with ``tree``'s code, all threads."""
    with tempfile.TemporaryDirectory(prefix="machiavel-callgrind-") as folder:
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={Path(folder) / 'out'}",
            sys.executable,
            str(ACCEPT_PATH),
            f"--games={games}",
            f"--actions={actions}",
            f"--warmup={warmup}",
        ]
        environment = {**os.environ, "PYTHONPATH": str(tree / "src")}
        run = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    found = COLLECTED.search(run.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no total:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def per_action(tree: Path, args: argparse.Namespace) -> float:
    """Instructions per action of ``tree``: the slope between two numbers of actions."""
    compile_engines(tree)
    few, many = (int(n) for n in args.actions)
    counts = [instructions(tree, args.games, n, args.warmup) for n in (few, many)]
    return (counts[1] - counts[0]) / (many - few)


def compile_engines(tree: Path) -> None:
    """Compile ``tree``'s engines unless it is this one (compiled by ``make compile``)."""
    if tree == ROOT:
        return
    print(f"compiling the engines of {tree}", file=sys.stderr)
    subprocess.run(
        [sys.executable, str(tree / "scripts" / "compile_engines.py"), "--strict"],
        env={**os.environ, "PYTHONPATH": str(tree / "src")},
        check=True,
        capture_output=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", required=True, help="the older commit to compare with")
    parser.add_argument("--against", help="a commit to compare it with (default: the working tree)")
    parser.add_argument("--games", type=int, default=1, help="concurrent games (1)")
    parser.add_argument(
        "--actions",
        type=int,
        nargs=2,
        default=(300, 900),
        metavar=("FEW", "MANY"),
        help="the two numbers of actions measured (300 900)",
    )
    parser.add_argument("--warmup", type=int, default=100, help="actions not measured (100)")
    parser.add_argument("--rounds", type=int, default=1, help="measures of each tree")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed: apt-get install valgrind")
    if not 0 < args.actions[0] < args.actions[1]:
        raise SystemExit("--actions: two numbers, the first above 0 and below the second")
    before, after = alternate(args.base, args.against, args.rounds, lambda t: per_action(t, args))
    other = args.against or "working tree"
    print("instructions per action of the accept path (callgrind, all threads)")
    for name, figures in ((args.base, before), (other, after)):
        print(f"{name[:14]:14} " + " ".join(f"{value:,.0f}" for value in figures))
    print(f"ratio          {min(after) / min(before):.3f} (lowest of each)")


if __name__ == "__main__":
    main()
