"""Golden playthroughs: three recorded random games replay to the same log and outcome, so a
rules change shows up as a reviewable diff (design.md, Style 6). After a deliberate rules
change, regenerate them with ``python -m tests.shitenno.test_golden``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.golden import check_golden, golden_record, write_golden

GOLDEN = Path(__file__).parent / "golden"


def record(players: int) -> dict[str, Any]:
    """The recorded game: seed 2011 + players, random choices from Rng(players)."""
    return golden_record("shitenno", players, 2011 + players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_game_replays(players: int) -> None:
    """shitenno.md §4: a whole recorded game (every rule section) plays out unchanged."""
    check_golden(GOLDEN / f"random_{players}p.json", record(players))


if __name__ == "__main__":
    for n in (2, 3, 4):
        write_golden(GOLDEN / f"random_{n}p.json", record(n))
