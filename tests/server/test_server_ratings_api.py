"""Ratings through the API: a finished rated game updates its seats' ratings once, in the
transaction of its last action (on SQLite and PostgreSQL, restart included); which tables
are rated; the leaderboard and the profile routes and their errors.

Argon2's cost is lowered (``TEST_COST``) through ``create_app``: the tests stay fast.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select

from machiavel.server.accounts import COOKIE, TEST_COST
from machiavel.server.ratings import Rating, display
from machiavel.server.storage import RatingChangeRow, RatingRow

Client = Callable[..., AbstractContextManager[TestClient]]
SITE = "http://testserver"
PASSWORD = "correct horse"
STUCK = 300.0  # seconds after which a wait fails: only a stuck test gets there


@pytest.fixture
def client(client_on: Client, sqlite_url: str) -> Iterator[TestClient]:
    with client_on(sqlite_url, password_cost=TEST_COST) as opened:
        yield opened


class Device:
    """One browser: its own session cookie, sent by hand, and this site's Origin."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.session: str | None = None

    def call(self, method: str, path: str, body: Any = None, **params: Any) -> Any:
        headers = {"origin": SITE}
        if self.session is not None:
            headers["cookie"] = f"{COOKIE}={self.session}"
        answer = self.client.request(
            method, path, json=body, params=params or None, headers=headers
        )
        cookie = answer.cookies.get(COOKIE)
        if cookie is not None:
            self.session = cookie
        self.client.cookies.clear()
        return answer


