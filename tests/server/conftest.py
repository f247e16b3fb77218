"""Fixtures of the server tests: a shared pool of bot workers, apps on fresh databases.

PostgreSQL tests create a database of their own (machiavel_test_<random>) and drop it;
they are skipped when no server answers on 127.0.0.1:5432, except under CI (CI set),
where that is a failure.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from machiavel.server import create_app
from machiavel.server.bots import process_pool

POSTGRES_ADMIN_URL = os.environ.get(
    "MACHIAVEL_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
Client = Callable[..., AbstractContextManager[TestClient]]


@pytest.fixture(scope="session")
def bot_pool() -> Iterator[ProcessPoolExecutor]:
    """Bot worker processes shared by the tests' apps (starting them costs a little)."""
    pool = process_pool(2)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


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
        with TestClient(create_app(url, **options)) as client:
            yield client

    return open_client


@pytest.fixture
def client(client_on: Client, sqlite_url: str) -> Iterator[TestClient]:
    with client_on(sqlite_url) as opened:
        yield opened
