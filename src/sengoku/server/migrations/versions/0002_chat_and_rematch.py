"""Chat and rematch: the ``chat`` table, and two columns of ``matches``.

``matches.spectator_chat`` is the host's setting whether spectators may write in the chat;
``matches.rematch`` is the id of the match that a rematch of this one made (set once).

Revision ID: 0002_chat
Revises: 0001
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_chat"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the chat table and the two columns (existing matches: no spectator chat)."""
    op.add_column(
        "matches",
        sa.Column("spectator_chat", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("matches", sa.Column("rematch", sa.String(32), nullable=True))
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_match_id", "chat", ["match_id", "id"])


def downgrade() -> None:
    """Drop the chat table and the two columns."""
    op.drop_index("ix_chat_match_id", "chat")
    op.drop_table("chat")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("rematch")
        batch.drop_column("spectator_chat")
