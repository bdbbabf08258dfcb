"""The workers of a server on PostgreSQL, and the secret they relay requests with.

``workers``: one row per running worker process (its id, the ``pg_backend_pid()`` of the
connection that holds its tables' locks, the internal address the other workers reach it at, and
when it started); joined with ``pg_locks`` it says which worker owns a table. ``cluster``: named
values every worker shares, the relay secret among them (created at the first start).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``workers`` and ``cluster``."""
    op.create_table(
        "workers",
        sa.Column("id", sa.String(120), primary_key=True),
        sa.Column("backend_pid", sa.Integer, nullable=False, index=True),
        sa.Column("address", sa.String(300), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "cluster",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("cluster")
    op.drop_table("workers")
