"""Issue 15: a newcomer can follow a whole game. For each game, a person plays one to the
end on a phone-size page in French; then the log, as they and a spectator read it in both
languages and as the page shows it, says who did what in words (no action as the engine
spells it), and the end screen says why the game ended."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize

PHONE: ViewportSize = {"width": 390, "height": 844}

GAMES: dict[str, dict[str, Any]] = {
    "tyrus": {},
    "djambi": {"options": {"quiet_rounds": "2"}},  # two quiet rounds end it soon (D11)
    "guildes": {"players": 3},
    "tyros": {"players": 3},
}
# Engine spellings: a token joined by one of these to the next ("a7-b6", "tyros>30",
# "green,green") never appears in words.
JOINED = re.compile(r"\w+[>,\-]\w+")


# The outermost elements reaching past the phone's width (said when the page scrolls
# sideways; those inside a box that scrolls on its own are listed too).
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 1
    && !(e.parentElement && e.parentElement.getBoundingClientRect().right > innerWidth + 1))
  .filter((e) => getComputedStyle(e).position !== 'fixed')
  .map((e) => e.tagName + '.' + [...e.classList].join('.'))"""


def raw_syntax(actions: Iterable[str]) -> set[str]:
    """What of the actions no log line may contain: each action of several words as the
    engine spells it, and each joined token."""
    found: set[str] = set()
    for action in actions:
        if " " in action:
            found.add(action)
        found.update(token for token in action.split() if JOINED.fullmatch(token))
    return found


def assert_in_words(lines: Iterable[str], actions: Iterable[str], where: str) -> None:
    forbidden = raw_syntax(actions)
    for line in lines:
        for spelled in forbidden:
            assert not re.search(rf"(?<![\w>,-]){re.escape(spelled)}(?![\w>,-])", line), (
                f"{where}: {line!r} spells {spelled!r}"
            )


def assert_ending_shown(shown: str, ending: str) -> None:
    """The page says the engine's reason, each "joueur N" shown as that seat's name."""
    assert ending
    for words in re.split(r"\b[Jj]oueur \d+\b", ending):
        assert words.strip() in shown, (shown, ending)


def my_token(page: Page, game_id: str) -> str:
    token: str = page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('machiavel.seats'))[id].token", game_id
    )
    return token


def passing_often(seed: int) -> Callable[[Page], str | None]:
    """Tyros: passing half of the time keeps the action phases (and the test) short."""
    rng = random.Random(seed)

    def prefer(page: Page) -> str | None:
        selector = '.choosable[data-key="verb:pass"]'
        return selector if page.locator(selector).count() and rng.random() < 0.5 else None

    return prefer


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_reads_in_words_on_a_phone_in_french(
    game: str,
    server: Any,
    open_page: Callable[..., Any],
    create_table: Callable[..., str],
    play_until_over: Callable[..., int],
    screenshot: Callable[..., None],
) -> None:
    page = open_page(viewport=PHONE, locale="fr-FR").page
    spec = GAMES[game]
    game_id = create_table(
        page, server.base, game, players=spec.get("players"), options=spec.get("options")
    )
    play_until_over(page, seed=11, prefer=passing_often(11) if game == "tyros" else None)
    screenshot(page, f"{game}-end-phone-fr")

    mine = server.state(game_id, my_token(page, game_id))
    watching = server.state(game_id)
    status, replay = server.call("GET", f"/api/games/{game_id}/replay")
    assert status == 200 and mine["is_over"]
    actions = [action for _, action in replay["actions"]]
    for payload, who in ((mine, "the player"), (watching, "a spectator")):
        assert len(payload["log"]) == len(payload["log_fr"]) == len(actions)
        assert_in_words(payload["log"], actions, f"{game}, English, {who}")
        assert_in_words(payload["log_fr"], actions, f"{game}, French, {who}")
    shown = page.locator(".log ol > li").all_inner_texts()
    assert len(shown) >= len(actions)
    assert_in_words(shown, actions, f"{game}, the page's log")

    assert_ending_shown(page.locator("#end-screen .ending").inner_text(), mine["ending"]["fr"])
    wide = page.evaluate("document.scrollingElement.scrollWidth > innerWidth")
    assert not wide, f"the page scrolls sideways: {page.evaluate(TOO_WIDE)}"
