"""The group commit's busiest statements as plain SQL text (storage.py runs them).

Every action moves its game one version on and adds a row of ``actions``; every seat
taken changes a row of ``seats``. Built as SQLAlchemy expressions, these statements cost
several times what the database then spends running them: a ``CASE`` with one branch per
game and a list of (id, version) pairs make hundreds of objects per group, which
SQLAlchemy then turns into a cache key and parameters. Written here once per shape (how
many games, how many of them moved by a person, how many ended) and run with
``Connection.exec_driver_sql``, they cost a string lookup and a tuple of values; errors
are still SQLAlchemy's (``IntegrityError``, ``OperationalError``...), as the writer
expects.

Only what SQLite and PostgreSQL both read is written: row values compared with ``IN``,
``CASE``, multi-row ``VALUES``. Parameters are positional, in the driver's own mark
(``?`` for sqlite3, ``%s`` for psycopg).
"""

from __future__ import annotations

from functools import lru_cache

# Shapes kept: group sizes vary, each with a few counts of people's and final actions.
# Texts take about 40 characters a game (25 + 14 KB for the largest group, 1,000 games).
SHAPES_KEPT = 256


def parameter_mark(paramstyle: str) -> str:
    """The positional mark of a DBAPI driver's parameter style (PEP 249)."""
    if paramstyle == "qmark":
        return "?"
    if paramstyle in ("format", "pyformat"):
        return "%s"
    raise ValueError(
        f"the group writer needs a driver with positional parameters (qmark or format), "
        f"not {paramstyle}: use SQLite or PostgreSQL (psycopg)"
    )


@lru_cache(maxsize=SHAPES_KEPT)
def move_games(mark: str, games: int, humans: int, ended: int) -> str:
    """Move ``games`` games one version on, each only if it is at the version expected.

    Parameters, in order: the time; (id, to_move) per game; if ``humans``, the ids of
    the games a person moved and the time; if ``ended``, the ids of the games that ended
    and true; the id of each game; then (id, version expected) per game.

    The ids alone come first in ``WHERE``: SQLite finds the rows of ``id IN (...)``
    through the primary key, while for ``(id, version) IN (VALUES ...)`` alone it read
    every row of the table, at every group commit.
    """
    branches = " ".join([f"WHEN {mark} THEN {mark}"] * games)
    sets = [
        "version = version + 1",
        f"updated_at = {mark}",
        f"to_move = CASE id {branches} END",
    ]
    if humans:
        sets.append(
            f"human_acted_at = CASE WHEN id IN ({_marks(mark, humans)}) THEN {mark} ELSE human_acted_at END"
        )
    if ended:
        sets.append(
            f"is_over = CASE WHEN id IN ({_marks(mark, ended)}) THEN {mark} ELSE is_over END"
        )
    pairs = ", ".join([f"({mark}, {mark})"] * games)
    expected = f"VALUES {pairs}" if mark == "?" else pairs  # SQLite reads pairs from VALUES
    where = f"id IN ({_marks(mark, games)}) AND (id, version) IN ({expected})"
    return f"UPDATE games SET {', '.join(sets)} WHERE {where}"


@lru_cache(maxsize=SHAPES_KEPT)
def insert_actions(mark: str, actions: int) -> str:
    """Add ``actions`` rows of (game_id, number, player, action) in one statement."""
    rows = ", ".join([f"({mark}, {mark}, {mark}, {mark})"] * actions)
    return f"INSERT INTO actions (game_id, number, player, action) VALUES {rows}"


@lru_cache(maxsize=8)
def change_seat(mark: str, expects_token: bool) -> str:
    """Set a seat's name, token hash, claim and account if its token hash is the one
    expected (none: ``expects_token`` false). Parameters: the four values, the game id,
    the seat's player, then the expected token hash if there is one."""
    token = f"token_hash = {mark}" if expects_token else "token_hash IS NULL"
    return (
        f"UPDATE seats SET name = {mark}, token_hash = {mark}, claimed = {mark}, "
        f"account_id = {mark} WHERE game_id = {mark} AND player = {mark} AND {token}"
    )


@lru_cache(maxsize=8)
def unrate_game(mark: str) -> str:
    """The game of the id given is no longer rated (parameters: false, the id)."""
    return f"UPDATE games SET rated = {mark} WHERE id = {mark}"


def _marks(mark: str, count: int) -> str:
    return ", ".join([mark] * count)
