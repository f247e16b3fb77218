"""SQLite's log is checkpointed beside the writer, never inside a commit (checkpoints.py).

A commit that checkpoints waits for two fsyncs, and every action of the next group commit
with it: the server's connections leave the log to its ``Checkpointer``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine

from machiavel.server.checkpoints import Checkpointer, checkpoint, needs_restart
from machiavel.server.storage import GameRecord, Repository, SeatRecord
from support.waiting import wait_until

Client = Callable[..., AbstractContextManager[TestClient]]  # the client_on fixture

SQLITE_OWN_BOUND = 1000  # pages: SQLite checkpoints inside the commit that passes it


def new_game(repository: Repository, game_id: str = "g") -> None:
    seats = (SeatRecord(0, "human", name="Ada"), SeatRecord(1, "human", name="Bo"))
    repository.create_game(GameRecord(game_id, "tyrus", 2, 7, {}, seats))


def store_actions(repository: Repository, count: int, first: int = 1, game_id: str = "g") -> None:
    """Actions one per transaction, as a quiet server's group commits store them."""
    for number in range(first, first + count):
        repository.append_action(game_id, number, number % 2, f"S{number % 9 + 1} citadel", False)


def log_pages(url: str, engine: Engine) -> int:
    """How many pages long the log's file is (never shortened when the log starts over)."""
    with engine.connect() as connection:
        page_size = connection.exec_driver_sql("PRAGMA page_size").scalar()
    assert isinstance(page_size, int)
    return Path(database_file(url) + "-wal").stat().st_size // page_size


def database_file(url: str) -> str:
    return url.removeprefix("sqlite:///")


def reading(url: str) -> sqlite3.Connection:
    """Another connection, in a read transaction holding its snapshot until it ends."""
    reader = sqlite3.connect(database_file(url), isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM actions").fetchall()
    return reader


@contextmanager
def held_back(repository: Repository, url: str) -> Iterator[None]:
    """A new game's writes, half of them after a reader's snapshot that is held until
    the block ends: what a checkpoint meanwhile cannot copy."""
    new_game(repository)
    store_actions(repository, 10)
    reader = reading(url)
    try:
        store_actions(repository, 10, first=11)
        yield
    finally:
        reader.close()


def autocheckpoint(engine: Engine) -> object:
    with engine.connect() as connection:
        return connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()


def test_the_servers_commits_leave_the_log_to_the_checkpoints(sqlite_url: str) -> None:
    repository = Repository(sqlite_url, checkpoints_by_hand=True)
    try:
        assert repository.checkpoints_by_hand and autocheckpoint(repository.engine) == 0
        new_game(repository)
        store_actions(repository, 1500)  # two pages or more a commit
        # SQLite's own checkpoints would have started the log over at 1,000 pages.
        assert log_pages(sqlite_url, repository.engine) > 2 * SQLITE_OWN_BOUND
        done = checkpoint(repository.engine)
        assert done.frames > 2 * SQLITE_OWN_BOUND
        assert (done.copied, done.restarted) == (done.frames, False)
        store_actions(repository, 1, first=1501)
        assert checkpoint(repository.engine).frames < 10  # the log started over
    finally:
        repository.close()


def test_any_other_repository_checkpoints_as_sqlite_does(sqlite_url: str) -> None:
    repository = Repository(sqlite_url)
    try:
        assert not repository.checkpoints_by_hand
        assert autocheckpoint(repository.engine) == SQLITE_OWN_BOUND
    finally:
        repository.close()
    in_memory = Repository("sqlite://", checkpoints_by_hand=True)
    try:
        assert not in_memory.checkpoints_by_hand  # no log to checkpoint
    finally:
        in_memory.close()


def test_a_checkpoint_waits_for_no_reader(sqlite_url: str) -> None:
    """A reader on an older snapshot keeps the frames after it in the log: the checkpoint
    copies what it can and returns (a RESTART only past the bound)."""
    repository = Repository(sqlite_url, checkpoints_by_hand=True)
    try:
        with held_back(repository, sqlite_url):
            done = checkpoint(repository.engine)
            assert 0 < done.copied < done.frames and not done.restarted
        done = checkpoint(repository.engine)
        assert done.copied == done.frames
    finally:
        repository.close()


@pytest.mark.parametrize(
    ("frames", "copied", "restart"),
    [(10_001, 9_000, True), (10_001, 10_001, False), (10_000, 9_000, False), (50, 0, False)],
)
def test_only_a_long_log_a_checkpoint_could_not_copy_is_restarted(
    frames: int, copied: int, restart: bool
) -> None:
    assert needs_restart(frames, copied, 10_000) is restart


def test_a_long_log_held_back_by_a_reader_gets_a_restart(sqlite_url: str) -> None:
    """Past the bound, a checkpoint that could not copy the whole log runs a RESTART,
    which waits for the reader as long as its connection's busy timeout (here 50 ms, so
    that it gives up); once the reader is gone the log is copied and starts over."""
    repository = Repository(sqlite_url, checkpoints_by_hand=True)
    impatient = create_engine(sqlite_url, connect_args={"timeout": 0.05})
    try:
        with held_back(repository, sqlite_url):
            done = checkpoint(impatient, restart_above=0)
            assert done.restarted and done.copied < done.frames
        done = checkpoint(impatient, restart_above=0)
        assert done.copied == done.frames and not done.restarted
        store_actions(repository, 1, first=21)
        assert checkpoint(repository.engine).frames < 10  # the log started over
    finally:
        impatient.dispose()
        repository.close()


def test_a_failed_checkpoint_is_logged_once_and_the_next_one_tries_again(
    sqlite_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    unreachable = create_engine(f"sqlite:///{tmp_path / 'no such folder' / 'x.db'}")
    checkpointer = Checkpointer(unreachable)
    repository = Repository(sqlite_url, checkpoints_by_hand=True)
    try:

        async def twice() -> None:
            await checkpointer.run_once()
            await checkpointer.run_once()

        asyncio.run(twice())
        warnings = [r for r in caplog.records if "checkpointing" in r.getMessage()]
        assert len(warnings) == 1 and checkpointer.done == 0
        checkpointer.engine = repository.engine  # the database is back
        asyncio.run(checkpointer.run_once())
        assert checkpointer.done == 1 and checkpointer.last is not None
    finally:
        repository.close()
        unreachable.dispose()


def test_the_server_checkpoints_its_log_as_it_plays(client_on: Client, sqlite_url: str) -> None:
    with client_on(sqlite_url) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        checkpointer = service.checkpointer
        assert isinstance(checkpointer, Checkpointer)
        assert autocheckpoint(service.repo.engine) == 0
        seats = [{"kind": "human"}, {"kind": "human"}]
        answer = client.post("/api/games", json={"game": "tyrus", "players": 2, "seats": seats})
        assert answer.status_code == 201, answer.text

        def copied_a_log() -> bool:
            last = checkpointer.last
            return last is not None and 0 < last.frames == last.copied

        wait_until(copied_a_log, "a checkpoint copying the new game's writes")
