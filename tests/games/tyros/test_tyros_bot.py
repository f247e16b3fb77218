"""The Tyros heuristic bot: legal, deterministic, and better than random (its speed:
benchmarks/bot_speed.py)."""

from __future__ import annotations

import machiavel
from machiavel.bots.random_bot import RandomBot
from machiavel.core.contract import State
from machiavel.games.tyros.board import BOARD, CELL_COUNT, TYROS
from machiavel.games.tyros.bot import TyrosHeuristicBot
from machiavel.games.tyros.cards import parse_cards
from machiavel.games.tyros.rules import TyrosState

GAME = machiavel.game("tyros")


def new(seed: int = 1) -> TyrosState:
    state = GAME.new(4, seed=seed)
    assert isinstance(state, TyrosState)
    return state


def rig(
    state: TyrosState,
    markers: dict[int, int],
    ships: dict[int, list[str]],
    cities: dict[int, int],
    hands: dict[int, str],
    current: int = 0,
) -> None:
    """Action phase, ``current`` to move, this board and these hands (others: deck)."""
    state.markers = [-1] * CELL_COUNT
    for where, colour in markers.items():
        state.markers[where] = colour
    state.ships = [sorted(BOARD.node_token.index(t) for t in ships.get(p, [])) for p in range(4)]
    state.cities = [-1] * CELL_COUNT
    for where, owner in cities.items():
        state.cities[where] = owner
    left = [14, 14, 14, 14, 4]
    for p in range(4):
        vec = parse_cards(hands[p]) if p in hands else (0, 0, 0, 0, 0)
        assert vec is not None
        state.hands[p] = list(vec)
        left = [a - b for a, b in zip(left, vec, strict=True)]
    state.discard = [0] * 5
    state.deck = [kind for kind in range(5) for _ in range(left[kind])]
    state.phase, state.current, state.passes, state.offers_made = "actions", current, 0, 0
    state._refresh_to_move()
    state._legal_cache.clear()
    state._legal_sets.clear()
    state._forget_board()  # markers changed by hand


def play(state: State, bots: list[object]) -> None:
    while not state.is_over:
        player = state.to_move[0]
        bot = bots[player]
        assert isinstance(bot, TyrosHeuristicBot | RandomBot)
        action = bot.choose(state.seat(player))
        assert action in state.legal_actions(player)
        state.apply(player, action)


def test_the_registry_gives_this_bot() -> None:
    assert isinstance(GAME.heuristic_bot(3), TyrosHeuristicBot)


def test_bot_games_are_legal_and_deterministic() -> None:
    logs = []
    for _ in range(2):
        state = new(seed=4)
        play(state, [TyrosHeuristicBot(p) for p in range(4)])
        logs.append(state.history)
    assert logs[0] == logs[1]
    assert any(action.startswith("city") for _, action in logs[0])


def test_bot_beats_random_players() -> None:
    wins = 0
    for seed in range(8):
        state = new(seed=100 + seed)
        hero = seed % 4
        bots: list[object] = [
            TyrosHeuristicBot(seed) if p == hero else RandomBot(seed * 4 + p) for p in range(4)
        ]
        play(state, bots)
        wins += hero in state.winners
    assert wins >= 6


def test_bot_builds_a_city_when_it_can() -> None:
    state = new()
    rig(
        state,
        {22: 0, 7: 0},
        {0: ["22"], 1: ["tyros"]},
        {},
        {0: "orange,orange,orange,orange,orange"},
    )
    assert (
        TyrosHeuristicBot(1).choose(state.seat(0))
        == "city 22 pay orange,orange,orange,orange,orange"
    )


def test_bot_moves_toward_a_cell_it_can_hold_alone() -> None:
    state = new()
    rig(state, {31: 2, 27: 1}, {0: ["tyros", "tyros"], 1: ["27"]}, {}, {0: "green"})
    assert TyrosHeuristicBot(1).choose(state.seat(0)) == "move tyros>31 pay green"


def offered(giver: int, action: str) -> TyrosState:
    """Player 2 holds green 23 alone; player 1 leads with a city; ``giver`` offers to 2."""
    state = new()
    rig(
        state,
        {22: 0, 23: 2, 26: 3},
        {2: ["23"]},
        {22: 1},
        {1: "green", 2: "orange,orange,violet,joker", 3: "green,violet"},
        current=giver,
    )
    state.apply(giver, action)
    assert state.to_move == (2,)
    return state


def test_bot_accepts_an_offer_that_helps_it() -> None:
    state = offered(3, "offer 2 give green ask orange")
    assert TyrosHeuristicBot(1).choose(state.seat(2)) == "accept"


def test_bot_refuses_an_offer_that_costs_it() -> None:
    state = offered(3, "offer 2 give violet ask joker")
    assert TyrosHeuristicBot(1).choose(state.seat(2)) == "refuse"


def test_bot_refuses_the_leader() -> None:
    state = offered(1, "offer 2 give green ask orange")
    assert state.scores[1] == max(state.scores)
    assert TyrosHeuristicBot(1).choose(state.seat(2)) == "refuse"


def test_bot_keeps_the_cards_it_needs() -> None:
    state = new()
    rig(
        state,
        {22: 0, 23: 2},
        {0: ["23"]},
        {},
        {0: "orange,yellow,green,green,violet,joker"},
    )
    state.passes = 3
    state.current = 3
    state._refresh_to_move()
    state._legal_cache.clear()
    state.apply(3, "pass")
    assert state.phase == "keep"
    assert TyrosHeuristicBot(1).choose(state.seat(0)) == "keep green,green,joker"


def test_bot_expands_where_it_is_strong() -> None:
    state = new()
    player = state.current
    state.markers[TYROS] = -1
    state.cities[23] = player  # a city in the green empire
    tiles = [18, 8]  # 18 touches green 23 (and nothing else); 8 touches orange 7
    for tile in tiles:
        for hand in [state.pile, *state.tiles]:
            if tile in hand:
                hand.remove(tile)
    state.pile.extend(state.tiles[player])
    state.tiles[player] = sorted(tiles)
    state._legal_cache.clear()
    assert TyrosHeuristicBot(1).choose(state.seat(player)) == "expand 18 green"


def test_ranked_orders_every_legal_action_from_the_bots_own_choice() -> None:
    """Search bots widen in this order: a permutation of the legal actions, choice first."""
    from machiavel.bots.base import RankingBot
    from machiavel.core.playout import random_step
    from machiavel.core.rng import Rng

    state = new(seed=5)
    rng = Rng(5)
    checked = 0
    while not state.is_over and checked < 60:
        player = state.to_move[0]
        seat = state.seat(player)
        ranker, chooser = TyrosHeuristicBot(seed=checked), TyrosHeuristicBot(seed=checked)
        assert isinstance(ranker, RankingBot)
        order = ranker.ranked(seat)
        assert sorted(order) == sorted(seat.legal_actions())
        assert order[0] == chooser.choose(seat)
        if state.phase == "actions" and len(order) > 20:
            offers = [i for i, a in enumerate(order[1:], 1) if a.startswith("offer")]
            others = [i for i, a in enumerate(order[1:], 1) if not a.startswith("offer")]
            assert not offers or not others or max(others) < min(offers)
        random_step(state, rng)
        checked += 1
    assert checked == 60
