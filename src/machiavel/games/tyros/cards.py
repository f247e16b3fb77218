"""Trade cards as colour counts (Y1): hands, payments and offers are multisets of colours.

A card has no identity beyond its colour, so a hand is five counts (orange, yellow, green,
violet, joker) and every payment is written as a sorted, comma-separated list of colour
names, e.g. ``orange,orange,joker``. Strings are built once and cached: legal_actions is
on the hot path of random play and search.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

COLOURS = ("orange", "yellow", "green", "violet")  # empire colours, in tie-break order (Y8)
JOKER = 4
CARD_NAMES = (*COLOURS, "joker")
KINDS = 5
PER_COLOUR = 14  # Y1
JOKERS = 4  # Y1
TOTAL_CARDS = PER_COLOUR * len(COLOURS) + JOKERS  # 60

Vec = tuple[int, int, int, int, int]

# Spellings accepted from people: English, French, initials.
ALIASES = {
    "orange": 0,
    "o": 0,
    "yellow": 1,
    "y": 1,
    "jaune": 1,
    "green": 2,
    "g": 2,
    "vert": 2,
    "violet": 3,
    "v": 3,
    "purple": 3,
    "joker": 4,
    "j": 4,
    "grey": 4,
    "gray": 4,
    "gris": 4,
}


def full_deck() -> list[int]:
    """The 60 trade cards as colour indices, in a fixed order."""
    return [c for c in range(len(COLOURS)) for _ in range(PER_COLOUR)] + [JOKER] * JOKERS


@cache
def vec_str(vec: Vec) -> str:
    """``(2, 0, 0, 0, 1)`` -> ``"orange,orange,joker"``."""
    return ",".join(CARD_NAMES[c] for c in range(KINDS) for _ in range(vec[c]))


@cache
def parse_cards(text: str) -> Vec | None:
    """A card list in any accepted spelling, or None if it is not one."""
    counts = [0] * KINDS
    for name in text.split(","):
        index = ALIASES.get(name.strip())
        if index is None:
            return None
        counts[index] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


@cache
def kinds_in(vec: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(kind, count) of each kind present in ``vec``, in kind order (payments mostly hold
    one colour and jokers: loops over these skip the absent kinds)."""
    return tuple((kind, count) for kind, count in enumerate(vec) if count)


def vec_of(counts: Sequence[int]) -> Vec:
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def fits(vec: Vec, hand: Sequence[int]) -> bool:
    return (
        vec[0] <= hand[0]
        and vec[1] <= hand[1]
        and vec[2] <= hand[2]
        and vec[3] <= hand[3]
        and vec[4] <= hand[4]
    )


def sub_multisets(hand: Sequence[int], size: int) -> Iterator[Vec]:
    """Every way to pick ``size`` cards from ``hand``, as colour counts, in a fixed order."""
    picked = [0] * KINDS

    def walk(kind: int, left: int) -> Iterator[Vec]:
        if kind == KINDS - 1:
            if left <= hand[kind]:
                picked[kind] = left
                yield vec_of(picked)
            return
        rest = sum(hand[kind + 1 :])
        for take in range(min(left, hand[kind]), max(0, left - rest) - 1, -1):
            picked[kind] = take
            yield from walk(kind + 1, left - take)

    if 0 <= size <= sum(hand):
        yield from walk(0, size)


def _all_multisets(size: int) -> tuple[Vec, ...]:
    return tuple(sub_multisets((size,) * KINDS, size))


# Every multiset of 1-3 cards over the five kinds: enough for bank trades, offers, keeps.
MULTISETS = {size: _all_multisets(size) for size in (1, 2, 3)}


def pay_vec(colour: int, cards: int, jokers: int) -> Vec:
    counts = [0] * KINDS
    counts[colour] += cards
    counts[JOKER] += jokers
    return vec_of(counts)
