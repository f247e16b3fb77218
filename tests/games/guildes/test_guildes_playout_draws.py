"""Guildes' random play-out reads the generator's draws from blocks (``Rng.upcoming``):
a refused draw is drawn again from the block and past it as ``Rng.below`` would, and the
generator ends where those draws leave it; the guilds held are looked up in a table that
answers as ``guilds_in``, however often it is emptied. (The whole play-out against the contract's loop
is in tests/conformance/test_fast_policy.py.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from machiavel.core.rng import Rng
from machiavel.games.guildes import rules
from machiavel.games.guildes.data import GUILD_COUNT
from machiavel.games.guildes.rules import _redraw, guilds_in


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    block=st.integers(min_value=1, max_value=6),
    used=st.integers(min_value=1, max_value=6),
    limit=st.sampled_from([1 << 60, 1 << 62, 1 << 63, 3 << 62]),
)
def test_a_refused_draw_is_drawn_again_as_below_does(
    seed: int, block: int, used: int, limit: int
) -> None:
    used = min(used, block)
    rng, reference = Rng(seed), Rng(seed)
    draws = rng.upcoming(block)
    for _ in range(used):  # the draws already taken, the last of them refused
        reference.next_u64()
    while (expected := reference.next_u64()) >= limit:
        pass
    draw, draws, at = _redraw(rng, draws, used, limit)
    rng.skip(at)
    assert draw == expected
    assert rng.state == reference.state


@settings(max_examples=100, deadline=None, derandomize=True)
@given(rows=st.lists(st.tuples(*[st.integers(0, 4)] * GUILD_COUNT), min_size=1, max_size=8))
def test_the_guilds_held_are_looked_up_as_guilds_in_says(
    rows: list[tuple[int, ...]],
) -> None:
    kept = rules.HELD_KEPT
    rules.HELD_KEPT = 3  # emptied again and again
    try:
        for row in rows:
            assert list(rules._held_guilds(row)) == guilds_in(row)
            assert rules._HELD[row] == tuple(guilds_in(row))
            assert len(rules._HELD) <= 3
    finally:
        rules.HELD_KEPT = kept
        rules._HELD.clear()
