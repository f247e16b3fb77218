"""Bot moves through a cluster's Redis queue against the server's own workers (a
benchmark, not a test): what the trip through Redis and the database costs a quick move.

    .venv/bin/python benchmarks/bot_queue.py                  # 4 games, 2 workers
    .venv/bin/python benchmarks/bot_queue.py --games 8 --workers 2 --redis-url redis://...

The real app runs in this process (FastAPI's TestClient) on a fresh SQLite file, limits
off. ``--games`` Tyrus tables of two easy bots are opened at once and played to their
ends, twice: by the server's own pool of ``--workers`` processes, then in a cluster
(``cluster=ClusterSettings(...)``, a key prefix of its own, deleted after) whose moves a
bot worker node (``machiavel bots --workers N``, a subprocess, started and serving
before the clock starts) computes. Printed for each: moves, seconds, moves per second.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
from fastapi.testclient import TestClient

from machiavel.server import create_app
from machiavel.server.cluster import ClusterSettings
from machiavel.server.quotas import TableLimits

EASY_GAME = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]


def play_all(client: TestClient, games: int) -> tuple[int, float]:
    """Open the tables, wait for their ends: the moves played and the seconds taken."""
    start = time.perf_counter()
    ids = []
    for _ in range(games):
        answer = client.post("/api/games", json={"game": "tyrus", "seats": EASY_GAME})
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["id"])
    moves = 0
    for game_id in ids:
        while not (state := client.get(f"/api/games/{game_id}").json())["is_over"]:
            time.sleep(0.01)
        moves += state["version"]
    return moves, time.perf_counter() - start


def in_process(database: str, games: int, workers: int) -> tuple[int, float]:
    app = create_app(database, bot_workers=workers, table_limits=TableLimits.off())
    with TestClient(app) as client:
        return play_all(client, games)


def through_queue(database: str, games: int, workers: int, redis_url: str) -> tuple[int, float]:
    prefix = f"bench-{secrets.token_hex(6)}"
    source = str(Path(__file__).resolve().parents[1] / "src")
    path = os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "machiavel.cli", "bots", "--redis-url", redis_url]
    command += ["--database", database, "--workers", str(workers), "--prefix", prefix]
    node = subprocess.Popen(
        command, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": path}
    )
    keys = redis.Redis.from_url(redis_url)
    try:
        assert node.stdout is not None
        print(node.stdout.readline().strip())  # it serves once it says so
        cluster = ClusterSettings(redis_url, "http://127.0.0.1:9", node="bench", prefix=prefix)
        app = create_app(database, cluster=cluster, table_limits=TableLimits.off())
        with TestClient(app) as client:
            return play_all(client, games)
    finally:
        node.terminate()
        node.wait()
        for key in keys.scan_iter(match=f"{prefix}:*"):
            keys.delete(key)
        keys.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        moves, seconds = in_process(f"sqlite:///{folder}/pool.db", args.games, args.workers)
        report("server's own workers", moves, seconds)
        database = f"sqlite:///{folder}/queue.db"
        moves, seconds = through_queue(database, args.games, args.workers, args.redis_url)
        report("Redis queue, one node", moves, seconds)


def report(name: str, moves: int, seconds: float) -> None:
    print(f"{name:<22} {moves:5d} moves in {seconds:6.2f} s: {moves / seconds:7.1f} /s")


if __name__ == "__main__":
    main()
