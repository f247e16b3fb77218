"""The group commit's UPDATE alone (``groupsql.move_games``), by the size of the group.

Times the statement that moves a group of games one version on, on a copy of a SQLite
database made by ``benchmarks/stored_games.py`` (WAL, ``synchronous=NORMAL``, as the
server runs it), random games each time, one transaction a statement. Prints the median
time of the statement, in µs, for each size:

    .venv/bin/python benchmarks/stored_games.py --games 1200 --out /tmp/stored.db
    .venv/bin/python benchmarks/move_games.py --database /tmp/stored.db --sizes 1,10,90,1000
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from machiavel.server import groupsql

NOW = "2026-11-25 05:00:00.000000"  # SQLAlchemy's text of a time, as the server binds it


def sizes_of(text: str) -> list[int]:
    """``1,10,90``: the group sizes; ValueError with a sentence otherwise."""
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"--sizes is a list of whole numbers like 1,10,90, not {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise ValueError(f"--sizes are at least 1, not {text!r}")
    return sizes


def time_size(db: sqlite3.Connection, versions: dict[str, int], size: int, rounds: int) -> float:
    """The median time (µs) of moving ``size`` random games, over ``rounds`` statements."""
    sql = groupsql.move_games("?", size)
    games = sorted(versions)
    times = []
    for _ in range(rounds):
        group = random.sample(games, size)
        values: list[object] = [NOW, NOW]
        for game in group:
            values += (game, "0", versions[game], True)
        db.execute("BEGIN")
        start = time.perf_counter()
        moved = db.execute(sql, values).rowcount
        times.append(time.perf_counter() - start)
        db.execute("COMMIT")
        if moved != size:
            raise RuntimeError(f"{moved} games moved of {size}: the database changed meanwhile")
        for game in group:
            versions[game] += 1
    return 1e6 * statistics.median(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n", 1)[0])
    parser.add_argument("--database", required=True, help="a file of stored_games.py")
    parser.add_argument("--sizes", default="1,10,90,300,1000", help="group sizes (1,10,...)")
    parser.add_argument("--rounds", type=int, default=100, help="statements a size (100)")
    args = parser.parse_args(argv)
    source = Path(args.database)
    if not source.is_file():
        parser.error(f"--database {source}: there is no such file (make one with stored_games.py)")
    try:
        sizes = sizes_of(args.sizes)
    except ValueError as error:
        parser.error(str(error))
    if args.rounds < 1:
        parser.error(f"--rounds is at least 1, not {args.rounds}")
    with tempfile.TemporaryDirectory(prefix="machiavel-move-") as folder:
        copy = Path(folder) / "copy.db"
        shutil.copy(source, copy)  # the statements change it
        db = sqlite3.connect(copy, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            versions = dict(db.execute("SELECT id, version FROM games").fetchall())
            if max(sizes) > len(versions):
                parser.error(f"a group of {max(sizes)} needs as many games: it has {len(versions)}")
            for size in sizes:
                median = time_size(db, versions, size, args.rounds)
                print(f"{size:5d} games: {median:8.0f} us a statement, {median / size:6.2f} a game")
        finally:
            db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
