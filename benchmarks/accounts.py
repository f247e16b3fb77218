"""Accounts: sign-in time and GET /api/me/games time with 200 games (a benchmark, not a
test).

    .venv/bin/python benchmarks/accounts.py                      # 200 games, 30 runs
    .venv/bin/python benchmarks/accounts.py --games 500 --runs 50 --database postgresql://...

The server runs in this process (FastAPI's TestClient, the real app on a fresh SQLite file
in a temporary folder, or the empty database of ``--database``), with Argon2id at its
real cost (pwdlib's defaults). One account gets ``--games`` Tyrus tables, each joined by a
second account, who moves in every other game if it begins (so it is the first account's
turn in about three quarters of them). Measured (wall-clock, median and p95 over ``--runs``):

- ``POST /api/session``: a sign-in, i.e. one Argon2id verification;
- ``GET /api/me/games`` with the games in the server's memory (after playing), and cold:
  the memory emptied before each run, so the answer comes from the database alone (the
  copy of whose turn it is, ``games.to_move``), no game replayed.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from machiavel.server import create_app
from machiavel.server.accounts import COOKIE
from machiavel.server.quotas import TableLimits

SITE = "http://testserver"
PASSWORD = "a long enough password"


def session_of(client: TestClient, path: str, name: str) -> str:
    answer = client.post(path, json={"name": name, "password": PASSWORD}, headers={"origin": SITE})
    assert answer.status_code in (200, 201), answer.text
    token = answer.cookies[COOKIE]
    client.cookies.clear()
    return token


def headers(session: str) -> dict[str, str]:
    return {"cookie": f"{COOKIE}={session}", "origin": SITE}


def timed(
    runs: int, call: Callable[[], Any], before: Callable[[], Any] | None = None
) -> list[float]:
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def report(label: str, times: list[float]) -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"{label:<34} median {statistics.median(times) * 1000:7.1f} ms"
        f"   p95 {p95 * 1000:7.1f} ms   ({len(times)} runs)"
    )


def run(url: str, games: int, runs: int) -> None:
    with TestClient(create_app(url, bot_workers=1, table_limits=TableLimits.off())) as client:
        ada = session_of(client, "/api/accounts", "Ada")
        bob = session_of(client, "/api/accounts", "Bob")
        started = time.perf_counter()
        for number in range(games):
            body = {"game": "tyrus", "players": 2}
            created = client.post("/api/games", json=body, headers=headers(ada))
            assert created.status_code == 201, created.text
            game_id = created.json()["id"]
            joined = client.post(f"/api/games/{game_id}/join", json={}, headers=headers(bob))
            assert joined.status_code == 200, joined.text
            state = joined.json()
            if number % 2 == 0 and state["to_move"] == [1]:
                move = {"action": state["legal_actions"][0], "version": state["version"]}
                played = client.post(
                    f"/api/games/{game_id}/actions", json=move, headers=headers(bob)
                )
                assert played.status_code == 200, played.text
        print(f"set up {games} games in {time.perf_counter() - started:.1f} s")

        def my_games() -> None:
            answer = client.get("/api/me/games", headers=headers(ada))
            assert answer.status_code == 200
            assert len(answer.json()["games"]) == games

        service: Any = client.app.state.service  # type: ignore[attr-defined]
        mine = client.get("/api/me/games", headers=headers(ada)).json()["games"]
        print(f"Ada's turn in {sum(g['your_turn'] for g in mine)} of {len(mine)} games")
        report(
            "POST /api/session (sign-in)",
            timed(runs, lambda: session_of(client, "/api/session", "Ada")),
        )
        report("GET /api/me/games (in memory)", timed(runs, my_games))
        report("GET /api/me/games (cold)", timed(runs, my_games, service._cache.clear))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--database", help="an empty database (default: a new SQLite file)")
    args = parser.parse_args()
    if args.database:
        run(args.database, args.games, args.runs)
        return
    with tempfile.TemporaryDirectory() as folder:
        run(f"sqlite:///{Path(folder) / 'accounts.db'}", args.games, args.runs)


if __name__ == "__main__":
    main()
