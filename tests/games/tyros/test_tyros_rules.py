"""Tyros rules, ruling by ruling (Y1-Y8 of shared/rules/RULINGS.md), and the issue's cases."""

from __future__ import annotations

from collections import Counter

import pytest

import machiavel
from machiavel.core.narration import narrate
from machiavel.core.playout import random_step
from machiavel.core.rng import Rng
from machiavel.games.tyros.board import BOARD, CELL_COUNT, TYROS
from machiavel.games.tyros.cards import COLOURS, JOKER, PER_COLOUR, parse_cards
from machiavel.games.tyros.rules import MAX_TRADES_PER_ROUND, TyrosState
from machiavel.games.tyros.scoring import score_board, winners_of

GAME = machiavel.game("tyros")
OR, YE, GR, VI = range(4)  # empire colours


def new(players: int = 4, seed: int = 1, setup: str = "first-game") -> TyrosState:
    state = GAME.new(players, seed=seed, options={"setup": setup})
    assert isinstance(state, TyrosState)
    return state


def node(token: str) -> int:
    return BOARD.node_token.index(token)


def cell(token: str) -> int:
    return TYROS if token == "tyros" else int(token)


def vec(text: str) -> list[int]:
    parsed = parse_cards(text) if text else (0, 0, 0, 0, 0)
    assert parsed is not None
    return list(parsed)


def rig(
    state: TyrosState,
    *,
    markers: dict[str, int] | None = None,
    ships: dict[int, list[str]] | None = None,
    cities: dict[str, int] | None = None,
    hands: dict[int, str] | None = None,
    discard: str = "",
    current: int = 0,
) -> TyrosState:
    """Put the state in the action phase with this board and these cards.

    Unlisted players have no ships (if ``ships`` is given) and no cards (if ``hands`` is
    given); every card not in a hand or the discard pile is in the deck, so the 60 cards
    stay accounted for.
    """
    if markers is not None:
        state.markers = [-1] * CELL_COUNT
        for token, colour in markers.items():
            state.markers[cell(token)] = colour
    if ships is not None:
        state.ships = [sorted(node(t) for t in ships.get(p, [])) for p in range(state.n)]
    if cities is not None:
        state.cities = [-1] * CELL_COUNT
        for token, owner in cities.items():
            state.cities[cell(token)] = owner
    if hands is not None:
        state.hands = [vec(hands.get(p, "")) for p in range(state.n)]
        state.discard = vec(discard)
        left = [PER_COLOUR] * 4 + [4]
        for counts in [*state.hands, state.discard]:
            for kind in range(5):
                left[kind] -= counts[kind]
        state.deck = [kind for kind in range(5) for _ in range(left[kind])]
        state.known = [0] * len(state.known)
    state.phase = "actions"
    state.current = current
    state.passes = 0
    state.offers_made = 0
    state.offer = None
    state._refresh_to_move()
    state._legal_cache.clear()
    state._legal_sets.clear()
    state._forget_board()  # markers changed by hand
    return state


def give_tiles(state: TyrosState, player: int, wanted: list[int]) -> None:
    """Hand ``player`` exactly these tiles, swapping with wherever they were (pile, hands)."""
    spare = [t for t in state.tiles[player] if t not in wanted]
    hand = [t for t in state.tiles[player] if t in wanted]
    for tile in wanted:
        if tile in hand:
            continue
        places = [state.pile, *state.tiles]
        holder = next(place for place in places if tile in place)
        index = holder.index(tile)
        if spare:
            holder[index] = spare.pop()
        else:
            del holder[index]
        hand.append(tile)
    state.pile.extend(spare)  # a smaller hand: the rest goes back to the pile
    for tiles in state.tiles:
        tiles.sort()
    state.tiles[player] = sorted(hand)
    state._legal_cache.clear()
    state._legal_sets.clear()


def legal(state: TyrosState, verb: str, player: int | None = None) -> list[str]:
    who = state.to_move[0] if player is None else player
    return [a for a in state.legal_actions(who) if a.split()[0] == verb]


def card_total(state: TyrosState) -> Counter[int]:
    total: Counter[int] = Counter(state.deck)
    for counts in [*state.hands, state.discard]:
        for kind in range(5):
            total[kind] += counts[kind]
    return total


def expansion_turns_by_round(players: int, seed: int) -> dict[int, int]:
    state = new(players, seed)
    turns: Counter[int] = Counter()
    rng = Rng(seed)
    while not state.is_over and state.round <= 3:
        round_before = state.round
        _, action = random_step(state, rng)
        if action.split()[0] in ("expand", "under"):
            turns[round_before] += 1
    return dict(turns)


# ---- Y1 -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
def test_y1_components(players: int) -> None:
    state = new(players)
    assert card_total(state) == Counter({OR: 14, YE: 14, GR: 14, VI: 14, JOKER: 4})
    tiles = sorted([t for ts in state.tiles for t in ts] + state.pile + state.removed_tiles)
    assert tiles == list(range(1, 33))
    view = state.view(0)
    for p, info in enumerate(view["player_info"]):
        assert state.ships[p] == [TYROS, TYROS]  # 2 ships start in Tyros
        assert info["ships_in_supply"] == 8 and info["cities_in_supply"] == 10


def test_y1_jokers_stand_for_any_colour() -> None:
    state = rig(new(), markers={"31": OR}, ships={0: ["tyros"]}, hands={0: "joker"})
    assert legal(state, "move") == ["move tyros>31 pay joker"]


# ---- Y3 -------------------------------------------------------------------------------
def test_y3_tile_31_or_32_gives_tyros_a_marker() -> None:
    state = new(4, seed=2)
    state.markers[27] = GR  # so 31 can be played (next to the green 27)
    state.markers[28] = VI
    give_tiles(state, state.current, [31, 32])
    assert "expand 31 green" in state.legal_actions(state.current)
    state.apply(state.current, "expand 31 green")
    assert state.markers[31] == GR and state.markers[TYROS] == GR
    assert state.view(None)["markers"]["tyros"] == "green"


