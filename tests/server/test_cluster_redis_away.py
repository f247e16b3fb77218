"""A cluster process whose Redis goes away (docs/cluster.md): a game it does not hold
cannot be told apart from one another process plays, so its requests are answered 503
with a sentence and change nothing; the games it holds play on; once Redis is back, so
is everything. On a Redis server of the test's own (the real one), stopped and started."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient

from machiavel.server.cluster import REDIS_AWAY, ClusterSettings
from machiavel.server.launch import free_port
from support.waiting import wait_until

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


@contextmanager
def redis_server(port: int, folder: Path) -> Iterator[None]:
    """A Redis of this test's own on ``port``, nothing saved; stopped at the end."""
    process = subprocess.Popen(
        [
            *(REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1"),
            *("--save", "", "--appendonly", "no", "--dir", str(folder)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port)
    try:

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        wait_until(answers, "Redis to answer")
        yield
    finally:
        client.close()
        process.terminate()
        process.wait()


def test_redis_away_then_back(
    tmp_path: Path, sqlite_url: str, client_on: Callable[..., TestClient]
) -> None:
    if not Path(REDIS_SERVER).exists():
        pytest.skip("redis-server is not installed (scripts/ensure-services.sh)")
    port = free_port()
    settings = ClusterSettings(f"redis://127.0.0.1:{port}/0", "http://127.0.0.1:1", "solo")
    with redis_server(port, tmp_path), client_on(sqlite_url, cluster=settings) as client:
        seats = [{"kind": "human"}, {"kind": "human"}]
        held = client.post("/api/games", json={"game": "tyrus", "seats": seats}).json()
        other = client.post("/api/games", json={"game": "tyrus", "seats": seats}).json()
        first = {table["id"]: first_move(client, table) for table in (held, other)}
        service = client.app.state.service  # type: ignore[attr-defined]
        client.portal.call(lambda: service._drop(service._cache[other["id"]]))  # type: ignore[union-attr]
        lease = redis.Redis(port=port)
        wait_until(lambda: not lease.exists(f"machiavel:lease:{other['id']}"), "the release")
        lease.close()
        with redis_stopped(port):
            answer = client.get(f"/api/games/{other['id']}")
            assert answer.status_code == 503 and answer.json()["detail"] == REDIS_AWAY
            assert answer.headers["retry-after"] == "1"
            body = first[other["id"]]
            assert client.post(f"/api/games/{other['id']}/actions", json=body).status_code == 503
            # The game it holds plays on: its lease is renewed once Redis is back.
            body = first[held["id"]]
            assert client.post(f"/api/games/{held['id']}/actions", json=body).status_code == 200
        with redis_server(port, tmp_path):
            answer = client.get(f"/api/games/{other['id']}")
            assert answer.status_code == 200 and answer.json()["version"] == 0  # unchanged
            body = first[other["id"]]
            assert client.post(f"/api/games/{other['id']}/actions", json=body).status_code == 200


def first_move(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """The body of a legal first action of the table's first player."""
    player = client.get(f"/api/games/{table['id']}").json()["to_move"][0]
    token = table["seats"][player]["token"]
    state = client.get(f"/api/games/{table['id']}", params={"token": token}).json()
    return {"action": state["legal_actions"][0], "version": 0, "token": token}


@contextmanager
def redis_stopped(port: int) -> Iterator[None]:
    """Redis on ``port`` shut down (its own SHUTDOWN, nothing saved) for the block."""
    client = redis.Redis(port=port)
    with suppress(redis.ConnectionError):  # it closes the connection as it stops
        client.shutdown(nosave=True)
    client.close()

    def gone() -> bool:
        probe = redis.Redis(port=port, socket_connect_timeout=1)
        try:
            probe.ping()
            return False
        except redis.RedisError:
            return True
        finally:
            probe.close()

    wait_until(gone, "Redis to stop")
    yield
