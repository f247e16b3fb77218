"""Property tests over many random Guildes games, for every player count and option mix."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.contract import State
from machiavel.core.playout import random_playout, random_step
from machiavel.core.rng import Rng
from machiavel.games.guildes.count import count_votes
from machiavel.games.guildes.data import COPIES, GUILD_COUNT, GUILD_INDEX, REMOVED, TIES_IGNORED
from machiavel.games.guildes.hidden import hands_seen, known_discard
from machiavel.games.guildes.rules import DRAFT, PLACE, REDISTRIBUTE, GuildesState

GAME = machiavel.game("guildes")
seeds = st.integers(min_value=0, max_value=2**48)
SETUPS = [
    (players, events, tricks)
    for players in (3, 4, 5, 6)
    for events in (False, True)
    for tricks in (False, True)
]


def new_game(players: int, seed: int, events: bool, tricks: bool) -> GuildesState:
    state = GAME.new(players, seed=seed, options={"events": events, "dirty_tricks": tricks})
    assert isinstance(state, GuildesState)
    return state


def part_played(
    players: int, seed: int, events: bool, tricks: bool, fraction: float
) -> GuildesState:
    """A state part-way through a random game."""
    full = new_game(players, seed, events, tricks)
    total = random_playout(full, Rng(seed))
    state = new_game(players, seed, events, tricks)
    rng = Rng(seed)
    for _ in range(int(total * fraction)):
        random_step(state, rng)
    return state


def counts(cards: dict[str, int]) -> list[int]:
    row = [0] * GUILD_COUNT
    for name, number in cards.items():
        row[GUILD_INDEX[name]] = number
    return row


def kept_from_log(state: GuildesState, player: int) -> list[int]:
    kept = [0] * GUILD_COUNT
    for row in state.draft_log:
        kept[row[player]] += 1
    return kept


def shown_from_kept(state: GuildesState, player: int) -> list[int]:
    """What ``player`` showed of their kept cards: drafted, less the card given plus the one
    received at the Redistribution (G6), less what is still hidden (in hand, face down, or
    discarded face down, E's card taken back apart, G7)."""
    kept = kept_from_log(state, player)
    if state.red_out[player] >= 0:
        kept[state.red_out[player]] -= 1
        kept[state.red_in[player]] += 1
    hidden = state.kept[player][:]
    for card in state.face_down[player]:
        hidden[card] += 1
    if state.hand_discarded[player]:
        hidden = state.hand_discards[player][:]
        holder, back, _ = state.e_record
        if holder == player:
            hidden[back] -= 1
    return [kept[g] - hidden[g] for g in range(GUILD_COUNT)]


@pytest.mark.parametrize(("players", "events", "tricks"), SETUPS)
@settings(max_examples=120)
@given(seed=seeds)
def test_every_card_is_always_somewhere_and_every_game_ends_g1(
    players: int, events: bool, tricks: bool, seed: int
) -> None:
    state = new_game(players, seed, events, tricks)
    expected = [COPIES[g] - REMOVED[players][g] for g in range(GUILD_COUNT)]
    rng = Rng(seed)
    steps = 0
    while not state.is_over:
        assert state.card_totals() == expected
        random_step(state, rng)
        steps += 1
        assert steps < 1000
    assert state.card_totals() == expected
    assert len(state.counts_log) == 3 and state.winners
    assert [sum(t) for t in state.tableau] and max(state.scores) == state.scores[state.winners[0]]


@pytest.mark.parametrize(("players", "events", "tricks"), SETUPS)
@settings(max_examples=15)
@given(seed=seeds)
def test_counts_follow_g4_on_the_tableaux_as_counted(
    players: int, events: bool, tricks: bool, seed: int
) -> None:
    state = new_game(players, seed, events, tricks)
    rng = Rng(seed)
    totals = [0] * players
    for round_index in range(3):
        ignore_ties = events and state.event == TIES_IGNORED
        while len(state.counts_log) == round_index:
            random_step(state, rng)
        entry = state.view(None)["counts"][round_index]
        tableaux = [counts(t) for t in entry["tableaux"]]
        assert entry["votes"] == count_votes(round_index, tableaux, ignore_ties)
        assert entry["ties_ignored"] == ignore_ties
        assert_guild_by_guild(entry, tableaux)
        totals = [t + v for t, v in zip(totals, entry["votes"], strict=True)]
    assert state.scores == totals


def assert_guild_by_guild(entry: dict[str, Any], tableaux: list[list[int]]) -> None:
    """A count's guild-by-guild detail agrees with its tableaux and totals (G4, G6)."""
    for player, tableau in enumerate(tableaux):
        won = entry["guild_votes"][player]
        held = [name for name in GUILD_INDEX if tableau[GUILD_INDEX[name]]]
        assert list(won) == held  # every guild the player holds, in the count card's order
        assert sum(won.values()) == entry["votes"][player]
        assert won.get("Milice", 0) == 3 * tableau[GUILD_INDEX["Milice"]]
        places, tied, ignored = (entry[k][player] for k in ("places", "tied", "ignored"))
        assert "Milice" not in places and set(places) | set(ignored) == set(held) - {"Milice"}
        assert not set(places) & set(ignored) and (entry["ties_ignored"] or not ignored)
        for guild, place in places.items():
            column = [entry["places"][p].get(guild) for p in range(len(tableaux))]
            mine = tableau[GUILD_INDEX[guild]]
            more = sum(1 for other in column if other is not None and other < place)
            assert place == 1 + more  # 1 for the most cards; tied players share a place
            same = [p for p, other in enumerate(column) if other == place]
            assert all(tableaux[p][GUILD_INDEX[guild]] == mine for p in same)
            assert (guild in tied) == (len(same) > 1)


@pytest.mark.parametrize(("players", "events", "tricks"), SETUPS)
@settings(max_examples=12)
@given(seed=seeds, fraction=st.floats(0, 0.99))
def test_replay_and_json_round_trips(
    players: int, events: bool, tricks: bool, seed: int, fraction: float
) -> None:
    state = part_played(players, seed, events, tricks, fraction)
    saved = state.to_json()
    text = json.dumps(saved)
    assert GAME.from_json(text).to_json() == saved
    assert GAME.replay(state.setup, state.history).to_json() == saved
    clone = state.clone()
    if not clone.is_over:
        random_step(clone, Rng(seed))
        assert state.to_json() == saved  # a clone is independent


@pytest.mark.parametrize(("players", "events", "tricks"), SETUPS)
@settings(max_examples=12)
@given(seed=seeds, fraction=st.floats(0, 0.99), data=st.data())
def test_no_view_shows_another_players_hidden_choice(
    players: int, events: bool, tricks: bool, seed: int, fraction: float, data: st.DataObject
) -> None:
    state = part_played(players, seed, events, tricks, fraction)
    if state.phase not in (DRAFT, REDISTRIBUTE, PLACE) or len(state.to_move) < 2:
        return
    mover = data.draw(st.sampled_from(state.to_move))
    legal = state.legal_actions(mover)
    first, second = state.clone(), state.clone()
    first.apply(mover, legal[0])
    second.apply(mover, legal[-1])
    for viewer in (None, *range(players)):
        if viewer != mover:
            assert first.view(viewer) == second.view(viewer)
    assert "hand" not in first.view(None) and "kept" not in first.view(None)


@pytest.mark.parametrize(("players", "events", "tricks"), SETUPS)
@settings(max_examples=12)
@given(seed=seeds, fraction=st.floats(0, 0.99), data=st.data())
def test_resample_keeps_all_the_player_has_seen(
    players: int, events: bool, tricks: bool, seed: int, fraction: float, data: st.DataObject
) -> None:
    state = part_played(players, seed, events, tricks, fraction)
    player = data.draw(st.integers(0, players - 1))
    world = state.resample(player, Rng(seed + 1))
    assert world.view(player) == state.view(player)
    assert world.card_totals() == state.card_totals()
    assert hands_seen(world, player) == hands_seen(state, player)  # drafting remembered
    assert known_discard(world, player) == known_discard(state, player)
    if world.red_out[player] >= 0:  # the cards given at the Redistribution, dealt again
        assert sorted(world.red_out) == sorted(world.red_in)
    for other in range(players):
        if other == player:
            continue
        # a player's kept cards hold exactly what they showed besides their hidden cards
        if state.phase == DRAFT:
            assert kept_from_log(world, other) == world.kept[other]
        else:
            assert shown_from_kept(world, other) == shown_from_kept(state, other)
            assert min(world.kept[other]) >= 0 and min(world.hand_discards[other]) >= 0
        choice = world.pending[other]
        if choice is not None:
            source = world.packets[other] if world.phase == DRAFT else world.kept[other]
            assert all(source[g] >= choice.count(g) for g in choice)
    random_playout(world, Rng(seed + 2))  # and the world plays on to its end
    assert world.is_over


@pytest.mark.parametrize(("players", "events", "tricks"), SETUPS)
@settings(max_examples=10)
@given(seed=seeds, fraction=st.floats(0, 0.99), data=st.data())
def test_resample_depends_only_on_what_the_player_knows(
    players: int, events: bool, tricks: bool, seed: int, fraction: float, data: st.DataObject
) -> None:
    """Two states the player cannot tell apart give the same world for the same draws, in
    every phase: hidden Redistribution exchanges (G6) and face-down Coup Tordu discards (G7)
    included."""
    state = part_played(players, seed, events, tricks, fraction)
    if state.is_over:
        return
    player = data.draw(st.integers(0, players - 1))
    other_truth = state.resample(player, Rng(seed + 3))
    first = state.resample(player, Rng(seed + 4))
    second = other_truth.resample(player, Rng(seed + 4))
    assert first.to_json()["state"] == second.to_json()["state"]


@pytest.mark.parametrize(("players", "events", "tricks"), SETUPS)
@settings(max_examples=10)
@given(seed=seeds)
def test_what_a_player_knows_of_the_discard_is_there(
    players: int, events: bool, tricks: bool, seed: int
) -> None:
    state = new_game(players, seed, events, tricks)
    rng = Rng(seed)
    while not state.is_over:
        if state.phase == DRAFT and not state.draft_log:  # a round begins
            for player in range(players):
                known = known_discard(state, player)
                assert all(k <= d for k, d in zip(known, state.discard, strict=True))
        random_step(state, rng)


@pytest.mark.parametrize(("players", "events", "tricks"), SETUPS)
@settings(max_examples=10)
@given(seed=seeds, start=st.integers(0, 260), limit=st.integers(1, 400))
def test_own_random_playout_plays_what_the_contracts_loop_plays(
    players: int, events: bool, tricks: bool, seed: int, start: int, limit: int
) -> None:
    """``GuildesState.random_playout`` draws the same numbers and plays the same actions
    as the contract's loop, from anywhere in a game with every option mix (the
    conformance suite's check plays the default options only)."""
    state = new_game(players, seed, events, tricks)
    State.random_playout(state, Rng(seed), start)
    if state.to_move:  # a legal list in the cache, as search leaves one
        state.legal_list(state.to_move[0])
    own, reference = state.clone(), state.clone()
    own_rng, reference_rng = Rng(seed + 1), Rng(seed + 1)
    played = own.random_playout(own_rng, limit)
    assert played == State.random_playout(reference, reference_rng, limit)
    assert own.history == reference.history
    assert own.to_json() == reference.to_json()
    assert own_rng.state == reference_rng.state
