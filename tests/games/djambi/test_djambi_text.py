"""Djambi as text: the terminal board, refusals explained, actions described and normalized."""

from __future__ import annotations

from typing import Any

import pytest

import machiavel
from machiavel.games.djambi import GAME
from machiavel.games.djambi.rules import DjambiState


def start(pieces: dict[str, str], corpses: tuple[str, ...] = (), **options: Any) -> DjambiState:
    position = {"turn": "red", "pieces": pieces, "corpses": list(corpses)}
    return GAME.from_position(position, seed=1, options=options)


CHIEFS = {"a1": "red chief", "a9": "green chief", "i9": "yellow chief", "i1": "blue chief"}


def test_the_board_has_letters_colour_initials_and_a_marked_centre() -> None:
    state = GAME.new(4, seed=2)
    text = GAME.render(state.view(0))
    lines = text.splitlines()
    rank_lines = [line for line in lines if line.strip()[:1].isdigit()]
    assert [line.split()[0] for line in rank_lines] == [str(r) for r in range(9, 0, -1)]
    assert rank_lines[-1].split("|")[1].split() == [
        "Cr",
        "Ar",
        "Mr",
        ".",
        ".",
        ".",
        "Mb",
        "Ab",
        "Cb",
    ]
    assert rank_lines[0].split("|")[1].split() == [
        "Cg",
        "Ag",
        "Mg",
        ".",
        ".",
        ".",
        "My",
        "Ay",
        "Cy",
    ]
    assert "[  ]" in rank_lines[4]  # the empty centre e5
    assert "a   b   c   d   e   f   g   h   i" in lines[0]
    assert "To move:" in text and "Centre: not held" in text


def test_the_board_shows_corpses_the_holder_and_the_step() -> None:
    state = start(
        {**CHIEFS, "a1": "red militant", "e5": "red chief", "b2": "green militant"}, ("d4",)
    )
    state.apply(0, "a1-b2")
    text = GAME.render(state.view(None))
    assert "[Cr]" in text and " ## " in text
    assert "Centre: held by red" in text
    assert "corpse <square>" in text and "in hand: corpse" in text


def test_a_finished_game_names_the_winner() -> None:
    state = start({"a1": "red chief", "b1": "red assassin", "b7": "green chief"})
    state.apply(0, "b1-b7")
    text = GAME.render(state.view(1))
    assert "Game over (last Chief standing). Winner(s): red." in text


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("hello", "not a move: a turn starts with '<from>-<to>'"),
        ("pass", "pass only when none of the pieces you may move now can move"),
        ("d5-d6", "there is no piece on d5"),
        ("d4-d5", "d4 holds a corpse"),
        ("a9-a8", "the green chief on a9 is not yours: you play red"),
        ("a1-c2", "pieces move in straight lines"),
        ("a1-a1", "must move to another square"),
        ("c3-c6", "a Militant moves only 1 or 2 squares"),
        ("a1-e5", "the way to e5 is blocked by the red diplomat on b2: no piece jumps"),
        ("c3-e5", "the way to e5 is blocked by a corpse on d4"),
        ("c3-d4", "only a Necromobile moves onto corpses"),
        ("b2-c3", "never relocates a piece of its own colour"),
        ("h1-h9", "Necromobile moves only to empty squares or onto corpses"),
    ],
)
def test_refusals_say_what_is_wrong(action: str, message: str) -> None:
    pieces = {**CHIEFS, "c3": "red militant", "b2": "red diplomat", "h1": "red necromobile"}
    pieces |= {"h9": "green militant"}
    state = start(pieces, ("d4",))
    with pytest.raises(machiavel.IllegalAction, match=message) as refused:
        state.apply(0, action)
    assert "Legal now (" in str(refused.value)


def test_follow_up_refusals_say_what_is_expected() -> None:
    pieces = {**CHIEFS, "a5": "red reporter", "d6": "green militant", "c6": "green militant"}
    pieces |= {"d4": "green assassin"}
    state = start(pieces)
    state.apply(0, "a5-d5")
    with pytest.raises(machiavel.IllegalAction, match="choose whom it kills with 'kill <square>'"):
        state.apply(0, "a1-a2")
    with pytest.raises(machiavel.IllegalAction, match="orthogonally next to it, not c6"):
        state.apply(0, "kill c6")
    with pytest.raises(machiavel.IllegalAction, match="must kill an enemy next to it"):
        state.apply(0, "pass")


