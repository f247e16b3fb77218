"""The group commit's plain SQL: one parameter mark per value the writer passes, and a
sentence for a driver it cannot speak to (the statements themselves run in
test_server_writer.py and test_server_storage.py, on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from machiavel.server import groupsql
from machiavel.server.storage import Repository


@pytest.mark.parametrize("mark", ["?", "%s"])
@pytest.mark.parametrize(("games", "humans", "ended"), [(1, 0, 0), (3, 2, 1), (7, 7, 0)])
def test_each_statement_has_a_mark_per_value(
    mark: str, games: int, humans: int, ended: int
) -> None:
    moved = groupsql.move_games(mark, games, humans, ended)
    # the time; (id, to_move) a game; people's ids and the time; ended ids and true;
    # the ids; (id, version) a game
    values = 1 + 2 * games + (humans + 1 if humans else 0) + (ended + 1 if ended else 0)
    assert moved.count(mark) == values + 3 * games
    assert groupsql.insert_actions(mark, games).count(mark) == 4 * games
    assert groupsql.change_seat(mark, True).count(mark) == 7
    assert groupsql.change_seat(mark, False).count(mark) == 6


def test_sqlite_reads_its_version_pairs_from_values() -> None:
    assert "IN (VALUES (?, ?), (?, ?))" in groupsql.move_games("?", 2, 0, 0)
    assert "IN ((%s, %s), (%s, %s))" in groupsql.move_games("%s", 2, 0, 0)


@pytest.mark.parametrize(("games", "humans", "ended"), [(1, 0, 0), (3, 2, 1), (40, 40, 2)])
def test_sqlite_moves_the_games_through_their_primary_key(
    sqlite_url: str, games: int, humans: int, ended: int
) -> None:
    """Not a read of every game at every group commit ("SCAN games"): a search of the
    primary key for each game moved."""
    repository = Repository(sqlite_url)
    try:
        sql = groupsql.move_games("?", games, humans, ended)
        with repository.engine.connect() as conn:
            plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", (None,) * sql.count("?"))
            steps = [row[-1] for row in plan]
    finally:
        repository.close()
    assert "SEARCH games USING INDEX sqlite_autoindex_games_1 (id=?)" in steps
    assert not [step for step in steps if step.startswith("SCAN games")]


def test_a_driver_without_positional_marks_is_refused_with_a_sentence() -> None:
    assert groupsql.parameter_mark("qmark") == "?"
    assert groupsql.parameter_mark("pyformat") == groupsql.parameter_mark("format") == "%s"
    with pytest.raises(ValueError, match="use SQLite or PostgreSQL"):
        groupsql.parameter_mark("named")
