"""What the Tyrus log says after an election (tally, result, standing, draw, next
election), the board marks of a placement, and why a game ended (issue 15)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import machiavel
from machiavel.core.contract import LANGUAGES, JsonDict
from machiavel.core.narration import Told, narrate
from machiavel.core.rng import Rng
from machiavel.games.tyrus.rules import (
    KINDS,
    TyrusState,
    count_building,
    decide,
)
from machiavel.games.tyrus.tally_words import count_line
from support.tyrus import rig

GAME = machiavel.game("tyrus")
VIEWERS: tuple[int | None, ...] = (0, 1, None)
# A tile stands alone ("S5"), never inside another word.
TILE_TOKEN = re.compile(r"(?<![\w-])[SMP](?:10|[1-9])(?![\w-])")
SCORE_PAIR = re.compile(r"\d+ (to|à) \d+")
SECOND_PERSON = re.compile(r"\b(you|your|vous|votre|vos)\b", re.IGNORECASE)


def new_state(seed: int = 1, memory_mode: bool = False) -> TyrusState:
    state = GAME.new(2, seed=seed, options={"memory_mode": memory_mode})
    assert isinstance(state, TyrusState)
    return state


def events_of(told_lines: str) -> list[str]:
    """The event lines of a log entry (the first line is the action itself)."""
    return told_lines.split("\n")[1:]


# ---- the rule book's examples (T5) ------------------------------------------------
def citadel_example() -> tuple[Told, int, int]:
    """tyrus.fr.txt's tally: Brown 10+8 soldiers blocked by 7 merchants = 11; Beige 7+5
    soldiers, blocked by 8 merchants countered by 6 priests = 10 (T5). Brown starts."""
    state = new_state(5)
    brown = state.to_move[0]
    beige = 1 - brown
    rig(
        state,
        "citadel",
        {brown: ["S10", "S8", "M8"], beige: ["S7", "P6", "M7"]},
        {(beige, "citadel"): [(beige, "S5")]},
    )
    for player, action in [
        (brown, "S10 citadel"),
        (beige, "S7 citadel"),
        (brown, "S8 citadel"),
        (beige, "P6 citadel"),
        (brown, "M8 rival-citadel"),
    ]:
        state.apply(player, action)
    return narrate(state, beige, "M7 rival-citadel"), brown, beige


def play_the_citadel_example() -> tuple[list[list[str]], int, int]:
    """The example's event lines for a spectator, in each language."""
    told, brown, beige = citadel_example()
    lines = [events_of(told.for_viewer(None, 2, index)) for index, _ in enumerate(LANGUAGES)]
    return lines, brown, beige


def test_the_rule_books_citadel_tally_in_english() -> None:
    (english, _), brown, beige = play_the_citadel_example()
    assert english[0] == (
        "Election 1 is counted in the citadels: soldiers vote, the rival's merchants block "
        "them, priests counter the block."
    )
    assert (
        f"player {brown}'s citadel: soldiers 10+8 = 18; player {beige}'s merchants block 7; "
        "score 18 − 7 = 11."
    ) in english
    assert (
        f"player {beige}'s citadel: soldiers 7+5 = 12; player {brown}'s merchants block 8, "
        f"player {beige}'s priests counter 6, so 8 − 6 = 2 blocked; score 12 − 2 = 10."
    ) in english
    assert f"player {brown} wins the general, 11 to 10." in english


def test_the_rule_books_citadel_tally_in_french() -> None:
    (_, french), brown, beige = play_the_citadel_example()
    assert french[0].startswith("Dépouillement de l'élection 1 dans les citadelles : ")
    assert (
        f"la citadelle du joueur {brown} : soldats 10+8 = 18 ; contre des marchands du "
        f"joueur {beige} : 7 ; score 18 − 7 = 11."
    ) in french
    assert (
        f"la citadelle du joueur {beige} : soldats 7+5 = 12 ; contre des marchands du joueur "
        f"{brown} : 8, contre de contre des prêtres du joueur {beige} : 6, reste 8 − 6 = 2 ; "
        "score 12 − 2 = 10."
    ) in french
    assert f"joueur {brown} remporte le général, 11 à 10." in french


def test_the_rule_books_market_tally_reads_as_ruled() -> None:
    """T5's reading of the market example: Brown's 1 priest stood in Beige's market."""
    brown, beige = 0, 1
    beiges = count_building(
        beige, "market", [(beige, "M10"), (brown, "P1"), (beige, "M9"), (beige, "M8")]
    )
    browns = count_building(brown, "market", [(brown, "M2"), (brown, "M1")])
    assert count_line(beiges, "en") == (
        "player 1's market: merchants 10+9+8 = 27; player 0's priests block 1; score 27 − 1 = 26."
    )
    assert count_line(browns, "en") == "player 0's market: merchants 2+1 = 3; score 3."
    assert count_line(browns, "fr") == "le marché du joueur 0 : marchands 2+1 = 3 ; score 3."


