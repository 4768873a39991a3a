"""Players: accounts, sessions, seats that belong to an account, open tables and ratings.

``accounts`` holds people (a name, an argon2id hash of the password) and the bot levels that
rated matches rate; ``sessions`` the signed-in browsers (digests of their ids); a seat may
belong to an account; a match may be an open table (``status = "open"``), hosted by an
account, and rated; ``ratings`` and ``rating_changes`` hold each account's rating per game
and what each rated match did to it.

Revision ID: 0004_players
Revises: 0003_undo
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_players"
down_revision = "0003_undo"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables and the new columns (stored matches: not rated, no host)."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("display_name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("locked", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_digest", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_account", "rating_changes", ["account_id", "game", "id"])
    op.create_index("ix_rating_changes_match_id", "rating_changes", ["match_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_seats_account_id", "accounts", ["account_id"], ["id"])
        batch.create_index("ix_seats_account_id", ["account_id"])
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("host_account", sa.Integer, nullable=True))
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(
            sa.Column("rating_applied", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.create_foreign_key("fk_matches_host_account", "accounts", ["host_account"], ["id"])
        batch.create_index("ix_matches_host_account", ["host_account"])


def downgrade() -> None:
    """Drop the new columns and tables."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_host_account")
        batch.drop_constraint("fk_matches_host_account", type_="foreignkey")
        batch.drop_column("rating_applied")
        batch.drop_column("rated")
        batch.drop_column("host_account")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_constraint("fk_seats_account_id", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_index("ix_rating_changes_match_id", "rating_changes")
    op.drop_index("ix_rating_changes_account", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
