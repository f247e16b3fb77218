"""Djambi rules on hand-built positions, ruling by ruling (D1-D12 of shared/rules/RULINGS.md)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import machiavel
from machiavel.core.errors import IllegalAction
from machiavel.games.djambi import GAME
from machiavel.games.djambi.board import ASSASSIN, COLOURS, MILITANT, SQUARE_INDEX, piece_code
from machiavel.games.djambi.rules import ENEMY, WALL, DjambiState

RED, GREEN, YELLOW, BLUE = range(4)


def start(
    pieces: dict[str, str],
    turn: str = "red",
    corpses: tuple[str, ...] = (),
    controllers: dict[str, str | None] | None = None,
    turn_colour: str | None = None,
    **options: Any,
) -> DjambiState:
    position: dict[str, Any] = {"turn": turn, "pieces": pieces, "corpses": list(corpses)}
    if controllers is not None:
        position["controllers"] = controllers
    if turn_colour is not None:
        position["turn_colour"] = turn_colour
    return GAME.from_position(position, seed=1, options=options)


def play(state: DjambiState, *actions: str) -> None:
    for action in actions:
        state.apply(state.to_move[0], action)


def targets(state: DjambiState, square: str) -> set[str]:
    """Where the piece on ``square`` may go as a first step."""
    return {
        a.split("-")[1] for a in state.legal_actions(state.to_move[0]) if a.startswith(f"{square}-")
    }


def at(state: DjambiState, square: str) -> str | None:
    view = state.view(None)
    if square in view["corpses"]:
        return "corpse"
    piece: str | None = view["pieces"].get(square)
    return piece


def movers(state: DjambiState) -> set[str]:
    """The colours of the pieces the player to move may make a first step with."""
    return {
        state.view(None)["pieces"][a.split("-")[0]].split()[0]
        for a in state.legal_actions(state.to_move[0])
        if a != "pass"
    }


def turn_order(state: DjambiState, turns: int) -> list[tuple[str, str | None]]:
    """(player to move, turn colour) over ``turns`` quiet turns."""
    order = []
    for _ in range(turns):
        view = state.view(None)
        order.append((view["turn"], view["turn_colour"]))
        play(state, quiet_step(state))
    return order


def quiet_step(state: DjambiState) -> str:
    """A first step of a non-Chief piece to an empty square (kills nobody)."""
    for action in state.legal_actions(state.to_move[0]):
        origin, target = (SQUARE_INDEX[s] for s in action.split("-"))
        piece = state.board[origin]
        if state.board[target] == 0 and (piece - 1) % 8 not in (0, 2):  # no Chief, Reporter
            return action
    raise AssertionError("no quiet step")


# Four Chiefs in their corners and nothing else: a calm background for many tests.
CORNER_CHIEFS = {
    "a1": "red chief",
    "a9": "green chief",
    "i9": "yellow chief",
    "i1": "blue chief",
}


# ---- D1 -----------------------------------------------------------------------------------
def test_d1_start_layout_mirrors_the_red_corner() -> None:
    view = GAME.new(4, seed=1).view(None)
    pieces = view["pieces"]
    assert len(pieces) == 36 and view["corpses"] == []
    # fmt: off
    expected = {
        "a1": "red chief", "b1": "red assassin", "c1": "red militant",
        "a2": "red reporter", "b2": "red diplomat", "c2": "red militant",
        "a3": "red militant", "b3": "red militant", "c3": "red necromobile",
        "a9": "green chief", "b9": "green assassin", "a8": "green reporter",
        "b8": "green diplomat", "c7": "green necromobile",
        "i9": "yellow chief", "h9": "yellow assassin", "i8": "yellow reporter",
        "h8": "yellow diplomat", "g7": "yellow necromobile",
        "i1": "blue chief", "h1": "blue assassin", "i2": "blue reporter",
        "h2": "blue diplomat", "g3": "blue necromobile",
    }
    # fmt: on
    for square, piece in expected.items():
        assert pieces[square] == piece
    for colour in COLOURS:
        assert sum(1 for p in pieces.values() if p.startswith(colour)) == 9
        assert sum(1 for p in pieces.values() if p == f"{colour} militant") == 4
    assert "e5" not in pieces


def test_d1_first_player_is_drawn_and_turns_go_clockwise() -> None:
    firsts = {GAME.new(4, seed=seed).to_move[0] for seed in range(40)}
    assert firsts == {RED, GREEN, YELLOW, BLUE}
    state = GAME.new(4, seed=3)
    assert isinstance(state, DjambiState)
    order = []
    for _ in range(8):
        order.append(state.to_move[0])
        play(state, quiet_step(state))
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(order))


@pytest.mark.parametrize("colour", COLOURS)
def test_d1_thirty_first_steps_from_the_start(colour: str) -> None:
    start_pieces = GAME.new(4, seed=1).view(None)["pieces"]
    state = start(start_pieces, turn=colour)
    legal = state.legal_actions(COLOURS.index(colour))
    assert len(legal) == 30 and len(set(legal)) == 30
    if colour == "red":
        expected = {
            *("c1-d1", "c1-e1", "c1-d2", "c1-e3"),
            *("c2-d2", "c2-e2", "c2-d3", "c2-e4", "c2-d1"),
            *("a3-a4", "a3-a5", "a3-b4", "a3-c5"),
            *("b3-b4", "b3-b5", "b3-c4", "b3-d5", "b3-a4"),
            *("c3-c4", "c3-c5", "c3-c6", "c3-d3", "c3-e3", "c3-f3"),
            *("c3-d4", "c3-f6", "c3-b4", "c3-a5", "c3-d2", "c3-e1"),
        }
        assert set(legal) == expected


# ---- D2 -----------------------------------------------------------------------------------
def test_d2_straight_lines_no_jumping_centre_crossed_not_stopped_on() -> None:
    state = start(
        {
            **CORNER_CHIEFS,
            "d4": "red assassin",
            "d6": "green militant",
            "f4": "red militant",
        },
        corpses=("b6",),
    )
    assert targets(state, "d4") == {
        *("d5", "d6", "e4", "c4", "b4", "a4", "d3", "d2", "d1"),
        *("f6", "g7", "h8", "i9"),  # across the empty centre, not stopping on it; kills i9
        *("c5", "c3", "b2", "e3", "f2", "g1"),  # b6: a corpse blocks; a1: its own Chief
    }


def test_d2_militants_move_one_or_two_squares() -> None:
    state = start({**CORNER_CHIEFS, "d4": "red militant"})
    assert targets(state, "d4") == {
        *("d5", "d6", "e4", "f4", "e3", "f2", "d3", "d2"),
        *("c3", "b2", "c4", "b4", "c5", "b6"),
        "f6",  # crosses the empty centre e5 but never stops on it
    }


def test_d2_only_a_chief_stops_on_the_centre() -> None:
    pieces = {k: v for k, v in CORNER_CHIEFS.items() if k != "a1"}
    pieces |= {"c3": "red chief", "e2": "red reporter", "c7": "red assassin"}
    pieces |= {"g3": "red diplomat", "g7": "red necromobile"}
    state = start(pieces)
    assert "e5" in targets(state, "c3")
    for square in ("e2", "c7", "g3", "g7"):
        assert "e5" not in targets(state, square)
    with pytest.raises(IllegalAction, match=r"only a Chief may stop on the empty centre.*D2"):
        state.apply(RED, "c7-e5")


def test_d2_an_occupied_centre_blocks_the_way() -> None:
    state = start({**CORNER_CHIEFS, "c3": "red assassin"}, corpses=("e5",))
    assert "d4" in targets(state, "c3")
    assert "f6" not in targets(state, "c3")
    with pytest.raises(IllegalAction, match=r"blocked by a corpse on e5.*no piece jumps"):
        state.apply(RED, "c3-f6")


def test_d2_no_piece_lands_on_its_own_side() -> None:
    state = start({**CORNER_CHIEFS, "a3": "red militant", "c1": "green militant"})
    assert targets(state, "a1") == {
        "a2",
        "b2",
        "c3",
        "d4",
        "e5",
        "f6",
        "g7",
        "h8",
        "i9",
        "b1",
        "c1",
    }
    with pytest.raises(IllegalAction, match="on your side"):
        state.apply(RED, "a1-a3")


# ---- D3 -----------------------------------------------------------------------------------
def test_d3_chief_kills_then_places_the_corpse_anywhere_but_the_centre() -> None:
    state = start({**CORNER_CHIEFS, "a5": "green militant"})
    play(state, "a1-a5")
    assert state.to_move == (RED,) and state.view(RED)["step"] == "corpse"
    legal = set(state.legal_actions(RED))
    assert "corpse a1" in legal and "corpse e5" not in legal
    assert len(legal) == 81 - 4 - 1  # every empty square but the centre
    with pytest.raises(IllegalAction, match=r"only a Chief's corpse may be put on the centre"):
        state.apply(RED, "corpse e5")
    play(state, "corpse a1")
    assert at(state, "a1") == "corpse" and at(state, "a5") == "red chief"
    assert state.to_move == (GREEN,)


def test_d3_a_chiefs_corpse_may_go_on_the_centre() -> None:
    state = start({**CORNER_CHIEFS, "a5": "green chief", "a9": "green militant"})
    play(state, "a1-a5")
    assert "corpse e5" in state.legal_actions(RED)
    play(state, "corpse e5")
    view = state.view(None)
    assert "e5" in view["corpses"] and view["centre"] is None
    assert view["controllers"]["green"] == "red"  # D8


def test_d3_militant_kills_at_two_squares_but_never_the_chief_on_the_centre() -> None:
    pieces = {**CORNER_CHIEFS, "a9": "green militant", "e5": "green chief"}
    pieces |= {"c3": "red militant", "c5": "green militant"}
    state = start(pieces)
    assert "c5" in targets(state, "c3")
    assert "e5" not in targets(state, "c3")
    with pytest.raises(IllegalAction, match=r"Militant never kills the Chief holding the centre"):
        state.apply(RED, "c3-e5")
    play(state, "c3-c5", "corpse c3")
    assert at(state, "c3") == "corpse" and at(state, "c5") == "red militant"


# ---- D4 -----------------------------------------------------------------------------------
def test_d4_the_assassins_victim_lies_where_it_came_from() -> None:
    state = start({**CORNER_CHIEFS, "b1": "red assassin", "b6": "green militant"})
    play(state, "b1-b6")
    assert at(state, "b1") == "corpse" and at(state, "b6") == "red assassin"
    assert state.to_move == (GREEN,)  # no follow-up


def test_d4_assassin_kills_on_the_centre_then_leaves_killing_another_chief() -> None:
    pieces = {**CORNER_CHIEFS, "b2": "red assassin", "e5": "green chief", "e8": "yellow chief"}
    pieces |= {"a9": "green militant", "i9": "yellow militant"}
    state = start(pieces)
    play(state, "b2-e5")
    view = state.view(RED)
    assert state.to_move == (RED,) and view["step"] == "exit" and view["acting"] == "e5"
    assert at(state, "b2") == "corpse" and view["controllers"]["green"] == "red"
    exits = set(state.legal_actions(RED))
    assert {"e5-e6", "e5-e7", "e5-e8", "e5-d4", "e5-c3"} <= exits and "e5-b2" not in exits
    with pytest.raises(IllegalAction, match="must leave it at once"):
        state.apply(RED, "a1-a2")
    play(state, "e5-e8")
    assert at(state, "e5") == "corpse" and at(state, "e8") == "red assassin"
    assert state.view(None)["controllers"]["yellow"] == "red"
    assert state.to_move == (RED,) and state.view(None)["turn_colour"] == "green"  # D8


def test_d4_assassin_may_enter_the_centre_only_if_it_can_leave() -> None:
    around = ("e4", "f4", "d5", "f5", "d6", "e6", "f6")
    pieces = {**CORNER_CHIEFS, "d4": "red assassin", "e5": "green chief", "a9": "green militant"}
    state = start(pieces, corpses=around)
    assert "e5" not in targets(state, "d4")
    with pytest.raises(IllegalAction, match=r"could not leave the centre.*D4"):
        state.apply(RED, "d4-e5")
    freer = start(pieces, corpses=around[:-1])
    assert "e5" in targets(freer, "d4")
    play(freer, "d4-e5")
    assert freer.legal_actions(RED) == ["e5-f6", "e5-g7", "e5-h8", "e5-i9"]  # i9: a Chief


def test_d4_an_inherited_assassin_does_not_leave_by_killing_its_own_chief() -> None:
    around = ("e4", "f4", "d5", "f5", "d6", "e6")
    pieces = {"d4": "green assassin", "e5": "yellow chief", "f6": "red chief", "i1": "blue chief"}
    state = start(pieces, corpses=around, controllers={"green": "red"}, turn_colour="green")
    assert "e5" not in targets(state, "d4")  # f6 holds its own side's Chief: no way out
    pieces["f6"], pieces["a1"] = "blue chief", "red chief"
    del pieces["i1"]
    state = start(pieces, corpses=around, controllers={"green": "red"}, turn_colour="green")
    assert "e5" in targets(state, "d4")  # it would leave by killing the blue Chief
    play(state, "d4-e5")
    assert state.legal_actions(RED) == ["e5-f6"]


# ---- D5 -----------------------------------------------------------------------------------
def reporter_scene(**options: Any) -> DjambiState:
    pieces = {**CORNER_CHIEFS, "a5": "red reporter", "d6": "green militant"}
    pieces |= {"e6": "green assassin", "d4": "red militant"}
    return start(pieces, **options)


def test_d5_reporter_moves_only_to_empty_squares_off_the_centre() -> None:
    state = start({**CORNER_CHIEFS, "c3": "red reporter", "c6": "green militant"})
    assert targets(state, "c3") >= {"c4", "c5", "d4", "f6"}
    assert "c6" not in targets(state, "c3") and "e5" not in targets(state, "c3")
    with pytest.raises(IllegalAction, match="Reporter moves only to empty squares"):
        state.apply(RED, "c3-c6")


def test_d5_reporter_kills_its_only_orthogonal_enemy_at_once() -> None:
    state = reporter_scene()
    play(state, "a5-d5")
    assert at(state, "d6") == "corpse"  # orthogonal enemy: dies where it stands
    assert at(state, "e6") == "green assassin"  # diagonal: spared
    assert at(state, "d4") == "red militant"  # its own side: spared
    assert state.to_move == (GREEN,)


def test_d5_reporter_chooses_among_several_and_kills_the_chief_on_the_centre() -> None:
    pieces = {**CORNER_CHIEFS, "a5": "red reporter", "d6": "green militant"}
    pieces |= {"e5": "green chief", "a9": "green militant"}
    state = start(pieces)
    play(state, "a5-d5")
    assert state.to_move == (RED,) and state.view(RED)["step"] == "kill"
    assert sorted(state.legal_actions(RED)) == ["kill d6", "kill e5"]
    with pytest.raises(IllegalAction, match="scandal"):
        state.apply(RED, "scandal")
    play(state, "kill e5")
    view = state.view(None)
    assert "e5" in view["corpses"] and view["controllers"]["green"] == "red"
    assert view["centre"] is None and at(state, "d6") == "green militant"


def test_d5_a_reporter_relocated_by_a_diplomat_kills_nobody() -> None:
    pieces = {**CORNER_CHIEFS, "b2": "red diplomat", "b5": "green reporter"}
    pieces |= {"d5": "red militant"}
    state = start(pieces)
    play(state, "b2-b5", "place d4")
    assert at(state, "d4") == "green reporter" and at(state, "d5") == "red militant"
    assert state.to_move == (GREEN,)


def test_d5_scandal_kills_every_living_piece_around_its_own_included() -> None:
    state = reporter_scene(reporter="scandal")
    play(state, "a5-d5")
    assert sorted(state.legal_actions(RED)) == ["kill d6", "scandal"]
    play(state, "scandal")
    for square in ("d6", "e6", "d4"):
        assert at(state, square) == "corpse"
    assert state.view(None)["kills"]["red"] == 2  # own pieces are not counted (D12)


def test_d5_scandal_or_pass_when_no_orthogonal_enemy() -> None:
    pieces = {**CORNER_CHIEFS, "a5": "red reporter", "e6": "green militant"}
    state = start(pieces, reporter="scandal")
    play(state, "a5-d5")
    assert sorted(state.legal_actions(RED)) == ["pass", "scandal"]
    play(state, "pass")
    assert at(state, "e6") == "green militant" and state.to_move == (GREEN,)


def test_d5_scandal_killing_ones_own_chief_leaves_vassals() -> None:
    pieces = {**CORNER_CHIEFS, "a1": "red reporter", "d4": "red chief", "c4": "green militant"}
    pieces |= {"f3": "red militant"}
    state = start(pieces, reporter="scandal")
    play(state, "a1-c3", "scandal")
    view = state.view(None)
    assert at(state, "d4") == "corpse" and at(state, "c4") == "corpse"
    assert view["controllers"]["red"] is None and "red" not in view["in_game"]
    assert state.to_move == (GREEN,)


def test_d5_a_scandal_kills_vassals_nobody_controls_and_counts_them() -> None:
    """D5 (amended): the scandal kills "les pièces se trouvant sur les huit cases voisines",
    vassals nobody may otherwise touch (D10) included; D12 counts them as kills (they are
    not of the killer's side)."""
    pieces = {"a1": "red chief", "i9": "yellow chief", "a5": "red reporter"}
    pieces |= {"e6": "green militant", "c4": "blue assassin"}
    state = start(pieces, reporter="scandal")
    assert state.colour_relations(RED)[GREEN] == WALL
    play(state, "a5-d5")
    assert sorted(state.legal_actions(RED)) == ["pass", "scandal"]  # no enemy to kill alone
    before = state.clone()
    play(state, "scandal")
    assert state.events(before, RED, "scandal", None) == [
        "The scandal killed the Assassin of player 3 on c4 and the Militant of player 1 on e6"
    ]
    assert at(state, "e6") == "corpse" and at(state, "c4") == "corpse"
    assert state.view(None)["kills"]["red"] == 2


# ---- D6 -----------------------------------------------------------------------------------
def test_d6_diplomat_relocates_an_enemy_anywhere_empty() -> None:
    state = start({**CORNER_CHIEFS, "b2": "red diplomat", "b6": "green militant"})
    play(state, "b2-b6")
    view = state.view(RED)
    assert view["step"] == "place" and view["in_hand"] == "green militant"
    legal = set(state.legal_actions(RED))
    assert "place b2" in legal and "place e5" not in legal and len(legal) == 81 - 5 - 1
    with pytest.raises(IllegalAction, match="only a Chief may be relocated onto the centre"):
        state.apply(RED, "place e5")
    play(state, "place h5")
    assert at(state, "h5") == "green militant" and at(state, "b6") == "red diplomat"


def test_d6_never_its_own_colour_but_its_sides_other_colours() -> None:
    pieces = {**CORNER_CHIEFS, "b2": "red diplomat", "b4": "red militant"}
    pieces |= {"d4": "green militant", "a9": "yellow militant"}
    state = start(pieces, controllers={"green": "red"})
    assert "b4" not in targets(state, "b2") and "d4" in targets(state, "b2")
    with pytest.raises(IllegalAction, match="never relocates a piece of its own colour"):
        state.apply(RED, "b2-b4")


def test_d6_a_chief_may_be_relocated_onto_the_centre() -> None:
    state = start(
        {**CORNER_CHIEFS, "b2": "red diplomat", "b6": "green chief", "a9": "green militant"}
    )
    play(state, "b2-b6", "place e5")
    assert state.view(None)["centre"] == "green"


def test_d6_diplomat_takes_the_chief_off_the_centre_then_leaves() -> None:
    pieces = {**CORNER_CHIEFS, "b2": "red diplomat", "e5": "green chief", "a9": "green militant"}
    state = start(pieces)
    play(state, "b2-e5")
    assert "place e5" not in state.legal_actions(RED)
    play(state, "place i5")
    assert state.view(RED)["step"] == "exit"
    assert all(a.startswith("e5-") for a in state.legal_actions(RED))
    play(state, "e5-e6")
    assert at(state, "e5") is None and at(state, "i5") == "green chief"
    assert at(state, "e6") == "red diplomat" and state.to_move == (GREEN,)


def test_d6_the_last_way_out_of_the_centre_is_kept() -> None:
    around = ("e4", "f4", "d5", "f5", "d6", "e6", "f6")
    pieces = {**CORNER_CHIEFS, "d4": "red diplomat", "e5": "green chief", "a9": "green militant"}
    state = start(pieces, corpses=around)
    play(state, "d4-e5")
    legal = state.legal_actions(RED)
    assert "place d4" not in legal and "place c3" in legal
    with pytest.raises(IllegalAction, match="last way out of the centre"):
        state.apply(RED, "place d4")
    play(state, "place c3")
    assert state.legal_actions(RED) == ["e5-d4"]


# ---- D7 -----------------------------------------------------------------------------------
def test_d7_necromobile_moves_a_corpse_never_onto_the_centre() -> None:
    state = start(
        {**CORNER_CHIEFS, "c3": "red necromobile", "c7": "green militant"}, corpses=("c6",)
    )
    assert "c6" in targets(state, "c3")
    play(state, "c3-c6")
    assert state.view(RED)["in_hand"] == "corpse"
    assert "corpse e5" not in state.legal_actions(RED)
    play(state, "corpse g4")
    assert at(state, "c6") == "red necromobile" and at(state, "g4") == "corpse"
    with_living = start({**CORNER_CHIEFS, "c3": "red necromobile", "c6": "green militant"})
    assert "c6" not in targets(with_living, "c3")


def test_d7_necromobile_clears_the_centre_then_leaves() -> None:
    state = start({**CORNER_CHIEFS, "c3": "red necromobile"}, corpses=("e5",))
    play(state, "c3-e5", "corpse a5")
    assert state.view(RED)["step"] == "exit"
    play(state, "e5-e6")
    assert at(state, "e5") is None and at(state, "a5") == "corpse"
    assert state.to_move == (GREEN,)


# ---- D8 -----------------------------------------------------------------------------------
HEIRLOOM = {
    **CORNER_CHIEFS,
    "i9": "yellow militant",
    "b1": "red assassin",
    "b7": "green chief",
    "a9": "green militant",
    "i3": "blue militant",
}


def test_d8_the_killer_takes_over_every_colour_of_the_victim() -> None:
    state = start(HEIRLOOM, controllers={"yellow": "green"})
    play(state, "b1-b7")
    view = state.view(None)
    assert view["controllers"] == {"red": "red", "green": "red", "yellow": "red", "blue": "blue"}
    assert view["in_game"] == ["red", "blue"]


def test_d8_book_inherited_colours_keep_their_turns_played_by_the_heir() -> None:
    """D8 (amended), option ``inherited_turns=book``: green and yellow keep their places in
    the turn order; red plays them, each with its own pieces only."""
    state = start(HEIRLOOM, controllers={"yellow": "green"})
    assert state.view(None)["inherited_turns"] == "book"
    play(state, "b1-b7")
    assert state.to_move == (RED,) and state.view(None)["turn_colour"] == "green"
    assert movers(state) == {"green"}
    play(state, "a9-a8")
    assert state.to_move == (RED,) and state.view(None)["turn_colour"] == "yellow"
    assert movers(state) == {"yellow"}
    play(state, "i9-i8")
    assert turn_order(state, 4) == [
        ("blue", "blue"),
        ("red", "red"),
        ("red", "green"),
        ("red", "yellow"),
    ]


def test_d8_book_a_player_moves_only_their_own_colour_in_their_own_turn() -> None:
    state = start(HEIRLOOM, controllers={"yellow": "green"})
    play(state, "b1-b7", "a9-a8", "i9-i8", "i3-i4")
    assert state.to_move == (RED,) and state.view(None)["turn_colour"] == "red"
    assert movers(state) == {"red"}
    with pytest.raises(IllegalAction, match=r"moves on green's turn.*red piece \(D8\)"):
        state.apply(RED, "a8-a7")


def test_d8_book_on_an_inherited_turn_the_heir_may_not_move_their_own_pieces() -> None:
    state = start(HEIRLOOM, controllers={"yellow": "green"})
    play(state, "b1-b7")
    with pytest.raises(IllegalAction, match=r"green's turn, which you play with a green piece"):
        state.apply(RED, "a1-a2")


def test_d8_skip_an_inherited_colour_loses_its_turn() -> None:
    """Option ``inherited_turns=skip``: the victim's turns are gone; the heir moves any
    piece of their side in their own turn."""
    state = start(HEIRLOOM, controllers={"yellow": "green"}, inherited_turns="skip")
    play(state, "b1-b7")
    assert state.to_move == (BLUE,)  # green's and yellow's turns are gone
    play(state, quiet_step(state))
    assert state.to_move == (RED,)
    assert movers(state) == {"red", "green", "yellow"}
    assert turn_order(state, 4) == [("red", "red"), ("blue", "blue")] * 2


def test_d8_book_a_colour_with_no_living_piece_is_skipped() -> None:
    pieces = {**CORNER_CHIEFS, "b1": "red assassin", "b7": "green chief"}
    pieces |= {"g7": "yellow militant", "g3": "blue militant"}
    del pieces["a9"]
    state = start(pieces)
    play(state, "b1-b7")  # green's last piece dies: nothing left to play on its turn
    assert state.view(None)["controllers"]["green"] == "red"
    assert turn_order(state, 3) == [("yellow", "yellow"), ("blue", "blue"), ("red", "red")]


def test_d8_book_an_inherited_colour_that_cannot_move_passes() -> None:
    """D8 with the pass of a turn with no move: on green's turn red has only green pieces
    to move; walled in, they pass."""
    pieces = {**CORNER_CHIEFS, "a9": "green militant", "e1": "yellow chief"}
    del pieces["i9"]
    state = start(
        pieces,
        corpses=("a8", "b8", "b9"),
        controllers={"green": "red"},
        turn_colour="green",
    )
    assert state.legal_actions(RED) == ["pass"]
    assert state.describe(RED, "pass", None) == (
        "player 0 passed the turn of the pieces of player 1: none of them can move"
    )
    play(state, "pass")
    assert state.view(None)["turn_colour"] == "yellow"


def test_d8_the_turn_colour_is_refused_in_skip_mode() -> None:
    pieces = {**CORNER_CHIEFS, "a9": "green militant"}
    with pytest.raises(machiavel.InvalidSetup, match="inherited_turns=skip"):
        start(pieces, controllers={"green": "red"}, turn_colour="green", inherited_turns="skip")


# ---- D9 -----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["book", "skip"])
def test_d9_the_holder_plays_after_every_other_players_turn(mode: str) -> None:
    pieces = {**CORNER_CHIEFS, "a1": "red militant", "e5": "red chief"}
    pieces |= {"a7": "green militant", "i7": "yellow militant", "i3": "blue militant"}
    state = start(pieces, turn="red", inherited_turns=mode)
    order = []
    extras = []
    for _ in range(10):
        order.append(state.to_move[0])
        extras.append(state.view(None)["extra_turn"])
        play(state, quiet_step(state))
    assert order == [RED, GREEN, RED, YELLOW, RED, BLUE, RED, RED, GREEN, RED]
    assert extras == [False, False, True, False, True, False, True, False, False, True]


# Red holds the centre and has inherited green; yellow and blue are still in.
HOLDER_AND_HEIR = {
    **CORNER_CHIEFS,
    "a1": "red militant",
    "e5": "red chief",
    "a9": "green militant",
    "i7": "yellow militant",
    "i3": "blue militant",
}


def test_d9_book_no_extra_turn_after_an_inherited_colour_the_holder_plays() -> None:
    """D9 (amended) with D8 ``book``: green's turn is red's to play, so no extra turn
    follows it; yellow's and blue's turns are each followed by one."""
    state = start(HOLDER_AND_HEIR, controllers={"green": "red"})
    assert turn_order(state, 8) == [
        ("red", "red"),
        ("red", "green"),
        ("yellow", "yellow"),
        ("red", None),
        ("blue", "blue"),
        ("red", None),
        ("red", "red"),
        ("red", "green"),
    ]


def test_d9_skip_extra_turns_follow_the_other_players() -> None:
    state = start(HOLDER_AND_HEIR, controllers={"green": "red"}, inherited_turns="skip")
    assert turn_order(state, 6) == [
        ("red", "red"),
        ("yellow", "yellow"),
        ("red", None),
        ("blue", "blue"),
        ("red", None),
        ("red", "red"),
    ]


def test_d9_in_an_extra_turn_the_holder_moves_any_piece_of_their_side() -> None:
    state = start(HOLDER_AND_HEIR, controllers={"green": "red"})
    assert movers(state) == {"red"}
    play(state, "a1-a2", "a9-a8", "i7-i6")
    view = state.view(None)
    assert view["extra_turn"] and view["turn_colour"] is None and view["turn"] == "red"
    assert movers(state) == {"red", "green"}


def test_d9_no_extra_turns_once_fewer_than_three_players_remain() -> None:
    pieces = {"a1": "red militant", "e5": "red chief", "a9": "green chief", "a7": "green militant"}
    state = start(pieces)
    order = []
    for _ in range(6):
        order.append(state.to_move[0])
        play(state, quiet_step(state))
    assert order == [RED, GREEN] * 3


# ---- D10 ----------------------------------------------------------------------------------
# The book's own case: a Chief in a corner "complètement encerclé par des cadavres". Red
# kills the green militant on a3 and puts the corpse on b9, the last free square around a9.
CORNERED = {"a9": "green chief", "a1": "red chief", "a3": "green militant", "i9": "yellow chief"}


def test_d10_a_chief_walled_in_by_corpses_in_a_corner_dies() -> None:
    """D10 (amended): corpses and the board's edges wall a Chief in, though empty squares
    lie behind the corpses."""
    state = start({**CORNERED, "g5": "green reporter"}, corpses=("a8", "b8"))
    play(state, "a1-a3", "corpse b9")
    view = state.view(None)
    assert at(state, "a9") == "corpse" and view["controllers"]["green"] is None
    assert view["in_game"] == ["red", "yellow"] and state.to_move == (YELLOW,)
    play(state, "i9-i8")
    # D10: while nobody holds the centre, nobody may move, kill or relocate the vassals.
    assert "g5" not in {a.split("-")[0] for a in state.legal_actions(RED)}
    with pytest.raises(IllegalAction, match=r"vassal.*D10"):
        state.apply(RED, "g5-g6")


def test_d10_a_living_necromobile_saves_the_walled_in_chief() -> None:
    state = start({**CORNERED, "g5": "green necromobile"}, corpses=("a8", "b8"))
    play(state, "a1-a3", "corpse b9")
    assert at(state, "a9") == "green chief"


def test_d10_a_chief_touching_an_enemy_is_not_walled_in() -> None:
    state = start({**CORNERED, "a8": "red militant"}, corpses=("b8",))
    play(state, "a1-a3", "corpse b9")
    assert at(state, "a9") == "green chief"


def test_d10_its_own_pieces_with_a_free_square_give_a_way_out() -> None:
    state = start({**CORNERED, "a8": "green militant"}, corpses=("b8", "b7"))
    play(state, "a1-a3", "corpse b9")
    assert at(state, "a9") == "green chief"  # a8 touches the empty a7


def test_d10_a_group_of_its_own_pieces_no_piece_can_leave_dies_with_it() -> None:
    """The book: "seul entouré d'un groupe de pièces de la même couleur que lui, sans
    nécromobile et d'où aucune pièce ne peut sortir"."""
    pieces = {**CORNERED, "a8": "green militant", "b8": "green diplomat", "b9": "green reporter"}
    state = start(pieces, corpses=("a7", "b7", "c7", "c8"))
    play(state, "a1-a3", "corpse c9")
    assert at(state, "a9") == "corpse"
    assert at(state, "a8") == "green militant"  # its pieces live on, as vassals
    assert state.view(None)["controllers"]["green"] is None


def test_d10_untouchable_vassals_are_walls_but_commanded_ones_are_enemies() -> None:
    pieces = {**CORNERED, "a8": "blue militant", "i1": "blue assassin"}
    state = start(pieces, corpses=("b8",))
    assert state.colour_relations(GREEN)[BLUE] == WALL
    play(state, "a1-a3", "corpse b9")
    assert at(state, "a9") == "corpse"  # nobody may touch the blue militant: a wall
    held = {**pieces, "i9": "yellow militant", "e5": "yellow chief"}
    state = start(held, corpses=("b8",))
    assert state.colour_relations(GREEN)[BLUE] == ENEMY
    play(state, "a1-a3", "corpse b9")
    assert at(state, "a9") == "green chief"  # it fights for yellow: green may kill it


def test_d10_the_holder_of_the_centre_commands_the_vassals() -> None:
    pieces = {"e5": "red chief", "i9": "yellow chief", "g5": "green militant"}
    pieces |= {"c7": "blue militant", "a1": "red militant", "g7": "yellow militant"}
    state = start(pieces, controllers={"blue": None})  # green and blue: dead Chiefs
    assert state.view(None)["controllers"]["green"] is None
    assert state.colour_relations(YELLOW)[BLUE] == ENEMY  # they fight for the holder
    # D8 book: each vassal colour keeps its turn, played by the holder with its pieces.
    assert turn_order(state, 4) == [
        ("red", "red"),
        ("red", "green"),
        ("yellow", "yellow"),
        ("red", "blue"),
    ]
    assert state.view(None)["turn_colour"] == "red"
    play(state, "e5-e4")  # leaving the centre ends the command
    assert state.to_move == (YELLOW,)  # the vassal colours nobody controls are skipped
    assert state.colour_relations(RED)[BLUE] == WALL
    assert state.colour_relations(YELLOW)[GREEN] == WALL


def test_d10_skip_the_holder_moves_the_vassals_in_their_own_turn() -> None:
    pieces = {"e5": "red chief", "i9": "yellow chief", "g5": "green militant"}
    pieces |= {"c7": "blue militant"}
    state = start(pieces, controllers={"blue": None}, inherited_turns="skip")
    assert movers(state) == {"red", "green", "blue"}
    play(state, "e5-e4")
    assert state.to_move == (YELLOW,)
    assert state.colour_relations(RED)[BLUE] == WALL


def test_d10_the_walk_goes_through_the_chiefs_own_pieces() -> None:
    pieces = {**CORNERED, "a8": "green militant", "a7": "blue militant", "b7": "blue militant"}
    state = start(pieces, corpses=("b8",))
    play(state, "a1-a3", "corpse b9")
    assert at(state, "a9") == "corpse" and at(state, "a8") == "green militant"


def test_d10_a_surrounded_chief_cannot_be_set_up() -> None:
    with pytest.raises(machiavel.InvalidSetup, match=r"surrounded Chief \(green on a9\).*D10"):
        start(CORNERED, corpses=("a8", "b8", "b9"))


# ---- D11 ----------------------------------------------------------------------------------
def test_d11_the_last_chief_standing_wins() -> None:
    state = start({"a1": "red chief", "b1": "red assassin", "b7": "green chief"})
    play(state, "b1-b7")
    assert state.is_over and state.winners == (RED,)
    assert state.scores == [1.0, 0.0, 0.0, 0.0]
    assert state.view(None)["end"] == "last Chief standing"
    with pytest.raises(IllegalAction, match="over"):
        state.apply(RED, "a1-a2")


def test_d11_quiet_rounds_end_in_a_shared_draw() -> None:
    pieces = {k: v for k, v in CORNER_CHIEFS.items() if not v.startswith("blue")}
    pieces |= {"c3": "red militant", "c7": "green militant", "g7": "yellow militant"}
    state = start(pieces, quiet_rounds=2)
    for _ in range(5):
        play(state, quiet_step(state))
    assert not state.is_over and state.view(None)["quiet_turns"] == 5
    play(state, quiet_step(state))
    assert state.is_over and state.winners == (RED, GREEN, YELLOW)
    assert state.scores == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0])
    assert state.view(None)["end"] == "quiet rounds, shared draw"


