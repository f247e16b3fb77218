"""Tyrus rules, ruling by ruling (T1-T9 of shared/rules/RULINGS.md), and the book's examples."""

from __future__ import annotations

from collections import Counter

import pytest

import machiavel
from machiavel.core.playout import random_playout
from machiavel.core.rng import Rng
from machiavel.games.tyrus.rules import (
    BUILDINGS,
    TILES,
    TyrusState,
    building_index,
    decide_winners,
    election_score,
)
from support.tyrus import rig

GAME = machiavel.game("tyrus")


def new_state(seed: int = 1, **options: object) -> TyrusState:
    state = GAME.new(2, seed=seed, options=options)
    assert isinstance(state, TyrusState)
    return state


def tile_places(state: TyrusState, player: int) -> Counter[str]:
    places: Counter[str] = Counter(state.hands[player] + state.reserves[player])
    places.update(state.discards[player])
    places.update(t for b in state.buildings for owner, t in b if owner == player)
    return places


# ---- T1 -------------------------------------------------------------------------------
def test_t1_thirty_tiles_each_and_six_buildings() -> None:
    state = new_state()
    assert len(TILES) == 30 and {t[0] for t in TILES} == {"S", "M", "P"}
    assert sorted(int(t[1:]) for t in TILES if t[0] == "S") == list(range(1, 11))
    for player in (0, 1):
        assert tile_places(state, player) == Counter(TILES)
    view = state.view(0)
    assert [(b["owner"], b["kind"]) for b in view["buildings"]] == [
        (owner, kind) for owner in (0, 1) for kind in ("citadel", "market", "temple")
    ]


# ---- T2 -------------------------------------------------------------------------------
def test_t2_nine_tiles_each_and_a_random_first_player() -> None:
    firsts = set()
    for seed in range(40):
        state = new_state(seed)
        assert [len(h) for h in state.hands] == [9, 9]
        assert [len(r) for r in state.reserves] == [21, 21]
        firsts.add(state.first_player)
        assert state.to_move == (state.first_player,)
    assert firsts == {0, 1}


def test_t2_first_player_starts_odd_elections_the_other_even_ones() -> None:
    state = new_state(5)
    starters = {}
    rng = Rng(9)
    while not state.is_over:
        if state.placed == 0:
            starters[state.election] = state.to_move[0]
        state.apply(state.to_move[0], rng.choice(state.legal_actions(state.to_move[0])))
    for election, starter in starters.items():
        expected = state.first_player if election % 2 == 1 else 1 - state.first_player
        assert starter == expected


# ---- T3 -------------------------------------------------------------------------------
def test_t3_nine_election_cards_three_of_each_and_public_counts() -> None:
    state = new_state(3)
    everything = Counter(state.deck + state.turned)
    assert everything == Counter({"citadel": 3, "market": 3, "temple": 3})
    view = state.view(1)
    assert sum(view["cards_remaining"].values()) == 8
    assert view["cards_turned"] == state.turned
    orders = {tuple(new_state(seed).deck + new_state(seed).turned) for seed in range(20)}
    assert len(orders) > 1, "the deck is shuffled"


# ---- T4 -------------------------------------------------------------------------------
def test_t4_players_alternate_three_tiles_each_anywhere_without_limit() -> None:
    state = new_state(8)
    first = state.to_move[0]
    movers = []
    for _ in range(6):
        player = state.to_move[0]
        movers.append(player)
        tile = state.hands[player][0]
        state.apply(player, f"{tile} rival-temple" if player == first else f"{tile} citadel")
    assert movers == [first, 1 - first] * 3
    assert state.election == 2 and state.placed == 0


def test_t4_all_three_tiles_may_go_in_one_building_and_never_move() -> None:
    state = new_state(4)
    kind = state.election_kind
    other = next(k for k in ("citadel", "market", "temple") if k != kind)
    first = state.to_move[0]
    placed = []
    for _ in range(3):
        tile = state.hands[first][0]
        placed.append(tile)
        state.apply(first, f"{tile} {other}")
        state.apply(state.to_move[0], f"{state.hands[state.to_move[0]][0]} rival-{other}")
    building = state.buildings[building_index(first, other)]
    assert [t for owner, t in building if owner == first] == placed
    assert len(building) == 6, "tiles outside the election's buildings stay"


