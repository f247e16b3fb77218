"""Group commit: the writes of several games share one transaction, and nothing is
acknowledged before that transaction is committed; a failed commit acknowledges none."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError
from starlette.testclient import WebSocketTestSession

from machiavel.server import storage
from machiavel.server.live import Connection, LiveGame
from machiavel.server.service import ApiError, GameService
from machiavel.server.storage import (
    GameRecord,
    NewAction,
    Repository,
    SeatChange,
    SeatRecord,
    StaleWrite,
    Write,
)
from machiavel.server.writer import GroupWriter, WriteFailed
from support.waiting import STUCK

Client = Callable[..., AbstractContextManager[TestClient]]  # the client_on fixture


def record(game_id: str) -> GameRecord:
    seats = (SeatRecord(0, "human", token_hash="a" * 64), SeatRecord(1, "human"))
    return GameRecord(game_id, "tyrus", 2, 7, {"memory_mode": False}, seats)


@pytest.fixture
def repository(any_database_url: str) -> Iterator[Repository]:
    opened = Repository(any_database_url)
    yield opened
    opened.close()


def count_commits(repository: Repository) -> list[int]:
    commits = [0]

    def counted(_connection: Any) -> None:
        commits[0] += 1

    event.listen(repository.engine, "commit", counted)
    return commits


def test_writes_of_several_games_share_one_transaction_and_all_last(
    repository: Repository, any_database_url: str
) -> None:
    ids = [f"g{n}" for n in range(5)]
    assert repository.write_group([record(i) for i in ids]) == [None] * 5
    commits = count_commits(repository)
    claimed = SeatRecord(0, "human", name="Ada", token_hash="b" * 64, claimed=True)
    group: list[Write] = [
        NewAction(i, 1, 0, f"S{n + 1} citadel", n == 4) for n, i in enumerate(ids)
    ]
    group.append(SeatChange("g0", claimed, "a" * 64))
    assert repository.write_group(group) == [None] * 6
    assert commits == [1]
    reopened = Repository(any_database_url)  # what another process would find
    try:
        for n, game_id in enumerate(ids):
            loaded = reopened.load(game_id)
            assert loaded is not None
            assert loaded[1] == [(0, f"S{n + 1} citadel")]
            assert loaded[0].version == 1 and loaded[0].is_over == (n == 4)
        g0 = reopened.load("g0")
        assert g0 is not None and g0[0].seats[0] == claimed
    finally:
        reopened.close()


def test_a_group_stores_each_games_own_turn_people_and_seats(
    repository: Repository, any_database_url: str
) -> None:
    """What each action of a group says of its own game is stored for that game: who
    moves next, whether a person acted, the end; a seat without a token can be taken and
    unrate its table."""
    ids = ["p0", "p1", "p2"]
    rated = [replace(record(i), rated=True) for i in ids]
    assert repository.write_group(rated) == [None] * 3
    taken = SeatRecord(1, "human", name="Bo", token_hash="c" * 64, claimed=True)
    group: list[Write] = [
        NewAction("p0", 1, 0, "S1 citadel", False, (1,), human=True),
        NewAction("p1", 1, 0, "S2 citadel", False, (0, 1), human=False),
        NewAction("p2", 1, 0, "S3 citadel", True, (), human=True),
        SeatChange("p1", taken, None, unrate=True),
    ]
    assert repository.write_group(group) == [None] * 4
    reopened = Repository(any_database_url)
    try:
        games = {i: reopened.load(i) for i in ids}
        stored = {i: loaded[0] for i, loaded in games.items() if loaded is not None}
        assert [stored[i].to_move for i in ids] == [(1,), (0, 1), ()]
        assert [stored[i].is_over for i in ids] == [False, False, True]
        created = {r.id: r.human_acted_at for r in rated}
        assert stored["p1"].human_acted_at == created["p1"]  # no person acted there
        for moved in ("p0", "p2"):
            acted = stored[moved].human_acted_at
            assert acted is not None and acted > stored[moved].created_at
        assert stored["p1"].seats[1] == taken and not stored["p1"].rated
        assert stored["p0"].rated and stored["p2"].rated
    finally:
        reopened.close()


def test_games_ended_together_are_all_stored_over_and_only_they(
    repository: Repository, any_database_url: str
) -> None:
    """Games an action of the group ends are marked over by a statement of their own
    (groupsql.end_games): every one of them, and none of the others."""
    ids = [f"e{n}" for n in range(4)]
    assert repository.write_group([record(i) for i in ids]) == [None] * 4
    ending = {"e1", "e3"}
    group: list[Write] = [NewAction(i, 1, 0, "S1 citadel", i in ending) for i in ids]
    assert repository.write_group(group) == [None] * 4
    reopened = Repository(any_database_url)
    try:
        stored = {i: reopened.load(i) for i in ids}
        over = {i for i, loaded in stored.items() if loaded is not None and loaded[0].is_over}
        assert over == ending
        assert all(loaded is not None and loaded[0].version == 1 for loaded in stored.values())
    finally:
        reopened.close()


def test_a_refused_write_refuses_only_itself(repository: Repository) -> None:
    assert repository.write_group([record("a"), record("b"), record("c")]) == [None] * 3
    outcomes = repository.write_group(
        [
            NewAction("a", 1, 0, "S1 citadel", False),
            NewAction("b", 5, 0, "S1 citadel", False),  # b is at version 0, not 4
            NewAction("c", 1, 0, "S2 citadel", False),
            record("a"),  # this id is taken
            SeatChange("c", SeatRecord(0, "human", name="Eve"), "not its token"),
        ]
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StaleWrite)
    assert isinstance(outcomes[3], IntegrityError)
    assert isinstance(outcomes[4], StaleWrite)
    assert repository.action_numbers("a") == [1] and repository.action_numbers("c") == [1]
    b, c = repository.load("b"), repository.load("c")
    assert b is not None and b[0].version == 0 and b[1] == []
    assert c is not None and c[0].seats[0].name is None


def test_a_failed_transaction_stores_none_of_its_writes(
    repository: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert repository.write_group([record("a"), record("b")]) == [None, None]
    real = storage._append_actions

    def fails_after_writing(conn: Any, actions: Sequence[NewAction]) -> bool:
        assert real(conn, actions)  # the rows are written, then the transaction fails
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(storage, "_append_actions", fails_after_writing)
    with pytest.raises(RuntimeError):
        repository.write_group(
            [NewAction("a", 1, 0, "S1 citadel", False), NewAction("b", 1, 0, "S1 citadel", False)]
        )
    for game_id in ("a", "b"):
        loaded = repository.load(game_id)
        assert loaded is not None and loaded[0].version == 0 and loaded[1] == []


class SlowStore:
    """A store whose first commit waits for the test, recording every group it gets."""

    def __init__(self, fail: bool = False) -> None:
        self.groups: list[list[Write]] = []
        self.release = threading.Event()
        self.started = threading.Event()
        self.fail = fail

    def __call__(self, writes: Sequence[Write]) -> list[Exception | None]:
        self.groups.append(list(writes))
        self.started.set()
        assert self.release.wait(STUCK), "the test never let the commit end"
        if self.fail:
            raise RuntimeError("the database went away")
        return [None] * len(writes)


def actions(count: int, number: int = 1) -> list[NewAction]:
    return [NewAction(f"g{n}", number, 0, "S1 citadel", False) for n in range(count)]


def test_writes_that_arrive_during_a_commit_share_the_next_one() -> None:
    store = SlowStore()

    async def scenario() -> None:
        writer = GroupWriter(store)
        first = asyncio.create_task(writer.write(actions(1)[0]))
        assert await asyncio.to_thread(store.started.wait, STUCK)
        later = [asyncio.create_task(writer.write(a)) for a in actions(5, number=2)]
        await asyncio.sleep(0)  # one turn of the loop: the later writes are queued
        assert not first.done()  # not acknowledged before its commit
        store.release.set()
        await asyncio.gather(first, *later)
        await writer.close()
        assert (writer.commits, writer.stored) == (2, 6)

    asyncio.run(scenario())
    assert [len(group) for group in store.groups] == [1, 5]


def test_a_failed_commit_acknowledges_none_of_its_writes() -> None:
    store = SlowStore(fail=True)
    store.release.set()

    async def scenario() -> list[BaseException | None]:
        writer = GroupWriter(store)
        outcomes = await asyncio.gather(
            *(writer.write(a) for a in actions(3)), return_exceptions=True
        )
        store.fail = False
        await writer.write(actions(1, number=2)[0])  # the writer goes on afterwards
        await writer.close()
        with pytest.raises(WriteFailed):
            await writer.write(actions(1, number=3)[0])  # closed: refused
        return list(outcomes)

    outcomes = asyncio.run(scenario())
    assert all(isinstance(outcome, WriteFailed) for outcome in outcomes)


def test_closing_the_writer_stores_what_waits() -> None:
    store = SlowStore()
    store.release.set()

    async def scenario() -> GroupWriter:
        writer = GroupWriter(store)
        pending = [asyncio.create_task(writer.write(a)) for a in actions(4)]
        await asyncio.sleep(0)  # queued, not yet committed
        await writer.close()
        await asyncio.gather(*pending)
        return writer

    assert asyncio.run(scenario()).stored == 4


def test_an_action_whose_commit_fails_is_neither_acknowledged_nor_pushed(
    client_on: Client, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with client_on(sqlite_url) as client:
        seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]  # taken
        created = client.post("/api/games", json={"game": "tyrus", "seats": seats})
        game_id = created.json()["id"]
        tokens = [seat["token"] for seat in created.json()["seats"]]
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        mover = client.get(f"/api/games/{game_id}").json()["to_move"][0]
        state = client.get(f"/api/games/{game_id}", params={"token": tokens[mover]}).json()
        body = {"token": tokens[mover], "action": state["legal_actions"][0], "version": 0}

        def broken(writes: Sequence[Write]) -> list[Exception | None]:
            raise RuntimeError("the database went away")

        with client.websocket_connect(f"/api/games/{game_id}/ws") as spectator:
            assert next_message(spectator)["text"].startswith('{"id"')
            monkeypatch.setattr(service.writer, "_store", broken)
            refused = client.post(f"/api/games/{game_id}/actions", json=body)
            assert refused.status_code == 503, refused.text
            pushed = next_message(spectator)  # no state of version 1: the game is reloaded
            assert pushed["type"] == "websocket.close" and pushed["code"] == 1012
        assert client.get(f"/api/games/{game_id}").json()["version"] == 0
        assert service.repo.load(game_id) is not None
        assert service.repo.action_numbers(game_id) == []
        monkeypatch.setattr(service.writer, "_store", service.repo.write_group)
        assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 200
        assert service.repo.action_numbers(game_id) == [1]


def next_message(ws: WebSocketTestSession, seconds: float = STUCK) -> MutableMapping[str, Any]:
    """The next message of a test socket, failing (not hanging) if none comes in time."""
    box: list[MutableMapping[str, Any]] = []
    reader = threading.Thread(target=lambda: box.append(ws.receive()), daemon=True)
    reader.start()
    reader.join(seconds)
    assert box, "no message came in time"
    return box[0]


def test_a_socket_acts_without_its_token_only_while_its_seat_is_its_own(
    client_on: Client, sqlite_url: str
) -> None:
    with client_on(sqlite_url) as client:
        created = client.post("/api/games", json={"game": "tyrus", "players": 2})
        game_id = created.json()["id"]
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        mover = client.get(f"/api/games/{game_id}").json()["to_move"][0]
        invite = created.json()["seats"][mover]["token"]
        portal = client.portal
        assert portal is not None
        live, connection = portal.call(service.connect, game_id, invite, 0)
        state = client.get(f"/api/games/{game_id}", params={"token": invite}).json()
        action = state["legal_actions"][0]
        joined = client.post(f"/api/games/{game_id}/join", json={"name": "Bo", "token": invite})
        assert joined.status_code == 200
        assert connection not in live.connections  # the seat is someone else's now
        with pytest.raises(ApiError) as refused:
            portal.call(act_on_socket, service, live, connection, invite, action)
        assert refused.value.status == 403
        assert service.repo.action_numbers(game_id) == []
        fresh = joined.json()["token"]
        live, connection = portal.call(service.connect, game_id, fresh, 0)
        portal.call(act_on_socket, service, live, connection, fresh, action)
        assert service.repo.action_numbers(game_id) == [1]


async def act_on_socket(
    service: GameService, live: LiveGame, connection: Connection, token: str, action: str
) -> None:
    await service.act_on_socket(live, connection, token, action, 0)


class ThreadNoting:
    """A store that notes the thread each transaction runs in, and fails on demand."""

    def __init__(self) -> None:
        self.groups: list[tuple[int, list[Write]]] = []
        self.fail_next = False

    def __call__(self, writes: Sequence[Write]) -> list[Exception | None]:
        self.groups.append((threading.get_ident(), list(writes)))
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("the database went away")
        return [None] * len(writes)


def test_transactions_run_in_order_in_one_thread_of_the_writers_own() -> None:
    store = ThreadNoting()
    writes = actions(6)

    async def scenario() -> threading.Thread:
        writer = GroupWriter(store)
        for write in writes[:3]:  # one at a time: a transaction each
            await writer.write(write)
        store.fail_next = True
        with pytest.raises(WriteFailed):
            await writer.write(writes[3])
        await asyncio.gather(*(writer.write(w) for w in writes[4:]))  # it goes on after
        assert writer.store_thread is not None
        thread = writer.store_thread.thread
        await writer.close()
        return thread

    thread = asyncio.run(scenario())
    thread.join(STUCK)
    assert not thread.is_alive()  # closing the writer ends its thread
    assert {ident for ident, _ in store.groups} == {thread.ident}
    assert thread.ident != threading.get_ident()  # never the event loop's
    assert [group for _, group in store.groups] == [[w] for w in writes[:4]] + [writes[4:]]


def test_the_writers_thread_ends_with_its_event_loop() -> None:
    """A writer never closed (its event loop ended first, in a transaction) leaves no
    thread behind once that transaction is over."""
    store = SlowStore()

    async def scenario() -> threading.Thread:
        writer = GroupWriter(store)
        asyncio.create_task(writer.write(actions(1)[0]))  # noqa: RUF006 - cancelled with the loop
        assert await asyncio.to_thread(store.started.wait, STUCK)
        assert writer.store_thread is not None
        return writer.store_thread.thread

    thread = asyncio.run(scenario())  # cancels the writer's task
    store.release.set()  # the transaction under way ends, its outcome told to nobody
    thread.join(STUCK)
    assert not thread.is_alive()
