"""What makes the server fast must not change what it says: JSON text, the garbage
collector, actions played past the framework."""

from __future__ import annotations

import gc
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from machiavel.server import app as app_module
from machiavel.server import jsontext
from machiavel.server.run import GC_THRESHOLDS, tune_garbage_collector

# Objects a middle collection may have to walk: the event loop stands still meanwhile.
MIDDLE_COLLECTION_BOUND = 20_000


@pytest.mark.parametrize(
    "value",
    [
        {"version": 3, "view": {"hand": ["S1", "M10"], "scores": [1.0, 0.5]}, "winners": []},
        {"name": "Zoé ☕", "log": ['a "quoted" line\n'], "none": None, "yes": True},
        {"big": 2**70, "negative": -(2**65)},  # over 64 bits: the standard library writes it
        {1: "an integer key", "nested": {2: [3]}},
    ],
)
def test_json_text_has_the_values_the_standard_library_would_give(value: object) -> None:
    text = jsontext.dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert jsontext.loads(text) == json.loads(text)
    assert " " not in jsontext.dumps({"a": [1, 2]})  # compact, as before


def test_json_refusals_are_the_standard_librarys_error() -> None:
    for text in ("not json", '{"a": ', ""):
        with pytest.raises(json.JSONDecodeError):
            jsontext.loads(text)


