"""GET /metrics, what the server counts, and X-Machiavel-Node on every answer.

The registry is the process's (every app of the test run counts in it): each test reads
values before and after what it does, never absolute ones.
"""

from __future__ import annotations

import argparse
import os
import secrets
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis
from fastapi.testclient import TestClient
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect as websocket_connect

from machiavel.cli import build_parser, main
from machiavel.server import create_app
from machiavel.server.cluster import ClusterSettings, process_name
from machiavel.server.launch import (
    free_port,
    serve_command,
    start_server_process,
    stop_server_process,
)
from machiavel.server.metrics import ActionCounts
from machiavel.server.nginx import NGINX, start_nginx, wait_listening
from machiavel.server.quotas import TableLimits
from machiavel.serving import MetricsReaders, SettingError, metrics_from
from support.waiting import STUCK, wait_until

LOOPBACK = ("127.0.0.1", 50000)  # where a Prometheus on the same machine scrapes from
Labels = dict[str, str]


@contextmanager
def served(
    url: str, executor: Any, client: tuple[str, int] = LOOPBACK, **options: Any
) -> Iterator[TestClient]:
    options.setdefault("table_limits", TableLimits.off())
    app = create_app(url, bot_executor=executor, **options)
    with TestClient(app, client=client) as opened:
        yield opened


@pytest.fixture
def client(sqlite_url: str, bot_pool: ProcessPoolExecutor) -> Iterator[TestClient]:
    with served(sqlite_url, bot_pool) as opened:
        yield opened


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics by name and labels."""
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(client: TestClient, name: str, labels: Labels | None = None) -> float:
    """One sample's value; 0 for a labelled one not counted yet."""
    return scrape(client).get((name, tuple(sorted((labels or {}).items()))), 0.0)


def actions(client: TestClient, game: str = "tyrus") -> float:
    return value(client, "machiavel_actions_total", {"game": game})


def pushes(client: TestClient) -> float:
    return value(client, "machiavel_action_push_seconds_count")


def two_humans(client: TestClient) -> tuple[str, list[str]]:
    seats = [{"kind": "human"}, {"kind": "human"}]
    answer = client.post("/api/games", json={"game": "tyrus", "seats": seats})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], [seat["token"] for seat in created["seats"]]


