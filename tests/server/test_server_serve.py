"""`machiavel serve` for real: Uvicorn in a process of its own, killed without warning
while a game goes on, then started again: no action lost or doubled; and nothing of a
killed server is left running.

Nothing here depends on the machine's speed: a kill happens at a moment the test
provably knows (a game that cannot end without the test's own seat), and waits are
for conditions, bounded only to fail a test that is truly stuck.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect

import machiavel
from machiavel import cli
from machiavel.core.contract import Setup
from machiavel.core.rng import Rng
from machiavel.server.bots import choose_move, process_pool
from machiavel.server.launch import (
    free_port,
    serve_command,
    start_server_process,
    stop_server_process,
)
from machiavel.server.run import PUBLIC_URL_VARIABLE, browser_address, public_address
from machiavel.server.storage import Repository
from support.forkserver import held, held_forkserver_environment
from support.processes import (
    Process,
    descendants,
    needs_proc,
    processes,
    read_process,
    running,
)
from support.waiting import STUCK, wait_until


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    base: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def server(database: str, folder: Path, bot_workers: int = 1) -> Iterator[Served]:
    """A server on a free port, answering; afterwards it and its process group are gone."""
    port = free_port()
    log = folder / f"server-{port}.log"
    with log.open("wb") as output:
        # The test plays as fast as it can from one address: no limits on the server.
        command = [*serve_command(database, port, bot_workers), "--no-limits"]
        process = start_server_process(command, output)
    served = Served(process, f"http://127.0.0.1:{port}", log)
    try:

        def answers() -> bool:
            assert process.poll() is None, f"the server stopped:\n{served.output()}"
            try:
                return httpx2.get(served.base + "/api/catalog", timeout=STUCK).status_code == 200
            except httpx2.TransportError:
                return False

        wait_until(answers, "the server to answer")
        yield served
    finally:
        stop_server_process(process)


def check_stored(database: str, game_id: str) -> tuple[list[tuple[int, str]], bool]:
    """The stored actions (numbers 1..n, no gap or double, replayable), and whether over."""
    repository = Repository(database)
    try:
        loaded = repository.load(game_id)
        assert loaded is not None
        record, actions = loaded
        assert repository.action_numbers(game_id) == list(range(1, len(actions) + 1))
        assert record.version == len(actions)
        spec = machiavel.game(record.game)
        setup = Setup(record.game, record.players, record.seed, record.options)
        state = spec.replay(setup, actions)
        assert state.is_over == record.is_over
        return actions, state.is_over
    finally:
        repository.close()


def test_the_serve_command_and_the_address_it_prints() -> None:
    args = cli.build_parser().parse_args(["serve", "--port", "9000", "--database", "x.db"])
    assert (args.host, args.port, args.database) == ("127.0.0.1", 9000, "x.db")
    assert browser_address("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert browser_address("::1", 80) == "http://[::1]:80/"


def test_mail_and_public_url_options(monkeypatch: pytest.MonkeyPatch) -> None:
    args = cli.build_parser().parse_args(
        ["serve", "--smtp-url", "smtp://127.0.0.1:2525", "--public-url", "https://m.example"]
    )
    assert (args.smtp_url, args.public_url) == ("smtp://127.0.0.1:2525", "https://m.example")
    monkeypatch.delenv(PUBLIC_URL_VARIABLE, raising=False)
    assert public_address(None, "0.0.0.0", 8000) == "http://127.0.0.1:8000"
    assert public_address("https://m.example/", "x", 1) == "https://m.example"
    monkeypatch.setenv(PUBLIC_URL_VARIABLE, "https://from.env")
    assert public_address(None, "x", 1) == "https://from.env"
    with pytest.raises(ValueError, match="public URL must be an http"):
        public_address("ftp://m.example", "x", 1)


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--smtp-url", "ftp://mail"], "SMTP URL's scheme 'ftp'"),
        (["--public-url", "m.example"], "public URL must be an http"),
    ],
)
def test_a_bad_mail_option_stops_the_server_with_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], says: str
) -> None:
    database = f"sqlite:///{tmp_path / 'm.db'}"
    assert cli.main(["serve", "--database", database, *flags]) == 2
    error = capsys.readouterr().err
    assert says in error and "Traceback" not in error
    assert not (tmp_path / "m.db").exists()  # stopped before anything was opened


class Ada:
    """The test's own seat (player 0) in a Tyrus duel against a bot: the game cannot end
    without her 27 moves, so it provably goes on as long as she has not made them all."""

    def __init__(self, game_id: str, token: str) -> None:
        self.game_id = game_id
        self.token = token
        self.rng = Rng(11)
        self.accepted: list[tuple[int, str]] = []  # (version played at, action), answered 200
        self.seen = 0  # the highest version an answer showed her

    def state(self, client: httpx2.Client) -> dict[str, Any]:
        answer = client.get(f"/api/games/{self.game_id}", params={"token": self.token})
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        self.seen = max(self.seen, state["version"])
        return state

    def my_turn(self, client: httpx2.Client) -> dict[str, Any]:
        """Her next turn (the bot moving meanwhile), or the end of the game."""

        def ready() -> dict[str, Any] | None:
            state = self.state(client)
            return state if 0 in state["to_move"] or state["is_over"] else None

        return wait_until(ready, "Ada's turn")

    def play(self, client: httpx2.Client, moves: int) -> None:
        """Play ``moves`` moves, or up to the end; each answer comes once it is stored."""
        for _ in range(moves):
            state = self.my_turn(client)
            if state["is_over"]:
                return
            action = self.rng.choice(state["legal_actions"])
            body = {"token": self.token, "action": action, "version": state["version"]}
            answer = client.post(f"/api/games/{self.game_id}/actions", json=body)
            assert answer.status_code == 200, answer.text
            self.accepted.append((state["version"], action))
            self.seen = max(self.seen, answer.json()["version"])

    def retry_last(self, client: httpx2.Client) -> None:
        """Her last move again, as if its answer had been lost: accepted, not played again."""
        version, action = self.accepted[-1]
        body = {"token": self.token, "action": action, "version": version}
        answer = client.post(f"/api/games/{self.game_id}/actions", json=body)
        assert answer.status_code == 200, answer.text


def test_a_killed_server_loses_nothing_and_doubles_nothing(tmp_path: Path) -> None:
    """Killed three times in one game: just after Ada's move was stored (her rival about
    to think, or thinking, or storing its answer), on her turn, and just after her move
    again. Four bots play a game of their own meanwhile, which a kill may cut anywhere
    (or not at all, on a fast machine: it is checked the same way)."""
    database = f"sqlite:///{tmp_path / 'served.db'}"
    duel = {
        "game": "tyrus",
        "seed": 4,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
    }
    crowd = {"game": "djambi", "seed": 4, "seats": [{"kind": "bot", "level": "easy"}] * 4}
    ada: Ada | None = None
    crowd_id = ""
    stored: dict[str, list[tuple[int, str]]] = {}
    for moment in ("after her move", "on her turn", "after her move"):
        with server(database, tmp_path) as served:
            with httpx2.Client(base_url=served.base, timeout=STUCK) as client:
                if ada is None:  # the first server: the games begin
                    assert f"open {served.base}/" in served.output()
                    assert client.get("/").status_code == 200
                    created = client.post("/api/games", json=duel).json()
                    ada = Ada(created["id"], created["seats"][0]["token"])
                    crowd_id = client.post("/api/games", json=crowd).json()["id"]
                    stored = {ada.game_id: [], crowd_id: []}
                else:
                    ada.retry_last(client)
                ada.play(client, 2)
                if moment == "on her turn":
                    state = ada.my_turn(client)
                    socket = served.base.replace("http", "ws") + f"/api/games/{ada.game_id}/ws"
                    with connect(socket, open_timeout=STUCK) as spectator:
                        assert json.loads(spectator.recv(STUCK))["version"] == state["version"]
            served.process.send_signal(signal.SIGKILL)  # no shutdown at all
            served.process.wait()
        for game_id, before in stored.items():
            actions, over = check_stored(database, game_id)
            assert actions[: len(before)] == before, "an action stored earlier was lost"
            stored[game_id] = actions
        assert not check_stored(database, ada.game_id)[1], "the duel went on at the kill"
        duel_actions = stored[ada.game_id]
        assert len(duel_actions) >= ada.seen, "an action answered or shown was not stored"
        assert [a for p, a in duel_actions if p == 0] == [a for _, a in ada.accepted]
        assert all(duel_actions[version] == (0, a) for version, a in ada.accepted)
    assert ada is not None
    with (
        server(database, tmp_path) as served,
        httpx2.Client(base_url=served.base, timeout=STUCK) as client,
    ):
        ada.play(client, 27)

        def crowd_over() -> bool:
            state: dict[str, Any] = client.get(f"/api/games/{crowd_id}").json()
            return bool(state["is_over"])

        wait_until(crowd_over, "the bots' game to end (it resumes by itself)")
    for game_id, before in stored.items():
        actions, over = check_stored(database, game_id)
        assert over and actions[: len(before)] == before
        stored[game_id] = actions
    assert [a for p, a in stored[ada.game_id] if p == 0] == [a for _, a in ada.accepted]
    assert len(ada.accepted) == 27


BOT_FIRST_SEED = 1  # Tyrus with this seed: player 1 (the bot here) moves first


def test_the_server_answers_while_its_bot_workers_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first bot move starts the worker pool, whose forkserver imports the engines
    first (a second; a minute on a full machine). It is held here for as long as the test
    likes (``support/held_forkserver``): meanwhile the server still answers, and once it
    is let go, the bot moves."""
    release = tmp_path / "release-forkserver"
    for name, value in held_forkserver_environment(release, os.environ.get("PYTHONPATH")).items():
        monkeypatch.setenv(name, value)
    database = f"sqlite:///{tmp_path / 'served.db'}"
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    body = {"game": "tyrus", "seed": BOT_FIRST_SEED, "seats": seats}
    try:
        with (
            server(database, tmp_path) as served,
            httpx2.Client(base_url=served.base, timeout=STUCK) as client,
        ):
            created = client.post("/api/games", json=body)
            assert created.status_code == 201, created.text
            game = f"/api/games/{created.json()['id']}"
            wait_until(held(release).exists, "the bot workers' forkserver to start")
            while_held = client.get(game)  # the event loop is not waiting for the pool
            assert while_held.status_code == 200, while_held.text
            assert while_held.json()["version"] == 0
            release.touch()
            wait_until(lambda: client.get(game).json()["version"] == 1, "the bot's move")
    finally:
        release.touch()


