"""Migrations of the server's database (Alembic), run from code when a database is opened.

Why Alembic: a stored game is its setup plus its actions, kept for good, so the schema of
a database already in use must change in place, never be made again. Each change is a
numbered *revision* in ``versions/`` (``r0002_rules_version.py``...) with its ``upgrade``
(and ``downgrade``); the database records the revision it is at (table
``alembic_version``), and opening it applies the revisions it lacks, in order. Alembic
runs the same revisions on SQLite and PostgreSQL, can rewrite data as well as tables
(``r0003`` records a Djambi option in the games stored before it existed), and
``alembic.autogenerate.compare_metadata`` lets a test check that the revisions build
exactly the tables ``storage.py`` declares.

Nothing here needs an ``alembic.ini``: the configuration is built in code (``config``).
Every ``Repository`` (the server's, the tests', a benchmark's) calls ``upgrade`` when it
opens a database. All the missing revisions are applied in one transaction (SQLite and
PostgreSQL both change tables transactionally), under a lock (SQLite's write lock,
PostgreSQL's advisory lock), so two servers starting together migrate once, and a crash
in the middle leaves the database as it was. A database made before migrations existed
(by ``metadata.create_all``: its tables but no ``alembic_version``) is recognised and
stamped at the first revision, which creates exactly those tables, then upgraded.

For developers: ``python -m machiavel.server.migrations --help`` (a new revision, upgrade
a database, show its revision).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, inspect
from sqlalchemy.pool import NullPool

logger = logging.getLogger("machiavel.server")

HERE = Path(__file__).resolve().parent
INITIAL = "0001"  # the schema metadata.create_all made before migrations existed
ADVISORY_LOCK = 0x6D616368  # PostgreSQL: servers opening one database migrate in turn


class SchemaTooNew(RuntimeError):  # noqa: N818 - it names a situation
    """The database is at a revision this code does not know (a newer machiavel's)."""


@dataclass(frozen=True)
class Upgrade:
    """What opening a database did to its schema."""

    before: str | None  # its revision as found; None: no alembic_version (new or legacy)
    after: str
    stamped: bool = False  # made by create_all before migrations: stamped at INITIAL first

    @property
    def changed(self) -> bool:
        return self.stamped or self.before != self.after

    def describe(self) -> str:
        start = "create_all" if self.stamped else self.before or "empty"
        return f"database schema upgraded from {start} to revision {self.after}"


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, built in code; ``connection``: the one to migrate."""
    settings = Config()
    settings.set_main_option("script_location", str(HERE).replace("%", "%%"))
    settings.set_main_option("path_separator", "os")
    settings.set_main_option("file_template", "r%%(rev)s_%%(slug)s")
    if connection is not None:
        settings.attributes["connection"] = connection
    return settings


@cache
def scripts() -> ScriptDirectory:
    """The revisions (read once a process)."""
    return ScriptDirectory.from_config(config())


def head() -> str:
    """The newest revision: the schema this code reads and writes."""
    newest = scripts().get_current_head()
    assert newest is not None, "there is no migration"
    return newest


def revisions() -> list[str]:
    """Every revision, oldest first."""
    return [script.revision for script in reversed(list(scripts().walk_revisions()))]


def current(connection: Connection) -> str | None:
    """The revision a database is at (None: no alembic_version table)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> Upgrade:
    """Bring the database of ``engine`` to the newest revision (see the module's doc)."""
    with engine.connect() as connection:  # the usual case, at once: already there
        found = current(connection)
    newest = head()
    if found == newest:
        return Upgrade(found, newest)
    _check_known(found)
    migrating = _migration_engine(engine)
    try:
        with migrating.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({ADVISORY_LOCK})")
            done = upgrade_connection(connection)
    finally:
        if migrating is not engine:
            migrating.dispose()
    if done.changed:
        logger.info("%s", done.describe())
    return done


def upgrade_connection(connection: Connection) -> Upgrade:
    """Upgrade within the caller's transaction on ``connection`` (the lock already held)."""
    found = current(connection)  # again: another process may have migrated meanwhile
    _check_known(found)
    stamped = found is None and inspect(connection).has_table("games")
    if stamped:
        command.stamp(config(connection), INITIAL)
    command.upgrade(config(connection), "head")
    return Upgrade(found, head(), stamped)


def _check_known(found: str | None) -> None:
    if found is not None and found not in revisions():
        raise SchemaTooNew(
            f"the database is at schema revision {found!r}, which this version of machiavel "
            f"does not know (it knows up to {head()!r}): a newer version upgraded it"
        )


def _migration_engine(engine: Engine) -> Engine:
    """An engine of its own for migrating, one connection and no pool.

    SQLite: Python's driver would commit around each table change; this one leaves
    transactions to SQLite, begun IMMEDIATE (the write lock at once), so the whole upgrade
    is one transaction and a second process waits for it. An in-memory database is only
    seen by its own engine, which is used as it is.
    """
    url = engine.url
    if url.get_backend_name() != "sqlite":
        return create_engine(url, poolclass=NullPool, hide_parameters=True)
    if url.database in (None, "", ":memory:"):
        return engine
    migrating = create_engine(
        url, poolclass=NullPool, connect_args={"timeout": 30}, hide_parameters=True
    )

    @event.listens_for(migrating, "connect")
    def _no_implicit_transactions(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(migrating, "begin")
    def _begin_immediate(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return migrating
