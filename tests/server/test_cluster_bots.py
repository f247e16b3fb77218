"""Bot moves of a cluster through the Redis queue, computed by bot worker nodes
(``machiavel bots``, run here as subprocesses): a game plays to its end; a node killed
while it holds a job loses nothing; slow moves take turns across owners over two nodes
while quick ones never wait; garbage in Redis is survived. Each test has its own key
prefix on the Redis at 127.0.0.1:6379 and deletes its keys; each waits on conditions
(never on the clock) and kills every process it started.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient

import machiavel
from machiavel.cli import main as cli_main
from machiavel.server import create_app
from machiavel.server.accounts import COOKIE, TEST_COST
from machiavel.server.botnode import compute_job
from machiavel.server.botqueue import (
    ENQUEUE,
    FINISH,
    MAX_SKIPPED,
    REAP,
    TAKE,
    WAITING,
    Answer,
    Job,
    QueueKeys,
    RedisMoves,
)
from machiavel.server.cluster import ClusterSettings
from machiavel.server.quotas import TableLimits
from support.forkserver import held, held_forkserver_environment
from support.waiting import STUCK, wait_until

REDIS_URL = os.environ.get("MACHIAVEL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
SITE = "http://testserver"
SOURCE = str(Path(machiavel.__file__).resolve().parents[1])  # src/, for the subprocesses
FIRST_MOVER_SEED = 1  # Tyrus with this seed: player 1 moves first
QUICK_BOTS = {"hard": {"seconds": None, "iterations": 30}}  # hard, in the slow lane, quick
ENDLESS_HARD = {"hard": {"seconds": 3600.0}}  # a search that holds its worker all the test


@pytest.fixture
def redis_client() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.exceptions.ConnectionError as error:
        client.close()
        if os.environ.get("CI"):
            pytest.fail(f"Redis is required under CI and cannot be reached: {error}")
        pytest.skip(f"Redis cannot be reached: {error}")
    yield client
    client.close()


@pytest.fixture
def keys(redis_client: redis.Redis) -> Iterator[QueueKeys]:
    """A key prefix of this test's own; its keys are deleted afterwards."""
    prefix = f"test-{secrets.token_hex(6)}"
    yield QueueKeys(prefix)
    for key in redis_client.scan_iter(match=f"{prefix}:*"):
        redis_client.delete(key)


class Nodes:
    """The bot worker nodes a test starts: each killed, with its workers, at the end."""

    def __init__(self, keys: QueueKeys, logs: Path) -> None:
        self.keys = keys
        self.logs = logs
        self.started: list[subprocess.Popen[bytes]] = []
        self.family: set[int] = set()  # every process seen under a node

    def start(
        self, database: str, workers: int = 2, hold_forkserver: Path | None = None
    ) -> subprocess.Popen[bytes]:
        """A node; with ``hold_forkserver``, its forkserver waits at start until that
        file exists (``support/held_forkserver``), so its workers do not come up."""
        out = (self.logs / f"node-{len(self.started)}.txt").open("wb")
        command = [
            sys.executable,
            "-m",
            "machiavel.cli",
            "bots",
            "--redis-url",
            REDIS_URL,
            "--database",
            database,
            "--workers",
            str(workers),
            "--prefix",
            self.keys.prefix,
        ]
        path = os.pathsep.join(filter(None, [SOURCE, os.environ.get("PYTHONPATH")]))
        environment = {**os.environ, "PYTHONPATH": path}
        if hold_forkserver is not None:
            environment.update(held_forkserver_environment(hold_forkserver, path))
        node = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=environment)
        out.close()
        self.started.append(node)
        return node

    def name(self, node: subprocess.Popen[bytes]) -> str:
        return f"{socket.gethostname()}-{node.pid}"

    def output(self, node: subprocess.Popen[bytes]) -> str:
        return (self.logs / f"node-{self.started.index(node)}.txt").read_text()

    def note_family(self, node: subprocess.Popen[bytes]) -> set[int]:
        found = descendants(node.pid)
        self.family |= found
        return found

    def kill_all(self) -> None:
        for node in self.started:
            self.note_family(node)
            if node.poll() is None:
                node.kill()
            node.wait()
        wait_until(lambda: not any(alive(pid) for pid in self.family), "no worker left behind")