def test_y3_tyros_keeps_its_first_marker_and_counts_for_size() -> None:
    state = new()
    state._place_marker(32, VI)
    state._place_marker(31, OR)
    assert state.markers[TYROS] == VI
    sheet = state.score_sheet()
    assert sheet.sizes[VI] == 3  # 26, 32 and Tyros


def test_y3_ships_enter_tyros_only_once_it_has_a_marker() -> None:
    state = rig(new(), markers={"31": OR}, ships={0: ["31"]}, hands={0: "orange,orange"})
    assert legal(state, "move") == []
    rig(state, markers={"31": OR, "tyros": OR})
    assert legal(state, "move") == ["move 31>tyros pay orange"]


def test_y3_random_setup_can_mark_tyros() -> None:
    for seed in range(300):
        state = new(4, seed, "random")
        if 31 in state.removed_tiles or 32 in state.removed_tiles:
            trigger = 31 if 31 in state.removed_tiles else 32
            assert state.markers[TYROS] == state.markers[trigger]
            return
    pytest.fail("no random setup drew 31 or 32 in 300 seeds")


# ---- Y4 -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
def test_y4_first_game_setup(players: int) -> None:
    state = new(players)
    marked = {c: state.markers[c] for c in range(CELL_COUNT) if state.markers[c] >= 0}
    assert marked == {7: OR, 13: YE, 23: GR, 26: VI}
    assert sorted(state.removed_tiles) == [7, 13, 23, 26]
    assert all(len(tiles) == 4 for tiles in state.tiles)
    assert len(state.pile) == 28 - 4 * players


def test_y4_random_setup_draws_four_separate_empires_in_colour_order() -> None:
    seen = set()
    for seed in range(60):
        state = new(3 + seed % 2, seed, "random")
        kingdoms = state.removed_tiles
        assert len(kingdoms) == 4
        assert [state.markers[c] for c in kingdoms] == [OR, YE, GR, VI]  # Y4: vert misprint
        for a in kingdoms:
            for b in kingdoms:
                assert b not in BOARD.neighbours[a]
        seen.add(tuple(kingdoms))
    assert len(seen) > 50  # really drawn


def test_y4_bad_setup_option_is_refused() -> None:
    with pytest.raises(machiavel.InvalidSetup, match="setup"):
        GAME.new(4, seed=1, options={"setup": "classic"})


# ---- Y5 -------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "dealt"), [(3, 12), (4, 10)])
def test_y5_cards_dealt(players: int, dealt: int) -> None:
    state = new(players)
    assert [sum(h) for h in state.hands] == [dealt] * players
    assert len(state.deck) == 60 - dealt * players


def test_y5_deal_shuffles_the_discard_back() -> None:
    state = new(4, seed=5)
    rng = Rng(5)
    while state.round == 1:
        kept = [min(3, sum(h)) for h in state.hands]
        random_step(state, rng)
    assert sum(state.discard) == 0
    assert [sum(h) for h in state.hands] == [10 + k for k in kept]


@pytest.mark.parametrize(
    ("players", "expected"), [(3, {1: 6, 2: 6, 3: 6}), (4, {1: 8, 2: 4, 3: 4})]
)
def test_y5_expansion_turns(players: int, expected: dict[int, int]) -> None:
    assert expansion_turns_by_round(players, seed=3) == expected


def test_y5_expansion_needs_a_neighbouring_empire_and_offers_each_colour() -> None:
    state = new(4, seed=1)
    player = state.current
    state.markers[9] = YE  # 8 touches orange 7 and yellow 9; 12 touches yellow 13
    give_tiles(state, player, [8, 12, 29])
    assert state.legal_actions(player) == ["expand 8 orange", "expand 8 yellow", "expand 12 yellow"]
    pile_before = len(state.pile)
    state.apply(player, "expand 8 yellow")
    assert state.markers[8] == YE
    assert 8 not in state.tiles[player] and len(state.tiles[player]) == 3  # drew one
    assert len(state.pile) == pile_before - 1


def test_y5_no_playable_tile_shows_tiles_and_puts_one_under() -> None:
    state = new(4, seed=1)
    player = state.current
    give_tiles(state, player, [1, 5, 20])
    assert state.legal_actions(player) == ["under 1", "under 5", "under 20"]
    top = state.pile[-1]
    state.apply(player, "under 5")
    assert state.pile[0] == 5  # under the pile
    assert state.tiles[player] == sorted([1, 20, top])
    other = (player + 1) % 4
    info = state.view(other)["player_info"][player]
    assert info["shown_tiles"] == [1, 20]  # still in hand, seen by everyone
    assert state.view(other)["pile_known"] == [[len(state.pile) - 1, 5]]
    assert all(state.markers[t] < 0 for t in (1, 5, 20))


def test_y5_no_playable_tile_and_empty_pile_is_automatic() -> None:
    state = new(4, seed=1)
    first = state.current
    give_tiles(state, first, [1, 5])
    state.tiles[(first + 1) % 4].extend(state.pile)
    state.pile = []
    state._resolve_expansion()
    assert state.current != first  # nothing to decide: the turn passed
    assert state.public_tiles >= {1, 5}


def test_y5_playing_the_last_tile_makes_it_the_final_round() -> None:
    state = new(4, seed=1)
    player = state.current
    give_tiles(state, player, [8])
    state.tiles[(player + 1) % 4].extend(state.pile)
    state.pile = []
    state.apply(player, "expand 8 orange")
    assert state.final_round and state.tiles[player] == []


def exhaust(state: TyrosState, colour: int, spare: set[int]) -> None:
    """Give ``colour`` all 20 of its markers (Y1) on cells outside ``spare``."""
    free = [c for c in range(1, 33) if state.markers[c] < 0 and c not in spare]
    for cell_id in free[: 20 - state.markers.count(colour)]:
        state.markers[cell_id] = colour
    state._forget_board()
    assert state.markers.count(colour) == 20


