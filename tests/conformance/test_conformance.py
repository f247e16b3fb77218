"""The conformance suite: every registered game must pass it, for every player count."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.contract import HIDDEN_ACTION, LANGUAGES, Game, State
from machiavel.core.errors import IllegalAction
from machiavel.core.narration import narrate
from machiavel.core.playout import random_playout, random_step
from machiavel.core.rng import Rng
from support.setups import GAME_IDS, SETUPS

seeds = st.integers(min_value=0, max_value=2**48)


def _play_partly(game: Game, players: int, seed: int, fraction: float) -> State:
    """A state part-way through a random game (deterministic in the seed)."""
    full = game.new(players, seed=seed)
    total = random_playout(full, Rng(seed + 1))
    state = game.new(players, seed=seed)
    rng = Rng(seed + 1)
    for _ in range(int(total * fraction)):
        random_step(state, rng)
    return state


def test_registry_lists_every_game() -> None:
    assert set(GAME_IDS) >= {"tyrus"}
    for game_id in GAME_IDS:
        spec = machiavel.game(game_id)
        assert spec.id == game_id
        assert spec.title and spec.summary
        assert 1 <= spec.min_players <= spec.max_players
        json.dumps(spec.options)


def test_unknown_game_is_refused_clearly() -> None:
    with pytest.raises(machiavel.UnknownGame, match="known games"):
        machiavel.game("chess")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bad_setups_are_refused(game_id: str) -> None:
    spec = machiavel.game(game_id)
    with pytest.raises(machiavel.InvalidSetup, match="players"):
        spec.new(spec.max_players + 1, seed=1)
    with pytest.raises(machiavel.InvalidSetup, match="players"):
        spec.new(spec.min_players - 1, seed=1)
    with pytest.raises(machiavel.InvalidSetup, match="no option"):
        spec.new(spec.min_players, seed=1, options={"no_such_option": 1})
    with pytest.raises(machiavel.InvalidSetup, match="seed"):
        spec.new(spec.min_players, seed="abc")  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_option_is_bounded(game_id: str) -> None:
    """A number option has a minimum and a maximum (a table with 10**30 quiet rounds would
    never end); the others list their choices."""
    spec = machiavel.game(game_id)
    for option in spec.option_specs:
        if option.choices is not None:
            continue
        assert option.minimum is not None and option.maximum is not None, option.name
        for value in (option.maximum + 1, 10**30, option.minimum - 1):
            with pytest.raises(machiavel.InvalidSetup, match=option.name):
                spec.new(spec.min_players, seed=1, options={option.name: value})


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=5)
@given(seed=seeds)
def test_same_seed_and_actions_give_the_same_game(game_id: str, players: int, seed: int) -> None:
    spec = machiavel.game(game_id)
    first, second = spec.new(players, seed=seed), spec.new(players, seed=seed)
    random_playout(first, Rng(seed))
    random_playout(second, Rng(seed))
    assert first.to_json() == second.to_json()
    replayed = spec.replay(first.setup, first.history)
    assert replayed.to_json() == first.to_json()


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=5)
@given(seed=seeds)
def test_finished_games_have_results(game_id: str, players: int, seed: int) -> None:
    state = machiavel.game(game_id).new(players, seed=seed)
    random_playout(state, Rng(seed))
    assert state.is_over and state.to_move == ()
    assert len(state.scores) == players
    assert set(state.winners) <= set(range(players)) and state.winners
    for player in range(players):
        assert state.legal_actions(player) == []
    with pytest.raises(machiavel.IllegalAction, match="over"):
        state.apply(0, "anything")


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=8)
@given(seed=seeds, fraction=st.floats(0, 0.95))
def test_mid_game_contract(game_id: str, players: int, seed: int, fraction: float) -> None:
    spec = machiavel.game(game_id)
    state = _play_partly(spec, players, seed, fraction)
    before = state.to_json()
    assert state.to_move, "a game part-way through has someone to move"
    assert not state.winners
    # every listed action is accepted
    for player in state.to_move:
        for action in state.legal_actions(player):
            trial = state.clone()
            trial.apply(player, action)
            assert trial.version == state.version + 1
    # players not to move have nothing to play and are refused
    for player in set(range(players)) - set(state.to_move):
        assert state.legal_actions(player) == []
        with pytest.raises(machiavel.IllegalAction, match="turn"):
            state.apply(player, "anything")
    # malformed and illegal actions are refused and change nothing
    mover = state.to_move[0]
    for bad in ["", "   ", "no such action", "\x00", "9" * 500]:
        with pytest.raises(machiavel.IllegalAction):
            state.apply(mover, bad)
    for bad_input in [None, 3, ["x"]]:
        with pytest.raises(machiavel.IllegalAction):
            state.apply(mover, bad_input)  # type: ignore[arg-type]
    with pytest.raises(machiavel.IllegalAction):
        state.apply(players, state.legal_actions(mover)[0])
    assert state.to_json() == before
    # serialization round trips, through JSON text too
    text = json.dumps(before)
    assert spec.from_json(text).to_json() == before
    assert spec.from_json(json.loads(text)).to_json() == before
    assert spec.replay(state.setup, state.history).to_json() == before
    # views are JSON-safe and a clone is independent
    for viewer in [None, *range(players)]:
        json.dumps(state.view(viewer))
    clone = state.clone()
    random_step(clone, Rng(seed))
    assert state.to_json() == before
    # a seat offers exactly its player's view and actions
    seat = state.seat(mover)
    assert seat.player == mover and seat.game == game_id
    assert seat.view() == state.view(mover)
    assert seat.legal_actions() == state.legal_actions(mover)


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=5)
@given(seed=seeds, fraction=st.floats(0, 1))
def test_a_pickled_state_or_world_comes_back_the_same(
    game_id: str, players: int, seed: int, fraction: float
) -> None:
    """Bot moves are worked out in other processes, which receive the state pickled
    (``State.__reduce__``, which compiled state classes need: machiavel/speedups.py)."""
    state = _play_partly(machiavel.game(game_id), players, seed, fraction)
    for each in (state, state.resample(seed % players, Rng(seed))):
        _fill_caches(each, seed)  # what a state holds once it has been read
        back = pickle.loads(pickle.dumps(each))
        assert type(back) is type(each)
        assert back.to_json() == each.to_json()
        assert [back.view(p) for p in range(players)] == [each.view(p) for p in range(players)]
        assert [back.legal_actions(p) for p in each.to_move] == [
            each.legal_actions(p) for p in each.to_move
        ]


def _fill_caches(state: State, seed: int) -> None:
    """Everything the server and the bots read of a state, so its caches hold what they
    hold in play (some are objects of compiled classes, which must pickle too)."""
    for player in range(state.setup.players):
        state.view(player)
        state.legal_actions(player)
    if not state.is_over:
        machiavel.bot("medium", seed=seed).choose(state.clone().seat(state.to_move[0]))
    state.scores  # noqa: B018 - read for its cache


def _attributes(state: State) -> set[str]:
    """``vars(state)``, and the attributes a class compiled with mypyc (machiavel/speedups.py)
    keeps outside its ``__dict__``."""
    native = getattr(type(state), "__mypyc_attrs__", ())
    return set(vars(state)) | {
        name for name in native if name != "__dict__" and hasattr(state, name)
    }


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=5)
@given(seed=seeds, fraction=st.floats(0, 1))
def test_every_state_field_is_declared_once(
    game_id: str, players: int, seed: int, fraction: float
) -> None:
    """``clone`` and ``to_json`` are derived from the game's one declaration of its fields
    (core/fields.py): an attribute set anywhere but declared nowhere would be shared by
    clones and left out of saves."""
    spec = machiavel.game(game_id)
    state = _play_partly(spec, players, seed, fraction)
    declared = set(type(state).fields) | State.BASE_FIELDS
    worlds = [state.clone(), *(state.resample(p, Rng(seed)) for p in range(players))]
    for each in [state, *worlds]:
        assert _attributes(each) == declared, _attributes(each) ^ declared
    assert state.clone().to_json() == state.to_json()


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=5)
@given(seed=seeds, fraction=st.floats(0, 1))
def test_a_worlds_history_holds_only_what_its_player_knows(
    game_id: str, players: int, seed: int, fraction: float
) -> None:
    """Another player's action may hold what the view hides (a Tyrus tile placed face
    down, the colour of a Tyros fee): a world keeps who acted, not what they did."""
    state = _play_partly(machiavel.game(game_id), players, seed, fraction)
    for player in range(players):
        world = state.resample(player, Rng(seed))
        assert world.version == state.version
        assert world.history == [
            (p, action if p == player else HIDDEN_ACTION) for p, action in state.history
        ]
        assert world.view(player) == state.view(player)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_corrupt_saves_are_refused(game_id: str) -> None:
    spec = machiavel.game(game_id)
    state = spec.new(spec.min_players, seed=7)
    for _ in range(5):
        random_step(state, Rng(3))
    good = state.to_json()
    corrupt_cases: list[object] = [
        "{not json",
        "[]",
        {**good, "format": "other/9"},
        {**good, "game": "not-this-game" if game_id != "x" else "y"},
        {k: v for k, v in good.items() if k != "setup"},
        {**good, "history": "oops"},
        {**good, "history": [[0]]},
        {**good, "history": [*good["history"], [0, "no such action"]]},
        {**good, "setup": {**good["setup"], "players": 99}},
        {**good, "state": {**good["state"], "tampered": True}},
    ]
    for data in corrupt_cases:
        with pytest.raises(machiavel.CorruptState):
            spec.from_json(data)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bots_choose_legal_actions_and_are_deterministic(game_id: str) -> None:
    spec = machiavel.game(game_id)
    for name in ["random", "heuristic"]:
        logs = []
        for _ in range(2):
            state = spec.new(spec.min_players, seed=11)
            bots = [machiavel.bot(name, seed=p) for p in range(spec.min_players)]
            steps = 0
            while not state.is_over and steps < 60:
                player = state.to_move[0]
                action = bots[player].choose(state.seat(player))
                assert action in state.legal_actions(player)
                state.apply(player, action)
                steps += 1
            logs.append(state.history)
        assert logs[0] == logs[1]


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(machiavel.UnknownBot, match="known bots"):
        machiavel.bot("grandmaster")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_render_shows_every_view(game_id: str) -> None:
    spec = machiavel.game(game_id)
    state = spec.new(spec.min_players, seed=5)
    for viewer in [None, *range(spec.min_players)]:
        text = spec.render(state.view(viewer))
        assert isinstance(text, str) and text.strip()


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=8)
@given(seed=seeds, fraction=st.floats(0, 0.95))
def test_describe_tells_a_viewer_no_more_than_their_view(
    game_id: str, players: int, seed: int, fraction: float
) -> None:
    """Two actions that leave a viewer's view identical must be described identically to
    that viewer, in every language: a log line never reveals what the view hides."""
    spec = machiavel.game(game_id)
    state = _play_partly(spec, players, seed, fraction)
    for mover in state.to_move:
        outcomes: dict[tuple[int | None, str], dict[str, list[str]]] = {}
        for action in state.legal_actions(mover)[:40]:
            after = state.clone()
            after.apply(mover, action)
            for viewer in [None, *range(players)]:
                if viewer == mover:
                    continue
                key = json.dumps(after.view(viewer), sort_keys=True)
                for language in LANGUAGES:
                    described = state.describe(mover, action, viewer, language)
                    assert described.strip(), (viewer, language, action)
                    outcomes.setdefault((viewer, language), {}).setdefault(key, []).append(
                        described
                    )
        for (viewer, language), by_view in outcomes.items():
            for descriptions in by_view.values():
                assert len(set(descriptions)) == 1, (viewer, language, descriptions)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_describe_speaks_every_language_and_refuses_others(game_id: str) -> None:
    spec = machiavel.game(game_id)
    state = spec.new(spec.min_players, seed=7)
    mover = state.to_move[0]
    action = state.legal_actions(mover)[0]
    for viewer in [None, *range(spec.min_players)]:
        lines = {
            language: state.describe(mover, action, viewer, language) for language in LANGUAGES
        }
        assert lines["en"] == state.describe(mover, action, viewer)  # English by default
        assert lines["fr"] != lines["en"]
    for language in ("de", "EN", "", None):
        with pytest.raises(ValueError, match="language"):
            state.describe(mover, action, mover, language)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=3, deadline=None)
@given(seed=seeds)
def test_a_told_game_says_what_followed_marks_it_and_why_it_ended(
    game_id: str, players: int, seed: int
) -> None:
    """Every action of a whole random game, told: one log entry per viewer and language
    whose first line is ``describe``'s, JSON-safe marks naming the mover, and a reason for
    the end in every language once (and only once) the game is over."""
    state = machiavel.game(game_id).new(players, seed=seed)
    rng = Rng(seed)
    while not state.is_over:
        assert all(state.ending(language) is None for language in LANGUAGES)
        mover = rng.choice(list(state.to_move))
        action = rng.choice(state.legal_actions(mover))
        first_lines = [state.describe(mover, action, mover, language) for language in LANGUAGES]
        told = narrate(state, mover, action)
        for number, first in enumerate(first_lines):
            for viewer in [None, *range(players)]:
                entry = told.for_viewer(viewer, players, number)
                assert all(line.strip() for line in entry.split("\n")), entry
            assert told.for_viewer(mover, players, number).split("\n")[0] == first
        assert told.marks["player"] == mover
        assert json.loads(json.dumps(told.marks)) == told.marks
    endings = [state.ending(language) for language in LANGUAGES]
    assert all(ending and ending.strip() for ending in endings)
    assert state.ending("en") != state.ending("fr")
    with pytest.raises(ValueError, match="language"):
        state.ending("de")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_illegal_action_told_changes_nothing(game_id: str) -> None:
    spec = machiavel.game(game_id)
    state = spec.new(spec.min_players, seed=11)
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction):
        narrate(state, state.to_move[0], "no such action")
    assert json.dumps(state.to_json(), sort_keys=True) == before


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=3, deadline=None)
@given(seed=seeds)
def test_a_view_is_its_public_part_and_its_viewers_own(
    game_id: str, players: int, seed: int
) -> None:
    """``public_view`` (what a server writes once a version for every viewer) and
    ``private_view`` have no key in common and together are exactly ``view``, for every
    viewer at every action of a whole random game: so the public part tells no one more
    than a spectator's view, and nothing of a view is left out."""
    state = machiavel.game(game_id).new(players, seed=seed)
    rng = Rng(seed)
    viewers: list[int | None] = [*range(players), None]
    while True:
        public = state.public_view()
        for viewer in viewers:
            private = state.private_view(viewer)
            assert not public.keys() & private.keys()
            assert {**public, **private} == state.view(viewer)
        if state.is_over:
            break
        random_step(state, rng)
    with pytest.raises(machiavel.InvalidSetup, match="no player"):
        state.private_view(players)


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=3, deadline=None)
@given(seed=seeds)
def test_events_told_to_all_are_each_viewers_events(game_id: str, players: int, seed: int) -> None:
    """``events_for_all`` (what the log is written from) gives every viewer exactly the
    lines ``events`` gives them alone, at every action of a whole random game."""
    state = machiavel.game(game_id).new(players, seed=seed)
    rng = Rng(seed)
    viewers: list[int | None] = [*range(players), None]
    while not state.is_over:
        mover = rng.choice(list(state.to_move))
        before = state.clone()
        state.apply(mover, rng.choice(state.legal_actions(mover)))
        played = state.history[-1][1]
        for language in LANGUAGES:
            each = [state.events(before, mover, played, viewer, language) for viewer in viewers]
            assert state.events_for_all(before, mover, played, viewers, language) == each


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=3, deadline=None)
@given(seed=seeds)
def test_an_action_described_to_all_reads_as_described_to_each(
    game_id: str, players: int, seed: int
) -> None:
    """``describe_for_all`` (what the log's first line is written from) gives every viewer
    the line ``describe`` gives them alone, at every action of a whole random game, in
    every spelling the game accepts (here: with extra spaces)."""
    state = machiavel.game(game_id).new(players, seed=seed)
    rng = Rng(seed)
    viewers: list[int | None] = [*range(players), None]
    while not state.is_over:
        mover = rng.choice(list(state.to_move))
        action = rng.choice(state.legal_actions(mover)).replace(" ", "  ")
        for language in LANGUAGES:
            each = [state.describe(mover, action, viewer, language) for viewer in viewers]
            assert state.describe_for_all(mover, action, viewers, language) == each
        state.apply(mover, action)
    with pytest.raises(ValueError, match="no log in language"):
        state.describe_for_all(0, "pass", viewers, "de")


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
@settings(max_examples=3, deadline=None)
@given(seed=seeds)
def test_what_narrate_keeps_tells_as_a_whole_copy_does(
    game_id: str, players: int, seed: int
) -> None:
    """``narrate`` gives events and marks what ``_before_action`` keeps of the state, not
    a whole copy of it: at every action of a whole random game, they read the same."""
    state = machiavel.game(game_id).new(players, seed=seed)
    rng = Rng(seed)
    viewers: list[int | None] = [*range(players), None]
    while not state.is_over:
        mover = rng.choice(list(state.to_move))
        whole, kept = state.clone(), state._before_action()
        state.apply(mover, rng.choice(state.legal_actions(mover)))
        played = state.history[-1][1]
        for language in LANGUAGES:
            told = state.events_for_all(kept, mover, played, viewers, language)
            assert told == state.events_for_all(whole, mover, played, viewers, language)
        assert state.marks(kept, mover, played) == state.marks(whole, mover, played)
