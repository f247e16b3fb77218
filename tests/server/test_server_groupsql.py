"""The group commit's plain SQL: one parameter mark per value the writer passes, and a
sentence for a driver it cannot speak to (the statements themselves run in
test_server_writer.py and test_server_storage.py, on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from machiavel.server import groupsql
from machiavel.server.storage import Repository


@pytest.mark.parametrize("mark", ["?", "%s"])
@pytest.mark.parametrize("games", [1, 3, 7])
def test_each_statement_has_a_mark_per_value(mark: str, games: int) -> None:
    # the time twice, then id, to_move, version, by a person: a game
    assert groupsql.move_games(mark, games).count(mark) == 2 + groupsql.MOVED_COLUMNS * games
    assert groupsql.insert_actions(mark, games).count(mark) == 4 * games
    assert groupsql.end_games(mark, games).count(mark) == 1 + games  # true, then the ids
    assert groupsql.change_seat(mark, True).count(mark) == 7
    assert groupsql.change_seat(mark, False).count(mark) == 6


@pytest.mark.parametrize("games", [1, 3, 40])
def test_sqlite_moves_the_games_through_their_primary_key(sqlite_url: str, games: int) -> None:
    """Not a read of every game at every group commit ("SCAN games"): a search of the
    primary key for each game moved, once per row of the values joined."""
    repository = Repository(sqlite_url)
    try:
        sql = groupsql.move_games("?", games)
        with repository.engine.connect() as conn:
            plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", (None,) * sql.count("?"))
            steps = [row[-1] for row in plan]
    finally:
        repository.close()
    assert "SEARCH games USING INDEX sqlite_autoindex_games_1 (id=?)" in steps
    assert not [step for step in steps if step.startswith("SCAN games")]


def test_a_group_of_games_moves_with_no_branch_per_game() -> None:
    """The statement grows by one row of values a game, never by a condition each row
    would go through: no ``CASE`` over the games, no list of ids (``n * n`` comparisons)."""
    small, large = groupsql.move_games("?", 2), groupsql.move_games("?", 200)
    assert small.count("CASE") == large.count("CASE") == 1
    assert " IN " not in large
    assert large.count("(?, ?, ?, ?)") == 200


def test_moving_games_leaves_their_indexed_ending_alone() -> None:
    """SQLite rewrites the index entry of every indexed column a SET names, changed or
    not: the UPDATE every action runs does not name ``is_over`` (``end_games`` does, for
    the games that end)."""
    moved = groupsql.move_games("?", 3)
    assert "is_over" not in moved.split(" FROM ")[0]
    assert groupsql.end_games("?", 2).startswith("UPDATE games SET is_over = ?")


def test_a_driver_without_positional_marks_is_refused_with_a_sentence() -> None:
    assert groupsql.parameter_mark("qmark") == "?"
    assert groupsql.parameter_mark("pyformat") == groupsql.parameter_mark("format") == "%s"
    with pytest.raises(ValueError, match="use SQLite or PostgreSQL"):
        groupsql.parameter_mark("named")
