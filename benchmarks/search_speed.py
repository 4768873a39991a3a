"""ISMCTS speed: iterations per second, and how long each difficulty level takes to decide.

Run ``python benchmarks/search_speed.py`` (all games, 4 players where the game allows).
One core. Decision points are taken from a random game of each game; at each, the search runs
for ``--seconds`` with random and with heuristic playouts, and the levels decide once each.
Rates are also given as a ratio to the calibration loop of ``playouts.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build
sys.path.insert(0, str(ROOT / "benchmarks"))

from playouts import calibration  # noqa: E402

import sengoku  # noqa: E402
from sengoku.ai import make_agent  # noqa: E402
from sengoku.ai.ismcts import ISMCTSAgent  # noqa: E402
from sengoku.core import Match, Rng, get_game  # noqa: E402
from sengoku.sim import play_randomly  # noqa: E402


def decision_points(name: str, players: int, count: int) -> list[Match]:
    points: list[Match] = []

    def keep(match: Match) -> None:
        if len(match.legal_actions(match.to_act()[0])) > 1:
            points.append(match.clone())

    play_randomly(sengoku.new_match(name, players, seed=2026), Rng(7), keep)
    stride = max(1, len(points) // count)
    return points[::stride][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (default: all)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--points", type=int, default=8, help="decision points per game")
    parser.add_argument("--seconds", type=float, default=0.5, help="search time per point")
    args = parser.parse_args()
    calib = calibration(1.0)
    print(f"calibration loop: {calib:,.0f} iterations/s; {args.points} decision points per game")
    print("| game | players | playouts | iterations/s | x calib |")
    print("|---|---|---|---|---|")
    levels: list[tuple[str, str, float, float, float]] = []
    for name in args.game or sengoku.available_games():
        counts = get_game(name).player_counts
        players = args.players if args.players in counts else counts[-1]
        points = decision_points(name, players, args.points)
        for playout, depth in (("random", None), ("heuristic", None), ("heuristic", 60)):
            rates = []
            for k, match in enumerate(points):
                seat = match.to_act()[0]
                agent = ISMCTSAgent(
                    k, iterations=None, time_limit=args.seconds, playout=playout, depth=depth
                )
                start = time.perf_counter()
                agent.choose(match.view(seat), match.legal_actions(seat))
                rates.append(agent.last_iterations / (time.perf_counter() - start))
            rate = statistics.mean(rates)
            cut = "to the end" if depth is None else f"cut at {depth}"
            print(f"| {name} | {players} | {playout}, {cut} | {rate:,.0f} | {rate / calib:.6f} |")
        for level in ("easy", "normal", "hard"):
            times = []
            for k, match in enumerate(points):
                seat = match.to_act()[0]
                agent = make_agent(level, k)
                start = time.perf_counter()
                agent.choose(match.view(seat), match.legal_actions(seat))
                times.append(time.perf_counter() - start)
            levels.append((name, level, statistics.median(times), max(times), sum(times)))
    print()
    print("| game | level | median s/decision | max s/decision |")
    print("|---|---|---|---|")
    for name, level, median, most, _ in levels:
        print(f"| {name} | {level} | {median:.3f} | {most:.3f} |")


if __name__ == "__main__":
    main()