def test_normalized_spellings_of_a_move() -> None:
    state = start({**CHIEFS, "c3": "red militant"})
    for spelling in ("C3-C4", "c3 c4", "c3c4", "c3xc4", "  c3 -  c4 "):
        assert state.normalize_action(spelling) == "c3-c4"
    assert state.normalize_action("Corpse  D4") == "corpse d4"
    state.apply(0, "C3 C4")
    assert state.history[-1] == (0, "c3-c4")


def test_actions_are_described_in_words() -> None:
    pieces = {**CHIEFS, "b1": "red assassin", "b6": "green militant", "c3": "red necromobile"}
    state = start(pieces, ("c6",))
    assert (
        state.describe(0, "b1-b6", None) == "red: the red assassin kills the green militant (b1-b6)"
    )
    assert state.describe(0, "c3-c6", 1) == "red: the red necromobile takes up the corpse on c6"
    assert state.describe(0, "c3-d4", 2) == "red: the red necromobile moves c3-d4"
    state.apply(0, "c3-c6")
    assert state.describe(0, "corpse e3", None) == "red: the corpse is put down on e3"


def both(state: DjambiState, action: str) -> str:
    """The French line of ``action`` by the player to move, after checking that every
    viewer reads the same (Djambi hides nothing) and that it differs from the English."""
    player = state.to_move[0]
    lines = {state.describe(player, action, viewer, "fr") for viewer in (None, 0, 1, 2, 3)}
    assert len(lines) == 1
    french = lines.pop()
    assert french != state.describe(player, action, None, "en")
    return french


def test_actions_are_described_in_french() -> None:
    """Every kind of action, in the words of the French client and rule text."""
    pieces = {**CHIEFS, "b1": "red assassin", "b6": "green militant", "c3": "red necromobile"}
    state = start(pieces, ("c6",))
    assert both(state, "b1-b6") == "rouge : l'Assassin rouge tue le Militant vert (b1-b6)"
    assert both(state, "c3-c6") == "rouge : le Nécromobile rouge enlève le cadavre en c6"
    assert both(state, "c3-d4") == "rouge : le Nécromobile rouge va de c3 à d4"
    assert both(state, "a1-a2") == "rouge : le Chef rouge va de a1 à a2"
    state.apply(0, "c3-c6")
    assert both(state, "corpse e3") == "rouge : le cadavre est posé en e3"
    # a Diplomat relocates a living piece
    state = start({**CHIEFS, "b2": "red diplomat", "b5": "green reporter"})
    assert both(state, "b2-b5") == "rouge : le Diplomate rouge enlève le Reporter vert (b2-b5)"
    state.apply(0, "b2-b5")
    assert both(state, "place d4") == "rouge : le Reporter vert est posé en d4"


def test_reporter_actions_are_described_in_french() -> None:
    pieces = {**CHIEFS, "a5": "red reporter", "d6": "green militant", "e6": "green assassin"}
    pieces |= {"c4": "green diplomat", "d4": "red militant"}
    state = start(pieces, reporter="scandal", aggressivity=True)
    state.apply(0, "a5-d5")
    assert both(state, "kill d6") == "rouge : le Reporter tue le Militant vert en d6"
    assert both(state, "scandal") == (
        "rouge : le Reporter en d5 fait éclater un scandale : le Diplomate vert en c4, le "
        "Militant rouge en d4, le Militant vert en d6 et l'Assassin vert en e6 meurent"
    )
    state.apply(0, "scandal")  # three kills: red raises one of its dead (D12)
    assert both(state, "revive d4 b2") == (
        "rouge : le Militant rouge ressuscite en b2 (le cadavre en d4)"
    )
    quiet = start({**CHIEFS, "a5": "red reporter", "e6": "green militant"}, reporter="scandal")
    quiet.apply(0, "a5-d5")
    assert both(quiet, "pass") == "rouge : le Reporter épargne tout le monde"
    stuck = GAME.from_position(
        {
            "turn": "green",
            "pieces": {"a1": "red chief", "i7": "red militant", "i9": "green chief"}
            | {"i8": "green reporter", "i1": "yellow chief"},
            "corpses": ["h9", "h8", "h7"],
        },
        seed=1,
    )
    assert stuck.legal_actions(1) == ["pass"]
    assert both(stuck, "pass") == "vert : passe"


# ---- what an action sets off, in the log ------------------------------------------------
def lines(state: DjambiState, action: str) -> tuple[str, str]:
    """The English and French lines of ``action`` by the player to move."""
    return state.describe(state.to_move[0], action, None), both(state, action)