def test_d11_quiet_rounds_go_to_the_holder_and_extra_turns_do_not_count() -> None:
    pieces = {**CORNER_CHIEFS, "a1": "red militant", "e5": "red chief"}
    pieces |= {"a7": "green militant", "i7": "yellow militant", "i3": "blue militant"}
    state = start(pieces, quiet_rounds=1)
    for _ in range(5):  # red, green, red (extra), yellow, red (extra)
        play(state, quiet_step(state))
    assert state.view(None)["quiet_turns"] == 3 and not state.is_over
    play(state, quiet_step(state))  # blue: the fourth regular turn
    assert state.is_over and state.winners == (RED,)
    assert state.view(None)["end"] == "quiet rounds, centre held"


@pytest.mark.parametrize(("mode", "turns"), [("book", 3), ("skip", 2)])
def test_d11_a_round_has_a_turn_per_colour_taking_turns(mode: str, turns: int) -> None:
    """D11 with D8: in ``book`` mode red's inherited green takes a turn of each round."""
    pieces = {"a1": "red chief", "c3": "red militant", "a9": "green militant"}
    pieces |= {"i9": "yellow chief", "g7": "yellow militant"}
    state = start(pieces, controllers={"green": "red"}, quiet_rounds=2, inherited_turns=mode)
    assert state.view(None)["quiet_turn_limit"] == 2 * turns
    for _ in range(2 * turns - 1):
        play(state, quiet_step(state))
    assert not state.is_over
    play(state, quiet_step(state))
    assert state.is_over and state.winners == (RED, YELLOW)