def test_y1_a_colour_with_its_twenty_markers_placed_cannot_expand() -> None:
    state = new(4, seed=1)
    player = state.current
    exhaust(state, OR, spare={8, 9, 12, 13, 14})
    state.markers[9] = YE
    give_tiles(state, player, [8])  # 8 touches orange 7 and yellow 9
    assert state.legal_actions(player) == ["expand 8 yellow"]
    state.markers[9] = -1
    state._legal_cache.clear()
    state._legal_sets.clear()
    assert "expand 8 orange" not in state._expansion_options(player)


def test_y1_when_no_tile_left_can_ever_be_played_the_round_is_the_last() -> None:
    state = new(4, seed=1)
    assert not state._no_tile_can_ever_be_played()
    # Orange alone on the map, with all 20 of its markers: no tile can ever be placed.
    state.markers = [-1] * CELL_COUNT
    exhaust(state, OR, spare=set())
    assert state._no_tile_can_ever_be_played()
    assert not state.final_round
    state.expansion_left = 0
    state._resolve_expansion()
    assert state.final_round and state.phase == "actions"


# ---- Y6: moving -----------------------------------------------------------------------
def test_y6_move_costs_one_card_of_the_destination_colour_per_cell() -> None:
    state = rig(
        new(), markers={"23": GR, "22": OR}, ships={0: ["tyros"]}, hands={0: "green,green,green"}
    )
    assert legal(state, "move") == []  # 4 needed to reach 23
    rig(state, hands={0: "orange,orange,orange,green,green,green,joker"})
    assert legal(state, "move") == [
        "move tyros>22 pay orange,orange,orange",
        "move tyros>23 pay green,green,green,joker",
    ]
    state.apply(0, "move tyros>23 pay green,green,green,joker")
    assert state.ships[0] == [23]
    assert state.hands[0] == vec("orange,orange,orange")
    assert state.discard == vec("green,green,green,joker")


def test_y6_move_only_to_a_cell_with_an_empire_marker() -> None:
    state = rig(new(), markers={"22": OR}, ships={0: ["23"]}, hands={0: "orange,orange,joker"})
    moves = legal(state, "move")
    assert moves == ["move 23>22 pay orange"]  # 24, 18, ... have no marker


def test_y6_at_most_two_ships_in_a_cell_but_ships_may_be_crossed() -> None:
    state = rig(
        new(),
        markers={"22": OR, "17": OR, "12": OR},
        ships={0: ["23"], 1: ["22", "22"], 2: ["17"]},
        hands={0: "orange,orange,orange"},
    )
    moves = legal(state, "move")
    assert "move 23>22 pay orange" not in moves  # full
    assert "move 23>17 pay orange,orange" in moves  # through 22's two ships
    assert "move 23>12 pay orange,orange,orange" in moves
    rig(state, ships={0: ["23"], 1: ["17", "17"], 2: ["22"]})
    assert "move 23>17 pay orange,orange" not in legal(state, "move")


def test_y6_tyros_holds_two_ships_per_player_until_its_city() -> None:
    state = rig(
        new(),
        markers={"31": OR, "tyros": OR},
        ships={0: ["31", "tyros"], 1: ["tyros", "tyros"], 2: ["tyros", "tyros"]},
        hands={0: "orange", 1: "orange"},
    )
    assert "move 31>tyros pay orange" in legal(state, "move")  # 5 ships there is fine
    rig(state, ships={0: ["31", "tyros", "tyros"]}, current=0)
    assert legal(state, "move") == ["move tyros>31 pay orange"]  # but not 3 of one player
    rig(state, ships={0: ["31"], 1: ["tyros"]}, cities={"tyros": 2})
    assert legal(state, "move") == ["move 31>tyros pay orange"]
    rig(state, ships={0: ["31"], 1: ["tyros", "tyros"]}, cities={"tyros": 2})
    assert legal(state, "move") == []  # with a city, 2 ships at most


def test_y6_ending_on_another_players_city_pays_a_card_of_the_movers_choice() -> None:
    state = rig(
        new(),
        markers={"22": OR},
        ships={0: ["23"]},
        cities={"22": 1},
        hands={0: "orange,green,violet"},
    )
    assert legal(state, "move") == [
        "move 23>22 pay orange fee green",
        "move 23>22 pay orange fee violet",
    ]
    state.apply(0, "move 23>22 pay orange fee violet")
    assert state.hands[0] == vec("green") and state.hands[1] == vec("violet")
    assert state.view(1)["player_info"][0]["known_cards"]["violet"] == 0
    assert state.view(0)["player_info"][1]["known_cards"]["violet"] == 1  # the payer knows
    assert state.view(2)["player_info"][1]["known_cards"]["violet"] == 0  # others do not
    text = state.describe(0, "move 23>22 pay orange fee violet", 2)
    assert "violet" not in text and "a card to player 1" in text


def test_y6_a_city_fees_card_stays_hidden_in_a_third_players_worlds() -> None:
    """Issue 12: in the worlds of a player who did not see the fee's card, the payer and the
    owner know of each other's cards only what everyone saw; they keep what they saw."""
    state = rig(
        new(),
        markers={"22": OR},
        ships={0: ["23"]},
        cities={"22": 1},
        hands={0: "orange,green,violet"},
    )
    state.apply(0, "move 23>22 pay orange fee violet")
    public = state.view(None)["player_info"]
    for seed in range(5):
        world = state.resample(2, Rng(seed))
        assert world.view(0)["player_info"][1]["known_cards"] == public[1]["known_cards"]
        assert world.view(1)["player_info"][0]["known_cards"] == public[0]["known_cards"]
        for concerned in (0, 1):
            assert state.resample(concerned, Rng(seed)).view(concerned) == state.view(concerned)


def test_y6_no_fee_without_a_card_left() -> None:
    state = rig(new(), markers={"22": OR}, ships={0: ["23"]}, cities={"22": 1}, hands={0: "orange"})
    assert legal(state, "move") == ["move 23>22 pay orange"]


