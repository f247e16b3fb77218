"""machiavel's server side by side with boardgame.io's, one right after the other.

Runs boardgame.io 0.50.2's own server (``../shared/benchmarks/boardgameio``: in memory,
a trivial game, its own load client ``load.js``) and machiavel's (``benchmarks/load.py``:
Tyrus, every action stored) under the same loads, each server pinned to CPU 0 and its
load generator to CPU 1, alternating ``--rounds`` times, and prints one table: actions
(moves) per second, latency p50/p99, the server's share of its core and its CPU per
action. Run it on a quiet 2-core machine:

    .venv/bin/python benchmarks/versus_boardgameio.py                    # closed 200 + paced 500
    .venv/bin/python benchmarks/versus_boardgameio.py --rounds 3 \\
        --database postgresql://postgres@127.0.0.1/machiavel_load  # an existing, empty database

The boardgame.io side is copied to a work folder and installed there once (``npm ci``,
from its lock file); ``--bgio-work DIR`` keeps it between runs. Every run's figures are
kept as JSON in ``--out`` (a temporary folder unless given).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent
BGIO_SOURCE = REPOSITORY.parent / "shared" / "benchmarks" / "boardgameio"
BGIO_FILES = ("server.js", "load.js", "package.json", "package-lock.json")
RUN_TIMEOUT = 600.0  # seconds: a run that takes longer is stuck


@dataclass(frozen=True)
class Load:
    """One load, in each load generator's words."""

    name: str
    games: int
    warmup: float
    seconds: float
    pace_ms: int  # 0: closed loop

    def bgio_args(self) -> list[str]:
        args = ["--matches", str(self.games), "--warmup", f"{self.warmup:g}"]
        args += ["--duration", f"{self.seconds:g}"]
        return args + (["--think-ms", str(self.pace_ms)] if self.pace_ms else [])

    def machiavel_args(self) -> list[str]:
        model = ["--model", "paced", "--pace", f"{self.pace_ms / 1000:g}"] if self.pace_ms else []
        args = ["--games", str(self.games), "--warmup", f"{self.warmup:g}"]
        return [*args, "--seconds", f"{self.seconds:g}", *(model or ["--model", "closed"])]


LOADS = {
    "closed": Load("closed loop, 200 games", 200, 5, 25, 0),
    "paced": Load("paced 1 s, 500 games", 500, 5, 30, 1000),
}


@dataclass(frozen=True)
class Figures:
    """What one run measured, in the same units for both servers."""

    server: str
    load: str
    actions_per_second: float
    p50_ms: float
    p99_ms: float
    server_cores: float
    us_per_action: float

    def row(self) -> str:
        return (
            f"| {self.load} | {self.server} | {self.actions_per_second:,.0f} | "
            f"{self.p50_ms:.1f} | {self.p99_ms:.1f} | {100 * self.server_cores:.0f}% | "
            f"{self.us_per_action:.0f} |"
        )


def bgio_figures(load: Load, data: dict[str, Any]) -> Figures:
    """boardgame.io's load.js report: moves per second and its server's CPU (% of one core)."""
    rate = float(data["movesPerSecond"] or 0.0)
    cores = float(data["serverCpuPctOfOneCore"] or 0.0) / 100
    latency = data["latencyMs"]
    return Figures(
        "boardgame.io (memory)",
        load.name,
        rate,
        float(latency["p50"] or "nan"),
        float(latency["p99"] or "nan"),
        cores,
        1e6 * cores / rate if rate else float("nan"),
    )


def machiavel_figures(load: Load, data: dict[str, Any]) -> Figures:
    """benchmarks/load.py's --json report."""
    database = data["database"]
    return Figures(
        f"machiavel ({database}, stored)",
        load.name,
        float(data["actions_per_second"]),
        float(data["latency_ms"]["p50"]),
        float(data["latency_ms"]["p99"]),
        float(data["server_cores"]),
        float(data["server_us_per_action"]),
    )


