"""Djambi as text: the terminal board, refusals explained, actions described and normalized."""

from __future__ import annotations

from typing import Any

import pytest

import machiavel
from machiavel.core.contract import LANGUAGES
from machiavel.core.narration import narrate
from machiavel.core.rng import Rng
from machiavel.games.djambi import GAME
from machiavel.games.djambi.board import CENTRE, MOVE_ACTION_SQUARES
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


def told(state: DjambiState, action: str) -> tuple[str, str]:
    """Play ``action`` of the player to move and return its log entry (the action's line,
    then its events, one per line) in English and French, after checking that every viewer
    reads the same (Djambi hides nothing) and that the languages differ."""
    player = state.to_move[0]
    entry = narrate(state, player, action)
    english, french = (entry.lines[i] for i in range(len(LANGUAGES)))
    assert len(english) == 1 and len(french) == 1  # one text for every viewer
    assert english[0] != french[0]
    return english[0], french[0]


def test_moves_and_kills_name_the_seat_the_pieces_and_the_squares() -> None:
    pieces = {**CHIEFS, "b1": "red assassin", "b6": "green militant", "c3": "red necromobile"}
    state = start(pieces, ("c6",))
    assert state.describe(0, "c3-d4", 2) == "player 0 moved their Necromobile from c3 to d4"
    assert state.describe(0, "c3-c6", 1) == (
        "player 0 moved their Necromobile from c3 to c6 and took up the corpse there"
    )
    assert told(state, "b1-b6") == (
        "player 0 moved their Assassin from b1 to b6 and killed the Militant of player 1\n"
        "The corpse lies on b1, where the Assassin came from",
        "joueur 0 a déplacé son Assassin de b1 à b6 et a tué le Militant du joueur 1\n"
        "Le cadavre reste en b1, d'où venait l'Assassin",
    )


def test_a_militants_kill_then_its_corpse_put_down() -> None:
    """D3: the corpse in hand is not named (D12: corpses look alike)."""
    state = start({**CHIEFS, "c3": "red militant", "c4": "green militant"})
    assert told(state, "c3-c4") == (
        "player 0 moved their Militant from c3 to c4 and killed the Militant of player 1",
        "joueur 0 a déplacé son Militant de c3 à c4 et a tué le Militant du joueur 1",
    )
    assert told(state, "corpse e3") == (
        "player 0 put the corpse down on e3",
        "joueur 0 a posé le cadavre en e3",
    )


def test_a_diplomat_relocates_a_piece() -> None:
    state = start({**CHIEFS, "b2": "red diplomat", "b5": "green reporter"})
    assert told(state, "b2-b5") == (
        "player 0 moved their Diplomat from b2 to b5 and took up the Reporter of player 1",
        "joueur 0 a déplacé son Diplomate de b2 à b5 et a pris le Reporter du joueur 1",
    )
    assert told(state, "place d4") == (
        "player 0 put the Reporter of player 1 down on d4",
        "joueur 0 a posé le Reporter du joueur 1 en d4",
    )


def test_an_inherited_colours_piece_is_named_by_its_colours_seat() -> None:
    """D8 ``book``: player 0 plays green's turn with a green piece."""
    pieces = {**CHIEFS, "a9": "green militant"}
    state = GAME.from_position(
        {"turn": "red", "turn_colour": "green", "pieces": pieces, "controllers": {"green": "red"}},
        seed=1,
    )
    assert state.describe(0, "a9-a8", None, "fr") == (
        "joueur 0 a déplacé le Militant du joueur 1 de a9 à a8"
    )


def test_reporter_choices_scandal_and_revival() -> None:
    pieces = {**CHIEFS, "a5": "red reporter", "d6": "green militant", "e6": "green assassin"}
    pieces |= {"c4": "green diplomat", "d4": "red militant"}
    state = start(pieces, reporter="scandal", aggressivity=True)
    state.apply(0, "a5-d5")
    assert state.describe(0, "kill d6", None) == (
        "player 0 killed the Militant of player 1 on d6 with their Reporter"
    )
    assert told(state, "scandal") == (
        "player 0 caused a scandal with their Reporter on d5\n"
        "The scandal killed the Diplomat of player 1 on c4, the Militant of player 0 on d4, "
        "the Militant of player 1 on d6 and the Assassin of player 1 on e6\n"
        "Player 0 has killed 3 enemy pieces: they may raise one of their dead pieces in "
        "their starting corner",
        "joueur 0 a fait éclater un scandale avec son Reporter en d5\n"
        "Le scandale a tué le Diplomate du joueur 1 en c4, le Militant du joueur 0 en d4, "
        "le Militant du joueur 1 en d6 et l'Assassin du joueur 1 en e6\n"
        "Joueur 0 a tué 3 pièces ennemies : il peut ressusciter une de ses pièces mortes "
        "dans son coin de départ",
    )
    assert told(state, "revive d4 b2") == (
        "player 0 raised their Militant from the dead: the corpse on d4 stands up on b2",
        "joueur 0 a ressuscité son Militant : le cadavre en d4 se relève en b2",
    )
    quiet = start({**CHIEFS, "a5": "red reporter", "e6": "green militant"}, reporter="scandal")
    quiet.apply(0, "a5-d5")
    assert told(quiet, "pass")[0] == "player 0 chose no victim for their Reporter"


