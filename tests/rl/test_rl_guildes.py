"""The Guildes encoding: numbering, masks of real games, observations from the view only."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.contract import State
from machiavel.core.rng import Rng
from machiavel.games.guildes.actions import normalize
from machiavel.rl import ActionSpace, Observer
from machiavel.rl.guildes import FIELDS, Encoding

GAME = machiavel.game("guildes")
OPTION_MIXES = [
    {"events": events, "dirty_tricks": tricks}
    for tricks in (False, True)
    for events in (False, True)
]
SETUPS = [(players, options) for players in (3, 4, 5, 6) for options in OPTION_MIXES]
# The figures of docs/rl.md: (no option, events, dirty_tricks, both) per player count.
SIZES = {3: (16, 60, 344, 388), 4: (18, 72, 712, 766), 5: (18, 72, 1047, 1101)}
SIZES[6] = (18, 72, 1454, 1508)
TRICK_VERBS = {"pass", "draw", "swap", "sacrifice", "exchange", "plus", "minus"}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def setup_id(setup: tuple[int, dict[str, bool]]) -> str:
    players, options = setup
    on = [name for name, value in options.items() if value]
    return f"{players}p-" + ("+".join(on) or "plain")


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_every_number_decodes_to_a_canonical_action_and_back(
    setup: tuple[int, dict[str, bool]],
) -> None:
    players, options = setup
    space = ActionSpace("guildes", players, options)
    assert space.n == SIZES[players][OPTION_MIXES.index(options)]
    for number in range(space.n):
        action = space.decode(number)
        assert normalize(action) == action
        assert space.encode(action) == number


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_variant_actions_only_with_their_option(players: int) -> None:
    plain = set(Encoding(players, {}).actions)
    events = set(Encoding(players, {"events": True}).actions)
    tricks = set(Encoding(players, {"dirty_tricks": True}).actions)
    assert {a.split()[0] for a in plain} == {"keep", "place"}
    assert {a.split()[0] for a in events - plain} == {"discard", "place"}
    assert {a.split()[0] for a in tricks - plain} == TRICK_VERBS
    named = " ".join(plain | events | tricks)
    assert ("Alchimistes" in named) == (players > 3)  # G1: none with 3 players


def play_through(
    state: State, seed: int, space: ActionSpace, observer: Observer
) -> tuple[list[Any], Counter[str]]:
    """A seeded random game; every legal list is checked against the mask on the way.

    Returns the observations of every view met (the players to move) and the verbs played.
    """
    rng = Rng(seed)
    observations = []
    verbs: Counter[str] = Counter()
    while not state.is_over:
        for player in state.to_move:
            legal = state.legal_actions(player)
            mask = space.mask(legal)
            assert int(mask.sum()) == len(legal)
            assert [space.decode(space.encode(a)) for a in legal] == legal
            observations.append(observer.encode(state.view(player)))
        player = rng.choice(state.to_move)
        action = rng.choice(state.legal_actions(player))
        state.apply(player, action)
        words = action.split()
        pair = words[0] == "place" and len(words) == 3
        verbs["place <g> <h>" if pair else words[0]] += 1
    observations.append(observer.encode(state.view(0)))
    return observations, verbs


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_random_games_encode_and_observe_within_bounds(
    setup: tuple[int, dict[str, bool]],
) -> None:
    players, options = setup
    space, observer = (
        ActionSpace("guildes", players, options),
        Observer("guildes", players, options),
    )
    for seed in range(3):
        state = GAME.new(players, seed=seed, options=options)
        observations, _ = play_through(state, seed, space, observer)
        for observation in observations:
            assert observation.shape == observer.shape == (108 + 56 * players,)
            assert observation.dtype == np.float32
            assert np.isfinite(observation).all()
            assert observation.min() >= 0 and observation.max() <= 1
        assert not np.array_equal(observations[0], observations[-1])
        distinct = {o.tobytes() for o in observations}
        assert len(distinct) > len(observations) // 2  # views change as the game goes


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_reach_every_coup_tordu_verb(players: int) -> None:
    """The masks above are checked on games that do play every kind of action."""
    options = {"events": True, "dirty_tricks": True}
    space, observer = (
        ActionSpace("guildes", players, options),
        Observer("guildes", players, options),
    )
    verbs: Counter[str] = Counter()
    seed = 0
    while not set(verbs) >= TRICK_VERBS | {"keep", "place", "discard", "place <g> <h>"}:
        assert seed < 20, f"20 games played only {sorted(verbs)}"
        state = GAME.new(players, seed=seed, options=options)
        verbs += play_through(state, seed, space, observer)[1]
        seed += 1


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_a_resampled_world_gives_the_same_observation(
    setup: tuple[int, dict[str, bool]],
) -> None:
    players, options = setup
    observer = Observer("guildes", players, options)
    rng = Rng(players)
    state = GAME.new(players, seed=7, options=options)
    steps = 0
    while not state.is_over:
        if steps % 11 == 0:
            for player in range(players):
                world = state.resample(player, Rng(steps))
                seen, resampled = state.view(player), world.view(player)
                assert np.array_equal(observer.encode(seen), observer.encode(resampled))
        mover = rng.choice(state.to_move)
        state.apply(mover, rng.choice(state.legal_actions(mover)))
        steps += 1


@settings(derandomize=True, max_examples=100, deadline=None)
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(min_value=0, max_value=2**32),
    steps=st.integers(min_value=0, max_value=250),
)
def test_any_position_masks_and_observes_every_player_honestly(
    setup: tuple[int, dict[str, bool]], seed: int, steps: int
) -> None:
    """A random position: each player to move's mask, everyone's observation of a world."""
    players, options = setup
    space, observer = (
        ActionSpace("guildes", players, options),
        Observer("guildes", players, options),
    )
    state = GAME.new(players, seed=seed, options=options)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        mover = rng.choice(state.to_move)
        state.apply(mover, rng.choice(state.legal_actions(mover)))
    for player in state.to_move:
        legal = state.legal_actions(player)
        assert int(space.mask(legal).sum()) == len(legal)
    for player in range(players):
        observation = observer.encode(state.view(player))
        assert observation.min() >= 0 and observation.max() <= 1
        world = state.resample(player, Rng(seed + player))
        assert np.array_equal(observation, observer.encode(world.view(player)))


def test_seats_are_rotated_to_the_viewer() -> None:
    encoding = Encoding(4, {})
    state = GAME.new(4, seed=3)
    rng = Rng(3)
    for _ in range(60):  # into the placing of round 1: the tableaux differ
        mover = rng.choice(state.to_move)
        state.apply(mover, rng.choice(state.legal_actions(mover)))
    at, length = encoding.offsets["tableaux"]
    rows = {}
    for viewer in range(4):
        out = np.zeros(encoding.observation_size, dtype=np.float32)
        encoding.observe(state.view(viewer), out)
        rows[viewer] = out[at : at + length].reshape(4, -1)
    for viewer in range(4):
        for seat in range(4):
            assert np.array_equal(rows[viewer][seat], rows[0][(viewer + seat) % 4])


def test_a_spectator_view_has_no_private_fields() -> None:
    observer = Observer("guildes", 5, {"events": True, "dirty_tricks": True})
    encoding = Encoding(5, {"events": True, "dirty_tricks": True})
    observation = observer.encode(GAME.new(5, seed=1).view(None))
    start = encoding.offsets["hand"][0]
    assert not observation[start:].any()
    assert observer.encode(GAME.new(5, seed=1).view(0))[start:].any()


def test_clear_errors() -> None:
    space = ActionSpace("guildes", 4, {"dirty_tricks": True})
    observer = Observer("guildes", 4)
    for wrong in ("keep Dragons", "keep erudits", "discard Milice", "swap 2 Nobles 0 Milice"):
        with pytest.raises(ValueError, match="not an action of guildes"):
            space.encode(wrong)
    with pytest.raises(ValueError, match="not an action of guildes"):
        ActionSpace("guildes", 3).encode("keep Alchimistes")  # none with 3 players
    for number in (-1, space.n):
        with pytest.raises(ValueError, match="action numbers go from 0"):
            space.decode(number)
    with pytest.raises(ValueError, match="whole number"):
        space.decode("3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="for 4 players, the view for 5"):
        observer.encode(GAME.new(5, seed=1).view(0))
    with pytest.raises(ValueError, match="expected a view of guildes"):
        observer.encode(machiavel.game("djambi").new(4, seed=1).view(0))


def formula(fixed: int, per_seat: int) -> str:
    """``a + bn`` as docs/rl.md writes offsets and lengths."""
    if per_seat == 0:
        return str(fixed)
    seats = "n" if per_seat == 1 else f"{per_seat}n"
    return seats if fixed == 0 else f"{fixed} + {seats}"


def test_docs_list_every_field_at_its_offset() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    fixed = per_seat = 0
    for field in FIELDS:
        row = f"| {formula(fixed, per_seat)} | {formula(field.fixed, field.per_seat)} | `{field.name}` |"
        assert row in docs, row
        fixed, per_seat = fixed + field.fixed, per_seat + field.per_seat
    assert f"`{formula(fixed, per_seat)}` numbers" in docs
    for players in (3, 4, 5, 6):
        assert Encoding(players, {}).observation_size == fixed + per_seat * players
