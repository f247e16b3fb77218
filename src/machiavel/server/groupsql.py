"""The group commit's busiest statements as plain SQL text (storage.py runs them).

Every action moves its game one version on and adds a row of ``actions``; every seat
taken changes a row of ``seats``. Built as SQLAlchemy expressions, these statements cost
several times what the database then spends running them: hundreds of objects per group,
which SQLAlchemy then turns into a cache key and parameters. Written here once per shape
(how many games) and run with ``Connection.exec_driver_sql``, they cost a string lookup
and a tuple of values; errors are still SQLAlchemy's (``IntegrityError``,
``OperationalError``...), as the writer expects.

Only what SQLite (3.33 on) and PostgreSQL both read is written: multi-row ``VALUES``,
whose columns both name ``column1``, ``column2``..., ``UPDATE ... FROM``, ``CASE``.
Parameters are positional, in the driver's own mark (``?`` for sqlite3, ``%s`` for
psycopg).
"""

from __future__ import annotations

from functools import lru_cache

# Shapes kept: one per group size. Texts take about 17 characters a game (17 KB for the
# largest group, 1,000 games).
SHAPES_KEPT = 256
# Values a game moved in ``move_games``: id, to_move, version expected, by a person.
MOVED_COLUMNS = 4


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
def move_games(mark: str, games: int) -> str:
    """Move ``games`` games one version on, each only if it is at the version expected.

    Parameters, in order: the time; the time again (when a person moved the game); then
    per game its id, its ``to_move`` text, the version expected and whether a person moved
    it (``MOVED_COLUMNS`` values a game).

    The games are joined to a list of values (``UPDATE ... FROM``), each found through
    the primary key. Until 2026-11-25 the new ``to_move`` of each game was a ``CASE``
    with a branch per game, which the database went through for every row: a group of
    ``n`` games cost ``n * n`` comparisons (1,000 games: 8.4 ms of SQLite against 3.1 now).

    ``is_over`` is not assigned here but by ``end_games``, for the games an action ends:
    SQLite rewrites the index entry of every indexed column a ``SET`` names, changed or
    not, and ``is_over`` is indexed (until 2026-11-29 every action rewrote its entry:
    about 2.4 of 22.5 µs of SQLite's work an action; docs/server.md, "What storing an
    action costs SQLite").
    """
    rows = ", ".join([f"({_marks(mark, MOVED_COLUMNS)})"] * games)
    return (
        "UPDATE games SET version = games.version + 1, "
        f"updated_at = {mark}, "
        "to_move = moved.column2, "
        f"human_acted_at = CASE WHEN moved.column4 THEN {mark} ELSE games.human_acted_at END "
        f"FROM (VALUES {rows}) AS moved "
        "WHERE games.id = moved.column1 AND games.version = moved.column3"
    )


@lru_cache(maxsize=SHAPES_KEPT)
def end_games(mark: str, games: int) -> str:
    """Mark ``games`` games over (parameters: true, then their ids): those whose action of
    the group ended them, after ``move_games`` moved them."""
    return f"UPDATE games SET is_over = {mark} WHERE id IN ({_marks(mark, games)})"


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
