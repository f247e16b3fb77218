"""Clocks and absent players: ``games.clock``, ``clock_state``, ``stand_in_level``,
``abandon_after``, ``human_acted_at``, ``outcome``; ``seats.stand_in``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23

- ``games.clock``: the table's clock as JSON (null: none); ``games.clock_state``: each
  seat's time left and since when it waits, written with every action and seat change.
- ``games.stand_in_level``: the level of the bots standing in for absent people
  (``medium`` for the games before); ``games.abandon_after``: seconds without a person's
  action after which the table ends (two weeks); ``games.human_acted_at``: when a person
  last acted (null: not since this revision).
- ``games.outcome``: how a game ended outside its rules (a resignation, an abandoned
  table), as JSON; null otherwise.
- ``seats.stand_in``: a stand-in bot plays the seat (false for the games before).
- ``games.host_address``: a keyed hash of the address that opened the table (for the
  limits per address; null for the games before).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("clock", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("clock_state", sa.JSON(), nullable=True))
    op.add_column(
        "games",
        sa.Column(
            "stand_in_level", sa.String(16), nullable=False, server_default=sa.text("'medium'")
        ),
    )
    op.add_column(
        "games",
        sa.Column("abandon_after", sa.Integer(), nullable=False, server_default=sa.text("1209600")),
    )
    op.add_column("games", sa.Column("human_acted_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("outcome", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("host_address", sa.String(64), nullable=True))
    op.create_index("ix_games_host_address", "games", ["host_address"])
    op.add_column(
        "seats",
        sa.Column("stand_in", sa.Boolean(), nullable=False, server_default=sa.text("false")),
    )


def downgrade() -> None:
    op.drop_index("ix_games_host_address", table_name="games")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("games") as batch:
        for column in (
            "host_address",
            "outcome",
            "human_acted_at",
            "abandon_after",
            "stand_in_level",
            "clock_state",
            "clock",
        ):
            batch.drop_column(column)
