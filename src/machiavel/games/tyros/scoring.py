"""Scoring (ruling Y8): empires ranked by size, control by city or by ship, bonuses, ties."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from machiavel.core.fields import through_init
from machiavel.games.tyros.board import BOARD
from machiavel.games.tyros.cards import COLOURS

CITY_POINTS = (12, 10, 9, 8)  # Y8: by the empire's rank, largest first
SHIP_POINTS = (6, 5, 4, 3)
ALL_EMPIRES_BONUS = 7  # Y8: the first player with a city in each of the 4 empires
MAJORITY_BONUS = 7  # Y8: most cities in an empire, no tie

NODE_CELL = BOARD.node_cell


@dataclass(slots=True)
class ScoreSheet:
    """Current points of every player, with the parts that make them up."""

    sizes: list[int]  # cells per empire colour
    ranking: list[int]  # colours, largest empire first (Y8 tie-break by colour order)
    city: list[int]
    ship: list[int]
    majority: list[int]
    bonus: list[int]
    largest_empire: list[int]  # points scored in the largest empire (Y8 tie-break)
    totals: list[int]  # points per player: the sum of the four above


def empire_sizes(markers: Sequence[int]) -> list[int]:
    return [markers.count(colour) for colour in range(len(COLOURS))]


def rank_empires(sizes: list[int]) -> list[int]:
    """Colours by size, largest first; equal sizes: orange > yellow > green > violet (Y8)."""
    # reverse=True keeps equal sizes in colour order: the sort stays stable
    return sorted(range(len(COLOURS)), key=sizes.__getitem__, reverse=True)


def fleet_of(ships: list[list[int]]) -> dict[int, list[int]]:
    """Per cell with ships: the owner of each ship, player by player."""
    fleet: dict[int, list[int]] = {}
    for owner, nodes in enumerate(ships):
        for node in nodes:
            cell = NODE_CELL[node]
            owners = fleet.get(cell)
            if owners is None:
                fleet[cell] = [owner]
            else:
                owners.append(owner)
    return fleet


@dataclass(frozen=True)
class CityPoints:
    """The points cities bring (they change only with a city or a marker), and the empires'
    sizes and ranks they were counted with (these change only with a marker)."""

    sizes: list[int]  # as in ``ScoreSheet``
    ranking: list[int]
    rank_of: list[int]  # colour -> its place in ``ranking``
    city: tuple[int, ...]
    majority: tuple[int, ...]
    in_largest: tuple[int, ...]  # city and majority points in the largest empire

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return through_init(self)  # compiled and frozen: made through __init__ only


def city_points(players: int, markers: list[int], cities: list[int]) -> CityPoints:
    sizes = empire_sizes(markers)
    ranking = rank_empires(sizes)
    rank_of = [0] * len(COLOURS)
    for rank, colour in enumerate(ranking):
        rank_of[colour] = rank
    largest = ranking[0]
    city = [0] * players
    majority = [0] * players
    in_largest = [0] * players
    if max(cities) >= 0:
        cities_in = [[0] * players for _ in COLOURS]
        for cell, owner in [(cell, owner) for cell, owner in enumerate(cities) if owner >= 0]:
            colour = markers[cell]
            if colour < 0:
                continue
            points = CITY_POINTS[rank_of[colour]]
            city[owner] += points
            cities_in[colour][owner] += 1
            if colour == largest:
                in_largest[owner] += points
        for colour, counts in enumerate(cities_in):
            best = max(counts)
            if best > 0 and counts.count(best) == 1:  # most cities, no tie (Y8)
                winner = counts.index(best)
                majority[winner] += MAJORITY_BONUS
                if colour == largest:
                    in_largest[winner] += MAJORITY_BONUS
    return CityPoints(sizes, ranking, rank_of, tuple(city), tuple(majority), tuple(in_largest))


def score_board(
    players: int,
    markers: list[int],
    cities: list[int],
    ships: list[list[int]],
    bonus_owner: int,
    fleet: dict[int, list[int]] | None = None,
    from_cities: CityPoints | None = None,
) -> ScoreSheet:
    """The points of every player; ``fleet``: ``fleet_of(ships)``, ``from_cities``:
    ``city_points(...)``, if already known."""
    if fleet is None:
        fleet = fleet_of(ships)
    if from_cities is None:
        from_cities = city_points(players, markers, cities)
    ranking, rank_of = from_cities.ranking, from_cities.rank_of
    largest = ranking[0]
    city = list(from_cities.city)
    ship = [0] * players
    majority = list(from_cities.majority)
    bonus = [0] * players
    in_largest = list(from_cities.in_largest)
    # Only the cells with ships score: visit those, not the whole map (search scores
    # thousands of positions a second).
    for cell, owners in fleet.items():
        colour = markers[cell]
        owner = owners[0]
        if colour < 0 or cities[cell] >= 0 or owners.count(owner) != len(owners):
            continue  # no empire (Tyros before its marker), a city, or several players
        points = SHIP_POINTS[rank_of[colour]]
        ship[owner] += points
        if colour == largest:
            in_largest[owner] += points
    if bonus_owner >= 0:
        bonus[bonus_owner] += ALL_EMPIRES_BONUS
    # added up once here: search reads the totals of nearly every sheet (shared, never changed)
    totals = [c + s + m + b for c, s, m, b in zip(city, ship, majority, bonus, strict=True)]
    return ScoreSheet(from_cities.sizes, ranking, city, ship, majority, bonus, in_largest, totals)


def winners_of(sheet: ScoreSheet) -> tuple[int, ...]:
    """Most points; tie: most points in the largest empire; then a shared win (Y8)."""
    totals = sheet.totals
    best = max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    top = max(sheet.largest_empire[p] for p in tied)
    return tuple(p for p in tied if sheet.largest_empire[p] == top)
