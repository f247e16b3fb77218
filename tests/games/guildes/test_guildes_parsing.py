"""Malformed player numbers in Guildes actions are refused with ``IllegalAction``.

``str.isdigit()`` is true for '²' and '٣', which ``int()`` refuses or reads: only the
digits 0 to 9 are player numbers (issue 12).
"""

from __future__ import annotations

import pytest

import machiavel
from machiavel.core.errors import IllegalAction
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.guildes.rules import TRICKS, GuildesState

GAME = machiavel.game("guildes")
BAD_NUMBERS = ["²", "٣", "３", "३", "①", "1²"]


def in_tricks() -> GuildesState:
    """A Coup Tordu turn (option dirty_tricks), reached by random play."""
    state = GAME.new(3, seed=5, options={"dirty_tricks": True})
    assert isinstance(state, GuildesState)
    rng = Rng(5)
    while state.phase != TRICKS:
        random_step(state, rng)
    return state


@pytest.mark.parametrize("number", BAD_NUMBERS)
@pytest.mark.parametrize("template", ["minus {}", "plus {}", "sacrifice Nobles {} Nobles"])
def test_digits_of_other_scripts_are_refused(template: str, number: str) -> None:
    state = in_tricks()
    action = template.format(number)
    before = state.to_json()
    assert state.normalize_action(action) == action  # no crash: left as typed
    with pytest.raises(IllegalAction, match="digits 0 to 9"):
        state.apply(state.to_move[0], action)
    assert state.to_json() == before


@pytest.mark.parametrize("number", [str(10**30), "9" * 5000, "-1"])
def test_huge_and_negative_player_numbers_are_refused(number: str) -> None:
    state = GAME.new(4, seed=2)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="is not a player number"):
        state.apply(state.to_move[0], f"swap {number} Nobles 2 Milice")
    assert state.to_json() == before


def test_describe_reads_an_accepted_spelling_as_the_canonical_action() -> None:
    state = GAME.new(3, seed=1)
    player = state.to_move[0]
    action = state.legal_actions(player)[0]  # "keep <guild>", with accents if any
    for spelling in (action.upper(), f"  {action.lower()}  "):
        for viewer in (None, 0, 1, 2):
            for language in ("en", "fr"):
                assert state.describe(player, spelling, viewer, language) == state.describe(
                    player, action, viewer, language
                )
