"""A WebSocket's query values are checked as HTTP checks them: a refused ``log_from`` (not
written in 0-9, negative, absurdly long) closes the socket with 1008 and a sentence."""

from __future__ import annotations

import logging
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

WS_POLICY = 1008


def new_table(client: TestClient) -> str:
    seats = [{"kind": "human"}, {"kind": "human"}]
    answer = client.post("/api/games", json={"game": "tyrus", "seats": seats})
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    return game_id


@pytest.mark.parametrize(
    ("log_from", "reason"),
    [
        (
            "\u0663",
            "'\u0663' is not a log line number (log_from): write numbers with the digits 0 to 9",
        ),
        (
            "\uff13",
            "'\uff13' is not a log line number (log_from): write numbers with the digits 0 to 9",
        ),
        ("-1", "log_from must be 0 or more, not -1"),
        ("1.5", "'1.5' is not a log line number (log_from): write numbers with the digits 0 to 9"),
        ("", "'' is not a log line number (log_from)"),
        (
            "9" * 5000,
            "'99999999999999999999'... is not a log line number (log_from): it is far too large",
        ),
    ],
)
def test_a_refused_log_from_closes_the_socket_with_a_sentence(
    client: TestClient, log_from: str, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    game_id = new_table(client)
    path = f"/api/games/{game_id}/ws?log_from={quote(log_from)}"
    with client.websocket_connect(path) as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()  # nothing is sent before the close
    assert (closed.value.code, closed.value.reason) == (WS_POLICY, reason)
    assert not [r for r in caplog.records if r.exc_info]
    # The same value over HTTP is refused too; a good one opens the socket as ever.
    assert client.get(f"/api/games/{game_id}", params={"log_from": log_from}).status_code in (
        400,
        422,
    )
    with client.websocket_connect(f"/api/games/{game_id}/ws?log_from=0") as ws:
        assert ws.receive_json()["version"] == 0


def test_a_repeated_query_name_counts_with_its_last_value(client: TestClient) -> None:
    """The socket reads its query as FastAPI reads a declared one: the last value of a
    name given twice, a seat token included."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = client.post("/api/games", json={"game": "tyrus", "seats": seats}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    path = f"/api/games/{game_id}/ws?log_from=-1&log_from=0&token=wrong&token={token}"
    with client.websocket_connect(path) as ws:
        state = ws.receive_json()
    assert (state["version"], state["player"], state["log_start"]) == (0, 0, 0)
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={token}&token=wrong") as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_text()
    assert closed.value.code == 4403
