"""For each game, a person plays a whole game against bots through the page, only by
clicking highlighted (legal) choices, until the end screen."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

GAMES: dict[str, dict[str, Any]] = {
    "tyrus": {},
    # Two quiet rounds end a Djambi game soon after the last death (D11).
    "djambi": {"options": {"quiet_rounds": "2"}},
    "guildes": {"players": 3},
    "tyros": {"players": 3},
}


def tyros_prefers_passing(seed: int) -> Callable[[Page], str | None]:
    """Passing half of the time keeps the action phases (and the test) short."""
    rng = random.Random(seed)

    def prefer(page: Page) -> str | None:
        selector = '.choosable[data-key="verb:pass"]'
        if page.locator(selector).count() and rng.random() < 0.5:
            return selector
        return None

    return prefer


def check_first_turn(game: str, page: Page) -> None:
    """Before playing: only legal first choices are offered, illegal clicks do nothing."""
    page.wait_for_function("['mine', 'over'].includes(document.body.dataset.turn)")
    if game == "tyrus":
        hand = page.locator(".hand .hand-tile")
        assert page.locator(".choosable").count() == hand.count() > 0  # a tile first
        assert page.locator(".building.choosable").count() == 0
        hand.first.click()
        assert page.locator(".building.choosable").count() == 6  # then a building
        page.click("button.cancel")
        assert page.locator(".building.choosable").count() == 0
    if game == "djambi":
        version = page.get_attribute(".game-page", "data-version")
        enemy = page.locator(".square:not(.choosable) .piece").first
        enemy.click(force=True)  # not a legal choice: nothing happens
        assert page.locator(".trail").count() == 0
        assert page.get_attribute(".game-page", "data-version") == version
        assert page.locator(".square.choosable").count() > 0


@pytest.mark.parametrize("game", list(GAMES))
def test_a_person_plays_a_whole_game_against_bots(
    game: str,
    server: Any,
    open_page: Callable[..., Any],
    create_table: Callable[..., str],
    play_until_over: Callable[..., int],
    screenshot: Callable[..., None],
) -> None:
    page = open_page().page
    spec = GAMES[game]
    game_id = create_table(
        page, server.base, game, players=spec.get("players"), options=spec.get("options")
    )
    check_first_turn(game, page)

    def shots(clicks: int) -> None:
        if clicks == 12:
            screenshot(page, f"{game}-playing", phone_too=True)

    prefer = tyros_prefers_passing(7) if game == "tyros" else None
    clicks = play_until_over(page, seed=7, prefer=prefer, on_click=shots)
    screenshot(page, f"{game}-end", phone_too=True)  # once the step-by-step reveals are over

    state = server.state(game_id)
    assert state["is_over"]
    end = page.locator("#end-screen")
    for seat in state["seats"]:
        name = seat["name"] or f"{seat['level']} bot"
        assert name in end.inner_text()
    if state["winners"]:
        assert page.locator("#end-screen tr.winner").count() == len(state["winners"])
    if game == "guildes":
        check_count_panel(page, state)
        check_event_in_english(page, state["view"]["event"])
    status, replay = server.call("GET", f"/api/games/{game_id}/replay")
    assert status == 200
    mine = [action for player, action in replay["actions"] if player == 0]
    assert 0 < len(mine) <= clicks


def check_event_in_english(page: Page, event: dict[str, Any]) -> None:
    """The event's title comes from the French book; an English page shows it in English."""
    shown = page.locator(f'.round-info em[data-event="{event["id"]}"]').inner_text()
    assert shown and (shown != event["title"] or event["id"] == "redistribution"), shown


def check_count_panel(page: Page, state: dict[str, Any]) -> None:
    """The last count, guild by guild: the votes the engine gave each player in each guild
    they hold (with their cards and place), then their total."""
    count = state["view"]["counts"][-1]
    panel = page.locator(f'.panel.count[data-round="{count["round"]}"]')
    for player, won in enumerate(count["guild_votes"]):
        assert won and sum(won.values()) == count["votes"][player]
        for guild, votes in won.items():
            cell = panel.locator(f'td.gcount[data-player="{player}"][data-guild="{guild}"]')
            assert cell.locator(".gvotes").inner_text() == str(votes)
            cards = count["tableaux"][player][guild]
            assert cell.locator(".gplace").inner_text().startswith(f"×{cards}")
            place = count["places"][player].get(guild)
            if place is not None:
                tied = "=" if guild in count["tied"][player] else ""
                assert f"· {tied}{place}" in cell.locator(".gplace").inner_text()
        total = panel.locator(f'td[data-total="{player}"]').inner_text()
        assert total == str(count["votes"][player])
