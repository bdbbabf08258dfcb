"""Each seat's sequence number at a deal's start, and the table's host.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``deals.seat_seqs_json`` and ``tables.host_hash``."""
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("seat_seqs_json", sa.Text, nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("host_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("host_hash")
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("seat_seqs_json")