def state(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    answer = client.get(f"/api/games/{game_id}", params=params)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def mover(client: TestClient, game_id: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    """The token of a seat to move, and the game as that seat sees it."""
    player = state(client, game_id)["to_move"][0]
    return tokens[player], state(client, game_id, tokens[player])


def play_over_http(client: TestClient, game_id: str, tokens: list[str], count: int) -> None:
    for _ in range(count):
        token, seen = mover(client, game_id, tokens)
        body = {"token": token, "action": seen["legal_actions"][0], "version": seen["version"]}
        answer = client.post(f"/api/games/{game_id}/actions", json=body)
        assert answer.status_code == 200, answer.text


# ---- /metrics and who reads it -------------------------------------------------------
def test_metrics_are_prometheus_text_listing_every_metric(client: TestClient) -> None:
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    names = {family.name for family in text_string_to_metric_families(answer.text)}
    assert {
        "machiavel_actions",
        "machiavel_action_push_seconds",
        "machiavel_open_sockets",
        "machiavel_games_in_memory",
        "machiavel_bot_queue_length",
        "machiavel_bot_queue_wait_seconds",
        "machiavel_lease_takeovers",
    } <= names
    assert "/metrics" not in client.get("/openapi.json").json()["paths"]


def test_metrics_are_refused_to_clients_off_the_list(
    sqlite_url: str, bot_pool: ProcessPoolExecutor
) -> None:
    with served(sqlite_url, bot_pool, client=("203.0.113.9", 40000)) as outsider:
        refused = outsider.get("/metrics")
        assert refused.status_code == 403
        assert "--metrics-from" in refused.json()["detail"]
        assert "machiavel_" not in refused.text
    scraper = ("10.1.2.3", 40000)
    with served(sqlite_url, bot_pool, client=scraper, metrics_from="10.0.0.0/8") as allowed:
        assert allowed.get("/metrics").status_code == 200
    with served(sqlite_url, bot_pool, metrics_from="none") as nobody:
        assert nobody.get("/metrics").status_code == 403


def test_the_list_of_metrics_readers() -> None:
    loopback = MetricsReaders.parse("127.0.0.1,::1")
    assert loopback.allows("127.0.0.1") and loopback.allows("::1")
    assert not loopback.allows("192.0.2.1") and not loopback.allows("testclient")
    assert not loopback.allows(None)
    assert MetricsReaders.parse("*").allows("192.0.2.1")
    assert not MetricsReaders.parse("none").allows("127.0.0.1")
    with pytest.raises(SettingError, match="'prometheus' is not an IP address"):
        MetricsReaders.parse("10.0.0.0/8, prometheus")
    given = argparse.Namespace(metrics_from=None)
    assert metrics_from(given, {}) == "127.0.0.1,::1"
    assert metrics_from(given, {"MACHIAVEL_METRICS_FROM": "10.0.0.7"}) == "10.0.0.7"
    assert metrics_from(argparse.Namespace(metrics_from="*"), {}) == "*"
    with pytest.raises(SettingError):
        metrics_from(argparse.Namespace(metrics_from="10.0.0.300"), {})


def test_serve_takes_the_list_and_refuses_a_bad_one_before_starting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    arguments = build_parser().parse_args(["serve", "--metrics-from", "10.0.0.0/8,::1"])
    assert metrics_from(arguments, {}) == "10.0.0.0/8,::1"
    assert main(["serve", "--metrics-from", "prometheus.lan"]) == 2
    assert "metrics-from: 'prometheus.lan' is not an IP address" in capsys.readouterr().err


# ---- actions and their pushes --------------------------------------------------------
def test_each_action_stored_counts_once_and_its_push_is_timed(client: TestClient) -> None:
    game_id, tokens = two_humans(client)
    counted, timed = actions(client), pushes(client)
    play_over_http(client, game_id, tokens, 3)
    assert actions(client) == counted + 3
    assert pushes(client) == timed + 3
    token, seen = mover(client, game_id, tokens)
    stale = {"token": token, "action": seen["legal_actions"][0], "version": seen["version"] - 1}
    assert client.post(f"/api/games/{game_id}/actions", json=stale).status_code == 409
    assert actions(client) == counted + 3  # refused: not stored, not counted


def test_actions_sent_on_a_socket_count_and_are_timed_too(client: TestClient) -> None:
    game_id, tokens = two_humans(client)
    counted, timed = actions(client), pushes(client)
    for _ in range(2):
        token, seen = mover(client, game_id, tokens)
        with client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
            assert socket.receive_json()["version"] == seen["version"]
            socket.send_json({"action": seen["legal_actions"][0], "version": seen["version"]})
            assert socket.receive_json()["version"] == seen["version"] + 1  # pushed
    assert actions(client) == counted + 2
    assert pushes(client) == timed + 2


def test_a_push_latency_counts_in_the_buckets_at_and_above_it() -> None:
    """The action counts kept without a lock come out as Prometheus's own histogram: a
    latency counts in every bucket whose bound is at least it (a bound included), and in
    the sum and the count."""
    counts = ActionCounts()
    for seconds in (0.0005, 0.003, 0.003, 7.0):
        counts.time_push(seconds)
    counts.count_action("tyrus")
    counts.count_action("tyrus")
    registry = CollectorRegistry()
    registry.register(counts)
    text = generate_latest(registry).decode()
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    bucket = "machiavel_action_push_seconds_bucket"
    assert samples[(bucket, (("le", "0.0005"),))] == 1  # its bound: in
    assert samples[(bucket, (("le", "0.002"),))] == 1
    assert samples[(bucket, (("le", "0.005"),))] == 3
    assert samples[(bucket, (("le", "2.0"),))] == 3
    assert samples[(bucket, (("le", "+Inf"),))] == 4  # beyond the last bound
    assert samples[("machiavel_action_push_seconds_count", ())] == 4
    assert samples[("machiavel_action_push_seconds_sum", ())] == pytest.approx(7.0065)
    assert samples[("machiavel_actions_total", (("game", "tyrus"),))] == 2


# ---- sockets and games in memory ------------------------------------------------------
def test_open_sockets_follow_a_socket_from_accept_to_close(client: TestClient) -> None:
    game_id, _ = two_humans(client)
    before = value(client, "machiavel_open_sockets")
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.receive_json()
        assert value(client, "machiavel_open_sockets") == before + 1
    wait_until(lambda: value(client, "machiavel_open_sockets") == before, "the socket's end")
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/api/games/nosuchgame/ws") as refused,
    ):
        refused.receive_text()  # accepted, then closed with why: counted, then not
    wait_until(lambda: value(client, "machiavel_open_sockets") == before, "the refused one's end")


def test_games_in_memory_follow_loads_evictions_and_drops(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    service.max_cached = 2
    first, _ = two_humans(client)
    second, _ = two_humans(client)
    assert value(client, "machiavel_games_in_memory") == len(service._cache) == 2
    third, _ = two_humans(client)  # the least recently used one goes
    assert first not in service._cache
    assert value(client, "machiavel_games_in_memory") == 2
    state(client, first)  # loaded again; the second one goes
    assert first in service._cache and second not in service._cache
    assert value(client, "machiavel_games_in_memory") == 2
    portal = client.portal
    assert portal is not None
    portal.call(service._drop, service._cache[third])  # as after a failed write
    assert value(client, "machiavel_games_in_memory") == 1


# ---- bots ----------------------------------------------------------------------------
def test_bot_moves_wait_in_a_counted_queue_and_are_timed(sqlite_url: str, bot_gate: Any) -> None:
    """Two workers; the gate holds the moves handed to them, so a third table's move waits
    for a free one: the queue shows it until the gate opens."""
    gate = bot_gate()
    seats = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    with served(sqlite_url, gate, bot_workers=2) as client:
        try:
            length = value(client, "machiavel_bot_queue_length")
            waits = value(client, "machiavel_bot_queue_wait_seconds_count")
            counted, timed = actions(client), pushes(client)
            ids = []
            for _ in range(3):
                answer = client.post("/api/games", json={"game": "tyrus", "seats": seats})
                ids.append(answer.json()["id"])
            wait_until(
                lambda: value(client, "machiavel_bot_queue_length") >= length + 1,
                "a move waiting for a worker",
            )
            assert value(client, "machiavel_bot_queue_wait_seconds_count") >= waits + 2
            gate.release()
            wait_until(lambda: all(state(client, i)["is_over"] for i in ids), "the games' end")
            moves = sum(state(client, i)["version"] for i in ids)
            assert value(client, "machiavel_bot_queue_length") == length
            assert value(client, "machiavel_bot_queue_wait_seconds_count") >= waits + moves
            assert actions(client) == counted + moves  # bots' actions count as people's
            assert pushes(client) == timed + moves
        finally:
            gate.release()


# ---- X-Machiavel-Node ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/catalog", 200),  # an API answer
        ("/api/games/nosuchgame", 404),  # an error of the API
        ("/api/games?limit=x", 422),  # a refused query
        ("/", 200),  # the page
        ("/app.js", 200),  # a static file
        ("/no-such-file.js", 404),  # nothing there
    ],
)
def test_every_answer_names_the_process(client: TestClient, path: str, status: int) -> None:
    answer = client.get(path)
    assert answer.status_code == status
    assert answer.headers["x-machiavel-node"] == process_name()


