"""The count (G4) against every example of guildes.fr.txt, as tables."""

from __future__ import annotations

import pytest

from machiavel.games.guildes.count import (
    count_details,
    count_votes,
    guild_votes,
    ranking,
    share_places,
    without_ties,
)
from machiavel.games.guildes.data import GUILD_COUNT, GUILD_INDEX, PLACES

ARTISANS_2 = (7, 4)  # book: Artisans in round 2
ARTISANS_3 = (7, 4, 1)  # book: Artisans in round 3
CHEVALIERS_3 = (11, 5, 3)  # book: Chevaliers in round 3
ERUDITS_1 = (8,)  # book: Érudits in round 1

# (book example, place values, cards of each player, votes of each player)
BOOK_EXAMPLES = [
    ("round 1: three players tie for the Érudits, 8/3 each", ERUDITS_1, [2, 2, 2, 1], [2, 2, 2, 0]),
    (
        "round 2, example 1: tie for first, (7+4)/2, no second place",
        ARTISANS_2,
        [3, 3, 1],
        [5, 5, 0],
    ),
    ("round 2, example 2: 7 to the first, two tie second, 4/2", ARTISANS_2, [4, 2, 2], [7, 2, 2]),
    (
        "round 3, example 1: two tie first (7+4)/2, the next scores 1",
        ARTISANS_3,
        [3, 3, 1],
        [5, 5, 1],
    ),
    (
        "round 3, example 2: two tie first, two tie next, 1/2 = 0",
        ARTISANS_3,
        [3, 3, 2, 2],
        [5, 5, 0, 0],
    ),
    (
        "round 3, example 3: four tie first for the Chevaliers, (11+5+3)/4",
        CHEVALIERS_3,
        [2, 2, 2, 2, 1],
        [4, 4, 4, 4, 0],
    ),
    (
        "round 3, example 4: 7 to the first, two tie second (4+1)/2, the rest nothing",
        ARTISANS_3,
        [4, 2, 2, 1],
        [7, 2, 2, 0],
    ),
]

# G4's other cases: places that do not exist, players without cards, three-way ties.
RULE_CASES = [
    ("a single majority in round 1", (8,), [1, 3, 2], [0, 8, 0]),
    ("without a card nobody scores", ARTISANS_3, [0, 0, 0], [0, 0, 0]),
    ("a lone holder takes only the first place", ARTISANS_3, [0, 2, 0], [0, 7, 0]),
    (
        "three tie first in round 3: they share the three places",
        ARTISANS_3,
        [1, 1, 1, 0],
        [4, 4, 4, 0],
    ),
    (
        "tie for second shares places 2 and 3, no third place",
        ARTISANS_3,
        [5, 2, 2, 1],
        [7, 2, 2, 0],
    ),
    ("tie for third shares the third place", ARTISANS_3, [5, 4, 2, 2], [7, 4, 0, 0]),
    ("two places in round 3 (Pêcheurs, Bourgeois)", (6, 3), [3, 2, 1], [6, 3, 0]),
    ("a fourth place in round 3 (Alchimistes)", (14, 7, 4, 2), [4, 3, 2, 1, 0], [14, 7, 4, 2, 0]),
    (
        "Alchimistes: two tie fourth-place holders share it",
        (14, 7, 4, 2),
        [4, 3, 2, 1, 1],
        [14, 7, 4, 1, 1],
    ),
]


@pytest.mark.parametrize(("example", "places", "cards", "votes"), BOOK_EXAMPLES + RULE_CASES)
def test_share_places_g4(
    example: str, places: tuple[int, ...], cards: list[int], votes: list[int]
) -> None:
    assert share_places(cards, places) == votes, example


def test_the_data_file_carries_the_books_figures_g2() -> None:
    artisans, chevaliers, erudits = (GUILD_INDEX[n] for n in ("Artisans", "Chevaliers", "Érudits"))
    assert PLACES[1][artisans] == ARTISANS_2
    assert PLACES[2][artisans] == ARTISANS_3
    assert PLACES[2][chevaliers] == CHEVALIERS_3
    assert PLACES[0][erudits] == ERUDITS_1
    # one place in round 1, two in round 2, three in round 3 except Pêcheurs, Bourgeois
    # (two) and Alchimistes (four)
    for guild, name in enumerate(
        [
            "Pêcheurs",
            "Artisans",
            "Érudits",
            "Bourgeois",
            "Chevaliers",
            "Nobles",
            "Prêtres",
            "Alchimistes",
        ]
    ):
        assert GUILD_INDEX[name] == guild
        third = {"Pêcheurs": 2, "Bourgeois": 2, "Alchimistes": 4}.get(name, 3)
        assert [len(PLACES[r][guild]) for r in range(3)] == [1, 2, third]


