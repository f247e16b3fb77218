"""The Tyrus heuristic bot: legal, deterministic, sensible, and better than chance."""

from __future__ import annotations

import machiavel
from machiavel.core.rng import Rng
from machiavel.games.tyrus.bot import TyrusHeuristicBot, read_situation
from machiavel.games.tyrus.rules import TyrusState, building_index

GAME = machiavel.game("tyrus")


def fresh(seed: int, kind: str, hands: dict[int, list[str]]) -> TyrusState:
    state = GAME.new(2, seed=seed)
    assert isinstance(state, TyrusState)
    state.turned[-1] = kind
    for player, hand in hands.items():
        state.reserves[player] = [
            t for t in state.reserves[player] + state.hands[player] if t not in hand
        ]
        state.hands[player] = list(hand)
    state._legal_cache.clear()
    state._legal_sets.clear()
    return state


def play_match(games: int, seed: int) -> list[float]:
    """Heuristic (alternating seats) against random; points of the heuristic bot."""
    points = []
    for number in range(games):
        state = GAME.new(2, seed=seed + number)
        smart_seat = number % 2
        bots = {
            smart_seat: machiavel.bot("heuristic", seed=number),
            1 - smart_seat: machiavel.bot("random", seed=number),
        }
        while not state.is_over:
            player = state.to_move[0]
            state.apply(player, bots[player].choose(state.seat(player)))
        points.append(
            1.0 if state.winners == (smart_seat,) else 0.5 if len(state.winners) == 2 else 0.0
        )
    return points


def test_heuristic_beats_random_clearly() -> None:
    points = play_match(120, seed=1000)
    assert sum(points) / len(points) >= 0.75


def test_it_contests_a_cheap_election_with_the_smallest_sufficient_tile() -> None:
    state = fresh(1, "citadel", {0: ["S2", "S6", "S9", "M1", "P1", "P2", "M4", "M5", "P3"]})
    state.first_player = 1  # election 1 begun by player 1
    state._to_move = state._next_to_move()
    other = 1 - 0
    state.apply(other, f"{state.hands[other][0]} temple")
    action = TyrusHeuristicBot(seed=1).choose(state.seat(0))
    tile, building = action.split()
    assert building == "citadel" and tile[0] == "S" and tile != "S9", action


def test_it_concedes_a_hopeless_election_with_its_lowest_tile() -> None:
    hand = ["S1", "M2", "M9", "M10", "P8", "P9", "P10", "M8", "P7"]
    state = fresh(2, "citadel", {0: hand})
    state.first_player = 0
    state._to_move = state._next_to_move()
    action = TyrusHeuristicBot(seed=2).choose(state.seat(0))
    assert action.split()[0] in ("S1", "M2"), action


def test_it_counters_a_visible_threat_in_its_own_building() -> None:
    hand = ["S9", "S8", "P6", "M1", "M2", "P2", "S1", "M3", "P1"]
    state = fresh(3, "citadel", {0: hand})
    state.first_player = 0
    state._to_move = state._next_to_move()
    state.apply(0, "S9 citadel")
    opponent_tile = state.hands[1][0]
    state.apply(1, f"{opponent_tile} rival-citadel")  # a hidden tile lands in our citadel
    situation = read_situation(state.view(0), 0)
    assert situation.opponent_hidden_in_mine == 1
    action = TyrusHeuristicBot(seed=3).choose(state.seat(0))
    assert action.split() == ["P6", "citadel"], action
    assert state.buildings[building_index(0, "citadel")][0] == (0, "S9")


def test_it_fights_when_losing_would_end_the_game() -> None:
    state = fresh(4, "temple", {0: ["P10", "P9", "S1", "S2", "M1", "M2", "S3", "M3", "P1"]})
    state.results = [1, 1]
    state.turned = ["citadel", "market", "temple"]
    state.deck = state.deck[: len(state.deck) - 2]
    state.first_player = 1  # election 3 is begun by the first player
    state._to_move = state._next_to_move()
    assert state.to_move == (1,)
    state.apply(1, f"{state.hands[1][0]} temple")
    action = TyrusHeuristicBot(seed=4).choose(state.seat(0))
    assert action.split()[0] in ("P10", "P9") and action.split()[1] == "temple", action


def test_bot_sees_only_its_seat_and_is_deterministic() -> None:
    for seed in range(5):
        runs = []
        for _ in range(2):
            state = GAME.new(2, seed=seed)
            bot = TyrusHeuristicBot(seed=seed)
            rng = Rng(seed)
            while not state.is_over:
                player = state.to_move[0]
                if player == 0:
                    state.apply(0, bot.choose(state.seat(0)))
                else:
                    state.apply(1, rng.choice(state.legal_actions(1)))
            runs.append(state.history)
        assert runs[0] == runs[1]
