"""The chat of a table and "play again" (docs/server.md, "Chat" and "Play again").

Chat: players write in the players' channel, spectators read it and write only in theirs
(which players read once the game is over); 1 to 500 characters; a rate limit (429 with
a sentence); text kept verbatim (never HTML, never escaped by the server); stored (a
restart keeps it), paged back, shown in the replay at the version it was written;
read-only games' chat read, not written. Rematch: seats rotated, same options and bots,
made once, pushed to the old game's sockets, only for a seated player of a finished game.
Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from starlette.testclient import WebSocketTestSession

import machiavel
from machiavel.server.accounts import COOKIE, TEST_COST
from machiavel.server.chat import ChatLimits
from machiavel.server.live import hash_token
from machiavel.server.storage import ActionRow, ChatMessageRow, GameRow, Repository, SeatRow
from support.waiting import STUCK

Client = Callable[..., AbstractContextManager[TestClient]]
SITE = "http://testserver"
PASSWORD = "correct horse"
HTML = '<img src=x onerror=alert(1)> & <b>bold</b> "quoted" &amp;'


@pytest.fixture
def client(client_on: Client, any_database_url: str) -> Iterator[TestClient]:
    with client_on(any_database_url, password_cost=TEST_COST) as opened:
        yield opened


def receive(ws: WebSocketTestSession, seconds: float = STUCK) -> dict[str, Any]:
    """The next message, failing (not hanging) if none comes in time."""
    box: list[Any] = []
    done = threading.Event()

    def get() -> None:
        try:
            box.append(ws.receive_json())
        except BaseException as error:  # handed to the test's thread
            box.append(error)
        done.set()

    threading.Thread(target=get, daemon=True).start()
    assert done.wait(seconds), "no message came in time"
    if isinstance(box[0], BaseException):
        raise box[0]
    message: dict[str, Any] = box[0]
    return message


def next_chat(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next chat push on a socket (state pushes before it are skipped)."""
    while True:
        message = receive(ws)
        if "chat" in message and "version" not in message:
            chat: dict[str, Any] = message["chat"]
            return chat


def create(client: TestClient, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": "tyrus", "seats": seats, **body})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def two_people(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    created = create(
        client, [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}], **body
    )
    return created["id"], [seat["token"] for seat in created["seats"]]