def test_the_server_collects_garbage_less_often_and_never_its_modules() -> None:
    before = gc.get_threshold()
    try:
        tune_garbage_collector()
        assert gc.get_threshold() == GC_THRESHOLDS
        young, middle, _ = GC_THRESHOLDS
        assert young * middle <= MIDDLE_COLLECTION_BOUND  # short stops of the event loop
        assert gc.get_freeze_count() > 0  # what was loaded is out of the collector's sight
        garbage: list[object] = []
        garbage.append(garbage)  # a cycle made afterwards is still found and freed
        del garbage
        assert gc.collect() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_actions_played_past_the_framework_are_answered_as_the_route_would(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/games", json={"game": "tyrus", "players": 2}).json()
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    mover = client.get(f"/api/games/{game_id}").json()["to_move"][0]
    legal = client.get(f"/api/games/{game_id}", params={"token": tokens[mover]}).json()
    first = legal["legal_actions"][0]
    played = client.post(
        f"/api/games/{game_id}/actions",
        json={"token": tokens[mover], "action": first, "version": 0},
    )
    assert played.status_code == 200 and played.json()["version"] == 1
    requests: list[tuple[str, dict[str, Any]]] = [
        (game_id, {"token": tokens[mover], "action": first, "version": 0}),  # a retry: 200
        (game_id, {"token": tokens[mover], "action": "S1 citadel", "version": 0}),  # 409
        (game_id, {"token": tokens[1 - mover], "action": "Z9 nowhere", "version": 1}),  # 400
        (game_id, {"token": "not a token", "action": first, "version": 1}),  # 403
        (game_id, {"action": first, "version": 1}),  # a spectator: 403
        (game_id, {"token": None, "action": first, "version": 1}),  # 403
        ("nosuchgame", {"token": tokens[0], "action": first, "version": 1}),  # 404
        ("bad id!", {"token": tokens[0], "action": first, "version": 1}),  # 404
    ]
    for target, body in requests:
        fast = client.post(f"/api/games/{target}/actions", json=body)
        with monkeypatch.context() as routed_only:  # every body goes to FastAPI's route
            routed_only.setattr(app_module, "_well_formed_action", lambda _body: None)
            routed = client.post(f"/api/games/{target}/actions", json=body)
        assert (fast.status_code, fast.json()) == (routed.status_code, routed.json()), body
        assert fast.headers["content-type"] == "application/json"
    assert client.get(f"/api/games/{game_id}").json()["version"] == 1  # nothing else played


@pytest.mark.parametrize(
    "body",
    [
        b'{"action": "S1 citadel", "version": true}',  # a boolean is no version
        b'{"action": "S1 citadel", "version": 0, "extra": 1}',
        b'{"action": "S1 citadel", "version": 123456789012345678901234567890}',  # past orjson
        b"[1, 2]",
        b"not json",
    ],
)
def test_bodies_the_route_would_refuse_go_to_the_route(client: TestClient, body: bytes) -> None:
    created = client.post("/api/games", json={"game": "tyrus", "players": 2}).json()
    answer = client.post(
        f"/api/games/{created['id']}/actions",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert 400 <= answer.status_code < 500 and answer.json()["detail"]
    assert client.get(f"/api/games/{created['id']}").json()["version"] == 0


def masked(answer: Any) -> Any:
    """An answer with what differs between two tables made alike (ids, tokens) masked."""
    if isinstance(answer, dict):
        return {k: "*" if k in ("id", "token") else masked(v) for k, v in answer.items()}
    if isinstance(answer, list):
        return [masked(item) for item in answer]
    return answer


@pytest.mark.parametrize(
    "body",
    [
        b'{"game": "tyrus", "players": 2}',  # 201
        b'{"game": "djambi", "listed": false, "pace": "turn-based"}',  # 201
        b'{"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}',
        b'{"game": "tyrus", "players": 2, "seed": 3}',  # 400: two people, a chosen seed
        b'{"game": "nosuch"}',  # 400
        b'{"game": "tyrus", "players": 9}',  # 400
        b'{"game": "tyrus", "players": "2"}',  # 422: a string is no number
        b'{"game": "tyrus", "extra": 1}',  # 422
        b'{"game": "tyrus", "seats": [{"kind": "robot"}]}',  # 422
        b'{"game": "tyrus", "players": 2.0}',  # 422: strict, in JSON as in Python
        b'{"game": "tyrus", "listed": 1}',  # 422
        b'{"game": "tyrus", "players": 2, "abandon_after": 0}',  # 422
        b'{"game": "tyrus", "players": 2, "game": "djambi"}',  # the last one counts
        b'{"game": "tyrus", "options": {"memory_mode": true}, "clock": {"kind": "live"}}',
        b'{"game": "tyrus", "seats": [{"kind": "bot"}, {"kind": "bot"}], "seed": 18446744073709551615}',
        b'{"game": "tyrus", "players": NaN}',  # 400 or 422, as the route says
        b"",  # 422: no body
        b"[1, 2]",  # 422
        b"not json",  # 400
    ],
)
def test_tables_made_past_the_framework_are_answered_as_the_route_would(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, body: bytes
) -> None:
    decided: list[bool] = []
    visitor_creates = app_module._visitor_creates

    def deciding(scope: Any) -> bool:
        decided.append(visitor_creates(scope))
        return decided[-1]

    monkeypatch.setattr(app_module, "_visitor_creates", deciding)
    headers = {"content-type": "application/json"}
    fast = client.post("/api/games", content=body, headers=headers)
    assert decided == [True]  # it went past the framework (or back to the route: refused)
    with monkeypatch.context() as routed_only:  # every table goes to FastAPI's route
        routed_only.setattr(app_module, "_visitor_creates", lambda _scope: False)
        routed = client.post("/api/games", content=body, headers=headers)
    assert fast.status_code == routed.status_code, body
    assert masked(fast.json()) == masked(routed.json()), body
    assert fast.headers["content-type"] == "application/json"
    if fast.status_code == 201:
        for made in (fast.json(), routed.json()):  # both tables are there, as answered
            token = made["seats"][0]["token"]
            seen = client.get(f"/api/games/{made['id']}", params={"token": token}).json()
            assert (seen["id"], seen["game"]) == (made["id"], made["game"])  # a bot may move


@pytest.mark.parametrize(
    ("change", "fast"),
    [
        ({}, True),
        ({"headers": [(b"content-type", b"application/json; charset=utf-8")]}, True),
        ({"headers": [(b"cookie", b"machiavel_session=x")]}, False),  # the route reads it
        ({"headers": [(b"authorization", b"Bearer x")]}, False),
        ({"headers": [(b"content-type", b"text/plain")]}, False),
        ({"method": "GET"}, False),
        ({"path": "/api/games/"}, False),
        ({"type": "websocket"}, False),
    ],
)
def test_only_a_visitors_table_is_made_past_the_framework(
    change: dict[str, Any], fast: bool
) -> None:
    scope: dict[str, Any] = {"type": "http", "method": "POST", "path": "/api/games", "headers": []}
    assert app_module._visitor_creates({**scope, **change}) is fast


def first_word(client: TestClient, path: str) -> tuple[Any, ...]:
    """What a socket opened at ``path`` hears first: a message, or its close with why."""
    try:
        with client.websocket_connect(path) as socket:
            return ("message", socket.receive_json())
    except WebSocketDisconnect as closed:
        return ("closed", closed.code, closed.reason)


def test_sockets_opened_past_the_framework_are_served_as_the_route_would(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/games", json={"game": "tyrus", "players": 2}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    client.get(f"/api/games/{game_id}", params={"token": token})  # the seat is taken
    paths = [
        f"/api/games/{game_id}/ws?token={token}",  # the seat's state
        f"/api/games/{game_id}/ws",  # a spectator's
        f"/api/games/{game_id}/ws?token=not-a-token",  # closed: 4403
        f"/api/games/{game_id}/ws?log_from=-1",  # closed: a sentence
        "/api/games/nosuchgame/ws",  # closed: 4404
    ]
    served = []
    for path in paths:
        fast = first_word(client, path)
        with monkeypatch.context() as routed_only:  # every socket goes to FastAPI's route
            routed_only.setattr(app_module, "_socket_route", lambda _scope: None)
            routed = first_word(client, path)
        assert fast == routed, path
        served.append(fast[:2])
    assert served[0][0] == served[1][0] == "message"
    assert [word[1] for word in served[2:]] == [4403, 1008, 4404]


@pytest.mark.parametrize(
    "path", ["/api/games/x/ws/more", "/api/games//ws", "/api/games/x/socket", "/ws"]
)
def test_other_socket_paths_are_left_to_the_router(path: str) -> None:
    scope = {"type": "websocket", "path": path}
    assert app_module._socket_route(scope) is None
    assert app_module._socket_route({"type": "http", "path": "/api/games/x/ws"}) is None
    assert app_module._socket_route({"type": "websocket", "path": "/api/games/x/ws"}) == "x"
