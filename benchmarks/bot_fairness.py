"""Bot fairness: how long another table's easy bot waits while one client floods the
server with tables of expert bots (a benchmark, not a test).

    .venv/bin/python benchmarks/bot_fairness.py                 # 40 expert tables, 5 moves
    PYTHONPATH=/path/to/other/src .venv/bin/python benchmarks/bot_fairness.py   # before/after

The server runs in this process (FastAPI's TestClient, the real app on a fresh SQLite file,
limits off, ``--workers`` bot processes). One client (an address, no account) opens
``--flood`` Tyrus tables of two expert bots each, as fast as it can; then a person signed
in to an account plays ``--moves`` moves against an easy bot at a table of their own. For
each move: the time from the person's answer to the easy bot's move being there (GET
polled every 10 ms). Printed: each delay, the worst, and how long an easy move takes with
no flood (the same table before the flood starts).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from machiavel.server import create_app
from machiavel.server.accounts import COOKIE
from machiavel.server.quotas import TableLimits

SITE = "http://testserver"


def signed_in(client: TestClient) -> dict[str, str]:
    body = {"name": "friend", "password": "a long enough password"}
    answer = client.post("/api/accounts", json=body, headers={"origin": SITE})
    assert answer.status_code == 201, answer.text
    session = answer.cookies[COOKIE]
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={session}", "origin": SITE}


def state(client: TestClient, game_id: str, me: dict[str, str]) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/games/{game_id}", headers=me).json()
    return found


def my_turn(client: TestClient, game_id: str, me: dict[str, str]) -> dict[str, Any]:
    while True:
        now = state(client, game_id, me)
        if now["is_over"] or now["player"] in now["to_move"]:
            return now
        time.sleep(0.01)


def easy_delays(client: TestClient, game_id: str, me: dict[str, str], moves: int) -> list[float]:
    """Play ``moves`` moves; the wait for the easy bot's answer after each."""
    delays = []
    for _ in range(moves):
        now = my_turn(client, game_id, me)
        if now["is_over"]:
            break
        body = {"action": now["legal_actions"][0], "version": now["version"]}
        answer = client.post(f"/api/games/{game_id}/actions", json=body, headers=me)
        assert answer.status_code == 200, answer.text
        start = time.perf_counter()
        after = my_turn(client, game_id, me)
        delays.append(time.perf_counter() - start)
        if after["is_over"]:
            break
    return delays


def flood(client: TestClient, tables: int) -> None:
    experts = [{"kind": "bot", "level": "expert"}] * 2
    for _ in range(tables):
        answer = client.post("/api/games", json={"game": "tyrus", "seats": experts})
        assert answer.status_code == 201, answer.text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flood", type=int, default=40, help="expert tables (default 40)")
    parser.add_argument("--moves", type=int, default=5, help="the person's moves (default 5)")
    parser.add_argument("--workers", type=int, default=2, help="bot processes (default 2)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'fair.db'}"
        app = create_app(url, bot_workers=args.workers, table_limits=TableLimits.off())
        with TestClient(app) as client:
            me = signed_in(client)
            seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
            created = client.post("/api/games", json={"game": "tyrus", "seats": seats}, headers=me)
            game_id = created.json()["id"]
            quiet = easy_delays(client, game_id, me, 2)
            start = time.perf_counter()
            flood(client, args.flood)
            print(
                f"flood: {args.flood} tables of 2 expert bots in {time.perf_counter() - start:.2f} s"
            )
            busy = easy_delays(client, game_id, me, args.moves)
    print(f"easy bot, no flood: {', '.join(f'{d:.3f}' for d in quiet)} s")
    print(f"easy bot, flooded:  {', '.join(f'{d:.3f}' for d in busy)} s")
    print(f"worst delay seen by the easy bot during the flood: {max(busy):.3f} s")


if __name__ == "__main__":
    main()
