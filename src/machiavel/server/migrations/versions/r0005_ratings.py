"""Ratings: one per game for every account and bot level; which tables are rated; what
each rated game changed.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26

- ``ratings``: key (``"account:<id>"`` or ``"bot:<level>"``), game, mu, sigma, games
  (rated games played), updated_at; unique (key, game).
- ``rating_changes``: one row per seat of a rated game, written in the transaction of the
  action that ended it: game_id, player (primary key: a game is never rated twice), key,
  result (``won``, ``shared``, ``lost``), the key's mu and sigma before and after, and when.
  It is the exactly-once record, and the "recent games" of a profile.
- ``games.rated``: whether the table's result updates ratings (false for every game
  stored before: none of them was rated).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key", "game", name="one_rating_per_key_and_game"),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
    )
    op.create_index("ix_rating_changes_key", "rating_changes", ["key"])
    op.add_column(
        "games",
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.text("false")),
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
    op.drop_index("ix_rating_changes_key", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_game", table_name="ratings")
    op.drop_table("ratings")
