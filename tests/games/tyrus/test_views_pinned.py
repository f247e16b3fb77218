"""Tyrus's views, legal lists, snapshots and words pinned over seeded random games: a faster
engine gives exactly the same JSON (key order included) for every player and spectator,
with and without memory_mode (digests taken from the engine before its view was cached)."""

from __future__ import annotations

import hashlib
import json

import pytest

import machiavel
from machiavel.core.rng import Rng
from machiavel.games.tyrus.rules import TyrusState

GAME = machiavel.game("tyrus")
GAMES = 25

# memory_mode -> digest of every view, legal list, snapshot, description, event and mark
PINNED = {
    False: "97696592d84a8946f33fbb24289faeb1bba30a43cd5ab4a2de167c04133543ae",
    True: "801f916316a75314797999d448ebe5310147b5e17792e43a71e310a142b2f6cf",
}


def _dump(data: object) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def digest(memory_mode: bool, games: int = GAMES) -> str:
    made = hashlib.sha256()
    for seed in range(games):
        state = GAME.new(2, seed=seed, options={"memory_mode": memory_mode})
        assert isinstance(state, TyrusState)
        rng = Rng(seed)
        while True:
            for viewer in (0, 1, None):
                made.update(_dump(state.view(viewer)))
            made.update(_dump(state.to_json()))
            if state.is_over:
                break
            player = state.to_move[0]
            made.update(_dump(state.legal_actions(player)))
            action = rng.choice(state.legal_actions(player))
            before = state.clone()
            words = [state.describe(player, action, viewer, "en") for viewer in (0, 1, None)]
            state.apply(player, action)
            for language in ("en", "fr"):
                for viewer in (0, 1, None):
                    words += state.events(before, player, action, viewer, language)
            words.append(state.ending("en") or "")
            made.update(_dump(words))
            made.update(_dump(state.marks(before, player, action)))
    return made.hexdigest()


@pytest.mark.parametrize("memory_mode", [False, True])
def test_views_are_pinned(memory_mode: bool) -> None:
    assert digest(memory_mode) == PINNED[memory_mode]


def test_a_caller_changing_a_view_changes_nothing_else() -> None:
    """Views are the caller's own, but for the tallies in them (copies made once per tally,
    shared by the views until the next): changing every other list and dict of one view,
    and the list of tallies itself, leaves the state, its later views and the other
    players' views as they were; changing even the tallies leaves the state as it was."""
    for memory_mode in (False, True):
        state = GAME.new(2, seed=3, options={"memory_mode": memory_mode})
        rng = Rng(3)
        while not state.is_over:
            expected = {viewer: _dump(state.view(viewer)) for viewer in (0, 1, None)}
            snapshot = _dump(state.to_json())
            for viewer in (0, 1, None):
                _scramble(state.view(viewer))
                assert _dump(state.view(viewer)) == expected[viewer]
            assert _dump(state.to_json()) == snapshot
            changed = state.clone()
            _scramble(changed.view(0), tallies_too=True)
            assert _dump(changed.to_json()) == snapshot
            player = state.to_move[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
        expected = {viewer: _dump(state.view(viewer)) for viewer in (0, 1, None)}
        for viewer in (0, 1, None):
            _scramble(state.view(viewer))
            assert _dump(state.view(viewer)) == expected[viewer]


def _scramble(data: object, tallies_too: bool = False) -> None:
    """Change every list and dict inside ``data`` in place, deepest first (the entries of a
    view's tallies only if ``tallies_too``)."""
    if isinstance(data, list):
        for item in data:
            _scramble(item, tallies_too)
        data.append("changed")
    elif isinstance(data, dict):
        for key, item in data.items():
            if key == "tallies" and not tallies_too:
                item.append("changed")
            else:
                _scramble(item, tallies_too)
        data["changed"] = True
