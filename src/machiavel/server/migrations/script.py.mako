"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "${up_revision}"
down_revision: str | None = ${'"%s"' % down_revision if down_revision else None}
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    ${upgrades if upgrades else "raise NotImplementedError  # write the upgrade here"}


def downgrade() -> None:
    ${downgrades if downgrades else "raise NotImplementedError  # and how to undo it"}