def test_a_player_whose_pieces_cannot_move_passes_in_words() -> None:
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
    assert told(stuck, "pass") == (
        "player 1 passed: none of their pieces can move",
        "joueur 1 a passé : aucune de ses pièces ne peut bouger",
    )


def test_the_reporters_automatic_kill_of_a_chief_is_told() -> None:
    """D5: with one orthogonal enemy the kill happens inside the move; the Chief's death
    puts its player out and the killer takes its pieces (D8)."""
    pieces = {**CHIEFS, "a5": "red reporter", "d6": "green chief", "a9": "green militant"}
    state = start(pieces)
    assert told(state, "a5-d5") == (
        "player 0 moved their Reporter from a5 to d5\n"
        "The Reporter then killed the Chief of player 1 on d6, next to it; the corpse stays "
        "there\n"
        "Player 1 is out of the game: player 0 takes over the pieces of player 1",
        "joueur 0 a déplacé son Reporter de a5 à d5\n"
        "Le Reporter a alors tué le Chef du joueur 1 en d6, à côté de lui ; le cadavre reste "
        "sur place\n"
        "Joueur 1 est éliminé : joueur 0 prend le contrôle des pièces du joueur 1",
    )
    assert state.view(None)["controllers"]["green"] == "red"


def test_a_chief_killed_hands_over_every_colour_of_its_player() -> None:
    pieces = {**CHIEFS, "b1": "red assassin", "b6": "green chief", "a9": "yellow militant"}
    del pieces["i9"]
    state = GAME.from_position(
        {"turn": "red", "pieces": pieces, "controllers": {"yellow": "green"}}, seed=1
    )
    english, french = told(state, "b1-b6")
    assert english.splitlines()[-1] == (
        "Player 1 is out of the game: player 0 takes over the pieces of player 1 and player 2"
    )
    assert french.splitlines()[-1] == (
        "Joueur 1 est éliminé : joueur 0 prend le contrôle des pièces du joueur 1 et du joueur 2"
    )


def test_a_chief_walled_in_is_told_with_its_vassals() -> None:
    """D10: the corpse put down walls the green Chief in; its pieces become vassals that
    nobody commands while nobody holds the centre."""
    pieces = {"a9": "green chief", "a1": "red chief", "a3": "green militant"}
    pieces |= {"i9": "yellow chief", "g5": "green militant"}
    state = start(pieces, ("a8", "b8"))
    state.apply(0, "a1-a3")
    assert told(state, "corpse b9") == (
        "player 0 put the corpse down on b9\n"
        "The Chief of player 1 on a9 was walled in with no way out and died\n"
        "Player 1 is out of the game: the pieces of player 1 become vassals, which obey "
        "whoever holds the centre\n"
        "Nobody may move or touch the vassal pieces of player 1 while nobody holds the centre",
        "joueur 0 a posé le cadavre en b9\n"
        "Le Chef du joueur 1 en a9, encerclé sans issue, est mort\n"
        "Joueur 1 est éliminé : les pièces du joueur 1 deviennent vassales et obéissent à "
        "qui tient le centre\n"
        "Personne ne peut déplacer ni toucher les pièces vassales du joueur 1 tant que "
        "personne ne tient le centre",
    )


