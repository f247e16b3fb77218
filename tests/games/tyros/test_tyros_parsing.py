"""Malformed numbers in Tyros actions are refused with ``IllegalAction``.

``str.isdigit()`` is true for '²' and '٣', which ``int()`` refuses or reads: only the
digits 0 to 9 are tile and player numbers (issue 12).
"""

from __future__ import annotations

import pytest

import machiavel
from machiavel.core.errors import IllegalAction
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.tyros.rules import TyrosState

GAME = machiavel.game("tyros")
BAD_NUMBERS = ["²", "٣", "３", "३", "①", "1²"]


def in_phase(phase: str) -> TyrosState:
    state = GAME.new(4, seed=3)
    assert isinstance(state, TyrosState)
    rng = Rng(3)
    while state.phase != phase:
        random_step(state, rng)
    return state


def refused(state: TyrosState, action: str, message: str) -> None:
    before = state.to_json()
    with pytest.raises(IllegalAction, match=message):
        state.apply(state.to_move[0], action)
    assert state.to_json() == before


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_expand_with_digits_of_another_script_is_refused(number: str) -> None:
    refused(in_phase("expand"), f"expand {number} orange", "digits 0 to 9")


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_offer_to_digits_of_another_script_is_refused(number: str) -> None:
    refused(in_phase("actions"), f"offer {number} give orange ask green", "digits 0 to 9")


@pytest.mark.parametrize("number", [str(10**30), "9" * 5000])
def test_huge_numbers_are_refused(number: str) -> None:
    refused(in_phase("expand"), f"expand {number} orange", "far too large")
    refused(in_phase("actions"), f"offer {number} give orange ask green", "far too large")


def test_describe_reads_an_accepted_spelling_as_the_canonical_action() -> None:
    state = in_phase("actions")
    player = state.to_move[0]
    for action in state.legal_actions(player):
        spelling = action.upper().replace(">", "-")
        for viewer in (None, *range(4)):
            for language in ("en", "fr"):
                assert state.describe(player, spelling, viewer, language) == state.describe(
                    player, action, viewer, language
                )
