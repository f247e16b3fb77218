"""A SQLite database holding many stored games, to measure a server with a long history.

The benchmarks start from an empty database, where a statement that reads every stored
game costs nothing; on a server that has run for months it costs at every use. This
plays a few real Tyrus games (``accept_path.py``, so the rows are the server's own),
then copies the first game (its row, seats and actions) under new ids until the database
holds ``--games`` games. Give the file to ``load.py`` or ``accept_path.py`` with ``--database``; they
change it, so copy it for each run:

    .venv/bin/python benchmarks/stored_games.py --games 100000 --out /tmp/stored.db
    cp /tmp/stored.db /tmp/run.db
    .venv/bin/python benchmarks/load.py --model closed --games 200 --database sqlite:////tmp/run.db
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import accept_path  # same folder: run as a script

REAL_GAMES = 20
MAX_GAMES = 10_000_000


def copy_games(database: Path, total: int) -> int:
    """Copy the first stored game, with its seats and actions, under new ids until
    ``total`` games are stored: each copy loads as the game it copies."""
    with sqlite3.connect(database) as conn:
        stored = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        template = conn.execute("SELECT id FROM games ORDER BY id LIMIT 1").fetchone()[0]
        for table, key in (("games", "id"), ("seats", "game_id"), ("actions", "game_id")):
            _copy_rows(conn, table, key, template, total - stored)
        count: int = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    return count


def _copy_rows(conn: sqlite3.Connection, table: str, key: str, template: str, copies: int) -> None:
    """The rows of ``table`` whose ``key`` is ``template``, once for each copy's id
    (``copy-1``, ``copy-2``...); a table's own row number (``id``) is left to SQLite."""
    columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
    if key != "id":
        columns = [name for name in columns if name != "id"]
    chosen = ", ".join("'copy-' || n.i" if name == key else f"t.{name}" for name in columns)
    conn.execute(
        f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
        f"INSERT INTO {table} ({', '.join(columns)}) "
        f"SELECT {chosen} FROM n, (SELECT * FROM {table} WHERE {key} = ?) AS t",
        (copies, template),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--games", type=int, default=100_000, help="games stored (100000)")
    parser.add_argument("--out", type=Path, required=True, help="the SQLite file to write")
    args = parser.parse_args(argv)
    if not REAL_GAMES < args.games <= MAX_GAMES:
        parser.error(f"--games is a number of games from {REAL_GAMES + 1} to {MAX_GAMES}")
    if args.out.exists():
        parser.error(f"{args.out} exists already: give a new file")
    if not args.out.parent.is_dir():
        parser.error(f"{args.out.parent} is not a folder: give a file in an existing folder")
    accept_path.main(
        ["--games", str(REAL_GAMES), "--actions", "200", "--warmup", "10",
         "--database", f"sqlite:///{args.out.resolve()}"]
    )  # fmt: skip
    print(f"{copy_games(args.out, args.games)} games stored in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
