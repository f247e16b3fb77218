"""Property tests over random Tyros games: conservation, endings, no leaks, round trips.

With HYPOTHESIS_PROFILE=deep every example count is multiplied by 50 (thousands of games).
"""

from __future__ import annotations

import json
import os
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.playout import random_playout, random_step
from machiavel.core.rng import Rng
from machiavel.games.tyros.board import BOARD, CELL_COUNT
from machiavel.games.tyros.cards import CARD_NAMES
from machiavel.games.tyros.rules import TyrosState

GAME = machiavel.game("tyros")
DEEP = 50 if os.environ.get("HYPOTHESIS_PROFILE") == "deep" else 1
seeds = st.integers(min_value=0, max_value=2**48)
players = st.sampled_from([3, 4])
setups = st.sampled_from(["first-game", "random"])


def examples(count: int) -> int:
    return count * DEEP


def new(count: int, seed: int, setup: str) -> TyrosState:
    state = GAME.new(count, seed=seed, options={"setup": setup})
    assert isinstance(state, TyrosState)
    return state


def check_supplies(state: TyrosState) -> None:
    """The views' supplies: 10 ships and 10 cities a player, on the board or in supply."""
    view = state.view(None)
    for p, info in enumerate(view["player_info"]):
        on_board = sum(1 for ship in view["ships"] if ship["owner"] == p)
        assert on_board + info["ships_in_supply"] == 10
        assert list(view["cities"].values()).count(p) + info["cities_in_supply"] == 10


def check_accounts(state: TyrosState) -> None:
    """60 cards, 32 tiles, ships and cities: all accounted for, at most 2 ships a cell."""
    cards: Counter[int] = Counter(state.deck)
    for counts in [*state.hands, state.discard]:
        assert min(counts) >= 0
        for kind in range(5):
            cards[kind] += counts[kind]
    assert cards == Counter({0: 14, 1: 14, 2: 14, 3: 14, 4: 4})
    played = [c for c in range(1, 33) if state.markers[c] >= 0 and c not in state.removed_tiles]
    tiles = sorted(
        [t for ts in state.tiles for t in ts] + state.pile + state.removed_tiles + played
    )
    assert tiles == list(range(1, 33))
    for tile in [t for ts in state.tiles for t in ts] + state.pile:
        assert state.markers[tile] < 0  # a tile not yet played is an empty cell
    for p in range(state.n):
        assert len(state.ships[p]) <= 10 and state.cities.count(p) <= 10
    counts = [0] * CELL_COUNT
    for nodes in state.ships:
        for node in nodes:
            counts[BOARD.node_cell[node]] += 1
    for cell in range(1, CELL_COUNT):
        if state.cities[cell] >= 0 or counts[cell] > 2:
            assert state.markers[cell] >= 0  # cities and extra ships only where allowed
        assert counts[cell] <= 2
    for viewer in range(state.n + 1):  # what anyone "knows" is true
        for holder in range(state.n):
            if viewer != holder:
                base = (viewer * state.n + holder) * 5
                for kind in range(5):
                    assert state.known[base + kind] <= state.hands[holder][kind]


@settings(max_examples=examples(200))
@given(seed=seeds, count=players, setup=setups)
def test_everything_is_accounted_for_and_every_game_ends(seed: int, count: int, setup: str) -> None:
    state = new(count, seed, setup)
    rng = Rng(seed)
    steps = 0
    while not state.is_over:
        check_accounts(state)
        if steps % 50 == 0:
            check_supplies(state)
        random_step(state, rng)
        steps += 1
        assert steps < 20_000, "a random game did not end"
    check_accounts(state)
    assert state.winners and set(state.winners) <= set(range(count))
    # Y7: ended by a last tile, or (Y1's markers run out) once no tile can ever be played
    assert any(not tiles for tiles in state.tiles) or state._no_tile_can_ever_be_played()
    assert state.scores == [float(t) for t in state.score_sheet().totals]