# ---- Y6: cities -----------------------------------------------------------------------
def test_y6_city_costs_five_or_four_with_two_ships_and_sends_a_ship_home() -> None:
    state = rig(new(), markers={"22": GR}, ships={0: ["22"]}, hands={0: "green,green,green,green"})
    assert legal(state, "city") == []
    rig(state, hands={0: "green,green,green,green,joker"})
    assert legal(state, "city") == ["city 22 pay green,green,green,green,joker"]
    rig(state, ships={0: ["22", "22"]}, hands={0: "green,green,green,green"})
    assert legal(state, "city") == ["city 22 pay green,green,green,green"]
    state.apply(0, "city 22 pay green,green,green,green")
    assert state.cities[22] == 0 and state.ships[0] == [22]  # one ship of the two went home
    assert legal(state, "city", 0) == []


def test_y6_city_needs_to_be_alone_and_one_per_cell() -> None:
    five = "violet,violet,violet,violet,violet"
    state = rig(new(), markers={"26": VI}, ships={0: ["26"], 1: ["26"]}, hands={0: five})
    assert legal(state, "city") == []
    rig(state, ships={0: ["26"]}, cities={"26": 1})
    assert legal(state, "city") == []
    rig(state, ships={0: ["26"]}, cities={})
    assert legal(state, "city") == [f"city 26 pay {five}"]


def test_y6_city_in_tyros_only_with_a_marker() -> None:
    five = "orange,orange,orange,orange,orange"
    state = rig(new(), markers={}, ships={0: ["tyros"]}, hands={0: five})
    assert legal(state, "city") == []
    rig(state, markers={"31": OR, "tyros": OR})
    assert legal(state, "city") == [f"city tyros pay {five}"]


def test_y6_city_in_italy_with_a_ship_on_each_coast() -> None:
    four = "yellow,yellow,yellow,yellow"
    state = rig(new(), markers={"16": YE}, ships={0: ["16e", "16w"]}, hands={0: four})
    assert legal(state, "city") == [
        f"city 16 pay {four} return 16e",
        f"city 16 pay {four} return 16w",
    ]
    state.apply(0, f"city 16 pay {four} return 16e")
    assert state.ships[0] == [node("16w")]
    assert state.view(0)["ships"] == [{"owner": 0, "cell": "16", "coast": "w"}]


# ---- Y6: ships ------------------------------------------------------------------------
def test_y6_ship_at_a_city_costs_one_card_or_two_with_a_ship_there() -> None:
    state = rig(new(), markers={"22": GR}, ships={}, cities={"22": 0}, hands={0: "green,violet"})
    assert [a for a in legal(state, "ship") if "22" in a] == ["ship 22 pay green"]
    rig(state, ships={1: ["22"]})
    assert [a for a in legal(state, "ship") if "22" in a] == [
        "ship 22 pay green,violet"  # one green and any other card
    ]
    rig(state, hands={0: "violet,violet"})
    assert [a for a in legal(state, "ship") if "22" in a] == []  # one card must be green
    rig(state, hands={0: "joker,violet"})
    assert [a for a in legal(state, "ship") if "22" in a] == ["ship 22 pay violet,joker"]
    rig(state, ships={1: ["22", "22"]}, hands={0: "green,green"})
    assert [a for a in legal(state, "ship") if "22" in a] == []  # 2 ships at most


def test_y6_ship_in_tyros_costs_one_card_per_ship_there() -> None:
    state = rig(
        new(),
        markers={},
        ships={0: ["tyros"], 1: ["tyros", "tyros"]},
        cities={},
        hands={0: "orange,orange,yellow,green"},
    )
    ships = legal(state, "ship")  # 3 ships there, 4 with the new one: any 4 cards
    assert ships == ["ship tyros pay orange,orange,yellow,green"]
    state.apply(0, ships[0])
    assert state.ships[0] == [TYROS, TYROS]
    rig(state, hands={0: "orange,orange,yellow,green,green"})
    assert legal(state, "ship") == []  # 2 of one's own ships in Tyros at most


def test_y6_after_tyros_city_only_its_owner_builds_there() -> None:
    state = rig(
        new(),
        markers={"31": OR, "tyros": OR},
        ships={},
        cities={"tyros": 1},
        hands={0: "orange,orange", 1: "orange"},
    )
    assert legal(state, "ship") == []
    rig(state, current=1)
    assert legal(state, "ship") == ["ship tyros pay orange"]


def test_y6_ship_built_in_italy_stands_on_the_west_coast() -> None:
    state = rig(new(), markers={"16": YE}, ships={}, cities={"16": 0}, hands={0: "yellow"})
    state.apply(0, "ship 16 pay yellow")
    assert state.ships[0] == [node("16w")]


def test_y6_supply_of_ten_ships() -> None:
    state = rig(new(), markers={"22": GR}, ships={0: ["tyros"] * 10}, cities={"22": 0})
    rig(state, hands={0: "green"})
    assert legal(state, "ship") == []


# ---- Y6: bank and trades --------------------------------------------------------------
def test_y6_bank_discard_and_draw() -> None:
    state = rig(new(), hands={0: "orange,yellow"})
    assert legal(state, "bank") == ["bank orange", "bank yellow", "bank orange,yellow"]
    deck = len(state.deck)
    state.apply(0, "bank orange,yellow")
    assert sum(state.hands[0]) == 2 and len(state.deck) == deck - 2
    assert state.discard == vec("orange,yellow")


def test_y6_bank_does_not_reshuffle() -> None:
    state = rig(new(), hands={0: "orange,yellow,green"})
    state.deck = state.deck[:1]
    assert legal(state, "bank") == ["bank orange", "bank yellow", "bank green"]
    state.deck = []
    state._legal_cache.clear()
    assert legal(state, "bank") == []


def test_y6_bank_three_for_one_from_the_discard_pile() -> None:
    state = rig(new(), hands={0: "orange,orange,yellow"}, discard="green,orange")
    assert legal(state, "bank") == [
        "bank orange",
        "bank yellow",
        "bank orange,orange",
        "bank orange,yellow",
        "bank orange,orange,yellow",
        "bank orange,orange,yellow take green",  # not orange: discarded itself
    ]
    state.apply(0, "bank orange,orange,yellow take green")
    assert state.hands[0] == vec("green")
    assert state.discard == vec("orange,orange,orange,yellow")
    assert state.view(2)["player_info"][0]["known_cards"]["green"] == 1  # seen by all


