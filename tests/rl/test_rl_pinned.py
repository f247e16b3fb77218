"""Observations and masks pinned over random games: a faster encoding gives the very same
numbers (digests taken from the first, field-by-field encoders)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

import machiavel
from machiavel.rl import ActionSpace, Observer
from support.rl_checks import random_states

# game, players, options, games, digest of every observation and mask of those games
PINNED: list[tuple[str, int, dict[str, Any], int, str]] = [
    (
        "tyrus",
        2,
        {"memory_mode": False},
        30,
        "c8439f2065e174177d177270ef1db6b85ac690b5da59d2945e1fbc991dd52b64",
    ),
    (
        "tyrus",
        2,
        {"memory_mode": True},
        30,
        "e2ba774921da1c136cb39e217fcd9fc2ca750c174778dc75c437db69ecc6581d",
    ),
    ("djambi", 4, {}, 3, "7f4e5e8f63866b4054d10bf88e384b8f956f67ff4a01c996fdff63327e30dff3"),
    ("guildes", 3, {}, 4, "aee542b94bb0bf234fffca427298c3c18c66dff489f70bd40814caa4fcc7c6aa"),
    ("guildes", 5, {}, 2, "a104c009754c4ba9a02b10f0fe7a080cbd780956b46ecba6f48b7abcf9e999fd"),
    ("tyros", 3, {}, 2, "bd977785d12fdb997dfaae5fc1af1b3429a570ade842722ea8852de95e394953"),
    ("tyros", 4, {}, 1, "501be9c6cb8116a42a69ceb6447c3d09fd5e46f4c02a88c1dcbab7e3915b0973"),
]


def digest(game_id: str, players: int, options: dict[str, Any], games: int) -> str:
    observer = Observer(game_id, players, options)
    space = ActionSpace(game_id, players, options)
    made = hashlib.sha256()
    for seed in range(games):
        for state in random_states(game_id, players, options, seed):
            for player in [*range(players), None]:
                made.update(observer.encode(state.view(player)).tobytes())
            for player in state.to_move:
                made.update(space.mask(state.legal_list(player)).tobytes())
    return made.hexdigest()


@pytest.mark.parametrize(("game_id", "players", "options", "games", "pinned"), PINNED)
def test_observations_and_masks_are_pinned(
    game_id: str, players: int, options: dict[str, Any], games: int, pinned: str
) -> None:
    assert machiavel.game(game_id)
    assert digest(game_id, players, options, games) == pinned
