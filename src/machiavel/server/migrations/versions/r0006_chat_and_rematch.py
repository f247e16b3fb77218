"""Chat and "play again": the table ``chat_messages``, ``games.rematch_of`` and
``games.rematch``.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23

- ``chat_messages``: id, game_id (indexed), number (1, 2, ... per game over both
  channels; unique (game_id, number)), channel (``players`` or ``spectators``), player
  (the seat that wrote it; null for a spectator), name (the author as shown), text,
  version (the game's version when it was written: the replay shows it at that step),
  created_at.
- ``games.rematch_of``: the game a table is the rematch of; ``games.rematch``: the
  rematch made of a game (one at most). Null for every game stored before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("player", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.UniqueConstraint("game_id", "number", name="one_chat_message_per_number"),
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id"])
    op.add_column("games", sa.Column("rematch_of", sa.String(32), nullable=True))
    op.add_column("games", sa.Column("rematch", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch")
        batch.drop_column("rematch_of")
    op.drop_index("ix_chat_messages_game_id", table_name="chat_messages")
    op.drop_table("chat_messages")
