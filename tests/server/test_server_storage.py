"""Storage: games survive a restart of the server, bots included, with no action lost or doubled.

Every test here runs on SQLite (a file) and on a real PostgreSQL database.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import FrozenInstanceError, replace
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

import machiavel
from machiavel.core.contract import Setup
from machiavel.server.storage import (
    GameRecord,
    Repository,
    SeatRecord,
    StaleWrite,
    database_url,
    make_engine,
)
from support.waiting import STUCK, Progress

Client = Callable[..., AbstractContextManager[TestClient]]  # the client_on fixture


def create(
    client: TestClient, game: str, seats: list[dict[str, Any]], seed: int | None = None
) -> dict[str, Any]:
    """A table; ``seed`` only for one person or none (the server draws it otherwise)."""
    chosen = {"seed": seed} if seed is not None else {}
    answer = client.post("/api/games", json={"game": game, "seats": seats, **chosen})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def state_of(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", params={"token": token} if token else {})
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def play_until(
    client: TestClient, game_id: str, token: str, player: int, until: Any
) -> dict[str, Any]:
    """Play the human seat's first legal action whenever it is to move, bots doing the rest
    (only a game that stays at one version for STUCK seconds fails, however long it is)."""
    progress = Progress()
    while True:
        state = state_of(client, game_id, token)
        if until(state):
            return state
        progress.saw(state["version"])
        if player in state["to_move"]:
            answer = client.post(
                f"/api/games/{game_id}/actions",
                json={
                    "token": token,
                    "action": state["legal_actions"][0],
                    "version": state["version"],
                },
            )
            assert answer.status_code in (200, 409), answer.text
        else:
            time.sleep(0.005)


def check_stored(repository: Repository, game_id: str) -> tuple[GameRecord, list[tuple[int, str]]]:
    """Numbers 1..n with no gap or double, the game row agrees, and the actions replay."""
    loaded = repository.load(game_id)
    assert loaded is not None
    record, actions = loaded
    assert repository.action_numbers(game_id) == list(range(1, len(actions) + 1))
    assert record.version == len(actions)
    spec = machiavel.game(record.game)
    state = spec.replay(Setup(record.game, record.players, record.seed, record.options), actions)
    assert state.is_over == record.is_over
    return record, actions


def test_games_go_on_after_a_restart_bots_included(
    client_on: Client, any_database_url: str, bot_gate: Any
) -> None:
    human_seats = [{"kind": "human"}, {"kind": "bot", "level": "medium"}]
    gate = bot_gate(game="djambi", after=6)  # its seventh move is held: it is thinking
    with client_on(any_database_url, bot_executor=gate) as first:
        duel = create(first, "tyrus", human_seats, seed=21)
        token = duel["seats"][0]["token"]
        bots_only = create(first, "djambi", [{"kind": "bot", "level": "easy"}] * 4, seed=8)
        before = play_until(first, duel["id"], token, 0, lambda s: s["version"] >= 10)
        assert gate.holding.wait(STUCK)
        seen = state_of(first, bots_only["id"])
        assert seen["version"] == 6 and not seen["is_over"]
    # The first app is gone, its bots stopped wherever they were (one of them thinking).
    repository = Repository(any_database_url)
    try:
        _, duel_actions = check_stored(repository, duel["id"])
        _, bot_actions = check_stored(repository, bots_only["id"])
    finally:
        repository.close()
    assert len(duel_actions) >= before["version"]
    assert len(bot_actions) >= seen["version"]
    with client_on(any_database_url) as second:
        again = state_of(second, duel["id"], token)
        assert again["version"] == len(duel_actions)
        assert again["log"][: len(before["log"])] == before["log"]
        end = play_until(second, duel["id"], token, 0, lambda s: s["is_over"])
        assert end["winners"]
        progress = Progress("the bots' game")
        while not (bots := state_of(second, bots_only["id"]))["is_over"]:  # resumed by itself
            progress.saw(bots["version"])
            time.sleep(0.02)
        repository = second.app.state.service.repo  # type: ignore[attr-defined]
        _, final_duel = check_stored(repository, duel["id"])
        _, final_bots = check_stored(repository, bots_only["id"])
        assert final_duel[: len(duel_actions)] == duel_actions
        assert final_bots[: len(bot_actions)] == bot_actions
        lobby = second.get("/api/games", params={"status": "finished"}).json()["games"]
        assert {g["id"] for g in lobby} == {duel["id"], bots_only["id"]}


def test_seats_and_tokens_survive_a_restart(client_on: Client, any_database_url: str) -> None:
    with client_on(any_database_url) as first:
        created = create(first, "tyrus", [{"kind": "human"}, {"kind": "human"}])
        joined = first.post(f"/api/games/{created['id']}/join", json={"name": "Ada"}).json()
    with client_on(any_database_url) as second:
        state = state_of(second, created["id"], joined["token"])
        assert state["player"] == 0 and state["seats"][0]["name"] == "Ada"
        old = second.get(
            f"/api/games/{created['id']}", params={"token": created["seats"][0]["token"]}
        )
        assert old.status_code == 403
        other = state_of(second, created["id"], created["seats"][1]["token"])
        assert other["player"] == 1 and not other["seats"][1]["claimed"]


def test_an_action_is_never_stored_twice(any_database_url: str) -> None:
    repository = Repository(any_database_url)
    try:
        record = GameRecord(
            id="g1",
            game="tyrus",
            players=2,
            seed=1,
            options={"memory_mode": False},
            seats=(SeatRecord(0, "human"), SeatRecord(1, "human")),
        )
        repository.create_game(record)
        repository.append_action("g1", 1, 0, "S1 citadel", False)
        with pytest.raises(StaleWrite):
            repository.append_action("g1", 1, 0, "S2 citadel", False)  # number 1 is taken
        with pytest.raises(StaleWrite):
            repository.append_action("g1", 3, 1, "S2 citadel", False)  # skips number 2
        loaded = repository.load("g1")
        assert loaded is not None and loaded[1] == [(0, "S1 citadel")]
        assert loaded[0].version == 1
        assert repository.load("nothing") is None
    finally:
        repository.close()


def test_a_game_loaded_while_another_process_plays_it_is_not_damaged(
    any_database_url: str,
) -> None:
    """Another process stores an action between the reads of a load (exactly then: an
    event of the reading engine writes it): the load gives one consistent version."""
    reader, writer = Repository(any_database_url), Repository(any_database_url)
    try:
        record = GameRecord(
            id="g1",
            game="tyrus",
            players=2,
            seed=1,
            options={"memory_mode": False},
            seats=(SeatRecord(0, "human"), SeatRecord(1, "human")),
        )
        writer.create_game(record)
        writer.append_action("g1", 1, 0, "a1", False)
        moves = iter([(2, 1, "a2"), (3, 0, "a3")])

        def play_meanwhile(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            if "FROM actions" in statement:  # between the game row and its version again
                move = next(moves, None)
                if move is not None:
                    writer.append_action("g1", move[0], move[1], move[2], False)

        event.listen(reader.engine, "before_cursor_execute", play_meanwhile)
        loaded = reader.load("g1")
        assert loaded is not None
        found, actions = loaded
        assert found.version == len(actions) == 3  # read again once the moves stopped
    finally:
        reader.close()
        writer.close()


def test_database_urls() -> None:
    assert database_url("games.db") == "sqlite:///games.db"
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_the_environment_chooses_the_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("MACHIAVEL_DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    assert database_url(None).endswith("env.db")
    monkeypatch.delenv("MACHIAVEL_DATABASE_URL")
    assert database_url(None) == "sqlite:///machiavel.db"


def test_sqlite_runs_in_wal_mode(sqlite_url: str) -> None:
    repository = Repository(sqlite_url)
    try:
        with repository.engine.connect() as conn:
            mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
        assert mode == "wal"
    finally:
        repository.close()


def test_a_record_acted_at_is_the_record_with_that_moment_alone() -> None:
    seats = (SeatRecord(0, "human", name="Ada"), SeatRecord(1, "bot", level="easy"))
    record = GameRecord("g", "tyrus", 2, 7, {"memory_mode": False}, seats, rated=True)
    moment = datetime(2026, 11, 24, 1, 2, 3, tzinfo=UTC)
    acted = record.acted_at(moment)
    assert acted == replace(record, human_acted_at=moment)
    assert record.human_acted_at is None  # the record itself is unchanged
    with pytest.raises(FrozenInstanceError):
        acted.human_acted_at = None  # type: ignore[misc]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_pool_hands_out_the_connection_given_back_last(
    kind: str, tmp_path: Any, request: pytest.FixtureRequest
) -> None:
    """LIFO (storage.POOL_LIFO): the group writer keeps one connection, whose SQLite page
    cache stays valid from one commit to the next; with the pool's default order (FIFO)
    each commit took another connection, which found its cache stale and read it again."""
    url = (
        f"sqlite:///{tmp_path}/pool.db"
        if kind == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    engine = make_engine(url)
    try:
        first, second = engine.connect(), engine.connect()
        given_back_last = second.connection.dbapi_connection
        first.close()
        second.close()
        with engine.connect() as again:
            assert again.connection.dbapi_connection is given_back_last
    finally:
        engine.dispose()
