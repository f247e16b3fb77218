"""Djambi games stored before the D8 amendment record the rule they were played under.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23

Djambi's option ``inherited_turns`` says how the heir of a dead Chief plays the pieces it
took over (D8): ``"book"`` (the new default) or ``"skip"``, the only behaviour before the
option existed. A stored game replays under its stored options, so every Djambi game that
does not record the option gets ``"skip"``: it still replays exactly, move for move. A game
that already records it (stored by a server that had the option) keeps its value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

OPTION = "inherited_turns"
OLD_RULE = "skip"
BATCH = 500  # rows read and written at a time: a big table is never held in memory

games = sa.table(
    "games",
    sa.column("id", sa.String(32)),
    sa.column("game", sa.String(32)),
    sa.column("options", sa.JSON()),
)


def upgrade() -> None:
    _rewrite(lambda options: {**options, OPTION: options.get(OPTION, OLD_RULE)})


def downgrade() -> None:
    # Code without the option refuses it, and "skip" is what that code plays. A game played
    # under "book" keeps it: no code without the option can replay it anyway.
    _rewrite(lambda options: {k: v for k, v in options.items() if (k, v) != (OPTION, OLD_RULE)})


def _rewrite(change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Apply ``change`` to the options of every Djambi game, a batch of rows at a time."""
    connection = op.get_bind()
    after = ""
    while True:
        rows = connection.execute(
            sa.select(games.c.id, games.c.options)
            .where(games.c.game == "djambi", games.c.id > after)
            .order_by(games.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        updates = []
        for row in rows:
            options = dict(row.options or {})
            changed = change(options)
            if changed != options:
                updates.append({"row_id": row.id, "new_options": changed})
        if updates:
            connection.execute(
                games.update()
                .where(games.c.id == sa.bindparam("row_id"))
                .values(options=sa.bindparam("new_options")),
                updates,
            )
        after = rows[-1].id
