"""Leases for several server processes: each table's owner, its fencing number and when its lease ends;
and the hand in play, so any process can list tables it does not hold.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite cannot add constrained columns in place; PostgreSQL runs plain ALTERs.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("fence", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("lease_until", sa.Float, nullable=False, server_default="0"))
        batch.add_column(sa.Column("hand_no", sa.Integer, nullable=False, server_default="0"))
    op.create_index("ix_tables_lease", "tables", ["status", "lease_until"])


def downgrade() -> None:
    op.drop_index("ix_tables_lease", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hand_no")
        batch.drop_column("lease_until")
        batch.drop_column("fence")
        batch.drop_column("owner")