@pytest.fixture
def nodes(keys: QueueKeys, tmp_path: Path) -> Iterator[Nodes]:
    started = Nodes(keys, tmp_path)
    try:
        yield started
    finally:
        started.kill_all()


def descendants(pid: int) -> set[int]:
    """The processes under ``pid`` (children, theirs...), from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def serving(nodes: Nodes, node: subprocess.Popen[bytes], redis_client: redis.Redis) -> bool:
    """Whether the node serves: it said so, and its heartbeat is in Redis (it fails the
    test if the node ended)."""
    assert node.poll() is None, f"the node ended: {nodes.output(node)}"
    said = "serving the bot queue" in nodes.output(node)
    return said and bool(redis_client.exists(nodes.keys.alive(nodes.name(node))))


@pytest.fixture
def cluster_client(
    keys: QueueKeys, sqlite_url: str
) -> Callable[..., AbstractContextManager[TestClient]]:
    @contextmanager
    def open_client(database: str = sqlite_url, **options: Any) -> Iterator[TestClient]:
        cluster = ClusterSettings(
            REDIS_URL, "http://127.0.0.1:9", node=f"server-{keys.prefix}", prefix=keys.prefix
        )
        app = create_app(
            database,
            cluster=cluster,
            table_limits=TableLimits.off(),
            password_cost=TEST_COST,
            **options,
        )
        with TestClient(app) as client:
            yield client

    return open_client


def create(
    client: TestClient,
    seats: list[dict[str, Any]],
    headers: dict[str, str] | None = None,
    **body: Any,
) -> str:
    body = {"game": "tyrus", "seats": seats, **body}
    answer = client.post("/api/games", json=body, headers=headers)
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    return game_id


def against(level: str) -> list[dict[str, Any]]:
    """A person and a bot that moves first (with ``FIRST_MOVER_SEED``)."""
    return [{"kind": "human"}, {"kind": "bot", "level": level}]


def state(client: TestClient, game_id: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    return found


def taken_games(redis_client: redis.Redis, keys: QueueKeys, level: str) -> list[str]:
    """The games whose ``level`` moves the nodes hold now."""
    games = []
    for key in redis_client.scan_iter(match=keys.key("taken:*")):
        for job_id in redis_client.smembers(key):
            raw = redis_client.hget(keys.key("jobs"), job_id)
            if raw is not None:
                job = Job.read(bytes(raw))  # type: ignore[arg-type]
                if job.level == level:
                    games.append(job.game_id)
    return games


def waiting(redis_client: redis.Redis, keys: QueueKeys) -> int:
    return int(redis_client.eval(WAITING, 1, keys.base))


def queued(redis_client: redis.Redis, keys: QueueKeys, count: int) -> Callable[[], bool]:
    """A condition: ``count`` moves wait in the queue."""
    return lambda: waiting(redis_client, keys) == count


def test_a_bot_game_plays_to_its_end_through_the_queue(
    cluster_client: Callable[..., AbstractContextManager[TestClient]],
    nodes: Nodes,
    redis_client: redis.Redis,
    any_database_url: str,
) -> None:
    """On SQLite and on PostgreSQL."""
    node = nodes.start(any_database_url)
    wait_until(lambda: serving(nodes, node, redis_client), "the node to serve")
    with cluster_client(any_database_url, bot_params=QUICK_BOTS) as client:
        seats = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "hard"}]
        game_id = create(client, seats)
        end = wait_until(lambda: (s := state(client, game_id))["is_over"] and s, "the game's end")
        assert end["winners"] and end["version"] > 2
    workers = nodes.note_family(node)
    assert workers  # the moves were computed in the node's worker processes
    node.send_signal(signal.SIGTERM)
    assert node.wait(timeout=60) == 0
    wait_until(lambda: not any(alive(pid) for pid in workers), "the node's workers to end")
    assert not redis_client.exists(nodes.keys.alive(nodes.name(node)))


def test_a_node_stopped_while_its_workers_start_ends_at_once(
    nodes: Nodes, redis_client: redis.Redis, sqlite_url: str, tmp_path: Path
) -> None:
    """SIGTERM while the worker pool starts (its forkserver held, as one importing the
    engines on a full machine): the node ends without waiting for the pool, and the
    forkserver ends once it is let go."""
    release = tmp_path / "release-forkserver"
    node = nodes.start(sqlite_url, hold_forkserver=release)
    wait_until(held(release).exists, "the node's forkserver to start")
    forkservers = nodes.note_family(node)
    assert redis_client.exists(nodes.keys.alive(nodes.name(node)))  # it beats already
    node.send_signal(signal.SIGTERM)
    try:
        assert node.wait(timeout=STUCK) == 0, nodes.output(node)
    finally:
        release.touch()
    assert "serving the bot queue" not in nodes.output(node)
    assert not redis_client.exists(nodes.keys.alive(nodes.name(node)))
    wait_until(lambda: not any(alive(pid) for pid in forkservers), "the forkserver to end")


def test_the_job_of_a_killed_node_is_answered_by_another(
    cluster_client: Callable[..., AbstractContextManager[TestClient]],
    nodes: Nodes,
    redis_client: redis.Redis,
    sqlite_url: str,
) -> None:
    """The first node's database never answers (a socket that listens and says nothing):
    it takes the job and holds it, on any machine, until it is killed."""
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        stuck = nodes.start(f"postgresql://nobody@127.0.0.1:{port}/nothing")
        wait_until(lambda: serving(nodes, stuck, redis_client), "the first node to serve")
        with cluster_client(bot_params=QUICK_BOTS) as client:
            game_id = create(client, against("hard"), seed=FIRST_MOVER_SEED)
            held = wait_until(
                lambda: taken_games(redis_client, nodes.keys, "hard") or None,
                "the first node's take",
            )
            assert held == [game_id] and state(client, game_id)["version"] == 0
            nodes.note_family(stuck)
            stuck.kill()
            stuck.wait()
            second = nodes.start(sqlite_url)
            moved = wait_until(
                lambda: (s := state(client, game_id))["version"] >= 1 and s, "another's answer"
            )
            assert moved["to_move"] == [0] and second.poll() is None


def test_slow_moves_take_turns_across_owners_over_two_nodes(
    cluster_client: Callable[..., AbstractContextManager[TestClient]],
    nodes: Nodes,
    redis_client: redis.Redis,
    sqlite_url: str,
) -> None:
    """Four tables of one client and then one of a friend wait for a hard move each
    (searches that last all the test), and a quick move after them all. Two nodes of two
    workers have a slow place each: the flood's first move and the friend's take them
    (not the flood's first two), and the quick move is answered beside the searches."""
    with cluster_client(bot_params=ENDLESS_HARD) as client:
        flood = []
        for _ in range(4):
            flood.append(create(client, against("hard"), seed=FIRST_MOVER_SEED))
            wait_until(queued(redis_client, nodes.keys, len(flood)), "the flood's move queued")
        friend = signed_in(client)
        friends = create(client, against("hard"), friend, seed=FIRST_MOVER_SEED)
        wait_until(queued(redis_client, nodes.keys, 5), "the friend's move queued")
        quick = create(client, against("easy"), seed=FIRST_MOVER_SEED)
        for _ in range(2):
            nodes.start(sqlite_url)
        searching = wait_until(
            lambda: (
                found if len(found := taken_games(redis_client, nodes.keys, "hard")) == 2 else None
            ),
            "both nodes to search",
        )
        assert sorted(searching) == sorted([flood[0], friends])
        wait_until(lambda: state(client, quick)["version"] >= 1, "the quick move beside them")
        assert waiting(redis_client, nodes.keys) == 3  # the flood's other moves
        assert all(state(client, game)["version"] == 0 for game in [*flood, friends])


def signed_in(client: TestClient) -> dict[str, str]:
    """The headers of a new account's session (a table owner other than the address)."""
    body = {"name": "friend", "password": "a long enough password"}
    answer = client.post("/api/accounts", json=body, headers={"origin": SITE})
    assert answer.status_code == 201, answer.text
    session = answer.cookies[COOKIE]
    client.cookies.clear()
    return {"cookie": f"{COOKIE}={session}", "origin": SITE}


def test_garbage_in_redis_is_survived(
    cluster_client: Callable[..., AbstractContextManager[TestClient]],
    nodes: Nodes,
    redis_client: redis.Redis,
    keys: QueueKeys,
    sqlite_url: str,
) -> None:
    jobs = keys.key("jobs")
    redis_client.hset(jobs, "bytes", b"\xff\xfe\x00garbage")
    redis_client.hset(jobs, "json", b'{"id": "json", "level": 7}')
    redis_client.hset(jobs, "list", b"[1, 2, 3]")
    redis_client.rpush(keys.key("quick"), "bytes", "json", "list", "no such job", b"\xff")
    redis_client.rpush(keys.key("owners"), b"\xff nobody")
    with cluster_client(bot_params=QUICK_BOTS) as client:
        answers = keys.answers(f"server-{keys.prefix}")
        redis_client.rpush(answers, b"\xff\xfe", b'{"id": 1}', b'"text"', b'{"id":"x","action":1}')
        game_id = create(client, against("hard"), seed=FIRST_MOVER_SEED)
        wait_until(lambda: redis_client.hlen(jobs) == 4, "the move queued")
        (job_id,) = set(redis_client.hkeys(jobs)) - {b"bytes", b"json", b"list"}
        node = nodes.start(sqlite_url)
        moved = wait_until(
            lambda: (s := state(client, game_id))["version"] >= 1 and s, "a bot move"
        )
        assert redis_client.llen(answers) == 0  # read, and dropped
        wait_until(lambda: redis_client.hlen(jobs) == 0, "the garbage jobs dropped")
        assert node.poll() is None
        output = nodes.output(node)
        assert output.count("a job on the bot queue was dropped") == 3
        # A second answer to the same job (were a node to answer twice) is ignored.
        job_name = job_id.decode() if isinstance(job_id, bytes) else job_id
        again = Answer(job_name, "pass", 0.0)
        redis_client.rpush(answers, again.to_text())
        wait_until(lambda: redis_client.llen(answers) == 0, "the second answer read")
        assert state(client, game_id)["version"] == moved["version"]


def test_a_job_given_back_is_answered_once(redis_client: redis.Redis, keys: QueueKeys) -> None:
    """The queue's scripts alone: node a takes a job, its heartbeat runs out, node b takes
    the job again; a's late answer is dropped, b's reaches the server once."""
    job = Job("job-1", "game", 0, 1, "hard", 7, {}, "owner", "server", 0.0)
    redis_client.eval(ENQUEUE, 1, keys.base, job.id, job.to_text(), job.lane)
    for node in ("a", "b"):
        redis_client.set(keys.alive(node), b"1")
        redis_client.sadd(keys.key("nodes"), node)
    taken = redis_client.eval(TAKE, 1, keys.base, "a", "1", MAX_SKIPPED)
    assert taken == [b"job-1", job.to_text().encode()]
    assert redis_client.eval(TAKE, 1, keys.base, "b", "1", MAX_SKIPPED) is None  # none left
    redis_client.delete(keys.alive("a"))  # a stops beating
    assert redis_client.eval(REAP, 1, keys.base) == 1
    assert redis_client.eval(TAKE, 1, keys.base, "b", "1", MAX_SKIPPED) == taken
    answers = keys.answers("server")
    late = Answer("job-1", "late", 0.0).to_text()
    assert redis_client.eval(FINISH, 1, keys.base, "a", "job-1", answers, late, 60) == 0
    good = Answer("job-1", "good", 0.0).to_text()
    assert redis_client.eval(FINISH, 1, keys.base, "b", "job-1", answers, good, 60) == 1
    assert redis_client.lrange(answers, 0, -1) == [good.encode()]
    assert redis_client.hlen(keys.key("jobs")) == 0 and waiting(redis_client, keys) == 0


def test_a_worker_answers_only_the_moves_still_wanted(client: TestClient, sqlite_url: str) -> None:
    """``compute_job``, in this process: a move of the stored version is computed from the
    database; one whose game moved on (its seat no longer to move), or of a version or a
    game that is not stored, is answered None."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = client.post("/api/games", json={"game": "tyrus", "seats": seats})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    (mover,) = state(client, game_id)["to_move"]
    token = created.json()["seats"][mover]["token"]

    def job(version: int, player: int, game: str = game_id) -> Job:
        return Job("j", game, version, player, "easy", 3, {}, "owner", "server", 0.0)

    action = compute_job(sqlite_url, job(0, mover))
    legal = client.get(f"/api/games/{game_id}", params={"token": token}).json()["legal_actions"]
    assert action in legal
    body = {"token": token, "action": action, "version": 0}
    assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 200
    (after,) = state(client, game_id)["to_move"]
    assert after != mover  # Tyrus: the players alternate (T4)
    assert compute_job(sqlite_url, job(0, mover)) is None  # its seat moved since
    assert compute_job(sqlite_url, job(1, mover)) is None  # not its turn then
    assert compute_job(sqlite_url, job(1, after)) is not None
    assert compute_job(sqlite_url, job(2, after)) is None  # no such version stored
    assert compute_job(sqlite_url, job(0, mover, "nosuchgame")) is None


def test_a_node_says_what_it_lacks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], sqlite_url: str
) -> None:
    monkeypatch.delenv("MACHIAVEL_REDIS_URL", raising=False)
    monkeypatch.delenv("MACHIAVEL_DATABASE_URL", raising=False)
    assert cli_main(["bots", "--database", sqlite_url]) == 2
    assert "needs the cluster's Redis and database" in capsys.readouterr().err
    closed = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    # The node's event loop handles SIGINT and SIGTERM, and on closing sets them to
    # Python's defaults: the test worker's own handling is put back for the next tests.
    handling = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        assert cli_main(["bots", "--redis-url", closed, "--database", sqlite_url]) == 2
    finally:
        for signum, handler in handling.items():
            signal.signal(signum, handler)
    assert "the bot queue cannot be reached" in capsys.readouterr().err


def test_a_job_redis_lost_is_queued_again(
    cluster_client: Callable[..., AbstractContextManager[TestClient]],
    redis_client: redis.Redis,
    keys: QueueKeys,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Redis restarted without saving: the server queues its unanswered move again."""
    monkeypatch.setattr(RedisMoves, "WATCH_SECONDS", 0.05)
    with cluster_client(bot_params=QUICK_BOTS) as client:
        game_id = create(client, against("hard"), seed=FIRST_MOVER_SEED)
        wait_until(queued(redis_client, keys, 1), "the move queued")
        (job_id,) = redis_client.hkeys(keys.key("jobs"))
        for key in redis_client.scan_iter(match=f"{keys.prefix}:*"):
            redis_client.delete(key)  # what a Redis that restarted has left
        wait_until(queued(redis_client, keys, 1), "the move queued again")
        assert redis_client.hkeys(keys.key("jobs")) == [job_id]
        assert state(client, game_id)["version"] == 0
