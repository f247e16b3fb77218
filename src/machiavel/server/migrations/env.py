"""Alembic's environment: run the migrations on the connection the caller opened.

Machiavel runs its migrations from code (``machiavel.server.migrations.upgrade``), never
from an ``alembic.ini``: the caller opens a connection, begins the transaction that holds
every step, and hands the connection over in ``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError(
        "machiavel's migrations run from code: machiavel.server.migrations.upgrade(engine) "
        "or python -m machiavel.server.migrations upgrade URL"
    )
context.configure(connection=connection)
with context.begin_transaction():  # the caller's transaction when it opened one
    context.run_migrations()
