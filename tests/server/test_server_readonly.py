"""Stored games that no longer replay are served read-only, and break nothing else.

Games are stored here by inserting rows into the database directly, as an older server
(or older rules) left them: a stored action the game now refuses, a game stored under
another rules version, a setup the game no longer accepts, a game the server lacks.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from starlette.websockets import WebSocketDisconnect

import machiavel
from machiavel.core.contract import Setup
from machiavel.server.live import hash_token
from machiavel.server.service import WS_READ_ONLY
from machiavel.server.storage import ActionRow, GameRow, Repository, SeatRow
from support.waiting import STUCK, wait_until

Client = Callable[..., AbstractContextManager[TestClient]]  # the client_on fixture
TYRUS = machiavel.game("tyrus")
DJAMBI = machiavel.game("djambi")
TOKEN = "the-token-of-seat-0"


def store(
    repository: Repository,
    game_id: str,
    game: str,
    actions: list[tuple[int, str]],
    *,
    players: int = 2,
    options: dict[str, Any] | None = None,
    rules_version: int = 1,
    is_over: bool = False,
) -> None:
    """A game as rows: seat 0 a person (``TOKEN``), the others easy bots."""
    now = datetime.now(UTC)
    with repository.engine.begin() as conn:
        conn.execute(
            insert(GameRow).values(
                id=game_id,
                game=game,
                players=players,
                seed=5,
                options=options if options is not None else {},
                rules_version=rules_version,
                listed=True,
                version=len(actions),
                is_over=is_over,
                created_at=now,
                updated_at=now,
            )
        )
        seats = [
            {"kind": "human", "level": None, "name": "Ada", "token_hash": hash_token(TOKEN)},
            *[{"kind": "bot", "level": "easy", "name": "bot", "token_hash": None}] * (players - 1),
        ]
        conn.execute(
            insert(SeatRow),
            [{"game_id": game_id, "player": p, "claimed": True, **s} for p, s in enumerate(seats)],
        )
        if actions:
            conn.execute(
                insert(ActionRow),
                [
                    {"game_id": game_id, "number": n, "player": p, "action": a}
                    for n, (p, a) in enumerate(actions, start=1)
                ],
            )


def tyrus_actions(legal: int) -> list[tuple[int, str]]:
    """``legal`` actions of a Tyrus game of seed 5, then one it refuses, then one more."""
    state = TYRUS.new(2, 5)
    actions = []
    for _ in range(legal):
        player = state.to_move[0]
        action = state.legal_actions(player)[0]
        state.apply(player, action)
        actions.append((player, action))
    player = state.to_move[0]
    return [*actions, (player, "Z9 nowhere"), (1 - player, "S1 citadel")]


def get(client: TestClient, game_id: str, **params: Any) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", params=params)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


@pytest.fixture
def stored_games(sqlite_url: str) -> str:
    repository = Repository(sqlite_url)
    try:
        options = dict(TYRUS.options)
        store(repository, "broken", "tyrus", tyrus_actions(3), options=options)
        store(repository, "old-rules", "tyrus", tyrus_actions(2), options=options, rules_version=0)
        current = DJAMBI.rules_version
        store(
            repository,
            "bad-setup",
            "djambi",
            [],
            players=4,
            options={"x": 1},
            rules_version=current,
        )
        store(repository, "gone-game", "chess", [(0, "e2-e4")])
        store(
            repository,
            "healthy",
            "djambi",
            [],
            players=4,
            options=DJAMBI.options,
            rules_version=current,
        )
    finally:
        repository.close()
    return sqlite_url


def test_games_that_no_longer_replay_are_shown_read_only(
    client_on: Client, stored_games: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="machiavel.server")
    with client_on(stored_games) as client:
        # The server started, and resumed the bots of the game that replays.
        deadline = time.monotonic() + STUCK  # only a stuck test gets there
        while get(client, "healthy")["version"] < 2:
            assert time.monotonic() < deadline, "the bots of the healthy game did not resume"
            time.sleep(0.02)
        # The healthy game may resume before the others are looked at: wait for them all.
        service = client.app.state.service  # type: ignore[attr-defined]
        wait_until(service.resumed, "the server to look at every stored game")
        # One line each for the others, at start: they have bots, they are not resumed.
        said = [r.getMessage() for r in caplog.records if "not resumed" in r.getMessage()]
        unreadable = ["broken", "old-rules", "bad-setup", "gone-game"]
        assert sorted(line.split()[1] for line in said) == sorted(unreadable)

        spectator = get(client, "broken")
        assert spectator["status"] == "read-only"
        assert spectator["message"] == (
            "this game can no longer be replayed from what is stored: "
            "action #4, by player 1, is illegal"
        )
        assert spectator["version"] == 5 and spectator["replayed"] == 3
        assert spectator["view"]["version"] == 3 and len(spectator["log"]) == 3
        assert len(spectator["log_fr"]) == 3
        assert spectator["to_move"] == [] and spectator["legal_actions"] == []
        assert spectator["player"] is None and not spectator["is_over"]
        assert spectator["setup"] == {"players": 2, "options": TYRUS.options, "rules_version": 1}
        assert "seed" not in spectator["setup"]  # the game is not over: it tells hidden tiles
        assert spectator["actions"] == [[0, None], [1, None], [0, None], [1, None], [0, None]]
        seat = get(client, "broken", token=TOKEN)
        assert seat["player"] == 0
        stored = tyrus_actions(3)
        assert seat["actions"] == [[p, a if p == 0 else None] for p, a in stored]
        replayed = TYRUS.replay(Setup("tyrus", 2, 5, TYRUS.options), stored[:3])
        assert seat["view"] == json.loads(json.dumps(replayed.view(0)))
        assert get(client, "broken", token=TOKEN, log_from=2)["log"] == seat["log"][2:]
        assert client.get("/api/games/broken", params={"log_from": 9}).status_code == 400
        assert client.get("/api/games/broken", params={"token": "wrong"}).status_code == 403

        old = get(client, "old-rules")
        assert old["message"] == (
            "this game was stored under rules version 0 of Tyrus (this server plays "
            "version 1) and can no longer be replayed: action #3, by player 0, is illegal"
        )
        assert old["current_rules_version"] == 1 and old["setup"]["rules_version"] == 0
        bad = get(client, "bad-setup")
        assert bad["view"] is None and bad["replayed"] == 0 and bad["log"] == []
        assert bad["message"].startswith(
            "this game can no longer be replayed from what is stored: its setup is no longer "
            "valid: Djambi has no option 'x'"
        )
        gone = get(client, "gone-game")
        assert (
            gone["message"]
            == "this game can no longer be replayed: this server has no game 'chess'"
        )
        assert gone["current_rules_version"] is None and gone["actions"] == [[0, None]]

        # Nothing may be played in it: 410 with the message (403 for a wrong token).
        body = {"token": TOKEN, "action": "S1 citadel", "version": 5}
        answer = client.post("/api/games/broken/actions", json=body)
        assert answer.status_code == 410 and answer.json() == {"detail": spectator["message"]}
        wrong = client.post("/api/games/broken/actions", json={**body, "token": "wrong"})
        assert wrong.status_code == 403
        assert client.post("/api/games/broken/join", json={"name": "Bo"}).status_code == 410
        assert client.get("/api/games/broken/replay").status_code == 410

        # A WebSocket gets what can be shown, then is closed for good.
        with (
            client.websocket_connect(f"/api/games/broken/ws?token={TOKEN}") as ws,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            pushed = ws.receive_json()
            assert pushed["status"] == "read-only" and pushed["player"] == 0
            ws.receive_text()
        assert closed.value.code == WS_READ_ONLY
        assert closed.value.reason.startswith("this game can no longer be replayed")

        # The lobby flags them; the others are listed as ever.
        lobby = {g["id"]: g for g in client.get("/api/games?status=all").json()["games"]}
        for game_id in unreadable:
            entry = lobby[game_id]
            assert entry["status"] == "read-only" and entry["open_seats"] == []
            assert entry["message"] == get(client, game_id)["message"]
        assert lobby["healthy"]["status"] == "running" and lobby["healthy"]["message"] is None

        # Other games are played as ever.
        created = client.post(
            "/api/games", json={"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "human"}]}
        ).json()
        mover = get(client, created["id"])["to_move"][0]
        token = created["seats"][mover]["token"]
        action = get(client, created["id"], token=token)["legal_actions"][0]
        move = {"token": token, "action": action, "version": 0}
        assert client.post(f"/api/games/{created['id']}/actions", json=move).status_code == 200
        assert get(client, "healthy")["version"] >= 2
    # The line each read-only game got in the log was its only one.
    assert sum("broken" in r.getMessage() for r in caplog.records) == 1
