"""The two variants: event cards (G6) and Coup Tordu cards (G7), every card tested."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import machiavel
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.guildes.actions import parse
from machiavel.games.guildes.count import count_votes
from machiavel.games.guildes.data import (
    EVENT_IDS,
    GUILD_COUNT,
    GUILD_INDEX,
    GUILD_NAMES,
    PLAYED,
    TEN_OR_MORE,
    TRICK_GUILD,
    TRICK_LETTERS,
)
from machiavel.games.guildes.rules import DRAFT, PLACE, REDISTRIBUTE, TRICKS, GuildesState

GAME = machiavel.game("guildes")
LETTER = {letter: index for index, letter in enumerate(TRICK_LETTERS)}


def new_game(players: int, seed: int, events: bool, tricks: bool) -> GuildesState:
    state = GAME.new(players, seed=seed, options={"events": events, "dirty_tricks": tricks})
    assert isinstance(state, GuildesState)
    return state


def play_until(state: GuildesState, rng: Rng, reached: Callable[[GuildesState], bool]) -> bool:
    while not reached(state):
        if state.is_over:
            return False
        random_step(state, rng)
    return True


def counted(rounds: int) -> Callable[[GuildesState], bool]:
    """Reached once ``rounds`` counts have been held."""
    return lambda state: len(state.counts_log) == rounds


def in_round(round_index: int) -> Callable[[GuildesState], bool]:
    return lambda state: state.round == round_index


def find_state(
    players: int, reached: Callable[[GuildesState], bool], events: bool, tricks: bool
) -> GuildesState:
    for seed in range(600):
        state = new_game(players, seed, events, tricks)
        if play_until(state, Rng(seed), reached):
            return state
    raise AssertionError("no game reached the wanted moment")


def with_event(players: int, event: str, seed_from: int = 0) -> GuildesState:
    """A game whose first round has the event card ``event`` (events in effect)."""
    for seed in range(seed_from, seed_from + 500):
        state = new_game(players, seed, events=True, tricks=False)
        if EVENT_IDS[state.event] == event:
            return state
    raise AssertionError(f"no seed gives {event} first")


def counts(cards: dict[str, int]) -> list[int]:
    row = [0] * GUILD_COUNT
    for name, number in cards.items():
        row[GUILD_INDEX[name]] = number
    return row


def place_all_at_once(state: GuildesState, rng: Rng) -> None:
    """One simultaneous placing step: every player chooses at random."""
    for player in state.to_move:
        state.apply(player, rng.choice(state.legal_actions(player)))


# ---- G6: events ------------------------------------------------------------------------
def test_without_the_option_an_event_only_gives_the_direction_g6() -> None:
    for seed in range(40):
        state = new_game(4, seed, events=False, tricks=False)
        view = state.view(None)
        assert view["event"]["in_effect"] is False
        assert state.place_total == PLAYED[4]  # even under "On pose 1 carte de moins"
        assert play_until(state, Rng(seed), lambda s: s.phase == PLACE)
        assert state.to_move == (0, 1, 2, 3)  # even under "Plus de pose simultanée"


def test_a_new_event_card_each_round_never_the_same_g6() -> None:
    state = new_game(5, 3, events=True, tricks=False)
    seen = [state.event]
    for round_index in (1, 2):
        assert play_until(state, Rng(3), in_round(round_index))
        seen.append(state.event)
        assert state.view(None)["past_events"] == [EVENT_IDS[e] for e in seen[:-1]]
    assert len(set(seen)) == 3


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_one_card_less_is_placed_g6(players: int) -> None:
    state = with_event(players, "one_less")
    assert state.place_total == PLAYED[players] - 1
    assert play_until(state, Rng(1), lambda s: len(s.counts_log) == 1)
    assert [sum(t) for t in state.tableau] == [PLAYED[players] - 1] * players


def test_tied_players_do_not_count_g6() -> None:
    differs = 0
    for start in range(0, 300, 50):
        state = with_event(4, "ties_ignored", start)
        assert play_until(state, Rng(start), lambda s: len(s.counts_log) == 1)
        entry = state.view(None)["counts"][0]
        tableaux = [counts(t) for t in entry["tableaux"]]
        assert entry["votes"] == count_votes(0, tableaux, ignore_ties=True)
        differs += entry["votes"] != count_votes(0, tableaux)
    assert differs  # some of these games had a tie that the event removed


def test_no_simultaneous_placing_each_in_turn_to_the_right_g6() -> None:
    state = with_event(4, "in_turn")
    rng = Rng(4)
    assert play_until(state, rng, lambda s: s.phase == PLACE)
    first = state.seq_first
    assert state.view(0)["placing"]["in_turn_first"] == first
    for go_round in range(2):
        for offset in range(4):
            player = (first - go_round - offset) % 4  # to the right: player - 1
            assert state.to_move == (player,)
            before = sum(state.tableau[player])
            state.apply(player, state.legal_actions(player)[0])
            assert sum(state.tableau[player]) == before + 1  # shown at once
    assert state.seq_first == (first - 2) % 4  # the first player moved right twice


def test_redistribution_shuffles_one_card_from_each_player_g6() -> None:
    state = with_event(5, "redistribution")
    rng = Rng(5)
    assert play_until(state, rng, lambda s: s.phase != DRAFT)
    assert state.phase == REDISTRIBUTE and state.to_move == (0, 1, 2, 3, 4)
    kept_before = [k[:] for k in state.kept]
    state.apply(2, state.legal_actions(2)[0])
    assert state.view(0)["chosen"] == [False, False, True, False, False]
    assert state.view(0)["kept_sizes"] == [7] * 5  # the choice does not show
    for player in state.to_move:
        state.apply(player, state.legal_actions(player)[-1])
    assert state.phase == PLACE
    gave, got = sorted(state.red_out), sorted(state.red_in)
    assert gave == got and min(gave) >= 0
    for player in range(5):
        expected = kept_before[player][:]
        expected[state.red_out[player]] -= 1
        expected[state.red_in[player]] += 1
        assert state.kept[player] == expected
        own = state.view(player)["redistribution"]
        assert GUILD_INDEX[own["gave"]] == state.red_out[player]
        assert GUILD_INDEX[own["received"]] == state.red_in[player]
    assert "redistribution" not in state.view(None)


@pytest.mark.parametrize(
    ("players", "batches"),
    [(3, [2, 1, 2, 1, 2]), (4, [1, 2, 1, 2, 1]), (5, [2, 1, 2]), (6, [2, 1, 2])],
)
def test_one_or_two_cards_at_a_time_g6(players: int, batches: list[int]) -> None:
    state = with_event(players, "one_or_two")
    rng = Rng(players)
    assert play_until(state, rng, lambda s: s.phase == PLACE)
    seen = []
    while state.phase == PLACE and len(state.counts_log) == 0:
        seen.append(state.batch)
        assert state.view(0)["placing"]["cards_this_step"] == state.batch
        for action in state.legal_actions(0):
            assert len(parse(action)[1]) == state.batch
        place_all_at_once(state, rng)
    assert seen == batches
    assert sum(batches) == PLAYED[players]


def test_two_cards_of_a_guild_need_two_in_hand_g6() -> None:
    state = find_state(4, lambda s: s.phase == PLACE and s.batch == 2, events=True, tricks=False)
    for player in range(4):
        for action in state.legal_actions(player):
            a, b = parse(action)[1]
            assert state.kept[player][a] >= 1 + (a == b) and state.kept[player][b] >= 1


def test_face_down_cards_are_revealed_one_step_late_g6() -> None:
    state = with_event(4, "face_down")
    rng = Rng(6)
    assert play_until(state, rng, lambda s: s.phase == PLACE)
    place_all_at_once(state, rng)
    assert state.view(None)["tableaux"] == [{}] * 4  # the first cards stay face down
    assert state.view(None)["face_down"] == [1] * 4
    mine = state.view(1)["my_face_down"]
    assert len(mine) == 1
    place_all_at_once(state, rng)
    view = state.view(1)
    assert [sum(t.values()) for t in view["tableaux"]] == [1] * 4
    assert view["tableaux"][1] == {mine[0]: 1}  # the first card is now shown
    while state.place_done < state.place_total - 1:
        place_all_at_once(state, rng)
    place_all_at_once(state, rng)  # the last card is shown with the one before
    entry = state.view(None)["counts"][0]
    assert [sum(t.values()) for t in entry["tableaux"]] == [PLAYED[4]] * 4
    assert state.view(None)["face_down"] == [0] * 4


# ---- G7: Coup Tordu --------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_coup_tordu_cards_are_dealt_face_up_one_each_g7(players: int) -> None:
    for seed in range(30):
        state = new_game(players, seed, events=False, tricks=True)
        rng = Rng(seed)
        previous = [-1] * players
        for round_index in range(3):
            assert play_until(state, rng, in_round(round_index))
            cards = state.tricks
            assert len(set(cards)) == players
            if players == 3:
                assert LETTER["I"] not in cards  # not used with 3 players
            for player in range(players):
                assert cards[player] != previous[player]  # never twice running
            for viewer in (None, *range(players)):
                shown = state.view(viewer)["dirty_tricks"]["cards"]
                assert shown == [TRICK_LETTERS[c] for c in cards]
            previous = cards[:]


def test_coup_tordu_cards_are_played_in_letter_order_after_placing_g7() -> None:
    for seed in range(20):
        state = new_game(5, seed, events=False, tricks=True)
        play_until(state, Rng(seed), lambda s: s.is_over)
        for round_number in (1, 2, 3):
            letters = [e["card"] for e in state.trick_log if e["round"] == round_number]
            assert letters == sorted(letters)
            assert "A" not in letters  # Protection has nothing to decide


def test_unplayed_cards_wait_for_their_owners_turn_g7() -> None:
    state = find_state(4, lambda s: s.phase == TRICKS, events=False, tricks=True)
    holder = state.to_move[0]
    waiting = [p for p in range(4) if state.tricks[p] > state.trick_letter]
    assert all(sum(state.kept[p]) == 2 for p in waiting)  # 9 kept, 7 placed
    state.apply(holder, "pass")
    assert sum(state.kept[holder]) == 0  # discarded once the card was played or not


def test_protection_keeps_every_other_card_away_g7() -> None:
    found = 0
    for seed in range(60):
        state = new_game(4, seed, events=False, tricks=True)
        rng = Rng(seed)
        while play_until(state, rng, lambda s: s.phase == TRICKS):
            shielded = state.holder(LETTER["A"])
            shown = state.view(0)["dirty_tricks"]["protected"]
            assert shown == (shielded if shielded >= 0 else None)
            for action in state.legal_actions(state.to_move[0]):
                verb, numbers = parse(action)
                targets = {
                    "swap": [numbers[0], numbers[2]] if verb == "swap" else [],
                    "sacrifice": numbers[1:2],
                    "plus": numbers,
                    "minus": numbers,
                }
                assert shielded not in targets.get(verb, [])
                found += 1
            random_step(state, rng)
    assert found


def at_turn(letter: str, verb: str, players: int = 4) -> GuildesState:
    index = LETTER[letter]

    def reached(s: GuildesState) -> bool:
        return (
            s.phase == TRICKS
            and s.trick_letter == index
            and not s.drawn
            and any(a.startswith(verb) for a in s.legal_actions(s.to_move[0]))
        )

    return find_state(players, reached, events=False, tricks=True)


def test_b_swaps_one_card_between_two_tableaux_g7() -> None:
    state = at_turn("B", "swap")
    holder = state.to_move[0]
    action = next(a for a in state.legal_actions(holder) if a.startswith("swap"))
    a, ga, b, gb = parse(action)[1]
    before = [t[:] for t in state.tableau]
    state.apply(holder, action)
    assert state.tableau[a][ga] == before[a][ga] - 1 and state.tableau[b][ga] == before[b][ga] + 1
    assert state.tableau[b][gb] == before[b][gb] - 1 and state.tableau[a][gb] == before[a][gb] + 1
    assert [sum(t) for t in state.tableau] == [sum(t) for t in before]


def test_b_may_involve_the_holder_g7() -> None:
    state = at_turn("B", "swap")
    holder = state.to_move[0]
    assert any(
        holder in (parse(a)[1][0], parse(a)[1][2])
        for a in state.legal_actions(holder)
        if a.startswith("swap")
    )


def test_c_sacrifices_a_ten_or_more_card_to_discard_any_card_g7() -> None:
    state = at_turn("C", "sacrifice")
    holder = state.to_move[0]
    actions = [a for a in state.legal_actions(holder) if a.startswith("sacrifice")]
    assert all(parse(a)[1][0] in TEN_OR_MORE for a in actions)
    own, target, guild = parse(actions[-1])[1]
    before = [t[:] for t in state.tableau]
    discard = sum(state.discard)
    kept = sum(state.kept[holder])
    state.apply(holder, actions[-1])
    assert state.tableau[holder][own] == before[holder][own] - 1 - (
        target == holder and guild == own
    )
    assert state.tableau[target][guild] == before[target][guild] - 1 - (
        target == holder and guild == own
    )
    assert sum(state.discard) == discard + 2 + kept  # both cards, then the unplayed hand


def test_d_draws_two_from_the_discard_places_one_g7() -> None:
    state = at_turn("D", "draw")
    holder = state.to_move[0]
    other = (holder + 1) % 4
    discard = sum(state.discard)
    state.apply(holder, "draw")
    assert state.to_move == (holder,) and len(state.drawn) == 2
    assert sorted(GUILD_INDEX[n] for n in state.view(holder)["drawn"]) == sorted(state.drawn)
    assert "drawn" not in state.view(other) and "drawn" not in state.view(None)
    assert state.describe(holder, "draw", other) == (
        f"player {holder} draws 2 cards from the discard pile (Coup Tordu D)"
    )
    drawn = state.drawn[:]
    choice = state.legal_actions(holder)
    assert choice == sorted(
        {f"place {name}" for name in state.view(holder)["drawn"]}, key=lambda a: GUILD_INDEX[a[6:]]
    )
    tableau = state.tableau[holder][:]
    kept = sum(state.kept[holder])
    state.apply(holder, choice[0])
    placed = GUILD_INDEX[choice[0].removeprefix("place ")]
    assert state.tableau[holder][placed] == tableau[placed] + 1
    drawn.remove(placed)
    assert sum(state.discard) == discard - 1 + kept  # the other card went back
    assert state.d_record == [holder, placed, drawn[0]]


def test_e_exchanges_a_hand_card_with_a_placed_card_g7() -> None:
    state = at_turn("E", "exchange")
    holder = state.to_move[0]
    action = next(a for a in state.legal_actions(holder) if a.startswith("exchange"))
    back, out = parse(action)[1]
    tableau = state.tableau[holder][:]
    hand = state.kept[holder][:]
    discard = state.discard[:]
    state.apply(holder, action)
    assert state.tableau[holder][back] == tableau[back] - 1
    assert state.tableau[holder][out] == tableau[out] + 1
    hand[back] += 1
    hand[out] -= 1
    assert state.discard == [d + h for d, h in zip(discard, hand, strict=True)]


@pytest.mark.parametrize("letter", ["F", "G", "H", "I"])
@pytest.mark.parametrize(("verb", "delta"), [("plus", 1), ("minus", -1)])
def test_f_to_i_add_or_remove_one_card_for_the_count_only_g7(
    letter: str, verb: str, delta: int
) -> None:
    guild = TRICK_GUILD[LETTER[letter]]
    state = at_turn(letter, verb)
    holder = state.to_move[0]
    action = next(a for a in state.legal_actions(holder) if a.startswith(verb))
    target = parse(action)[1][0]
    rounds = len(state.counts_log)
    state.apply(holder, action)
    entry = state.view(None)["dirty_tricks"]["log"][-1]
    assert (entry["player"], entry["card"], entry["action"]) == (holder, letter, action)
    if state.phase == TRICKS:  # else the count came at once: this was the last card
        modifier = state.view(None)["dirty_tricks"]["modifiers"][-1]
        assert (modifier["player"], modifier["card"], modifier["delta"]) == (target, letter, delta)
    tableau = [t[:] for t in state.tableau]
    while len(state.counts_log) == rounds:  # the later cards pass, then the count
        state.apply(state.to_move[0], "pass")
    counted = counts(state.counts_log[-1]["tableaux"][target])[guild]
    assert counted == max(0, tableau[target][guild] + delta)
    assert state.tableau == tableau  # a virtual card: gone after the count
    assert state.modifiers == []


def test_pass_declines_a_card_g7() -> None:
    state = at_turn("F", "plus")
    holder = state.to_move[0]
    tableaux = [t[:] for t in state.tableau]
    state.apply(holder, "pass")
    assert state.tableau == tableaux and state.modifiers == []


def test_refusals_in_the_coup_tordu_phase_say_why_g7() -> None:
    def reached(s: GuildesState) -> bool:
        chevaliers = TRICK_GUILD[LETTER["F"]]
        return (
            s.phase == TRICKS
            and s.trick_letter == LETTER["F"]
            and s.protected() >= 0
            and any(s.tableau[p][chevaliers] == 0 for p in s.targets())
        )

    state = find_state(4, reached, events=False, tricks=True)
    holder = state.to_move[0]
    with pytest.raises(machiavel.IllegalAction, match=r"holds Protection \(A\)"):
        state.apply(holder, f"plus {state.protected()}")
    with pytest.raises(machiavel.IllegalAction, match="no player 9"):
        state.apply(holder, "minus 9")
    with pytest.raises(machiavel.IllegalAction, match="your Coup Tordu card is F"):
        state.apply(holder, "draw")
    bare = next(p for p in state.targets() if state.tableau[p][TRICK_GUILD[LETTER["F"]]] == 0)
    with pytest.raises(machiavel.IllegalAction, match="has no Chevaliers"):
        state.apply(holder, f"minus {bare}")


# ---- the log in words, in English and French ---------------------------------------------
def action_kind(state: GuildesState, action: str) -> str:
    """The kinds of action the log tells apart."""
    verb = action.split()[0]
    if state.phase == PLACE:
        return "place in turn" if state.seq_first >= 0 else f"place {state.batch} face down"
    if state.phase == TRICKS and verb == "place":
        return "place a drawn card"
    return verb


KINDS = {
    "keep",
    "discard",
    "place 1 face down",
    "place 2 face down",
    "place in turn",
    "pass",
    "draw",
    "place a drawn card",
    "swap",
    "sacrifice",
    "exchange",
    "plus",
    "minus",
}


def test_every_kind_of_action_has_a_french_line_g3_g7() -> None:
    """French lines for every kind of action, other than the English, for every viewer; a
    choice made face down names its cards to its author only, in both languages."""
    seen: dict[str, str] = {}
    for seed in range(400):
        state = new_game(4, seed, events=True, tricks=True)
        rng = Rng(seed)
        while not state.is_over and not set(seen) >= KINDS:
            player = rng.choice(list(state.to_move))
            action = rng.choice(state.legal_actions(player))
            kind = action_kind(state, action)
            if kind not in seen:
                seen[kind] = action
                face_down = state.phase in (DRAFT, REDISTRIBUTE) or kind.endswith("face down")
                for viewer in (None, 0, 1, 2, 3):
                    english = state.describe(player, action, viewer)
                    french = state.describe(player, action, viewer, "fr")
                    assert french != english and french.startswith(f"joueur {player} ")
                    assert "player" not in french and "card" not in french
                    named = {GUILD_NAMES[g] for g in parse(action)[1] if kind in GUILDS_NAMED}
                    shown = viewer == player or not face_down
                    assert all((name in french) == shown for name in named), (kind, french)
            state.apply(player, action)
        if set(seen) >= KINDS:
            break
    assert set(seen) == KINDS


GUILDS_NAMED = {  # kinds whose numbers are all guilds
    "keep",
    "discard",
    "place 1 face down",
    "place 2 face down",
    "place in turn",
    "place a drawn card",
    "exchange",
}


def test_french_lines_read_like_the_rule_book_g3_g7() -> None:
    state = new_game(4, 1, events=False, tricks=False)
    action = state.legal_actions(0)[0]
    guild = action.removeprefix("keep ")
    assert state.describe(0, action, 0, "fr") == f"joueur 0 garde une carte {guild}"
    assert state.describe(0, action, 1, "fr") == "joueur 0 garde une carte"
    placing = find_state(4, lambda s: s.phase == PLACE, events=False, tricks=False)
    action = placing.legal_actions(1)[0]
    assert placing.describe(1, action, 2, "fr") == "joueur 1 pose une carte face cachée"
    guild = action.removeprefix("place ")
    assert placing.describe(1, action, 1, "fr") == f"joueur 1 pose une carte {guild} face cachée"
    state = at_turn("F", "plus")
    holder = state.to_move[0]
    target = next(p for p in range(4) if p != holder and f"plus {p}" in state.legal_actions(holder))
    assert state.describe(holder, f"plus {target}", None, "fr") == (
        f"joueur {holder} joue +1 Chevaliers sur le tableau du joueur {target} (Coup Tordu F)"
    )
    assert state.describe(holder, "pass", None, "fr") == (
        f"joueur {holder} n'applique pas sa carte Coup Tordu F"
    )
