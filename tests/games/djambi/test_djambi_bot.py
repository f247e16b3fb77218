"""The Djambi heuristic bot: sensible choices on hand-built positions, speed, strength."""

from __future__ import annotations

from typing import Any

import pytest

import machiavel
from machiavel.games.djambi import GAME
from machiavel.games.djambi.bot import DjambiHeuristicBot
from machiavel.games.djambi.rules import DjambiState

RED, GREEN = 0, 1
BOT_SEEDS = range(6)


def start(pieces: dict[str, str], corpses: tuple[str, ...] = ()) -> DjambiState:
    return GAME.from_position({"turn": "red", "pieces": pieces, "corpses": list(corpses)}, seed=1)


def choose(state: DjambiState, seed: int) -> str:
    player = state.to_move[0]
    action = DjambiHeuristicBot(seed).choose(state.seat(player))
    assert action in state.legal_actions(player)
    return action


def finish_turn(state: DjambiState, seed: int) -> None:
    """Let the bot play the player to move until their turn is over."""
    player = state.to_move[0]
    while state.to_move == (player,):
        state.apply(player, choose(state, seed))


def can_be_killed_next(state: DjambiState, square: str) -> bool:
    """Whether some legal first step of the player to move ends on ``square``."""
    return any(a.endswith(f"-{square}") for a in state.legal_actions(state.to_move[0]))


@pytest.mark.parametrize("seed", BOT_SEEDS)
def test_it_kills_a_chief_when_it_can(seed: int) -> None:
    pieces = {
        "a1": "red chief",
        "b1": "red assassin",
        "c2": "red militant",
        "b7": "green chief",
        "d3": "green assassin",
        "i8": "yellow chief",
    }
    assert choose(start(pieces), seed) == "b1-b7"


@pytest.mark.parametrize("seed", BOT_SEEDS)
def test_it_does_not_expose_its_chief(seed: int) -> None:
    pieces = {
        "a1": "red chief",
        "a3": "red militant",
        "f3": "red militant",
        "a7": "green assassin",
        "i8": "green chief",
    }
    state = start(pieces)
    finish_turn(state, seed)
    assert state.to_move == (GREEN,)
    assert not can_be_killed_next(state, "a1")


@pytest.mark.parametrize("seed", BOT_SEEDS)
def test_it_takes_the_centre_only_when_it_can_hold_it(seed: int) -> None:
    pieces = {"a1": "red militant", "c3": "red chief", "i8": "green chief", "h2": "green militant"}
    assert choose(start(pieces), seed) == "c3-e5"
    watched = start({**pieces, "e9": "green assassin"})
    assert choose(watched, seed) != "c3-e5"


@pytest.mark.parametrize("seed", BOT_SEEDS)
def test_its_diplomat_puts_an_enemy_chief_within_reach_of_its_killers(seed: int) -> None:
    pieces = {
        "a1": "red chief",
        "b2": "red diplomat",
        "h1": "red assassin",
        "b6": "green chief",
        "i8": "yellow chief",
    }
    state = start(pieces)
    assert choose(state, seed) == "b2-b6"
    state.apply(RED, "b2-b6")
    square = choose(state, seed).split()[1]
    state.apply(RED, f"place {square}")
    position = {**state.position(), "turn": "red"}
    again = GAME.from_position(position)
    assert can_be_killed_next(again, square)


@pytest.mark.parametrize("seed", BOT_SEEDS)
def test_its_reporter_kills_the_chief_first(seed: int) -> None:
    pieces = {"a1": "red chief", "a5": "red reporter", "d6": "green assassin"}
    pieces |= {"e5": "green chief", "i9": "yellow chief"}
    state = start(pieces)
    state.apply(RED, "a5-d5")
    assert choose(state, seed) == "kill e5"


