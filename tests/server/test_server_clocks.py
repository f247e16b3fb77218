"""Clocks and absent players (docs/server.md, "Clocks and absent players").

The clock's arithmetic is tested with given moments (``SeatClocks`` is pure). Through the
API, deadlines are real but short; every wait is on what the server shows (a seat given to
a stand-in), bounded by STUCK, never a fixed sleep; nothing asserts how long anything took.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from machiavel.server.accounts import TEST_COST
from machiavel.server.clocks import ClockRefused, ClockSpec, SeatClocks, iso_utc
from machiavel.server.service import GameService
from machiavel.server.storage import GameRow, Repository
from support.devices import signed_up
from support.waiting import STUCK

Client = Callable[..., AbstractContextManager[TestClient]]
T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# ---- the arithmetic -------------------------------------------------------------------
def test_a_live_bank_runs_while_the_seat_is_to_move_and_gains_the_increment() -> None:
    clocks = SeatClocks(ClockSpec("live", initial=60, increment=5), 2)
    assert clocks.earliest() is None  # no clock runs before the first action
    clocks.moved(0, at(0), to_move=[1], stand_ins=[])
    assert clocks.deadline(1) == at(60) and clocks.deadline(0) is None
    clocks.moved(1, at(20), to_move=[0], stand_ins=[])
    assert clocks.left == [60, 45]  # 60 - 20 + 5
    assert clocks.deadline(0) == at(80)
    clocks.moved(0, at(30), to_move=[0], stand_ins=[])  # a turn of several actions
    assert clocks.left[0] == 50 and clocks.deadline(0) == at(80)  # no increment yet
    clocks.moved(0, at(35), to_move=[1], stand_ins=[])
    assert clocks.left[0] == 50  # 50 - 5 + 5


def test_simultaneous_seats_each_keep_their_own_start() -> None:
    clocks = SeatClocks(ClockSpec("turn-based", per_move=100), 3)
    clocks.moved(0, at(0), to_move=[1, 2], stand_ins=[])
    clocks.moved(1, at(40), to_move=[2], stand_ins=[])
    assert clocks.deadline(2) == at(100) and clocks.deadline(1) is None
    assert clocks.earliest() == (at(100), 2)


def test_a_stand_in_stops_the_clock_and_a_seat_taken_back_has_time() -> None:
    clocks = SeatClocks(ClockSpec("live", initial=100), 2)
    clocks.moved(0, at(0), to_move=[1], stand_ins=[])
    clocks.stand_in(1, at(100))
    assert clocks.left[1] == 0 and clocks.deadline(1) is None
    clocks.moved(1, at(101), to_move=[0], stand_ins=[1])  # the bot's move costs nothing
    assert clocks.left[1] == 0
    clocks.taken_back(1, at(150), to_move=[0])
    assert clocks.left[1] == 10 and clocks.deadline(1) is None  # a tenth of the initial
    restored = SeatClocks.from_json(clocks.spec, 2, clocks.to_json())
    assert restored.left == clocks.left and restored.since == clocks.since


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("10 minutes", "is an object"),
        ({"kind": "blitz"}, "kind is one of"),
        ({"kind": "live"}, "initial time is a number"),
        ({"kind": "live", "initial": 0}, "above 0"),
        ({"kind": "live", "initial": -5}, "above 0"),
        ({"kind": "live", "initial": 10**30}, "at most"),
        ({"kind": "live", "initial": float("nan")}, "a number"),
        ({"kind": "live", "initial": True}, "a number"),
        ({"kind": "live", "initial": 60, "increment": -1}, "from 0"),
        ({"kind": "live", "initial": 60, "per_move": 5}, "has no per_move"),
        ({"kind": "turn-based", "per_move": 0}, "above 0"),
    ],
)
def test_bad_clocks_are_refused_with_a_sentence(raw: Any, says: str) -> None:
    with pytest.raises(ClockRefused, match=says):
        ClockSpec.read(raw)


# ---- through the API ------------------------------------------------------------------
@pytest.fixture
def client(client_on: Client, any_database_url: str) -> Iterator[TestClient]:
    with client_on(any_database_url, password_cost=TEST_COST) as opened:
        yield opened


def service_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "tyrus")
    body.setdefault("seats", [{"kind": "human"}, {"kind": "human"}])
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def look(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", params={"token": token} if token else None)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def act(client: TestClient, game_id: str, token: str) -> Any:
    state = look(client, game_id, token)
    body = {"token": token, "action": state["legal_actions"][0], "version": state["version"]}
    return client.post(f"/api/games/{game_id}/actions", json=body)


def tokens_by_seat(created: dict[str, Any]) -> dict[int, str]:
    return {seat["player"]: seat["token"] for seat in created["seats"] if seat["token"]}


def first_mover(client: TestClient, created: dict[str, Any]) -> tuple[int, int]:
    """(the seat that moves first, the other) of a two-seat table."""
    first = look(client, created["id"])["to_move"][0]
    return first, 1 - first


def wait_for(
    client: TestClient, game_id: str, ready: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The state once ``ready`` holds (polled; bounded by STUCK)."""
    limit = time.monotonic() + STUCK
    while True:
        state = look(client, game_id)
        if ready(state):
            return state
        assert time.monotonic() < limit, f"the server never showed it: {state['seats']}"
        time.sleep(0.02)


