"""The quick counts search uses give what the full count gives (issue 16)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machiavel.games.guildes import count
from machiavel.games.guildes.count import (
    count_votes,
    guild_votes,
    share_of,
    share_places,
    without_ties,
)
from machiavel.games.guildes.data import GUILD_COUNT, MILICE, PLACES

columns = st.lists(st.integers(min_value=0, max_value=6), min_size=3, max_size=6)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    cards=columns,
    round_index=st.integers(min_value=0, max_value=2),
    guild=st.integers(min_value=0, max_value=MILICE - 1),
    ignore_ties=st.booleans(),
)
def test_one_players_share_is_theirs_in_the_whole_guilds_shares(
    cards: list[int], round_index: int, guild: int, ignore_ties: bool
) -> None:
    counted = without_ties(cards) if ignore_ties else cards
    places = PLACES[round_index][guild]
    everyone = share_places(counted, places)
    assert [share_of(counted, places, player) for player in range(len(cards))] == everyone


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    tableaux=st.integers(min_value=3, max_value=6).flatmap(
        lambda players: st.lists(
            st.lists(
                st.integers(min_value=0, max_value=5), min_size=GUILD_COUNT, max_size=GUILD_COUNT
            ),
            min_size=players,
            max_size=players,
        )
    ),
    round_index=st.integers(min_value=0, max_value=2),
    ignore_ties=st.booleans(),
)
def test_a_count_adds_up_each_guilds_votes(
    tableaux: list[list[int]], round_index: int, ignore_ties: bool
) -> None:
    expected = [0] * len(tableaux)
    for guild in range(GUILD_COUNT):
        column = [row[guild] for row in tableaux]
        for player, votes in enumerate(guild_votes(round_index, guild, column, ignore_ties)):
            expected[player] += votes
    assert count_votes(round_index, tableaux, ignore_ties) == expected


def test_counts_stay_right_when_the_kept_votes_are_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(count, "SHARES_KEPT", 3)  # emptied at nearly every count
    tableaux = [
        [(player * 7 + guild * 3) % 5 for guild in range(GUILD_COUNT)] for player in range(4)
    ]
    first = count_votes(1, tableaux)
    assert count_votes(1, tableaux) == first
    assert len(count._SHARES) <= GUILD_COUNT
    expected = [0] * len(tableaux)
    for guild in range(GUILD_COUNT):
        column = [row[guild] for row in tableaux]
        for player, votes in enumerate(guild_votes(1, guild, column)):
            expected[player] += votes
    assert first == expected
