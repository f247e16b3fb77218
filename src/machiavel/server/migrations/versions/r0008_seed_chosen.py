"""Fair tables: ``games.seed_chosen``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23

- ``games.seed_chosen``: whether the table's creator chose its seed (and so knows every
  hidden card); only a table of one person may have one, never rated, and the lobby says
  so. False for every game stored before (whether their seeds were chosen is not known).

Seeds themselves need no change: the ``seed`` column stays a signed BIGINT and the seeds
from 2**63 on are stored as their two's complement (``storage``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("seed_chosen", sa.Boolean(), nullable=False, server_default=sa.text("false")),
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_chosen")
