"""The seeded generator: reproducible, unbiased in range, serializable as one integer."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from machiavel.core import rng as rng_module
from machiavel.core.rng import Rng


def test_same_seed_same_draws_and_known_first_values() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    # SplitMix64 reference value for seed 0: pins the algorithm across versions.
    assert Rng(0).next_u64() == 0xE220A8397B1DCDAF


@given(seed=st.integers(), n=st.integers(1, 10**12))
def test_below_stays_in_range(seed: int, n: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))


def test_below_refuses_empty_ranges() -> None:
    with pytest.raises(ValueError, match="positive"):
        Rng(1).below(0)
    with pytest.raises(ValueError, match="empty"):
        Rng(1).choice([])


def test_below_is_roughly_uniform() -> None:
    rng = Rng(7)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < c < 11_000 for c in counts.values())


@given(seed=st.integers(0, 2**64 - 1), size=st.integers(0, 40))
def test_inlined_shuffle_equals_textbook_fisher_yates(seed: int, size: int) -> None:
    fast, slow = Rng(seed), Rng(seed)
    items = list(range(size))
    fast.shuffle(items)
    expected = list(range(size))
    for i in range(size - 1, 0, -1):
        j = slow.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and fast.state == slow.state


def test_state_round_trip_and_clone_are_independent() -> None:
    rng = Rng(3)
    rng.next_u64()
    copy = Rng.from_state(rng.state)
    clone = rng.clone()
    assert copy.next_u64() == clone.next_u64() == rng.next_u64()
    fork = rng.fork()
    assert fork.state != rng.state
    assert 0.0 <= rng.random() < 1.0


@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    sizes=st.lists(st.integers(0, 700), min_size=1, max_size=4),
)
def test_upcoming_draws_are_next_u64s_and_skip_moves_past_them(seed: int, sizes: list[int]) -> None:
    blocks, one_by_one = Rng(seed), Rng(seed)
    for size in sizes:
        expected = [one_by_one.next_u64() for _ in range(size)]
        assert blocks.upcoming(size) == expected
        assert rng_module._python_block(blocks.state, size) == expected  # without numpy
        blocks.skip(size)
        assert blocks.state == one_by_one.state
