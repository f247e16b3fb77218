"""Guildes engine: setup (G1), drafting and placing (G3), counts (G4), the end (G5)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import machiavel
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.guildes.count import count_votes
from machiavel.games.guildes.data import GUILD_COUNT, GUILD_INDEX, GUILD_NAMES
from machiavel.games.guildes.rules import DRAFT, OVER, PLACE, GuildesState

GAME = machiavel.game("guildes")


def new_game(players: int, seed: int) -> GuildesState:
    state = GAME.new(players, seed=seed)
    assert isinstance(state, GuildesState)
    return state


def play_until(state: GuildesState, rng: Rng, reached: Callable[[GuildesState], bool]) -> bool:
    """Random legal actions until ``reached(state)``; False if the game ended first."""
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


def find_state(players: int, reached: Callable[[GuildesState], bool]) -> GuildesState:
    for seed in range(200):
        state = new_game(players, seed)
        if play_until(state, Rng(seed), reached):
            return state
    raise AssertionError("no game reached the wanted moment")


def counts(cards: dict[str, int]) -> list[int]:
    row = [0] * GUILD_COUNT
    for name, number in cards.items():
        row[GUILD_INDEX[name]] = number
    return row


ALCHIMISTES, MILICE = GUILD_INDEX["Alchimistes"], GUILD_INDEX["Milice"]


# ---- G1: setup ---------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "dealt"), [(3, 10), (4, 9), (5, 7), (6, 6)])
def test_each_player_is_dealt_the_books_number_of_cards_g1(players: int, dealt: int) -> None:
    state = new_game(players, seed=players)
    assert [sum(p) for p in state.packets] == [dealt] * players
    assert state.view(0)["hand_sizes"] == [dealt] * players
    assert sum(state.view(0)["hand"].values()) == dealt


def test_three_players_play_without_alchimistes_and_three_milice_g1() -> None:
    for seed in range(30):
        state = new_game(3, seed)
        assert state.card_totals()[ALCHIMISTES] == 0
        assert state.card_totals()[MILICE] == 12
        assert sum(state.card_totals()) == 98
    assert sum(new_game(4, 1).card_totals()) == 110


@pytest.mark.parametrize(
    ("players", "dealt", "played"), [(3, 10, 8), (4, 9, 7), (5, 7, 5), (6, 6, 5)]
)
def test_each_round_places_the_books_number_of_cards_and_discards_the_rest_g1(
    players: int, dealt: int, played: int
) -> None:
    state = new_game(players, seed=11)
    rng = Rng(11)
    for round_number in (1, 2, 3):
        assert play_until(state, rng, counted(round_number))
        assert [sum(t) for t in state.tableau] == [played * round_number] * players
        assert sum(state.discard) == players * (dealt - played) * round_number
    assert state.is_over


def test_new_cards_every_round_and_unplayed_ones_discarded_g1() -> None:
    state = new_game(4, seed=5)
    rng = Rng(5)
    deck_before = len(state.deck)
    assert play_until(state, rng, lambda s: s.round == 1)
    assert len(state.deck) == deck_before - 4 * 9  # round 2 dealt from the remaining deck
    assert sum(state.discard) == 4 * (9 - 7)  # the unplayed cards of round 1
    assert state.view(None)["discard_size"] == 8


# ---- G3: drafting ------------------------------------------------------------------------
def test_drafting_is_simultaneous_and_hidden_g3() -> None:
    state = new_game(4, seed=3)
    assert state.to_move == (0, 1, 2, 3)
    before = {viewer: state.view(viewer) for viewer in (None, 0, 1, 3)}
    choice = state.legal_actions(2)[0]
    state.apply(2, choice)
    assert list(state.to_move) == [0, 1, 3]  # player 2 chose: out until the next step
    assert state.legal_actions(2) == []
    with pytest.raises(machiavel.IllegalAction, match="turn"):
        state.apply(2, choice)
    for viewer in (None, 0, 1, 3):
        after = state.view(viewer)
        assert after["chosen"] == [False, False, True, False]
        changed = {k for k in after if after[k] != before[viewer][k]}
        assert changed == {"chosen", "to_move", "version"}, viewer
    assert state.view(2)["my_choice"] == [choice.removeprefix("keep ")]
    # the others choose in any order
    for player in (3, 0, 1):
        state.apply(player, state.legal_actions(player)[0])
    assert state.to_move == (0, 1, 2, 3)
    assert state.view(2)["kept"] == {choice.removeprefix("keep "): 1}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_hands_pass_in_the_event_cards_direction_g3(players: int) -> None:
    for seed in range(6):
        state = new_game(players, seed)
        hands = [p[:] for p in state.packets]
        picks = [
            GUILD_INDEX[state.legal_actions(p)[-1].removeprefix("keep ")] for p in range(players)
        ]
        for player in range(players):
            state.apply(player, state.legal_actions(player)[-1])
        step = state.direction  # +1: to the left (player + 1), -1: to the right
        for player in range(players):
            passed = hands[player][:]
            passed[picks[player]] -= 1
            assert state.packets[(player + step) % players] == passed
        expected = "left" if step == 1 else "right"
        assert state.view(0)["direction"] == state.view(0)["event"]["direction"] == expected


def test_the_last_card_of_each_hand_is_kept_without_asking_g3() -> None:
    state = new_game(4, seed=8)
    rng = Rng(8)
    for _ in range(8 * 4):  # eight choices each, the ninth card comes by itself
        assert state.phase == DRAFT
        player = state.to_move[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    assert state.phase == PLACE
    assert [sum(k) for k in state.kept] == [9] * 4
    assert len(state.draft_log) == 9


# ---- G3: placing -------------------------------------------------------------------------
def test_placing_is_face_down_then_revealed_together_g3() -> None:
    state = find_state(4, lambda s: s.phase == PLACE)
    tableaux = state.view(None)["tableaux"]
    chosen = {}
    for player in (3, 1, 0):
        chosen[player] = state.legal_actions(player)[0]
        state.apply(player, chosen[player])
        assert state.view(None)["tableaux"] == tableaux  # nothing shown yet
        assert state.view(2)["tableaux"] == tableaux
        assert state.view(2)["kept_sizes"] == [7 + 2] * 4  # a choice does not show either
    chosen[2] = state.legal_actions(2)[0]
    state.apply(2, chosen[2])
    view = state.view(None)
    for player, action in chosen.items():
        guild = action.removeprefix("place ")
        assert view["tableaux"][player] == {guild: 1}
        assert view["last_reveal"][player] == [guild]
    assert view["kept_sizes"] == [8] * 4


def test_describe_hides_simultaneous_choices() -> None:
    state = new_game(3, seed=1)
    action = state.legal_actions(0)[0]
    assert state.describe(0, action, 1) == "player 0 keeps a card"
    assert state.describe(0, action, None) == "player 0 keeps a card"
    guild = action.removeprefix("keep ")
    assert state.describe(0, action, 0) == f"player 0 keeps a {guild} card"
    placing = find_state(3, lambda s: s.phase == PLACE)
    assert placing.describe(1, placing.legal_actions(1)[0], 2) == "player 1 places a card face down"


# ---- G4 / G5: counts, scores, winners ------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_count_is_recorded_and_scores_are_running_totals_g4(players: int) -> None:
    state = new_game(players, seed=40 + players)
    rng = Rng(players)
    totals = [0] * players
    for round_number in (1, 2, 3):
        assert play_until(state, rng, counted(round_number))
        held = state.view(None)["counts"]
        assert len(held) == round_number
        entry = held[-1]
        assert entry["round"] == round_number
        tableaux = [counts(t) for t in entry["tableaux"]]
        assert tableaux == state.tableau  # without Coup Tordu, counted as they lie
        assert entry["votes"] == count_votes(round_number - 1, tableaux)
        # what each guild gave, as the count panel shows it (G4)
        assert [sum(won.values()) for won in entry["guild_votes"]] == entry["votes"]
        assert [set(won) for won in entry["guild_votes"]] == [set(t) for t in entry["tableaux"]]
        totals = [t + v for t, v in zip(totals, entry["votes"], strict=True)]
        assert state.scores == totals
        assert state.view(1)["counts"] == held  # public
    assert state.phase == OVER and state.is_over


def test_the_highest_total_wins_and_a_tie_shares_the_win_g5() -> None:
    state = new_game(3, seed=2)
    play_until(state, Rng(2), lambda s: s.is_over)
    best = max(state.scores)
    assert state.winners == tuple(p for p, s in enumerate(state.scores) if s == best)
    state.scores_ = [40, 52, 52]
    assert state.winners == (1, 2)
    state.scores_ = [60, 52, 52]
    assert list(state.winners) == [0]


def test_no_winner_before_the_end() -> None:
    state = new_game(4, seed=9)
    play_until(state, Rng(9), lambda s: s.round == 2 and s.phase == PLACE)
    assert state.winners == () and not state.is_over


# ---- actions -----------------------------------------------------------------------------
def test_guild_names_are_accepted_without_accents_and_in_any_case() -> None:
    state = new_game(4, seed=3)
    hand = state.packets[0]
    guild = next(g for g in range(len(hand)) if hand[g])
    name = GUILD_NAMES[guild]
    plain = name.replace("ê", "e").replace("É", "E")
    for spelling in (plain.upper(), f"  {plain.lower()} ", name.lower(), plain.rstrip("s")):
        assert state.normalize_action(f"KEEP {spelling}") == f"keep {name}"
    state.apply(0, f"Keep   {plain.lower()}")
    assert state.history[-1] == (0, f"keep {name}")


def test_pecheurs_erudits_pretres_without_accents() -> None:
    state = new_game(4, seed=3)
    assert state.normalize_action("keep pecheurs") == "keep Pêcheurs"
    assert state.normalize_action("keep ERUDITS") == "keep Érudits"
    assert state.normalize_action("place pretres alchimistes") == "place Prêtres Alchimistes"
    assert state.normalize_action("place alchimistes pretres") == "place Prêtres Alchimistes"
    assert state.normalize_action("swap 3 nobles 1 milice") == "swap 1 Milice 3 Nobles"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("keep Dragons", "'Dragons' is not a guild"),
        ("jump", "not an action of Guildes"),
        ("keep", "malformed"),
        ("place Milice", "now is the drafting"),
    ],
)
def test_refusals_say_what_is_wrong(action: str, message: str) -> None:
    state = new_game(4, seed=3)
    with pytest.raises(machiavel.IllegalAction, match=message):
        state.apply(0, action)


def test_keeping_a_card_not_in_hand_is_refused_with_the_hand_listed() -> None:
    state = new_game(4, seed=3)
    missing = next(g for g in range(9) if not state.packets[0][g])
    with pytest.raises(machiavel.IllegalAction, match=r"has no \w+ \(it holds"):
        state.apply(0, f"keep {GUILD_NAMES[missing]}")


def test_placing_a_card_not_kept_is_refused_naming_it() -> None:
    state = find_state(4, lambda s: s.phase == PLACE)
    missing = next(g for g in range(9) if not state.kept[0][g])
    with pytest.raises(machiavel.IllegalAction, match=f"do not hold any {GUILD_NAMES[missing]}"):
        state.apply(0, f"place {GUILD_NAMES[missing]}")
