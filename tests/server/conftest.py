"""Fixtures of the server tests: a shared pool of bot workers, apps on fresh databases,
a gate that holds bot moves.

PostgreSQL tests create a database of their own (machiavel_test_<random>) and drop it;
they are skipped when no server answers on 127.0.0.1:5432, except under CI (CI set),
where that is a failure.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor, Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from machiavel.core.contract import Seat
from machiavel.server import create_app
from machiavel.server.quotas import TableLimits
from support.botpool import SharedBotPool
from support.cluster_run import REDIS_URL

POSTGRES_ADMIN_URL = os.environ.get(
    "MACHIAVEL_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
Client = Callable[..., AbstractContextManager[TestClient]]


@pytest.fixture(scope="session")
def shared_bot_pool() -> Iterator[SharedBotPool]:
    shared = SharedBotPool()
    yield shared
    shared.pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
def bot_pool(shared_bot_pool: SharedBotPool) -> ProcessPoolExecutor:
    """The shared bot workers, whole."""
    return shared_bot_pool.current()


class BotGate(Executor):
    """Bot moves go on to ``inner``, except those of ``game`` (of any game if None) after
    the first ``after`` of them: these are held, pending, until ``release()``. So a test
    knows that a bot is still thinking, and for as long as it likes, on any machine."""

    def __init__(self, inner: Executor, game: str | None = None, after: int = 0) -> None:
        self.inner = inner
        self.game = game
        self.after = after
        self.holding = threading.Event()  # set once a move is held
        self._lock = threading.Lock()
        self._held: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...], Any]] = []
        self._released = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        seat = next((arg for arg in args if isinstance(arg, Seat)), None)
        with self._lock:
            if seat is not None and not self._released and self.game in (None, seat.game):
                if self.after == 0:
                    held: Future[Any] = Future()
                    self._held.append((held, fn, args, kwargs))
                    self.holding.set()
                    return held
                self.after -= 1
        return self.inner.submit(fn, *args, **kwargs)

    def release(self) -> None:
        """Let the held moves go on, and every later one."""
        with self._lock:
            self._released = True
            held, self._held = self._held, []
        for waiting, fn, args, kwargs in held:
            if waiting.set_running_or_notify_cancel():  # not cancelled meanwhile
                self.inner.submit(fn, *args, **kwargs).add_done_callback(partial(pass_on, waiting))


def pass_on(waiting: Future[Any], done: Future[Any]) -> None:
    if done.cancelled():
        waiting.set_exception(CancelledError())
    elif (error := done.exception()) is not None:
        waiting.set_exception(error)
    else:
        waiting.set_result(done.result())


@pytest.fixture
def bot_gate(bot_pool: ProcessPoolExecutor) -> Callable[..., BotGate]:
    """``bot_gate(game=None, after=0)``: a ``BotGate`` in front of the shared workers."""

    def gate(game: str | None = None, after: int = 0) -> BotGate:
        return BotGate(bot_pool, game, after)

    return gate


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A Redis key prefix of this test's own, its keys deleted afterwards; skipped when no
    Redis answers at REDIS_URL, except under CI (CI set), where that is a failure."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:
        client.close()
        problem = f"Redis cannot be reached at {REDIS_URL}: {error}"
        pytest.fail(problem) if os.environ.get("CI") else pytest.skip(problem)
    prefix = f"machiavel-test-{secrets.token_hex(6)}"
    try:
        yield prefix
    finally:
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.delete(key)
        client.close()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'machiavel.db'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    admin = create_engine(
        POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
    )
    name = f"machiavel_test_{secrets.token_hex(6)}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as error:
        admin.dispose()
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required under CI and cannot be reached: {error}")
        pytest.skip(f"PostgreSQL cannot be reached: {error}")
    try:
        yield POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database_url(request: pytest.FixtureRequest) -> str:
    """Each storage test runs on SQLite and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture
def client_on(bot_pool: ProcessPoolExecutor) -> Client:
    """``with client_on(url) as client:`` an app on that database, its lifespan running."""

    @contextmanager
    def open_client(url: str, **options: Any) -> Iterator[TestClient]:
        options.setdefault("bot_executor", bot_pool)
        # Tests play whole games in a blink from one address: no limits unless a test of
        # the limits sets them.
        options.setdefault("table_limits", TableLimits.off())
        with TestClient(create_app(url, **options)) as client:
            yield client

    return open_client


@pytest.fixture
def client(client_on: Client, sqlite_url: str) -> Iterator[TestClient]:
    with client_on(sqlite_url) as opened:
        yield opened
