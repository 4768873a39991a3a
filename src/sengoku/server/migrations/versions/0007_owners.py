"""Ownership: with several server processes on PostgreSQL, each running match is served by one.

``matches.owner`` names the process that serves the match (``server_processes.id``) and
``actions.process`` the process that stored each action; a process keeps its row's lease
(``expires_at``) renewed while it lives, and the others take the matches of one whose lease
ran out (``server/owners.py``, docs/architecture.md).

Revision ID: 0007_owners
Revises: 0006_rising_sun_sets
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_owners"
down_revision = "0006_rising_sun_sets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the owner and process columns and the processes table."""
    op.add_column("matches", sa.Column("owner", sa.String(64), nullable=True))
    op.create_index("ix_matches_owner", "matches", ["owner"])
    op.add_column("actions", sa.Column("process", sa.String(64), nullable=True))
    op.create_table(
        "server_processes",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("address", sa.String(255), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_server_processes_name", "server_processes", ["name"])
    op.create_index("ix_server_processes_expires_at", "server_processes", ["expires_at"])


def downgrade() -> None:
    """Drop the processes table and the two columns."""
    op.drop_index("ix_server_processes_expires_at", "server_processes")
    op.drop_index("ix_server_processes_name", "server_processes")
    op.drop_table("server_processes")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("process")
    op.drop_index("ix_matches_owner", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("owner")