@settings(max_examples=examples(80))
@given(seed=seeds, count=players, setup=setups, stop=st.floats(0, 1), data=st.data())
def test_resampled_worlds_look_the_same_and_play_on(
    seed: int, count: int, setup: str, stop: float, data: st.DataObject
) -> None:
    full = new(count, seed, setup)
    total = random_playout(full, Rng(seed))
    state = new(count, seed, setup)
    rng = Rng(seed)
    for _ in range(int(total * stop)):
        random_step(state, rng)
    if state.is_over:
        return
    player = data.draw(st.integers(0, count - 1))
    before = state.to_json()
    world = state.resample(player, Rng(seed + 1))
    assert state.to_json() == before  # resampling leaves the true state alone
    assert world.view(player) == state.view(player)
    assert world.legal_actions(player) == state.legal_actions(player)
    assert isinstance(world, TyrosState)
    check_accounts(world)
    random_playout(world, Rng(seed + 2))  # the redrawn world is a legal game
    assert world.is_over


@settings(max_examples=examples(20))
@given(seed=seeds, count=players)
def test_resampling_really_redraws_hidden_things(seed: int, count: int) -> None:
    state = new(count, seed, "first-game")
    hands = set()
    tiles = set()
    for attempt in range(6):
        world = state.resample(0, Rng(seed + attempt))
        hands.add(tuple(tuple(h) for h in world.hands[1:]))
        tiles.add(tuple(tuple(t) for t in world.tiles[1:]))
        assert world.hands[0] == state.hands[0] and world.tiles[0] == state.tiles[0]
    assert len(hands) > 1 and len(tiles) > 1


@settings(max_examples=examples(40))
@given(seed=seeds, count=players, stop=st.integers(0, 400))
def test_no_view_shows_another_players_hand(seed: int, count: int, stop: int) -> None:
    state = new(count, seed, "first-game")
    rng = Rng(seed)
    for _ in range(stop):
        if state.is_over:
            return
        random_step(state, rng)
    for viewer in [None, *range(count)]:
        view = state.view(viewer)
        text = json.dumps(view)
        assert '"hands"' not in text and '"deck_order"' not in text
        if viewer is None:
            assert view["hand"] is None and view["my_tiles"] is None
        else:
            assert view["hand"] == dict(zip(CARD_NAMES, state.hands[viewer], strict=True))
        for holder, info in enumerate(view["player_info"]):
            assert info["cards"] == sum(state.hands[holder])
            assert info["tiles"] == len(state.tiles[holder])
            assert set(info["shown_tiles"]) <= set(state.tiles[holder])
        # what a player sees does not change when others' hidden cards and tiles do
        for other in range(count):
            if other != viewer and viewer is not None:
                world = state.resample(viewer, Rng(seed ^ other))
                assert world.view(viewer) == view


@settings(max_examples=examples(40))
@given(seed=seeds, count=players, setup=setups, stop=st.floats(0, 1))
def test_replay_and_json_round_trips(seed: int, count: int, setup: str, stop: float) -> None:
    full = new(count, seed, setup)
    total = random_playout(full, Rng(seed))
    state = new(count, seed, setup)
    rng = Rng(seed)
    for _ in range(int(total * stop)):
        random_step(state, rng)
    saved = state.to_json()
    assert GAME.from_json(json.dumps(saved)).to_json() == saved
    assert GAME.replay(state.setup, state.history).to_json() == saved
    clone = state.clone()
    assert clone.to_json() == saved
    if not clone.is_over:
        random_step(clone, Rng(seed))
        assert state.to_json() == saved  # clones are independent


WORDS = ["move", "city", "ship", "bank", "offer", "accept", "keep", "expand", "under", "pay"]
WORDS += ["fee", "give", "ask", "take", "return", "16", "16e", "tyros", "22>23", "o,o", "joker"]
WORDS += ["x", "3", "99", ">", "1", "orange,orange,orange,orange,orange"]


@settings(max_examples=examples(60))
@given(
    seed=seeds,
    stop=st.integers(0, 500),
    text=st.one_of(
        st.text(max_size=30), st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join)
    ),
)
def test_any_text_is_played_or_refused_in_words(seed: int, stop: int, text: str) -> None:
    state = new(4, seed, "first-game")
    rng = Rng(seed)
    for _ in range(stop):
        if state.is_over:
            return
        random_step(state, rng)
    if state.is_over:
        return
    player = state.to_move[0]
    before = state.to_json()
    legal = state.legal_actions(player)
    try:
        state.apply(player, text)
    except machiavel.IllegalAction as refusal:
        assert str(refusal)
        assert state.to_json() == before
    else:
        assert state.history[-1] == (player, state.normalize_action(text))
        assert state.history[-1][1] in legal
