"""The schema as ``metadata.create_all`` made it before migrations existed.

Revision ID: 0001
Revises:
Create Date: 2026-11-23

A database made by ``create_all`` (it has the tables but no ``alembic_version``) is
stamped at this revision, not upgraded through it: what this creates is exactly what it
holds.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("is_over", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_games_is_over", "games", ["is_over"])
    op.create_index("ix_games_updated_at", "games", ["updated_at"])
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number", name="one_action_per_number"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
    )


def downgrade() -> None:
    op.drop_table("seats")
    op.drop_table("actions")
    op.drop_index("ix_games_updated_at", table_name="games")
    op.drop_index("ix_games_is_over", table_name="games")
    op.drop_table("games")
