"""Golden playthroughs: three recorded random games replay to the same log and outcome, so a
rules change shows up as a reviewable diff (design.md, Style 6). After a deliberate rules
change, regenerate them with ``python -m tests.shitenno.test_golden``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sengoku
from sengoku.core import Match, Rng
from sengoku.sim import play_randomly

GOLDEN = Path(__file__).parent / "golden"


def play(players: int) -> Match:
    """The recorded game: seed 2011 + players, random choices from Rng(players)."""
    m = sengoku.new_match("shitenno", players, seed=2011 + players)
    return play_randomly(m, Rng(players))


def record(players: int) -> dict[str, Any]:
    m = play(players)
    rec = m.to_record()
    rec["log"] = m.log(None)
    return rec


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_game_replays(players: int) -> None:
    """shitenno.md §4: a whole recorded game (every rule section) plays out unchanged."""
    golden = json.loads((GOLDEN / f"random_{players}p.json").read_text(encoding="utf-8"))
    replayed = Match.from_record(golden)
    assert replayed.log(None) == golden["log"]
    assert record(players) == golden


if __name__ == "__main__":
    for n in (2, 3, 4):
        text = json.dumps(record(n), indent=1, ensure_ascii=False) + "\n"
        (GOLDEN / f"random_{n}p.json").write_text(text, encoding="utf-8")
