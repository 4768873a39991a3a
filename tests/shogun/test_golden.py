"""Golden playthroughs: three recorded random games replay to the same log and outcome, so a
rules change shows up as a reviewable diff. After a deliberate rules change, regenerate them with
``python -m tests.shogun.test_golden``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sengoku
from sengoku.core import Match, Rng
from sengoku.sim import play_randomly

GOLDEN = Path(__file__).parent / "golden"

#: players -> options of the recorded game (the 4-player game: moon side with the draft)
GAMES: dict[int, dict[str, Any]] = {
    3: {},
    4: {"board": "moon", "setup": "draft"},
    5: {"reveal_action_cards": "all_at_once"},
}


def play(players: int) -> Match:
    """The recorded game: seed 2006 + players, random choices from Rng(players)."""
    m = sengoku.new_match("shogun", players, seed=2006 + players, options=GAMES[players])
    return play_randomly(m, Rng(players))


def record(players: int) -> dict[str, Any]:
    m = play(players)
    rec = m.to_record()
    rec["log"] = m.log(None)
    return rec


@pytest.mark.parametrize("players", sorted(GAMES))
def test_golden_game_replays(players: int) -> None:
    """shogun.md §2-§12: a whole recorded game (set-up, seasons, battles, revolts, winters,
    scoring) plays out unchanged, both from its record and from its seed."""
    golden = json.loads((GOLDEN / f"random_{players}p.json").read_text(encoding="utf-8"))
    replayed = Match.from_record(golden)
    assert replayed.log(None) == golden["log"]
    assert record(players) == golden


if __name__ == "__main__":
    for n in sorted(GAMES):
        text = json.dumps(record(n), indent=1, ensure_ascii=False) + "\n"
        (GOLDEN / f"random_{n}p.json").write_text(text, encoding="utf-8")
