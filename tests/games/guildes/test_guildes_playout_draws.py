"""Guildes' random play-out reads the generator's draws from blocks (``Rng.upcoming``):
a refused draw is drawn again from the block and past it as ``Rng.below`` would, and the
generator ends where those draws leave it. (The whole play-out against the contract's loop
is in tests/conformance/test_fast_policy.py.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from machiavel.core.rng import Rng
from machiavel.games.guildes.rules import _redraw


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