def chat(client: TestClient, game_id: str, text: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/chat", json={"text": text, **body})


def ws_path(game_id: str, token: str | None = None) -> str:
    return f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")


def play_to_the_end(client: TestClient, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """People play random legal actions (bots their own seats) until the game is over."""
    choose = random.Random(7)
    done = threading.Event()
    while True:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if state["is_over"]:
            return state
        people = [p for p in state["to_move"] if p in tokens]
        if not people:  # a bot thinks: wait on the state, a little at a time
            done.wait(0.01)
            continue
        player = people[0]
        mine = client.get(f"/api/games/{game_id}", params={"token": tokens[player]}).json()
        body = {
            "token": tokens[player],
            "action": choose.choice(mine["legal_actions"]),
            "version": mine["version"],
        }
        answer = client.post(f"/api/games/{game_id}/actions", json=body)
        assert answer.status_code in (200, 409), answer.text  # 409: a bot moved first


# ---- writing and reading --------------------------------------------------------------
def test_players_write_and_everyone_reads_live(client: TestClient) -> None:
    game_id, tokens = two_people(client)
    with (
        client.websocket_connect(ws_path(game_id, tokens[0])) as seat0,
        client.websocket_connect(ws_path(game_id)) as watcher,
    ):
        assert receive(seat0)["chat"] == [] and receive(watcher)["chat"] == []
        answer = chat(client, game_id, "  hello  ", token=tokens[1])
        assert answer.status_code == 200, answer.text
        written = answer.json()
        assert {k: written[k] for k in ("number", "channel", "player", "name", "text")} == {
            "number": 1,
            "channel": "players",
            "player": 1,
            "name": "B",
            "text": "hello",
        }
        assert written["version"] == 0 and written["at"].endswith("Z")
        assert next_chat(seat0) == written and next_chat(watcher) == written
        seat0.send_json({"chat": "hi B"})
        mine = next_chat(seat0)
        assert (mine["number"], mine["player"], mine["name"], mine["text"]) == (2, 0, "A", "hi B")
        assert next_chat(watcher) == mine
    state = client.get(f"/api/games/{game_id}").json()
    assert [m["text"] for m in state["chat"]] == ["hello", "hi B"]


def test_spectators_write_only_in_their_channel_and_players_read_it_at_the_end(
    client: TestClient,
) -> None:
    created = create(client, [{"kind": "human", "name": "A"}, {"kind": "bot", "level": "easy"}])
    game_id, token = created["id"], created["seats"][0]["token"]
    with (
        client.websocket_connect(ws_path(game_id, token)) as seat0,
        client.websocket_connect(ws_path(game_id)) as watcher,
    ):
        receive(seat0), receive(watcher)
        answer = chat(client, game_id, "go left!")
        assert answer.status_code == 200, answer.text
        kibitz = answer.json()
        assert (kibitz["channel"], kibitz["player"], kibitz["name"]) == (
            "spectators",
            None,
            "spectator",
        )
        assert next_chat(watcher) == kibitz
        refused = chat(client, game_id, "psst", channel="players")
        assert refused.status_code == 403
        assert refused.json()["detail"] == "spectators write only in the spectators' channel"
        watcher.send_json({"chat": "psst", "channel": "players"})
        error = receive(watcher)
        while "error" not in error:
            error = receive(watcher)
        assert error["error"]["status"] == 403
        assert chat(client, game_id, "x", token=token, channel="spectators").status_code == 403
        # The player does not get the spectators' message: its next chat push is its own.
        seat0.send_json({"chat": "thinking"})
        assert next_chat(seat0)["text"] == "thinking"
        assert next_chat(watcher)["text"] == "thinking"
    seen = client.get(f"/api/games/{game_id}", params={"token": token}).json()["chat"]
    assert [m["text"] for m in seen] == ["thinking"]
    assert [m["text"] for m in client.get(f"/api/games/{game_id}").json()["chat"]] == [
        "go left!",
        "thinking",
    ]
    page = client.get(f"/api/games/{game_id}/chat", params={"token": token}).json()
    assert [m["text"] for m in page["chat"]] == ["thinking"]
    play_to_the_end(client, game_id, {0: token})
    after = client.get(f"/api/games/{game_id}", params={"token": token}).json()["chat"]
    assert [m["text"] for m in after] == ["go left!", "thinking"]


def test_a_spectator_signed_in_writes_under_the_account_name(client: TestClient) -> None:
    game_id, _ = two_people(client)
    answer = client.post("/api/accounts", json={"name": "Kibitzer", "password": PASSWORD})
    assert answer.status_code == 201
    cookie = answer.cookies[COOKIE]
    client.cookies.clear()
    written = client.post(
        f"/api/games/{game_id}/chat",
        json={"text": "nice"},
        headers={"cookie": f"{COOKIE}={cookie}", "origin": SITE},
    ).json()
    assert (written["channel"], written["name"]) == ("spectators", "Kibitzer")


def test_message_length_and_characters(client: TestClient) -> None:
    game_id, tokens = two_people(
        client,
    )
    client.app.state.service.chat_limits = ChatLimits(burst=100, sustained=100)  # type: ignore[attr-defined]
    seat = {"token": tokens[0]}
    too_long = chat(client, game_id, "é" * 501, **seat)
    assert too_long.status_code == 400
    assert too_long.json()["detail"] == (
        "a chat message has at most 500 characters (this one has 501)"
    )
    assert chat(client, game_id, "é" * 500, **seat).json()["text"] == "é" * 500
    assert chat(client, game_id, "  " + "x" * 500 + "\n ", **seat).status_code == 200  # trimmed
    for empty in ("", "   ", "\n\t"):
        answer = chat(client, game_id, empty, **seat)
        assert answer.status_code == 400
        assert answer.json()["detail"] == "a chat message cannot be empty"
    bell = chat(client, game_id, "ding\x07", **seat)
    assert bell.status_code == 400 and "U+0007" in bell.json()["detail"]
    assert chat(client, game_id, "evil\u202eetxt", **seat).status_code == 400
    kept = chat(client, game_id, "two\r\nlines\tand 🎲 👩‍👩‍👧", **seat).json()
    assert kept["text"] == "two\nlines and 🎲 👩‍👩‍👧"
    assert chat(client, game_id, "x", token="nope").status_code == 403
    assert chat(client, game_id, "x", channel="everyone").status_code == 422
    assert chat(client, "no-such-game", "x").status_code == 404


def test_the_rate_limit_answers_429_with_a_sentence(client: TestClient) -> None:
    # The default burst (5 in 10 seconds), in a window no stall of a busy machine outlasts.
    client.app.state.service.chat_limits = ChatLimits(burst_seconds=3600)  # type: ignore[attr-defined]
    game_id, tokens = two_people(client)
    for n in range(5):
        assert chat(client, game_id, f"m{n}", token=tokens[0]).status_code == 200
    refused = chat(client, game_id, "one more", token=tokens[0])
    assert refused.status_code == 429
    detail = refused.json()["detail"]
    assert detail.startswith("too many chat messages (5 in 3600 seconds): wait ")
    assert chat(client, game_id, "my turn", token=tokens[1]).status_code == 200  # per seat
    with client.websocket_connect(ws_path(game_id, tokens[0])) as seat0:
        receive(seat0)
        seat0.send_json({"chat": "and again"})
        message = receive(seat0)
        assert message["error"]["status"] == 429
        assert message["error"]["detail"].startswith("too many chat messages")
    texts = [m["text"] for m in client.get(f"/api/games/{game_id}/chat").json()["chat"]]
    assert texts == ["m0", "m1", "m2", "m3", "m4", "my turn"]


def test_html_stays_text_verbatim(client: TestClient) -> None:
    game_id, tokens = two_people(client)
    with client.websocket_connect(ws_path(game_id)) as watcher:
        receive(watcher)
        assert chat(client, game_id, HTML, token=tokens[0]).json()["text"] == HTML
        assert next_chat(watcher)["text"] == HTML
    assert client.get(f"/api/games/{game_id}").json()["chat"][0]["text"] == HTML
    assert client.get(f"/api/games/{game_id}/chat").json()["chat"][0]["text"] == HTML
    stored = client.app.state.service.repo.chat_page(game_id, ["players"], None, 10)  # type: ignore[attr-defined]
    assert stored[0].text == HTML


def test_messages_survive_a_restart_and_numbers_go_on(
    client_on: Client, any_database_url: str
) -> None:
    with client_on(any_database_url) as first:
        game_id, tokens = two_people(first)
        chat(first, game_id, "before", token=tokens[0])
        chat(first, game_id, "kibitz")
    with client_on(any_database_url) as second:
        assert [m["text"] for m in second.get(f"/api/games/{game_id}").json()["chat"]] == [
            "before",
            "kibitz",
        ]
        assert chat(second, game_id, "after", token=tokens[1]).json()["number"] == 3


def test_pages_go_back(client_on: Client, any_database_url: str) -> None:
    with client_on(any_database_url, chat_limits=ChatLimits(burst=500, sustained=500)) as client:
        game_id, tokens = two_people(client)
        for n in range(1, 131):
            assert chat(client, game_id, f"m{n}", token=tokens[n % 2]).status_code == 200
        whole = client.get(f"/api/games/{game_id}").json()["chat"]
        assert [m["number"] for m in whole] == list(range(31, 131))
        path = f"/api/games/{game_id}/chat"
        page = client.get(path).json()
        assert [m["number"] for m in page["chat"]] == list(range(81, 131)) and page["more"]
        page = client.get(path, params={"before": 81, "limit": 50}).json()
        assert [m["number"] for m in page["chat"]] == list(range(31, 81)) and page["more"]
        page = client.get(path, params={"before": 31, "limit": 100}).json()
        assert [m["number"] for m in page["chat"]] == list(range(1, 31)) and not page["more"]
        assert client.get(path, params={"limit": 0}).status_code == 400
        assert client.get(path, params={"limit": 101}).status_code == 400
        assert client.get(path, params={"before": 0}).status_code == 400


def test_the_replay_shows_the_chat_with_the_version_of_each_message(client: TestClient) -> None:
    created = create(client, [{"kind": "human", "name": "A"}, {"kind": "bot", "level": "easy"}])
    game_id, token = created["id"], created["seats"][0]["token"]
    luck = chat(client, game_id, "good luck", token=token).json()
    mine = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    while 0 not in mine["to_move"]:
        mine = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    body = {"token": token, "action": mine["legal_actions"][0], "version": mine["version"]}
    assert client.post(f"/api/games/{game_id}/actions", json=body).status_code == 200
    later = chat(client, game_id, "hmm", token=token).json()
    assert later["version"] >= mine["version"] + 1  # the bot may have moved too
    watching = chat(client, game_id, "watching").json()
    assert client.get(f"/api/games/{game_id}/replay").status_code == 409
    play_to_the_end(client, game_id, {0: token})
    replay = client.get(f"/api/games/{game_id}/replay", params={"step": 0}).json()
    assert [(m["text"], m["version"], m["channel"]) for m in replay["chat"]] == [
        ("good luck", luck["version"], "players"),
        ("hmm", later["version"], "players"),
        ("watching", watching["version"], "spectators"),
    ]


def test_a_read_only_game_chat_is_read_not_written(
    client_on: Client, any_database_url: str
) -> None:
    repository = Repository(any_database_url)
    now = datetime.now(UTC)
    try:
        with repository.engine.begin() as conn:
            conn.execute(
                insert(GameRow).values(
                    id="broken",
                    game="tyrus",
                    players=2,
                    seed=5,
                    options=dict(machiavel.game("tyrus").options),
                    listed=True,
                    version=1,
                    is_over=False,
                    created_at=now,
                    updated_at=now,
                )
            )
            conn.execute(
                insert(SeatRow),
                [
                    {
                        "game_id": "broken",
                        "player": p,
                        "kind": "human",
                        "name": name,
                        "token_hash": hash_token(f"token-{p}"),
                        "claimed": True,
                    }
                    for p, name in enumerate(["A", "B"])
                ],
            )
            conn.execute(
                insert(ActionRow).values(game_id="broken", number=1, player=0, action="Z9 nowhere")
            )
            conn.execute(
                insert(ChatMessageRow).values(
                    game_id="broken",
                    number=1,
                    channel="players",
                    player=0,
                    name="A",
                    text="before the rules changed",
                    version=0,
                    created_at=now,
                )
            )
    finally:
        repository.close()
    with client_on(any_database_url) as client:
        assert client.get("/api/games/broken").json()["status"] == "read-only"
        page = client.get("/api/games/broken/chat", params={"token": "token-0"}).json()
        assert [m["text"] for m in page["chat"]] == ["before the rules changed"]
        refused = chat(client, "broken", "hello?", token="token-0")
        assert (
            refused.status_code == 410 and "can no longer be replayed" in refused.json()["detail"]
        )
        assert chat(client, "broken", "hello?", token="wrong").status_code == 403


# ---- play again -----------------------------------------------------------------------
def test_a_rematch_rotates_seats_keeps_options_and_bots_and_is_made_once(
    client: TestClient,
) -> None:
    options = dict(machiavel.game("tyrus").options)
    created = create(
        client,
        [{"kind": "human", "name": "A"}, {"kind": "bot", "level": "medium"}],
        options=options,
        listed=False,
        seed=11,
    )
    game_id, token = created["id"], created["seats"][0]["token"]
    rematch = f"/api/games/{game_id}/rematch"
    assert client.post(rematch, json={"token": token}).status_code == 409  # not over
    play_to_the_end(client, game_id, {0: token})
    assert client.post(rematch, json={}).status_code == 403  # a spectator
    assert client.post(rematch, json={"token": "wrong"}).status_code == 403
    with client.websocket_connect(ws_path(game_id)) as watcher:
        assert receive(watcher)["rematch"] is None
        answer = client.post(rematch, json={"token": token})
        assert answer.status_code == 200, answer.text
        made = answer.json()
        assert made["created"] is True and made["player"] == 1 and made["seats"] == []
        pushed = receive(watcher)
        assert pushed == {"rematch": made["id"]}
    service = client.app.state.service  # type: ignore[attr-defined]
    new = service.repo.load(made["id"])[0]
    old = service.repo.load(game_id)[0]
    assert old.rematch == made["id"] and new.rematch_of == game_id
    assert [(s.kind, s.level, s.name) for s in new.seats] == [
        ("bot", "medium", "medium bot"),
        ("human", None, "A"),
    ]
    assert new.options == old.options and new.listed is False and new.seed != old.seed
    state = client.get(f"/api/games/{made['id']}", params={"token": made["token"]}).json()
    assert state["player"] == 1 and state["version"] >= 0
    assert client.get(f"/api/games/{game_id}").json()["rematch"] == made["id"]
    again = client.post(rematch, json={"token": token}).json()
    assert again["id"] == made["id"] and again["created"] is False and again["player"] == 1


def test_a_rematch_between_two_people_invites_the_other(client: TestClient) -> None:
    game_id, tokens = two_people(client)
    play_to_the_end(client, game_id, {0: tokens[0], 1: tokens[1]})
    with client.websocket_connect(ws_path(game_id, tokens[1])) as other:
        receive(other)
        made = client.post(f"/api/games/{game_id}/rematch", json={"token": tokens[0]}).json()
        assert receive(other) == {"rematch": made["id"]}
    assert made["player"] == 1
    invite = made["seats"]
    assert [seat["player"] for seat in invite] == [0]
    new_id = made["id"]
    seats = client.get(f"/api/games/{new_id}").json()["seats"]
    assert [(s["name"], s["claimed"]) for s in seats] == [("B", True), ("A", True)]
    seen = client.get(f"/api/games/{new_id}", params={"token": invite[0]["token"]}).json()
    assert seen["player"] == 0
    # B asks too ("Join the rematch"): the same table, B's seat with a fresh token.
    joined = client.post(f"/api/games/{game_id}/rematch", json={"token": tokens[1]}).json()
    assert joined["id"] == new_id and joined["player"] == 0 and joined["token"]
    assert (
        client.get(f"/api/games/{new_id}", params={"token": joined["token"]}).json()["player"] == 0
    )
    assert (
        client.get(f"/api/games/{new_id}", params={"token": invite[0]["token"]}).status_code == 403
    )


def test_a_rematch_between_accounts_keeps_their_seats_and_rating(client: TestClient) -> None:
    cookies = {}
    for name in ("Ada", "Bob"):
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201
        cookies[name] = {"cookie": f"{COOKIE}={answer.cookies[COOKIE]}", "origin": SITE}
        client.cookies.clear()
    created = client.post(
        "/api/games", json={"game": "tyrus", "players": 2}, headers=cookies["Ada"]
    ).json()
    game_id = created["id"]
    joined = client.post(f"/api/games/{game_id}/join", json={}, headers=cookies["Bob"]).json()
    assert created["rated"] is True and joined["rated"] is True
    play_to_the_end(client, game_id, {0: created["seats"][0]["token"], 1: joined["token"]})
    made = client.post(f"/api/games/{game_id}/rematch", json={}, headers=cookies["Bob"]).json()
    assert made["player"] == 1 - 1 and made["rated"] is True and made["seats"] == []
    ada = client.get(f"/api/games/{made['id']}", headers=cookies["Ada"]).json()
    bob = client.get(f"/api/games/{made['id']}", headers=cookies["Bob"]).json()
    assert (ada["player"], bob["player"]) == (1, 0)
    again = client.post(f"/api/games/{game_id}/rematch", json={}, headers=cookies["Ada"]).json()
    assert (again["id"], again["player"], again["token"]) == (made["id"], 1, None)