def install_bgio(work: Path, source: Path) -> None:
    """Copy boardgame.io's harness to ``work`` and install it there, once."""
    work.mkdir(parents=True, exist_ok=True)
    for name in BGIO_FILES:
        (work / name).unlink(missing_ok=True)  # a copy of a read-only file is read-only
        shutil.copyfile(source / name, work / name)
    if not (work / "node_modules" / "boardgame.io").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=work, check=True)


def run_bgio(work: Path, load: Load, out: Path, wait_idle: int, pin: bool) -> Figures:
    command = ["node", "load.js", *load.bgio_args(), "--out", str(out)]
    command += ["--wait-idle", str(wait_idle)]
    command += ["--pin", "1" if pin else "0"]  # its server on CPU 0, itself on CPU 1
    subprocess.run(command, cwd=work, check=True, timeout=RUN_TIMEOUT, stdout=subprocess.DEVNULL)
    return bgio_figures(load, json.loads(out.read_text()))


def run_machiavel(load: Load, out: Path, database: str | None, pin: bool) -> Figures:
    command = [sys.executable, str(HERE / "load.py"), *load.machiavel_args(), "--json", str(out)]
    if pin:  # as load.js pins boardgame.io's
        command += ["--server-cpu", "0", "--client-cpu", "1"]
    if database is not None:
        command += ["--database", database]
    subprocess.run(command, check=True, timeout=RUN_TIMEOUT, stdout=subprocess.DEVNULL)
    return machiavel_figures(load, json.loads(out.read_text()))


def table(results: Sequence[Figures]) -> str:
    head = [
        "| load | server | actions/s | p50 ms | p99 ms | server CPU | µs CPU per action |",
        "|---|---|---|---|---|---|---|",
    ]
    return "\n".join([*head, *(figures.row() for figures in results)])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument(
        "--loads", default="closed,paced", help="closed, paced, or both: closed,paced (default)"
    )
    parser.add_argument("--rounds", type=int, default=2, help="runs of each server (2)")
    parser.add_argument("--database", help="machiavel's database URL (default: SQLite)")
    parser.add_argument("--bgio", type=Path, default=BGIO_SOURCE, help="the harness's folder")
    parser.add_argument("--bgio-work", type=Path, help="where it is installed (kept)")
    parser.add_argument("--wait-idle", type=int, default=60, help="load.js's quiet wait (60 s)")
    parser.add_argument("--out", type=Path, help="folder for every run's JSON")
    parser.add_argument(
        "--seconds", type=float, help="measured seconds of every run (default: 25 closed, 30 paced)"
    )
    parser.add_argument(
        "--no-pin", action="store_true", help="pin nothing (a smoke test under taskset, say)"
    )
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.loads.split(",")]
    unknown = [name for name in names if name not in LOADS]
    if unknown:
        parser.error(f"--loads is closed, paced or closed,paced; not {', '.join(unknown)}")
    loads = [LOADS[name] for name in names]
    if args.seconds is not None:
        loads = [replace(load, seconds=args.seconds) for load in loads]
    pin = not args.no_pin
    with tempfile.TemporaryDirectory(prefix="versus-bgio-") as folder:
        work = args.bgio_work or Path(folder) / "bgio"
        out = args.out or Path(folder) / "runs"
        out.mkdir(parents=True, exist_ok=True)
        install_bgio(work, args.bgio)
        results = []
        for round_number in range(1, args.rounds + 1):
            for load in loads:
                tag = f"{(load.pace_ms and 'paced') or 'closed'}-{round_number}"
                bgio_out = out / f"bgio-{tag}.json"
                results.append(run_bgio(work, load, bgio_out, args.wait_idle, pin))
                print(results[-1].row(), flush=True)
                ours = out / f"machiavel-{tag}.json"
                results.append(run_machiavel(load, ours, args.database, pin))
                print(results[-1].row(), flush=True)
        print()
        print(table(sorted(results, key=lambda f: (f.load, f.server))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