def test_y6_offer_is_answered_by_the_named_player() -> None:
    state = rig(new(), hands={0: "orange,orange", 1: "green", 2: "violet"})
    offer = "offer 1 give orange,orange ask green"
    assert offer in legal(state, "offer")
    assert "offer 1 give orange ask green,green" not in legal(state, "offer")  # 1 holds 1 card
    state.apply(0, offer)
    assert state.to_move == (1,)
    assert state.legal_actions(1) == ["accept", "refuse"]
    assert state.view(3)["offer"] == {
        "from": 0,
        "to": 1,
        "give": {"orange": 2, "yellow": 0, "green": 0, "violet": 0, "joker": 0},
        "ask": {"orange": 0, "yellow": 0, "green": 1, "violet": 0, "joker": 0},
    }
    state.apply(1, "accept")
    assert state.hands[0] == vec("green") and state.hands[1] == vec("orange,orange")
    assert state.to_move == (1,) and state.current == 1  # the trade was player 0's action
    assert state.view(3)["player_info"][1]["known_cards"]["orange"] == 2


def test_y6_refused_offer_costs_nothing_and_the_offerer_acts_again_three_times_at_most() -> None:
    state = rig(new(), hands={0: "orange,orange", 1: "green", 2: "violet"})
    for _ in range(3):
        state.apply(0, "offer 2 give orange ask violet")
        assert state.to_move == (2,)
        state.apply(2, "refuse")
        assert state.to_move == (0,) and state.hands[0] == vec("orange,orange")
    assert legal(state, "offer") == []  # Y6: 3 offers a turn
    state.apply(0, "pass")
    assert state.offers_made == 0


def test_y6_only_held_cards_may_be_offered_or_given() -> None:
    state = rig(new(), hands={0: "orange", 1: "yellow", 2: "violet"})
    assert not any("give green" in a or "give orange,orange" in a for a in legal(state, "offer"))
    state.apply(0, "offer 1 give orange ask green")
    assert state.legal_actions(1) == ["refuse"]  # player 1 has no green
    with pytest.raises(machiavel.IllegalAction, match="you do not hold green"):
        state.apply(1, "accept")


def test_y6_offers_limited_per_round() -> None:
    state = rig(new(), hands={0: "orange,orange,orange", 1: "green,green,green"})
    state.trades_made[0] = MAX_TRADES_PER_ROUND
    state._legal_cache.clear()
    assert legal(state, "offer") == []


def test_y6_actions_end_after_a_full_round_of_passes() -> None:
    state = rig(new(), markers={"22": OR}, ships={0: ["23"]}, hands={0: "orange,orange"})
    for player in (0, 1, 2):
        state.apply(player, "pass")
    assert state.phase == "actions" and state.to_move == (3,)
    state.apply(3, "pass")
    assert state.phase != "actions"  # every player passed in one go-round


def test_y6_a_player_who_passed_acts_again_later() -> None:
    state = rig(
        new(),
        markers={"22": OR, "24": OR},
        ships={0: ["23"], 3: ["23"]},
        hands={0: "orange", 3: "orange"},
    )
    for player in (0, 1, 2):
        state.apply(player, "pass")
    state.apply(3, "move 23>24 pay orange")  # an action: the go-round of passes restarts
    assert state.passes == 0 and state.to_move == (0,)
    state.apply(0, "move 23>22 pay orange")
    assert state.ships[0] == [22] and state.phase == "actions"


# ---- Y7 -------------------------------------------------------------------------------
def test_y7_keep_three_cards_simultaneously_and_hidden() -> None:
    five_violet = "violet,violet,violet,violet,violet"
    state = rig(new(), hands={0: "orange,orange,green,joker", 1: "yellow", 2: five_violet})
    state.passes = 3
    state.current = 3
    state._refresh_to_move()
    state._legal_cache.clear()
    first = state.first
    state.apply(3, "pass")
    assert state.phase == "keep" and state.to_move == (0, 2)
    assert state.legal_actions(0) == [
        "keep orange,orange,green",
        "keep orange,orange,joker",
        "keep orange,green,joker",
    ]
    state.apply(2, "keep violet,violet,violet")
    assert list(state.to_move) == [0]
    assert state.view(0)["player_info"][2]["has_kept"] is True
    assert sum(state.hands[2]) == 5  # not applied yet
    assert state.view(0)["kept"] is None and state.view(2)["kept"]["violet"] == 3
    assert "violet" not in state.describe(2, "keep violet,violet,violet", 0)
    state.apply(0, "keep orange,green,joker")
    # new round: kept cards plus the deal; first player moved left
    assert state.round == 2 and state.first == (first + 1) % 4
    assert sum(state.hands[0]) == 13 and sum(state.hands[2]) == 13 and sum(state.hands[1]) == 11


def test_y7_game_ends_after_the_round_of_the_last_tile() -> None:
    state = new(4, seed=9)
    rng = Rng(9)
    final_seen_in_round = None
    while not state.is_over:
        if state.final_round and final_seen_in_round is None:
            final_seen_in_round = state.round
        random_step(state, rng)
        if not state.is_over:
            assert final_seen_in_round is None or state.round == final_seen_in_round
    assert final_seen_in_round is not None
    assert any(not tiles for tiles in state.tiles)
    assert state.winners


# ---- Y8 -------------------------------------------------------------------------------
def board(markers: dict[int, int]) -> list[int]:
    cells = [-1] * CELL_COUNT
    for where, colour in markers.items():
        cells[where] = colour
    return cells


def test_y8_empire_ranks_and_colour_tie_break() -> None:
    markers = board({1: VI, 2: VI, 3: VI, 7: OR, 8: OR, 13: YE, 14: YE, 23: GR})
    sheet = score_board(4, markers, [-1] * CELL_COUNT, [[], [], [], []], -1)
    assert sheet.sizes == [2, 2, 1, 3]
    assert sheet.ranking == [VI, OR, YE, GR]  # orange before yellow at equal sizes