def group_running(group: int) -> list[int]:
    return [p.pid for p in processes().values() if p.group == group and p.state not in "ZX"]


@needs_proc
def test_a_killed_server_leaves_no_process_behind(tmp_path: Path) -> None:
    """Expert bots are thinking, each search on processes of its own: server, forkserver,
    bot workers, search processes. Only the server is killed; all the rest must end."""
    database = f"sqlite:///{tmp_path / 'served.db'}"
    with server(database, tmp_path, bot_workers=2) as served:
        seats = [{"kind": "bot", "level": "expert"}] * 2
        httpx2.post(served.base + "/api/games", json={"game": "tyrus", "seats": seats})
        pid = served.process.pid

        def searching() -> dict[int, Process] | None:
            tree = descendants(pid)
            deep = [p for p in tree.values() if p.parent in tree and tree[p.parent].parent in tree]
            return tree if deep else None

        tree = wait_until(searching, "a bot's search to run in processes of its own")
        served.process.send_signal(signal.SIGKILL)
        served.process.wait()
        wait_until(lambda: not running(tree), "the server's processes to end")
        wait_until(lambda: not group_running(pid), "every process the server started to end")


@needs_proc
def test_a_killed_bot_worker_takes_its_search_processes_along() -> None:
    """An expert's search runs on processes its worker forks; a worker killed outright
    cannot end them: they must end by themselves."""
    pool = process_pool(1)
    worker = pool.submit(os.getpid).result(timeout=STUCK)
    known = read_process(worker)
    assert known is not None
    searchers: dict[int, Process] = {}
    try:
        state = machiavel.game("tyrus").new(2, seed=3)
        seat = state.seat(state.to_move[0])
        endless = {"seconds": None, "iterations": 10**12, "jobs": 2}
        thinking: Future[str] = pool.submit(choose_move, "expert", 1, seat, endless)

        def searching() -> dict[int, Process] | None:
            tree = descendants(worker)
            return tree if len(tree) >= 2 else None

        searchers = wait_until(searching, "the search processes to start")
        os.kill(worker, signal.SIGKILL)
        wait_until(lambda: not running(searchers), "the search processes to end")
        assert thinking.exception(timeout=STUCK) is not None  # the pool saw its worker die
    finally:  # after a failure, nothing may go on searching for ever
        for pid in running({worker: known, **searchers, **descendants(worker)}):
            os.kill(pid, signal.SIGKILL)
        pool.shutdown(wait=True, cancel_futures=True)
