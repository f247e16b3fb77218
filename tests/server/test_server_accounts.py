"""Accounts: sign up, sign in, sign out, me; the session cookie; the cross-site check;
the limit on failed sign-ins; seats that belong to an account (create, join, claim, play
with the cookie alone from two devices, WebSocket); my games; re-inviting a seat.

Argon2's cost is lowered (``TEST_COST``) through ``create_app``: the tests stay fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from machiavel.server.accounts import COOKIE, TEST_COST, SignInLimits, account_name
from support.devices import PASSWORD, SITE, Device, play_first, signed_up, tyrus, until_turn_of

Client = Callable[..., AbstractContextManager[TestClient]]


@pytest.fixture
def client(client_on: Client, sqlite_url: str) -> Iterator[TestClient]:
    with client_on(sqlite_url, password_cost=TEST_COST) as opened:
        yield opened


# ---- signing up, in and out ----------------------------------------------------------
def test_sign_up_sets_a_session_cookie_and_me_answers(client: TestClient) -> None:
    device = Device(client)
    answer = device.sign_up("Ada", email="ada@example.org")
    assert answer.status_code == 201, answer.text
    assert answer.json() == {"name": "Ada", "email": "ada@example.org"}
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    for part in ("HttpOnly", "Path=/", "SameSite=lax", f"Max-Age={30 * 24 * 3600}"):
        assert part.lower() in cookie.lower(), cookie
    assert "secure" not in cookie.lower()  # plain HTTP here
    assert device.call("GET", "/api/me").json() == {
        "name": "Ada",
        "email": "ada@example.org",
        "notify": True,
        "bot": False,
    }
    assert Device(client).call("GET", "/api/me").status_code == 401
    assert device.call("GET", "/api/session").json() == {
        "account": {"name": "Ada", "email": "ada@example.org", "notify": True, "bot": False}
    }
    assert Device(client).call("GET", "/api/session").json() == {"account": None}
    stored = client.app.state.service.repo.session(  # type: ignore[attr-defined]
        device.session
    )
    assert stored is None  # only the token's hash is stored


def test_the_cookie_is_secure_over_https(client_on: Client, sqlite_url: str) -> None:
    with client_on(sqlite_url, password_cost=TEST_COST) as plain:
        secure = TestClient(plain.app, base_url="https://testserver")
        secure.portal = plain.portal  # the same running app
        answer = secure.post(
            "/api/accounts",
            json={"name": "Ada", "password": PASSWORD},
            headers={"origin": "https://testserver"},
        )
        assert answer.status_code == 201, answer.text
        assert "secure" in answer.headers["set-cookie"].lower()


def test_names_are_unique_ignoring_case_and_follow_the_rules(client: TestClient) -> None:
    signed_up(client, "Ada")
    for taken in ("ada", "ADA", "Ａｄａ"):  # fullwidth letters: the same name once NFKC
        answer = Device(client).sign_up(taken)
        assert answer.status_code == 409, taken
        assert "taken" in answer.json()["detail"]
    for bad, why in (("A", "2 to 24"), ("x" * 25, "2 to 24"), ("Ada Lovelace", "letters")):
        answer = Device(client).sign_up(bad)
        assert answer.status_code == 400 and why in answer.json()["detail"], bad
    assert Device(client).sign_up("Émile_2.0-b").status_code == 201
    assert account_name("ＢＯ")[0] == "BO"


def test_weak_passwords_and_bad_email_addresses_are_refused(client: TestClient) -> None:
    cases = {
        "short1": "at least 8",
        "aaaaaaaaaa": "single character",
        "Bob-the-Builder": "your name",
        "x" * 201: "at most 200",
    }
    for password, why in cases.items():
        answer = Device(client).sign_up("bob-the-builder", password)
        assert answer.status_code == 400, password
        assert why in answer.json()["detail"]
    for email in ("no-at-sign", "a@b", "a@@b.org", "a b@c.org", "x" * 250 + "@a.org"):
        answer = Device(client).sign_up("Bob", email=email)
        assert answer.status_code == 400 and "e-mail" in answer.json()["detail"], email
    assert Device(client).call("POST", "/api/accounts", {"name": "Bob"}).status_code == 422


def test_sign_in_wrong_password_or_name_says_neither(client: TestClient) -> None:
    signed_up(client, "Ada")
    wrong_password = Device(client).sign_in("Ada", "not the password")
    unknown_name = Device(client).sign_in("Nobody", PASSWORD)
    assert wrong_password.status_code == unknown_name.status_code == 401
    assert wrong_password.json() == unknown_name.json() == {"detail": "wrong name or password"}
    assert COOKIE not in wrong_password.cookies
    device = Device(client)
    answer = device.sign_in("aDA")  # any case
    assert answer.status_code == 200
    assert answer.json() == {"name": "Ada", "email": None}
    assert device.call("GET", "/api/me").json()["name"] == "Ada"


def test_sign_out_ends_the_session_on_the_server(client: TestClient) -> None:
    device = signed_up(client, "Ada")
    session = device.session
    answer = device.call("DELETE", "/api/session")
    assert answer.status_code == 204
    assert f"{COOKIE}=" in answer.headers["set-cookie"]  # removed from the browser
    assert Device(client, session).call("GET", "/api/me").status_code == 401  # a kept copy
    assert Device(client, session).call("GET", "/api/me/games").status_code == 401


def test_failed_sign_ins_are_limited_per_name(client: TestClient) -> None:
    signed_up(client, "Ada")
    for _ in range(10):
        assert Device(client).sign_in("Ada", "wrong password").status_code == 401
    for password in ("wrong password", PASSWORD):  # even the right one, until it is over
        answer = Device(client).sign_in("ada", password)
        assert answer.status_code == 429
        detail = answer.json()["detail"]
        assert "for this name" in detail and "try again in 15 minutes" in detail
    assert Device(client).sign_in("Bob").status_code == 401  # other names go on


def test_failed_sign_ins_are_limited_per_address(client_on: Client, sqlite_url: str) -> None:
    limits = SignInLimits(per_name=10, per_address=3)
    with client_on(sqlite_url, password_cost=TEST_COST, sign_in_limits=limits) as client:
        for name in ("a1", "a2", "a3"):
            assert Device(client).sign_in(name).status_code == 401
        answer = Device(client).sign_in("a4")
        assert answer.status_code == 429
        assert "from your address" in answer.json()["detail"]


# ---- me -------------------------------------------------------------------------------
def test_patch_me_changes_email_notify_and_password(client: TestClient) -> None:
    device = signed_up(client, "Ada")
    other = Device(client)
    assert other.sign_in("Ada").status_code == 200
    answer = device.call("PATCH", "/api/me", {"email": "ada@example.org", "notify": False})
    assert answer.json() == {
        "name": "Ada",
        "email": "ada@example.org",
        "notify": False,
        "bot": False,
    }
    assert device.call("PATCH", "/api/me", {"email": "nope"}).status_code == 400
    assert device.call("PATCH", "/api/me", {"email": None}).json()["email"] is None
    wrong = device.call(
        "PATCH", "/api/me", {"password": "a new password", "old_password": "wrong one!"}
    )
    assert wrong.status_code == 403 and "wrong" in wrong.json()["detail"]
    missing = device.call("PATCH", "/api/me", {"password": "a new password"})
    assert missing.status_code == 400 and "old_password" in missing.json()["detail"]
    weak = device.call("PATCH", "/api/me", {"password": "short", "old_password": PASSWORD})
    assert weak.status_code == 400
    changed = device.call(
        "PATCH", "/api/me", {"password": "a new password", "old_password": PASSWORD}
    )
    assert changed.status_code == 200
    assert device.call("GET", "/api/me").status_code == 200  # this browser stays in
    assert other.call("GET", "/api/me").status_code == 401  # the others sign in again
    assert Device(client).sign_in("Ada").status_code == 401
    assert Device(client).sign_in("Ada", "a new password").status_code == 200
    assert Device(client).call("PATCH", "/api/me", {"notify": True}).status_code == 401


# ---- cross-site requests --------------------------------------------------------------
def test_cookie_requests_from_another_site_are_refused(client: TestClient) -> None:
    device = signed_up(client, "Ada")
    game = tyrus(device)
    for origin in ("https://evil.example", "http://testserver:8080", "https://testserver"):
        device.origin = origin
        for method, path, body in (
            ("POST", "/api/games", {"game": "tyrus", "players": 2}),
            ("PATCH", "/api/me", {"notify": False}),
            ("DELETE", "/api/session", None),
            ("POST", f"/api/games/{game['id']}/actions", {"action": "S1 citadel", "version": 0}),
        ):
            answer = device.call(method, path, body)
            assert answer.status_code == 403, (origin, path)
            assert "cross-site" in answer.json()["detail"]
    device.origin = None  # neither Origin nor Referer: refused too
    assert device.call("PATCH", "/api/me", {"notify": False}).status_code == 403
    referer = client.patch(
        "/api/me",
        json={"notify": False},
        headers={"cookie": f"{COOKIE}={device.session}", "referer": f"{SITE}/#/"},
    )
    assert referer.status_code == 200  # a Referer of this site will do
    device.origin = SITE
    assert device.call("GET", "/api/me").json()["notify"] is False
    # Reading needs no Origin; signing in from another site's page is refused.
    assert Device(client, device.session).call("GET", "/api/me").status_code == 200
    foreign = Device(client)
    foreign.origin = "https://evil.example"
    assert foreign.sign_in("Ada").status_code == 403
    # A token in the body is not the cookie: scripts and bots act from anywhere.
    token_game = tyrus(Device(client))
    bare = Device(client, device.session)
    bare.origin = "https://evil.example"
    mover = client.get(f"/api/games/{token_game['id']}").json()["to_move"][0]
    token = token_game["seats"][mover]["token"]
    seen = client.get(f"/api/games/{token_game['id']}", params={"token": token}).json()
    body = {"token": token, "action": seen["legal_actions"][0], "version": 0}
    assert bare.call("POST", f"/api/games/{token_game['id']}/actions", body).status_code == 200


def test_a_websocket_with_the_cookie_from_another_site_is_refused(client: TestClient) -> None:
    device = signed_up(client, "Ada")
    game = tyrus(device)
    headers = {"cookie": f"{COOKIE}={device.session}", "origin": "https://evil.example"}
    with (
        client.websocket_connect(f"/api/games/{game['id']}/ws", headers=headers) as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    assert closed.value.code == 4403
    with client.websocket_connect(
        f"/api/games/{game['id']}/ws", headers={**headers, "origin": SITE}
    ) as ws:
        assert ws.receive_json()["player"] == 0


# ---- seats of an account --------------------------------------------------------------
def test_two_devices_of_one_account_play_the_same_seat(client: TestClient) -> None:
    phone = signed_up(client, "Ada")
    game = tyrus(phone)
    game_id = game["id"]
    laptop = Device(client)
    assert laptop.sign_in("Ada").status_code == 200
    bob = signed_up(client, "Bob")
    joined = bob.call("POST", f"/api/games/{game_id}/join", {})
    assert joined.status_code == 200, joined.text
    assert joined.json()["player"] == 1
    assert [s["name"] for s in joined.json()["seats"]] == ["Ada", "Bob"]
    for device in (phone, laptop):
        assert device.call("GET", f"/api/games/{game_id}").json()["player"] == 0
    assert Device(client).call("GET", f"/api/games/{game_id}").json()["player"] is None
    assert bob.call("GET", f"/api/games/{game_id}").json()["player"] == 1
    until_turn_of(1, {0: laptop, 1: bob}, game_id)  # Ada's laptop plays if she begins
    version = play_first(bob, game_id)["version"]
    headers = {"cookie": f"{COOKIE}={phone.session}", "origin": SITE}
    with client.websocket_connect(f"/api/games/{game_id}/ws", headers=headers) as ws:
        pushed = ws.receive_json()
        assert pushed["player"] == 0 and pushed["version"] == version
        move = pushed["legal_actions"][0]
        answer = laptop.call(
            "POST", f"/api/games/{game_id}/actions", {"action": move, "version": version}
        )
        assert answer.status_code == 200, answer.text
        assert ws.receive_json()["version"] == version + 1  # the phone sees the laptop's move
        ws.send_json({"action": "not an action", "version": version + 1})
        assert ws.receive_json()["error"]["status"] in (400, 409)
    # The token of the creator's seat keeps working for scripts.
    token_state = client.get(f"/api/games/{game_id}", params={"token": game["seats"][0]["token"]})
    assert token_state.json()["player"] == 0


def test_a_seat_of_an_account_cannot_be_joined_by_others(client: TestClient) -> None:
    ada = signed_up(client, "Ada")
    game = tyrus(ada)
    token0 = game["seats"][0]["token"]
    for intruder in (Device(client), signed_up(client, "Eve")):
        answer = intruder.call(
            "POST", f"/api/games/{game['id']}/join", {"name": "Eve", "token": token0}
        )
        assert answer.status_code == 409 and "belongs to an account" in answer.json()["detail"]
        taken = intruder.call("POST", f"/api/games/{game['id']}/join", {"name": "Eve", "seat": 0})
        assert taken.status_code == 409
    twice = ada.call("POST", f"/api/games/{game['id']}/join", {"seat": 1})
    assert twice.status_code == 409 and "already holds seat 0" in twice.json()["detail"]
    # Signed out, a join needs a name.
    nameless = Device(client).call("POST", f"/api/games/{game['id']}/join", {"seat": 1})
    assert nameless.status_code == 422


def test_a_seat_taken_by_token_is_kept_in_an_account(client: TestClient) -> None:
    game = tyrus(Device(client))  # nobody signed in: tokens only
    game_id, token = game["id"], game["seats"][1]["token"]
    person = Device(client)
    joined = person.call("POST", f"/api/games/{game_id}/join", {"name": "Cy", "token": token})
    token = joined.json()["token"]
    assert person.call("POST", f"/api/games/{game_id}/claim", {"token": token}).status_code == 401
    assert person.sign_up("Cyrus").status_code == 201
    wrong = person.call("POST", f"/api/games/{game_id}/claim", {"token": "forged"})
    assert wrong.status_code == 403
    claimed = person.call("POST", f"/api/games/{game_id}/claim", {"token": token})
    assert claimed.status_code == 200 and claimed.json()["player"] == 1
    assert claimed.json()["seats"][1]["name"] == "Cy"
    again = person.call("POST", f"/api/games/{game_id}/claim", {"token": token})
    assert again.status_code == 200  # already kept: nothing changes
    other = signed_up(client, "Dora")
    stolen = other.call("POST", f"/api/games/{game_id}/claim", {"token": token})
    assert stolen.status_code == 409
    elsewhere = Device(client)
    assert elsewhere.sign_in("Cyrus").status_code == 200
    assert elsewhere.call("GET", f"/api/games/{game_id}").json()["player"] == 1
    games = elsewhere.call("GET", "/api/me/games").json()["games"]
    to_move = client.get(f"/api/games/{game_id}").json()["to_move"]
    assert [g["id"] for g in games] == [game_id] and games[0]["your_turn"] is (1 in to_move)


def test_a_wrong_token_never_takes_a_seat_away(client: TestClient) -> None:
    ada = signed_up(client, "Ada")
    game = tyrus(ada)
    refused = ada.call("GET", f"/api/games/{game['id']}", token="stale-token")
    assert refused.status_code == 403  # the wrong token is told so ...
    assert ada.call("GET", f"/api/games/{game['id']}").json()["player"] == 0  # ... seat kept
    assert game["seats"][0]["token"] is not None
    state = client.get(f"/api/games/{game['id']}", params={"token": game["seats"][0]["token"]})
    assert state.json()["player"] == 0


# ---- my games -------------------------------------------------------------------------
def test_my_games_your_turn_first_longest_waiting_first(client: TestClient) -> None:
    ada, bob = signed_up(client, "Ada"), signed_up(client, "Bob")
    assert Device(client).call("GET", "/api/me/games").status_code == 401
    assert ada.call("GET", "/api/me/games").json() == {"games": []}
    # Bob (seat 1) to move in each game (Ada plays first where her seat begins): Ada waits
    # in each game Bob does not play.
    ids = []
    for _ in range(4):
        game_id = tyrus(ada)["id"]
        assert bob.call("POST", f"/api/games/{game_id}/join", {}).status_code == 200
        until_turn_of(1, {0: ada, 1: bob}, game_id)
        ids.append(game_id)
    lonely = tyrus(ada)["id"]  # seat 1 free: open, and not Ada's turn once she played
    if 0 in ada.call("GET", f"/api/games/{lonely}").json()["to_move"]:
        play_first(ada, lonely)
    versions = {}
    for game_id in (ids[2], ids[0], ids[3]):  # Bob moves: Ada's turn, in this order
        versions[game_id] = play_first(bob, game_id)["version"]
    games = ada.call("GET", "/api/me/games").json()["games"]
    assert [g["id"] for g in games[:3]] == [ids[2], ids[0], ids[3]]
    assert all(g["your_turn"] and g["waiting_since"].endswith("Z") for g in games[:3])
    waits = [g["waiting_since"] for g in games[:3]]
    assert waits == sorted(waits)
    rest = {g["id"]: g for g in games[3:]}
    assert set(rest) == {ids[1], lonely}
    assert rest[lonely]["status"] == "open" and rest[ids[1]]["status"] == "running"
    assert not any(g["your_turn"] or g["waiting_since"] for g in rest.values())
    first = games[0]
    assert set(first) == {
        "id", "game", "title", "player", "your_turn", "waiting_since", "status", "seats",
        "version", "invited", "pace", "to_move", "turn_since",
    }  # fmt: skip
    assert first["player"] == 0 and first["title"] == "Tyrus"
    assert first["version"] == versions[ids[2]]
    bob_games = bob.call("GET", "/api/me/games").json()["games"]
    assert [g["id"] for g in bob_games][:1] == [ids[1]]  # only Bob's turn there
    assert all(g["player"] == 1 for g in bob_games)


def test_finished_games_come_last(client: TestClient) -> None:
    ada = signed_up(client, "Ada")
    game = tyrus(ada, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    game_id = game["id"]
    going = tyrus(ada)["id"]
    while True:
        state = ada.call("GET", f"/api/games/{game_id}").json()
        if state["is_over"]:
            break
        if 0 not in state["to_move"]:
            continue  # the bot is thinking; the next read waits on it
        body = {"action": state["legal_actions"][0], "version": state["version"]}
        assert ada.call("POST", f"/api/games/{game_id}/actions", body).status_code in (200, 409)
    games = ada.call("GET", "/api/me/games").json()["games"]
    assert [g["id"] for g in games] == [going, game_id]
    assert games[1]["status"] == "finished" and games[1]["your_turn"] is False


# ---- re-inviting a seat ---------------------------------------------------------------
def test_the_host_reinvites_a_seat_never_taken(client: TestClient) -> None:
    game = tyrus(Device(client), [{"kind": "human", "name": "Host"}, {"kind": "human"}])
    game_id = game["id"]
    host_token, invite = game["seats"][0]["token"], game["seats"][1]["token"]
    path = f"/api/games/{game_id}/seats/1/invite"
    assert client.post(path, json={}).status_code == 403
    assert client.post(path, json={"token": invite}).status_code == 403  # not the host's
    answer = client.post(path, json={"token": host_token})
    assert answer.status_code == 200, answer.text
    fresh = answer.json()
    assert fresh["player"] == 1 and fresh["token"] != invite
    old = client.get(f"/api/games/{game_id}", params={"token": invite})
    assert old.status_code == 403  # the old invite link stops working
    assert client.get(f"/api/games/{game_id}", params={"token": fresh["token"]}).status_code == 200
    nowhere = client.post(f"/api/games/{game_id}/seats/5/invite", json={"token": host_token})
    assert nowhere.status_code == 400
    # Once the seat is taken it is no longer re-invited.
    join = {"name": "Guest", "token": fresh["token"]}
    assert client.post(f"/api/games/{game_id}/join", json=join).status_code == 200
    assert client.post(path, json={"token": host_token}).status_code == 409
    # The creator's account may re-invite without a token.
    ada = signed_up(client, "Ada")
    mine = tyrus(ada)
    answer = ada.call("POST", f"/api/games/{mine['id']}/seats/1/invite", {})
    assert answer.status_code == 200
    taken = ada.call("POST", f"/api/games/{mine['id']}/seats/0/invite", {})
    assert taken.status_code == 409  # Ada's own seat is taken
    bot_game = tyrus(ada, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    bot = ada.call("POST", f"/api/games/{bot_game['id']}/seats/1/invite", {})
    assert bot.status_code == 409
    assert (
        signed_up(client, "Eve")
        .call("POST", f"/api/games/{mine['id']}/seats/1/invite", {})
        .status_code
        == 403
    )


def test_playing_without_an_account_is_unchanged(client: TestClient) -> None:
    game = tyrus(Device(client))
    assert [s["token"] is not None for s in game["seats"]] == [True, True]
    state = client.get(f"/api/games/{game['id']}").json()
    assert [s["claimed"] for s in state["seats"]] == [False, False]
    assert all("account" not in s and "account_id" not in s for s in state["seats"])
