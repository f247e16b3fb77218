"""Every spelling Tyrus accepts (case and spaces forgiven) is described like its canonical
action (issue 12: ``describe`` raised on ``m8 Rival-Citadel``)."""

from __future__ import annotations

import pytest

import machiavel
from machiavel.core.errors import IllegalAction

GAME = machiavel.game("tyrus")


@pytest.mark.parametrize(
    "spelling", ["m8 Rival-Citadel", "  M8\tRIVAL-CITADEL ", "m8 rival-citadel"]
)
def test_describe_accepts_every_spelling_apply_accepts(spelling: str) -> None:
    state = GAME.new(2, seed=1)
    for viewer in (None, 0, 1):
        for language in ("en", "fr"):
            assert state.describe(0, spelling, viewer, language) == state.describe(
                0, "M8 rival-citadel", viewer, language
            )


@pytest.mark.parametrize("tile", ["M⁸", "M٨", "M８", "M" + "9" * 5000, "M-8"])
def test_tiles_with_other_digits_are_refused(tile: str) -> None:
    state = GAME.new(2, seed=1)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="is not a tile"):
        state.apply(state.to_move[0], f"{tile} citadel")
    assert state.to_json() == before
