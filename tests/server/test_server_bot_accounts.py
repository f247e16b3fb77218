"""Bot accounts through the API (docs/server.md, "Bots from outside"): a signed-in person
makes them and gets their tokens; a bot acts with ``Authorization: Bearer TOKEN``, is
shown as a bot in seats, lobbies and profiles, is held to the limits of every account;
everything wrong is refused with a sentence and changes nothing. Revision 0010 on both
databases.

Argon2's cost is lowered (``TEST_COST``) through ``create_app``: the tests stay fast.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool
from starlette.websockets import WebSocketDisconnect

from machiavel.server import migrations
from machiavel.server.accounts import MAX_BOTS_PER_OWNER, TEST_COST
from machiavel.server.live import new_token
from machiavel.server.quotas import TableLimits
from machiavel.server.storage import Repository, database_url
from support.devices import Device, signed_up

Client = Callable[..., AbstractContextManager[TestClient]]
AGAINST_MEDIUM = [{"kind": "human"}, {"kind": "bot", "level": "medium"}]
HUMANS = {"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def client(client_on: Client, sqlite_url: str) -> Iterator[TestClient]:
    with client_on(sqlite_url, password_cost=TEST_COST) as opened:
        yield opened


class Program:
    """An external bot: its token in ``Authorization: Bearer``, no cookie, no Origin."""

    def __init__(self, client: TestClient, token: str) -> None:
        self.client = client
        self.token = token

    def headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.token}"}

    def call(self, method: str, path: str, body: Any = None, **headers: str) -> Any:
        return self.client.request(method, path, json=body, headers={**self.headers(), **headers})


def made_bot(owner: Device, name: str) -> Program:
    answer = owner.call("POST", "/api/me/bots", {"name": name})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    assert made["name"] == name and made["bot"] is True and made["token"]
    return Program(owner.client, made["token"])


def tyrus_against_medium(bot: Program) -> dict[str, Any]:
    answer = bot.call("POST", "/api/games", {"game": "tyrus", "seats": AGAINST_MEDIUM})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def lobby(client: TestClient) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = client.get("/api/games?status=all").json()["games"]
    return games


# ---- making bots ----------------------------------------------------------------------
def test_a_person_makes_a_bot_that_acts_with_its_token(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    answer = ada.call("POST", "/api/me/bots", {"name": "Randy"})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    assert made["owner"] == "ada" and set(made) == {"name", "bot", "owner", "token"}
    randy = Program(client, made["token"])
    assert randy.call("GET", "/api/me").json() == {
        "name": "Randy",
        "email": None,
        "notify": True,
        "bot": True,
    }
    assert ada.call("GET", "/api/me").json()["bot"] is False
    assert ada.call("GET", "/api/me/bots").json() == {
        "bots": [{"name": "Randy", "bot": True, "owner": "ada"}]
    }
    profile = client.get("/api/players/randy").json()
    assert profile["bot"] is True and profile["owner"] == "ada"
    assert client.get("/api/players/ada").json()["owner"] is None


def test_making_a_bot_needs_a_person_signed_in(client: TestClient) -> None:
    answer = client.post("/api/me/bots", json={"name": "Randy"})
    assert answer.status_code == 401
    assert answer.json()["detail"] == "you are not signed in"
    ada = signed_up(client, "ada")
    randy = made_bot(ada, "Randy")
    refused = randy.call("POST", "/api/me/bots", {"name": "Randy2"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "a bot account cannot make bots: its owner, signed in, can"
    assert client.get("/api/players/Randy2").status_code == 404  # nothing was made
    assert randy.call("GET", "/api/me/bots").json() == {"bots": []}


def test_bot_names_follow_the_rules_of_every_name(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    made_bot(ada, "Randy")
    for name, status, detail in (
        ("ADA", 409, "the name 'ADA' is taken (names ignore case)"),
        ("randy", 409, "the name 'randy' is taken (names ignore case)"),
        ("a b", 400, "a name is made of letters, digits and the signs _ - . (no spaces)"),
        ("x", 400, "a name has 2 to 24 characters"),
    ):
        answer = ada.call("POST", "/api/me/bots", {"name": name})
        assert (answer.status_code, answer.json()["detail"]) == (status, detail)
    assert len(ada.call("GET", "/api/me/bots").json()["bots"]) == 1


def test_a_person_has_a_limited_number_of_bots(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    for number in range(MAX_BOTS_PER_OWNER):
        made_bot(ada, f"bot{number}")
    answer = ada.call("POST", "/api/me/bots", {"name": "onemore"})
    assert answer.status_code == 429
    assert answer.json()["detail"].startswith(
        f"you have {MAX_BOTS_PER_OWNER} bot accounts, the most one may have"
    )
    assert client.get("/api/players/onemore").status_code == 404


# ---- its token ------------------------------------------------------------------------
def test_a_bot_has_no_password(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    randy = made_bot(ada, "Randy")
    signing_in = Device(client).sign_in("Randy", "any password at all")
    assert signing_in.status_code == 401
    assert signing_in.json()["detail"].startswith(
        "'Randy' is a bot account: it has no password and does not sign in"
    )
    for change in ({"password": "a new password", "old_password": "x" * 8}, {"email": "r@b.org"}):
        answer = randy.call("PATCH", "/api/me", change)
        assert answer.status_code == 403
        assert answer.json()["detail"].startswith("a bot account has no password nor e-mail")
    assert randy.call("GET", "/api/me").json()["email"] is None


def test_a_wrong_token_is_refused_and_changes_nothing(client: TestClient) -> None:
    stranger = Program(client, "not-a-token")
    for method, path, body in (
        ("GET", "/api/me", None),
        ("GET", "/api/session", None),
        ("POST", "/api/games", {"game": "tyrus", "seats": AGAINST_MEDIUM}),
    ):
        answer = stranger.call(method, path, body)
        assert answer.status_code == 401, (path, answer.text)
        assert answer.json()["detail"].startswith("the token in 'Authorization: Bearer' opens no")
    assert lobby(client) == []


def test_a_new_token_ends_the_former_one(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    former = made_bot(ada, "Randy")
    answer = ada.call("POST", "/api/me/bots/randy/token")
    assert answer.status_code == 200, answer.text
    renewed = Program(client, answer.json()["token"])
    assert former.call("GET", "/api/me").status_code == 401
    assert renewed.call("GET", "/api/me").json()["name"] == "Randy"
    bob = signed_up(client, "bob")
    for asker, name in ((bob, "Randy"), (ada, "nobody"), (ada, "bob")):
        refused = asker.call("POST", f"/api/me/bots/{name}/token")
        assert refused.status_code == 404
        assert refused.json()["detail"] == f"you have no bot account named {name!r}"
    assert renewed.call("GET", "/api/me").status_code == 200  # still the one that works


def test_a_bot_ends_its_own_token(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    randy = made_bot(ada, "Randy")
    assert randy.call("DELETE", "/api/session").status_code == 204
    assert randy.call("GET", "/api/me").status_code == 401
    assert ada.call("GET", "/api/me/bots").json()["bots"][0]["name"] == "Randy"  # still there


def test_a_token_opens_a_websocket_and_a_wrong_one_is_closed(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    randy = made_bot(ada, "Randy")
    game = tyrus_against_medium(randy)
    path = f"/api/games/{game['id']}/ws"
    with client.websocket_connect(path, headers=randy.headers()) as ws:
        assert ws.receive_json()["player"] == 0
    wrong = {"authorization": "Bearer not-a-token"}
    with (
        client.websocket_connect(path, headers=wrong) as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    assert closed.value.code == 4401


def test_a_token_needs_no_origin_and_a_foreign_one_changes_nothing(client: TestClient) -> None:
    """The cross-site check guards the cookie, which browsers send by themselves; a page
    of another site cannot set ``Authorization``, so a bearer request is not checked."""
    ada = signed_up(client, "ada")
    randy = made_bot(ada, "Randy")
    answer = randy.call(
        "POST",
        "/api/games",
        {"game": "tyrus", "seats": AGAINST_MEDIUM},
        origin="https://elsewhere.example",
    )
    assert answer.status_code == 201, answer.text


# ---- at the table ---------------------------------------------------------------------
def test_a_bot_holds_its_seat_and_is_shown_as_a_bot(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    randy = made_bot(ada, "Randy")
    created = ada.call(
        "POST",
        "/api/games",
        {"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "human", "account": "randy"}]},
    ).json()
    assert created["rated"] is True
    game_id = created["id"]
    state = randy.call("GET", f"/api/games/{game_id}").json()
    assert state["player"] == 1  # the seat reserved for it, opened with its token alone
    joined = randy.call("POST", f"/api/games/{game_id}/join", {})
    assert joined.status_code == 200, joined.text
    seats = joined.json()["seats"]
    assert [(s["name"], s["kind"], s["bot_account"]) for s in seats] == [
        ("ada", "human", False),
        ("Randy", "human", True),
    ]
    (entry,) = lobby(client)
    assert [s["bot_account"] for s in entry["seats"]] == [False, True]
    mine = randy.call("GET", "/api/me/games").json()["games"]
    assert [g["id"] for g in mine] == [game_id]


def test_a_bot_out_of_turn_or_illegal_is_refused_and_nothing_moves(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    randy = made_bot(ada, "Randy")
    game_id = ada.call(
        "POST",
        "/api/games",
        {"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "human", "account": "Randy"}]},
    ).json()["id"]
    state = randy.call("GET", f"/api/games/{game_id}").json()
    to_move = state["to_move"][0]
    waiting = randy if to_move == 0 else ada  # whoever is not to move
    mover = ada if to_move == 0 else randy
    waiting_state = waiting.call("GET", f"/api/games/{game_id}").json()
    mover_state = mover.call("GET", f"/api/games/{game_id}").json()
    refusals = (
        (
            waiting,
            {"action": mover_state["legal_actions"][0], "version": 0},
            400,
            f"it is not player {1 - to_move}'s turn (waiting for player {to_move})",
        ),
        (mover, {"action": "no such move", "version": 0}, 400, "'no such move' is not an action"),
        (
            mover,
            {"action": mover_state["legal_actions"][0], "version": 5},
            409,
            "version 5 is not the current one (0)",
        ),
    )
    for who, body, status, detail in refusals:
        answer = who.call("POST", f"/api/games/{game_id}/actions", body)
        assert answer.status_code == status, answer.text
        assert answer.json()["detail"].startswith(detail)
    assert waiting_state["legal_actions"] == []
    after = randy.call("GET", f"/api/games/{game_id}").json()
    assert after["version"] == 0 and after["log"] == []


def test_a_bot_is_held_to_the_limits_of_every_account(client_on: Client, sqlite_url: str) -> None:
    limits = TableLimits(**{**TableLimits.off().__dict__, "open_tables": 1})
    with client_on(sqlite_url, password_cost=TEST_COST, table_limits=limits) as client:
        ada = signed_up(client, "ada")
        randy = made_bot(ada, "Randy")
        assert randy.call("POST", "/api/games", HUMANS).status_code == 201
        refused = randy.call("POST", "/api/games", HUMANS)
        assert refused.status_code == 429
        assert "open tables" in refused.json()["detail"]
        assert len(lobby(client)) == 1


def test_each_bot_token_has_its_own_write_rate(client_on: Client, sqlite_url: str) -> None:
    """Write requests are counted by session, the bearer token included: one bot past its
    rate does not stop another one behind the same address."""
    limits = TableLimits(**{**TableLimits.off().__dict__, "writes_per_minute": 4})
    with client_on(sqlite_url, password_cost=TEST_COST, table_limits=limits) as client:
        ada = signed_up(client, "ada")  # sign-up: a write of the address
        randy, robin = made_bot(ada, "Randy"), made_bot(ada, "Robin")  # two of ada's
        for _ in range(4):
            assert randy.call("POST", "/api/games", HUMANS).status_code == 201
        refused = randy.call("POST", "/api/games", HUMANS)
        assert refused.status_code == 429
        assert refused.json()["detail"].startswith("too many requests that change something")
        assert robin.call("POST", "/api/games", HUMANS).status_code == 201
        assert len(lobby(client)) == 5


# ---- revision 0010 --------------------------------------------------------------------
def test_revision_0010_keeps_the_accounts_and_is_undone(any_database_url: str) -> None:
    engine = create_engine(database_url(any_database_url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            command.upgrade(migrations.config(conn), "0009")
            conn.execute(
                text(
                    "INSERT INTO accounts (name, name_key, password_hash, notify, is_bot,"
                    " created_at) VALUES ('ada', 'ada', 'h', :yes, :no, CURRENT_TIMESTAMP)"
                ),
                {"yes": True, "no": False},
            )
        repository = Repository(any_database_url)  # upgrades to the head
        try:
            ada = repository.account_by_key("ada")
            assert ada is not None and ada.owner_id is None and not ada.is_bot
            bot = repository.create_account("randy", "randy", "h", None, owner_id=ada.id)
            assert repository.bots_of(ada.id) == [bot] and bot.is_bot
        finally:
            repository.close()
        with engine.begin() as conn:
            command.downgrade(migrations.config(conn), "0009")
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("accounts")}
            assert "owner_id" not in columns and "is_bot" in columns
            names = conn.execute(text("SELECT name FROM accounts ORDER BY id")).scalars().all()
            assert names == ["ada", "randy"]
    finally:
        engine.dispose()


def test_no_token_starts_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A token (and so a game id) beginning with "-" reads as an option on a command line
    (`external_bot.py --token -Xy...` failed): such a draw is drawn again."""
    draws = iter(["-starts-with-a-dash", "_underscore-is-fine", "unused"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda size: next(draws))
    assert new_token() == "_underscore-is-fine"