def test_d11_a_death_resets_the_quiet_count() -> None:
    pieces = {**CORNER_CHIEFS, "c3": "red militant", "c7": "green militant"}
    pieces |= {"b1": "red assassin", "b8": "green militant"}
    pieces |= {"g7": "yellow militant", "g3": "blue militant"}
    state = start(pieces)
    play(state, "c3-c4")
    for _ in range(3):
        play(state, quiet_step(state))
    assert state.view(None)["quiet_turns"] == 4
    play(state, "b1-b8")
    assert state.view(None)["quiet_turns"] == 0


# ---- D12 ----------------------------------------------------------------------------------
def scandal_of_three(**options: Any) -> DjambiState:
    pieces = {**CORNER_CHIEFS, "a5": "red reporter", "d6": "green militant", "e6": "green assassin"}
    pieces |= {"c4": "green diplomat", "d4": "red militant"}
    state = start(pieces, reporter="scandal", **options)
    play(state, "a5-d5", "scandal")
    return state


def test_d12_every_third_kill_raises_a_dead_piece_in_the_home_corner() -> None:
    state = scandal_of_three(aggressivity=True)
    view = state.view(RED)
    assert view["kills"]["red"] == 3 and view["step"] == "revive" and state.to_move == (RED,)
    legal = set(state.legal_actions(RED))
    home = {"b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}
    assert legal == {f"revive d4 {s}" for s in home}  # only its own corpse, never green's
    play(state, "revive d4 b2")
    assert at(state, "b2") == "red militant" and at(state, "d4") is None
    assert state.to_move == (GREEN,)


def test_d12_next_to_the_corner_when_it_is_full() -> None:
    pieces = {**CORNER_CHIEFS, "a5": "red reporter", "d6": "green militant", "e6": "green assassin"}
    pieces |= {"c4": "green diplomat", "d4": "red militant", "a1": "red militant"}
    pieces |= {"e1": "red chief"}  # D10: on a1 the corpses would wall it in
    block = ("b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    state = start(pieces, corpses=block, reporter="scandal", aggressivity=True)
    play(state, "a5-d5", "scandal")
    squares = {a.split()[2] for a in state.legal_actions(RED)}
    assert squares == {"a4", "b4", "d3", "d2", "d1"}  # c4 and d4 hold corpses


def test_d12_a_revival_follows_the_turn_of_the_third_kill_whichever_colour() -> None:
    """D12 with D8 ``book``: red's third kill, made on green's turn by the green Reporter
    red plays, lets red raise one of its own dead right after that turn."""
    pieces = {**CORNER_CHIEFS, "a9": "green militant", "a5": "green reporter"}
    pieces |= {"d6": "yellow militant", "e6": "yellow assassin", "c4": "blue diplomat"}
    state = start(
        pieces,
        corpses=("h5",),
        controllers={"green": "red"},
        turn_colour="green",
        reporter="scandal",
        aggressivity=True,
    )
    state.board[SQUARE_INDEX["h5"]] = -piece_code(RED, MILITANT)  # a red corpse to raise
    play(state, "a5-d5", "scandal")
    view = state.view(RED)
    assert view["kills"]["red"] == 3 and view["step"] == "revive"
    assert state.to_move == (RED,) and view["turn_colour"] == "green"
    play(state, "revive h5 b2")
    assert at(state, "b2") == "red militant" and state.to_move == (YELLOW,)


def test_d12_no_revival_without_the_option() -> None:
    state = scandal_of_three()
    assert state.view(None)["kills"]["red"] == 3 and state.to_move == (GREEN,)


def test_d12_corpses_look_alike_in_every_view() -> None:
    first = start({**CORNER_CHIEFS}, corpses=("d4",))
    second = first.clone()
    first.board[SQUARE_INDEX["d4"]] = -piece_code(RED, MILITANT)
    second.board[SQUARE_INDEX["d4"]] = -piece_code(GREEN, ASSASSIN)
    assert first._snapshot() != second._snapshot()
    for viewer in (None, RED, GREEN, YELLOW, BLUE):
        assert first.view(viewer) == second.view(viewer)


# ---- turns with no move ---------------------------------------------------------------
# Green's Chief and Reporter are stuck, yet not walled in: the Reporter touches a red piece.
STUCK = {"a1": "red chief", "i7": "red militant", "i9": "green chief", "i8": "green reporter"}
STUCK_CORPSES = ("h9", "h8", "h7")


def test_a_player_who_cannot_move_passes() -> None:
    state = start({**STUCK, "i1": "yellow chief"}, turn="green", corpses=STUCK_CORPSES)
    assert state.legal_actions(GREEN) == ["pass"]
    play(state, "pass")
    assert state.to_move == (YELLOW,)
