"""The quick counts search uses give what the full count gives (issue 16)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from machiavel.games.guildes.count import guild_votes, player_votes
from machiavel.games.guildes.data import GUILD_COUNT

columns = st.lists(st.integers(min_value=0, max_value=6), min_size=3, max_size=6)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    cards=columns,
    round_index=st.integers(min_value=0, max_value=2),
    guild=st.integers(min_value=0, max_value=GUILD_COUNT - 1),
    ignore_ties=st.booleans(),
)
def test_one_players_votes_are_their_share_of_the_whole_count(
    cards: list[int], round_index: int, guild: int, ignore_ties: bool
) -> None:
    everyone = guild_votes(round_index, guild, cards, ignore_ties)
    assert [
        player_votes(round_index, guild, cards, player, ignore_ties) for player in range(len(cards))
    ] == everyone
