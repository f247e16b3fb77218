"""The story of whole Djambi games: over random games (seeded, and drawn by Hypothesis), every
log entry is plain words in both languages, every death is told and marked where it
happened, marks name real squares, and the ending appears exactly when the game is over."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machiavel.core.narration import Told, narrate
from machiavel.core.rng import Rng
from machiavel.games.djambi import GAME
from machiavel.games.djambi.board import COLOUR_OF, KIND_OF, SQUARE_INDEX
from machiavel.games.djambi.rules import DjambiState
from machiavel.games.djambi.words import KINDS_EN, KINDS_FR

# Actions as the engine spells them: "a7-b6", "corpse d4", "place d4", "kill d4",
# "revive d4 b2". Words such as "scandal" and "pass" also read as English, so only the
# forms with squares are looked for.
RAW_SYNTAX = re.compile(r"\b[a-i][1-9]-[a-i][1-9]\b|\b(?:corpse|place|kill|revive) [a-i][1-9]\b")
SEAT = re.compile(r"\b(?:[Pp]layer|[Jj]oueur) (\d+)\b")

options = st.fixed_dictionaries(
    {
        "reporter": st.sampled_from(["single", "scandal"]),
        "quiet_rounds": st.sampled_from([40, 12, 3, 1]),
        "aggressivity": st.booleans(),
        "inherited_turns": st.sampled_from(["book", "skip"]),
    }
)


def living(state: DjambiState) -> Counter[int]:
    """Living pieces by code, on the board or in a Diplomat's hand."""
    count = Counter(v for v in state.board if v > 0)
    if state.hand > 0:
        count[state.hand] += 1
    return count


def check_entry(before: DjambiState, after: DjambiState, player: int, told: Told) -> None:
    english, french = (told.for_viewer(None, 4, language) for language in (0, 1))
    for viewer in [*range(4), None]:  # Djambi hides nothing events tell
        assert told.for_viewer(viewer, 4, 0) == english
    for text in (english, french):
        assert RAW_SYNTAX.search(text) is None, text
        assert all(line.strip() for line in text.split("\n")), text
        assert all(int(n) < 4 for n in SEAT.findall(text)), text
    marks = told.marks
    assert marks["player"] == player
    assert set(marks) <= {"player", "path", "corpse", "killed"}
    for square in [*marks.get("path", []), *marks.get("killed", [])]:
        assert square in SQUARE_INDEX
    if "path" in marks:
        assert len(marks["path"]) == 2 and marks["path"][0] != marks["path"][1]
    if "corpse" in marks:
        assert after.board[SQUARE_INDEX[marks["corpse"]]] < 0
    dead = living(before) - living(after)
    killed = marks.get("killed", [])
    assert len(killed) == sum(dead.values()) == len(set(killed)), (killed, dead)
    for name in killed:
        code = before.board[SQUARE_INDEX[name]]
        assert dead[code] > 0, (name, code)
        check_death_told(english, name, code, player, KINDS_EN, ("the {} of player {}", "their {}"))
        check_death_told(french, name, code, player, KINDS_FR, ("{} du joueur {}", "son {}"))


def check_death_told(
    text: str, square: str, code: int, mover: int, kinds: tuple[str, ...], forms: tuple[str, str]
) -> None:
    """The entry names the dead piece (by its owner's seat, or as the mover's own) and the
    square it died on."""
    kind, colour = kinds[KIND_OF[code]], COLOUR_OF[code]
    lowered = text.lower()  # a line may begin with the piece's name
    named = forms[0].format(kind, colour).lower() in lowered
    own = colour == mover and forms[1].format(kind).lower() in lowered
    assert named or own, (text, square, kind, colour)
    assert square in text, (text, square)


def play_told(seed: int, chosen: dict[str, Any]) -> DjambiState:
    state = GAME.new(4, seed=seed, options=chosen)
    assert isinstance(state, DjambiState)
    rng = Rng(seed ^ 0x7E11)
    while not state.is_over:
        assert state.ending("en") is None and state.ending("fr") is None
        player = state.to_move[0]
        before = state.clone()
        told = narrate(state, player, rng.choice(state.legal_actions(player)))
        check_entry(before, state, player, told)
    return state


def check_ending(state: DjambiState) -> None:
    for language in ("en", "fr"):
        ending = state.ending(language)
        assert ending and RAW_SYNTAX.search(ending) is None
        assert {int(n) for n in SEAT.findall(ending)} == set(state.winners), ending


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(
    "chosen",
    [
        {},
        {"reporter": "scandal", "aggressivity": True},
        {"inherited_turns": "skip", "quiet_rounds": 3},
    ],
)
def test_seeded_games_are_told_whole(seed: int, chosen: dict[str, Any]) -> None:
    check_ending(play_told(seed, chosen))


@settings(max_examples=8)
@given(seed=st.integers(min_value=0, max_value=2**48), chosen=options)
def test_random_games_are_told_whole(seed: int, chosen: dict[str, Any]) -> None:
    check_ending(play_told(seed, chosen))


def test_marks_of_a_militants_kill_and_its_corpse() -> None:
    state = GAME.from_position(
        {
            "turn": "red",
            "pieces": {"a1": "red chief", "a9": "green chief", "i9": "yellow chief"}
            | {"c3": "red militant", "c4": "green militant"},
        },
        seed=1,
    )
    assert narrate(state, 0, "c3-c4").marks == {"player": 0, "path": ["c3", "c4"], "killed": ["c4"]}
    assert narrate(state, 0, "corpse e3").marks == {"player": 0, "corpse": "e3"}


def test_marks_of_a_reporters_automatic_kill_and_a_diplomats_relocation() -> None:
    pieces = {"a1": "red chief", "a9": "green chief", "i9": "yellow chief"}
    state = GAME.from_position(
        {"turn": "red", "pieces": pieces | {"a5": "red reporter", "d6": "green militant"}},
        seed=1,
    )
    assert narrate(state, 0, "a5-d5").marks == {"player": 0, "path": ["a5", "d5"], "killed": ["d6"]}
    state = GAME.from_position(
        {"turn": "red", "pieces": pieces | {"b2": "red diplomat", "b5": "green militant"}},
        seed=1,
    )
    assert narrate(state, 0, "b2-b5").marks == {"player": 0, "path": ["b2", "b5"]}
    assert narrate(state, 0, "place f6").marks == {"player": 0, "path": ["b5", "f6"]}
