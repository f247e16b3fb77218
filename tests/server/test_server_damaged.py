"""Damaged stored games stay local: each is found out, logged once and answered "cannot be
loaded" (or shown read-only), while the lobby, "my games", profiles and the other games'
bots go on. Rows are damaged with raw SQL between two runs of the server, on SQLite and
on PostgreSQL.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from machiavel.server import storage
from machiavel.server.accounts import COOKIE, TEST_COST
from machiavel.server.app import close_reason
from machiavel.server.service import WS_READ_ONLY
from support.waiting import STUCK

Client = Callable[..., AbstractContextManager[TestClient]]  # the client_on fixture
SITE = {"origin": "http://testserver"}
DAMAGED = "this game cannot be loaded: its stored data is damaged"


def damages(dialect: str) -> dict[str, tuple[str, list[str]]]:
    """Per damaged game: how it is answered ("gone": 410 everywhere, left out of lists;
    "read-only": shown), the reason its message gives, and the SQL that damages it
    (``{id}`` is its id)."""
    bad_date = "'infinity'" if dialect == "postgresql" else "'yesterday'"
    found: dict[str, tuple[str, list[str]]] = {
        "options-list": (
            "its options are not a JSON object",
            ["UPDATE games SET options = '[1, 2]'"],
        ),
        "options-type": (  # the game itself refuses it (as after a change of its rules)
            "option 'memory_mode' must be one of false, true, not \"yes\"",
            ['UPDATE games SET options = \'{"memory_mode": "yes"}\''],
        ),
        "options-text": (
            "its options are not a JSON object",
            ["UPDATE games SET options = '\"x\"'"],
        ),
        "bad-date": ("its row cannot be read", [f"UPDATE games SET updated_at = {bad_date}"]),
        "seat-missing": ("seat 0 is missing", ["DELETE FROM seats WHERE player = 0"]),
        "seat-beyond": (
            "it has a seat row beyond its 2 players",
            [
                "INSERT INTO seats (game_id, player, kind, claimed) "
                "VALUES ('{id}', 5, 'human', FALSE)"
            ],
        ),
        "seat-kind": (
            "seat 0 is of an unknown kind",
            ["UPDATE seats SET kind = 'alien' WHERE player = 0"],
        ),
        "bot-level": (
            "seat 1 is a bot of an unknown level",
            ["UPDATE seats SET level = 'god' WHERE player = 1"],
        ),
        "players": (
            "its player count is not a number from 1 to 16",
            ["UPDATE games SET players = 0"],
        ),
        "to-move": ("its row cannot be read", ["UPDATE games SET to_move = 'x'"]),
        "action-gap": (
            "its action numbers skip from 2 to 7",
            ["UPDATE actions SET number = 7 WHERE number = 3"],
        ),
        "version-off": (
            "its version (5) disagrees with its 3 actions",
            ["UPDATE games SET version = 5"],
        ),
    }
    if dialect == "sqlite":  # SQLite keeps any text in any column
        found["options-json"] = (
            "its row cannot be read",
            ["UPDATE games SET options = 'not json'"],
        )
        found["seed-text"] = (
            "its seed or version is not a whole number",
            ["UPDATE games SET seed = 'x'"],
        )
    return found


SHOWN = ("action-gap", "version-off", "options-type")  # their rows make a game: shown
REFUSED_SETUP = (
    "this game can no longer be replayed from what is stored: its setup is no longer valid"
)


def expected_message(name: str, reason: str) -> str:
    if name == "options-type":
        return f"{REFUSED_SETUP}: {reason}"
    return f"{DAMAGED} ({reason})"


def scoped(statement: str, game_id: str) -> str:
    """``statement`` limited to one game's rows (ids are ours: no quoting needed)."""
    statement = statement.replace("{id}", game_id)
    if statement.startswith("INSERT"):
        return statement
    column = "id" if " games " in statement else "game_id"
    joiner = " AND " if " WHERE " in statement else " WHERE "
    return f"{statement}{joiner}{column} = '{game_id}'"


def play_three(client: TestClient, game_id: str, tokens: list[str]) -> None:
    """Three actions, each the first legal one of the seat to move (seat 1 moves next)."""
    for _ in range(3):
        state = client.get(f"/api/games/{game_id}").json()
        player = state["to_move"][0]
        seat = client.get(f"/api/games/{game_id}", params={"token": tokens[player]}).json()
        body = {
            "token": tokens[player],
            "action": seat["legal_actions"][0],
            "version": seat["version"],
        }
        assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 200


