"""Revision 0004 (accounts) on SQLite and PostgreSQL: a database at 0003 with games keeps
them, their seats belong to no account, whose turn it is is found by replaying until the
next action writes it; 0004 undone leaves the 0003 schema and the games."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime

from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

import machiavel
from machiavel.server import migrations
from machiavel.server.accounts import COOKIE, TEST_COST
from machiavel.server.live import hash_token
from machiavel.server.storage import Repository, database_url

Client = Callable[..., AbstractContextManager[TestClient]]
SITE = "http://testserver"


def database_at_0003_with_a_game(url: str, token: str) -> None:
    """A database at revision 0003 holding a Tyrus game (seed 7) whose seat 1 played."""
    engine = create_engine(database_url(url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            command.upgrade(migrations.config(conn), "0003")
        state = machiavel.game("tyrus").new(2, 7, None)
        action = state.legal_actions(1)[0]
        state.apply(1, action)
        now = datetime.now(UTC)
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO games (id, game, players, seed, options, rules_version, listed,"
                    " version, is_over, created_at, updated_at) VALUES ('old', 'tyrus', 2, 7,"
                    " :options, 1, :yes, 1, :no, :now, :now)"
                ),
                {"options": '{"memory_mode": false}', "yes": True, "no": False, "now": now},
            )
            for player in (0, 1):
                conn.execute(
                    text(
                        "INSERT INTO seats (game_id, player, kind, name, token_hash, claimed)"
                        " VALUES ('old', :p, 'human', :name, :hash, :yes)"
                    ),
                    {
                        "p": player,
                        "name": f"P{player}",
                        "hash": hash_token(f"{token}{player}"),
                        "yes": True,
                    },
                )
            conn.execute(
                text(
                    "INSERT INTO actions (game_id, number, player, action)"
                    " VALUES ('old', 1, 1, :action)"
                ),
                {"action": action},
            )
    finally:
        engine.dispose()


def test_0004_upgrades_a_database_with_games(any_database_url: str, client_on: Client) -> None:
    database_at_0003_with_a_game(any_database_url, "tok")
    repository = Repository(any_database_url)
    try:
        assert repository.schema.before == "0003" and repository.schema.after >= "0004"
        loaded = repository.load("old")
        assert loaded is not None
        record, actions = loaded
        assert [s.account_id for s in record.seats] == [None, None]
        assert record.to_move is None and record.host_token_hash is None and len(actions) == 1
    finally:
        repository.close()
    with client_on(any_database_url, password_cost=TEST_COST) as client:
        answer = client.post(
            "/api/accounts",
            json={"name": "Ada", "password": "correct horse"},
            headers={"origin": SITE},
        )
        session = answer.cookies[COOKIE]
        client.cookies.clear()
        signed = {"cookie": f"{COOKIE}={session}", "origin": SITE}
        claimed = client.post("/api/games/old/claim", json={"token": "tok0"}, headers=signed)
        assert claimed.status_code == 200, claimed.text
        # to_move was not stored before 0004: the game is replayed to tell.
        client.app.state.service._cache.clear()  # type: ignore[attr-defined]
        games = client.get("/api/me/games", headers=signed).json()["games"]
        assert [(g["id"], g["your_turn"]) for g in games] == [("old", True)]
        state = client.get("/api/games/old", headers=signed).json()
        body = {"action": state["legal_actions"][0], "version": 1}
        assert client.post("/api/games/old/actions", json=body, headers=signed).status_code == 200
        stored = client.app.state.service.repo.load("old")  # type: ignore[attr-defined]
        assert stored[0].to_move == (1,)  # written with the action


def test_0004_can_be_undone_keeping_the_games(any_database_url: str) -> None:
    database_at_0003_with_a_game(any_database_url, "tok")
    Repository(any_database_url).close()
    engine = create_engine(database_url(any_database_url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            command.downgrade(migrations.config(conn), "0003")
        with engine.connect() as conn:
            assert migrations.current(conn) == "0003"
            tables = set(inspect(conn).get_table_names())
            assert "accounts" not in tables and "sessions" not in tables
            columns = {c["name"] for c in inspect(conn).get_columns("seats")}
            assert "account_id" not in columns
            assert conn.execute(text("SELECT count(*) FROM seats")).scalar_one() == 2
            assert conn.execute(text("SELECT count(*) FROM actions")).scalar_one() == 1
    finally:
        engine.dispose()
