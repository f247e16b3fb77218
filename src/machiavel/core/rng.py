"""Seeded randomness that is part of a game's state.

Python's ``random`` module keeps 625 words of state and its helper methods may change
between versions; games need a tiny state that serializes as one integer and gives the
same draws on every machine and Python version. SplitMix64 does that.
"""

from __future__ import annotations

import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_TWO64 = 1 << 64
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def random_seed() -> int:
    """A fresh seed for games started without one: all 64 bits of ``Rng``'s state, from
    the operating system's secure source, so that nobody can guess it and know the
    hidden cards (a short seed could be searched for from the cards one sees)."""
    return secrets.randbits(64)


class Rng:
    """A deterministic random number generator whose whole state is one 64-bit integer."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK64

    @property
    def state(self) -> int:
        return self._state

    @classmethod
    def from_state(cls, state: int) -> Rng:
        return cls(state)

    def clone(self) -> Rng:
        return Rng(self._state)

    def next_u64(self) -> int:
        self._state = (self._state + _GOLDEN_GAMMA) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        """``items[self.below(len(items))]``, the generator inlined: search play-outs make
        millions of these choices."""
        n = len(items)
        if not n:
            raise ValueError("choice() from an empty sequence")
        limit = _TWO64 - (_TWO64 % n)
        state = self._state
        while True:
            state = (state + _GOLDEN_GAMMA) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            z ^= z >> 31
            if z < limit:
                self._state = state
                return items[z % n]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place (the generator inlined: shuffles start every game)."""
        state = self._state
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            limit = _TWO64 - (_TWO64 % bound)
            while True:
                state = (state + _GOLDEN_GAMMA) & _MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % bound
            items[i], items[j] = items[j], items[i]
        self._state = state

    def fork(self) -> Rng:
        """An independent generator derived from this one (advances this one once)."""
        return Rng(self.next_u64())
