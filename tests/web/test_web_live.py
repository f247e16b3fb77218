"""Live updates: a page that missed changes is answered 409 and catches up; a dropped
WebSocket reconnects by itself and gets the lines of the log it missed, once each."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, Response, WebSocketRoute

SOCKET = re.compile(r".*/api/games/.*/ws.*")


class SocketSwitch:
    """Sits between the page and the server's WebSocket: can hold back the server's
    pushes, or cut the connection (the page must then reconnect by itself)."""

    def __init__(self, page: Page) -> None:
        self.deaf = False
        self.routes: list[WebSocketRoute] = []
        self.urls: list[str] = []
        page.route_web_socket(SOCKET, self.attach)

    def attach(self, route: WebSocketRoute) -> None:
        self.routes.append(route)
        self.urls.append(route.url)
        server = route.connect_to_server()
        server.on_message(lambda message: None if self.deaf else route.send(message))
        route.on_message(server.send)

    def cut(self) -> None:
        self.routes[-1].close(code=4000, reason="cut by the test")


def version_of(page: Page) -> int:
    return int(page.get_attribute(".game-page", "data-version") or -1)


def test_a_stale_page_gets_409_and_shows_the_current_state(
    server: Any, open_page: Callable[..., Any]
) -> None:
    created = server.create(
        {
            "game": "tyrus",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    first = server.state(game_id)["to_move"][0]
    page = open_page().page
    switch = SocketSwitch(page)
    page.goto(f"{server.base}/#/game/{game_id}?token={tokens[first]}")
    page.wait_for_function("document.body.dataset.turn === 'mine'")
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith("/actions") else None)
    # The same seat plays from elsewhere (another tab) while this page hears nothing.
    switch.deaf = True
    # The other tab places another tile than the one this page will (the same action
    # again would be a duplicate, answered 200).
    clicked = page.locator(".hand .hand-tile.choosable").first
    tile = clicked.get_attribute("data-tile")
    seat = server.state(game_id, tokens[first])
    other = next(a for a in seat["legal_actions"] if a.split()[0] != tile)
    server.act(game_id, tokens[first], other, seat["version"])
    assert version_of(page) == 0
    clicked.click()
    page.locator(".building.choosable").first.click()
    page.locator(".notice.info").wait_for()
    assert statuses == [409]
    assert version_of(page) == 1  # the state the 409 carried
    assert page.evaluate("document.body.dataset.turn") == "others"
    assert page.locator(".log ol > li").count() == 1


def test_simultaneous_choices_survive_others_moving_meanwhile(
    server: Any, open_page: Callable[..., Any]
) -> None:
    created = server.create({"game": "guildes", "players": 3})
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    page = open_page().page
    switch = SocketSwitch(page)
    page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
    page.wait_for_function("document.body.dataset.turn === 'mine'")
    statuses: list[int] = []

    def record(response: Response) -> None:
        if response.url.endswith("/actions"):
            statuses.append(response.status)

    page.on("response", record)
    switch.deaf = True
    other = server.state(game_id, tokens[1])
    server.act(game_id, tokens[1], other["legal_actions"][0], other["version"])
    page.locator(".hand .card-key.choosable").first.click()
    page.wait_for_function("document.body.dataset.turn === 'others'")
    # Seat 0's choices had not changed: the page played its choice at the new version.
    assert statuses == [409, 200]
    assert page.locator(".notice").count() == 0
    assert server.state(game_id)["version"] == 2


def test_a_dropped_socket_reconnects_and_catches_up(
    server: Any, open_page: Callable[..., Any]
) -> None:
    created = server.create(
        {
            "game": "tyrus",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
        }
    )
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    page = open_page().page
    switch = SocketSwitch(page)
    page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
    page.wait_for_selector('#connection[data-status="live"]')
    switch.deaf = True  # pushes are lost ...
    for _ in range(3):
        public = server.state(game_id)
        player = public["to_move"][0]
        seat = server.state(game_id, tokens[player])
        server.act(game_id, tokens[player], seat["legal_actions"][0], seat["version"])
    assert version_of(page) == 0
    switch.deaf = False
    switch.cut()  # ... then the connection drops
    page.wait_for_function("Number(document.querySelector('.game-page').dataset.version) === 3")
    assert len(switch.urls) == 2
    assert "log_from=0" in switch.urls[1]  # it asked for the lines it lacked
    assert page.locator(".log ol > li").count() == 3
    page.wait_for_selector('#connection[data-status="live"]')
