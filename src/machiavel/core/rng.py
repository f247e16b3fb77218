"""Seeded randomness that is part of a game's state.

Python's ``random`` module keeps 625 words of state and its helper methods may change
between versions; games need a tiny state that serializes as one integer and gives the
same draws on every machine and Python version. SplitMix64 does that.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, MutableSequence, Sequence
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

    def __reduce__(self) -> tuple[type[Rng], tuple[int]]:
        return (Rng, (self._state,))  # compiled with mypyc (speedups.py): only via __init__

    def next_u64(self) -> int:
        self._state = (self._state + _GOLDEN_GAMMA) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def upcoming(self, count: int) -> list[int]:
        """The next ``count`` values of ``next_u64``, without drawing them (``skip`` moves
        past those used). SplitMix64's n-th draw depends on the seed and n alone, so a
        block is worked out at once (with numpy when installed: a search play-out makes
        hundreds of draws, at a fraction of a call each)."""
        return _block_of()(self._state, count)

    def skip(self, count: int) -> None:
        """Move on as ``count`` calls of ``next_u64`` would."""
        self._state = (self._state + count * _GOLDEN_GAMMA) & _MASK64

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


Block = Callable[[int, int], list[int]]  # (state, count) -> the next count draws
_BLOCK: list[Block] = []  # the way chosen, once


def _block_of() -> Block:
    if not _BLOCK:
        _BLOCK.append(_numpy_block() or _python_block)
    return _BLOCK[0]


def prepare_blocks() -> None:
    """Choose how ``Rng.upcoming`` works (importing numpy) now rather than at its first
    call: a game whose play-outs use it calls this once it is imported, so no search pays
    for the import."""
    _block_of()


def _python_block(state: int, count: int) -> list[int]:
    """``Rng.upcoming`` without numpy: the draws one after another."""
    rng = Rng(state)
    return [rng.next_u64() for _ in range(count)]


def _numpy_block() -> Block | None:
    """``Rng.upcoming`` in numpy's 64-bit arithmetic (wrapping like the mask), or None
    without numpy (an optional dependency: the ``rl`` extra, and matplotlib's)."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy comes with matplotlib
        return None
    u64 = np.uint64
    gamma, first, second = u64(_GOLDEN_GAMMA), u64(0xBF58476D1CE4E5B9), u64(0x94D049BB133111EB)
    s30, s27, s31 = u64(30), u64(27), u64(31)
    steps: list[object] = [np.zeros(0, dtype=u64)]  # k * gamma for k = 1, 2, ...

    def block(state: int, count: int) -> list[int]:
        known = steps[0]
        assert isinstance(known, np.ndarray)
        if len(known) < count:
            with np.errstate(over="ignore"):
                known = np.arange(1, max(count, 2 * len(known)) + 1, dtype=u64) * gamma
            steps[0] = known
        z = known[:count] + u64(state)
        z ^= z >> s30
        z *= first
        z ^= z >> s27
        z *= second
        z ^= z >> s31
        values: list[int] = z.tolist()
        return values

    return block
