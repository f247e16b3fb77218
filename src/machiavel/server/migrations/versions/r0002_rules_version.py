"""Every game records the version of its game's rules it is played under.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

Games stored before were played under the first version of their game's rules: 1.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # The server default fills the rows already stored (and any row written without it).
    op.add_column(
        "games",
        sa.Column("rules_version", sa.Integer(), nullable=False, server_default=sa.text("1")),
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:  # SQLite cannot drop a column in place
        batch.drop_column("rules_version")