@pytest.mark.parametrize("seed", BOT_SEEDS)
def test_it_keeps_its_necromobile_alive(seed: int) -> None:
    pieces = {"a1": "red chief", "c3": "red necromobile", "c9": "green assassin"}
    pieces |= {"i8": "green chief", "h2": "red militant"}
    state = start(pieces)
    finish_turn(state, seed)
    necromobile = next(s for s, p in state.view(None)["pieces"].items() if p == "red necromobile")
    assert not can_be_killed_next(state, necromobile)


def test_it_is_deterministic_given_its_seed() -> None:
    logs = []
    for _ in range(2):
        state = GAME.new(4, seed=9)
        bots = [DjambiHeuristicBot(p) for p in range(4)]
        for _ in range(80):
            if state.is_over:
                break
            player = state.to_move[0]
            state.apply(player, bots[player].choose(state.seat(player)))
        logs.append(list(state.history))
    assert logs[0] == logs[1] and len(logs[0]) > 20


def test_it_beats_random_bots() -> None:
    """Its speed is measured by benchmarks/bot_speed.py, never by a test."""
    wins = 0.0
    games = 8
    for game in range(games):
        seat = game % 4
        state = GAME.new(4, seed=100 + game)
        bots: list[Any] = [machiavel.bot("random", seed=game * 4 + p) for p in range(4)]
        bots[seat] = machiavel.bot("heuristic", seed=game)
        while not state.is_over:
            player = state.to_move[0]
            state.apply(player, bots[player].choose(state.seat(player)))
        if seat in state.winners:
            wins += 1 / len(state.winners)
    assert wins >= games / 2  # random seats would win a quarter


def test_ranked_orders_every_legal_action_from_the_bots_own_choice() -> None:
    """Search bots widen in this order: a permutation of the legal actions, choice first."""
    from machiavel.bots.base import RankingBot
    from machiavel.core.playout import random_step
    from machiavel.core.rng import Rng

    state = GAME.new(4, seed=8)
    rng = Rng(8)
    for step in range(40):
        if state.is_over:
            break
        seat = state.seat(state.to_move[0])
        ranker, chooser = DjambiHeuristicBot(seed=step), DjambiHeuristicBot(seed=step)
        assert isinstance(ranker, RankingBot)
        order = ranker.ranked(seat)
        assert sorted(order) == sorted(seat.legal_actions())
        assert order[0] == chooser.choose(seat)
        random_step(state, rng)
    assert state.version >= 40 or state.is_over


def test_estimate_counts_the_material_each_player_commands() -> None:
    """Cut-off play-outs value Djambi positions by it: equal at the start, 0 once out."""
    from machiavel.core.playout import random_step
    from machiavel.core.rng import Rng

    state = GAME.new(4, seed=3)
    assert isinstance(state, DjambiState)
    assert state.estimate() == [22.0] * 4
    rng = Rng(3)
    while not state.is_over:
        random_step(state, rng)
        estimate = state.estimate()
        if state.is_over:
            assert estimate == state.scores
            break
        for player in range(4):
            assert (estimate[player] == 0.0) == (not state.in_game(player))
        assert sum(estimate) <= 4 * 22.0 + 5.0


@pytest.mark.parametrize("seed", BOT_SEEDS)
def test_on_an_inherited_colours_turn_it_moves_that_colour(seed: int) -> None:
    """D8 ``book``: on green's turn red moves a green piece, even with a red Assassin in
    reach of a Chief: the legal actions see to it."""
    pieces = {
        "a1": "red chief",
        "b1": "red assassin",
        "b7": "yellow chief",
        "a9": "green assassin",
        "g9": "yellow militant",
        "i1": "blue chief",
    }
    state = GAME.from_position(
        {
            "turn": "red",
            "turn_colour": "green",
            "pieces": pieces,
            "controllers": {"green": "red"},
        },
        seed=1,
    )
    assert "b1-b7" not in state.legal_actions(RED)
    assert choose(state, seed).startswith("a9-")
