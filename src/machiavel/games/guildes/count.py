"""The count of votes at the end of a round (ruling G4): pure functions, no state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from machiavel.games.guildes.data import GUILD_COUNT, GUILD_NAMES, MILICE, MILICE_VOTES, PLACES


def share_places(cards: Sequence[int], places: Sequence[int]) -> list[int]:
    """G4: the votes of one guild, for players holding ``cards`` of it each.

    Players with at least one card are ranked by how many they hold. Walking down the
    ranking, a group of ``n`` tied players who reach place ``i`` shares the values of places
    ``i .. i+n-1`` that exist (floor of the sum over ``n``); the next group reaches ``i+n``.
    """
    votes = [0] * len(cards)
    place, last = 0, len(places)
    for count in sorted(set(cards), reverse=True):
        if count <= 0 or place >= last:
            break
        group = [player for player, c in enumerate(cards) if c == count]
        share = sum(places[place : place + len(group)]) // len(group)
        for player in group:
            votes[player] = share
        place += len(group)
    return votes


def share_of(cards: Sequence[int], places: Sequence[int], player: int) -> int:
    """``share_places(cards, places)[player]`` alone: the players ahead of ``player`` (more
    cards) reach the first places, so its group starts at the place their number gives."""
    mine = cards[player]
    if mine <= 0:
        return 0
    ahead = tied = 0
    for count in cards:
        if count > mine:
            ahead += 1
        elif count == mine:
            tied += 1
    if ahead >= len(places):
        return 0
    return sum(places[ahead : ahead + tied]) // tied


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
    shares = _SHARES
    if len(shares) >= SHARES_KEPT:
        shares.clear()
    rows = []
    for guild, cards in enumerate(zip(*tableaux, strict=True)):
        key = (round_index, guild, ignore_ties, cards)
        votes = shares.get(key)
        if votes is None:
            votes = shares[key] = tuple(guild_votes(round_index, guild, cards, ignore_ties))
        rows.append(votes)
    return [sum(column) for column in zip(*rows, strict=True)]


# Each guild's votes for the cards the players hold of it, by (round, guild, ties ignored,
# cards): the same few hands of a guild come up at most counts of a search's play-outs.
_SHARES: dict[tuple[int, int, bool, tuple[int, ...]], tuple[int, ...]] = {}
SHARES_KEPT = 1 << 16  # entries kept at most (emptied when full: a server runs for weeks)


def ranking(cards: Sequence[int]) -> list[int | None]:
    """G4: the place each player reaches in one guild: 1 for the most cards, tied players
    sharing the place of the first of them (the next group reaching place i+n, as in
    ``share_places``); None for a player without a card."""
    places: list[int | None] = [None] * len(cards)
    place = 1
    for count in sorted({c for c in cards if c > 0}, reverse=True):
        group = [player for player, c in enumerate(cards) if c == count]
        for player in group:
            places[player] = place
        place += len(group)
    return places


def count_details(
    round_index: int, tableaux: Sequence[Sequence[int]], ignore_ties: bool = False
) -> dict[str, Any]:
    """The count of round ``round_index`` guild by guild, for people to read (G4, G6).

    Per player, as the tableaux are (``{guild name: ...}``, guilds in the count card's
    order): ``guild_votes``, the votes won in each guild they hold (0 where they reach no
    place; they add up to ``count_votes``); ``places``, the place reached in each guild but
    Milice, which has none (as ``ranking``); ``tied``, the guilds where they share their
    place; ``ignored``, with the event "ties ignored", the guilds where their cards did not
    count.
    """
    n = len(tableaux)
    votes: list[dict[str, int]] = [{} for _ in range(n)]
    places: list[dict[str, int]] = [{} for _ in range(n)]
    tied: list[list[str]] = [[] for _ in range(n)]
    ignored: list[list[str]] = [[] for _ in range(n)]
    for guild in range(GUILD_COUNT):
        cards = [tableau[guild] for tableau in tableaux]
        if not any(cards):
            continue
        name = GUILD_NAMES[guild]
        won = guild_votes(round_index, guild, cards, ignore_ties)
        ranks = ranking(without_ties(cards) if ignore_ties else cards)
        for player in range(n):
            if not cards[player]:
                continue
            votes[player][name] = won[player]
            place = ranks[player]
            if guild == MILICE:
                continue
            if place is None:  # a card that does not count (ties ignored)
                ignored[player].append(name)
                continue
            places[player][name] = place
            if ranks.count(place) > 1:
                tied[player].append(name)
    return {"guild_votes": votes, "places": places, "tied": tied, "ignored": ignored}
