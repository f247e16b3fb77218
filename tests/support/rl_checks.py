"""Checks every game's research encoding must pass (docs/rl.md), shared by tests/rl.

Games are played with a seeded ``Rng``: a failure is the same on every run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import machiavel
from machiavel.core.contract import State
from machiavel.core.rng import Rng
from machiavel.rl import ActionSpace, Observer

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
FIELD_ROW = re.compile(r"\| \d+ \| \d+ \| `")


def check_numbering(space: ActionSpace) -> None:
    """``encode(decode(i)) == i`` for every number, and the actions are canonical."""
    for number in range(space.n):
        action = space.decode(number)
        assert action == " ".join(action.split())
        assert space.encode(action) == number


def random_states(
    game_id: str, players: int, options: Mapping[str, Any], seed: int
) -> Iterator[State]:
    """Every state of a random game, from the first to the last (the same object, moved on)."""
    state = machiavel.game(game_id).new(players, seed=seed, options=options)
    rng = Rng(seed)
    yield state
    while not state.is_over:
        player = rng.choice(list(state.to_move))
        state.apply(player, rng.choice(state.legal_actions(player)))
        yield state


def check_legal(space: ActionSpace, state: State) -> set[str]:
    """Every legal action of every player to move encodes; the mask has one 1 for each."""
    seen: set[str] = set()
    for player in state.to_move:
        legal = state.legal_actions(player)
        mask = space.mask(legal)
        assert mask.dtype == np.int8
        assert int(mask.sum()) == len(legal) == len(set(legal))
        assert all(mask[space.encode(action)] == 1 for action in legal)
        seen.update(legal)
    return seen


def check_observation(observer: Observer, state: State, player: int, seed: int) -> np.ndarray:
    """The observation has its shape, lies in [0, 1], and is the same in a resampled world."""
    vector = observer.encode(state.view(player))
    assert vector.shape == observer.shape and vector.dtype == np.float32
    assert np.all(np.isfinite(vector))
    assert float(vector.min()) >= 0.0 and float(vector.max()) <= 1.0
    world = state.resample(player, Rng(seed))
    assert np.array_equal(observer.encode(world.view(player)), vector)
    return vector


def check_refusals(game_id: str, players: int, other_game: str, other_players: int) -> None:
    """Clear ``ValueError``s for what is not an action, a number or a view of this game."""
    space = ActionSpace(game_id, players)
    observer = Observer(game_id, players)
    with pytest.raises(ValueError, match="is not an action of"):
        space.encode("no such action")
    with pytest.raises(ValueError, match="is not an action of"):
        space.mask(["no such action"])
    with pytest.raises(ValueError, match="action numbers go from 0"):
        space.decode(space.n)
    with pytest.raises(ValueError, match="action numbers go from 0"):
        space.decode(-1)
    with pytest.raises(ValueError, match="whole number"):
        space.decode(1.0)  # type: ignore[arg-type]
    view = machiavel.game(game_id).new(players, seed=1).view(0)
    with pytest.raises(ValueError, match="expected a view of"):
        observer.encode(machiavel.game(other_game).new(other_players, seed=1).view(0))
    with pytest.raises(ValueError, match="this observer is for"):
        observer.encode({**view, "players": players + 1})
    with pytest.raises(ValueError, match="players"):
        ActionSpace(game_id, players + 1)


def check_documented(title: str, rows: list[str]) -> None:
    """docs/rl.md's section ``## <title>`` shows the layout's table, row for row, and no other
    field row (``| offset | length | `name` | meaning |``)."""
    text = DOCS.read_text(encoding="utf-8")
    assert f"\n## {title}\n" in text
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    shown = [line for line in section.splitlines() if FIELD_ROW.match(line)]
    assert shown == rows, f"docs/rl.md, section {title}: the field table is not the layout's"