@pytest.mark.parametrize(
    "clock",
    [{"kind": "live", "initial": 0}, {"kind": "fast"}, {"kind": "turn-based", "per_move": "1d"}],
)
def test_a_bad_clock_is_refused_and_nothing_is_created(client: TestClient, clock: Any) -> None:
    answer = client.post("/api/games", json={"game": "tyrus", "players": 2, "clock": clock})
    assert answer.status_code == 400 and "clock" in answer.json()["detail"]
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize(
    ("field", "value", "status"),
    [("stand_in", "grandmaster", 422), ("abandon_after", 0, 422), ("abandon_after", 10**12, 422)],
)
def test_bad_stand_in_levels_and_periods_are_refused(
    client: TestClient, field: str, value: Any, status: int
) -> None:
    answer = client.post("/api/games", json={"game": "tyrus", "players": 2, field: value})
    assert answer.status_code == status and field in answer.json()["detail"], answer.text


def test_every_payload_carries_the_clocks(client: TestClient) -> None:
    created = create(client, clock={"kind": "live", "initial": 600, "increment": 5})
    assert created["clock"] == {"kind": "live", "initial": 600, "increment": 5}
    assert created["stand_in"] == "medium"
    state = look(client, created["id"])
    assert state["clocks"]["left"] == [600, 600] and state["clocks"]["deadline"] is None
    first, other = first_mover(client, created)
    assert act(client, created["id"], tokens_by_seat(created)[first]).status_code == 200
    clocks = look(client, created["id"])["clocks"]
    assert clocks["deadlines"][other] is not None and clocks["deadlines"][first] is None
    assert clocks["deadline"] == clocks["deadlines"][other]
    assert look(client, create(client)["id"])["clocks"] is None  # no clock by default


def test_a_seat_out_of_time_passes_to_a_stand_in_and_is_taken_back(
    client_on: Client, any_database_url: str, bot_gate: Any
) -> None:
    # The stand-in's move is held (the gate): the game then stands still however slowly
    # this machine runs, as a stand-in's clock does not run and the other seat does not
    # move. Unheld, the stand-in's move would start the first seat's 0.3 s, which a
    # starved test could let run out too.
    with client_on(any_database_url, bot_executor=bot_gate()) as client:
        created = create(client, clock={"kind": "turn-based", "per_move": 0.3}, stand_in="easy")
        game_id, tokens = created["id"], tokens_by_seat(created)
        first, other = first_mover(client, created)
        assert act(client, game_id, tokens[first]).status_code == 200
        state = wait_for(client, game_id, lambda s: s["seats"][other]["stand_in"])
        assert state["seats"][first]["stand_in"] is False and state["to_move"] == [other]
        chat = client.get(f"/api/games/{game_id}/chat").json()["chat"]
        said = f"player {other + 1} ran out of time: a easy bot"
        assert any(m["channel"] == "table" and m["text"].startswith(said) for m in chat)
        back = client.post(f"/api/games/{game_id}/return", json={"token": tokens[other]})
        assert back.status_code == 200 and back.json()["seats"][other]["stand_in"] is False
        assert back.json()["version"] == 1  # the stand-in's move was held: nothing moved


def test_a_move_after_the_deadline_loses_to_the_timeout_exactly_once(
    client_on: Client, sqlite_url: str, bot_gate: Any
) -> None:
    with client_on(sqlite_url, bot_executor=bot_gate()) as client:  # stand-ins think on
        late_move_loses(client)


def late_move_loses(client: TestClient) -> None:
    created = create(client, clock={"kind": "turn-based", "per_move": 0.05})
    game_id, tokens = created["id"], tokens_by_seat(created)
    first, other = first_mover(client, created)
    moved = act(client, game_id, tokens[first])
    assert moved.status_code == 200
    # the deadline as the answer gave it (the timer may have fired since)
    deadline = datetime.fromisoformat(moved.json()["clocks"]["deadlines"][other])
    while datetime.now(UTC) <= deadline:  # the condition: the deadline has passed
        time.sleep(0.01)
    late = act(client, game_id, tokens[other])  # races the timer: either way it loses
    assert late.status_code == 409, late.text
    assert "time ran out" in late.json()["detail"] or "stand-in" in late.json()["detail"]
    wait_for(client, game_id, lambda s: s["seats"][other]["stand_in"])
    chat = client.get(f"/api/games/{game_id}/chat").json()["chat"]
    timeouts = [m for m in chat if m["channel"] == "table" and "ran out of time" in m["text"]]
    assert len(timeouts) == 1 and timeouts[0]["player"] == other  # applied once
    stored = service_of(client).repo.load(game_id)
    assert stored is not None
    record, actions = stored
    assert record.seats[other].stand_in is True
    assert [player for player, _ in actions] == [first]  # the late move was not stored


