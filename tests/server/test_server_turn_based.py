"""Turn-based tables, invitations by account name, and the mails they send.

Mail goes to a real SMTP server on the loopback (aiosmtpd, ``support.smtp``); waits are
on conditions (the notifier and mailer idle, a message received), nothing is timed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from email.message import EmailMessage
from typing import Any

import pytest
from fastapi.testclient import TestClient

from machiavel.server.accounts import TEST_COST
from machiavel.server.launch import free_port
from machiavel.server.mail import MailSettings
from machiavel.server.notices import Notifier
from machiavel.server.storage import Repository
from support.devices import Device, signed_up, until_turn_of
from support.smtp import Collector, Servers, smtp_servers

Client = Callable[..., AbstractContextManager[TestClient]]
PUBLIC = "https://machiavel.test"
SENDER = "machiavel <notify@machiavel.test>"


@pytest.fixture
def servers() -> Iterator[Servers]:
    yield from smtp_servers()


@pytest.fixture
def inbox(servers: Servers) -> tuple[Collector, MailSettings]:
    collector = Collector()
    controller = servers.start(collector)
    return collector, MailSettings.from_url(f"smtp://127.0.0.1:{controller.port}", SENDER)


@pytest.fixture
def client(client_on: Client, sqlite_url: str) -> Iterator[TestClient]:
    with client_on(sqlite_url, password_cost=TEST_COST) as opened:
        yield opened


@pytest.fixture
def mailing(
    client_on: Client, sqlite_url: str, inbox: tuple[Collector, MailSettings]
) -> Iterator[TestClient]:
    """An app that mails through the test's SMTP server (retries without pauses)."""
    with client_on(
        sqlite_url,
        password_cost=TEST_COST,
        mail_settings=inbox[1],
        public_url=PUBLIC,
        mail_retry_delays=(),
    ) as opened:
        yield opened


def settle(client: TestClient) -> None:
    """Wait until every notice so far is claimed and its mail delivered or given up."""
    portal = client.portal
    assert portal is not None
    notifier: Notifier = client.app.state.service.notifier  # type: ignore[attr-defined]
    portal.call(notifier.wait_idle)


def with_address(client: TestClient, name: str) -> Device:
    device = signed_up(client, name)
    answer = device.call("PATCH", "/api/me", {"email": f"{name}@example.org"})
    assert answer.status_code == 200, answer.text
    return device