def test_taking_and_leaving_the_centre_are_told() -> None:
    """D9: the holder plays extra turns; D10: the holder commands the vassals."""
    pieces = {**CHIEFS, "a1": "red militant", "c3": "red chief", "g5": "green militant"}
    del pieces["a9"]
    state = start(pieces)
    assert told(state, "c3-e5") == (
        "player 0 moved their Chief from c3 to the centre (e5)\n"
        "The Chief of player 0 now holds the centre: player 0 plays an extra turn after each "
        "other player's turn\n"
        "The vassal pieces of player 1 obey player 0 while they hold the centre",
        "joueur 0 a déplacé son Chef de c3 au centre (e5)\n"
        "Le Chef du joueur 0 tient maintenant le centre : joueur 0 joue un tour de plus après "
        "le tour de chaque autre joueur\n"
        "Les pièces vassales du joueur 1 obéissent à joueur 0 tant qu'il tient le centre",
    )
    while "e5-e4" not in state.legal_actions(state.to_move[0]):
        state.apply(state.to_move[0], state.legal_actions(state.to_move[0])[-1])
    english, french = told(state, "e5-e4")
    assert english.splitlines()[1:] == [
        "Player 0 no longer holds the centre",
        "Nobody may move or touch the vassal pieces of player 1 while nobody holds the centre",
    ]
    assert french.splitlines()[0] == "joueur 0 a déplacé son Chef du centre (e5) à e4"


def test_the_assassin_leaving_the_centre_by_a_kill_leaves_the_corpse_there() -> None:
    """D4: the Assassin kills the Chief on the centre, then another Chief on its way out,
    whose corpse lies on the centre."""
    pieces = {"a1": "red chief", "a5": "red assassin", "e5": "green chief"}
    pieces |= {"h8": "yellow chief", "i1": "blue chief"}
    state = start(pieces)
    assert told(state, "a5-e5")[0].splitlines()[-1] == (
        "Player 1 is out of the game: player 0 takes over the pieces of player 1"
    )
    assert told(state, "e5-h8") == (
        "player 0 moved their Assassin out of the centre (e5) to h8 and killed the Chief of "
        "player 2\n"
        "The corpse lies on the centre (e5), where the Assassin came from\n"
        "Player 2 is out of the game: player 0 takes over the pieces of player 2",
        "joueur 0 a fait sortir son Assassin du centre (e5) à h8 et y a tué le Chef du "
        "joueur 2\n"
        "Le cadavre reste au centre (e5), d'où venait l'Assassin\n"
        "Joueur 2 est éliminé : joueur 0 prend le contrôle des pièces du joueur 2",
    )


def test_the_end_of_the_game_is_told_with_the_winners_margin() -> None:
    state = start({"a1": "red chief", "b1": "red assassin", "b7": "green chief"})
    assert state.ending("en") is None
    english, french = told(state, "b1-b7")
    assert english.splitlines()[-1] == (
        "Player 0 wins: their Chief is the last one standing, with 2 living pieces under "
        "their command"
    )
    assert french.splitlines()[-1] == (
        "Joueur 0 gagne : son Chef est le dernier en vie, avec 2 pièces vivantes sous ses ordres"
    )
    assert state.ending("en") == english.splitlines()[-1]
    assert state.ending("fr") == french.splitlines()[-1]


def quiet_move(state: DjambiState, action: str) -> bool:
    """A move to an empty square by any piece but the Chief holding the centre."""
    squares = MOVE_ACTION_SQUARES.get(action)
    return squares is not None and squares[0] != CENTRE and state.board[squares[1]] == 0


def test_quiet_rounds_are_counted_down_then_end_the_game() -> None:
    """D11: warnings at 10, 5 and 1 quiet rounds left; the holder of the centre wins."""
    pieces = {"e5": "red chief", "a9": "green chief", "i9": "yellow chief"}
    pieces |= {"b5": "red militant", "h5": "green militant", "h1": "yellow militant"}
    state = start(pieces, quiet_rounds=5)
    warnings: list[str] = []
    endings: list[str] = []
    rng = Rng(3)
    while not state.is_over:
        player = state.to_move[0]
        legal = [a for a in state.legal_actions(player) if quiet_move(state, a)]
        english, _ = told(state, rng.choice(legal))
        warnings += [line for line in english.splitlines() if line.startswith("No piece has")]
        endings.append(english.splitlines()[-1])
    assert warnings == [
        "No piece has died for 4 rounds: if none dies in the next round, the game ends, won "
        "by whoever then holds the centre (a draw if nobody does)"
    ]
    assert state.winners == (0,)
    assert (
        endings[-1]
        == state.ending("en")
        == ("No piece died for 5 rounds in a row: player 0 wins, as their Chief holds the centre")
    )
    assert state.ending("fr") == (
        "Aucune pièce n'est morte pendant 5 tours de table : joueur 0 gagne, car son Chef "
        "tient le centre"
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