@pytest.mark.parametrize(
    ("placed", "english"),
    [
        ([], "no soldiers; score 0."),
        (
            [(0, "S5"), (1, "M7")],
            "soldiers 5; player 1's merchants block 7; score 5 − 7 is below zero, so 0.",
        ),
        (
            [(0, "S5"), (1, "M3"), (0, "P4")],
            "soldiers 5; player 1's merchants block 3, player 0's priests counter 4, so nothing "
            "is blocked; score 5.",
        ),
        (
            [(0, "S2"), (1, "S9"), (0, "M4"), (1, "P1")],
            "soldiers 2; score 2 (no effect: player 0's M4; player 1's S9, P1).",
        ),
    ],
)
def test_every_shape_of_count_reads_plainly(placed: list[tuple[int, str]], english: str) -> None:
    count = count_building(0, "citadel", placed)
    assert count_line(count, "en") == f"player 0's citadel: {english}"
    french = count_line(count, "fr")
    assert french.startswith("la citadelle du joueur 0 : ")
    assert last_number(french.split(" ; score ")[1].split(" (sans effet")[0]) == count.score


# ---- every random game, every viewer, both languages --------------------------------
def known_tiles(view: JsonDict) -> set[str]:
    """The tiles ``view`` shows: revealed by tallies, the viewer's own, the final hands."""
    known = {entry["tile"] for tally in view["tallies"] for entry in tally["tiles"]}
    known |= set(view["hand"] or [])
    known |= {t["tile"] for b in view["buildings"] for t in b["tiles"] if t["tile"] is not None}
    known |= {tile for hand in view.get("final_hands", []) for tile in hand}
    return known


def tally_part(lines: list[str]) -> list[str]:
    """The lines about the election just counted: those before the standing."""
    standing = next(
        i for i, line in enumerate(lines) if line.startswith(("Elections won", "Élections gagnées"))
    )
    return lines[:standing]


def last_number(text: str) -> int:
    return int(re.findall(r"\d+", text)[-1])


def check_english_arithmetic(lines: list[str], view: JsonDict) -> None:
    """The scores, result and standing said are the view's tally and score sheet."""
    tally = view["tallies"][-1]
    for owner in (0, 1):
        (line,) = [x for x in lines if x.startswith(f"player {owner}'s {tally['kind']}: ")]
        said = line.split("; score ")[1].split(" (no effect")[0]
        assert last_number(said) == tally["scores"][owner], line
    high, low = max(tally["scores"]), min(tally["scores"])
    winner = tally["winner"]
    wins = f"player {winner} wins the " if winner is not None else "The election is null, "
    (result,) = [x for x in lines if x.startswith(wins)]
    assert f"{high} to {low}" in result
    won = view["elections_won"]
    standing = f"Elections won: {won[0]} by player 0, {won[1]} by player 1"
    assert any(line.startswith(standing) for line in lines)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**48), memory_mode=st.booleans())
def test_events_say_only_what_each_view_shows(seed: int, memory_mode: bool) -> None:
    """T9: an event line names no tile the viewer's view does not show, never says "you",
    and its numbers are the view's; events come only after an election's last tile."""
    state = new_state(seed, memory_mode)
    rng = Rng(seed)
    while not state.is_over:
        assert state.ending("en") is None and state.ending("fr") is None
        player = state.to_move[0]
        action = rng.choice(state.legal_actions(player))
        elections = len(state.tallies)
        told = narrate(state, player, action)
        assert told.marks == {"player": player, **expected_marks(player, action)}
        held = len(state.tallies) > elections
        for viewer in VIEWERS:
            view = state.view(viewer)
            for index, language in enumerate(LANGUAGES):
                lines = events_of(told.for_viewer(viewer, 2, index))
                assert bool(lines) == held
                text = "\n".join(lines)
                assert set(TILE_TOKEN.findall(text)) <= known_tiles(view), (viewer, language)
                assert not SECOND_PERSON.search(text)
                if memory_mode and held:  # the result alone: no tile, no score (T9)
                    said = "\n".join(tally_part(lines))
                    assert said and not TILE_TOKEN.search(said)
                    assert not SCORE_PAIR.search(said) and "=" not in said
                if held and not memory_mode and language == "en":
                    check_english_arithmetic(lines, view)
                if state.is_over:
                    assert lines[-1] == state.ending(language)
    check_ending(state)


def expected_marks(player: int, action: str) -> JsonDict:
    building = action.split()[1]
    kind = building.removeprefix("rival-")
    return {"building": kind, "owner": player if kind == building else 1 - player}