def test_t4_legal_actions_are_every_tile_in_hand_times_six_buildings() -> None:
    state = new_state(2)
    player = state.to_move[0]
    legal = state.legal_actions(player)
    assert len(legal) == 9 * 6
    assert {a.split()[1] for a in legal} == set(BUILDINGS)
    assert {a.split()[0] for a in legal} == set(state.hands[player])


# ---- T5 -------------------------------------------------------------------------------
def test_t5_seed_example_brown_11_beige_10() -> None:
    brown, beige = 0, 1
    in_brown = [(brown, "S10"), (brown, "S8"), (beige, "M7")]
    in_beige = [(beige, "S7"), (beige, "S5"), (brown, "M8"), (beige, "P6")]
    assert election_score(brown, "citadel", in_brown) == 11
    assert election_score(beige, "citadel", in_beige) == 10


def test_t5_seed_example_played_through_the_engine() -> None:
    state = new_state(1)
    brown = state.to_move[0]
    beige = 1 - brown
    rig(
        state,
        "citadel",
        {brown: ["S10", "S8", "M8"], beige: ["S7", "S5", "M7"]},
        {(beige, "citadel"): [(beige, "P6")]},
    )
    for brown_move, beige_move in [
        ("S10 citadel", "S7 citadel"),
        ("S8 citadel", "M7 rival-citadel"),
        ("M8 rival-citadel", "S5 citadel"),
    ]:
        state.apply(brown, brown_move)
        state.apply(beige, beige_move)
    tally = state.tallies[-1]
    assert tally["scores"][brown] == 11 and tally["scores"][beige] == 10
    assert tally["winner"] == brown


def test_t5_market_example_with_the_misprints_corrected() -> None:
    brown, beige = 0, 1
    in_beige = [(beige, "M10"), (brown, "P1"), (beige, "M9"), (beige, "M8")]
    in_brown = [(brown, "M2"), (brown, "M1")]
    assert election_score(beige, "market", in_beige) == 26
    assert election_score(brown, "market", in_brown) == 3


def test_t5_market_example_played_through_the_engine() -> None:
    state = new_state(6)
    beige = state.to_move[0]  # Beige begins this election
    brown = 1 - beige
    hands = {beige: ["M8", "M9", "M10"], brown: ["M1", "P1", "P8"]}
    rig(state, "market", hands, {(brown, "market"): [(brown, "M2")]})
    for player, action in [
        (beige, "M10 market"),
        (brown, "M1 market"),
        (beige, "M9 market"),
        (brown, "P1 rival-market"),
        (beige, "M8 market"),
        (brown, "P8 temple"),
    ]:
        state.apply(player, action)
    tally = state.tallies[-1]
    assert tally["scores"][beige] == 26 and tally["scores"][brown] == 3
    assert tally["winner"] == beige
    assert state.buildings[building_index(brown, "temple")] == [(brown, "P8")]


@pytest.mark.parametrize(
    ("placed", "expected"),
    [
        ([(1, "P9"), (1, "M9"), (0, "P3")], 3),  # opponent's non-blockers have no effect
        ([(0, "P3"), (0, "M5"), (0, "S5")], 3),  # own other tiles have no effect
        ([(0, "P3"), (1, "S5")], 0),  # blocked below zero counts as zero
        ([(0, "P3"), (1, "S5"), (0, "M9")], 3),  # counters beyond the blocks change nothing
        ([(0, "P7"), (1, "S5"), (0, "M2")], 4),  # partly countered block
    ],
)
def test_t5_nothing_else_counts(placed: list[tuple[int, str]], expected: int) -> None:
    assert election_score(0, "temple", placed) == expected


@pytest.mark.parametrize(
    ("kind", "own_tiles", "expected"),
    [
        ("citadel", ["S7", "M4"], 7),  # merchants block soldiers, but not their owner's
        ("market", ["M7", "P4"], 7),  # priests block merchants
        ("temple", ["P7", "S4"], 7),  # soldiers block priests
    ],
)
def test_t5_own_tiles_of_the_blocking_profession_do_not_block(
    kind: str, own_tiles: list[str], expected: int
) -> None:
    """T5: blocks are the opponent's tiles only."""
    assert election_score(0, kind, [(0, tile) for tile in own_tiles]) == expected
    assert election_score(1, kind, [(1, tile) for tile in own_tiles]) == expected


