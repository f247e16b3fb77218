"""Tyros trades a person builds by clicking (an offer sent is the legal one; an offer that
cannot be accepted says why), and replays: they open at the start, play at a chosen speed,
jump to each event, and name every player's cards (never "your")."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route

from support.waiting import Progress

CARDS = ("orange", "yellow", "green", "violet", "joker")  # the engine's card order


def three_people(server: Any) -> tuple[str, list[str]]:
    seats = [{"kind": "human", "name": name} for name in ("Ada", "Bo", "Cy")]
    created = server.create({"game": "tyros", "seats": seats})
    return created["id"], [seat["token"] for seat in created["seats"]]


def view_of(server: Any, game_id: str, token: str) -> dict[str, Any]:
    state: dict[str, Any] = server.state(game_id, token)
    return state


def play_as(server: Any, game_id: str, tokens: list[str], player: int, action: str) -> None:
    state = view_of(server, game_id, tokens[player])
    assert action in state["legal_actions"], (action, state["legal_actions"][:20])
    server.act(game_id, tokens[player], action, state["version"])


def actions_turn_of(server: Any, game_id: str, tokens: list[str], player: int) -> None:
    """Play the expansion (first legal choices), then pass until ``player`` acts."""
    for _ in range(200):
        state = server.state(game_id)
        view = state["view"]
        if view["phase"] == "actions" and view["current_player"] == player:
            return
        mover = state["to_move"][0]
        legal = view_of(server, game_id, tokens[mover])["legal_actions"]
        play_as(server, game_id, tokens, mover, "pass" if "pass" in legal else legal[0])
    raise AssertionError("the actions phase never came to the player")


def spelled(counts: dict[str, int]) -> str:
    return ",".join(c for c in CARDS for _ in range(counts.get(c, 0)))


def sent_actions(page: Page) -> list[str]:
    sent: list[str] = []

    def record(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/actions"):
            sent.append(json.loads(request.post_data or "{}")["action"])

    page.on("request", record)
    return sent


def test_a_person_builds_an_offer_by_clicking_and_sees_why_one_cannot_be_accepted(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    game_id, tokens = three_people(server)
    actions_turn_of(server, game_id, tokens, 0)
    mine = view_of(server, game_id, tokens[0])["view"]["hand"]
    theirs = view_of(server, game_id, tokens[1])["view"]["hand"]
    # Give one card of the colour Ada holds fewest of, ask one Bo holds: Bo can accept,
    # and afterwards Ada holds at most one card of that colour (12 cards, 5 kinds).
    give = min((c for c in CARDS if mine.get(c)), key=lambda c: (mine[c], CARDS.index(c)))
    ask = next(c for c in CARDS if theirs.get(c) and c != give)
    expected = f"offer 1 give {give} ask {ask}"

    page = open_page().page
    sent = sent_actions(page)
    page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
    builder = page.locator(".trade-builder")
    builder.wait_for()
    why = builder.locator("#trade-why")
    confirm = builder.locator("#trade-confirm")
    assert why.inner_text() == "Choose the player you offer to."
    assert confirm.is_disabled()
    builder.locator('.trade-target[data-player="1"]').click()
    assert builder.locator('.trade-target[data-player="1"]').get_attribute("aria-pressed") == "true"
    assert why.inner_text() == "Pick at least one card of your hand to give."
    builder.locator(f'.trade-hand .trade-card[data-colour="{give}"]').first.click()
    assert builder.locator(f'.trade-give .trade-card[data-colour="{give}"]').count() == 1
    assert why.inner_text() == "Choose at least one card you ask for."
    # The same colour on both sides: refused in words before anything is sent.
    builder.locator(f'.trade-ask[data-colour="{give}"] .ask-more').click()
    assert "same colour" in why.inner_text() and confirm.is_disabled()
    builder.locator(f'.trade-ask[data-colour="{give}"] .ask-less').click()
    for _ in range(3):  # three cards asked: over the house limit of two
        builder.locator(f'.trade-ask[data-colour="{ask}"] .ask-more').click()
    assert why.inner_text() == "An offer asks for at most 2 cards (house limit)."
    builder.locator(f'.trade-ask[data-colour="{ask}"] .ask-less').click()
    builder.locator(f'.trade-ask[data-colour="{ask}"] .ask-less').click()
    assert confirm.is_enabled() and why.inner_text() == ""
    assert confirm.get_attribute("data-action") == expected
    screenshot(page, "tyros-offer-builder")
    confirm.click()
    page.locator('.panel.offer[data-to="1"]').wait_for()
    assert sent == [expected]
    assert page.locator(".trade-builder").count() == 0  # the offer waits for its answer

    play_as(server, game_id, tokens, 1, "accept")
    after = view_of(server, game_id, tokens[0])["view"]["hand"]
    assert after.get(give, 0) == mine[give] - 1
    actions_turn_of(server, game_id, tokens, 1)
    # Bo asks Ada for two cards of a colour she does not hold twice (the deal decides which).
    bo = view_of(server, game_id, tokens[1])["legal_actions"]
    short = [c for c in CARDS if after.get(c, 0) <= 1]
    unfit, give = next(
        (a, c)
        for c in short
        for a in bo
        if a.startswith("offer 0 ") and a.endswith(f" ask {c},{c}")
    )
    play_as(server, game_id, tokens, 1, unfit)
    offer = page.locator('.panel.offer.for-me[data-from="1"]')
    offer.wait_for()
    accept = offer.locator("button.accept")
    assert accept.is_disabled()
    reason = offer.locator("#offer-why")
    assert reason.is_visible()
    assert reason.inner_text() == (
        f"You cannot accept: you do not hold 2 {give}. You can only refuse."
    )
    assert accept.get_attribute("aria-describedby") == "offer-why"
    screenshot(page, "tyros-offer-cannot-accept")
    offer.locator("button.refuse").click()
    page.locator(".panel.offer").wait_for(state="detached")
    assert sent == [expected, "refuse"]


def test_the_offer_builder_speaks_french(server: Any, open_page: Callable[..., Any]) -> None:
    game_id, tokens = three_people(server)
    actions_turn_of(server, game_id, tokens, 0)
    page = open_page(locale="fr-FR").page
    page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
    page.click('.lang-switch button[data-lang="fr"]')
    builder = page.locator(".trade-builder")
    builder.wait_for()
    assert builder.locator("h3").inner_text() == "Faire une offre"
    assert builder.locator("#trade-why").inner_text().startswith("Choisissez le joueur")


# ---- replays --------------------------------------------------------------------------------
BOT_GAMES: dict[str, dict[str, Any]] = {
    "tyrus": {"players": 2},
    "djambi": {"players": 4, "options": {"quiet_rounds": 2}},
    "guildes": {"players": 3},
    "tyros": {"players": 3},
}
YOUR = re.compile(r"\b(your|you|yours|votre|vos|vous)\b", re.IGNORECASE)


def finished_bots_game(server: Any, game: str, seed: int = 5) -> dict[str, Any]:
    spec = BOT_GAMES[game]
    bots = [{"kind": "bot", "level": "easy"}] * spec["players"]
    body = {"game": game, "seats": bots, "seed": seed, "options": spec.get("options", {})}
    game_id = server.create(body)["id"]
    progress = Progress(game)  # only a game that stops moving for STUCK seconds fails
    while True:
        state: dict[str, Any] = server.state(game_id)
        if state["is_over"]:
            return state
        progress.saw(state["version"])
        time.sleep(0.05)


def with_marked_events(replay: dict[str, Any], steps: set[int]) -> dict[str, Any]:
    """The replay with an event line added to the entries of ``steps``: the jumps are
    tested whatever events the engines tell (their own lines come first)."""
    for key, said in (
        ("log", "A test event at step {n}."),
        ("log_fr", "Un événement à l'étape {n}."),
    ):
        replay[key] = [
            entry + "\n" + said.format(n=i + 1) if i + 1 in steps else entry
            for i, entry in enumerate(replay[key])
        ]
    return replay


def with_events(page: Page, steps: set[int]) -> None:
    """Every replay the page reads carries the event lines of ``with_marked_events``."""

    def handle(route: Route) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, json=with_marked_events(answer.json(), steps))

    page.route("**/api/games/*/replay*", handle)


def words(text: str) -> str:
    return " ".join(text.split())


def named(line: str) -> str:
    """A log line as the page shows it: "player 1" is the seat's badge number and name."""
    return re.sub(r"\bplayer (\d+)\b", lambda m: f"{int(m[1]) + 1} easy bot", line)