def check_ending(state: TyrusState) -> None:
    decision = decide(state.results, state.hands)
    assert decision is not None and decision.winners == state.winners
    english, french = state.ending("en"), state.ending("fr")
    assert english is not None and french is not None
    for winner in state.winners if len(state.winners) == 1 else ():
        assert f"player {winner} " in english and f"joueur {winner} " in french
    hands_decided = decision.reason in ("hands", "draw")
    assert ("in hand" in english) == hands_decided  # no tie-break that played no part
    assert ("en main" in french) == hands_decided


# ---- endings (T8) -------------------------------------------------------------------
def ended(results: list[int | None], hands: list[list[str]]) -> TyrusState:
    state = new_state(2)
    state.results = results
    state.hands = hands
    decision = decide(results, hands)
    assert decision is not None
    state._winners = decision.winners
    state._to_move = state._next_to_move()
    return state


def test_the_ending_of_three_in_a_row_names_them_and_the_margin() -> None:
    state = ended([0, None, 1, 1, 1], [["S1"], ["S2"]])
    assert state.ending("en") == (
        "player 1 won three elections in a row (3, 4 and 5) and wins the game at once, "
        "with 3 elections won to 1."
    )
    assert state.ending("fr") == (
        "joueur 1 a gagné trois élections d'affilée (3, 4 et 5) et remporte aussitôt la "
        "partie, avec 3 élections gagnées contre 1."
    )


def test_the_ending_of_five_wins() -> None:
    state = ended([0, 1, 0, 0, 1, 0, None, 0], [["S1"], ["S2"]])
    assert state.ending("en") == (
        "player 0 won a fifth election (election 8) and wins the game at once, 5 elections to 2."
    )
    assert "cinquième élection (l'élection 8)" in (state.ending("fr") or "")


def test_the_ending_after_nine_elections_with_more_wins_leaves_the_hands_out() -> None:
    state = ended([0, 1, 0, None, 1, 0, None, 1, 0], [["S1", "M1", "P1"], ["S9", "M9", "P9"]])
    assert state.ending("en") == (
        "All nine elections were held: player 0 won more of them, 4 to 3, and wins the game."
    )
    assert state.ending("fr") == (
        "Les neuf élections ont eu lieu : joueur 0 en a gagné le plus, 4 à 3, et remporte "
        "la partie."
    )


def test_the_ending_decided_by_the_hands_shows_both_totals() -> None:
    state = ended([0, 1, 0, 1, None, 0, 1, None, None], [["S9", "M5", "P3"], ["S1", "M2", "P10"]])
    assert state.ending("en") == (
        "All nine elections were held and each player won 3, so the tiles left in hand "
        "decide: player 0 holds S9+M5+P3 = 17, player 1 holds S1+M2+P10 = 13; "
        "player 0 wins the game by 4."
    )
    assert (state.ending("fr") or "").endswith("joueur 0 remporte la partie de 4.")


def test_a_draw_says_so() -> None:
    state = ended([None] * 9, [["S9", "M5", "P3"], ["S8", "M6", "P3"]])
    assert (state.ending("en") or "").endswith("; the game is a draw.")
    assert (state.ending("fr") or "").endswith("; la partie est nulle.")


def test_the_ending_is_none_until_the_game_is_over() -> None:
    state = new_state(3)
    assert state.ending("en") is None and state.ending("fr") is None


# ---- between elections --------------------------------------------------------------
def test_the_draw_names_drawn_tiles_to_their_owner_only() -> None:
    """T7's draw: each player's own new tiles are named to that player alone (T9)."""
    told, _, _ = citadel_example()
    for viewer in VIEWERS:
        text = told.for_viewer(viewer, 2)
        assert "Each player draws 3 tiles" in text
        for player in (0, 1):
            assert (f"player {player} draws " in text) == (viewer == player)
    assert "Election 2 will be held in the " in told.for_viewer(None, 2)


def test_a_player_one_win_from_the_end_is_pointed_out() -> None:
    from machiavel.games.tyrus.tally_words import threat_lines

    assert threat_lines([1, 0, 0], "en") == [
        "player 0 has won 2 elections in a row: one more wins the game."
    ]
    assert threat_lines([1, 1, 0, 1, None, 1, 0], "en") == [
        "player 1 has won 4 elections: a fifth wins the game."
    ]
    assert threat_lines([0, 0, None], "fr") == []


@pytest.mark.parametrize("kind", KINDS)
def test_marks_name_the_building_never_the_tile(kind: str) -> None:
    state = new_state(7)
    player = state.to_move[0]
    tile = state.hands[player][0]
    told = narrate(state, player, f"{tile} rival-{kind}")
    assert told.marks == {"player": player, "building": kind, "owner": 1 - player}
