"""WebSocket pushes: each seat its own view, spectators the public one, catch-up on reconnect."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from support.seeds import dealt
from support.waiting import STUCK


def receive(ws: WebSocketTestSession, seconds: float = STUCK) -> dict[str, Any]:
    """The next message, failing (not hanging) if none comes in time."""
    box: list[Any] = []

    def get() -> None:
        try:
            box.append(ws.receive_json())
        except BaseException as error:  # handed to the test's thread
            box.append(error)

    threading.Thread(target=get, daemon=True).start()
    for _ in range(int(seconds * 100)):
        if box:
            break
        threading.Event().wait(0.01)
    assert box, "no message came in time"
    if isinstance(box[0], BaseException):
        raise box[0]
    message: dict[str, Any] = box[0]
    return message


def create(
    client: TestClient, seats: list[dict[str, Any]], seed: int | None = None
) -> dict[str, Any]:
    """A Tyrus table; ``seed`` only for one person (the server draws it otherwise)."""
    chosen = {"seed": seed} if seed is not None else {}
    answer = client.post("/api/games", json={"game": "tyrus", "seats": seats, **chosen})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def get(
    client: TestClient, game_id: str, token: str | None = None, log_from: int = 0
) -> dict[str, Any]:
    params: dict[str, Any] = {"token": token} if token else {}
    if log_from:
        params["log_from"] = log_from
    state: dict[str, Any] = client.get(f"/api/games/{game_id}", params=params).json()
    return state


def ws_path(game_id: str, token: str | None = None) -> str:
    return f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")


def play_first(client: TestClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    mover = get(client, game_id)["to_move"][0]
    mine = get(client, game_id, tokens[mover])
    answer = client.post(
        f"/api/games/{game_id}/actions",
        json={
            "token": tokens[mover],
            "action": mine["legal_actions"][0],
            "version": mine["version"],
        },
    )
    assert answer.status_code == 200, answer.text
    played: dict[str, Any] = answer.json()
    return played


def test_each_connection_gets_its_own_view_on_every_change(
    client: TestClient, sqlite_url: str
) -> None:
    created = create(client, [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with (
        client.websocket_connect(ws_path(game_id, tokens[0])) as zero,
        client.websocket_connect(ws_path(game_id, tokens[1])) as one,
        client.websocket_connect(ws_path(game_id)) as spectator,
    ):
        sockets: list[tuple[WebSocketTestSession, str | None, int | None]] = [
            (zero, tokens[0], 0),
            (one, tokens[1], 1),
            (spectator, None, None),
        ]
        reference = dealt(sqlite_url, game_id)
        for ws, token, viewer in sockets:
            first = receive(ws)  # the state at once
            assert first == get(client, game_id, token)
            assert first["view"] == reference.view(viewer)
        for version in range(1, 5):
            mover = reference.to_move[0]
            played = play_first(client, game_id, tokens)
            action = client.app.state.service.repo.load(game_id)[1][-1][1]  # type: ignore[attr-defined]
            reference.apply(mover, action)
            assert played["version"] == version
            for ws, token, viewer in sockets:
                pushed = receive(ws)
                assert pushed == get(client, game_id, token, log_from=version - 1)
                assert len(pushed["log"]) == 1
                assert pushed["version"] == version and pushed["player"] == viewer
                assert pushed["view"] == reference.view(viewer)
                expected = reference.legal_actions(viewer) if viewer is not None else []
                assert pushed["legal_actions"] == expected
        assert reference.view(0) != reference.view(1) != reference.view(None)


def test_a_reconnecting_client_catches_up_at_once(client: TestClient) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with client.websocket_connect(ws_path(game_id, tokens[1])) as ws:
        assert receive(ws)["version"] == 0
    for _ in range(3):
        play_first(client, game_id, tokens)
    with client.websocket_connect(ws_path(game_id, tokens[1])) as ws:
        caught_up = receive(ws)
        assert caught_up["version"] == 3
        assert caught_up == get(client, game_id, tokens[1])
        assert len(caught_up["log"]) == 3
        play_first(client, game_id, tokens)
        following = receive(ws)  # later pushes carry only the new log lines
        assert following["log_start"] == 3 and len(following["log"]) == 1
    with client.websocket_connect(ws_path(game_id, tokens[1]) + "&log_from=2") as ws:
        resumed = receive(ws)
        assert resumed["log_start"] == 2 and len(resumed["log"]) == 2
    with client.websocket_connect(ws_path(game_id, tokens[1]) + "&log_from=99") as ws:
        assert receive(ws)["log_start"] == 0


def test_bot_moves_are_pushed(client: TestClient) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "bot", "level": "medium"}], seed=4)
    game_id, token = created["id"], created["seats"][0]["token"]
    with client.websocket_connect(ws_path(game_id, token)) as ws:
        state = receive(ws)
        while state["version"] < 6:
            if 0 in state["to_move"]:
                answer = client.post(
                    f"/api/games/{game_id}/actions",
                    json={
                        "token": token,
                        "action": state["legal_actions"][0],
                        "version": state["version"],
                    },
                )
                assert answer.status_code == 200, answer.text
            state = receive(ws)
            assert state["player"] == 0 and state["view"]["hand"] is not None
        assert all(
            tile["tile"] is None
            for b in state["view"]["buildings"]
            for tile in b["tiles"]
            if tile["player"] == 1
        )


@pytest.mark.parametrize(
    ("token", "game", "code", "words"),
    [
        ("forged", True, 4403, "does not open"),
        (None, False, 4404, "no game"),
    ],
)
def test_bad_tokens_and_unknown_games_close_the_socket(
    client: TestClient, token: str | None, game: bool, code: int, words: str
) -> None:
    game_id = create(client, [{"kind": "human"}, {"kind": "human"}])["id"] if game else "nosuch"
    with (
        client.websocket_connect(ws_path(game_id, token)) as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        receive(ws)
    assert closed.value.code == code and words in closed.value.reason


def test_taking_a_seat_closes_the_sockets_of_its_old_token(client: TestClient) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "human"}])
    game_id, invite = created["id"], created["seats"][0]["token"]
    with (
        client.websocket_connect(ws_path(game_id, invite)) as old,
        client.websocket_connect(ws_path(game_id)) as spectator,
    ):
        receive(old)
        first = receive(spectator)
        assert first["seats"][0]["claimed"]  # its invite token was used: no longer free
        joined = client.post(f"/api/games/{game_id}/join", json={"name": "Ada", "token": invite})
        assert joined.status_code == 200, joined.text
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(old)
        assert closed.value.code == 4403 and "Ada" in closed.value.reason
        assert receive(spectator)["seats"][0]["name"] == "Ada"  # seats changed: pushed
        with client.websocket_connect(ws_path(game_id, joined.json()["token"])) as new:
            assert receive(new)["player"] == 0


def test_actions_may_come_over_the_socket(client: TestClient) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "human"}])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    mover = get(client, game_id)["to_move"][0]
    with (
        client.websocket_connect(ws_path(game_id, tokens[mover])) as ws,
        client.websocket_connect(ws_path(game_id)) as spectator,
    ):
        state = receive(ws)
        receive(spectator)
        ws.send_json({"action": state["legal_actions"][0], "version": 0})
        assert receive(ws)["version"] == 1
        assert receive(spectator)["version"] == 1
        # another action at the old version (the same one would be a duplicate: no answer)
        ws.send_json({"action": state["legal_actions"][1], "version": 0})
        stale = receive(ws)["error"]
        assert stale["status"] == 409 and stale["state"]["version"] == 1
        for bad in ("not json", "[1]", '{"action": 3, "version": 1}'):
            ws.send_text(bad)
            assert receive(ws)["error"]["status"] == 400
        spectator.send_json({"action": "S1 citadel", "version": 1})
        assert receive(spectator)["error"]["status"] == 403
    assert len(client.app.state.service.repo.load(game_id)[1]) == 1  # type: ignore[attr-defined]
