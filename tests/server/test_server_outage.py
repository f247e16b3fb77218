"""The database out of reach: 503 with a sentence over HTTP and WebSocket, one log line
per burst, no statement parameters nor token hashes in the log; a database that cannot be
opened at start is one sentence and a non-zero exit.

The outage is real: the test's PostgreSQL database is dropped (its connections ended)
under the running app.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from machiavel.server.accounts import COOKIE, TEST_COST
from machiavel.server.launch import free_port
from machiavel.server.live import hash_token
from machiavel.server.outage import UNREACHABLE, Outage
from machiavel.server.run import serve
from machiavel.server.service import WS_RELOAD

Client = Callable[..., AbstractContextManager[TestClient]]  # the client_on fixture
SITE = {"origin": "http://testserver"}


def drop_database(url: str) -> None:
    """End every connection to the database of ``url`` and drop it."""
    server, name = url.rsplit("/", 1)
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"),
                {"n": name},
            )
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def new_table(client: TestClient) -> tuple[str, list[str]]:
    # Named seats are taken at once: a first action then writes the action alone.
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    answer = client.post("/api/games", json={"game": "tyrus", "seats": seats}, headers=SITE)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created["id"], [seat["token"] for seat in created["seats"]]


def first_move(client: TestClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """The action the seat to move would play first, as an action request."""
    player = client.get(f"/api/games/{game_id}").json()["to_move"][0]
    seat = client.get(f"/api/games/{game_id}", params={"token": tokens[player]}).json()
    return {"token": tokens[player], "action": seat["legal_actions"][0], "version": 0}


def closed_with(client: TestClient, path: str) -> tuple[int, str]:
    with client.websocket_connect(path) as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()
    return closed.value.code, closed.value.reason


def test_a_database_out_of_reach_answers_503_and_logs_once(
    client_on: Client, postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    caplog.set_level(logging.INFO, logger="machiavel")
    with client_on(postgres_url, password_cost=TEST_COST) as client:
        # One burst however slow this machine is (the window is tested on its own below).
        client.app.state.service.repo.outage.quiet = float("inf")  # type: ignore[attr-defined]
        signed_up = client.post("/api/accounts", json={"name": "Ada", "password": "correct horse"})
        assert signed_up.status_code == 201, signed_up.text
        cookie = signed_up.cookies[COOKIE]
        played, played_tokens = new_table(client)
        watched, watched_tokens = new_table(client)
        secrets = [cookie, *played_tokens, *watched_tokens]
        move = first_move(client, played, played_tokens)
        socket_move = first_move(client, watched, watched_tokens)
        with client.websocket_connect(
            f"/api/games/{watched}/ws?token={socket_move['token']}"
        ) as ws:
            assert ws.receive_json()["version"] == 0
            drop_database(postgres_url)

            # An action on the socket of a game in memory: not stored, so not played.
            ws.send_json({"action": socket_move["action"], "version": 0})
            with pytest.raises(WebSocketDisconnect) as reloaded:
                while True:
                    pushed = ws.receive_json()
                    assert "error" in pushed, pushed
                    assert pushed["error"]["status"] == 503
                    assert UNREACHABLE in pushed["error"]["detail"]
        assert reloaded.value.code == WS_RELOAD

        # Reads and writes, HTTP and WebSocket: 503 and the sentence.
        lobby = client.get("/api/games")
        assert lobby.status_code == 503 and lobby.json() == {"detail": UNREACHABLE}
        assert lobby.headers["retry-after"] == "5"
        assert client.get("/api/games/somegame").status_code == 503
        assert client.get("/api/players/Ada").status_code == 503
        mine = client.get("/api/me/games")  # the session cookie is read from the database
        assert mine.status_code == 503 and mine.json() == {"detail": UNREACHABLE}
        client.cookies.clear()
        account = client.post("/api/accounts", json={"name": "Bo", "password": "correct horse"})
        assert account.status_code == 503 and account.json() == {"detail": UNREACHABLE}
        created = client.post("/api/games", json={"game": "tyrus", "players": 2})
        assert created.status_code == 503 and UNREACHABLE in created.json()["detail"]
        action = client.post(f"/api/games/{played}/actions", json=move)
        assert action.status_code == 503, action.text
        assert action.json()["detail"] == (
            f"the action could not be stored, so it was not played: {UNREACHABLE}"
        )
        again = client.post(f"/api/games/{played}/actions", json=move)  # dropped from memory
        assert again.status_code == 503 and again.json() == {"detail": UNREACHABLE}
        for game_id in (played, watched, "somegame"):
            code, reason = closed_with(client, f"/api/games/{game_id}/ws")
            assert (code, reason) == (4503, UNREACHABLE)

    records = caplog.records
    said = [r.getMessage() for r in records]
    assert not [r for r in records if r.exc_info], said  # no traceback
    assert sum("the database cannot be reached" in line for line in said) == 1, said
    for line in said:
        assert "parameters" not in line.lower() and "[SQL" not in line, line
        for secret in secrets:
            assert secret not in line and hash_token(secret) not in line, line


def test_an_outage_is_logged_once_per_burst(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    outage = Outage(quiet=60.0, clock=lambda: now[0])
    caplog.set_level(logging.ERROR, logger="machiavel.server")
    for moment in (0.0, 1.0, 50.0, 100.0):  # never 60 s without a failure: one burst
        now[0] = moment
        outage.report(ConnectionError("refused"))
    now[0] = 200.0  # a new burst
    outage.report(ConnectionError("refused"))
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2 and outage.failures == 5
    assert said[1].endswith("(3 more failures since the last such line)")


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://postgres@127.0.0.1:{port}/machiavel",  # nothing listens there
        "nonsense://somewhere",
        "postgresql://postgres:secret@127.0.0.1:notaport/machiavel",
        "{tmp}/no/such/directory/machiavel.db",
    ],
)
def test_a_database_that_cannot_be_opened_is_one_sentence(
    url: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    database = url.format(port=free_port(), tmp=tmp_path)
    assert serve("127.0.0.1", free_port(), database, bot_workers=1) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("machiavel: cannot open the database ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "secret" not in err


def test_a_logged_database_error_carries_no_stored_value(any_database_url: str) -> None:
    """PostgreSQL quotes the key of a duplicate in its DETAIL line, and SQLAlchemy the
    statement: ``describe`` keeps neither (nor any parameter)."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy.exc import IntegrityError

    from machiavel.server.outage import describe
    from machiavel.server.storage import Repository

    repository = Repository(any_database_url)
    try:
        account = repository.create_account("Ada", "ada", "a password hash", None)
        session_hash = hash_token("a session token")
        expires = datetime.now(UTC) + timedelta(days=1)
        repository.create_session(session_hash, account.id, expires)
        with pytest.raises(IntegrityError) as refused:
            repository.create_session(session_hash, account.id, expires)
    finally:
        repository.close()
    if any_database_url.startswith("postgresql"):  # the raw error quotes the hash
        assert session_hash in str(refused.value)
    assert "parameters hidden" in str(refused.value)  # the engine hides them
    line = describe(refused.value)
    assert line.startswith("IntegrityError: ") and "\n" not in line
    assert session_hash not in line and "INSERT" not in line and "a session token" not in line
