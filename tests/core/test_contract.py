"""The contract's own guarantees, checked on a registered game."""

from __future__ import annotations

import pytest

import machiavel
from machiavel.core.contract import LANGUAGES, Option, State


def test_games_lists_ids_and_game_returns_specs() -> None:
    assert "tyrus" in machiavel.games()
    assert machiavel.games() == tuple(sorted(machiavel.games()))
    spec = machiavel.game("tyrus")
    assert (spec.id, spec.min_players, spec.max_players) == ("tyrus", 2, 2)
    assert spec.options == {"memory_mode": False}


def test_options_are_validated_with_clear_messages() -> None:
    spec = machiavel.game("tyrus")
    with pytest.raises(machiavel.InvalidSetup, match=r"memory_mode.*one of false, true"):
        spec.new(2, seed=1, options={"memory_mode": "yes"})
    with pytest.raises(machiavel.InvalidSetup, match="mapping"):
        spec.new(2, seed=1, options=["memory_mode"])  # type: ignore[arg-type]
    with pytest.raises(machiavel.InvalidSetup, match="exactly 2 players, not 3"):
        spec.new(3, seed=1)
    with pytest.raises(machiavel.InvalidSetup, match="whole number"):
        spec.new(2.0, seed=1)  # type: ignore[arg-type]


def test_integer_options_respect_their_bounds() -> None:
    option = Option("rounds", 40, "quiet rounds", minimum=1, maximum=100)
    assert option.validate(5) == 5
    for bad, message in [
        (0, "at least 1"),
        (101, "at most 100"),
        ("5", "whole number"),
        (True, "whole number"),
    ]:
        with pytest.raises(machiavel.InvalidSetup, match=message):
            option.validate(bad)


def test_a_game_without_seed_draws_one_and_keeps_it() -> None:
    spec = machiavel.game("tyrus")
    state = spec.new(2)
    assert isinstance(state.setup.seed, int)
    again = spec.new(2, seed=state.setup.seed)
    assert again.to_json() == state.to_json()


def test_views_name_bad_viewers() -> None:
    state = machiavel.game("tyrus").new(2, seed=1)
    with pytest.raises(machiavel.InvalidSetup, match="no player 2"):
        state.view(2)
    with pytest.raises(machiavel.InvalidSetup, match="no player -1"):
        state.legal_actions(-1)
    with pytest.raises(machiavel.IllegalAction, match="no player 5"):
        state.apply(5, "S1 citadel")
    with pytest.raises(machiavel.IllegalAction, match="player number"):
        state.apply(True, "S1 citadel")


def test_views_carry_the_common_keys() -> None:
    state = machiavel.game("tyrus").new(2, seed=1)
    for viewer in (None, 0, 1):
        view = state.view(viewer)
        assert view["game"] == "tyrus" and view["viewer"] == viewer
        assert view["version"] == 0 and view["to_move"] == list(state.to_move)
        assert view["is_over"] is False and view["winners"] == []


def test_setup_only_saves_replay_without_a_snapshot() -> None:
    spec = machiavel.game("tyrus")
    state = spec.new(2, seed=9)
    player = state.to_move[0]
    state.apply(player, state.legal_actions(player)[3])
    saved = state.to_json()
    del saved["state"]
    assert spec.from_json(saved).to_json() == state.to_json()


def test_describe_speaks_the_languages_of_the_core_and_no_other() -> None:
    assert LANGUAGES == ("en", "fr")  # English first: the default
    state = machiavel.game("tyrus").new(2, seed=1)
    # the contract's own line, for a game that does not say its actions in words
    assert State._describe(state, 0, "S1 citadel", None, "en") == "player 0: S1 citadel"
    assert State._describe(state, 0, "S1 citadel", None, "fr") == "joueur 0 : S1 citadel"
    with pytest.raises(ValueError, match="the languages are en, fr"):
        state.describe(0, "S1 citadel", None, "de")


def test_a_deep_copy_of_a_state_is_its_clone_and_independent() -> None:
    """``copy.deepcopy`` (OpenSpiel copies states so) gives the clone: same state, apart."""
    import copy

    import machiavel

    state = machiavel.game("guildes").new(4, seed=3)
    twin = copy.deepcopy(state)
    assert type(twin) is type(state) and twin.to_json() == state.to_json()
    player = twin.to_move[0]
    twin.apply(player, twin.legal_actions(player)[0])
    assert twin.version == state.version + 1
    assert state.to_json() != twin.to_json()
