"""Tyrus's research encoding: 180 numbered placements, a 534-number observation."""

from __future__ import annotations

import numpy as np
import pytest

import machiavel
from machiavel.games.tyrus.rules import BUILDINGS, TILES
from machiavel.rl import ActionSpace, Observer
from machiavel.rl.layout import Layout
from machiavel.rl.tyrus import FIELDS, LAYOUT
from support.rl_checks import (
    check_documented,
    check_legal,
    check_numbering,
    check_observation,
    check_refusals,
    random_states,
)

OPTIONS = [{"memory_mode": False}, {"memory_mode": True}]
GAMES = 40  # random games per option value: about two seconds in all


@pytest.mark.parametrize("options", OPTIONS)
def test_every_number_decodes_and_encodes_back(options: dict[str, bool]) -> None:
    space = ActionSpace("tyrus", 2, options)
    assert space.n == len(TILES) * len(BUILDINGS) == 180
    check_numbering(space)
    assert space.decode(0) == "S1 citadel"
    assert space.decode(6 * TILES.index("M8") + BUILDINGS.index("rival-citadel")) == (
        "M8 rival-citadel"
    )


@pytest.mark.parametrize("options", OPTIONS)
def test_random_games_encode_and_observe(options: dict[str, bool]) -> None:
    space = ActionSpace("tyrus", 2, options)
    observer = Observer("tyrus", 2, options)
    assert observer.shape == (534,)
    for seed in range(GAMES):
        first: list[np.ndarray] = []
        last: list[np.ndarray] = []
        for state in random_states("tyrus", 2, options, seed):
            check_legal(space, state)
            last = [check_observation(observer, state, p, seed) for p in (0, 1)]
            first = first or last
        assert not np.array_equal(first[0], last[0])
        assert not np.array_equal(first[0], first[1])  # each player sees their own hand


def test_the_observation_is_written_from_the_viewers_seat() -> None:
    state = machiavel.game("tyrus").new(2, seed=5)
    observer = Observer("tyrus", 2)
    player = state.to_move[0]
    hand = FIELDS["hand"]
    vector = observer.encode(state.view(player))
    held = [TILES[i] for i in range(hand.length) if vector[hand.slot(i)] == 1.0]
    assert held == state.view(player)["hand"]
    assert vector[FIELDS["my_turn"].offset] == 1.0
    tile = held[0]
    state.apply(player, f"{tile} rival-temple")
    after = observer.encode(state.view(player))
    placed = FIELDS["my_placed"].slot(5 * len(TILES) + TILES.index(tile))
    assert after[placed] == 1.0 and after[FIELDS["my_turn"].offset] == 0.0
    rival = observer.encode(state.view(1 - player))
    assert rival[FIELDS["hidden_placed"].slot(2)] > 0.0  # in the rival's view: their temple


def test_refusals_are_clear() -> None:
    check_refusals("tyrus", 2, "djambi", 4)


def test_docs_show_the_layout() -> None:
    assert isinstance(LAYOUT, Layout)
    check_documented("Tyrus", LAYOUT.rows())
