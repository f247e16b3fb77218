"""`machiavel serve` for real: Uvicorn in a process of its own, killed without warning
while bots play, then started again: every game goes on, no action lost or doubled."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
from websockets.sync.client import connect

import machiavel
from machiavel import cli
from machiavel.core.contract import Setup
from machiavel.server.launch import free_port, serve_command
from machiavel.server.run import browser_address
from machiavel.server.storage import Repository


@contextmanager
def server(database: str, port: int) -> Iterator[tuple[subprocess.Popen[str], str]]:
    command = serve_command(database, port)
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        first_line = process.stdout.readline()
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx2.get(base + "/api/games", timeout=1)
                break
            except httpx2.TransportError:
                assert process.poll() is None, process.stdout.read()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield process, first_line
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def check_stored(database: str, game_id: str) -> list[tuple[int, str]]:
    repository = Repository(database)
    try:
        loaded = repository.load(game_id)
        assert loaded is not None
        record, actions = loaded
        assert repository.action_numbers(game_id) == list(range(1, len(actions) + 1))
        assert record.version == len(actions)
        spec = machiavel.game(record.game)
        spec.replay(Setup(record.game, record.players, record.seed, record.options), actions)
        return actions
    finally:
        repository.close()


def test_the_serve_command_and_the_address_it_prints() -> None:
    args = cli.build_parser().parse_args(["serve", "--port", "9000", "--database", "x.db"])
    assert (args.host, args.port, args.database) == ("127.0.0.1", 9000, "x.db")
    assert browser_address("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert browser_address("::1", 80) == "http://[::1]:80/"


def test_a_killed_server_loses_nothing_and_doubles_nothing(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'served.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server(database, port) as (process, first_line):
        assert f"open http://127.0.0.1:{port}/" in first_line
        with httpx2.Client(base_url=base, timeout=10) as client:
            body: dict[str, Any] = {
                "game": "djambi",
                "seed": 4,
                "seats": [{"kind": "bot", "level": "easy"}] * 4,
            }
            game_id = client.post("/api/games", json=body).json()["id"]
            with connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws", open_timeout=10) as ws:
                versions = [json.loads(ws.recv(timeout=10))["version"] for _ in range(3)]
            assert versions == sorted(versions) and versions[-1] >= 2
            assert client.get("/").status_code == 200
        time.sleep(0.3)
        process.send_signal(signal.SIGKILL)  # no shutdown at all, bots in the middle of moves
        process.wait(10)
    before = check_stored(database, game_id)
    assert before, "the bots had played before the kill"
    with server(database, port) as _, httpx2.Client(base_url=base, timeout=10) as client:
        deadline = time.monotonic() + 60
        while not (state := client.get(f"/api/games/{game_id}").json())["is_over"]:
            assert time.monotonic() < deadline, "the bots did not resume"
            time.sleep(0.05)
        assert state["version"] > len(before)
    after = check_stored(database, game_id)
    assert after[: len(before)] == before and len(after) == state["version"]
