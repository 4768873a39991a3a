"""Undo: the host's option, and how many actions each match has taken back.

``allow_undo`` is the host's choice at creation (on by default, and on for the matches
stored before); ``undos`` counts the actions taken back, so that every process (and every
client's log) can tell an undone history from one that only grew.

Revision ID: 0003_undo
Revises: 0002_chat
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_undo"
down_revision = "0002_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns; every stored match allows undo and has taken nothing back."""
    op.add_column(
        "matches",
        sa.Column("allow_undo", sa.Boolean, nullable=False, server_default=sa.true()),
    )
    op.add_column(
        "matches",
        sa.Column("undos", sa.Integer, nullable=False, server_default=sa.text("0")),
    )


def downgrade() -> None:
    """Drop the two columns."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("undos")
        batch.drop_column("allow_undo")
