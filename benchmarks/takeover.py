"""How long a game waits when the process owning it dies (docs/cluster.md, "Figures").

Starts ``machiavel cluster`` with ``--nodes`` server processes on PostgreSQL and Redis,
then, as many times as it can (one process fewer each time, at least one left): creates a
Djambi table of four people through the proxy, plays a few actions, kills the process
owning it with SIGKILL, and plays on through the proxy as fast as it can. The figure is
the time from the kill to the first action acknowledged after it; each is printed, then
their median and the largest.

    .venv/bin/python benchmarks/takeover.py --database postgresql+psycopg://postgres@127.0.0.1/machiavel_bench --nodes 4 --lease-seconds 5
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import redis

from machiavel.server.launch import free_port

STUCK = 120.0


def call(base: str, method: str, path: str, body: object = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, None
    except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError):
        return 0, None  # refused, timed out, or cut mid-answer (IncompleteRead) by the kill


def play_one(base: str, game_id: str, tokens: list[str]) -> bool:
    """One action of the seat to move (True if a server acknowledged it)."""
    status, state = call(base, "GET", f"/api/games/{game_id}")
    if status != 200 or state["is_over"]:
        return False
    player = state["to_move"][0]
    status, mine = call(base, "GET", f"/api/games/{game_id}?token={tokens[player]}")
    if status != 200:
        return False
    body = {
        "action": mine["legal_actions"][0],
        "version": mine["version"],
        "token": tokens[player],
    }
    status, _ = call(base, "POST", f"/api/games/{game_id}/actions", body)
    return status == 200


def one_takeover(base: str, prefix: str, redis_url: str, pids: dict[str, int]) -> float:
    status, created = call(
        base, "POST", "/api/games", {"game": "djambi", "seats": [{"kind": "human"}] * 4}
    )
    assert status == 201, status
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    for _ in range(5):
        play_one(base, game_id, tokens)
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    owner = str(client.get(f"{prefix}:lease:{game_id}")).split("#", 1)[0]
    client.close()
    os.kill(pids.pop(owner), signal.SIGKILL)
    killed = time.monotonic()
    while not play_one(base, game_id, tokens):
        if time.monotonic() - killed > STUCK:
            raise SystemExit("no action was acknowledged for two minutes after the kill")
        time.sleep(0.01)
    return time.monotonic() - killed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a PostgreSQL URL")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--nodes", type=int, default=4, help="server processes (4)")
    parser.add_argument("--lease-seconds", default="5", help="the servers' leases (5)")
    args = parser.parse_args()
    prefix = f"machiavel-takeover-{os.getpid()}"
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="machiavel-takeover-"))
    out = folder / "cluster.out"
    command = [
        *(sys.executable, "-m", "machiavel.cli", "cluster", "--nodes", str(args.nodes)),
        *("--port", str(port), "--database", args.database, "--redis-url", args.redis_url),
        *("--redis-prefix", prefix, "--no-limits", "--lease-seconds", args.lease_seconds),
        *("--log-dir", str(folder / "logs")),
    ]
    with out.open("wb") as output:
        cluster = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    try:
        started = time.monotonic()
        while "Ctrl+C stops them all" not in out.read_text():
            if cluster.poll() is not None or time.monotonic() - started > 600:
                raise SystemExit(f"the cluster did not start:\n{out.read_text()}")
            time.sleep(0.2)
        pids = {
            name: int(pid)
            for name, pid in re.findall(r"(node-\d+)\s+server\s+pid (\d+)", out.read_text())
        }
        base = f"http://127.0.0.1:{port}"
        figures = []
        while len(pids) > 1:
            figures.append(one_takeover(base, prefix, args.redis_url, pids))
            print(f"play went on {figures[-1]:.2f} s after the owner was killed", flush=True)
        print(
            f"{len(figures)} takeovers, leases of {args.lease_seconds} s: median "
            f"{statistics.median(figures):.2f} s, largest {max(figures):.2f} s"
        )
    finally:
        cluster.send_signal(signal.SIGINT)
        cluster.wait(60)
        client = redis.Redis.from_url(args.redis_url)
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.delete(key)
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
