"""Clocks and absent players on the game page (docs/web.md, "Clocks and absent players").

A turn-based clock of two seconds a move runs out for the second person: their page shows
the stand-in banner (after a reload too) and takes the seat back; a live clock made in the
lobby's form counts down on the page; leaving a game of two resigns it, shown on both pages
(one in French); durations and the table's notices read well in both languages.

Every wait is on what the page shows, bounded (PAGE_WAIT_MS or STUCK); none stands in for a
condition, and nothing asserts how long anything took.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from support.waiting import PAGE_WAIT_MS, STUCK

# A stand-in of one second a move (hard): once both seats ran out, the bots need many
# seconds to finish a game, far more than a click takes; the test ends the game itself.
SLOW_STAND_IN = "hard"


def two_people(server: Any, **extra: Any) -> tuple[str, list[str]]:
    created = server.create(
        {
            "game": "tyrus",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
            **extra,
        }
    )
    return created["id"], [seat["token"] for seat in created["seats"]]


def open_game(
    open_page: Callable[..., Any], server: Any, game_id: str, token: str, locale: str = "en-GB"
) -> Page:
    """A seat's game page with its socket live (pushes from now on reach it)."""
    page: Page = open_page(locale=locale).page
    page.goto(f"{server.base}/#/game/{game_id}?token={token}")
    page.wait_for_selector('#connection[data-status="live"]')
    return page


def end_game(server: Any, game_id: str, token: str) -> None:
    """Resign for a seat (taken back first if a stand-in plays it), so that no stand-in
    goes on searching after the test."""
    limit = time.monotonic() + STUCK
    while not server.state(game_id)["is_over"]:
        assert time.monotonic() < limit, "the game never ended"
        server.call("POST", f"/api/games/{game_id}/return", {"token": token})
        server.call("POST", f"/api/games/{game_id}/leave", {"token": token})


def clock_seconds(text: str) -> int:
    """A live clock's text (m:ss or h:mm:ss) in seconds."""
    assert re.fullmatch(r"\d+(:\d\d){1,2}", text), text
    seconds = 0
    for part in text.split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


