"""Limits per account and per address (docs/server.md, "Limits"): tables open, with bots,
with strong bots at once; write requests a second. Past a limit: 429 and a sentence, and
nothing changes."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from fastapi.testclient import TestClient

from machiavel.server.accounts import TEST_COST
from machiavel.server.quotas import TableLimits
from support.devices import signed_up

Client = Callable[..., AbstractContextManager[TestClient]]
NO_LIMIT = TableLimits.off()
HUMANS = [{"kind": "human"}, {"kind": "human"}]
BOTS = [{"kind": "human", "name": "me"}, {"kind": "bot", "level": "easy"}]
STRONG = [{"kind": "human", "name": "me"}, {"kind": "bot", "level": "hard"}]


def limited(**limits: Any) -> TableLimits:
    return TableLimits(**{**NO_LIMIT.__dict__, **limits})


def open_table(client: TestClient, seats: list[dict[str, Any]], **headers: str) -> Any:
    return client.post("/api/games", json={"game": "tyrus", "seats": seats}, headers=headers)


def listed(client: TestClient) -> int:
    return len(client.get("/api/games?status=all").json()["games"])


def test_open_tables_per_address(client_on: Client, sqlite_url: str) -> None:
    with client_on(sqlite_url, table_limits=limited(open_tables=2)) as client:
        assert open_table(client, HUMANS).status_code == 201
        assert open_table(client, HUMANS).status_code == 201
        refused = open_table(client, HUMANS)
        assert refused.status_code == 429
        assert refused.json()["detail"] == (
            "your address has 2 open tables (with a person's seat free), the most one may "
            "have at once (2): try again once one of them is full or over"
        )
        assert listed(client) == 2  # nothing was created
        full = [{"kind": "human", "name": "me"}, {"kind": "human", "name": "you"}]
        assert open_table(client, full).status_code == 201  # no free seat: not counted


def test_a_table_that_fills_frees_its_place(client_on: Client, sqlite_url: str) -> None:
    with client_on(sqlite_url, table_limits=limited(open_tables=1)) as client:
        created = open_table(client, HUMANS).json()
        assert open_table(client, HUMANS).status_code == 429
        for seat in (0, 1):
            joined = client.post(
                f"/api/games/{created['id']}/join", json={"name": f"p{seat}", "seat": seat}
            )
            assert joined.status_code == 200, joined.text
        assert open_table(client, HUMANS).status_code == 201


def test_tables_per_account(client_on: Client, sqlite_url: str) -> None:
    limits = limited(bot_tables=1)
    with client_on(sqlite_url, table_limits=limits, password_cost=TEST_COST) as client:
        ada = signed_up(client, "ada")
        body = {"game": "tyrus", "seats": BOTS}
        assert ada.call("POST", "/api/games", body).status_code == 201
        refused = ada.call("POST", "/api/games", body)
        assert refused.status_code == 429
        assert refused.json()["detail"].startswith("your account has 1 tables with bots")


def test_strong_bots_at_once(client_on: Client, sqlite_url: str) -> None:
    with client_on(sqlite_url, table_limits=limited(strong_bot_tables=1)) as client:
        assert open_table(client, STRONG).status_code == 201
        refused = open_table(client, STRONG)
        assert refused.status_code == 429 and "hard or expert bots" in refused.json()["detail"]
        assert open_table(client, BOTS).status_code == 201  # easy bots are not counted


def test_a_table_over_frees_its_place(client_on: Client, sqlite_url: str) -> None:
    with client_on(sqlite_url, table_limits=limited(bot_tables=1)) as client:
        created = open_table(client, BOTS).json()
        assert open_table(client, BOTS).status_code == 429
        token = created["seats"][0]["token"]
        left = client.post(f"/api/games/{created['id']}/leave", json={"token": token})
        assert left.status_code == 200 and left.json()["is_over"]  # resigned
        assert open_table(client, BOTS).status_code == 201


def test_write_requests_a_minute(client_on: Client, sqlite_url: str) -> None:
    with client_on(sqlite_url, table_limits=limited(writes_per_minute=3)) as client:
        for _ in range(3):
            assert open_table(client, BOTS).status_code == 201
        refused = open_table(client, BOTS)
        assert refused.status_code == 429
        assert refused.json()["detail"].startswith(
            "too many requests that change something (3 a minute): wait "
        )
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert client.get("/api/games").status_code == 200  # reading is not counted
        assert listed(client) == 3


def test_no_limits_for_a_private_server(client_on: Client, sqlite_url: str) -> None:
    with client_on(sqlite_url, table_limits=NO_LIMIT) as client:
        for _ in range(30):
            assert open_table(client, HUMANS).status_code == 201
