"""``hidden.shuffle`` and ``hidden.below``, resample's draws on 16-bit pieces of the
generator's draws: every order and every number equally likely, nothing lost (a fixed
seed: the tests cannot fail by chance)."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from machiavel.core.rng import Rng
from machiavel.games.guildes.hidden import below, shuffle, small_draws


def test_every_order_of_four_cards_comes_about_as_often() -> None:
    rng = Rng(2024)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(24_000):
        cards = [0, 1, 2, 3]
        shuffle(rng, cards)
        seen[tuple(cards)] += 1
    assert set(seen) == set(permutations(range(4)))
    assert all(900 <= times <= 1100 for times in seen.values())  # 1000 expected each


def test_a_shuffle_keeps_the_cards_and_draws_nothing_for_one() -> None:
    rng = Rng(7)
    deck = [g for g in range(9) for _ in range(12)]
    shuffle(rng, deck)
    assert sorted(deck) == [g for g in range(9) for _ in range(12)]
    state = rng.state
    single = [5]
    shuffle(rng, single)
    assert single == [5] and rng.state == state


def test_every_number_below_a_bound_comes_about_as_often() -> None:
    draws = small_draws(Rng(99))
    seen = Counter(below(draws, 7) for _ in range(70_000))
    assert set(seen) == set(range(7))
    assert all(9_500 <= times <= 10_500 for times in seen.values())  # 10000 expected each
