"""Several server processes behind a proxy (docs/cluster.md): ``machiavel serve``'s
cluster options, ``GET /api/health``, HAProxy's routing with the configuration of the one
template (a game's requests to one process, the rest round robin, a process that goes
down replaced at once), and ``machiavel cluster`` for real: two servers on a PostgreSQL
test database and Redis under a prefix of the test's own, a game played through the
proxy, Ctrl+C stopping every process.

Every wait is for a condition, bounded by STUCK, which only a stuck test reaches. Without
HAProxy (scripts/ensure-haproxy.sh), PostgreSQL or Redis the tests that need them are
skipped, except under CI (CI set), where that is a failure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect as websocket_connect

from machiavel import cli
from machiavel.clustering import REDIS_URL_VARIABLE, cluster_address
from machiavel.clustering import settings_from as cluster_settings_from
from machiavel.core.rng import Rng
from machiavel.server import create_app
from machiavel.server.cluster import ClusterSettings, process_name
from machiavel.server.devcluster import (
    Cluster,
    ClusterPlan,
    bots_command,
    server_command,
    start_child,
)
from machiavel.server.haproxy import HAPROXY, Upstream, haproxy_command, proxy_config
from machiavel.server.health import add_health
from machiavel.server.launch import free_port, start_server_process, stop_server_process
from machiavel.server.quotas import TableLimits
from machiavel.serving import SettingError
from support.cluster_run import REDIS_URL, machiavel_cluster
from support.processes import descendants, needs_proc, running
from support.waiting import STUCK, wait_until

NODE_HEADER = "x-machiavel-node"


def required(problem: str | None) -> None:
    """Skip for ``problem`` (fail under CI)."""
    if problem is None:
        return
    if os.environ.get("CI"):
        pytest.fail(problem)
    pytest.skip(problem)


def need_haproxy() -> None:
    missing = not Path(HAPROXY).exists()
    required(f"{HAPROXY} is missing: run scripts/ensure-haproxy.sh" if missing else None)


# ---- serve's cluster options ------------------------------------------------------------
def serve_arguments(*options: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(["serve", *options])


def test_without_redis_serve_stays_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REDIS_URL_VARIABLE, raising=False)
    assert cluster_settings_from(serve_arguments(), "127.0.0.1", 8000) is None


def test_the_cluster_options_make_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    arguments = serve_arguments(
        *("--redis-url", "redis://:secret@10.0.0.2:6379/0", "--node-name", "app1-8001"),
        *("--lease-seconds", "3", "--redis-prefix", "staging"),
    )
    settings = cluster_settings_from(arguments, "0.0.0.0", 8001)
    assert settings == ClusterSettings(
        "redis://:secret@10.0.0.2:6379/0", "http://127.0.0.1:8001", "app1-8001", 3.0, "staging"
    )
    monkeypatch.setenv(REDIS_URL_VARIABLE, "redis://10.0.0.2:6379/1")
    from_environment = cluster_settings_from(serve_arguments(), "10.0.0.5", 8002)
    assert from_environment is not None
    assert from_environment.redis_url == "redis://10.0.0.2:6379/1"
    assert from_environment.address == "http://10.0.0.5:8002"
    assert from_environment.name == process_name()  # host-pid when no name is given
    given = serve_arguments("--cluster-address", "http://10.0.0.5:9001/")
    assert cluster_settings_from(given, "0.0.0.0", 8001) is not None
    assert cluster_address("http://10.0.0.5:9001/", "0.0.0.0", 8001) == "http://10.0.0.5:9001"
    assert cluster_address(None, "::", 8001) == "http://127.0.0.1:8001"
    assert cluster_address(None, "::1", 8001) == "http://[::1]:8001"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["--redis-url", "http://10.0.0.2"], "redis-url must be a redis://"),
        (["--node-name", "no spaces"], "node-name 'no spaces' must be"),
        (["--node-name", "_under"], "starting with a letter or a digit"),
        (["--cluster-address", "10.0.0.5:8001"], "cluster-address must be an http:// URL"),
        (["--cluster-address", "http://0.0.0.0:8001"], "no address the other processes"),
        (["--cluster-address", "http://10.0.0.5:8001/x"], "no path or query"),
        (["--lease-seconds", "0"], "lease-seconds must be more than 0"),
    ],
)
def test_cluster_options_that_cannot_work_are_refused(
    options: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if "--redis-url" not in options:
        options = ["--redis-url", "redis://127.0.0.1:6379/0", *options]
    with pytest.raises(SettingError, match=re.escape(says)):
        cluster_settings_from(serve_arguments(*options), "127.0.0.1", 8001)
    assert cli.main(["serve", *options]) == 2
    assert says in capsys.readouterr().err


def test_a_cluster_on_sqlite_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = f"sqlite:///{tmp_path / 'c.db'}"
    redis_url = ["--redis-url", "redis://127.0.0.1:6379/0"]
    assert cli.main(["serve", "--database", database, *redis_url]) == 2
    assert cli.main(["cluster", "--database", database, *redis_url]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and all("is a SQLite file" in line for line in errors)
    assert not (tmp_path / "c.db").exists()  # refused before anything was opened


def test_a_cluster_without_its_redis_or_database_says_so(
    tmp_path: Path, postgres_url: str, redis_prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    need_haproxy()  # checked first; redis_prefix: the test's Redis answers
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    logs = ["--log-dir", str(tmp_path / "logs")]
    assert cli.main(["cluster", "--database", postgres_url, "--redis-url", nowhere, *logs]) == 1
    assert f"machiavel: Redis does not answer at {nowhere}" in capsys.readouterr().err
    missing = postgres_url.rsplit("/", 1)[0] + "/machiavel_test_missing"
    assert cli.main(["cluster", "--database", missing, "--redis-url", REDIS_URL, *logs]) == 1
    error = capsys.readouterr().err
    assert "cannot open the database" in error and "Traceback" not in error
    assert not (tmp_path / "logs").exists()  # nothing was started


def test_the_cluster_commands_of_each_process() -> None:
    plan = ClusterPlan(
        2, 8000, "postgresql://db/m", "redis://r", redis_prefix="t", lease_seconds="2"
    )
    command = server_command(plan, "node-1", 41001)
    arguments = cli.build_parser().parse_args(command[3:])
    settings = cluster_settings_from(arguments, arguments.host, arguments.port)
    assert settings == ClusterSettings("redis://r", "http://127.0.0.1:41001", "node-1", 2.0, "t")
    bots = argparse.ArgumentParser()
    bots.add_argument("--prefix")
    assert bots_command(plan, bots)[3:] == [
        *("bots", "--redis-url", "redis://r", "--database", "postgresql://db/m", "--prefix", "t")
    ]


# ---- GET /api/health -------------------------------------------------------------------
def test_the_health_check_names_the_process(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_workers=1, table_limits=TableLimits.off())
    add_health(app, "node-7")
    with TestClient(app) as client:
        answer = client.get("/api/health")
        assert answer.status_code == 200
        assert answer.json() == {"status": "ok", "node": "node-7"}
        assert answer.headers["cache-control"] == "no-store"
        assert client.head("/api/health").content == b""
        assert client.post("/api/health").status_code == 405
        assert client.get("/api/catalog").status_code == 200  # the others pass on


# ---- HAProxy's routing ------------------------------------------------------------------
class QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """HAProxy resets its health checks' connections once it has read the status."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Upstreams:
    """Stand-ins for server processes: each answers every request with its name (and
    the X-Forwarded-For it was given), ``/api/health`` as a server does."""

    def __init__(self, names: list[str]) -> None:
        self.servers = {name: self._server(name) for name in names}
        for server in self.servers.values():
            threading.Thread(target=server.serve_forever, daemon=True).start()

    @staticmethod
    def _server(name: str) -> ThreadingHTTPServer:
        class Answer(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                forwarded = self.headers.get("X-Forwarded-For", "")
                body = json.dumps({"status": "ok", "node": name, "forwarded": forwarded})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return QuietServer(("127.0.0.1", 0), Answer)

    def upstreams(self) -> list[Upstream]:
        return [
            Upstream(name, f"127.0.0.1:{server.server_address[1]}")
            for name, server in self.servers.items()
        ]

    def stop(self, name: str) -> None:
        """Connections to it are refused from now on."""
        server = self.servers.pop(name)
        server.shutdown()
        server.server_close()

    def stop_all(self) -> None:
        for name in list(self.servers):
            self.stop(name)


@contextmanager
def haproxy_in_front_of(upstreams: list[Upstream], folder: Path) -> Iterator[str]:
    """HAProxy with the cluster's configuration; its base address."""
    port = free_port()
    config = folder / "haproxy.cfg"
    config.write_text(proxy_config(f"127.0.0.1:{port}", upstreams, system=False))
    with (folder / "haproxy.log").open("ab") as log:
        process = start_server_process(haproxy_command(config), log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: answer_of(base, "/api/health") is not None, "HAProxy to answer")
        yield base
    finally:
        stop_server_process(process)


def answer_of(base: str, path: str) -> dict[str, Any] | None:
    try:
        answer = httpx2.get(base + path, headers={"X-Forwarded-For": "203.0.113.9"}, timeout=STUCK)
    except httpx2.TransportError:
        return None
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def node_of(base: str, path: str) -> str:
    answer = answer_of(base, path)
    assert answer is not None, f"no answer to {path}"
    assert answer["forwarded"] == "127.0.0.1"  # set by the proxy, not the client's
    return str(answer["node"])


def test_a_games_requests_go_to_one_process_and_move_only_when_it_goes(tmp_path: Path) -> None:
    need_haproxy()
    names = ["node-1", "node-2", "node-3"]
    upstreams = Upstreams(names)
    try:
        with haproxy_in_front_of(upstreams.upstreams(), tmp_path) as base:
            games = [f"G{number:03d}xK2" for number in range(30)]
            owners = {game: node_of(base, f"/api/games/{game}") for game in games}
            assert len(set(owners.values())) >= 2  # the games are spread
            for game in games[:10]:  # every request of a game, its WebSocket's included
                for below in ("", "/", "/ws", "/replay", "/chat?before=3"):
                    assert node_of(base, f"/api/games/{game}{below}") == owners[game]
            # Everything else round robin: the lobby reaches every process.
            assert {node_of(base, "/api/games?status=open") for _ in names} == set(names)
            gone = owners[games[0]]
            upstreams.stop(gone)
            # At once (not after a health check): its games go to the others, which keep
            # their own; not one request fails.
            after = {game: node_of(base, f"/api/games/{game}") for game in games}
            for game, owner in owners.items():
                assert after[game] != gone
                assert owner == gone or after[game] == owner
            assert gone not in {node_of(base, "/api/catalog") for _ in names}
    finally:
        upstreams.stop_all()


# ---- machiavel cluster -------------------------------------------------------------------
class Duel:
    """The test's seat (player 0) in a Tyrus duel against an easy bot, through the proxy."""

    def __init__(self, client: httpx2.Client) -> None:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
        answer = client.post("/api/games", json={"game": "tyrus", "seed": 4, "seats": seats})
        assert answer.status_code == 201, answer.text
        self.game_id: str = answer.json()["id"]
        self.token: str = answer.json()["seats"][0]["token"]
        self.client = client

    def state(self) -> dict[str, Any]:
        answer = self.client.get(f"/api/games/{self.game_id}", params={"token": self.token})
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def play_to_the_end(self) -> dict[str, Any]:
        rng = Rng(5)
        while True:

            def my_turn() -> dict[str, Any] | None:
                state = self.state()
                return state if 0 in state["to_move"] or state["is_over"] else None

            state = wait_until(my_turn, "my turn (the bot moves meanwhile)")
            if state["is_over"]:
                return state
            body = {
                "token": self.token,
                "action": rng.choice(state["legal_actions"]),
                "version": state["version"],
            }
            answer = self.client.post(f"/api/games/{self.game_id}/actions", json=body)
            assert answer.status_code == 200, answer.text


def nodes_answering(base: str) -> set[str]:
    """The processes behind ``base`` over a few lobby requests (round robin): by their
    X-Machiavel-Node header where the server sends it, else over as many requests for
    /api/health (round robin too)."""
    with httpx2.Client(base_url=base, timeout=STUCK) as client:
        lobbies = [client.get("/api/games") for _ in range(4)]
        assert all(lobby.status_code == 200 for lobby in lobbies)
        if all(NODE_HEADER in lobby.headers for lobby in lobbies):
            return {lobby.headers[NODE_HEADER] for lobby in lobbies}
        return {client.get("/api/health").json()["node"] for _ in lobbies}


@needs_proc
def test_machiavel_cluster_serves_through_its_proxy_and_stops_whole(
    tmp_path: Path, postgres_url: str, redis_prefix: str
) -> None:
    need_haproxy()
    with machiavel_cluster(tmp_path, postgres_url, redis_prefix) as cluster:
        base = cluster.base
        assert f"open {base}/" in cluster.text()
        assert nodes_answering(base) == {"node-1", "node-2"}

        with httpx2.Client(base_url=base, timeout=STUCK) as client:
            duel = Duel(client)
            socket = base.replace("http", "ws") + f"/api/games/{duel.game_id}/ws"
            with websocket_connect(socket, open_timeout=STUCK) as spectator:
                assert json.loads(spectator.recv(STUCK))["id"] == duel.game_id
            assert duel.play_to_the_end()["is_over"]

            # A server killed outright: the proxy sends everything to the other at once.
            os.kill(cluster.nodes["node-2"][0], signal.SIGKILL)
            wait_until(lambda: "node-2 stopped" in cluster.text(), "the death reported")
            lobbies = [client.get("/api/games") for _ in range(4)]
            assert all(lobby.status_code == 200 for lobby in lobbies), [
                (lobby.status_code, lobby.text) for lobby in lobbies
            ]
            assert client.get(f"/api/games/{duel.game_id}").status_code == 200
            assert nodes_answering(base) == {"node-1"}
    assert cluster.text().rstrip().endswith("machiavel: stopped")  # after Ctrl+C, exit 0


# ---- the cluster's children ----------------------------------------------------------
SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)"]


