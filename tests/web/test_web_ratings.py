"""Ratings pages in the browser: two accounts finish a rated Tyrus game (through the API);
the lobby links to the leaderboard, whose names link to profiles; both pages in English
and French; names and anything typed in the address are shown as text, never as HTML."""

from __future__ import annotations

import json
import random
import secrets
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from playwright.sync_api import Page

PASSWORD = "a long password"


class Account:
    """An account's API calls with its session cookie (and this site's Origin)."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.name = name
        self.cookie = ""
        status, _ = self.call("POST", "/api/accounts", {"name": name, "password": PASSWORD})
        assert status == 201

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        request.add_header("origin", self.base)
        if self.cookie:
            request.add_header("cookie", self.cookie)
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                cookie = answer.headers.get("set-cookie")
                if cookie:
                    self.cookie = cookie.split(";", 1)[0]
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


def rated_tyrus_game(base: str, first: Account, second: Account) -> str:
    status, created = first.call(
        "POST", "/api/games", {"game": "tyrus", "seats": [{"kind": "human"}] * 2}
    )
    assert status == 201 and created["rated"] is True, created
    game_id: str = created["id"]
    status, _ = second.call("POST", f"/api/games/{game_id}/join", {})
    assert status == 200
    devices = {0: first, 1: second}
    choose = random.Random(2)
    while True:
        _, state = first.call("GET", f"/api/games/{game_id}")
        if state["is_over"]:
            return game_id
        player = state["to_move"][0]
        _, mine = devices[player].call("GET", f"/api/games/{game_id}")
        body = {"action": choose.choice(mine["legal_actions"]), "version": mine["version"]}
        status, _ = devices[player].call("POST", f"/api/games/{game_id}/actions", body)
        assert status == 200


def use_language(page: Page, lang: str) -> None:
    page.click(f'.lang-switch button[data-lang="{lang}"]')
    page.locator(f'.lang-switch button[data-lang="{lang}"].active').wait_for()


def test_leaderboard_and_profile_pages(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    suffix = secrets.token_hex(3)  # the server is shared by the session's tests
    ada = Account(server.base, f"Zoé.{suffix}")
    bob = Account(server.base, f"b_o-b{suffix}")
    game_id = rated_tyrus_game(server.base, ada, bob)

    watched = open_page()
    page = watched.page
    page.goto(server.base + "/")
    use_language(page, "en")
    page.click('#ratings-links a[data-game="tyrus"]')
    page.locator(".leaderboard").wait_for()
    assert page.inner_text(".ratings-page h2") == "Tyrus: ratings"
    for account in (ada, bob):
        link = page.locator(f'.leaderboard a[data-player="{account.name}"]')
        assert link.inner_text() == account.name  # the name as text
    ratings = [int(text) for text in page.locator(".leaderboard td.rating").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    screenshot(page, "ratings-leaderboard")

    page.click(f'.leaderboard a[data-player="{ada.name}"]')
    page.locator(f'.player-name[data-player="{ada.name}"]').wait_for()
    assert page.inner_text(".player-name") == ada.name
    assert page.locator(f'.recent-games tr[data-game-id="{game_id}"]').count() == 1
    result = page.get_attribute(".recent-games td.result", "data-result")
    assert result in ("won", "lost", "shared")
    assert page.inner_text(".recent-games td.result") in ("won", "lost", "shared win")
    screenshot(page, "ratings-profile")

    use_language(page, "fr")
    page.get_by_text("Dernières parties classées").wait_for()
    assert page.inner_text(".recent-games td.result") in ("gagnée", "perdue", "victoire partagée")
    page.goto(server.base + "/#/ratings/tyrus")
    page.get_by_text("Tyrus : classement").wait_for()
    assert page.locator(f'.leaderboard a[data-player="{bob.name}"]').inner_text() == bob.name

    # What is typed in the address is shown as text (the server's sentence quotes it).
    page.goto(server.base + "/#/players/" + quote("<b>x</b>", safe=""))
    page.locator(".ratings-page .error").wait_for()
    assert page.inner_text(".ratings-page .error") == "there is no player named '<b>x</b>'"
    assert page.locator(".ratings-page b").count() == 0
    # Chromium logs the expected 404 answer as a console error: only that one is allowed.
    expected = [e for e in watched.errors if "status of 404" in e]
    assert len(expected) == 1, watched.errors
    watched.errors.remove(expected[0])


def test_the_account_panel_links_to_its_profile(server: Any, open_page: Callable[..., Any]) -> None:
    name = f"Cy{secrets.token_hex(3)}"
    page = open_page(locale="fr-FR").page
    page.goto(server.base + "/")
    page.locator("#account-name").wait_for()
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account .sign-up summary")
    page.click("#account-sign-up")
    page.locator(f'#account [data-account="{name}"]').wait_for()
    page.click("#my-profile")
    page.locator(f'.player-name[data-player="{name}"]').wait_for()
    page.get_by_text("Aucune partie classée pour l'instant.").wait_for()