def test_the_reporters_automatic_kill_is_told() -> None:
    """D5: with one orthogonal enemy the kill happens inside the move; the line says so,
    and that the Chief's death puts its player out (D8)."""
    pieces = {**CHIEFS, "a5": "red reporter", "d6": "green chief", "a9": "green militant"}
    state = start(pieces)
    assert lines(state, "a5-d5") == (
        "red: the red reporter moves a5-d5 and kills the green chief on d6; "
        "green is out: red takes over green",
        "rouge : le Reporter rouge va de a5 à d5 et tue le Chef vert en d6 ; "
        "vert est éliminé : rouge prend le contrôle de vert",
    )
    state.apply(0, "a5-d5")
    assert state.view(None)["controllers"]["green"] == "red"


def test_a_chief_killed_hands_over_every_colour_of_its_player() -> None:
    pieces = {**CHIEFS, "b1": "red assassin", "b6": "green chief", "a9": "yellow militant"}
    del pieces["i9"]
    state = GAME.from_position(
        {"turn": "red", "pieces": pieces, "controllers": {"yellow": "green"}}, seed=1
    )
    assert lines(state, "b1-b6") == (
        "red: the red assassin kills the green chief (b1-b6); "
        "green is out: red takes over green and yellow",
        "rouge : l'Assassin rouge tue le Chef vert (b1-b6) ; "
        "vert est éliminé : rouge prend le contrôle de vert et jaune",
    )


def test_a_chief_walled_in_is_told_with_its_vassals() -> None:
    """D10: the corpse put down walls the green Chief in; its pieces become vassals that
    nobody commands while nobody holds the centre."""
    pieces = {"a9": "green chief", "a1": "red chief", "a3": "green militant"}
    pieces |= {"i9": "yellow chief", "g5": "green militant"}
    state = start(pieces, ("a8", "b8"))
    state.apply(0, "a1-a3")
    assert lines(state, "corpse b9") == (
        "red: the corpse is put down on b9; the green chief on a9 is walled in and dies (D10); "
        "green is out: the green pieces become vassals; "
        "nobody commands the vassals (green) while nobody holds the centre",
        "rouge : le cadavre est posé en b9 ; le Chef vert en a9, encerclé, meurt (D10) ; "
        "vert est éliminé : les pièces vertes sont vassales ; "
        "les pièces vassales (vertes) n'obéissent à personne tant que le centre est vide",
    )


def test_taking_the_centre_is_told_when_it_commands_vassals() -> None:
    pieces = {**CHIEFS, "a1": "red militant", "c3": "red chief", "g5": "green militant"}
    del pieces["a9"]
    state = start(pieces)
    assert lines(state, "c3-e5") == (
        "red: the red chief moves c3-e5; the vassals (green) obey red, who holds the centre",
        "rouge : le Chef rouge va de c3 à e5 ; "
        "les pièces vassales (vertes) obéissent à rouge, qui tient le centre",
    )
    assert lines(state, "c3-d4")[0] == "red: the red chief moves c3-d4"


def test_the_end_of_the_game_is_told() -> None:
    state = start({"a1": "red chief", "b1": "red assassin", "b7": "green chief"})
    assert lines(state, "b1-b7") == (
        "red: the red assassin kills the green chief (b1-b7); green is out: red takes over "
        "green; game over, red wins (last Chief standing)",
        "rouge : l'Assassin rouge tue le Chef vert (b1-b7) ; vert est éliminé : rouge prend "
        "le contrôle de vert ; partie finie, rouge gagne (dernier Chef en vie)",
    )


def test_a_line_reads_any_accepted_spelling() -> None:
    state = start({**CHIEFS, "c3": "red militant"})
    assert state.describe(0, "C3 C4", None) == state.describe(0, "c3-c4", None)


def test_an_inherited_colours_turn_is_shown_and_refusals_explain_it() -> None:
    """D8 ``book``: the board says whose colour's turn red is playing."""
    pieces = {**CHIEFS, "a9": "green militant", "c3": "red militant"}
    state = GAME.from_position(
        {
            "turn": "red",
            "turn_colour": "green",
            "pieces": pieces,
            "controllers": {"green": "red"},
        },
        seed=1,
    )
    text = GAME.render(state.view(0))
    assert "To move: red (playing green's turn) - your turn" in text
    with pytest.raises(machiavel.IllegalAction, match="green's turn, which you play with a green"):
        state.apply(0, "c3-c4")
