"""Tyros's action numbering and observation (docs/rl.md, "Tyros")."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from itertools import groupby
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.rng import Rng
from machiavel.games.tyros.board import BOARD, CELL_COUNT, NODE_COUNT, TYROS
from machiavel.games.tyros.bot import TyrosHeuristicBot
from machiavel.games.tyros.cards import KINDS, full_deck
from machiavel.games.tyros.rules import (
    CITIES_EACH,
    MAX_OWN_SHIPS_IN_OPEN_TYROS,
    MAX_SHIPS_PER_CELL,
    SHIPS_EACH,
    TyrosState,
)
from machiavel.rl.spaces import ActionSpace, Observer
from machiavel.rl.tyros import Encoding, observation_fields

GAME = machiavel.game("tyros")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
SETUPS = ("first-game", "random")
# The documented sizes (docs/rl.md): a change here is a change of the numbering.
ACTIONS = {3: 108_057, 4: 109_062}
OBSERVATION = {3: 693, 4: 817}

seeds = st.integers(min_value=0, max_value=2**32)
counts = st.sampled_from([3, 4])
setups = st.sampled_from(SETUPS)


@cache
def encoding(players: int) -> Encoding:
    return Encoding(players, {})


@cache
def space(players: int) -> ActionSpace:
    return ActionSpace("tyros", players)


@cache
def observer(players: int) -> Observer:
    return Observer("tyros", players)


def new(players: int, seed: int, setup: str = "first-game") -> TyrosState:
    state = GAME.new(players, seed=seed, options={"setup": setup})
    assert isinstance(state, TyrosState)
    return state


def check_legal(state: TyrosState) -> None:
    """Every legal action of every player to move encodes; the mask counts them all."""
    actions = space(state.players)
    for player in state.to_move:
        legal = state.legal_actions(player)
        mask = actions.mask(legal)
        assert int(mask.sum()) == len(legal)
        assert all(actions.decode(actions.encode(action)) == action for action in legal)


def check_observation(state: TyrosState, player: int | None) -> np.ndarray:
    vector = observer(state.players).encode(state.view(player))
    assert vector.shape == (OBSERVATION[state.players],)
    assert vector.dtype == np.float32
    assert np.isfinite(vector).all()
    assert vector.min() >= 0.0
    assert vector.max() <= 1.0
    return vector


def step(state: TyrosState, rng: Rng, bots: list[TyrosHeuristicBot]) -> None:
    """Half heuristic, half random: cities, fees and full Tyros, not only random offers."""
    waiting = state.to_move
    player = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
    if rng.below(2):
        action = bots[player].choose(state.seat(player))
    else:
        action = rng.choice(state.legal_actions(player))
    state.apply(player, action)


# ---- numbering -----------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
def test_every_number_decodes_and_encodes_back(players: int) -> None:
    actions = space(players)
    assert actions.n == ACTIONS[players]
    assert [actions.encode(actions.decode(i)) for i in range(actions.n)] == list(range(actions.n))


@pytest.mark.parametrize("players", [3, 4])
def test_the_setup_option_changes_neither_numbering_nor_layout(players: int) -> None:
    drawn = Encoding(players, {"setup": "random"})
    assert drawn.actions == encoding(players).actions
    assert Observer("tyros", players, {"setup": "random"}).shape == observer(players).shape


def test_the_kinds_come_in_the_documented_order() -> None:
    verbs = [action.split()[0] for action in encoding(4).actions]
    assert [verb for verb, _ in groupby(verbs)] == [
        "expand",
        "under",
        "move",
        "city",
        "ship",
        "bank",
        "offer",
        "accept",
        "refuse",
        "pass",
        "keep",
    ]  # each kind in one block
    assert Counter(verbs)["move"] == 104_664


@pytest.mark.parametrize("players", [3, 4])
def test_offers_name_every_other_seat(players: int) -> None:
    actions = space(players)
    assert actions.encode(f"offer {players - 1} give orange ask joker,joker") >= 0
    with pytest.raises(ValueError, match="not an action"):
        actions.encode(f"offer {players} give orange ask joker")


# ---- legal actions of played and rigged positions ------------------------------------
@settings(max_examples=8, derandomize=True)
@given(counts, seeds, setups)
def test_every_legal_action_of_a_game_encodes(players: int, seed: int, setup: str) -> None:
    state = new(players, seed, setup)
    rng = Rng(seed)
    bots = [TyrosHeuristicBot(seed + p) for p in range(players)]
    while not state.is_over:
        check_legal(state)
        step(state, rng, bots)


def rig(state: TyrosState, rng: Rng) -> None:
    """A random action-phase position: any empire on any cell, cities of anyone, ships
    within the limits, big hands: the moves, fees and payments random games rarely reach."""
    n = state.n
    state.markers = [rng.below(5) - 1 for _ in range(CELL_COUNT)]
    state.cities = [-1] * CELL_COUNT
    for cell in range(CELL_COUNT):
        owner = rng.below(n + 2)  # n, n + 1: no city
        if owner < n and state.cities.count(owner) < CITIES_EACH:
            state.cities[cell] = owner
    state.ships = [[] for _ in range(n)]
    for player in range(n):
        for _ in range(rng.below(SHIPS_EACH + 1)):
            node = rng.below(NODE_COUNT)
            if room(state, player, node):
                state.ships[player].append(node)
        state.ships[player].sort()
    deck = full_deck()
    rng.shuffle(deck)
    for player in range(n):
        state.hands[player] = [0] * KINDS
        for _ in range(rng.below(16 if player else 25)):
            state.hands[player][deck.pop()] += 1
    cut = rng.below(len(deck) + 1)  # the rest of the cards: deck, then discard pile
    state.deck = deck[:cut]
    state.discard = [deck[cut:].count(card) for card in range(KINDS)]
    state.phase, state.current, state.passes, state.offers_made = "actions", 0, 0, 0
    state._refresh_to_move()
    state._legal_cache.clear()
    state._legal_sets.clear()
    state._forget_board()


def room(state: TyrosState, player: int, node: int) -> bool:
    """Y6: 2 ships a cell, or 2 of each player in Tyros before its city."""
    cell = BOARD.node_cell[node]
    total, mine = state.ship_counts(player)
    if cell == TYROS and state.cities[TYROS] < 0:
        return mine[TYROS] < MAX_OWN_SHIPS_IN_OPEN_TYROS
    return total[cell] < MAX_SHIPS_PER_CELL


@settings(max_examples=60, derandomize=True)
@given(counts, seeds)
def test_every_legal_action_of_a_rigged_position_encodes(players: int, seed: int) -> None:
    state = new(players, seed)
    rig(state, Rng(seed))
    check_legal(state)


@pytest.mark.parametrize("players", [3, 4])
def test_a_ship_in_a_crowded_open_tyros_costs_up_to_2n_cards(players: int) -> None:
    """Y6: one card per ship there counting the new one; the others hold 2 each, the
    builder 1 (the most it may hold to build), so the dearest ship costs 2n cards."""
    state = new(players, 1)
    rig(state, Rng(1))
    state.cities[TYROS] = -1
    state.ships = [[TYROS]] + [[TYROS, TYROS] for _ in range(players - 1)]
    state.hands[0] = [5, 5, 5, 5, 4]
    state._legal_cache.clear()
    check_legal(state)
    dearest = max(
        action.count(",") + 1
        for action in state.legal_actions(0)
        if action.startswith("ship tyros pay ")
    )
    assert dearest == 2 * players


# ---- observations --------------------------------------------------------------------
@settings(max_examples=6, derandomize=True)
@given(counts, seeds, setups)
def test_observations_are_in_range_and_see_only_the_view(
    players: int, seed: int, setup: str
) -> None:
    state = new(players, seed, setup)
    rng = Rng(seed)
    bots = [TyrosHeuristicBot(seed + p) for p in range(players)]
    first = check_observation(state, 0)
    played = 0
    while not state.is_over:
        if played % 17 == 0:
            for player in range(players):
                seen = check_observation(state, player)
                world = state.resample(player, Rng(seed + played))
                assert isinstance(world, TyrosState)
                assert np.array_equal(check_observation(world, player), seen)
            check_observation(state, None)
        step(state, rng, bots)
        played += 1
    assert not np.array_equal(check_observation(state, 0), first)


def test_seats_are_rotated_so_the_viewer_comes_first() -> None:
    state = new(4, 5)
    offset = encoding(4).offsets["to_move"]
    mover = state.to_move[0]
    for viewer in range(4):
        vector = observer(4).encode(state.view(viewer))
        assert vector[offset + (mover - viewer) % 4] == 1.0
    hand = encoding(4).offsets["hand"]
    assert observer(4).encode(state.view(mover))[hand : hand + KINDS].sum() > 0


# ---- errors --------------------------------------------------------------------------
def test_clear_errors() -> None:
    actions = space(3)
    with pytest.raises(ValueError, match="not an action of tyros"):
        actions.encode("move tyros>31 pay pink")
    with pytest.raises(ValueError, match="not an action of tyros"):
        actions.encode("pay orange move tyros>31")
    for number in (-1, actions.n):
        with pytest.raises(ValueError, match="action numbers go from 0"):
            actions.decode(number)
    with pytest.raises(ValueError, match="a whole number"):
        actions.decode(1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="expected a view of tyros"):
        observer(3).encode(machiavel.game("tyrus").new(2, seed=1).view(0))
    with pytest.raises(ValueError, match="for 3 players, the view for 4"):
        observer(3).encode(new(4, 1).view(0))


# ---- docs/rl.md ----------------------------------------------------------------------
def test_the_documented_layout_is_the_code_s() -> None:
    """docs/rl.md's Tyros table: `| field | offset, length (3p) | offset, length (4p) |...`."""
    section = DOCS.read_text(encoding="utf-8").split("## Tyros", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", section, re.M)
    documented = [(name, int(a), int(b), int(c), int(d)) for name, a, b, c, d in rows]
    expected = []
    offsets = {3: 0, 4: 0}
    for (name, three), (_, four) in zip(observation_fields(3), observation_fields(4), strict=True):
        expected.append((name, offsets[3], three, offsets[4], four))
        offsets[3] += three
        offsets[4] += four
    assert documented == expected
    assert offsets == OBSERVATION


def kind(action: str) -> str:
    """An action's row in docs/rl.md's table: its verb, and bank trades taking a card."""
    return action.split()[0] + (" take" if " take " in action else "")


def test_the_documented_ranges_are_the_code_s() -> None:
    """docs/rl.md's Tyros action table: `| `verb ...` | first-last (3p) | first-last (4p) |`."""
    section = DOCS.read_text(encoding="utf-8").split("## Tyros", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (`.*?`) \| (\d+)-(\d+) \| (\d+)-(\d+) \|", section, re.M)
    assert rows
    for players, columns in ((3, (1, 2)), (4, (3, 4))):
        actions = encoding(players).actions
        after = 0
        for row in rows:
            first, last = (int(row[column]) for column in columns)
            verbs = re.findall(r"`(\w+)", row[0])
            kinds = {verb + (" take" if " take " in row[0] else "") for verb in verbs}
            assert first == after
            assert {kind(action) for action in actions[first : last + 1]} == kinds
            after = last + 1
        assert after == len(actions)