def test_y8_city_and_ship_control_points_by_rank() -> None:
    markers = board({1: VI, 2: VI, 3: VI, 7: OR, 8: OR, 13: YE, 14: YE, 23: GR})
    cities = [-1] * CELL_COUNT
    for where in (1, 7, 13, 23):
        cities[where] = 0
    ships = [[2, 8], [14, 24], [3], [3]]  # 3: two players, nobody; 24 has no marker
    sheet = score_board(4, markers, cities, ships, -1)
    assert sheet.city == [12 + 10 + 9 + 8, 0, 0, 0]
    assert sheet.ship == [6 + 5, 4, 0, 0]
    # ships in a city's cell score nothing
    sheet = score_board(4, markers, cities, [[], [1], [], []], -1)
    assert sheet.ship == [0, 0, 0, 0]


def test_y8_first_with_a_city_in_every_empire_scores_seven_at_once() -> None:
    state = rig(
        new(),
        markers={"7": OR, "13": YE, "23": GR, "26": VI},
        ships={1: ["26"]},
        cities={"7": 1, "13": 1, "23": 1},
        hands={1: "violet,violet,violet,violet,violet"},
        current=1,
    )
    state.apply(1, "city 26 pay violet,violet,violet,violet,violet")
    assert state.bonus_owner == 1
    sheet = state.score_sheet()
    assert sheet.bonus == [0, 7, 0, 0]
    assert state.scores[1] == 12 + 10 + 9 + 8 + 7 + 4 * 7  # and all four majorities


def test_y8_majority_needs_strictly_more_cities() -> None:
    markers = board({1: OR, 2: OR, 3: OR, 4: OR, 13: YE, 23: GR, 26: VI})
    cities = [-1] * CELL_COUNT
    cities[1], cities[2], cities[3] = 0, 0, 1
    sheet = score_board(3, markers, cities, [[], [], []], -1)
    assert sheet.majority == [7, 0, 0]  # 2 of 3 orange cities
    cities[2] = 2
    sheet = score_board(3, markers, cities, [[], [], []], -1)
    assert sheet.majority == [0, 0, 0]  # 1, 1 and 1: nobody


def test_y8_equal_points_go_to_the_largest_empire() -> None:
    markers = board({1: OR, 2: OR, 3: OR, 13: YE, 14: YE, 23: GR, 26: VI})  # ranks OR, YE, GR, VI
    cities = [-1] * CELL_COUNT
    cities[1] = 0  # orange: 12 + majority 7, all in the largest empire
    cities[23] = 1  # green: 9 + majority 7
    ships = [[], [26], []]  # violet ship: 3
    sheet = score_board(3, markers, cities, ships, -1)
    assert sheet.totals == [19, 19, 0]
    assert sheet.largest_empire == [19, 0, 0]
    assert winners_of(sheet) == (0,)


def test_y8_equal_points_in_the_largest_empire_too_share_the_win() -> None:
    markers = board({1: OR, 2: OR, 3: OR, 13: YE, 14: YE, 23: GR, 26: VI})
    cities = [-1] * CELL_COUNT
    cities[1], cities[2] = 0, 1  # an orange city each: 12, no majority
    sheet = score_board(3, markers, cities, [[], [], []], -1)
    assert sheet.totals == [12, 12, 0]
    assert winners_of(sheet) == (0, 1)


def test_y8_scores_are_current_points_and_winners_only_at_the_end() -> None:
    state = rig(
        new(),
        markers={"7": OR, "13": YE, "23": GR, "26": VI},
        ships={2: ["23"]},
        hands={},
        cities={},
    )
    assert state.scores == [0.0, 0.0, 4.0, 0.0]  # green, third largest by colour order
    assert state.winners == ()


# ---- refusals are explained ----------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("fly 3", "not an action of Tyros"),
        ("expand 8 orange", "no 'expand' now"),
        ("move 22>23 pay green", "no ship in 22"),
        ("move 23>24 pay green", "no empire marker"),
        ("move 23>16 pay green", "16e or 16w"),
        ("move 23>22 pay orange,orange,orange", "did you mean: move 23>22 pay orange"),
        ("city 23 pay green", "costs 5 green"),
        ("bank green", "do not hold green"),
        ("offer 0 give orange ask green", "another player"),
    ],
)
def test_illegal_actions_are_explained(action: str, words: str) -> None:
    state = rig(new(), markers={"22": OR, "23": GR}, ships={0: ["23"]}, hands={0: "orange,orange"})
    with pytest.raises(machiavel.IllegalAction, match=words):
        state.apply(0, action)


def test_typed_variants_are_accepted() -> None:
    state = rig(new(), markers={"22": OR, "31": OR}, ships={0: ["23", "tyros"]}, hands={0: "o,j"})
    state.apply(0, "MOVE  t-31  PAY o")
    assert state.history[-1] == (0, "move tyros>31 pay orange")


def test_card_colours_match_the_empires() -> None:
    assert COLOURS == ("orange", "yellow", "green", "violet")


# ---- the terminal drawing -------------------------------------------------------------
def test_render_draws_the_board_and_only_the_viewers_cards() -> None:
    state = rig(
        new(),
        markers={"16": YE, "22": OR, "31": GR, "tyros": GR},
        ships={0: ["16e", "16w"], 1: ["22", "22"], 2: ["tyros"]},
        cities={"31": 3},
        hands={0: "orange,joker", 1: "violet,violet,violet"},
    )
    text = GAME.render(state.view(0))
    assert "16 Italia" in text and "e:0 w:0" in text
    assert "ORANGE" in text and "s:11" in text and "GREEN C3" in text
    assert "#15 Venetia" in text  # no sea between 10 and 15
    assert "Coast 16e joins 15 and 17." in text
    assert "Your cards: 1 orange, 1 joker" in text
    assert "violet" not in GAME.render(state.view(0)).split("Player 1:")[1].split("\n")[0]
    assert "Your cards" not in GAME.render(state.view(None))