def test_t5_own_merchants_in_ones_citadel_played_through_the_engine() -> None:
    state = new_state(2)
    first = state.to_move[0]
    second = 1 - first
    rig(state, "citadel", {first: ["S9", "M8", "P1"], second: ["S6", "M1", "P2"]})
    for first_move, second_move in [
        ("S9 citadel", "S6 citadel"),
        ("M8 citadel", "M1 market"),  # merchants in their owner's citadel
        ("P1 temple", "P2 temple"),
    ]:
        state.apply(first, first_move)
        state.apply(second, second_move)
    tally = state.tallies[-1]
    assert tally["scores"][first] == 9 and tally["scores"][second] == 6
    assert tally["winner"] == first


# ---- T6 -------------------------------------------------------------------------------
def test_t6_equal_scores_make_a_null_election() -> None:
    state = new_state(12)
    first = state.to_move[0]
    kind = state.election_kind
    for _ in range(3):
        for player in (first, 1 - first):
            tile = state.hands[player][0]
            off = next(k for k in ("citadel", "market", "temple") if k != kind)
            state.apply(player, f"{tile} {off}")
    assert state.tallies[-1]["scores"] == [0, 0]
    assert state.tallies[-1]["winner"] is None and state.results == [None]
    assert state.view(None)["results"][0]["winner"] is None


def test_t6_a_null_election_breaks_a_streak() -> None:
    assert decide_winners([0, 0, None, 0], [[], []]) is None
    assert decide_winners([0, 0, 0], [[], []]) == (0,)


def test_t6_equal_non_zero_scores_make_a_null_election_that_breaks_a_streak() -> None:
    """T6: at 5-5 nobody scores and a two-election streak is broken; T8: three wins with a
    null among them do not end the game."""
    state = new_state(3)
    brown = state.to_move[0]
    beige = 1 - brown
    rig(state, "citadel", {brown: ["S10", "M2", "P1"], beige: ["S5", "M5", "P2"]})
    # Brown has won the first two elections (a market and a temple); this is the third.
    state.turned = ["market", "temple", "citadel"]
    state.deck = ["citadel", "market", "citadel", "market", "temple", "temple"]
    state.results = [brown, brown]
    for brown_move, beige_move in [
        ("S10 citadel", "M5 rival-citadel"),  # Brown: 10 soldiers blocked by 5 = 5
        ("M2 market", "S5 citadel"),  # Beige: 5
        ("P1 temple", "P2 temple"),
    ]:
        state.apply(brown, brown_move)
        state.apply(beige, beige_move)
    tally = state.tallies[-1]
    assert tally["scores"] == [5, 5] and tally["winner"] is None
    assert state.results == [brown, brown, None] and not state.is_over
    assert state.scores[brown] == 2 and state.scores[beige] == 0
    # Election 4, a temple, begun by Beige (T2); both drew P10 P9 P8 (T7). Brown's
    # priests win it: a third win, but not three in a row.
    assert state.election_kind == "temple" and state.to_move == (beige,)
    for beige_move, brown_move in [
        ("P10 citadel", "P10 temple"),
        ("P9 citadel", "P9 temple"),
        ("P8 citadel", "P8 temple"),
    ]:
        state.apply(beige, beige_move)
        state.apply(brown, brown_move)
    assert state.tallies[-1]["winner"] == brown
    assert state.results == [brown, brown, None, brown] and not state.is_over


# ---- T7 -------------------------------------------------------------------------------
def test_t7_election_buildings_are_revealed_and_discarded_others_stay() -> None:
    state = new_state(21)
    kind = state.election_kind
    other = next(k for k in ("citadel", "market", "temple") if k != kind)
    first = state.to_move[0]
    state.apply(first, f"{state.hands[first][0]} {kind}")
    state.apply(1 - first, f"{state.hands[1 - first][0]} rival-{kind}")
    state.apply(first, f"{state.hands[first][0]} {other}")
    state.apply(1 - first, f"{state.hands[1 - first][0]} rival-{other}")
    state.apply(first, f"{state.hands[first][0]} rival-{kind}")
    state.apply(1 - first, f"{state.hands[1 - first][0]} {kind}")
    tally = state.tallies[-1]
    assert len(tally["tiles"]) == 4 and all(t["tile"] for t in tally["tiles"])
    for owner in (0, 1):
        assert state.buildings[building_index(owner, kind)] == []
    assert len(state.buildings[building_index(first, other)]) == 2, "rival-<kind> is theirs"
    assert state.buildings[building_index(1 - first, other)] == []
    assert sum(len(d) for d in state.discards) == 4
    assert [len(h) for h in state.hands] == [9, 9], "each drew 3"


