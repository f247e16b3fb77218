"""Helpers the game encodings share: an observation laid out as named fields.

A ``Layout`` is built once per encoding: each field gets the next free offset, so the
offsets in docs/rl.md and the code cannot drift apart (``rows`` gives the table the docs
show, and the tests compare them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from machiavel.rl.encoding import Vector


@dataclass(frozen=True)
class Field:
    """A run of ``length`` numbers from ``offset``: what they mean and how they are scaled."""

    name: str
    offset: int
    length: int
    meaning: str

    def slot(self, index: int) -> int:
        """The position in the vector of number ``index`` of this field."""
        if not 0 <= index < self.length:
            raise IndexError(f"{self.name} has {self.length} numbers, not an index {index}")
        return self.offset + index


class Layout:
    """Fields added one after the other; ``size`` is the observation's length."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, length: int, meaning: str) -> Field:
        if any(f.name == name for f in self.fields):
            raise ValueError(f"the layout already has a field {name!r}")
        made = Field(name, self.size, length, meaning)
        self.fields.append(made)
        self.size += length
        return made

    def rows(self) -> list[str]:
        """The layout as the rows of docs/rl.md's table: ``| offset | length | name | meaning |``."""
        return [f"| {f.offset} | {f.length} | `{f.name}` | {f.meaning} |" for f in self.fields]


def one_hot(out: Vector, field: Field, index: int | None) -> None:
    """Set number ``index`` of ``field`` (None: leave the field at zero)."""
    if index is not None:
        if not 0 <= index < field.length:
            field.slot(index)  # raises the IndexError that names the field
        out[field.offset + index] = 1.0


def many_hot(out: Vector, field: Field, indices: Iterable[int]) -> None:
    """Set every number of ``field`` that ``indices`` names."""
    offset, length = field.offset, field.length
    for index in indices:
        if not 0 <= index < length:
            field.slot(index)  # raises the IndexError that names the field
        out[offset + index] = 1.0


def fraction(count: float, maximum: float) -> float:
    """``count / maximum``, kept within [0, 1] (a count past its usual maximum reads 1)."""
    return min(max(count / maximum, 0.0), 1.0)


def fill(out: Vector, field: Field, values: Sequence[float]) -> None:
    """Write ``values`` into ``field`` from its start (exactly as many as it holds)."""
    if len(values) != field.length:
        raise ValueError(f"{field.name} holds {field.length} numbers, not {len(values)}")
    out[field.offset : field.offset + field.length] = values
