"""Golden playthroughs: two recorded random games (3 players with the Teapot set, 5 players
with the Horseman set) replay to the same log and outcome, so a rules change shows up as a
reviewable diff. After a deliberate rules change, regenerate them with
``python -m tests.rising_sun.test_golden``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sengoku
from sengoku.core import Match, Rng
from sengoku.sim import play_randomly

GOLDEN = Path(__file__).parent / "golden"

#: players -> options of the recorded game
GAMES: dict[int, dict[str, Any]] = {
    3: {},
    5: {"season_set": "horseman", "clans": "chosen"},
}


def play(players: int) -> Match:
    """The recorded game: seed 2018 + players, random choices from Rng(players)."""
    m = sengoku.new_match("rising_sun", players, seed=2018 + players, options=GAMES[players])
    return play_randomly(m, Rng(players))


def record(players: int) -> dict[str, Any]:
    m = play(players)
    rec = m.to_record()
    rec["log"] = m.log(None)
    return rec


@pytest.mark.parametrize("players", sorted(GAMES))
def test_golden_game_replays(players: int) -> None:
    """rising_sun.md §4, §14: a whole recorded game (set-up, three Seasons of Tea Ceremony,
    Mandates, Kami and War, then Winter) plays out unchanged, from its record and its seed."""
    golden = json.loads((GOLDEN / f"random_{players}p.json").read_text(encoding="utf-8"))
    replayed = Match.from_record(golden)
    assert replayed.log(None) == golden["log"]
    assert record(players) == golden


if __name__ == "__main__":
    for n in sorted(GAMES):
        text = json.dumps(record(n), indent=1, ensure_ascii=False) + "\n"
        (GOLDEN / f"random_{n}p.json").write_text(text, encoding="utf-8")
