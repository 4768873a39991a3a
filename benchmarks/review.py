"""What a review costs: the CPU time of judging every decision of one full match.

``python benchmarks/review.py --game rising_sun --players 4``

The match is played first by ``--agents`` (``easy`` by default: the heuristic with 30% of its
decisions random, so there is something to find), then reviewed in this one process at the
review's fixed budget (:data:`sengoku.ai.advisor.REVIEW_ITERATIONS` iterations of ``hard``'s
search per decision with more than one legal action). CPU time, not wall time: it is what the
server's review worker spends, and these machines are shared.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

from sengoku.ai.advisor import REVIEW_ITERATIONS, review  # noqa: E402
from sengoku.sim import play_match  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="rising_sun")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default="easy")
    parser.add_argument("--iterations", type=int, default=REVIEW_ITERATIONS)
    args = parser.parse_args()
    match = play_match(args.game, args.players, args.seed, [args.agents] * args.players)
    start = time.process_time()
    result = review(match, iterations=args.iterations)
    cpu = time.process_time() - start
    n = len(result.judgements)
    print(
        json.dumps(
            {
                "game": args.game,
                "players": args.players,
                "seed": args.seed,
                "actions": len(match.history),
                "decisions": n,
                "iterations": args.iterations,
                "cpu_s": round(cpu, 1),
                "cpu_min": round(cpu / 60, 2),
                "cpu_ms_per_decision": round(1000 * cpu / max(1, n), 1),
                "mistakes": [result.summary(s)["mistakes"] for s in range(args.players)],
                "agreed": [result.summary(s)["agreed"] for s in range(args.players)],
            }
        )
    )


if __name__ == "__main__":
    main()
