"""A table's settings, the analyses of finished deals, and the score sheets of real tables.

``tables.settings_json``: the host's choices that are not rules (hints allowed or not), a JSON
object, ``NULL`` for tables made before. ``deal_analyses``: the exact solver's analysis of a
finished deal, kept with the deal so that it is computed once. ``score_sheets``: a score sheet kept
for a table playing with real cards: the sheet as one JSON document, the hash of the token that may
edit it, and a version that grows with each change.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.settings_json``; create ``deal_analyses`` and ``score_sheets``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("settings_json", sa.Text, nullable=True))
    op.create_table(
        "deal_analyses",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal_no", sa.Integer, primary_key=True),
        sa.Column("analysis_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "score_sheets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("sheet_json", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("score_sheets")
    op.drop_table("deal_analyses")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("settings_json")
