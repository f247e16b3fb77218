"""Properties of Djambi over many random games (Hypothesis; HYPOTHESIS_PROFILE=deep for more)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.playout import random_playout, random_step
from machiavel.core.rng import Rng
from machiavel.games.djambi import GAME
from machiavel.games.djambi.board import (
    ALL_PIECES,
    CHIEF,
    COLOUR_OF,
    COLOURS,
    KIND_OF,
    MOVE_ACTION_SQUARES,
    SQUARE_NAMES,
)
from machiavel.games.djambi.rules import MINE, MOVE, DjambiState

seeds = st.integers(min_value=0, max_value=2**48)
options = st.fixed_dictionaries(
    {
        "reporter": st.sampled_from(["single", "scandal"]),
        "quiet_rounds": st.sampled_from([40, 40, 40, 12, 3, 1]),
        "aggressivity": st.booleans(),
        "inherited_turns": st.sampled_from(["book", "skip"]),  # D8
    }
)
POSITION_KEYS = ("turn", "turn_colour", "pieces", "corpses", "controllers")


def new(seed: int, chosen: dict[str, Any] | None = None) -> DjambiState:
    state = GAME.new(4, seed=seed, options=chosen)
    assert isinstance(state, DjambiState)
    return state


def played(seed: int, steps: int, chosen: dict[str, Any] | None = None) -> DjambiState:
    state = new(seed, chosen)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(steps):
        if state.is_over:
            break
        random_step(state, rng)
    return state


def check_invariants(state: DjambiState) -> None:
    # 36 pieces, living or dead, one per square (the piece in hand counts too).
    on_board = sum(1 for v in state.board if v != 0)
    assert on_board + (state.hand != 0) == ALL_PIECES
    # A colour controls itself exactly while its Chief lives (D8, D10).
    living_chiefs = {COLOUR_OF[v] for v in state.board if v > 0 and KIND_OF[v] == CHIEF}
    if state.hand > 0 and KIND_OF[state.hand] == CHIEF:
        living_chiefs.add(COLOUR_OF[state.hand])
    assert living_chiefs == {c for c, m in enumerate(state.controllers) if m == c}
    assert state.is_over or state.current in living_chiefs
    if not state.is_over:
        check_turn(state)


def check_turn(state: DjambiState) -> None:
    """D8, D9, D10: the turn colour is one the player to move plays."""
    view = state.view(None)
    colour = state.turn_colour()
    if state.extra:
        assert view["turn_colour"] is None
        assert state.holder() == state.current or state.phase != MOVE  # D9
        return
    assert view["turn_colour"] == COLOURS[colour]
    assert state.turn_player(colour, state.holder()) == state.current or state.phase != MOVE
    if not state.colour_turns:
        assert colour == state.current  # D8 skip: only the players' own colours


@settings(max_examples=400)
@given(seed=seeds, chosen=options)
def test_every_game_ends_with_every_piece_accounted_for(seed: int, chosen: dict[str, Any]) -> None:
    state = new(seed, chosen)
    rng = Rng(seed)
    while not state.is_over:
        random_step(state, rng)
        check_invariants(state)
        assert len(state.history) < 20_000
    assert state.winners and sum(state.scores) == pytest.approx(1.0)
    assert all(
        state.in_game(w) or state.view(None)["end"] == "no Chief left" for w in state.winners
    )


@settings(max_examples=25)
@given(seed=seeds, chosen=options)
def test_finished_games_replay_and_round_trip(seed: int, chosen: dict[str, Any]) -> None:
    state = new(seed, chosen)
    random_playout(state, Rng(seed))
    saved = state.to_json()
    assert GAME.from_json(json.dumps(saved)).to_json() == saved
    assert GAME.replay(state.setup, state.history).to_json() == saved


@settings(max_examples=60)
@given(seed=seeds, steps=st.integers(0, 300), chosen=options)
def test_mid_game_views_moves_and_copies(seed: int, steps: int, chosen: dict[str, Any]) -> None:
    state = played(seed, steps, chosen)
    if state.is_over:
        return
    # No hidden information: every viewer sees the same thing.
    views = [state.view(v) for v in (None, 0, 1, 2, 3)]
    for view in views:
        json.dumps(view)
        del view["viewer"], view["you"]
    assert all(view == views[0] for view in views)
    player = state.to_move[0]
    legal = state.legal_actions(player)
    assert legal and len(set(legal)) == len(legal)
    rel = state.relations(player)
    before = state.to_json()
    only = state.moving_colour()
    for action in legal:
        if state.phase == MOVE and action != "pass":
            origin = MOVE_ACTION_SQUARES[action][0]
            assert rel[state.board[origin]] == MINE, f"{SQUARE_NAMES[origin]} is not the mover's"
            # D8 book: a regular turn moves a piece of the turn colour only
            assert only < 0 or COLOUR_OF[state.board[origin]] == only
        trial = state.clone()
        trial.apply(player, action)
        check_invariants(trial)
    assert state.to_json() == before
    assert GAME.from_json(json.dumps(before)).to_json() == before


@settings(max_examples=40)
@given(
    seed=seeds,
    steps=st.integers(0, 300),
    origin=st.sampled_from(SQUARE_NAMES),
    target=st.sampled_from(SQUARE_NAMES),
)
def test_refused_moves_are_explained_and_change_nothing(
    seed: int, steps: int, origin: str, target: str
) -> None:
    state = played(seed, steps)
    if state.is_over:
        return
    player = state.to_move[0]
    action = f"{origin}-{target}"
    if action in state.legal_actions(player):
        return
    before = state.to_json()
    with pytest.raises(machiavel.IllegalAction) as refused:
        state.apply(player, action)
    message = str(refused.value)
    assert "Legal now" in message and len(message) > len("Legal now") + 20
    assert state.to_json() == before


@settings(max_examples=30)
@given(seed=seeds, steps=st.integers(0, 300), mode=st.sampled_from(["book", "skip"]))
def test_a_position_from_a_view_plays_on_the_same(seed: int, steps: int, mode: str) -> None:
    """The view's position keys (D8: the turn colour, null in an extra turn) give a state
    with the same moves, in both ``inherited_turns`` modes."""
    chosen = {"inherited_turns": mode}
    state = played(seed, steps, chosen)
    while not state.is_over and state.phase != MOVE:
        random_step(state, Rng(seed))
    if state.is_over:
        return
    view = state.view(None)
    copy = GAME.from_position({k: view[k] for k in POSITION_KEYS}, options=chosen)
    player = state.to_move[0]
    assert copy.to_move == (player,)
    assert copy.view(None)["turn_colour"] == view["turn_colour"]
    assert copy.legal_actions(player) == state.legal_actions(player)