def step_shown(page: Page) -> int:
    return int(page.get_attribute("#replay-step", "data-step") or "-1")


def at_step(page: Page, step: int) -> None:
    page.wait_for_selector(f'.game-page.replay[data-step="{step}"]')


def test_a_replay_opens_at_the_start_plays_at_a_chosen_speed_and_jumps_to_events(
    server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    final = finished_bots_game(server, "tyros")
    game_id, steps = final["id"], final["version"]
    page = open_page().page
    marked = {3, steps // 2, steps - 1}
    with_events(page, marked)
    whole = with_marked_events(server.call("GET", f"/api/games/{game_id}/replay")[1], marked)
    events = [i + 1 for i, entry in enumerate(whole["log"]) if "\n" in entry]
    assert marked <= set(events)
    page.clock.install()
    page.goto(f"{server.base}/#/replay/{game_id}")
    at_step(page, 0)
    # From here the page's timers run only when the test moves its clock.
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    assert page.inner_text(".last-action") == "The start of the game."

    # At 2 steps a second a step shows for 500 ms; at 4, for 250 ms.
    page.select_option("#replay-speed", "2")
    page.click("#replay-play")
    page.clock.run_for(499)
    assert step_shown(page) == 0
    page.clock.run_for(1)
    at_step(page, 1)
    page.select_option("#replay-speed", "4")
    page.clock.run_for(249)
    assert step_shown(page) == 1
    page.clock.run_for(1)
    at_step(page, 2)
    page.click("#replay-play")  # pause
    page.clock.run_for(5000)
    assert step_shown(page) == 2

    # Every event is listed, labelled by its first event line; a jump lands on it.
    options = page.locator("#replay-jump option[data-step]")
    assert [int(o) for o in options.evaluate_all("os => os.map(o => o.value)")] == events
    target = events[len(events) // 2]
    event_line = whole["log"][target - 1].split("\n")[1]
    label = options.nth(len(events) // 2).inner_text()
    assert label.startswith(f"{target}. ")
    assert not re.search(r"\bplayer \d", label)  # seats by name, as everywhere
    page.select_option("#replay-jump", str(target))
    at_step(page, target)
    shown = page.locator(".last-action .log-event").first.inner_text()
    assert words(shown) == words(named(event_line))
    assert page.locator("#replay-jump").input_value() == str(target)
    page.clock.resume()  # a screenshot waits for animation frames and running animations
    screenshot(page, "tyros-replay-event")
    page.click("#replay-last")
    at_step(page, steps)


# A card's own rule ("exchange 1 card of your hand...", Guildes' dirty tricks) speaks to whoever
# plays it: it is the card's text, not a label of someone's cards.
CARD_RULES = ".panel.tricks li .muted"


def labels_of(page: Page, selector: str) -> str:
    text: str = page.locator(selector).evaluate(
        "(node, rules) => { const copy = node.cloneNode(true);"
        " copy.querySelectorAll(rules).forEach((n) => n.remove()); return copy.textContent; }",
        CARD_RULES,
    )
    return text


@pytest.mark.parametrize("game", list(BOT_GAMES))
def test_a_replay_names_every_players_cards(
    game: str, server: Any, open_page: Callable[..., Any], screenshot: Callable[..., None]
) -> None:
    final = finished_bots_game(server, game)
    game_id, steps = final["id"], final["version"]
    page = open_page().page
    for language in ("en", "fr"):
        for step in (0, steps // 2, steps):
            page.goto(f"{server.base}/#/replay/{game_id}?step={step}")
            page.click(f'.lang-switch button[data-lang="{language}"]')
            at_step(page, step)
            labels = [
                labels_of(page, ".replay .board-area"),
                page.inner_text(".replay .panel.seats"),
                page.inner_text(".replay .replay-controls"),
            ]
            found = [YOUR.search(text) for text in labels]
            assert not any(found), (game, language, step, [m.group(0) for m in found if m])
    screenshot(page, f"{game}-replay-names")


def test_after_three_refused_offers_the_builder_says_why_no_more(
    server: Any, open_page: Callable[..., Any]
) -> None:
    game_id, tokens = three_people(server)
    actions_turn_of(server, game_id, tokens, 0)
    for _ in range(3):  # Y6: at most 3 offers a turn; a refused one costs nothing
        legal = view_of(server, game_id, tokens[0])["legal_actions"]
        play_as(server, game_id, tokens, 0, next(a for a in legal if a.startswith("offer 1 ")))
        play_as(server, game_id, tokens, 1, "refuse")
    page = open_page().page
    page.goto(f"{server.base}/#/game/{game_id}?token={tokens[0]}")
    builder = page.locator(".trade-builder")
    builder.wait_for()
    assert builder.locator(".trade-why").inner_text() == (
        "You may make only 3 offers a turn; you made them already."
    )
    assert builder.locator("#trade-confirm").count() == 0
