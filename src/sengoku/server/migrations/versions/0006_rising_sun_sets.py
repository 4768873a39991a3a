"""Rising Sun's random Set leaves Tower out unless asked (rules §17.4): stored matches keep
their game.

A random Set used to be drawn from all four Sets; now Tower is drawn only with the option
``random_set_tower``. Every stored Rising Sun match with ``season_set=random`` that does not
name the option gets ``random_set_tower: true``, so it replays exactly as it was played.

Revision ID: 0006_rising_sun_sets
Revises: 0005_advisor
Create Date: 2026-12-05
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0006_rising_sun_sets"
down_revision = "0005_advisor"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Name the option in the matches whose Set was drawn from all four."""
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, options FROM matches WHERE game = 'rising_sun'")).all()
    for match_id, text in rows:
        options = json.loads(text)
        if options.get("season_set") == "random" and "random_set_tower" not in options:
            options["random_set_tower"] = True
            conn.execute(
                sa.text("UPDATE matches SET options = :o WHERE id = :i"),
                {"o": json.dumps(options), "i": match_id},
            )


def downgrade() -> None:
    """Nothing to undo: the option named is the old behaviour."""
