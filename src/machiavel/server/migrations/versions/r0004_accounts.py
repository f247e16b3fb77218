"""Accounts: people (and later external bots) with a name and a password; sessions;
seats that belong to an account; what "my games" needs to list without replaying.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

- ``accounts``: name (NFKC), name_key (its casefold, unique: names are unique ignoring
  case), password_hash (Argon2id), email (optional), notify, is_bot (for the external
  bots to come), created_at.
- ``sessions``: one per signed-in browser; id is the SHA-256 of the cookie's random
  token (the token itself is never stored), account_id, created_at, expires_at.
- ``seats.account_id``: the account a seat belongs to (NULL: a seat held by token only).
- ``games.to_move``: a copy of whose turn it is ("0", "0,2", ""), written with each action;
  NULL for the games stored before until their next action (the server then replays
  them to know). ``games.updated_at`` already tells when a game reached its version.
- ``games.host_token_hash``, ``games.host_account_id``: who may re-invite a seat never
  taken (NULL for games stored before: nobody).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify", sa.Boolean(), nullable=False, server_default=sa.text("true")),
        sa.Column("is_bot", sa.Boolean(), nullable=False, server_default=sa.text("false")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    # SQLite cannot add a foreign key in place: the seats table is rebuilt (nothing refers
    # to it). The games table, which others refer to, only gets plain columns.
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_seats_account_id", "accounts", ["account_id"], ["id"])
        batch.create_index("ix_seats_account_id", ["account_id"])
    op.add_column("games", sa.Column("to_move", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("host_token_hash", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("host_account_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("host_account_id")
        batch.drop_column("host_token_hash")
        batch.drop_column("to_move")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_constraint("fk_seats_account_id", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_index("ix_sessions_account_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("ix_accounts_name_key", table_name="accounts")
    op.drop_table("accounts")