def row(**cards: int) -> list[int]:
    names = {"Pecheurs": "Pêcheurs", "Erudits": "Érudits", "Pretres": "Prêtres"}
    tableau = [0] * GUILD_COUNT
    for name, number in cards.items():
        tableau[GUILD_INDEX[names.get(name, name)]] = number
    return tableau


# Whole counts: (round index, tableaux, votes), computed by hand from the card table.
WHOLE_COUNTS = [
    # round 1 (book): 3 Milice = 9 votes; the three-way Érudits tie gives 2 each
    (0, [row(Milice=3, Erudits=2), row(Erudits=2), row(Erudits=2, Artisans=1)], [11, 2, 2 + 7]),
    # round 2: Milice again 3 a card; Artisans 7 / 4
    (1, [row(Milice=3), row(Artisans=2), row(Artisans=1)], [9, 7, 4]),
    # round 3, book example 3 inside a whole count, with Milice
    (
        2,
        [
            row(Chevaliers=2, Milice=1),
            row(Chevaliers=2),
            row(Chevaliers=2),
            row(Chevaliers=2),
            row(Chevaliers=1),
        ],
        [4 + 3, 4, 4, 4, 0],
    ),
]


@pytest.mark.parametrize(("round_index", "tableaux", "votes"), WHOLE_COUNTS)
def test_count_votes_adds_guilds_and_milice(
    round_index: int, tableaux: list[list[int]], votes: list[int]
) -> None:
    assert count_votes(round_index, tableaux) == votes


@pytest.mark.parametrize("round_index", [0, 1, 2])
def test_milice_is_three_votes_a_card_at_every_count(round_index: int) -> None:
    # book: "un joueur a posé 3 cartes Milice ... Il marque donc 9 voix", every round
    tableaux = [row(Milice=3), row(Milice=3), row()]
    assert count_votes(round_index, tableaux) == [9, 9, 0]  # ties do not matter for Milice
    assert count_votes(round_index, tableaux, ignore_ties=True) == [9, 9, 0]


# The event "Les joueurs à égalité ne sont pas pris en compte" (G6), the book's examples.
TIES_IGNORED = [
    ("example 1: two tie first, the third alone takes the 7", "Artisans", [3, 3, 1], [0, 0, 7]),
    (
        "example 2: ties for first and for second all vanish, the rest score",
        "Alchimistes",
        [3, 3, 2, 2, 1],
        [0, 0, 0, 0, 14],
    ),
    ("no tie: nothing changes", "Artisans", [3, 2, 1], [7, 4, 0]),
]


@pytest.mark.parametrize(("example", "guild", "cards", "votes"), TIES_IGNORED)
def test_ties_ignored_event_g6(
    example: str, guild: str, cards: list[int], votes: list[int]
) -> None:
    assert guild_votes(1, GUILD_INDEX[guild], cards, ignore_ties=True) == votes, example


def test_without_ties_keeps_only_unique_counts() -> None:
    assert without_ties([3, 3, 1, 0, 0]) == [0, 0, 1, 0, 0]
    assert without_ties([2, 1, 2, 5]) == [0, 1, 0, 5]


# ---- the count guild by guild, as the views give it to people ------------------------------
def test_ranking_shares_a_place_between_tied_players_g4() -> None:
    assert ranking([3, 3, 2, 2, 0]) == [1, 1, 3, 3, None]
    assert ranking([4, 2, 2, 1]) == [1, 2, 2, 4]
    assert ranking([0, 0]) == [None, None]


def test_count_details_give_each_guild_its_places_ties_and_votes() -> None:
    # round 3, book example 2 (Artisans: two tie first, two tie next) and Milice
    tableaux = [row(Artisans=3, Milice=1), row(Artisans=3), row(Artisans=2), row(Artisans=2)]
    details = count_details(2, tableaux)
    assert details["guild_votes"] == [
        {"Artisans": 5, "Milice": 3},
        {"Artisans": 5},
        {"Artisans": 0},
        {"Artisans": 0},
    ]
    assert details["places"] == [{"Artisans": 1}, {"Artisans": 1}, {"Artisans": 3}, {"Artisans": 3}]
    assert details["tied"] == [["Artisans"]] * 4
    assert details["ignored"] == [[], [], [], []]
    for player, won in enumerate(details["guild_votes"]):
        assert sum(won.values()) == count_votes(2, tableaux)[player]


def test_count_details_with_ties_ignored_g6() -> None:
    # the book's example 1: two tie first for the Artisans, the third alone takes the 7
    tableaux = [row(Artisans=3), row(Artisans=3), row(Artisans=1, Nobles=1)]
    details = count_details(1, tableaux, ignore_ties=True)
    assert details["guild_votes"] == [
        {"Artisans": 0},
        {"Artisans": 0},
        {"Artisans": 7, "Nobles": 12},
    ]
    assert details["places"] == [{}, {}, {"Artisans": 1, "Nobles": 1}]
    assert details["ignored"] == [["Artisans"], ["Artisans"], []]
    assert details["tied"] == [[], [], []]
