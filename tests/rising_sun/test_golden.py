"""Golden playthroughs: two recorded random games (3 players with the Teapot set, 5 players
with the Horseman set) replay to the same log and outcome, so a rules change shows up as a
reviewable diff. After a deliberate rules change, regenerate them with
``python -m tests.rising_sun.test_golden``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.golden import check_golden, golden_record, write_golden

GOLDEN = Path(__file__).parent / "golden"

#: players -> options of the recorded game
GAMES: dict[int, dict[str, Any]] = {
    3: {},
    5: {"season_set": "horseman", "clans": "chosen"},
}


def record(players: int) -> dict[str, Any]:
    """The recorded game: seed 2018 + players, random choices from Rng(players)."""
    return golden_record("rising_sun", players, 2018 + players, GAMES[players])


@pytest.mark.parametrize("players", sorted(GAMES))
def test_golden_game_replays(players: int) -> None:
    """rising_sun.md §4, §14: a whole recorded game (set-up, three Seasons of Tea Ceremony,
    Mandates, Kami and War, then Winter) plays out unchanged, from its record and its seed."""
    check_golden(GOLDEN / f"random_{players}p.json", record(players))


if __name__ == "__main__":
    for n in sorted(GAMES):
        write_golden(GOLDEN / f"random_{n}p.json", record(n))
