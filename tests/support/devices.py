"""Browsers of the API tests: each its own session cookie, on one app."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from machiavel.server.accounts import COOKIE

SITE = "http://testserver"
PASSWORD = "correct horse"


class Device:
    """One browser: its own session cookie, sent by hand (the client's jar stays empty,
    so several devices share one app), and this site's Origin on every request."""

    def __init__(self, client: TestClient, session: str | None = None) -> None:
        self.client = client
        self.session = session
        self.origin: str | None = SITE

    def headers(self) -> dict[str, str]:
        headers = {}
        if self.session is not None:
            headers["cookie"] = f"{COOKIE}={self.session}"
        if self.origin is not None:
            headers["origin"] = self.origin
        return headers

    def call(self, method: str, path: str, body: Any = None, **params: Any) -> Any:
        answer = self.client.request(
            method, path, json=body, params=params or None, headers=self.headers()
        )
        cookie = answer.cookies.get(COOKIE)
        if cookie is not None:
            self.session = cookie
        self.client.cookies.clear()
        return answer

    def sign_up(self, name: str, password: str = PASSWORD, **more: Any) -> Any:
        return self.call("POST", "/api/accounts", {"name": name, "password": password, **more})

    def sign_in(self, name: str, password: str = PASSWORD) -> Any:
        return self.call("POST", "/api/session", {"name": name, "password": password})


def signed_up(client: TestClient, name: str) -> Device:
    device = Device(client)
    answer = device.sign_up(name)
    assert answer.status_code == 201, answer.text
    return device


def tyrus(device: Device, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A Tyrus table; the server draws its deal (so either seat may begin)."""
    seats = seats or [{"kind": "human"}, {"kind": "human"}]
    answer = device.call("POST", "/api/games", {"game": "tyrus", "seats": seats})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def play_first(device: Device, game_id: str) -> dict[str, Any]:
    """The device's seat plays its first legal action (it must be its turn)."""
    state = device.call("GET", f"/api/games/{game_id}").json()
    assert state["player"] in state["to_move"], "not this device's turn"
    body = {"action": state["legal_actions"][0], "version": state["version"]}
    answer = device.call("POST", f"/api/games/{game_id}/actions", body)
    assert answer.status_code == 200, answer.text
    played: dict[str, Any] = answer.json()
    return played


def until_turn_of(seat: int, devices: dict[int, Device], game_id: str) -> int:
    """Play first legal actions until ``seat`` is to move (Tyrus: at most one, as seats
    alternate at first); the version then."""
    while True:
        state = devices[seat].call("GET", f"/api/games/{game_id}").json()
        if seat in state["to_move"]:
            return int(state["version"])
        play_first(devices[state["to_move"][0]], game_id)
