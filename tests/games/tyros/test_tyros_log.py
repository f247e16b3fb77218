"""Issue 15: the Tyros log in plain words, what followed each action, the board marks of a
move and why the game ended, over whole random games, every viewer, both languages."""

from __future__ import annotations

import json
import re
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.contract import LANGUAGES
from machiavel.core.narration import Told, narrate
from machiavel.core.rng import Rng
from machiavel.games.tyros.board import BOARD
from machiavel.games.tyros.rules import TyrosState

GAME = machiavel.game("tyros")
# Words of the action syntax that take an argument: never followed by it in a line.
KEYWORDS = {"expand", "under", "move", "city", "ship", "bank", "offer", "give", "ask", "pay"}
KEYWORDS |= {"fee", "take", "keep", "return"}
NEVER_ALONE = {"give", "ask", "pay", "fee"}  # no sentence needs these bare syntax words
JOINED = re.compile(r"\w[>,]\w")  # "tyros>30", "green,green"
NODE_TOKEN = re.compile(r"\b\d+[ew]\b")  # "16e"
CARD_WORDS = re.compile(
    r"\b(orange|yellow|green|violet) cards?\b|\bjokers?\b"
    r"|\bcartes? (orange|jaunes?|vertes?|violettes?)\b"
)
CELLS = {cid for cid, _, _, _ in BOARD.cells_json} - {"sea"}
NODES = set(BOARD.node_token)


def syntax_pairs(actions: list[str]) -> set[tuple[str, str]]:
    """Each keyword with the argument it takes in these actions ("expand", "12")."""
    pairs: set[tuple[str, str]] = set()
    for action in actions:
        words = action.split()
        pairs.update((word, after) for word, after in pairwise(words) if word in KEYWORDS)
    return pairs


def check_in_words(line: str, actions: list[str], pairs: set[tuple[str, str]]) -> None:
    assert not JOINED.search(line), line
    assert not NODE_TOKEN.search(line), line
    words = re.findall(r"[\w>,]+", line.lower())
    assert not NEVER_ALONE & set(words), line
    assert not pairs & set(pairwise(words)), line
    for action in actions:
        assert " " not in action or action not in line


def check_marks(state: TyrosState, told: Told, action: str) -> None:
    marks = told.marks
    assert json.loads(json.dumps(marks)) == marks
    assert set(marks) <= {"player", "route", "cells", "nodes"}
    assert set(marks.get("cells", [])) <= CELLS
    assert set(marks.get("nodes", [])) <= NODES
    route = marks.get("route")
    if action.startswith("move "):
        origin, target = action.split()[1].split(">")
        paid = len(action.split()[3].split(","))
        assert isinstance(route, list)
        assert route[0] == origin and route[-1] == target and len(route) == paid + 1
        index = {token: node for node, token in enumerate(BOARD.node_token)}
        for a, b in pairwise(route):
            assert index[b] in BOARD.sea_links[index[a]]
    else:
        assert route is None


def hidden_variants(state: TyrosState, player: int, action: str) -> list[str]:
    """Legal actions that differ from ``action`` only in what others may not see."""
    legal = state.legal_actions(player)
    if action.startswith("keep "):
        return [a for a in legal if a.startswith("keep ")]
    if " fee " in action:
        head = action.split(" fee ")[0]
        return [a for a in legal if a.startswith(head + " fee ")]
    return [action]


def check_hidden(state: TyrosState, player: int, action: str) -> None:
    """A line reads the same for a viewer whatever that viewer cannot see (Y6, Y7)."""
    variants = hidden_variants(state, player, action)
    if len(variants) < 2:
        return
    owner = _fee_owner(state, action) if " fee " in action else -1
    blind: list[int | None] = [v for v in range(state.n) if v not in (player, owner)]
    for viewer in [*blind, None]:
        for language in LANGUAGES:
            lines = {state.describe(player, v, viewer, language) for v in variants}
            assert len(lines) == 1, lines


def _fee_owner(state: TyrosState, action: str) -> int:
    target = action.split()[1].split(">")[1]
    return state.cities[BOARD.node_cell[BOARD.node_token.index(target)]]


def play_and_check(players: int, seed: int, setup: str) -> TyrosState:
    state = GAME.new(players, seed=seed, options={"setup": setup})
    assert isinstance(state, TyrosState)
    rng = Rng(seed)
    viewers: list[int | None] = [*range(players), None]
    while not state.is_over:
        assert state.ending("en") is None and state.ending("fr") is None
        mover = rng.choice(list(state.to_move))
        legal = state.legal_actions(mover)
        # Passing often keeps the action phases, and the test, short.
        action = "pass" if "pass" in legal and rng.below(3) == 0 else rng.choice(legal)
        pairs = syntax_pairs(legal)
        check_hidden(state, mover, action)
        told = narrate(state, mover, action)
        for language in range(len(LANGUAGES)):
            entries = [told.for_viewer(v, players, language) for v in viewers]
            for entry in entries:
                for line in entry.split("\n"):
                    check_in_words(line, legal, pairs)
            events = {tuple(entry.split("\n")[1:]) for entry in entries}
            assert len(events) == 1, events  # events are public: the same for everyone
            for line in events.pop():
                assert not CARD_WORDS.search(line), line  # never a card from a hand
        check_marks(state, told, action)
    return state


def check_ending(state: TyrosState) -> None:
    english, french = state.ending("en"), state.ending("fr")
    assert english and french and english != french
    assert english.endswith(".") and french.endswith(".")
    for winner in state.winners:
        assert f"player {winner} " in english and f"joueur {winner} " in french
    top, second = sorted(state.scores, reverse=True)[:2]
    # Y8: the tie-break is named only when the best totals are equal.
    assert ("largest empire" in english) == (top == second)
    assert ("ahead of" in english) == (top != second)


@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**48),
    players=st.sampled_from([3, 4]),
    setup=st.sampled_from(["first-game", "random"]),
)
def test_random_games_are_told_in_words_with_public_events_marks_and_an_ending(
    seed: int, players: int, setup: str
) -> None:
    check_ending(play_and_check(players, seed, setup))
