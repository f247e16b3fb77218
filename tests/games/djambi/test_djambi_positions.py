"""Djambi positions: from_position, its checks, and round trips through setups and views."""

from __future__ import annotations

import json
from typing import Any

import pytest

import machiavel
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.djambi import GAME, Djambi
from machiavel.games.djambi.rules import MOVE, DjambiState

POSITION_KEYS = ("turn", "turn_colour", "pieces", "corpses", "controllers")
TWO_CHIEFS = {"a1": "red chief", "i9": "yellow chief"}


def test_the_registry_offers_from_position() -> None:
    spec = machiavel.game("djambi")
    assert isinstance(spec, Djambi)
    state = spec.from_position({"turn": "yellow", "pieces": TWO_CHIEFS})
    view = state.view(None)
    assert view["turn"] == "yellow" and state.to_move == (2,)
    assert view["pieces"] == TWO_CHIEFS and view["corpses"] == []
    assert view["controllers"] == {"red": "red", "green": None, "yellow": "yellow", "blue": None}
    assert view["in_game"] == ["red", "yellow"]


def test_the_setup_keeps_the_position_and_rebuilds_it() -> None:
    position = {
        "turn": "red",
        "pieces": {
            "a1": "red chief",
            "b2": "red  diplomat",  # spaces are tidied in the stored form
            "e5": "green chief",
            "g7": "blue militant",
        },
        "corpses": ["d6"],
        "controllers": {"blue": "green"},
    }
    state = GAME.from_position(position, seed=5, options={"reporter": "scandal"})
    stored = state.setup.position
    assert stored is not None and stored["pieces"]["b2"] == "red diplomat"
    assert stored["controllers"]["blue"] == "green"
    play = ["b2-e5", "place h5", "e5-e4"]
    for action in play:
        state.apply(state.to_move[0], action)
    saved = json.dumps(state.to_json())
    assert GAME.from_json(saved).to_json() == state.to_json()
    assert GAME.replay(state.setup, state.history).to_json() == state.to_json()


def test_a_corrupt_stored_position_is_refused_on_load() -> None:
    state = GAME.from_position({"turn": "red", "pieces": TWO_CHIEFS})
    data = state.to_json()
    data["setup"]["position"]["pieces"]["a1"] = "red emperor"
    with pytest.raises(machiavel.CorruptState, match="setup is invalid"):
        GAME.from_json(data)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_views_position_starts_the_same_game(seed: int) -> None:
    """Between turns, the view's four position keys rebuild a state with the same moves."""
    state = GAME.new(4, seed=seed)
    assert isinstance(state, DjambiState)
    rng = Rng(seed)
    checked = 0
    while not state.is_over and checked < 40:
        random_step(state, rng)
        if state.phase == MOVE and not state.is_over:
            view = state.view(None)
            copy = GAME.from_position({k: view[k] for k in POSITION_KEYS})
            player = state.to_move[0]
            assert copy.to_move == (player,)
            assert copy.legal_actions(player) == state.legal_actions(player)
            assert copy.view(None)["pieces"] == view["pieces"]
            checked += 1
    assert checked > 0


