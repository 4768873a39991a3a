"""The advisor: the host's hint option, hint uses in the chat, and reviews of finished matches.

``allow_hints`` is the host's choice at creation (on by default in a match that is not rated;
on for the unrated matches stored before, off for the rated ones). A chat line gets a
``kind``: ``text`` for what people write, ``hint`` for the note that a seat asked for a hint.
``reviews`` holds one review per finished match: waiting, being made, done (its JSON) or
failed.

Revision ID: 0005_advisor
Revises: 0004_players
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_advisor"
down_revision = "0004_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns and the reviews table."""
    op.add_column(
        "matches",
        sa.Column("allow_hints", sa.Boolean, nullable=False, server_default=sa.true()),
    )
    op.execute(sa.text("UPDATE matches SET allow_hints = :no WHERE rated").bindparams(no=False))
    op.add_column(
        "chat",
        sa.Column("kind", sa.String(8), nullable=False, server_default="text"),
    )
    op.create_table(
        "reviews",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("iterations", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_reviews_status", "reviews", ["status", "created_at"])


def downgrade() -> None:
    """Drop the reviews table and the two columns."""
    op.drop_index("ix_reviews_status", "reviews")
    op.drop_table("reviews")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("kind")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("allow_hints")
