"""How long a level takes per decision in whole games: mean, median and maximum wall time.

``python benchmarks/decision_time.py --game rising_sun --agent hard -n 2``

The agent plays one seat (a different seat each game) against ``--opponent`` players; every
decision with more than one legal action is timed around ``Agent.choose``. Wall time, so
another process on the same core shows up in the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

from sengoku.ai import make_agent  # noqa: E402
from sengoku.core import new_match  # noqa: E402
from sengoku.sim.runner import agent_seeds  # noqa: E402


def timings(
    game: str, players: int, agent: str, opponent: str, games: int, seed: int
) -> list[float]:
    """The wall time of each of the agent's decisions (more than one legal action)."""
    out: list[float] = []
    for i in range(games):
        match = new_match(game, players, seed=seed + i)
        specs = [opponent] * players
        specs[i % players] = agent
        bots = [
            make_agent(s, k) for s, k in zip(specs, agent_seeds(seed + i, players), strict=True)
        ]
        while match.to_act():
            seat = match.to_act()[0]
            bot = bots[seat]
            legal = match.legal_actions(seat)
            view = match.view(seat) if bot.needs_view else None
            start = time.perf_counter()
            action = bot.choose(view, legal)
            if seat == i % players and len(legal) > 1:
                out.append(time.perf_counter() - start)
            match.act(seat, action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", required=True, help="agent spec, e.g. hard")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("-n", "--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    t = timings(args.game, args.players, args.agent, args.opponent, args.games, args.seed)
    result: dict[str, Any] = {
        "game": args.game,
        "agent": args.agent,
        "games": args.games,
        "decisions": len(t),
        "mean_s": statistics.fmean(t) if t else 0.0,
        "median_s": statistics.median(t) if t else 0.0,
        "max_s": max(t, default=0.0),
        "over_1s": sum(1 for x in t if x > 1.0),
        "over_2s": sum(1 for x in t if x > 2.0),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
