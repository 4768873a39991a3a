"""Golden playthroughs shared by the games' tests: a recorded random game, with its public log,
that must replay unchanged, so a rules change shows up as a reviewable diff (design.md, Style 6).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sengoku
from sengoku.core import Match, Rng
from sengoku.sim import play_randomly


def golden_record(
    game: str, players: int, seed: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The record (with the public log) of a game seeded ``seed``, random choices from
    ``Rng(players)``."""
    m = play_randomly(sengoku.new_match(game, players, seed=seed, options=options), Rng(players))
    rec = m.to_record()
    rec["log"] = m.log(None)
    return rec


def check_golden(path: Path, fresh: dict[str, Any]) -> None:
    """The file at ``path`` replays to its own log, and equals the game played afresh."""
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert Match.from_record(golden).log(None) == golden["log"]
    assert fresh == golden


def write_golden(path: Path, record: dict[str, Any]) -> None:
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
