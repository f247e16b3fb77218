"""Rules at hand (issue 15): a rules page per game in both languages with the board drawn
by the page, reached from the lobby and from a game page's "?"; option labels in words;
the lobby's summaries whole and in the page's language; help next to the boards."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

GAMES = ["tyrus", "djambi", "guildes", "tyros"]
LANGUAGES = {"en": "en-GB", "fr": "fr-FR"}
PLAYERS = {"tyrus": 2, "djambi": 4, "guildes": 3, "tyros": 3}
TITLES = {"en": "{game}: the rules", "fr": "{game} : les règles"}
RULING_CODE = re.compile(r"\b[TDGY]\d{1,2}\b")
ROOT = Path(__file__).resolve().parents[2]


def page_word(page: Any, key: str) -> str:
    """A word of the page's dictionary, in the page's language."""
    text: str = page.evaluate("key => import('/i18n.js').then(m => m.t(key))", key)
    return text


def expect_rules_page(page: Any, game: str, language: str) -> None:
    """The rules page of ``game`` in ``language``, its board drawn by the page."""
    page.wait_for_selector(f'.rules-page[data-game="{game}"] figure.rules-picture svg.board')
    title = TITLES[language].format(game=game.capitalize())
    assert page.inner_text(".rules-page h1") == title
    assert page.locator(".rules-page .rulings li[data-ruling]").count() >= 3
    # The board module drew a real position: more than an empty frame.
    assert page.locator("figure.rules-picture svg.board *").count() > 30


def test_the_rules_pictures_are_the_engines_positions() -> None:
    """rules-data.js is written from the engines: it must be what they give today."""
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "rules_samples.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_rules_page_opens_from_the_lobby(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None], language: str
) -> None:
    page = open_page(locale=LANGUAGES[language]).page
    for game in GAMES:
        page.goto(server.base + "/")
        page.wait_for_selector("#new-game")
        page.select_option("#new-game", game)
        page.click(f'#new-table a.rules-from-lobby[data-game="{game}"]')
        expect_rules_page(page, game, language)
        screenshot(page, f"rules-{game}-{language}", phone_too=language == "en")
        # The language switch redraws the page in the other language.
        other = "fr" if language == "en" else "en"
        page.click(f'.lang-switch button[data-lang="{other}"]')
        expect_rules_page(page, game, other)
        page.click(f'.lang-switch button[data-lang="{language}"]')


@pytest.mark.parametrize("game", GAMES)
def test_the_question_mark_of_a_game_opens_its_rules_in_a_new_tab(
    server: Any, open_page: Callable[..., Any], game: str
) -> None:
    seats = [{"kind": "human"}] * PLAYERS[game]  # nobody moves: the page stays as it is
    game_id = server.create({"game": game, "seats": seats})["id"]
    for language, locale in LANGUAGES.items():
        page = open_page(locale=locale).page
        page.goto(f"{server.base}/#/game/{game_id}?spectate=1")
        page.wait_for_selector(f'.game-page[data-game="{game}"] .game-head a.rules-link')
        with page.context.expect_page() as opened:
            page.click(".game-head a.rules-link")
        rules = opened.value
        expect_rules_page(rules, game, language)
        # The game's tab is still the game.
        assert page.locator(f'.game-page[data-game="{game}"]').count() == 1
        rules.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_option_labels_say_what_they_do_without_ruling_codes(
    server: Any, open_page: Callable[..., Any], language: str
) -> None:
    page = open_page(locale=LANGUAGES[language]).page
    page.goto(server.base + "/")
    page.wait_for_selector("#new-game")
    seen = 0
    for game in GAMES:
        page.select_option("#new-game", game)
        page.wait_for_selector(f'#new-table .summary[data-game="{game}"]')
        for label in page.locator("#new-table label.option:not(.pace-choice)").all():
            text = label.inner_text()
            assert not RULING_CODE.search(text), f"{game}: {text!r}"
            # The ruling's id stays in the tooltip, for who wants it.
            assert RULING_CODE.search(label.get_attribute("title") or ""), f"{game}: {text!r}"
            seen += 1
        for choice in page.locator("#new-table label.option select option").all():
            assert not RULING_CODE.search(choice.inner_text())
    assert seen >= 8  # every game's options were looked at


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_summaries_are_whole_and_in_the_pages_language(
    server: Any, open_page: Callable[..., Any], language: str
) -> None:
    page = open_page(locale=LANGUAGES[language]).page
    page.goto(server.base + "/")
    page.wait_for_selector("#new-game")
    for game in GAMES:
        page.select_option("#new-game", game)
        summary = page.locator(f'#new-table .summary[data-game="{game}"]')
        whole = page_word(page, f"summary.{game}")
        assert summary.inner_text().startswith(whole)
        assert len(whole) > 200  # a real summary, not a key or one line
        languages = page.evaluate(
            "key => import('/i18n.js').then(m => m.languagesOf(key))", f"summary.{game}"
        )
        assert languages == ["en", "fr"]
        assert "Actions:" not in summary.inner_text()  # never the engine's syntax
    if language == "fr":
        page.select_option("#new-game", "guildes")
        assert "tours de scrutin" in page.inner_text("#new-table .summary")


def test_the_boards_explain_themselves(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    bots = [{"kind": "bot", "level": "easy"}]
    people = [{"kind": "human"}]
    tyrus = server.create({"game": "tyrus", "seats": people * 2})["id"]
    tyros = server.create({"game": "tyros", "seats": people * 3})["id"]
    guildes = server.create({"game": "guildes", "seats": bots * 3})["id"]
    page = open_page().page

    page.goto(f"{server.base}/#/game/{tyrus}?spectate=1")
    help_box = page.locator(".blocking-help")
    help_box.wait_for()
    assert help_box.locator("svg.blocking-triangle").count() == 1
    assert "citadel: soldiers vote; the rival's merchants there block them" in help_box.inner_text()
    citadel = page.locator('.tyrus-board g[data-kind="citadel"] > title').first
    assert "soldiers vote" in (citadel.text_content() or "")

    page.goto(f"{server.base}/#/game/{tyros}?spectate=1")
    legend = page.locator(".tyros-legend")
    legend.wait_for()
    text = legend.inner_text()
    assert "Italy (16) has two coasts" in text and "wall" in text.lower()

    # A count shows each guild's values for that round next to its name (G2).
    page.goto(f"{server.base}/#/game/{guildes}?spectate=1")
    page.locator(".count-table .guild-round-values").first.wait_for()
    # The round and its values read in one go: the bots play on and the page redraws.
    round_shown, shown = page.evaluate(
        """() => [
          Number(document.querySelector('.panel.count').dataset.round),
          document.querySelector(
            '.count-table th[data-guild="Prêtres"] .guild-round-values')?.innerText ?? null,
        ]"""
    )
    if shown is not None:  # Prêtres were played by someone
        assert shown == {1: "13", 2: "13 / 6", 3: "13 / 6 / 3"}[round_shown]
    values = page.locator(".guild-values-help")
    assert values.locator('tr[data-guild="Alchimistes"] td.guild-values').all_text_contents() == [
        "14",
        "14 / 7",
        "14 / 7 / 4 / 2",
    ]
    screenshot(page, "guildes-count-with-values")


def test_the_rules_pages_draw_under_the_content_security_policy(
    server: Any, open_page: Callable[..., Any]
) -> None:
    """No inline style or script in the pictures and help: not one violation."""
    watched = open_page(under_csp=True)
    page = watched.page
    page.add_init_script(
        "window.__violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " (e) => window.__violations.push(e.violatedDirective));"
    )
    for game in GAMES:
        page.goto(f"{server.base}/#/rules/{game}")
        page.wait_for_selector(f'.rules-page[data-game="{game}"] svg.board')
        assert page.evaluate("window.__violations") == []
    page.goto(f"{server.base}/#/rules/chess")
    page.wait_for_selector(".rules-page .error")
    assert watched.errors == []
