"""Golden playthroughs: three recorded random games replay to the same log and outcome, so a
rules change shows up as a reviewable diff. After a deliberate rules change, regenerate them with
``python -m tests.shogun.test_golden``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.golden import check_golden, golden_record, write_golden

GOLDEN = Path(__file__).parent / "golden"

#: players -> options of the recorded game (the 4-player game: moon side with the draft)
GAMES: dict[int, dict[str, Any]] = {
    3: {},
    4: {"board": "moon", "setup": "draft"},
    5: {"reveal_action_cards": "all_at_once"},
}


def record(players: int) -> dict[str, Any]:
    """The recorded game: seed 2006 + players, random choices from Rng(players)."""
    return golden_record("shogun", players, 2006 + players, GAMES[players])


@pytest.mark.parametrize("players", sorted(GAMES))
def test_golden_game_replays(players: int) -> None:
    """shogun.md §2-§12: a whole recorded game (set-up, seasons, battles, revolts, winters,
    scoring) plays out unchanged, both from its record and from its seed."""
    check_golden(GOLDEN / f"random_{players}p.json", record(players))


if __name__ == "__main__":
    for n in sorted(GAMES):
        write_golden(GOLDEN / f"random_{n}p.json", record(n))
