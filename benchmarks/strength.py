"""Tournaments: how often an agent wins against opponents, with a 95% interval.

``python benchmarks/strength.py --game shitenno --candidate hard --opponent random -n 100``

The candidate sits at every seat in turn (seat rotation) against copies of the opponent; each
match seed is played once per rotation, so seat advantage cancels out. A shared win counts as
a share. The interval is Wilson's score interval for the win rate. Use ``--jobs`` to spread
games over processes (``0``: all cores).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

from sengoku.core import get_game  # noqa: E402
from sengoku.sim import run_games  # noqa: E402
from sengoku.sim.stats import wilson  # noqa: E402


def tournament(
    game: str, players: int, candidate: str, opponent: str, games: int, seed: int, jobs: int
) -> dict[str, Any]:
    rounds = max(1, math.ceil(games / players))
    wins = 0.0
    played = 0
    own_scores: list[float] = []
    other_scores: list[float] = []
    start = time.perf_counter()
    for seat in range(players):
        agents = [opponent] * players
        agents[seat] = candidate
        for result in run_games(
            game, players=players, agents=agents, games=rounds, seed=seed, jobs=jobs
        ):
            outcome = result.outcome
            played += 1
            if seat in outcome.winners:
                wins += 1 / len(outcome.winners)
            own_scores.append(outcome.scores[seat])
            other_scores.extend(s for i, s in enumerate(outcome.scores) if i != seat)
    low, high = wilson(wins, played)
    return {
        "game": game,
        "players": players,
        "candidate": candidate,
        "opponent": opponent,
        "seed": seed,
        "games": played,
        "wins": wins,
        "win_rate": wins / played,
        "ci95": [low, high],
        "fair_share": 1 / players,
        "mean_score": sum(own_scores) / len(own_scores),
        "opponent_mean_score": sum(other_scores) / len(other_scores),
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--candidate", required=True, help="agent spec, e.g. hard")
    parser.add_argument("--opponent", required=True, help="agent spec, e.g. random")
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes (0: all cores)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    get_game(args.game)
    result = tournament(
        args.game,
        args.players,
        args.candidate,
        args.opponent,
        args.games,
        args.seed,
        args.jobs or os.cpu_count() or 1,
    )
    if args.json:
        print(json.dumps(result, indent=2))
        return
    r: dict[str, Any] = result
    low, high = r["ci95"]
    print(
        f"{r['game']}, {r['players']} players: {r['candidate']} vs {r['players'] - 1} x "
        f"{r['opponent']}, {r['games']} games: wins {r['win_rate']:.1%} "
        f"(95% CI {low:.1%}-{high:.1%}, fair share {r['fair_share']:.0%}); mean score "
        f"{r['mean_score']:.2f} vs {r['opponent_mean_score']:.2f}; {r['seconds']:.0f} s"
    )


if __name__ == "__main__":
    main()
