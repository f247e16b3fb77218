"""Bot accounts: ``accounts.owner_id``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23

- ``accounts.owner_id`` (indexed, null for people): the person who made a bot account.
  ``accounts.is_bot`` was made by revision 0004 for this; it is true exactly when
  ``owner_id`` is set. Accounts stored before are people's: null.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # batch: SQLite adds a foreign key only by rebuilding the table.
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_accounts_owner_id", "accounts", ["owner_id"], ["id"])
        batch.create_index("ix_accounts_owner_id", ["owner_id"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_owner_id")
        batch.drop_constraint("fk_accounts_owner_id", type_="foreignkey")
        batch.drop_column("owner_id")