def test_a_seat_out_of_time_is_stood_in_and_taken_back(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    clock = {"kind": "turn-based", "per_move": 2}
    game_id, tokens = two_people(server, clock=clock, stand_in=SLOW_STAND_IN)
    first = server.state(game_id)["to_move"][0]
    other = 1 - first
    mover = open_game(open_page, server, game_id, tokens[first])
    waiter = open_game(open_page, server, game_id, tokens[other])
    try:
        for page in (mover, waiter):
            expect(page.locator(".clock-summary")).to_contain_text("2 s a move")
            expect(page.locator(".clock-summary")).to_contain_text("starts with the first move")
            assert page.locator(".clock.running").count() == 0  # no clock before a move
        mover.click(".all-actions summary")
        mover.locator(".all-actions button[data-action]").first.click()
        banner = waiter.locator("#stand-in-banner")
        expect(banner).to_contain_text("A hard bot plays your seat", timeout=PAGE_WAIT_MS)
        name = ["Ada", "Bo"][other]
        expect(mover.locator(f'.stand-in-tag[data-player="{other}"]')).to_have_text(
            f"a hard bot plays for {name}"
        )
        for page in (mover, waiter):
            notice = page.locator("#chat .table-notice", has_text=f"{name} ran out of time")
            expect(notice.first).to_contain_text("a hard bot plays for them")
        screenshot(waiter, "clocks-stand-in-banner", phone_too=True)
        waiter.reload()  # all of it comes from the state
        expect(waiter.locator("#stand-in-banner")).to_be_visible()
        assert waiter.locator("#choices, .all-actions").count() == 0  # the stand-in's turn
        with waiter.expect_response(lambda r: r.url.endswith("/return")) as answer:
            waiter.click("#take-back")
        assert answer.value.status == 200
        assert answer.value.json()["seats"][other]["stand_in"] is False
        back = waiter.locator("#chat .table-notice", has_text=f"{name} is back")
        expect(back.first).to_be_visible()
    finally:
        end_game(server, game_id, tokens[other])


def test_a_live_clock_from_the_lobby_counts_down(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    page = open_page().page
    page.goto(server.base + "/")
    page.wait_for_selector("#new-table")
    page.fill("#lobby-name", "Ada")
    page.select_option("#new-game", "tyrus")
    page.select_option('select.seat-kind[data-seat="1"]', "human")
    page.select_option("#new-clock", "live")
    page.fill("#new-clock-minutes", "5")
    page.fill("#new-clock-increment", "0")
    page.select_option("#new-stand-in", "easy")
    expect(page.locator(".clock-note")).to_contain_text("bank runs down")
    screenshot(page, "clocks-lobby-form")
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.click("#create")
    body = sent.value.post_data_json
    assert body["clock"] == {"kind": "live", "initial": 300, "increment": 0}
    assert body["stand_in"] == "easy"
    page.wait_for_selector('#connection[data-status="live"]')
    expect(page.locator(".clock-summary")).to_contain_text("Clock: 5 min + 0 s a move")
    expect(page.locator(".clock")).to_have_text(["5:00", "5:00"])
    assert page.locator(".clock.running").count() == 0
    game_id: str = page.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    tokens = page.evaluate(
        "id => [JSON.parse(localStorage['machiavel.seats'])[id].token,"
        " JSON.parse(localStorage['machiavel.invites'])[id][0].token]",
        game_id,
    )
    try:
        first = server.state(game_id)["to_move"][0]
        seat = server.state(game_id, tokens[first])
        server.act(game_id, tokens[first], seat["legal_actions"][0], seat["version"])
        running = page.locator(f'.seat.to-move[data-player="{1 - first}"] .clock.running')
        for _ in range(2):  # the page counts down, and again after a reload
            expect(running).to_be_visible()
            before = running.inner_text()
            expect(running).not_to_have_text(before)  # waits for the next second
            assert clock_seconds(running.inner_text()) < clock_seconds(before)
            page.reload()
        expect(page.locator(f'.clock.stopped[data-player="{first}"]')).to_have_text("5:00")
        screenshot(page, "clocks-live")
    finally:
        end_game(server, game_id, tokens[0])


def test_leaving_a_game_of_two_resigns_it_on_both_pages(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    game_id, tokens = two_people(server)
    ada = open_game(open_page, server, game_id, tokens[0])
    bo = open_game(open_page, server, game_id, tokens[1], locale="fr-FR")
    ada.click("#leave")
    expect(ada.locator("#leave-confirm")).to_contain_text("leaving is resigning")
    ada.click("#leave-no")  # changing one's mind leaves everything as it was
    expect(ada.locator("#leave-confirm")).to_have_count(0)
    assert server.state(game_id)["is_over"] is False
    ada.click("#leave")
    ada.click("#leave-yes")
    expect(ada.locator("#outcome")).to_have_text("Ada resigned.")
    expect(bo.locator("#outcome")).to_have_text("Ada a abandonné.")
    expect(bo.locator("#end-screen .headline")).to_contain_text("gagnez")
    expect(ada.locator("#chat .table-notice").last).to_have_text(re.compile("Ada resigned"))
    expect(bo.locator("#chat .table-notice").last).to_have_text(re.compile("Ada a abandonné"))
    assert ada.locator("#leave").count() == 0
    outcome = server.state(game_id)["outcome"]
    assert outcome == {"reason": "resigned", "player": 0, "winners": [1]}
    screenshot(bo, "clocks-resigned")


def test_durations_and_table_notices_read_well_in_both_languages(
    server: Any, open_page: Callable[..., Any]
) -> None:
    page = open_page().page
    page.goto(server.base + "/")
    page.wait_for_selector("#new-table")
    script = """async () => {
        const clocks = await import('/clocks.js');
        const chat = await import('/chat.js');
        const i18n = await import('/i18n.js');
        const read = () => [
            clocks.formatBank(245), clocks.formatBank(3729), clocks.formatBank(0.2),
            clocks.formatSpan(97200), clocks.formatSpan(12005), clocks.formatSpan(86400 + 300),
            chat.tableText('Bo ran out of time: a medium bot plays for them (they may come back)'),
            chat.tableText('Bo is back'), chat.tableText('something new'),
            chat.tableText('Bo left the table: a easy bot plays for them (they may come back)'),
        ];
        const english = read();
        i18n.setLang('fr');
        const french = read();
        i18n.setLang('en');
        return [english, french];
    }"""
    english, french = page.evaluate(script)
    assert english == [
        "4:05",
        "1:02:09",
        "0:01",
        "1 d 3 h",
        "3 h 20 min",
        "1 d",
        "Bo ran out of time: a medium bot plays for them (they may come back).",
        "Bo is back.",
        "something new",
        "Bo left the table: an easy bot plays for them (they may come back).",
    ]
    assert french[3:8] == [
        "1 j 3 h",
        "3 h 20 min",
        "1 j",
        "Bo n'a plus de temps : un robot moyen joue à sa place (retour possible).",
        "Bo est de retour.",
    ]
    assert french[9] == "Bo a quitté la table : un robot facile joue à sa place (retour possible)."