def signed_up(client: TestClient, name: str) -> Device:
    device = Device(client)
    answer = device.call("POST", "/api/accounts", {"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return device


def create(device: Device, **body: Any) -> dict[str, Any]:
    answer = device.call("POST", "/api/games", body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def play_to_the_end(game_id: str, devices: dict[int, Device], seed: int) -> dict[str, Any]:
    """Each device plays its account's seat at random (legal moves) until the game is
    over; bots play their own seats meanwhile (waits are on the state, not on time)."""
    choose = random.Random(seed)
    some = next(iter(devices.values()))
    deadline = time.monotonic() + STUCK
    while True:
        state: dict[str, Any] = some.call("GET", f"/api/games/{game_id}").json()
        if state["is_over"]:
            return state
        moved = False
        for player in state["to_move"]:
            device = devices.get(player)
            if device is None:
                continue
            mine = device.call("GET", f"/api/games/{game_id}").json()
            if player not in mine["to_move"] or not mine["legal_actions"]:
                continue
            body = {"action": choose.choice(mine["legal_actions"]), "version": mine["version"]}
            answer = device.call("POST", f"/api/games/{game_id}/actions", body)
            assert answer.status_code in (200, 409), answer.text  # 409: a bot moved first
            moved = True
        if not moved:
            assert time.monotonic() < deadline, f"stuck at version {state['version']}"
            time.sleep(0.01)


def rating_rows(client: TestClient) -> dict[str, tuple[float, float, int]]:
    engine = client.app.state.service.repo.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        rows = conn.execute(
            select(RatingRow.key, RatingRow.mu, RatingRow.sigma, RatingRow.games)
        ).all()
    return {r.key: (r.mu, r.sigma, r.games) for r in rows}


def changes_of(client: TestClient, game_id: str) -> int:
    engine = client.app.state.service.repo.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        count: int = conn.execute(
            select(func.count()).where(RatingChangeRow.game_id == game_id)
        ).scalar_one()
    return count


# ---- a rated game ---------------------------------------------------------------------
def test_a_game_between_two_accounts_is_rated_once(
    any_database_url: str, client_on: Client
) -> None:
    with client_on(any_database_url, password_cost=TEST_COST) as client:
        ada, bob = signed_up(client, "Ada"), signed_up(client, "Bob")
        created = create(ada, game="tyrus", seats=[{"kind": "human"}] * 2)
        assert created["rated"] is True
        game_id = created["id"]
        joined = bob.call("POST", f"/api/games/{game_id}/join", {})
        assert joined.status_code == 200 and joined.json()["rated"] is True
        end = play_to_the_end(game_id, {0: ada, 1: bob}, seed=3)
        winners = end["winners"]
        assert end["rated"] is True and changes_of(client, game_id) == 2
        board = client.get("/api/ratings/tyrus").json()
        assert board["game"] == "tyrus"
        assert {p["name"] for p in board["players"]} == {"Ada", "Bob"}
        assert all(p["games"] == 1 and p["bot"] is False for p in board["players"])
        ratings = [p["rating"] for p in board["players"]]
        assert ratings == sorted(ratings, reverse=True)
        profiles = {name: client.get(f"/api/players/{name}").json() for name in ("ada", "BOB")}
        assert profiles["ada"]["name"] == "Ada" and profiles["BOB"]["name"] == "Bob"
        for player, name in enumerate(("ada", "BOB")):
            profile = profiles[name]
            [recent] = profile["recent"]
            assert recent["id"] == game_id and recent["game"] == "tyrus"
            assert recent["finished_at"].endswith("Z")
            shown = profile["ratings"]["tyrus"]
            assert shown["games"] == 1 and shown["rating"] == recent["rating"]
            if len(winners) == 1:
                won = player in winners
                assert recent["result"] == ("won" if won else "lost")
                assert (recent["rating_change"] > 0) == won and recent["rating_change"] != 0
                assert (shown["rating"] > display(Rating())) == won
            else:
                assert recent["result"] == "shared"
        stored = rating_rows(client)
        lobby = client.get("/api/games", params={"status": "finished"}).json()["games"]
        assert [g["rated"] for g in lobby if g["id"] == game_id] == [True]
    # A restart replays nothing into the ratings: the game was rated with its last action.
    with client_on(any_database_url, password_cost=TEST_COST) as client:
        assert client.get(f"/api/games/{game_id}").json()["is_over"] is True
        assert rating_rows(client) == stored and changes_of(client, game_id) == 2
        assert [p["games"] for p in client.get("/api/ratings/tyrus").json()["players"]] == [1, 1]


def test_a_game_with_bots_rates_their_level(client: TestClient) -> None:
    ada = signed_up(client, "Ada")
    bots = [{"kind": "bot", "level": "easy"}] * 3
    created = create(ada, game="djambi", seats=[{"kind": "human"}, *bots])
    assert created["rated"] is True
    play_to_the_end(created["id"], {0: ada}, seed=8)
    players = {p["name"]: p for p in client.get("/api/ratings/djambi").json()["players"]}
    assert set(players) == {"Ada", "easy bot"}
    assert players["easy bot"]["bot"] is True and players["easy bot"]["games"] == 3  # 3 seats
    assert players["Ada"]["games"] == 1
    profile = client.get("/api/players/Easy Bot").json()  # any case
    assert profile["name"] == "easy bot" and profile["bot"] is True
    assert profile["ratings"]["djambi"]["games"] == 3
    assert [g["id"] for g in profile["recent"]] == [created["id"]]  # once per game
    assert client.get("/api/players/ada").json()["ratings"]["djambi"]["games"] == 1


# ---- unrated tables -------------------------------------------------------------------
def test_a_table_with_a_person_without_account_is_unrated(client: TestClient) -> None:
    guest = Device(client)
    two = [{"kind": "human"}, {"kind": "human"}]
    assert create(guest, game="tyrus", seats=two)["rated"] is False
    refused = guest.call("POST", "/api/games", {"game": "tyrus", "seats": two, "rated": True})
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "this table cannot be rated: seat 0 is played without an account"
    )
    bot = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    assert create(guest, game="tyrus", seats=bot)["rated"] is False
    ada = signed_up(client, "Ada")
    named = [{"kind": "human"}, {"kind": "human", "name": "Cy"}]
    answer = ada.call("POST", "/api/games", {"game": "tyrus", "seats": named, "rated": True})
    assert answer.status_code == 400 and "seat 1 is played without" in answer.json()["detail"]
    assert create(ada, game="tyrus", seats=two, rated=False)["rated"] is False
    # Rated by default, until a person without an account takes a seat.
    created = create(ada, game="tyrus", seats=two)
    assert created["rated"] is True
    joined = guest.call("POST", f"/api/games/{created['id']}/join", {"name": "Cy"})
    assert joined.status_code == 200 and joined.json()["rated"] is False
    entry = [g for g in client.get("/api/games").json()["games"] if g["id"] == created["id"]]
    assert entry[0]["rated"] is False
    token = joined.json()["token"]
    state = ada.call("GET", f"/api/games/{created['id']}").json()
    choose = random.Random(1)
    while not state["is_over"]:
        mover = state["to_move"][0]
        params = {"token": token} if mover == 1 else {}
        mine = (
            guest.call("GET", f"/api/games/{created['id']}", **params)
            if mover == 1
            else ada.call("GET", f"/api/games/{created['id']}")
        ).json()
        body = {"action": choose.choice(mine["legal_actions"]), "version": mine["version"]}
        device = guest if mover == 1 else ada
        if mover == 1:
            body["token"] = token
        state = device.call("POST", f"/api/games/{created['id']}/actions", body).json()
    assert changes_of(client, created["id"]) == 0 and rating_rows(client) == {}
    assert client.get("/api/ratings/tyrus").json()["players"] == []
    assert client.get("/api/players/Ada").json() == {
        "name": "Ada",
        "bot": False,
        "owner": None,
        "ratings": {},
        "recent": [],
    }


# ---- the leaderboard and profile routes -----------------------------------------------
def test_leaderboard_order_pages_and_errors(client: TestClient) -> None:
    names = ["Ada", "Bob", "Cy", "Dee"]
    for name in names:
        signed_up(client, name)
    repo = client.app.state.service.repo  # type: ignore[attr-defined]
    ids = {name: repo.account_by_key(name.casefold()).id for name in names}
    mus = {"Ada": 30.0, "Bob": 20.0, "Cy": 35.0, "Dee": 25.0}
    with repo.engine.begin() as conn:
        for name, mu in mus.items():
            conn.execute(
                insert(RatingRow).values(
                    key=f"account:{ids[name]}",
                    game="guildes",
                    mu=mu,
                    sigma=2.0,
                    games=4,
                    updated_at=datetime.now(UTC),
                )
            )
        conn.execute(
            insert(RatingRow).values(
                key="bot:hard",
                game="guildes",
                mu=28.0,
                sigma=1.0,
                games=9,
                updated_at=datetime.now(UTC),
            )
        )
    board = client.get("/api/ratings/guildes").json()["players"]
    assert [p["name"] for p in board] == ["Cy", "hard bot", "Ada", "Dee", "Bob"]
    assert board[0] == {
        "name": "Cy",
        "rating": display(Rating(35.0, 2.0)),
        "games": 4,
        "bot": False,
    }
    assert board[1]["bot"] is True and board[1]["rating"] == display(Rating(28.0, 1.0))
    page = client.get("/api/ratings/guildes", params={"limit": 2, "offset": 2}).json()
    assert [p["name"] for p in page["players"]] == ["Ada", "Dee"]
    assert client.get("/api/ratings/tyros").json() == {"game": "tyros", "players": []}
    for limit in (0, 201):
        answer = client.get("/api/ratings/guildes", params={"limit": limit})
        assert answer.status_code == 400
        assert answer.json()["detail"] == "limit must be from 1 to 200"
    assert client.get("/api/ratings/guildes", params={"limit": 200}).status_code == 200
    assert client.get("/api/ratings/guildes", params={"limit": "many"}).status_code == 422
    assert client.get("/api/ratings/guildes", params={"offset": -1}).status_code == 400
    unknown = client.get("/api/ratings/chess")
    assert unknown.status_code == 404 and "no game 'chess'" in unknown.json()["detail"]
    nobody = client.get("/api/players/Zed")
    assert nobody.status_code == 404
    assert nobody.json()["detail"] == "there is no player named 'Zed'"
    assert client.get("/api/players/" + "x" * 300).status_code == 404
    profile = client.get("/api/players/cy").json()
    assert profile["ratings"] == {"guildes": {"rating": display(Rating(35.0, 2.0)), "games": 4}}


# ---- revision 0005 ----------------------------------------------------------------------
def test_0005_keeps_stored_games_unrated_and_can_be_undone(any_database_url: str) -> None:
    from alembic import command
    from sqlalchemy import create_engine, inspect, text
    from sqlalchemy.pool import NullPool

    from machiavel.server import migrations
    from machiavel.server.storage import Repository, database_url

    engine = create_engine(database_url(any_database_url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            command.upgrade(migrations.config(conn), "0004")
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO games (id, game, players, seed, options, rules_version, listed,"
                    " version, is_over, created_at, updated_at) VALUES ('old', 'tyrus', 2, 7,"
                    " :options, 1, :yes, 0, :yes, :now, :now)"
                ),
                {"options": '{"memory_mode": false}', "yes": True, "now": datetime.now(UTC)},
            )
            conn.execute(
                text(
                    "INSERT INTO seats (game_id, player, kind, claimed) VALUES"
                    " ('old', 0, 'human', :yes), ('old', 1, 'human', :yes)"
                ),
                {"yes": True},
            )
    finally:
        engine.dispose()
    repository = Repository(any_database_url)
    try:
        assert repository.schema.after == migrations.head()
        assert repository.schema.before == "0004"
        loaded = repository.load("old")
        assert loaded is not None and loaded[0].rated is False
        assert repository.ratings_of("account:1") == {}
    finally:
        repository.close()
    engine = create_engine(database_url(any_database_url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            command.downgrade(migrations.config(conn), "0004")
        with engine.connect() as conn:
            tables = set(inspect(conn).get_table_names())
            assert "ratings" not in tables and "rating_changes" not in tables
            assert "rated" not in {c["name"] for c in inspect(conn).get_columns("games")}
    finally:
        engine.dispose()