# ---- the log in words, in English and French ------------------------------------------
def french(state: TyrosState, action: str, viewer: int | None = None) -> str:
    """The French line of ``action`` by the player to move, checked against the English."""
    player = state.to_move[0]
    line = state.describe(player, action, viewer, "fr")
    assert line != state.describe(player, action, viewer) and line.startswith(f"joueur {player} ")
    return line


def english(state: TyrosState, action: str, viewer: int | None = None) -> str:
    player = state.to_move[0]
    line = state.describe(player, action, viewer, "en")
    assert line.startswith(f"player {player} ")
    return line


def test_every_kind_of_action_is_described_in_both_languages() -> None:
    state = new(4, seed=1)
    player = state.current
    state.markers[9] = YE
    give_tiles(state, player, [8, 12, 29])
    assert french(state, "expand 8 yellow") == (
        f"joueur {player} joue la tuile de terrain 8 : Numidia (8) rejoint l'empire jaune"
    )
    assert english(state, "expand 8 yellow") == (
        f"player {player} plays terrain tile 8: Numidia (8) joins the yellow empire"
    )
    give_tiles(state, player, [1, 5, 20])
    assert french(state, "under 5") == (
        f"joueur {player} ne peut étendre aucun empire, montre ses tuiles de terrain 1, 5 et "
        "20, remet la tuile 5 sous la pioche et en pioche une autre"
    )
    assert english(state, "under 5") == (
        f"player {player} cannot extend any empire, shows their terrain tiles 1, 5 and 20, "
        "puts tile 5 under the pile and draws another"
    )
    state = rig(
        new(),
        markers={"22": OR},
        ships={0: ["23"]},
        cities={"22": 1},
        hands={0: "orange,green,violet"},
    )
    move = "move 23>22 pay orange fee violet"
    for concerned in (0, 1):  # the two players concerned see the fee's card
        assert french(state, move, concerned) == (
            "joueur 0 déplace un bateau de 1 case de Cyrene (23) à Creta (22) et paie "
            "1 carte orange ; il donne 1 carte violette au joueur 1, dont la ville est là"
        )
        assert english(state, move, concerned) == (
            "player 0 sails a ship 1 cell from Cyrene (23) to Creta (22), paying 1 orange "
            "card, and gives 1 violet card to player 1, whose city is there"
        )
    viewers: tuple[int | None, ...] = (2, 3, None)
    for viewer in viewers:  # the others only that a card changed hands
        assert french(state, move, viewer) == (
            "joueur 0 déplace un bateau de 1 case de Cyrene (23) à Creta (22) et paie "
            "1 carte orange ; il donne une carte au joueur 1, dont la ville est là"
        )
        assert "violet" not in english(state, move, viewer)
    four = "yellow,yellow,yellow,yellow"
    state = rig(new(), markers={"16": YE}, ships={0: ["16e", "16w"]}, hands={0: four})
    assert french(state, f"city 16 pay {four} return 16e") == (
        "joueur 0 construit une ville à Italia (16) et paie 4 cartes jaunes ; "
        "son bateau de la côte est rentre dans sa réserve"
    )
    assert english(state, f"city 16 pay {four} return 16e") == (
        "player 0 builds a city in Italia (16), paying 4 yellow cards; "
        "their ship on the east coast returns to their supply"
    )
    assert french(state, "move 16e>16w pay yellow,yellow").startswith(
        "joueur 0 déplace un bateau de 2 cases d'Italia (16, côte est) à Italia (16, côte ouest)"
    )
    state = rig(
        new(), markers={"22": GR}, ships={1: ["22"]}, cities={"22": 0}, hands={0: "joker,violet"}
    )
    assert french(state, "ship 22 pay violet,joker") == (
        "joueur 0 construit un bateau à Creta (22) et paie 1 carte violette et 1 joker"
    )
    assert english(state, "ship 22 pay violet,joker") == (
        "player 0 builds a ship in Creta (22), paying 1 violet card and 1 joker"
    )
    state = rig(new(), hands={0: "orange,orange,yellow"}, discard="green,orange")
    assert french(state, "bank orange,yellow") == (
        "joueur 0 défausse 1 carte orange et 1 carte jaune et pioche 2 cartes"
    )
    assert english(state, "bank orange,yellow") == (
        "player 0 discards 1 orange card and 1 yellow card and draws 2 cards from the deck"
    )
    assert french(state, "bank orange,orange,yellow take green") == (
        "joueur 0 défausse 2 cartes orange et 1 carte jaune et prend 1 carte verte dans la défausse"
    )
    assert english(state, "bank orange,orange,yellow take green") == (
        "player 0 discards 2 orange cards and 1 yellow card "
        "and takes 1 green card from the discard pile"
    )
    assert french(state, "pass") == "joueur 0 passe"
    assert english(state, "pass") == "player 0 passes"
    state = rig(new(), hands={0: "orange,orange", 1: "green", 2: "violet"})
    assert french(state, "offer 1 give orange,orange ask green") == (
        "joueur 0 propose un échange au joueur 1 : 2 cartes orange contre 1 carte verte"
    )
    assert english(state, "offer 1 give orange,orange ask green") == (
        "player 0 offers 2 orange cards to player 1 in exchange for 1 green card"
    )
    state.apply(0, "offer 1 give orange,orange ask green")
    assert french(state, "accept") == (
        "joueur 1 accepte l'échange proposé par le joueur 0 : "
        "reçoit 2 cartes orange contre 1 carte verte"
    )
    assert english(state, "accept") == (
        "player 1 accepts the exchange with player 0: gets 2 orange cards for 1 green card"
    )
    assert french(state, "refuse") == "joueur 1 refuse l'échange proposé par le joueur 0"
    assert english(state, "refuse") == "player 1 refuses the exchange offered by player 0"
    state = rig(new(), hands={0: "orange,orange,green,joker", 1: "yellow"})
    state.passes, state.current = 3, 3
    state._refresh_to_move()
    state._legal_cache.clear()
    state.apply(3, "pass")
    assert french(state, "keep orange,green,joker", 0) == (
        "joueur 0 garde 1 carte orange, 1 carte verte et 1 joker"
    )
    assert english(state, "keep orange,green,joker", 0) == (
        "player 0 keeps 1 orange card, 1 green card and 1 joker"
    )
    for other in (1, 2, 3, None):  # hidden (Y7)
        assert french(state, "keep orange,green,joker", other) == (
            "joueur 0 a choisi les cartes à garder"
        )
        assert english(state, "keep orange,green,joker", other) == (
            "player 0 has chosen which 3 cards to keep"
        )


