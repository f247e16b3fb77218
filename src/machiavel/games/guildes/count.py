"""The count of votes at the end of a round (ruling G4): pure functions, no state."""

from __future__ import annotations

from collections.abc import Sequence

from machiavel.games.guildes.data import GUILD_COUNT, MILICE, MILICE_VOTES, PLACES


def share_places(cards: Sequence[int], places: Sequence[int]) -> list[int]:
    """G4: the votes of one guild, for players holding ``cards`` of it each.

    Players with at least one card are ranked by how many they hold. Walking down the
    ranking, a group of ``n`` tied players who reach place ``i`` shares the values of places
    ``i .. i+n-1`` that exist (floor of the sum over ``n``); the next group reaches ``i+n``.
    """
    votes = [0] * len(cards)
    ranked = sorted((c for c in set(cards) if c > 0), reverse=True)
    place = 0
    for count in ranked:
        if place >= len(places):
            break
        group = [player for player, c in enumerate(cards) if c == count]
        share = sum(places[place : place + len(group)]) // len(group)
        for player in group:
            votes[player] = share
        place += len(group)
    return votes


def without_ties(cards: Sequence[int]) -> list[int]:
    """The event 'ties ignored' (G6): cards of players tied with another "do not exist".

    Removing every tied group at once is the same as removing them place by place: taking
    out lower groups never changes the places of the groups above them.
    """
    return [c if c > 0 and cards.count(c) == 1 else 0 for c in cards]


def guild_votes(
    round_index: int, guild: int, cards: Sequence[int], ignore_ties: bool = False
) -> list[int]:
    """The votes each player gets from one guild at the count of round ``round_index``."""
    if guild == MILICE:  # Milice: 3 votes a card at every count, ties do not matter
        return [MILICE_VOTES * c for c in cards]
    if ignore_ties:
        cards = without_ties(cards)
    return share_places(cards, PLACES[round_index][guild])


def count_votes(
    round_index: int, tableaux: Sequence[Sequence[int]], ignore_ties: bool = False
) -> list[int]:
    """G4: the votes of each player at the count of round ``round_index`` (0, 1 or 2).

    ``tableaux[p][g]`` is how many cards of guild ``g`` player ``p`` has, as counted.
    """
    totals = [0] * len(tableaux)
    for guild in range(GUILD_COUNT):
        cards = [tableau[guild] for tableau in tableaux]
        if not any(cards):
            continue
        for player, votes in enumerate(guild_votes(round_index, guild, cards, ignore_ties)):
            totals[player] += votes
    return totals
