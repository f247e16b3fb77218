"""Djambi's research encoding: every step of a turn numbered, the board as planes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import machiavel
from machiavel.games.djambi.board import KINDS, SQUARE_INDEX, SQUARES
from machiavel.rl import ActionSpace, Observer
from machiavel.rl.djambi import FIELDS, LAYOUT
from support.rl_checks import (
    check_documented,
    check_legal,
    check_numbering,
    check_observation,
    check_refusals,
    random_states,
)

MOVES = 2112  # every <from>-<to> along a line of the 9x9 board
BASE = MOVES + 3 * SQUARES + 1  # moves, corpse/place/kill <sq>, pass
REVIVALS = 80 * 64 - 64  # a corpse off the centre, a target in a block or ring, not itself
# (options, n, games): every option that adds actions, and inherited_turns=skip once.
CASES: list[tuple[dict[str, Any], int, int]] = [
    ({}, BASE, 12),
    ({"inherited_turns": "skip"}, BASE, 6),
    ({"reporter": "scandal"}, BASE + 1, 6),
    ({"aggressivity": True}, BASE + REVIVALS, 8),
    ({"reporter": "scandal", "aggressivity": True}, BASE + 1 + REVIVALS, 6),
]
EVERY_PLAYER = 15  # observe all four seats at every 15th state (the mover's at each)


@pytest.mark.parametrize(("options", "n", "games"), CASES)
def test_every_number_decodes_and_encodes_back(options: dict[str, Any], n: int, games: int) -> None:
    space = ActionSpace("djambi", 4, options)
    assert space.n == n
    check_numbering(space)


def test_the_ranges_are_those_docs_rl_gives() -> None:
    space = ActionSpace("djambi", 4, {"reporter": "scandal", "aggressivity": True})
    assert [space.decode(i) for i in (0, MOVES - 1, MOVES, MOVES + 80)] == [
        "a1-b1",
        "i9-h9",
        "corpse a1",
        "corpse i9",
    ]
    assert space.decode(MOVES + SQUARES) == "place a1"
    assert space.decode(MOVES + 2 * SQUARES) == "kill a1"
    assert [space.decode(i) for i in (BASE - 1, BASE, BASE + 1)] == [
        "pass",
        "scandal",
        "revive a1 b1",
    ]
    assert space.decode(space.n - 1) == "revive i9 i4"


def test_options_add_actions_at_the_end_only() -> None:
    plain = ActionSpace("djambi", 4)
    full = ActionSpace("djambi", 4, {"reporter": "scandal", "aggressivity": True})
    assert [plain.decode(i) for i in range(plain.n)] == [full.decode(i) for i in range(plain.n)]
    assert full.decode(plain.n) == "scandal"
    assert full.decode(plain.n + 1).startswith("revive ")
    with pytest.raises(ValueError, match="is not an action of"):
        plain.encode("scandal")
    with pytest.raises(ValueError, match="is not an action of"):
        plain.encode("revive c4 a2")
    assert full.encode("revive c4 a2") >= plain.n


@pytest.mark.parametrize(("options", "n", "games"), CASES)
def test_random_games_encode_and_observe(options: dict[str, Any], n: int, games: int) -> None:
    space = ActionSpace("djambi", 4, options)
    observer = Observer("djambi", 4, options)
    assert observer.shape == (LAYOUT.size,) == (2209,)
    seen: set[str] = set()
    for seed in range(games):
        first = last = np.zeros(0)
        for number, state in enumerate(random_states("djambi", 4, options, seed)):
            seen |= check_legal(space, state)
            players = range(4) if number % EVERY_PLAYER == 0 or state.is_over else state.to_move
            for player in players:
                last = check_observation(observer, state, player, seed)
                first = last if first.size == 0 else first
        assert not np.array_equal(first, last)
    words = {action.split()[0] for action in seen}
    expected = {"corpse", "place", "kill"}  # "pass" is rare but for the scandal's
    expected |= {"scandal", "pass"} if options.get("reporter") == "scandal" else set()
    expected |= {"revive"} if options.get("aggressivity") else set()
    assert expected <= words  # the random games reach every kind of follow-up


def test_the_observation_is_written_from_the_viewers_seat() -> None:
    state = machiavel.game("djambi").new(4, seed=2)
    observer = Observer("djambi", 4)
    pieces = FIELDS["pieces"]
    chief = KINDS.index("chief")
    for player, corner in enumerate(("a1", "a9", "i9", "i1")):
        vector = observer.encode(state.view(player))
        assert vector[pieces.slot(chief * SQUARES + SQUARE_INDEX[corner])] == 1.0  # own: seat 0
        assert vector[FIELDS["my_colour"].slot(player)] == 1.0
        next_corner = ("a9", "i9", "i1", "a1")[player]  # clockwise: seat 1
        assert vector[pieces.slot((6 + chief) * SQUARES + SQUARE_INDEX[next_corner])] == 1.0
    spectator = observer.encode(state.view(None))
    assert spectator[FIELDS["my_colour"].offset : FIELDS["my_colour"].offset + 4].sum() == 0


def test_refusals_are_clear() -> None:
    check_refusals("djambi", 4, "tyrus", 2)


def test_docs_show_the_layout() -> None:
    check_documented("Djambi", LAYOUT.rows())
