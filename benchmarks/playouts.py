"""Random playouts: actions, whole games and clones per second, per game and player count.

Run ``python benchmarks/playouts.py`` (all registered games) or name games with ``--game``,
and set options with ``-o NAME=VALUE``. Everything runs on one core and is timed in CPU time
(``time.process_time``), so other work on a shared machine does not count. Each figure is
printed also as a ratio to a fixed pure-Python calibration loop timed in the same run, so
results from different machines can be compared:
``calib`` is how many calibration-loop iterations the machine runs per second, and ``x calib``
columns divide a rate by it (an action costing as much as 50 loop iterations shows 0.02).

The action loop is what random play costs through the public API: ``to_act``,
``legal_actions``, a random choice and ``act``, for each action, until the outcome.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

import sengoku  # noqa: E402
from sengoku.core import Match, Rng, get_game, options_from_pairs, register  # noqa: E402
from sengoku.sim import play_randomly  # noqa: E402


def calibration(seconds: float) -> float:
    """Iterations per second of a fixed loop of integer arithmetic, list and dict work."""
    loops = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds:
        x = 12345
        table: dict[int, int] = {}
        items: list[int] = []
        for i in range(1000):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            table[x & 255] = i
            items.append(x % 97)
            if len(items) > 16:
                items.pop(0)
        loops += 1000
        elapsed = time.process_time() - start
    return loops / elapsed


def random_game(name: str, players: int, seed: int, options: dict[str, Any]) -> int:
    """Play one random game; return its number of actions."""
    match = play_randomly(sengoku.new_match(name, players, seed=seed, options=options), Rng(seed))
    return len(match.history)


def measure(name: str, players: int, seconds: float, options: dict[str, Any]) -> dict[str, Any]:
    games = actions = 0
    snapshots: list[Match] = []
    start = time.process_time()
    while time.process_time() - start < seconds or games < 3:
        actions += random_game(name, players, games + 1, options)
        games += 1
    elapsed = time.process_time() - start

    # clones of states spread over one game
    def keep(match: Match) -> None:
        if len(match.history) % 5 == 0:
            snapshots.append(match.clone())

    play_randomly(sengoku.new_match(name, players, seed=99, options=options), Rng(99), keep)
    clones = 0
    clone_start = time.process_time()
    while time.process_time() - clone_start < seconds / 2:
        for snap in snapshots:
            snap.clone()
        clones += len(snapshots)
    clone_elapsed = time.process_time() - clone_start
    return {
        "game": name,
        "players": players,
        "options": options,
        "games": games,
        "actions_per_game": actions / games,
        "actions_per_second": actions / elapsed,
        "games_per_second": games / elapsed,
        "ms_per_game": 1000 * elapsed / games,
        "clones_per_second": clones / clone_elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game to measure (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        help="a game option NAME=VALUE for every game measured (VALUE read as JSON if it can be)",
    )
    parser.add_argument(
        "--test-game", action="store_true", help="also measure the test-only game in tests/"
    )
    args = parser.parse_args()
    if args.test_game:
        sys.path.insert(0, str(ROOT))
        register("auction", "tests.toygame:Auction")
    names = args.game or sengoku.available_games()
    options = options_from_pairs(args.option)
    calib = calibration(min(args.seconds, 2.0))
    rows = []
    for name in names:
        for players in get_game(name).player_counts:
            row = measure(name, players, args.seconds, options)
            row["actions_x_calib"] = row["actions_per_second"] / calib
            row["clones_x_calib"] = row["clones_per_second"] / calib
            rows.append(row)
    info = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "calibration_loops_per_second": calib,
    }
    if args.json:
        print(json.dumps({"info": info, "results": rows}, indent=2))
        return
    print(
        f"Python {info['python']} on {info['machine']}; calibration loop: {calib:,.0f} iterations/s"
    )
    header = (
        "| game | players | actions/game | actions/s | x calib | games/s | ms/game "
        "| clones/s | x calib |"
    )
    print(header)
    print("|" + "---|" * 9)
    for r in rows:
        print(
            f"| {r['game']} | {r['players']} | {r['actions_per_game']:.0f} "
            f"| {r['actions_per_second']:,.0f} | {r['actions_x_calib']:.3f} "
            f"| {r['games_per_second']:,.1f} | {r['ms_per_game']:.2f} "
            f"| {r['clones_per_second']:,.0f} | {r['clones_x_calib']:.3f} |"
        )


if __name__ == "__main__":
    main()
