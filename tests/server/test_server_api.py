"""Every HTTP route of the server and every way of getting it wrong (issue 7)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.errors import IllegalAction
from machiavel.server.live import describe_for_all
from support.seeds import dealt, stored_setup
from support.waiting import STUCK

STATE_KEYS = {"version", "view", "to_move", "legal_actions", "is_over", "winners"}
EXTRA_KEYS = {
    *("id", "game", "player", "seats", "log_start", "log", "log_fr", "rated"),
    *("chat", "rematch", "pace", "turn_since", "clocks", "outcome", "seed_chosen"),
    *("stand_in_level", "marks", "ending"),
}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "tyrus")
    body.setdefault("players", 2)
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def state_of(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token is not None else {}
    answer = client.get(f"/api/games/{game_id}", params=params)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def play(client: TestClient, game_id: str, token: str | None, action: Any, version: Any) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions", json={"token": token, "action": action, "version": version}
    )


def stored_actions(client: TestClient, game_id: str) -> list[tuple[int, str]]:
    loaded = client.app.state.service.repo.load(game_id)  # type: ignore[attr-defined]
    assert loaded is not None
    actions: list[tuple[int, str]] = loaded[1]
    return actions


def wait_for(
    client: TestClient, game_id: str, token: str | None, done: Any, seconds: float = STUCK
) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        state = state_of(client, game_id, token)
        if done(state):
            return state
        assert time.monotonic() < deadline, f"timed out; last state version {state['version']}"
        time.sleep(0.005)


def two_humans(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    created = create(client, seats=[{"kind": "human"}, {"kind": "human"}], **body)
    return created["id"], [seat["token"] for seat in created["seats"]]


# ---- creating -----------------------------------------------------------------------
def test_create_returns_id_seats_tokens_and_version(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    assert set(created) == {
        *("id", "game", "seats", "version", "rated", "pace"),
        *("clock", "stand_in", "abandon_after"),
    }
    assert created["version"] == 0 and created["game"] == "tyrus"
    human, bot = created["seats"]
    assert human["player"] == 0 and len(human["token"]) >= 40
    assert bot == {"player": 1, "token": None}


def test_tokens_are_stored_hashed_only(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    record, _ = client.app.state.service.repo.load(created["id"])  # type: ignore[attr-defined]
    tokens = [seat["token"] for seat in created["seats"]]
    stored = [seat.token_hash for seat in record.seats]
    assert all(token not in stored for token in tokens)
    assert all(len(digest) == 64 for digest in stored)


def test_seats_default_to_humans_and_players_to_seats(client: TestClient) -> None:
    assert len(create(client)["seats"]) == 2
    created = create(client, players=None, seats=[{"kind": "human"}, {"kind": "human"}])
    assert len(created["seats"]) == 2


def test_options_and_seed_are_used(client: TestClient) -> None:
    # A person practising against a bot may choose the deal. Seat 0, the person's, begins
    # at seed 2: the bot has not moved when the person looks.
    expected = machiavel.game("tyrus").new(2, seed=2, options={"memory_mode": True})
    assert expected.to_move == (0,)
    practice = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    created = create(client, seats=practice, options={"memory_mode": True}, seed=2)
    state = state_of(client, created["id"], created["seats"][0]["token"])
    assert state["view"] == expected.view(0) and state["seed_chosen"] is True


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "players": 2}, "unknown game 'chess'"),
        ({"game": "tyrus", "players": 3}, "played by exactly 2 players"),
        ({"game": "tyrus", "players": 2, "options": {"speed": 1}}, "has no option 'speed'"),
        ({"game": "tyrus", "players": 2, "options": {"memory_mode": 3}}, "memory_mode"),
        ({"game": "tyrus", "players": 2, "seats": [{"kind": "human"}]}, "needs 2 seats"),
        (
            {"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}]},
            "unknown bot level 'godlike'",
        ),
        ({"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "bot"}]}, "unknown bot level"),
        (
            {"game": "tyrus", "seats": [{"kind": "human", "level": "easy"}, {"kind": "human"}]},
            "only a bot seat has a level",
        ),
        ({"game": "tyrus", "players": 2, "seed": -1}, "seed must be a whole number"),
        ({"game": "tyrus", "players": 2, "seed": 2**64}, "seed must be a whole number"),
        ({"game": "tyrus"}, "give 'players'"),
        (
            {"game": "tyrus", "seats": [{"kind": "human", "name": " "}, {"kind": "human"}]},
            "name cannot be empty",
        ),
    ],
)
def test_bad_tables_are_refused_with_400(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["detail"]
    assert client.get("/api/games", params={"status": "all"}).json()["games"] == []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "tyrus", "players": "2"}, "players"),
        ({"game": 5, "players": 2}, "game"),
        ({"game": "tyrus", "players": 2, "colour": "red"}, "colour"),
        ({"game": "tyrus", "seats": [{"kind": "robot"}, {"kind": "human"}]}, "seats.0.kind"),
        ({"game": "tyrus", "players": 2, "options": [1]}, "options"),
        ([1, 2], "dictionary"),
    ],
)
def test_malformed_bodies_are_refused_with_422(client: TestClient, body: Any, words: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422, answer.text
    assert words in answer.json()["detail"]


def test_invalid_json_and_missing_body_give_400(client: TestClient) -> None:
    headers = {"content-type": "application/json"}
    answer = client.post("/api/games", content=b'{"game": "tyrus",', headers=headers)
    assert answer.status_code == 400 and "not valid JSON" in answer.json()["detail"]
    answer = client.post("/api/games")
    assert answer.status_code == 400 and "JSON body" in answer.json()["detail"]


def test_oversized_bodies_are_refused_with_413(client: TestClient) -> None:
    big = json.dumps({"game": "tyrus", "players": 2, "options": {"x": "a" * 70_000}})
    answer = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "over 65536 bytes" in answer.json()["detail"]

    def chunks() -> Any:  # no Content-Length: counted as it arrives
        yield b'{"game": "tyrus", "options": {"x": "'
        for _ in range(10):
            yield b"a" * 10_000
        yield b'"}}'

    answer = client.post(
        "/api/games", content=chunks(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413
    assert client.get("/api/games", params={"status": "all"}).json()["games"] == []


# ---- reading ------------------------------------------------------------------------
def test_a_seat_gets_its_view_and_actions(client: TestClient, sqlite_url: str) -> None:
    game_id, tokens = two_humans(client)
    reference = dealt(sqlite_url, game_id)
    for player, token in enumerate(tokens):
        state = state_of(client, game_id, token)
        assert set(state) == STATE_KEYS | EXTRA_KEYS
        assert state["player"] == player
        assert state["view"] == reference.view(player)
        assert state["legal_actions"] == reference.legal_actions(player)
        assert state["to_move"] == list(reference.to_move) and state["version"] == 0
        assert state["is_over"] is False and state["winners"] == [] and state["log"] == []
        assert state["seats"][player] == {
            "player": player,
            "kind": "human",
            "level": None,
            "name": None,
            "claimed": False,
            "reserved": False,
            "stand_in": False,
            "bot_account": False,
        }


def test_a_spectator_gets_the_public_view_and_no_actions(
    client: TestClient, sqlite_url: str
) -> None:
    game_id, _ = two_humans(client)
    for params in ({}, {"token": ""}):
        state = client.get(f"/api/games/{game_id}", params=params).json()
        assert state["player"] is None and state["legal_actions"] == []
        assert state["view"] == dealt(sqlite_url, game_id).view(None)


def test_unknown_games_give_404_and_bad_tokens_403(client: TestClient) -> None:
    game_id, _ = two_humans(client)
    for path in ("/api/games/nosuchgame", "/api/games/a%20b", "/api/games/" + "x" * 40):
        answer = client.get(path)
        assert answer.status_code == 404 and "no game" in answer.json()["detail"]
    assert client.get("/api/games/%2E%2E%2F%2E%2E%2Fpyproject.toml").status_code == 404
    for token in ("wrong", "x" * 500):
        answer = client.get(f"/api/games/{game_id}", params={"token": token})
        assert answer.status_code == 403 and "does not open" in answer.json()["detail"]


def test_catalog_lists_games_options_and_levels(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    assert catalog["levels"] == ["easy", "medium", "hard", "expert"]
    tyrus = next(g for g in catalog["games"] if g["id"] == "tyrus")
    assert tyrus["min_players"] == tyrus["max_players"] == 2
    assert tyrus["options"][0]["name"] == "memory_mode"
    assert {g["id"] for g in catalog["games"]} <= set(machiavel.games())


def test_openapi_page_documents_the_contract(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions"} <= set(paths)
    assert "409" in paths["/api/games/{game_id}/actions"]["post"]["responses"]


def test_the_browser_client_is_served_at_the_root(client: TestClient) -> None:
    answer = client.get("/")
    assert answer.status_code == 200 and 'src="app.js"' in answer.text
    assert client.get("/app.js").status_code == 200


# ---- acting -------------------------------------------------------------------------
def test_an_action_is_played_stored_and_logged_per_viewer(
    client: TestClient, sqlite_url: str
) -> None:
    game_id, tokens = two_humans(client)
    reference = dealt(sqlite_url, game_id)
    mover = reference.to_move[0]
    action = reference.legal_actions(mover)[0]
    answer = play(client, game_id, tokens[mover], action, 0)
    assert answer.status_code == 200, answer.text
    lines = [reference.describe(mover, action, viewer) for viewer in (mover, 1 - mover, None)]
    french = [
        reference.describe(mover, action, viewer, "fr") for viewer in (mover, 1 - mover, None)
    ]
    reference.apply(mover, action)
    state = answer.json()
    assert state["version"] == 1 and state["view"] == reference.view(mover)
    assert state["log"] == [lines[0]] and state["log_fr"] == [french[0]]
    other = state_of(client, game_id, tokens[1 - mover])
    assert other["log"] == [lines[1]] and other["log_fr"] == [french[1]]
    spectator = state_of(client, game_id)
    assert spectator["log"] == [lines[2]] and spectator["log_fr"] == [french[2]]
    assert french[0].startswith(f"joueur {mover} a posé la tuile {action.split()[0]} (")
    later = client.get(f"/api/games/{game_id}", params={"token": tokens[mover], "log_from": 1})
    assert later.json()["log_start"] == 1 and later.json()["log"] == later.json()["log_fr"] == []
    for log_from in (-1, 2, "x"):
        answer = client.get(f"/api/games/{game_id}", params={"log_from": log_from})
        assert answer.status_code in (400, 422) and answer.json()["detail"]
    assert lines[0] != lines[1]  # the tile is named to its owner only (T9)
    assert action.split()[0] not in french[1] + french[2]
    assert stored_actions(client, game_id) == [(mover, action)]


def test_a_line_the_engine_cannot_write_is_neutral_in_every_language() -> None:
    state = machiavel.game("tyrus").new(2, seed=3)
    lines = describe_for_all(state, 0, "nonsense")  # apply() will refuse it and say why
    assert [lines.for_viewer(v, 2) for v in (0, 1, None)] == ["player 0 played"] * 3
    assert [lines.for_viewer(v, 2, 1) for v in (0, 1, None)] == ["joueur 0 a joué"] * 3


def test_an_illegal_action_gets_the_engines_message(client: TestClient, sqlite_url: str) -> None:
    game_id, tokens = two_humans(client)
    reference = dealt(sqlite_url, game_id)
    mover = reference.to_move[0]
    for action in ("Z9 citadel", "S1 palace", "nonsense", ""):
        with pytest.raises(IllegalAction) as refused:
            reference.apply(mover, action)
        answer = play(client, game_id, tokens[mover], action, 0)
        assert answer.status_code == 400
        assert answer.json()["detail"] == str(refused.value)
    answer = play(client, game_id, tokens[1 - mover], reference.legal_actions(mover)[0], 0)
    assert answer.status_code == 400 and "not player" in answer.json()["detail"]
    assert stored_actions(client, game_id) == []
    assert state_of(client, game_id)["version"] == 0


def test_missing_or_wrong_tokens_are_refused_with_403(client: TestClient) -> None:
    game_id, tokens = two_humans(client)
    other_id, other_tokens = two_humans(client)
    action = state_of(client, game_id, tokens[0])["legal_actions"] or ["S1 citadel"]
    for token in (None, "", "forged", other_tokens[0]):
        answer = play(client, game_id, token, action[0], 0)
        assert answer.status_code == 403, answer.text
    assert "token is needed" in play(client, game_id, None, "x", 0).json()["detail"]
    assert stored_actions(client, game_id) == []
    assert play(client, "nosuchgame", tokens[0], "x", 0).status_code == 404
    assert other_id != game_id


def test_a_stale_version_gets_409_with_the_current_state(client: TestClient) -> None:
    game_id, tokens = two_humans(client)
    first = state_of(client, game_id)["to_move"][0]
    legal = state_of(client, game_id, tokens[first])["legal_actions"]
    assert play(client, game_id, tokens[first], legal[0], 0).status_code == 200
    second = 1 - first
    action = state_of(client, game_id, tokens[second])["legal_actions"][0]
    for version in (0, 5, -1):
        answer = play(client, game_id, tokens[second], action, version)
        assert answer.status_code == 409
        body = answer.json()
        assert "not the current one (1)" in body["detail"]
        assert body["version"] == 1 and body["player"] == second
        assert body["view"] == state_of(client, game_id, tokens[second])["view"]
    assert len(stored_actions(client, game_id)) == 1


def test_a_duplicate_of_an_accepted_action_is_answered_idempotently(client: TestClient) -> None:
    game_id, tokens = two_humans(client)
    first = state_of(client, game_id)["to_move"][0]
    legal = state_of(client, game_id, tokens[first])["legal_actions"]
    action = legal[0]
    once = play(client, game_id, tokens[first], action, 0)
    again = play(client, game_id, tokens[first], action.lower(), 0)  # same, other spelling
    assert once.status_code == again.status_code == 200
    assert again.json() == once.json()
    assert stored_actions(client, game_id) == [(first, action)]
    # Not a duplicate: the other seat, or another action, at that old version.
    assert play(client, game_id, tokens[1 - first], action, 0).status_code == 409
    assert play(client, game_id, tokens[first], legal[-1], 0).status_code == 409


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"action": 5, "version": 0}, 422),
        ({"action": "S1 citadel", "version": "0"}, 422),
        ({"action": "S1 citadel"}, 422),
        ({"action": "x" * 5000, "version": 0}, 422),
        ({"action": "S1 citadel", "version": 0, "extra": 1}, 422),
    ],
)
def test_malformed_actions_change_nothing(
    client: TestClient, body: dict[str, Any], status: int
) -> None:
    game_id, tokens = two_humans(client)
    answer = client.post(f"/api/games/{game_id}/actions", json={"token": tokens[0], **body})
    assert answer.status_code == status and answer.json()["detail"]
    assert stored_actions(client, game_id) == []


def test_a_game_plays_to_its_end_and_then_refuses_actions(
    client: TestClient, sqlite_url: str
) -> None:
    game_id, tokens = two_humans(client)
    state = state_of(client, game_id)
    while not state["is_over"]:
        mover = state["to_move"][0]
        mine = state_of(client, game_id, tokens[mover])
        state = play(
            client, game_id, tokens[mover], mine["legal_actions"][-1], mine["version"]
        ).json()
    reference = machiavel.game("tyrus").replay(
        stored_setup(sqlite_url, game_id), stored_actions(client, game_id)
    )
    assert state["winners"] == list(reference.winners) and state["to_move"] == []
    answer = play(client, game_id, tokens[0], "S1 citadel", state["version"])
    assert answer.status_code == 400 and "game is over" in answer.json()["detail"]


# ---- joining ------------------------------------------------------------------------
def test_joining_takes_the_first_free_seat_and_replaces_its_token(client: TestClient) -> None:
    game_id, tokens = two_humans(client)
    answer = client.post(f"/api/games/{game_id}/join", json={"name": "  Ada   Lovelace "})
    assert answer.status_code == 200, answer.text
    joined = answer.json()
    assert joined["player"] == 0 and joined["token"] not in tokens
    assert joined["seats"][0]["name"] == "Ada Lovelace" and joined["seats"][0]["claimed"]
    assert client.get(f"/api/games/{game_id}", params={"token": tokens[0]}).status_code == 403
    assert state_of(client, game_id, joined["token"])["player"] == 0
    second = client.post(f"/api/games/{game_id}/join", json={"name": "Bob"}).json()
    assert second["player"] == 1
    answer = client.post(f"/api/games/{game_id}/join", json={"name": "Carol"})
    assert answer.status_code == 409 and "every seat" in answer.json()["detail"]


def test_joining_a_chosen_seat_or_by_invite(client: TestClient) -> None:
    created = create(
        client, seats=[{"kind": "human", "name": "Host"}, {"kind": "bot", "level": "easy"}]
    )
    game_id, host_token = created["id"], created["seats"][0]["token"]
    answer = client.post(f"/api/games/{game_id}/join", json={"name": "X", "seat": 0})
    assert answer.status_code == 409 and "taken" in answer.json()["detail"]
    answer = client.post(f"/api/games/{game_id}/join", json={"name": "X", "seat": 1})
    assert answer.status_code == 409 and "bot" in answer.json()["detail"]
    answer = client.post(f"/api/games/{game_id}/join", json={"name": "X", "seat": 2})
    assert answer.status_code == 400 and "no seat 2" in answer.json()["detail"]
    answer = client.post(
        f"/api/games/{game_id}/join", json={"name": "Host2", "token": host_token, "seat": 1}
    )
    assert answer.status_code == 403 and "opens seat 0" in answer.json()["detail"]
    answer = client.post(f"/api/games/{game_id}/join", json={"name": "Host2", "token": host_token})
    assert answer.status_code == 200 and answer.json()["seats"][0]["name"] == "Host2"
    answer = client.post(f"/api/games/{game_id}/join", json={"name": "X", "token": host_token})
    assert answer.status_code == 403  # the invite token was replaced
    for body in ({"name": ""}, {"name": "a" * 41}, {"name": "bell\x07"}):
        answer = client.post(f"/api/games/{game_id}/join", json=body)
        assert answer.status_code == 400, body
    assert client.post(f"/api/games/{game_id}/join", json={"seat": 0}).status_code == 422
    assert client.post("/api/games/nosuchgame/join", json={"name": "X"}).status_code == 404


def test_acting_with_an_invite_token_claims_the_seat(client: TestClient) -> None:
    game_id, tokens = two_humans(client)
    first = state_of(client, game_id)["to_move"][0]
    action = state_of(client, game_id, tokens[first])["legal_actions"][0]
    assert play(client, game_id, tokens[first], action, 0).status_code == 200
    seats = state_of(client, game_id)["seats"]
    assert seats[first]["claimed"] and not seats[1 - first]["claimed"]
    answer = client.post(f"/api/games/{game_id}/join", json={"name": "Z", "seat": first})
    assert answer.status_code == 409


# ---- lobby --------------------------------------------------------------------------
def test_the_lobby_lists_open_and_running_games(client: TestClient) -> None:
    open_game = create(client)["id"]
    running = create(client, seats=[{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}])
    hidden = create(client, listed=False)["id"]
    finished_id, tokens = two_humans(client)
    state = state_of(client, finished_id)
    while not state["is_over"]:
        mover = state["to_move"][0]
        mine = state_of(client, finished_id, tokens[mover])
        state = play(
            client, finished_id, tokens[mover], mine["legal_actions"][0], mine["version"]
        ).json()

    def ids(**params: Any) -> list[str]:
        answer = client.get("/api/games", params=params)
        assert answer.status_code == 200, answer.text
        return [game["id"] for game in answer.json()["games"]]

    assert set(ids()) == {open_game, running["id"]}
    assert ids(status="open") == [open_game]
    assert ids(status="running") == [running["id"]]
    assert ids(status="finished") == [finished_id]
    assert set(ids(status="all")) == {open_game, running["id"], finished_id}
    assert hidden not in ids(status="all")
    assert len(ids(status="all", limit=1)) == 1
    entry = client.get("/api/games", params={"status": "open"}).json()["games"][0]
    assert entry["open_seats"] == [0, 1] and entry["title"] == "Tyrus"
    assert "token" not in json.dumps(entry) and "seed" not in entry
    for params in ({"status": "secret"}, {"limit": 0}, {"limit": 501}):
        assert client.get("/api/games", params=params).status_code == 400
    assert client.get("/api/games", params={"limit": "many"}).status_code == 422


# ---- replays ------------------------------------------------------------------------
def test_a_finished_game_can_be_replayed_everything_revealed(
    client: TestClient, sqlite_url: str
) -> None:
    game_id, tokens = two_humans(client)
    assert client.get(f"/api/games/{game_id}/replay").status_code == 409
    state = state_of(client, game_id)
    while not state["is_over"]:
        mover = state["to_move"][0]
        mine = state_of(client, game_id, tokens[mover])
        state = play(
            client, game_id, tokens[mover], mine["legal_actions"][0], mine["version"]
        ).json()
    spec = machiavel.game("tyrus")
    actions = stored_actions(client, game_id)
    setup = stored_setup(sqlite_url, game_id)
    at_four = spec.replay(setup, actions[:4])
    replay = client.get(f"/api/games/{game_id}/replay", params={"step": 4}).json()
    assert replay["step"] == 4 and replay["steps"] == len(actions)
    assert replay["views"] == [at_four.view(0), at_four.view(1)]
    assert replay["actions"] == [list(a) for a in actions] and len(replay["log"]) == 4
    walk, french = spec.state_from_setup(setup), []
    for player, action in actions[:4]:  # as its author saw it, in French too
        french.append(walk.describe(player, action, player, "fr"))
        walk.apply(player, action)
    assert replay["log_fr"] == french and french[0].startswith("joueur ")
    assert client.get(f"/api/games/{game_id}/replay").json()["step"] == len(actions)
    for step in (-1, len(actions) + 1):
        assert client.get(f"/api/games/{game_id}/replay", params={"step": step}).status_code == 400


# ---- never a 500 --------------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = st.sampled_from(
    [
        "game",
        "players",
        "options",
        "seed",
        "seats",
        "action",
        "version",
        "token",
        "name",
        "seat",
        "listed",
        "kind",
        "level",
    ]
)
BODIES = (
    JSON_VALUES
    | st.dictionaries(FIELDS, JSON_VALUES, max_size=5)
    | st.fixed_dictionaries(
        {"game": st.sampled_from(["tyrus", "djambi", "tyros", "x"]), "players": st.integers(-1, 6)},
        optional={
            "seats": st.lists(
                st.fixed_dictionaries(
                    {"kind": st.sampled_from(["human", "bot"])},
                    optional={"level": JSON_VALUES, "name": JSON_VALUES},
                ),
                max_size=6,
            ),
            "options": st.dictionaries(st.text(max_size=12), JSON_VALUES, max_size=3),
            "seed": st.integers(),
        },
    )
)


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES, route=st.sampled_from(["", "/actions", "/join"]))
def test_no_body_gives_a_server_error(client: TestClient, body: Any, route: str) -> None:
    path = "/api/games" if route == "" else f"/api/games/{_fuzz_game(client)}{route}"
    answer = client.post(path, json=body)
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        detail = answer.json()["detail"]
        assert isinstance(detail, str) and detail


def _fuzz_game(client: TestClient) -> str:
    cached: str | None = getattr(client, "_fuzz_game", None)
    if cached is None:
        cached = create(client)["id"]
        client._fuzz_game = cached  # type: ignore[attr-defined]
    return cached