def test_deadlines_survive_a_restart(client_on: Client, any_database_url: str) -> None:
    with client_on(any_database_url, password_cost=TEST_COST) as first_server:
        created = create(first_server, clock={"kind": "turn-based", "per_move": 600})
        game_id, tokens = created["id"], tokens_by_seat(created)
        first, other = first_mover(first_server, created)
        assert act(first_server, game_id, tokens[first]).status_code == 200
        assert look(first_server, game_id)["seats"][other]["stand_in"] is False
    # while no server runs, eleven minutes pass for the seat to move
    repository = Repository(any_database_url)
    try:
        with repository.engine.begin() as conn:
            state = conn.execute(select(GameRow.clock_state).where(GameRow.id == game_id))
            clock_state = dict(state.scalar_one())
            since = list(clock_state["since"])
            since[other] = (datetime.now(UTC) - timedelta(seconds=660)).isoformat()
            conn.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(clock_state={**clock_state, "since": since})
            )
    finally:
        repository.close()
    with client_on(any_database_url, password_cost=TEST_COST) as second_server:
        wait_for(second_server, game_id, lambda s: s["seats"][other]["stand_in"])


def test_leaving_a_game_of_two_is_resigning(client: TestClient) -> None:
    ada, bob = signed_up(client, "ada"), signed_up(client, "bob")
    created = ada.call("POST", "/api/games", {"game": "tyrus", "players": 2}).json()
    game_id = created["id"]
    assert bob.call("POST", f"/api/games/{game_id}/join", {}).status_code == 200
    assert created["rated"] is True
    left = ada.call("POST", f"/api/games/{game_id}/leave", {})
    assert left.status_code == 200, left.text
    state = left.json()
    assert state["is_over"] and state["winners"] == [1] and state["legal_actions"] == []
    assert state["outcome"] == {"reason": "resigned", "player": 0, "winners": [1]}
    assert state["to_move"] == []
    board = client.get("/api/ratings/tyrus").json()["players"]
    assert [entry["name"] for entry in board][:1] == ["bob"]  # rated as a win
    again = bob.call("POST", f"/api/games/{game_id}/leave", {})
    assert again.status_code == 409 and "over" in again.json()["detail"]
    play = bob.call("POST", f"/api/games/{game_id}/actions", {"action": "S1 citadel", "version": 0})
    assert play.status_code == 409


def test_leaving_a_larger_table_hands_the_seat_to_a_stand_in(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    created = create(client, game="guildes", seats=seats, stand_in="easy")
    game_id, tokens = created["id"], tokens_by_seat(created)
    spectator = client.post(f"/api/games/{game_id}/leave", json={})
    assert spectator.status_code == 403
    wrong = client.post(f"/api/games/{game_id}/leave", json={"token": "nope"})
    assert wrong.status_code == 403
    left = client.post(f"/api/games/{game_id}/leave", json={"token": tokens[2]})
    assert left.status_code == 200 and left.json()["seats"][2]["stand_in"] is True
    assert left.json()["is_over"] is False
    twice = client.post(f"/api/games/{game_id}/leave", json={"token": tokens[2]})
    assert twice.status_code == 409
    back = client.post(f"/api/games/{game_id}/return", json={"token": tokens[2]})
    assert back.status_code == 200 and back.json()["seats"][2]["stand_in"] is False
    again = client.post(f"/api/games/{game_id}/return", json={"token": tokens[2]})
    assert again.status_code == 409 and "no stand-in" in again.json()["detail"]


def test_a_table_nobody_plays_is_abandoned_and_leaves_the_lobby(client: TestClient) -> None:
    quiet = create(client, abandon_after=3600)
    busy = create(client, abandon_after=3600)
    tokens = tokens_by_seat(busy)
    first = look(client, busy["id"])["to_move"][0]
    assert act(client, busy["id"], tokens[first]).status_code == 200
    portal = client.portal
    assert portal is not None
    service = service_of(client)
    in_half_an_hour = datetime.now(UTC) + timedelta(seconds=1800)
    assert portal.call(service.sweep_abandoned, in_half_an_hour) == []
    in_two_hours = datetime.now(UTC) + timedelta(seconds=7200)
    assert sorted(portal.call(service.sweep_abandoned, in_two_hours)) == sorted(
        [quiet["id"], busy["id"]]
    )
    ended = look(client, quiet["id"])
    assert ended["is_over"] and ended["outcome"]["reason"] == "abandoned"
    assert ended["winners"] == []
    listed = {g["id"] for g in client.get("/api/games?status=all").json()["games"]}
    assert quiet["id"] not in listed and busy["id"] not in listed


def test_a_moment_reads_the_same_in_utc_whatever_zone_it_came_in() -> None:
    moment = datetime(2026, 11, 24, 9, 30, 15, 250000, tzinfo=UTC)
    paris = moment.astimezone(timezone(timedelta(hours=1)))
    naive = moment.replace(tzinfo=None)  # as SQLite gives it back: UTC
    assert {iso_utc(moment), iso_utc(paris), iso_utc(naive)} == {"2026-11-24T09:30:15.250000Z"}