def test_t7_reserves_run_out_after_election_7_and_hands_end_with_3() -> None:
    for seed in range(30):
        state = new_state(seed)
        rng = Rng(seed)
        while not state.is_over:
            if state.placed == 0:
                expected_reserve = max(0, 21 - 3 * (state.election - 1))
                assert [len(r) for r in state.reserves] == [expected_reserve] * 2
                if state.election >= 8:
                    assert [len(h) for h in state.hands] == [9 - 3 * (state.election - 8)] * 2
            player = state.to_move[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
        if len(state.results) == 9:
            assert [len(h) for h in state.hands] == [3, 3]


# ---- T8 -------------------------------------------------------------------------------
def test_t8_score_sheet_example_three_in_a_row_wins_though_tied() -> None:
    beige, brown = 0, 1
    sheet = [beige, beige, brown, None, beige, beige, brown, brown, brown]
    for end in range(1, 9):
        assert decide_winners(sheet[:end], [[], []]) is None, f"decided after {end}"
    assert sheet.count(beige) == sheet.count(brown)
    assert decide_winners(sheet, [["S10", "M10", "P10"], ["S1", "M1", "P1"]]) == (brown,)


def test_t8_five_wins_end_the_game_at_once() -> None:
    assert decide_winners([0, 1, 0, 1, 0, None, 0, 1, 0], [[], []]) == (0,)
    assert decide_winners([0, 1, 0, 1, 0, None, 0, 1], [[], []]) is None
    assert decide_winners([0, 1, 0, 1, 0, 1, 0, 0], [[], []]) == (0,)


def test_t8_after_nine_more_wins_then_hand_totals_then_a_draw() -> None:
    sheet = [0, 1, None, 0, 1, None, 0, 1, None]
    assert decide_winners([0, 1, 1, 0, 1, None, 0, 1, None], [[], []]) == (1,)
    assert decide_winners(sheet, [["S9", "M1", "P1"], ["S5", "M5", "P2"]]) == (1,)
    assert decide_winners(sheet, [["S9", "M1", "P2"], ["S5", "M5", "P1"]]) == (0,)
    assert decide_winners(sheet, [["S9", "M1", "P2"], ["S5", "M5", "P2"]]) == (0, 1)


def test_t8_the_engine_stops_at_once_on_three_in_a_row() -> None:
    for seed in range(200):
        state = new_state(seed)
        random_playout(state, Rng(seed))
        results = state.results
        if len(results) < 9:
            assert results[-3:] == [state.winners[0]] * 3 or results.count(state.winners[0]) == 5
            assert state.to_move == ()


# ---- T9 -------------------------------------------------------------------------------
def test_t9_views_show_own_tiles_and_only_counts_of_the_opponents() -> None:
    state = new_state(30)
    first = state.to_move[0]
    tile = state.hands[first][0]
    state.apply(first, f"{tile} rival-citadel")
    mine, theirs, spectator = state.view(first), state.view(1 - first), state.view(None)
    citadel = building_index(1 - first, "citadel")
    assert mine["buildings"][citadel]["tiles"] == [{"player": first, "tile": tile}]
    assert theirs["buildings"][citadel]["tiles"] == [{"player": first, "tile": None}]
    assert spectator["buildings"][citadel]["tiles"] == [{"player": first, "tile": None}]
    assert mine["hand"] == state.hands[first] and spectator["hand"] is None
    assert theirs["hand_counts"][first] == 8 and theirs["reserve_counts"] == [21, 21]
    assert tile not in str(theirs) and tile not in str(spectator)


def test_t9_memory_mode_shows_only_the_latest_tally() -> None:
    normal, memory = new_state(40), new_state(40, memory_mode=True)
    rng_a, rng_b = Rng(1), Rng(1)
    while len(normal.results) < 3:
        for state, rng in ((normal, rng_a), (memory, rng_b)):
            player = state.to_move[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
    for viewer in (0, 1, None):
        assert len(normal.view(viewer)["tallies"]) == 3
        assert memory.view(viewer)["tallies"] == normal.view(viewer)["tallies"][-1:]
        assert memory.view(viewer)["results"] == normal.view(viewer)["results"]


def test_spectator_tallies_follow_the_documented_format() -> None:
    state = new_state(50)
    random_playout(state, Rng(50))
    view = state.view(None)
    assert len(view["tallies"]) == len(state.results)
    for number, tally in enumerate(view["tallies"], start=1):
        assert set(tally) == {"election", "kind", "tiles", "scores", "winner"}
        assert tally["election"] == number
        assert tally["kind"] in ("citadel", "market", "temple")
        for tile in tally["tiles"]:
            assert set(tile) == {"player", "building_of", "tile"} and tile["tile"] in TILES
        assert tally["winner"] in (0, 1, None)
        for player in (0, 1):
            placed = [
                (t["player"], t["tile"]) for t in tally["tiles"] if t["building_of"] == player
            ]
            assert tally["scores"][player] == election_score(player, tally["kind"], placed)
    assert view["final_hands"] == state.hands


def test_bad_entries_are_explained() -> None:
    state = new_state(60)
    player = state.to_move[0]
    missing = next(t for t in TILES if t not in state.hands[player])
    cases = {
        "hello": "write a tile and a building",
        "X3 citadel": "not a tile",
        "S3 palace": "not a building",
        f"{missing} citadel": "you do not hold",
    }
    before = state.to_json()
    for action, message in cases.items():
        with pytest.raises(machiavel.IllegalAction, match=message):
            state.apply(player, action)
    assert state.to_json() == before


def test_actions_are_accepted_in_any_case() -> None:
    state = new_state(61)
    player = state.to_move[0]
    tile = state.hands[player][0]
    state.apply(player, f"  {tile.lower()}   RIVAL-Citadel ")
    assert state.history[-1] == (player, f"{tile} rival-citadel")


def test_describe_hides_the_tile_from_everyone_but_its_owner() -> None:
    state = new_state(62)
    player = state.to_move[0]
    action = f"{state.hands[player][0]} rival-market"
    tile = action.split()[0]
    assert tile in state.describe(player, action, player)
    assert tile not in state.describe(player, action, 1 - player)
    assert "your market" in state.describe(player, action, 1 - player)
    assert tile not in state.describe(player, action, None)


@pytest.mark.parametrize("building", BUILDINGS)
def test_describe_in_french_hides_the_tile_too(building: str) -> None:
    """Every kind of placement (own or rival building, each kind) in French (T9)."""
    state = new_state(63)
    player = state.to_move[0]
    tile = state.hands[player][0]
    action = f"{tile} {building}"
    lines = {
        viewer: (
            state.describe(player, action, viewer),
            state.describe(player, action, viewer, "fr"),
        )
        for viewer in (player, 1 - player, None)
    }
    for english, french in lines.values():
        assert french != english and french.startswith(f"joueur {player} a posé ")
    value, profession = int(tile[1:]), {"S": "soldat", "M": "marchand", "P": "prêtre"}[tile[0]]
    named = f"la tuile {tile} ({value} {profession}{'s' if value > 1 else ''})"
    assert named in lines[player][1]
    for viewer in (1 - player, None):
        assert tile not in lines[viewer][1] and "une tuile" in lines[viewer][1]
    name = {"citadel": "citadelle", "market": "marché", "temple": "temple"}[building.split("-")[-1]]
    if building.startswith("rival-"):
        assert lines[player][1].endswith(f" du joueur {1 - player}")
        assert lines[1 - player][1].endswith(f"dans votre {name}")
    else:
        assert lines[None][1].endswith(f"propre {name}")


def test_describe_in_french_reads_like_the_rule_book() -> None:
    state = new_state(64)
    player = state.to_move[0]
    state.hands[player][0] = "M8"
    assert state.describe(player, "M8 rival-citadel", player, "fr") == (
        f"joueur {player} a posé la tuile M8 (8 marchands) dans la citadelle du joueur {1 - player}"
    )
    assert state.describe(player, "M8 rival-citadel", 1 - player, "fr") == (
        f"joueur {player} a posé une tuile dans votre citadelle"
    )
    assert state.describe(player, "M8 market", None, "fr") == (
        f"joueur {player} a posé une tuile dans son propre marché"
    )
