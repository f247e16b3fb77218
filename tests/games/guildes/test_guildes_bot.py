"""The Guildes heuristic bot: legal, deterministic, and playing as the issue says (its speed:
benchmarks/bot_speed.py)."""

from __future__ import annotations

import pytest

import machiavel
from machiavel.bots.random_bot import RandomBot
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.guildes.bot import GuildesHeuristicBot
from machiavel.games.guildes.data import GUILD_COUNT, GUILD_INDEX
from machiavel.games.guildes.rules import DRAFT, PLACE, GuildesState

GAME = machiavel.game("guildes")


def new_game(players: int, seed: int, events: bool = False, tricks: bool = False) -> GuildesState:
    state = GAME.new(players, seed=seed, options={"events": events, "dirty_tricks": tricks})
    assert isinstance(state, GuildesState)
    return state


def cards(**named: int) -> list[int]:
    spelled = {"Pretres": "Prêtres"}
    row = [0] * GUILD_COUNT
    for name, number in named.items():
        row[GUILD_INDEX[spelled.get(name, name)]] = number
    return row


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize(("events", "tricks"), [(False, False), (True, True)])
def test_bots_play_whole_games_legally_and_deterministically(
    players: int, events: bool, tricks: bool
) -> None:
    histories = []
    for _ in range(2):
        state = new_game(players, 7, events, tricks)
        bots = [GuildesHeuristicBot(p) for p in range(players)]
        while not state.is_over:
            player = state.to_move[-1]
            action = bots[player].choose(state.seat(player))
            assert action in state.legal_actions(player)
            state.apply(player, action)
        histories.append(state.history)
    assert histories[0] == histories[1]


def test_the_bot_beats_random_players() -> None:
    share = 0.0
    games = 24
    for game in range(games):
        hero = game % 4
        bots = [
            GuildesHeuristicBot(game) if p == hero else RandomBot(game * 4 + p) for p in range(4)
        ]
        state = new_game(4, game)
        while not state.is_over:
            player = state.to_move[0]
            state.apply(player, bots[player].choose(state.seat(player)))
        if hero in state.winners:
            share += 1 / len(state.winners)
    assert share / games > 0.6  # a fair share would be 0.25


def round_three(phase: int) -> GuildesState:
    state = new_game(4, 5)
    rng = Rng(5)
    while not (state.round == 2 and state.phase == phase):
        random_step(state, rng)
    return state


def test_milice_when_the_guild_fight_is_lost() -> None:
    state = round_three(PLACE)
    state.kept[0] = cards(Pretres=1, Milice=1)
    state.tableau = [cards(), cards(Pretres=5), cards(Pretres=5), cards(Pretres=5)]
    assert all(GuildesHeuristicBot(s).choose(state.seat(0)) == "place Milice" for s in range(8))


def test_a_guild_card_when_it_wins_a_place() -> None:
    state = round_three(PLACE)
    state.kept[0] = cards(Pretres=1, Milice=1)
    state.tableau = [cards(), cards(Nobles=5), cards(Nobles=5), cards(Nobles=5)]
    choices = {GuildesHeuristicBot(s).choose(state.seat(0)) for s in range(8)}
    assert choices == {"place Prêtres"}  # 13 votes against Milice's 3


def test_drafting_toward_a_majority_it_can_win() -> None:
    state = round_three(DRAFT)
    state.packets[0] = cards(Artisans=1, Nobles=1)
    # Artisans: the bot would only tie for a poor place; Nobles: it would lead alone
    state.tableau = [cards(Nobles=2), cards(Artisans=3, Nobles=2), cards(Artisans=3), cards()]
    assert {GuildesHeuristicBot(s).choose(state.seat(0)) for s in range(8)} == {"keep Nobles"}


def test_drafting_denies_the_leader_what_it_needs() -> None:
    state = round_three(DRAFT)
    receiver = (0 + state.direction) % 4
    state.packets[0] = cards(Artisans=1, Nobles=1)
    # neither card can bring the bot a place; one more Nobles makes the leader win them
    tableaux = [cards(Artisans=5, Nobles=4) for _ in range(4)]
    tableaux[0] = cards()
    tableaux[receiver] = cards(Artisans=5, Nobles=4)
    state.tableau = tableaux
    state.scores_ = [50.0] * 4
    state.scores_[receiver] = 100.0
    assert {GuildesHeuristicBot(s).choose(state.seat(0)) for s in range(8)} == {"keep Nobles"}
