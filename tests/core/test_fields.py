"""One declaration per state field (core/fields.py): what a clone shares and what it copies."""

from __future__ import annotations

from typing import Any

import pytest

from machiavel.core.fields import (
    CACHE,
    DERIVED_LIST,
    DICT,
    LIST,
    RNG,
    ROWS,
    SET,
    SETTING,
    SHARED,
    StateFields,
    plain,
)
from machiavel.core.rng import Rng

FIELDS = StateFields(
    size=SETTING,
    turn=SHARED,
    pile=LIST,
    grid=ROWS,
    seen=SET,
    marks=DICT,
    rng=RNG,
    _winners=SHARED,
    _legal=CACHE,
    notes=DERIVED_LIST,
)


class Holder:
    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def sample() -> Any:
    return Holder(
        size=3,
        turn=(1, 2),
        pile=[1, 2],
        grid=[[1], [2, 3]],
        seen={3, 1},
        marks={0: 1},
        rng=Rng(5),
        _winners=(0,),
        _legal=("a", "b"),
        notes=["x"],
        extra="kept",
    )


def test_a_copy_shares_nothing_that_either_side_changes_in_place() -> None:
    source = sample()
    target: Any = Holder()
    FIELDS.copy(source, target)
    target.pile.append(9)
    target.grid[1].append(9)
    target.seen.add(9)
    target.marks[1] = 9
    target.notes.append("y")
    target.rng.next_u64()
    assert source.pile == [1, 2] and source.grid == [[1], [2, 3]]
    assert source.seen == {1, 3} and source.marks == {0: 1} and source.notes == ["x"]
    assert source.rng.state == Rng(5).state
    # immutable values, settings and caches are shared, not copied
    assert target.turn is source.turn and target._legal is source._legal
    assert not hasattr(target, "extra")  # only declared fields are copied


def test_the_snapshot_saves_every_saved_field_as_json_data_and_nothing_else() -> None:
    assert FIELDS.snapshot(sample()) == {
        "turn": [1, 2],
        "pile": [1, 2],
        "grid": [[1], [2, 3]],
        "seen": [1, 3],
        "marks": {0: 1},
        "rng": Rng(5).state,
        "winners": [0],  # a private field behind a property is saved under its public name
    }


def test_fields_keep_their_declared_order() -> None:
    assert list(FIELDS)[:3] == ["size", "turn", "pile"]
    assert len(FIELDS) == 10 and FIELDS["grid"] is ROWS


def test_a_field_needs_a_kind() -> None:
    with pytest.raises(TypeError, match="Kind"):
        StateFields(board=list)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expected"),
    [((1, (2, 3)), [1, [2, 3]]), ({"a": (1,)}, {"a": [1]}), (frozenset({2, 1}), [1, 2]), (7, 7)],
)
def test_plain_gives_json_shaped_data(value: Any, expected: Any) -> None:
    assert plain(value) == expected