def test_without_its_proxy_the_cluster_stops_every_process(tmp_path: Path) -> None:
    plan = ClusterPlan(2, 8000, "postgresql://db/m", "redis://r", folder=tmp_path)
    said: list[str] = []
    cluster = Cluster(plan, said.append)
    cluster.children = [
        start_child(name, kind, SLEEPER, tmp_path)
        for name, kind in (("node-1", "server"), ("node-2", "server"), ("proxy", "proxy"))
    ]
    try:
        cluster.children[1].process.kill()  # a server dies: the others go on...
        cluster.children[2].process.kill()  # ...not without the proxy
        assert cluster.supervise() == 1
        assert said[-1] == "the proxy is gone: the cluster stops"
        assert any(line.startswith("node-2 stopped (code -9") for line in said)
    finally:
        cluster.stop()
    assert all(child.process.poll() is not None for child in cluster.children)


@needs_proc
def test_the_children_end_with_a_cluster_killed_outright(tmp_path: Path) -> None:
    """SIGKILL gives the cluster no chance to stop anything: the kernel tells each child
    (PR_SET_PDEATHSIG), which then stops by itself."""
    parent_code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from machiavel.server.devcluster import start_child\n"
        f"child = start_child('node-1', 'server', {SLEEPER!r}, Path({str(tmp_path)!r}))\n"
        "print(child.process.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", parent_code], stdout=subprocess.PIPE)
    family: dict[int, Any] = {}
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        family = descendants(parent.pid)
        assert child in family
        parent.kill()
        parent.wait()
        wait_until(lambda: not running(family), "the child to end with its parent")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if parent.stdout is not None:
            parent.stdout.close()
        for pid in running(family):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
