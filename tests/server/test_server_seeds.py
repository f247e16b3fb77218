"""Fair tables (issue 14): seeds drawn by the server use 64 secure bits; a seed chosen by a
player, which tells every hidden card, is refused at a table of two or more people or a
rated one; a practice table of one person keeps it, unrated, and says so."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from machiavel.core.rng import random_seed
from machiavel.server.storage import MAX_SEED, GameRecord, GameRow, Repository, SeatRecord
from support.devices import Device, signed_up
from support.seeds import stored_record, stored_seed
from support.waiting import Progress

BOT = {"kind": "bot", "level": "easy"}
PEOPLE_REFUSED = (
    "a chosen seed is refused at a table with two or more people: it would tell its chooser "
    "every hidden card; leave it out and the server draws one"
)


def create(client: TestClient, **body: Any) -> Any:
    return client.post("/api/games", json={"game": "tyrus", **body})


def lobby_entry(client: TestClient, game_id: str) -> dict[str, Any]:
    games = client.get("/api/games", params={"status": "all"}).json()["games"]
    found: dict[str, Any] = next(g for g in games if g["id"] == game_id)
    return found


# ---- drawn seeds ----------------------------------------------------------------------
def test_random_seeds_use_all_64_bits() -> None:
    # Each draw is below 2**60 with probability 1/16: 64 of them, 2**-256 (never).
    drawn = [random_seed() for _ in range(64)]
    assert all(0 <= seed <= MAX_SEED for seed in drawn)
    assert any(seed >= 2**60 for seed in drawn)


def test_the_server_draws_64_bit_seeds_and_stores_them(client: TestClient, sqlite_url: str) -> None:
    ids = [create(client, players=2).json()["id"] for _ in range(64)]
    seeds = [stored_seed(sqlite_url, game_id) for game_id in ids]
    assert all(0 <= seed <= MAX_SEED for seed in seeds)
    assert any(seed >= 2**60 for seed in seeds)  # else 2**-256: never by chance
    assert len(set(seeds)) == len(seeds)
    assert not any(lobby_entry(client, game_id)["seed_chosen"] for game_id in ids)


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1, 2**63, 2**64 - 1])
def test_every_64_bit_seed_is_stored_and_read_back(any_database_url: str, seed: int) -> None:
    repository = Repository(any_database_url)
    try:
        seats = (SeatRecord(0, "human"), SeatRecord(1, "bot", "easy", "bot", None, True))
        repository.create_game(GameRecord("g", "tyrus", 2, seed, {}, seats, seed_chosen=True))
        with repository.engine.connect() as conn:
            column = conn.execute(select(GameRow.seed).where(GameRow.id == "g")).scalar_one()
        assert -(2**63) <= column < 2**63  # what a signed BIGINT holds
        assert column == (seed if seed < 2**63 else seed - 2**64)
    finally:
        repository.close()
    record = stored_record(any_database_url, "g")  # another connection: a restart
    assert record.seed == seed and record.seed_chosen is True


def test_a_seed_outside_64_bits_is_never_stored(sqlite_url: str) -> None:
    repository = Repository(sqlite_url)
    try:
        for seed in (-1, 2**64):
            record = GameRecord("g", "tyrus", 2, seed, {}, (SeatRecord(0, "human"),))
            with pytest.raises(ValueError, match="a seed is from 0 to"):
                repository.create_game(record)
        assert repository.load("g") is None
    finally:
        repository.close()


# ---- chosen seeds -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        {"players": 2},  # seats default to people
        {"seats": [{"kind": "human"}, {"kind": "human"}]},
        {"seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]},
        {"game": "guildes", "seats": [{"kind": "human"}, BOT, {"kind": "human"}]},
        {"game": "djambi", "seats": [BOT, {"kind": "human"}, BOT, {"kind": "human"}]},
    ],
)
@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_a_chosen_seed_is_refused_at_a_table_of_two_or_more_people(
    client: TestClient, body: dict[str, Any], seed: int
) -> None:
    answer = create(client, seed=seed, **body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"] == PEOPLE_REFUSED
    assert client.get("/api/games", params={"status": "all"}).json()["games"] == []


def test_a_chosen_seed_is_refused_at_a_rated_table(client: TestClient) -> None:
    ada = signed_up(client, "Ada")
    body = {"game": "tyrus", "seats": [{"kind": "human"}, BOT], "seed": 3, "rated": True}
    answer = ada.call("POST", "/api/games", body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"].startswith(
        "a chosen seed is refused at a rated table: it would tell its chooser every hidden card"
    )
    assert client.get("/api/games", params={"status": "all"}).json()["games"] == []
    two = {"game": "tyrus", "seats": [{"kind": "human"}] * 2, "seed": 3, "rated": True}
    assert ada.call("POST", "/api/games", two).json()["detail"] == PEOPLE_REFUSED


def test_one_person_against_bots_keeps_a_chosen_seed_unrated_and_flagged(
    client: TestClient, sqlite_url: str
) -> None:
    ada = signed_up(client, "Ada")
    seats = [{"kind": "human"}, *[BOT] * 5]
    drawn = ada.call("POST", "/api/games", {"game": "guildes", "seats": seats}).json()
    assert drawn["rated"] is True  # an account against bots: rated when the server deals
    chosen = ada.call("POST", "/api/games", {"game": "guildes", "seats": seats, "seed": 2**63})
    assert chosen.status_code == 201, chosen.text
    practice = chosen.json()
    assert practice["rated"] is False  # its chooser knows the deal
    assert stored_seed(sqlite_url, practice["id"]) == 2**63
    entry = lobby_entry(client, practice["id"])
    assert entry["seed_chosen"] is True and entry["rated"] is False
    assert lobby_entry(client, drawn["id"])["seed_chosen"] is False
    state = ada.call("GET", f"/api/games/{practice['id']}").json()
    assert state["seed_chosen"] is True and state["player"] == 0
    unrated = {"game": "guildes", "seats": seats, "seed": 5, "rated": False}
    assert ada.call("POST", "/api/games", unrated).json()["rated"] is False
    bots_only = create(client, seats=[BOT, BOT], seed=5)  # nobody to know the deal
    assert bots_only.status_code == 201 and bots_only.json()["rated"] is False


def test_the_rematch_of_a_practice_table_draws_a_new_seed(
    client: TestClient, sqlite_url: str
) -> None:
    created = create(client, seats=[{"kind": "human", "name": "Ada"}, BOT], seed=2**64 - 1)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    play_to_the_end(Device(client), game_id, token)
    made = client.post(f"/api/games/{game_id}/rematch", json={"token": token}).json()
    rematch = stored_record(sqlite_url, made["id"])
    assert rematch.seed_chosen is False and lobby_entry(client, made["id"])["seed_chosen"] is False
    assert rematch.seed != 2**64 - 1  # drawn: equal with probability 2**-64
    assert stored_record(sqlite_url, game_id).seed_chosen is True


def play_to_the_end(device: Device, game_id: str, token: str) -> None:
    """The person plays first legal actions whenever it is their turn, the bot meanwhile
    (waits are on the state: only a game stuck for STUCK seconds fails)."""
    progress = Progress()
    while True:
        state = device.call("GET", f"/api/games/{game_id}", token=token).json()
        if state["is_over"]:
            return
        progress.saw(state["version"])
        if state["player"] not in state["to_move"]:
            time.sleep(0.005)  # the bot is thinking; the next read looks again
            continue
        body = {"token": token, "action": state["legal_actions"][0], "version": state["version"]}
        answer = device.call("POST", f"/api/games/{game_id}/actions", body)
        assert answer.status_code in (200, 409), answer.text