def set_up(client_on: Client, url: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """An account (its session cookie), and a Tyrus table per damage plus a healthy one,
    each with three actions played and seat 0 the account's; returns the cookie, the
    stored id of each table (by name) and seat 0's token of each."""
    with client_on(url, password_cost=TEST_COST) as client:
        answer = client.post("/api/accounts", json={"name": "Ada", "password": "correct horse"})
        assert answer.status_code == 201, answer.text
        cookie = answer.cookies[COOKIE]
        ids: dict[str, str] = {}
        tokens: dict[str, str] = {}
        seat_tokens: dict[str, list[str]] = {}
        names = ["healthy", *damages(client_on_dialect(url))]
        for name in names:
            seats = [{"kind": "human"}, {"kind": "human", "name": "Bo"}]
            created = client.post(
                "/api/games", json={"game": "tyrus", "seats": seats}, headers=SITE
            )
            assert created.status_code == 201, created.text
            game = created.json()
            seat_tokens[name] = [s["token"] for s in game["seats"]]
            ids[name], tokens[name] = game["id"], seat_tokens[name][0]
    # The server drew each deal; seed 5's (seat 0 begins, so seat 1 moves after three
    # actions) is put in their place before anything is played (a server loads it).
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE games SET seed = 5"))
    finally:
        engine.dispose()
    with client_on(url, password_cost=TEST_COST) as client:
        for name in names:
            play_three(client, ids[name], seat_tokens[name])
    # Seat 1 becomes a bot, so that every table's bots resume at start.
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE seats SET kind = 'bot', level = 'easy' WHERE player = 1"))
            for name, (_, statements) in damages(engine.dialect.name).items():
                for statement in statements:
                    conn.execute(text(scoped(statement, ids[name])))
    finally:
        engine.dispose()
    return cookie, ids, tokens


def client_on_dialect(url: str) -> str:
    return "postgresql" if url.startswith("postgresql") else "sqlite"


def wait_for_resumption(client: TestClient, game_id: str) -> None:
    """Until start has tried every game with bots and the healthy one's bot has moved."""
    service = client.app.state.service  # type: ignore[attr-defined]
    deadline = time.monotonic() + STUCK  # only a stuck test gets there
    while not service.resumed() or client.get(f"/api/games/{game_id}").json()["version"] < 4:
        assert time.monotonic() < deadline, "the healthy game's bot did not resume"
        time.sleep(0.02)


def ws_close(client: TestClient, game_id: str, token: str) -> tuple[int, str, list[Any]]:
    """How a WebSocket on a game ends: its close code and reason, and what it got."""
    got: list[Any] = []
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        while True:
            got.append(ws.receive_json())
    return closed.value.code, closed.value.reason, got


def test_damaged_games_stay_local(
    client_on: Client,
    any_database_url: str,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cookie, ids, tokens = set_up(client_on, any_database_url)
    # Lists that meet an undecodable row read it again by chunks: small ones here, so that
    # some chunks are read whole and others row by row.
    monkeypatch.setattr(storage, "DAMAGE_CHUNK", 3)
    found = damages(client_on_dialect(any_database_url))
    caplog.set_level(logging.INFO, logger="machiavel")
    caplog.clear()
    with client_on(any_database_url, password_cost=TEST_COST) as client:
        client.cookies.set(COOKIE, cookie)
        # The healthy game's bot resumed at start, past every damaged game.
        wait_for_resumption(client, ids["healthy"])

        for round_ in range(2):  # the second time, what was found out is remembered
            lobby = client.get("/api/games", params={"status": "all"})
            assert lobby.status_code == 200, lobby.text
            listed = {g["id"]: g for g in lobby.json()["games"]}
            changed = [g["updated_at"] for g in listed.values()]
            assert changed == sorted(changed, reverse=True)  # the lobby's order is kept
            mine = client.get("/api/me/games")
            assert mine.status_code == 200, mine.text
            my_ids = {g["id"] for g in mine.json()["games"]}
            assert ids["healthy"] in listed and ids["healthy"] in my_ids
            assert listed[ids["healthy"]]["status"] == "running"
            for name, (reason, _) in found.items():
                if name in SHOWN:  # found out at start (it has a bot): listed read-only
                    assert listed[ids[name]]["status"] == "read-only", (round_, name)
                    assert listed[ids[name]]["message"] == expected_message(name, reason)
                else:
                    assert ids[name] not in listed, (round_, name)
                    assert ids[name] not in my_ids, (round_, name)
            profile = client.get("/api/players/Ada")
            assert profile.status_code == 200, profile.text

        for name, (reason, _) in found.items():
            game_id, token = ids[name], tokens[name]
            message = expected_message(name, reason)
            shown = client.get(f"/api/games/{game_id}", params={"token": token})
            move = {"token": token, "action": "S3 citadel", "version": 3}
            played = client.post(f"/api/games/{game_id}/actions", json=move)
            assert played.status_code == 410 and played.json() == {"detail": message}, name
            joined = client.post(f"/api/games/{game_id}/join", json={"name": "Cy"}, headers=SITE)
            assert joined.status_code == 410, name
            code, closing, got = ws_close(client, game_id, token)
            assert code == WS_READ_ONLY and closing == close_reason(message), name
            if name in SHOWN:
                assert shown.status_code == 200, (name, shown.text)
                state = shown.json()
                assert state["status"] == "read-only" and state["message"] == message
                assert state["view"] is None and state["to_move"] == []
                assert state["player"] == 0 and len(state["actions"]) == 3
                assert got and got[0]["status"] == "read-only"
            else:
                assert shown.status_code == 410, (name, shown.text)
                assert shown.json() == {"detail": message}
                assert got == []

        # Other games are played as ever.
        healthy = client.get(f"/api/games/{ids['healthy']}", params={"token": tokens["healthy"]})
        assert healthy.status_code == 200

    # One line per damaged game, however often it was asked for; no traceback at all.
    lines = [r for r in caplog.records if r.name.startswith("machiavel")]
    assert not [r for r in lines if r.exc_info], [r.getMessage() for r in lines]
    for name, (reason, _) in found.items():
        said = [r.getMessage() for r in lines if ids[name] in r.getMessage()]
        assert len(said) == 1, (name, said)
        if name == "options-type":
            assert said[0].startswith(f"game {ids[name]} is read-only, its bots are not resumed")
        else:
            start = f"game {ids[name]} cannot be loaded, its stored data is damaged: {reason}"
            assert said[0].startswith(start), said
    said_all = [r.getMessage() for r in lines]
    # "game <id> not resumed[: why]": how resumption failed on a damaged game before.
    assert not [m for m in said_all if " not resumed" in m and "read-only" not in m]