def test_middleware_answers_and_the_socket_handshake_name_it_too(client: TestClient) -> None:
    too_big = client.post(
        "/api/games", content=b"x" * (65 * 1024), headers={"content-type": "application/json"}
    )
    assert too_big.status_code == 413
    assert too_big.headers["x-machiavel-node"] == process_name()
    game_id, _ = two_humans(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        assert (b"x-machiavel-node", process_name().encode()) in (socket.extra_headers or [])


def test_a_cluster_process_answers_with_its_given_name(
    sqlite_url: str, bot_pool: ProcessPoolExecutor
) -> None:
    prefix = f"machiavel-test-{secrets.token_hex(6)}"  # its own keys, deleted after
    redis_url = "redis://127.0.0.1:6379/0"
    cluster = ClusterSettings(redis_url, "http://127.0.0.1:8001", "node-a", prefix=prefix)
    try:
        with served(sqlite_url, bot_pool, cluster=cluster) as client:
            assert client.get("/api/catalog").headers["x-machiavel-node"] == "node-a"
            assert client.get("/metrics").headers["x-machiavel-node"] == "node-a"
    finally:
        keys = redis.Redis.from_url(redis_url)
        for key in keys.scan_iter(match=f"{prefix}:*"):
            keys.delete(key)
        keys.close()


# ---- the real server, alone and behind nginx -------------------------------------------
def test_behind_nginx_metrics_are_refused_and_read_on_the_process_port(tmp_path: Path) -> None:
    """deploy/nginx.conf refuses /metrics; Prometheus reads the process's own port,
    and every answer (a WebSocket's handshake included) names the serving process."""
    if not Path(NGINX).exists():
        message = f"{NGINX} is missing: run scripts/ensure-nginx.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    port, proxy_port = free_port(), free_port()
    command = serve_command(f"sqlite:///{tmp_path / 'machiavel.db'}", port)
    with (tmp_path / "server.log").open("ab") as log:
        server = start_server_process(command, log)
    nginx = None
    try:
        wait_listening(port, server, STUCK)
        nginx = start_nginx(tmp_path / "nginx", proxy_port, port)
        wait_listening(proxy_port, nginx, STUCK)
        with httpx2.Client(timeout=STUCK) as http:
            direct = http.get(f"http://127.0.0.1:{port}/metrics")
            proxied = http.get(f"http://127.0.0.1:{proxy_port}/metrics")
            page = http.get(f"http://127.0.0.1:{proxy_port}/")
        node = f"{os.uname().nodename}-{server.pid}"  # the server's host and process id
        assert direct.status_code == 200 and direct.headers["x-machiavel-node"] == node
        assert "machiavel_open_sockets" in direct.text
        assert proxied.status_code == 404 and "machiavel_" not in proxied.text
        assert page.status_code == 200 and page.headers["x-machiavel-node"] == node
        created = httpx2.post(
            f"http://127.0.0.1:{proxy_port}/api/games",
            json={"game": "tyrus", "players": 2},
            timeout=STUCK,
        ).json()
        address = f"ws://127.0.0.1:{proxy_port}/api/games/{created['id']}/ws"
        with websocket_connect(address, open_timeout=STUCK) as socket:
            assert socket.response is not None
            assert socket.response.headers["x-machiavel-node"] == node
    finally:
        if nginx is not None:
            stop_server_process(nginx)
        stop_server_process(server)