def test_french_lines_for_random_games_differ_from_the_english() -> None:
    verbs: set[str] = set()
    for seed in range(3):
        state = new(3, seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            player = state.to_move[0]
            action = rng.choice(state.legal_actions(player))
            verbs.add(action.split()[0])
            for viewer in (None, *range(3)):
                line = state.describe(player, action, viewer, "fr")
                assert line != state.describe(player, action, viewer)
                assert "player" not in line and " pay " not in line
            state.apply(player, action)
    assert verbs >= {"expand", "move", "city", "ship", "bank", "offer", "pass"}


# ---- what followed an action, board marks, the ending (issue 15) ----------------------------
def told_lines(state: TyrosState, player: int, action: str, viewer: int | None = None) -> str:
    return narrate(state, player, action).for_viewer(viewer, state.n)


def test_a_fee_reads_the_same_to_the_others_whatever_the_card() -> None:
    """Y6: only the payer and the city's owner learn which card the fee was."""
    state = rig(
        new(),
        markers={"22": OR},
        ships={0: ["23"]},
        cities={"22": 1},
        hands={0: "orange,green,violet"},
    )
    told = [
        narrate(state.clone(), 0, f"move 23>22 pay orange fee {c}") for c in ("green", "violet")
    ]
    for language in (0, 1):
        for viewer in (2, 3, None):
            assert len({t.for_viewer(viewer, 4, language) for t in told}) == 1
        for viewer in (0, 1):
            assert len({t.for_viewer(viewer, 4, language) for t in told}) == 2
    assert told[0].marks == {"player": 0, "route": ["23", "22"]}


def test_y3_tyros_joining_an_empire_is_told_and_marked() -> None:
    state = new(4, seed=1)
    player = state.current
    state.markers[30] = VI
    state._forget_board()
    give_tiles(state, player, [31, 2, 3])
    told = narrate(state, player, "expand 31 violet")
    assert told.for_viewer(None, 4).split("\n")[1] == (
        "Tyros joins the violet empire too, as its neighbour Syria (31) did"
    )
    assert told.for_viewer(None, 4, 1).split("\n")[1] == (
        "Tyros rejoint aussi l'empire violet, comme sa voisine Syria (31)"
    )
    assert told.marks == {"player": player, "cells": ["31", "tyros"]}


def test_a_move_is_marked_along_one_cheapest_route_and_a_ship_where_it_stands() -> None:
    state = rig(
        new(), markers={"23": GR, "16": GR, "tyros": GR}, ships={0: ["tyros"]}, cities={"16": 0}
    )
    state = rig(state, hands={0: "green,green,green,green,green"})
    marks = narrate(state.clone(), 0, "move tyros>23 pay green,green,green,green").marks
    assert marks["route"] == ["tyros", "31", "27", "22", "23"]  # the book's route example
    marks = narrate(state.clone(), 0, "ship 16 pay green").marks
    assert marks == {"player": 0, "cells": ["16"], "nodes": ["16w"]}  # Y2: the west coast


def test_a_round_end_tells_the_points_and_the_next_round() -> None:
    state = rig(new(), hands={0: "orange", 1: "green"}, ships={0: ["23"]}, markers={"23": GR})
    state.passes, state.current = 3, 3
    state._refresh_to_move()
    state._legal_cache.clear()
    lines = told_lines(state, 3, "pass").split("\n")
    assert lines[:3] == [
        "player 3 passes",
        "Everyone passed in a row: round 1 ends",
        "Points after round 1: player 0 has 6 points (ships 6); player 1 has 0 points; "
        "player 2 has 0 points; player 3 has 0 points",
    ]
    assert lines[3].startswith(f"Round 2 begins with player {state.first} as first player; ")


def over(state: TyrosState) -> TyrosState:
    state.phase = "over"
    state._refresh_to_move()
    return state


def test_the_ending_says_why_who_won_and_by_how_much() -> None:
    board = {"1": OR, "2": OR, "3": OR, "13": YE, "23": GR, "26": VI}
    state = over(rig(new(), markers=board, cities={"1": 0, "23": 1}, ships={}))
    state.tiles[2] = []
    assert state.ending("en") == (
        "The game ended after round 1, in which player 2 played their last terrain tile. "
        "player 0 wins with 19 points, 3 ahead of player 1. Final scoring: player 0 scores "
        "19 points (cities 12, majorities 7); player 1 scores 16 points (cities 9, "
        "majorities 7); player 2 scores 0 points; player 3 scores 0 points."
    )
    assert state.ending("fr") == (
        "La partie s'est terminée après le tour 1, où joueur 2 a joué sa dernière tuile de "
        "terrain. joueur 0 gagne avec 19 points, 3 devant joueur 1. Décompte final : joueur 0 "
        "marque 19 points (villes 12, majorités 7) ; joueur 1 marque 16 points (villes 9, "
        "majorités 7) ; joueur 2 marque 0 point ; joueur 3 marque 0 point."
    )


def test_the_ending_names_the_tie_break_only_when_it_decided() -> None:
    board = {"1": OR, "2": OR, "3": OR, "13": YE, "23": GR, "26": VI}
    state = over(rig(new(), markers=board, cities={"1": 0, "23": 1}, ships={1: ["26"]}))
    ending = state.ending("en")
    assert ending is not None
    assert ending.startswith(
        "The game ended after round 1, as no terrain tile left could extend an empire. "
        "player 0 and player 1 tie on 19 points; player 0 wins with more points in the "
        "largest empire, the orange one (19 against 0)."
    )