def turn_based_tyrus(host: Device, guest: str | None = "bob", **more: Any) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "human"}]
    if guest is not None:
        seats[1]["account"] = guest
    body = {"game": "tyrus", "seats": seats, "pace": "turn-based", **more}
    answer = host.call("POST", "/api/games", body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def state(device: Device, game_id: str) -> dict[str, Any]:
    answer = device.call("GET", f"/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def first_mover(device: Device, game_id: str) -> int:
    """The seat that begins (the server draws the deal: either may)."""
    begins: int = state(device, game_id)["to_move"][0]
    return begins


def play(device: Device, game_id: str, choose: random.Random | None = None) -> dict[str, Any]:
    """The device's seat plays its first legal action (or a random one)."""
    now = state(device, game_id)
    actions = now["legal_actions"]
    action = choose.choice(actions) if choose else actions[0]
    answer = device.call(
        "POST", f"/api/games/{game_id}/actions", {"action": action, "version": now["version"]}
    )
    assert answer.status_code == 200, answer.text
    played: dict[str, Any] = answer.json()
    return played


def mine(device: Device, game_id: str) -> dict[str, Any]:
    games = device.call("GET", "/api/me/games").json()["games"]
    return next(g for g in games if g["id"] == game_id)


def to_whom(messages: list[EmailMessage]) -> list[tuple[str, str]]:
    return [(str(m["To"]), str(m["Subject"])) for m in messages]


# ---- pace -----------------------------------------------------------------------------
def test_a_table_is_live_by_default_or_turn_based(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    live = ada.call("POST", "/api/games", {"game": "tyrus", "players": 2}).json()
    assert live["pace"] == "live" and state(ada, live["id"])["pace"] == "live"
    slow = turn_based_tyrus(ada, guest=None)
    assert slow["pace"] == "turn-based"
    seen = state(ada, slow["id"])
    assert seen["pace"] == "turn-based" and seen["turn_since"].endswith("Z")
    lobby = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert lobby[slow["id"]]["pace"] == "turn-based" and lobby[live["id"]]["pace"] == "live"
    assert lobby[slow["id"]]["to_move"] == seen["to_move"] and seen["to_move"] in ([0], [1])
    assert lobby[slow["id"]]["turn_since"] == seen["turn_since"].replace("Z", "Z")
    entry = mine(ada, slow["id"])
    assert entry["pace"] == "turn-based" and entry["to_move"] == seen["to_move"]
    assert entry["turn_since"]


def test_turn_since_moves_with_each_action(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    game = turn_based_tyrus(ada, guest=None)
    bob = signed_up(client, "bob")
    assert bob.call("POST", f"/api/games/{game['id']}/join", {}).status_code == 200
    before = state(ada, game["id"])["turn_since"]
    players = {0: ada, 1: bob}
    first = first_mover(ada, game["id"])
    played = play(players[first], game["id"])
    assert played["turn_since"] >= before and played["to_move"] == [1 - first]
    assert mine(players[1 - first], game["id"])["your_turn"] is True


@pytest.mark.parametrize("pace", ["slow", "", "LIVE", 3])
def test_an_unknown_pace_is_refused(client: TestClient, pace: Any) -> None:
    answer = client.post("/api/games", json={"game": "tyrus", "players": 2, "pace": pace})
    assert answer.status_code == 422 and "pace" in answer.json()["detail"]
    assert client.get("/api/games").json()["games"] == []


# ---- invitations by account name ------------------------------------------------------
def test_a_seat_reserved_for_an_account_is_an_invitation(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    bob = signed_up(client, "Bob")
    game = turn_based_tyrus(ada, guest="BOB")  # names ignore case
    seats = state(ada, game["id"])["seats"]
    assert seats[0]["name"] == "ada" and seats[0]["claimed"] and not seats[0]["reserved"]
    assert seats[1]["name"] == "Bob" and seats[1]["reserved"] and not seats[1]["claimed"]
    lobby = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert lobby[game["id"]]["open_seats"] == [] and lobby[game["id"]]["status"] == "running"
    invitation = mine(bob, game["id"])
    assert invitation["invited"] is True and invitation["player"] == 1
    assert invitation["your_turn"] is (first_mover(ada, game["id"]) == 1)
    assert mine(ada, game["id"])["invited"] is False
    until_turn_of(1, {0: ada, 1: bob}, game["id"])  # Ada plays first if her seat begins
    played = play(bob, game["id"])  # the cookie alone opens the reserved seat
    assert played["player"] == 1 and played["seats"][1]["claimed"]
    assert mine(bob, game["id"])["invited"] is False


def test_only_the_invited_account_takes_a_reserved_seat(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    signed_up(client, "bob")
    carl = signed_up(client, "carl")
    game = turn_based_tyrus(ada)
    answer = carl.call("POST", f"/api/games/{game['id']}/join", {"seat": 1})
    assert answer.status_code == 409 and "reserved for bob" in answer.json()["detail"]
    anonymous = client.post(f"/api/games/{game['id']}/join", json={"name": "dan"})
    assert anonymous.status_code == 409 and "every seat" in anonymous.json()["detail"]
    assert state(ada, game["id"])["seats"][1]["reserved"]


def test_the_invited_account_joins_its_seat(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    bob = signed_up(client, "bob")
    game = turn_based_tyrus(ada)
    joined = bob.call("POST", f"/api/games/{game['id']}/join", {})
    assert joined.status_code == 200, joined.text
    assert joined.json()["player"] == 1 and joined.json()["seats"][1]["claimed"]


@pytest.mark.parametrize(
    ("seats", "status", "says"),
    [
        ([{"kind": "human", "account": "nobody"}, {"kind": "human"}], 404, "no account named"),
        (
            [{"kind": "human", "account": "bob"}, {"kind": "human", "account": "BOB"}],
            400,
            "both for bob",
        ),
        ([{"kind": "human"}, {"kind": "bot", "level": "easy", "account": "bob"}], 400, "human"),
        ([{"kind": "human"}, {"kind": "human", "account": "b" * 65}], 422, "account"),
    ],
)
def test_bad_invitations_are_refused(
    client: TestClient, seats: list[dict[str, Any]], status: int, says: str
) -> None:
    ada = signed_up(client, "ada")
    signed_up(client, "bob")
    answer = ada.call("POST", "/api/games", {"game": "tyrus", "seats": seats})
    assert answer.status_code == status and says in answer.json()["detail"], answer.text
    assert client.get("/api/games").json()["games"] == []


def test_the_creator_named_in_a_seat_holds_that_seat(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    seats = [{"kind": "human"}, {"kind": "human", "account": "ada"}]
    game = ada.call("POST", "/api/games", {"game": "tyrus", "seats": seats}).json()
    seen = state(ada, game["id"])
    assert seen["player"] == 1 and seen["seats"][1]["claimed"] and not seen["seats"][0]["claimed"]


def test_the_creator_naming_a_seat_holds_it_beside_an_invitation(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    signed_up(client, "bob")
    seats = [{"kind": "human", "name": "Ada at home"}, {"kind": "human", "account": "bob"}]
    game = ada.call("POST", "/api/games", {"game": "tyrus", "seats": seats}).json()
    seen = state(ada, game["id"])
    assert seen["player"] == 0 and seen["seats"][0]["name"] == "Ada at home"
    assert mine(ada, game["id"])["player"] == 0 and seen["seats"][1]["reserved"]


def test_the_host_reserves_a_free_seat_for_an_account(client: TestClient) -> None:
    ada = signed_up(client, "ada")
    bob = signed_up(client, "bob")
    game = turn_based_tyrus(ada, guest=None)
    path = f"/api/games/{game['id']}/seats/1/invite"
    answer = ada.call("POST", path, {"account": "bob"})
    assert answer.status_code == 200 and answer.json()["account"] == "bob", answer.text
    assert mine(bob, game["id"])["invited"] is True
    assert ada.call("POST", path, {"account": "nobody"}).status_code == 404
    taken_by_ada = ada.call("POST", path, {"account": "ada"})
    assert taken_by_ada.status_code == 409 and "already has seat 0" in taken_by_ada.json()["detail"]
    assert bob.call("POST", path, {"account": "bob"}).status_code == 403  # not the host
    withdrawn = ada.call("POST", path, {"account": ""})
    assert withdrawn.status_code == 200 and withdrawn.json()["account"] is None
    assert all(g["id"] != game["id"] for g in bob.call("GET", "/api/me/games").json()["games"])
    assert state(ada, game["id"])["seats"][1] == {
        "player": 1,
        "kind": "human",
        "level": None,
        "name": None,
        "claimed": False,
        "reserved": False,
        "stand_in": False,
        "bot_account": False,
    }


# ---- mail -----------------------------------------------------------------------------
def test_invitation_turn_and_game_over_mails(
    mailing: TestClient, inbox: tuple[Collector, MailSettings]
) -> None:
    collector = inbox[0]
    ada = with_address(mailing, "ada")
    bob = with_address(mailing, "bob")
    game = turn_based_tyrus(ada)
    game_id = game["id"]
    settle(mailing)
    # bob is invited (whoever begins: no turn mail before the first action)
    assert to_whom(collector.wait_for(1)) == [
        ("bob@example.org", "ada invites you to a game of Tyrus")
    ]
    invitation = collector.messages[0]
    body = invitation.get_body(("plain",))
    assert body is not None
    text = body.get_content()
    assert f"{PUBLIC}/#/game/{game_id}" in text
    assert str(invitation["List-Unsubscribe"]).startswith(f"<{PUBLIC}/api/mail/unsubscribe?")
    players = {0: ada, 1: bob}
    first = first_mover(ada, game_id)
    play(players[first], game_id)
    settle(mailing)
    waiting = ["ada", "bob"][1 - first]
    assert to_whom(collector.wait_for(2))[1] == (f"{waiting}@example.org", "Your turn: Tyrus")
    choose = random.Random(3)
    while not (now := state(ada, game_id))["is_over"]:
        play(players[now["to_move"][0]], game_id, choose)
    settle(mailing)
    subjects = to_whom(collector.messages)
    over = [m for m in subjects if m[1] == "Game over: Tyrus"]
    assert sorted(over) == [("ada@example.org", over[0][1]), ("bob@example.org", over[0][1])]
    turns = [m for m in subjects if m[1] == "Your turn: Tyrus"]
    assert len(turns) == state(ada, game_id)["version"] - 1  # one per turn but the last


def test_no_turn_mail_to_a_player_watching_the_game(
    mailing: TestClient, inbox: tuple[Collector, MailSettings]
) -> None:
    collector = inbox[0]
    ada = with_address(mailing, "ada")
    bob = with_address(mailing, "bob")
    game_id = turn_based_tyrus(ada)["id"]
    players, names = {0: ada, 1: bob}, ["ada", "bob"]
    first = first_mover(ada, game_id)
    watcher = 1 - first
    headers = players[watcher].headers()
    with mailing.websocket_connect(f"/api/games/{game_id}/ws", headers=headers) as socket:
        assert socket.receive_json()["player"] == watcher
        play(players[first], game_id)  # the watcher is told by the page, not a mail
        while (pushed := socket.receive_json()).get("version") != 1:
            pass  # a seat taken, then the action
        assert pushed["to_move"] == [watcher]
        settle(mailing)
    play(players[watcher], game_id)
    play(players[first], game_id)  # the watcher no longer watches: mailed
    settle(mailing)
    assert to_whom(collector.wait_for(3)) == [
        ("bob@example.org", "ada invites you to a game of Tyrus"),
        (f"{names[first]}@example.org", "Your turn: Tyrus"),
        (f"{names[watcher]}@example.org", "Your turn: Tyrus"),
    ]


def test_live_tables_and_accounts_without_notify_get_no_turn_mail(
    mailing: TestClient, inbox: tuple[Collector, MailSettings]
) -> None:
    collector = inbox[0]
    ada = with_address(mailing, "ada")
    bob = with_address(mailing, "bob")
    live = ada.call(
        "POST", "/api/games", {"game": "tyrus", "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    assert bob.call("POST", f"/api/games/{live['id']}/join", {}).status_code == 200
    play({0: ada, 1: bob}[first_mover(ada, live["id"])], live["id"])  # live: no turn mail
    assert ada.call("PATCH", "/api/me", {"notify": False}).status_code == 200
    slow = turn_based_tyrus(bob, guest="ada")  # invited, notify off: no mail either
    settle(mailing)
    assert collector.messages == []
    assert mine(ada, slow["id"])["invited"] is True


def test_the_unsubscribe_link_turns_mail_off_in_one_click(
    mailing: TestClient, inbox: tuple[Collector, MailSettings]
) -> None:
    collector = inbox[0]
    ada = with_address(mailing, "ada")
    bob = with_address(mailing, "bob")
    turn_based_tyrus(ada)
    settle(mailing)
    link = str(collector.wait_for(1)[0]["List-Unsubscribe"]).strip("<>")
    path = link.removeprefix(PUBLIC)
    page = mailing.get(path)
    assert page.status_code == 200 and "no more e-mails" in page.text
    assert bob.call("GET", "/api/me").json()["notify"] is False
    assert mailing.post(path).status_code == 200  # RFC 8058 one click: a bare POST
    turn_based_tyrus(ada)  # another invitation: not mailed now
    settle(mailing)
    assert len(collector.messages) == 1


@pytest.mark.parametrize("token", ["", "1.forged", "2" + "." * 5, "x" * 150])
def test_a_bad_unsubscribe_link_changes_nothing(mailing: TestClient, token: str) -> None:
    ada = with_address(mailing, "ada")
    answer = mailing.get("/api/mail/unsubscribe", params={"token": token})
    assert answer.status_code in (400, 422)
    assert ada.call("GET", "/api/me").json()["notify"] is True


def test_a_mail_server_that_is_down_loses_no_action(
    client_on: Client, sqlite_url: str, servers: Servers
) -> None:
    dead = MailSettings.from_url(f"smtp://127.0.0.1:{free_port()}", SENDER)
    with client_on(
        sqlite_url,
        password_cost=TEST_COST,
        mail_settings=dead,
        public_url=PUBLIC,
        mail_retry_delays=(),
    ) as opened:
        ada = with_address(opened, "ada")
        bob = with_address(opened, "bob")
        game_id = turn_based_tyrus(ada)["id"]
        play({0: ada, 1: bob}[first_mover(ada, game_id)], game_id)
        settle(opened)
        assert state(ada, game_id)["version"] == 1
        mailer = opened.app.state.mailer  # type: ignore[attr-defined]
        assert mailer.sent == 0 and mailer.given_up == 2


def test_a_notice_is_claimed_once_across_restarts(any_database_url: str) -> None:
    first = Repository(any_database_url)
    try:
        assert first.claim_notice("g1", 1, "turn", 5)
        assert not first.claim_notice("g1", 1, "turn", 5)
        assert first.claim_notice("g1", 1, "turn", 6)  # the next turn
        assert first.claim_notice("g1", 1, "game_over", 6)  # another kind
        assert first.claim_notice("g1", 2, "turn", 5)  # another account
    finally:
        first.close()
    again = Repository(any_database_url)  # a restart, or another server
    try:
        assert not again.claim_notice("g1", 1, "turn", 5)
        secret = again.server_secret("unsubscribe")
        assert len(secret) >= 32 and again.server_secret("unsubscribe") == secret
    finally:
        again.close()
