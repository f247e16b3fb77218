"""The heuristic bot chooses exactly as it did before its speed-ups (issue 16).

Each game below is played by one heuristic bot (its generator running on from choice to
choice) with a random action now and then, under each option; the digest of its choices,
and of a fresh bot's rankings now and then, was recorded with the bot of commit 650b692,
before the search speed-ups. A different digest means the bot no longer plays as it did.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from machiavel.core.rng import Rng
from machiavel.games.djambi import GAME
from machiavel.games.djambi.bot import DjambiHeuristicBot

OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"reporter": "scandal"},
    {"aggressivity": True, "reporter": "scandal"},
    {"inherited_turns": "skip", "aggressivity": True},
)
MAX_ACTIONS = 400

RECORDED: dict[int, str] = {
    0: "6473e9d153f37ddd",
    1: "504035145c9c8646",
    2: "9aff051d924e6ec9",
    3: "7453d955f8c2d18e",
    4: "6df479ffe7696d1c",
    5: "e0f8ca186e7acf96",
    6: "e7c6a13f11eba5f8",
    7: "6f9813ab25755904",
    8: "23ed5caf1d0f620f",
    9: "fa739be4b2183cbb",
    10: "bd9a16ba3afe04c7",
    11: "4f4346dc92de2d23",
    12: "4d12aa904744e640",
    13: "ace4074f269d8bc8",
    14: "db1f071e0a218813",
    15: "b830878458b6f457",
    16: "48886b2ebe622146",
    17: "ef1b3319ec260b51",
    18: "814ed87264cfd553",
    19: "50cd43d65e35dce7",
    20: "0763e39bcd6b11b7",
    21: "7d6dae7caba6a38a",
    22: "d09b11a3b7129d30",
    23: "46ed34418b06b4a7",
    24: "d39ace0cf3207f1e",
    25: "44952eeb54197d6f",
    26: "95df1dc323d4e880",
    27: "7447936f33a34397",
    28: "96162d40bf53509c",
    29: "11bf624a3eabfa02",
    30: "d6496ee9043a8598",
    31: "44d0a0655f314298",
    32: "c518845878b3d97c",
    33: "23c77f29fc3decdc",
    34: "4425b48f2f7d3f2b",
    35: "4f5a5507aee435d8",
    36: "5f3f984c072eaffa",
    37: "24bbb8d951d288fa",
    38: "934075015105b81e",
    39: "cdfed91d43457663",
    40: "14bf4dbc87bbce07",
    41: "b7f9cea7c2700880",
    42: "f491c02b7895715d",
    43: "1c99b55e5825a118",
    44: "12ad07ad8d77ed0e",
    45: "55fafc19e81118e1",
    46: "cc76da078f7c3e66",
    47: "65386f120400e8f3",
}


def played_digest(seed: int) -> str:
    """The digest of the bot's choices and of some rankings over one seeded game."""
    state = GAME.new(4, seed=seed, options=OPTIONS[seed % len(OPTIONS)])
    bot = DjambiHeuristicBot(seed)
    rng = Rng(seed + 1000)
    digest = hashlib.sha256()
    for step in range(MAX_ACTIONS):
        if state.is_over:
            break
        player = state.to_move[0]
        seat = state.seat(player)
        if step % 5 == 0:
            ranking = DjambiHeuristicBot(seed + step).ranked(seat)
            digest.update(" ".join(ranking).encode() + b"\n")
        if rng.below(4) == 0:
            action = rng.choice(state.legal_actions(player))
        else:
            action = bot.choose(seat)
            digest.update(action.encode() + b"\n")
        state.apply(player, action)
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("seed", sorted(RECORDED))
def test_the_bot_plays_as_it_did_before_its_speed_ups(seed: int) -> None:
    assert played_digest(seed) == RECORDED[seed]
