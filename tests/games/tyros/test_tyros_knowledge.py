"""Search's fast paths in Tyros read the same facts as the slow ones (issue 16).

- The heuristic's ``Knowledge`` read straight from a state equals the one read from the
  player's JSON view, for every player, over many positions, and is the same in a world the
  player cannot tell from the truth (``resample``): it reads nothing hidden.
- The board caches a state keeps (score sheet, ships per cell, ship counts, empire ranks,
  sea routes) always equal what the fields give when worked out afresh, after any action,
  in clones and in resampled worlds.
- A source's sea routes are every node of a cell with a marker, by cost then node, each
  with the key of its move's text.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.rng import Rng
from machiavel.games.tyros.board import BOARD, NODE_COUNT
from machiavel.games.tyros.bot import TyrosHeuristicBot
from machiavel.games.tyros.knowledge import Knowledge, from_state, from_view
from machiavel.games.tyros.rules import CARDS_PER_MOVE, MOVE_TEXTS, TyrosState, move_spec
from machiavel.games.tyros.scoring import fleet_of, score_board

GAME = machiavel.game("tyros")
seeds = st.integers(min_value=0, max_value=2**48)
players = st.sampled_from([3, 4])
setups = st.sampled_from(["first-game", "random"])


def positions(count: int, seed: int, setup: str) -> list[TyrosState]:
    """Every position of one game, played half by the heuristic, half at random."""
    state = GAME.new(count, seed=seed, options={"setup": setup})
    assert isinstance(state, TyrosState)
    rng, policy = Rng(seed), TyrosHeuristicBot(seed)
    found = [state.clone()]
    while not state.is_over:
        movers = state.to_move
        player = movers[0] if len(movers) == 1 else rng.choice(movers)
        if rng.below(2):
            action = policy.choose_in(state, player)
        else:
            action = rng.choice(state.legal_actions(player))
        state.apply(player, action)
        found.append(state.clone())
    return found


def derived(known: Knowledge) -> tuple[object, ...]:
    return (
        known.need,
        known.my_cities_in,
        known.my_cells,
        known.leader(),
        [list(k) for k in known.known],
    )


@settings(max_examples=6, deadline=None, derandomize=True)
@given(count=players, seed=seeds, setup=setups)
def test_the_state_reading_is_the_view_reading(count: int, seed: int, setup: str) -> None:
    for step, state in enumerate(positions(count, seed, setup)):
        for player in range(count):
            fast = from_state(state, player)
            slow = from_view(state.view(player), player)
            assert fast.facts() == slow.facts()
            assert derived(fast) == derived(slow)
            if step % 5 == 0:  # a world drawn for this player: the same facts
                world = state.resample(player, Rng(seed + step))
                assert from_state(world, player).facts() == fast.facts()


def fresh_facts(state: TyrosState, player: int) -> tuple[object, ...]:
    """What the caches hold, worked out from the fields alone."""
    copy = state.clone()
    copy._forget_board()
    return (
        score_board(state.n, state.markers, state.cities, state.ships, state.bonus_owner),
        fleet_of(state.ships),
        copy.ship_counts(player),
        copy.empire_ranks(),
        copy.legal_actions(player) if player in state.to_move else [],
    )


def cached_facts(state: TyrosState, player: int) -> tuple[object, ...]:
    return (
        state.score_sheet(),
        state.fleet(),
        state.ship_counts(player),
        state.empire_ranks(),
        state.legal_actions(player) if player in state.to_move else [],
    )


@settings(max_examples=6, deadline=None, derandomize=True)
@given(count=players, seed=seeds, setup=setups)
def test_board_caches_follow_every_action(count: int, seed: int, setup: str) -> None:
    state = GAME.new(count, seed=seed, options={"setup": setup})
    assert isinstance(state, TyrosState)
    rng = Rng(seed)
    while not state.is_over:
        for player in range(count):  # read (and cache) before the action, as search does
            assert cached_facts(state, player) == fresh_facts(state, player)
        movers = state.to_move
        player = movers[0] if len(movers) == 1 else rng.choice(movers)
        world = state.resample(player, Rng(seed)) if rng.below(4) == 0 else state.clone()
        action = rng.choice(world.legal_actions(player))
        world.play_legal(player, action)  # the clone moves on from the shared caches
        state.apply(player, action)
        assert world.score_sheet() == state.score_sheet()
        assert world.fleet() == state.fleet()


@settings(max_examples=4, deadline=None, derandomize=True)
@given(count=players, seed=seeds, setup=setups)
def test_sea_routes_are_the_marked_nodes_by_cost_then_node(
    count: int, seed: int, setup: str
) -> None:
    for state in positions(count, seed, setup)[::7]:
        state.building_options(state.current)  # fills some move texts
        for source in range(NODE_COUNT):
            routes = state.sea_routes(source)
            marked = [
                (cost, dest)
                for dest, cost in enumerate(BOARD.distance[source])
                if cost > 0 and state.markers[BOARD.node_cell[dest]] >= 0
            ]
            assert [(cost, dest) for cost, dest, *_ in routes] == sorted(marked)
            for cost, dest, cell, colour, key in routes:
                assert (cell, colour) == (BOARD.node_cell[dest], state.markers[cell])
                for use in range(cost + 1):  # the text of paying ``use`` cards of the colour
                    text = MOVE_TEXTS.get(key + use)
                    if text is not None:
                        paid = move_spec(text)[2]
                        assert move_spec(text)[:2] == (source, dest)
                        assert (paid[colour], paid[-1]) == (use, cost - use)
                assert key % CARDS_PER_MOVE == 0
