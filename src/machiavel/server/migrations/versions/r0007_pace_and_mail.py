"""Turn-based tables and mail: ``games.pace``, the tables ``mail_notices`` and
``server_secrets``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23

- ``games.pace``: ``live`` (default, and every game stored before) or ``turn-based``.
- ``mail_notices``: one row per notification mailed, keyed by (game_id, account_id,
  kind, version): at most one mail per game, account, kind and turn, across restarts and
  servers.
- ``server_secrets``: secrets made once by a server and shared by all (the key of the
  mails' unsubscribe links).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("pace", sa.String(16), nullable=False, server_default=sa.text("'live'")),
    )
    op.create_table(
        "mail_notices",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "account_id", "kind", "version"),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("value", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_table("mail_notices")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("pace")