BAD_POSITIONS: list[tuple[Any, str]] = [
    ("red chief on a1", "is an object"),
    ({"pieces": TWO_CHIEFS}, "needs 'turn'"),
    ({"turn": "red"}, "needs 'pieces'"),
    ({"turn": "red", "pieces": TWO_CHIEFS, "corpse": []}, "no key corpse"),
    ({"turn": "purple", "pieces": TWO_CHIEFS}, "'purple' is not a colour"),
    ({"turn": "red", "pieces": [["a1", "red chief"]]}, "must map squares"),
    ({"turn": "red", "pieces": {**TWO_CHIEFS, "j1": "red militant"}}, "'j1' is not a square"),
    ({"turn": "red", "pieces": {**TWO_CHIEFS, "a2": "red king"}}, "'<colour> <kind>'"),
    ({"turn": "red", "pieces": {**TWO_CHIEFS, "a2": 3}}, "'<colour> <kind>'"),
    ({"turn": "red", "pieces": {**TWO_CHIEFS, "e5": "red militant"}}, "cannot stand on the centre"),
    ({"turn": "red", "pieces": TWO_CHIEFS, "corpses": "d4"}, "list of squares"),
    ({"turn": "red", "pieces": TWO_CHIEFS, "corpses": ["a1"]}, "already holds the red chief"),
    ({"turn": "red", "pieces": TWO_CHIEFS, "corpses": ["d4", "d4"]}, "listed twice"),
    ({"turn": "red", "pieces": TWO_CHIEFS, "corpses": ["z9"]}, "'z9' is not a square"),
    (
        {"turn": "red", "pieces": {**TWO_CHIEFS, "a2": "red chief"}},
        "red has 2 chiefs but an army has 1",
    ),
    (
        {
            "turn": "red",
            "pieces": {**TWO_CHIEFS, **{f"b{r}": "red militant" for r in range(1, 6)}},
        },
        "red has 5 militants but an army has 4",
    ),
    (
        {
            "turn": "red",
            "pieces": TWO_CHIEFS,
            "corpses": [f"{f}{r}" for f in "bcdef" for r in "2345678"],
        },
        "Djambi has only 36",
    ),
    ({"turn": "green", "pieces": TWO_CHIEFS}, "green Chief is not on the board"),
    ({"turn": "red", "pieces": {"a1": "red chief"}}, "at least two living Chiefs"),
    (
        {"turn": "red", "pieces": TWO_CHIEFS, "controllers": {"yellow": "red"}},
        "yellow Chief is alive, so yellow controls itself",
    ),
    (
        {"turn": "red", "pieces": TWO_CHIEFS, "controllers": {"blue": "green"}},
        "cannot be controlled by green, whose Chief is not on the board",
    ),
    ({"turn": "red", "pieces": TWO_CHIEFS, "controllers": {"blue": 7}}, "7 is not a colour"),
    ({"turn": "red", "pieces": TWO_CHIEFS, "controllers": ["blue"]}, "must map colours"),
    ({"turn": "red", "turn_colour": "pink", "pieces": TWO_CHIEFS}, "'pink' is not a colour"),
    (
        {"turn": "red", "turn_colour": "yellow", "pieces": TWO_CHIEFS},
        "red does not play yellow",
    ),
    (
        {
            "turn": "red",
            "turn_colour": "green",
            "pieces": TWO_CHIEFS,
            "controllers": {"green": "red"},
        },
        "green has no living piece: its turn is skipped",
    ),
    (
        {"turn": "red", "turn_colour": "green", "pieces": {**TWO_CHIEFS, "c7": "green militant"}},
        "red does not play green",  # a vassal colour nobody controls (D10)
    ),
    (
        {"turn": "red", "turn_colour": None, "pieces": TWO_CHIEFS},
        "null means an extra turn",
    ),
]


@pytest.mark.parametrize(("position", "message"), BAD_POSITIONS)
def test_bad_positions_are_refused_clearly(position: Any, message: str) -> None:
    with pytest.raises(machiavel.InvalidSetup, match=message):
        GAME.from_position(position)


def test_a_position_gives_the_turn_to_a_colour_its_player_plays() -> None:
    """D8, D9, D10: ``turn_colour`` names an inherited colour, a vassal colour the holder
    commands, or null for the holder's extra turn; it is written only when not ``turn``."""
    pieces = {"e5": "red chief", "i9": "yellow chief", "a9": "blue chief"}
    pieces |= {"c7": "green militant", "g3": "red militant"}
    vassal = GAME.from_position({"turn": "red", "turn_colour": "green", "pieces": pieces})
    view = vassal.view(None)
    assert view["turn"] == "red" and view["turn_colour"] == "green"
    assert {a.split("-")[0] for a in vassal.legal_actions(0)} == {"c7"}
    assert vassal.position()["turn_colour"] == "green"
    extra = GAME.from_position({"turn": "red", "turn_colour": None, "pieces": pieces})
    assert extra.view(None)["extra_turn"] and extra.view(None)["turn_colour"] is None
    assert {a.split("-")[0] for a in extra.legal_actions(0)} == {"e5", "g3", "c7"}
    assert extra.position()["turn_colour"] is None
    own = GAME.from_position({"turn": "red", "turn_colour": "red", "pieces": pieces})
    assert "turn_colour" not in own.position() and own.view(None)["turn_colour"] == "red"
    assert own.setup.position is not None and "turn_colour" not in own.setup.position


def test_positions_are_checked_with_the_options() -> None:
    with pytest.raises(machiavel.InvalidSetup, match="quiet_rounds"):
        GAME.from_position({"turn": "red", "pieces": TWO_CHIEFS}, options={"quiet_rounds": 0})
    with pytest.raises(machiavel.InvalidSetup, match="reporter"):
        GAME.from_position({"turn": "red", "pieces": TWO_CHIEFS}, options={"reporter": "loud"})
    with pytest.raises(machiavel.InvalidSetup, match="aggressivity"):
        GAME.from_position({"turn": "red", "pieces": TWO_CHIEFS}, options={"aggressivity": 1})
    with pytest.raises(machiavel.InvalidSetup, match="inherited_turns"):
        GAME.from_position({"turn": "red", "pieces": TWO_CHIEFS}, options={"inherited_turns": 1})
    inherited: dict[str, Any] = {"turn": "red", "turn_colour": "green"}
    inherited |= {"pieces": {**TWO_CHIEFS, "c7": "green militant"}, "controllers": {"green": "red"}}
    assert GAME.from_position(inherited).view(None)["turn_colour"] == "green"
    with pytest.raises(machiavel.InvalidSetup, match="inherited_turns=skip"):
        GAME.from_position(inherited, options={"inherited_turns": "skip"})
