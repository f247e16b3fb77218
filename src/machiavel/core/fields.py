"""One declaration per state field: how a field is copied by ``clone`` and whether it is saved.

A game's state lists each of its fields once, in a ``StateFields`` mapping names to kinds;
``State.clone`` and ``State._snapshot`` are derived from it, so a field cannot be added to
one and forgotten in the other. The conformance suite checks that every attribute a state
carries is declared.

Copying is the hot path of search (one clone per ISMCTS iteration): the copier copies the
instance's dict in one call, then only the mutable fields, in a function written out field
by field from the declaration, so a declaration costs nothing over hand-written copies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from machiavel.core.rng import Rng

# How a field's value is copied into a clone.
_SHARE = "share"  # immutable, or replaced wholesale and never changed in place
_LIST = "list"  # a list of immutable items: a shallow copy
_ROWS = "rows"  # a list of lists of immutable items: each row copied
_SET = "set"  # a set of immutable items
_DICT = "dict"  # a dict of immutable values: a shallow copy
_RNG = "rng"  # the game's random generator: cloned


@dataclass(frozen=True)
class Kind:
    """How one field is copied, and whether the snapshot (``to_json``) saves it."""

    copy: str
    saved: bool = True


# Shared by a state and its clones: immutable data (numbers, strings, tuples, None), or a
# value replaced whole and never changed in place.
SHARED = Kind(_SHARE)
LIST = Kind(_LIST)
ROWS = Kind(_ROWS)
SET = Kind(_SET)  # saved as a sorted list
DICT = Kind(_DICT)
RNG = Kind(_RNG)  # saved as its state
SETTING = Kind(_SHARE, saved=False)  # read from the setup's options: the setup already saves it
CACHE = Kind(_SHARE, saved=False)  # derived from the saved fields, immutable
DERIVED_LIST = Kind(_LIST, saved=False)  # derived from the saved fields, appended to


class StateFields(Mapping[str, Kind]):
    """The fields of one game's state, in the order the snapshot lists them."""

    def __init__(self, **kinds: Kind) -> None:
        self._kinds = dict(kinds)
        for name, kind in self._kinds.items():
            if not name.isidentifier() or not isinstance(kind, Kind):
                raise TypeError(f"field {name!r} must be declared with a Kind, not {kind!r}")
        # copy(source, target) gives ``target`` every declared field of ``source``, sharing
        # nothing either may change in place: one call, no loop.
        self.copy: Callable[[Any, Any], None] = self._compile_copy()
        # A saved field named with a leading underscore (a private field behind a property)
        # is saved under its public name.
        self._saved = tuple(
            (name, name.lstrip("_")) for name, kind in self._kinds.items() if kind.saved
        )

    def __getitem__(self, name: str) -> Kind:
        return self._kinds[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)

    def _compile_copy(self) -> Callable[[Any, Any], None]:
        """``copy`` written out field by field, as a hand-written one would be: a loop per
        kind costs a clone of Djambi half as much again, and search clones every iteration.
        Attributes are set one by one (not the instance's ``__dict__`` at once) so that the
        clone keeps Python's compact instance layout, which the engines' hot loops read
        faster. The text is made only from the declared names (Python identifiers)."""
        copies = {
            _SHARE: "{value}",
            _LIST: "{value}[:]",
            _ROWS: "[row[:] for row in {value}]",
            _SET: "set({value})",
            _DICT: "dict({value})",
            _RNG: "{value}.clone()",
        }
        lines = ["def copy(source, target):"]
        for name, kind in self._kinds.items():
            lines.append(f"    target.{name} = " + copies[kind.copy].format(value=f"source.{name}"))
        if len(lines) == 1:
            lines.append("    pass")  # a game with no fields of its own
        namespace: dict[str, Any] = {}
        exec("\n".join(lines), namespace)  # our own text, made from identifiers only
        copy: Callable[[Any, Any], None] = namespace["copy"]
        return copy

    def snapshot(self, source: Any) -> dict[str, Any]:
        """Every saved field as JSON-shaped data (compared with parsed JSON on load)."""
        return {key: plain(getattr(source, name)) for name, key in self._saved}


def plain(value: Any) -> Any:
    """JSON-shaped data: tuples become lists, sets sorted lists, a generator its state."""
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, set | frozenset):
        return sorted(value)
    if isinstance(value, Rng):
        return value.state
    return value


def through_init(value: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """``__reduce__`` of a frozen dataclass compiled by mypyc (machiavel/speedups.py),
    which can only be made through its ``__init__``: its class and its fields in order."""
    names = (field.name for field in dataclasses.fields(value))
    return (type(value), tuple(getattr(value, name) for name in names))
