"""How often the advisor's first hint is the move ``hard`` plays, on sampled decisions.

``python benchmarks/hint_agreement.py --decisions 204``

Decisions are sampled from matches played by ``easy`` bots (every game, 3 and 4 players, the
decisions with more than one legal action, every ``--every``-th), the same number per game.
At each, ``hard`` chooses twice (two seeds) and the advisor answers from the same view with a
third: ``hard`` with its 200 iterations, the hint with its
:data:`~sengoku.ai.advisor.HINT_SEARCHES` searches of
:data:`~sengoku.ai.advisor.HINT_ITERATIONS` iterations, none with a time limit, so the
figures do not depend on the machine's load (on the server each search stops at
:data:`~sengoku.ai.advisor.HINT_TIME_LIMIT`). It prints, per game and in all, how often the
first hint is ``hard``'s first move (with Wilson's 95% interval), how often ``hard``'s move is
among the three hints, and how often ``hard``'s two runs agree with each other: ``hard`` is
a noisy search, and where moves are close its runs part.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

from sengoku.ai import make_agent  # noqa: E402
from sengoku.ai.advisor import HINT_ITERATIONS, HINT_SEARCHES, advise  # noqa: E402
from sengoku.ai.agents import LEVELS  # noqa: E402
from sengoku.ai.ismcts import ISMCTSAgent  # noqa: E402
from sengoku.core import new_match  # noqa: E402
from sengoku.sim.stats import wilson  # noqa: E402

GAMES = (
    ("shogun", 4),
    ("shitenno", 4),
    ("rising_sun", 4),
    ("shogun", 3),
    ("shitenno", 3),
    ("rising_sun", 3),
)


def sample(game: str, players: int, wanted: int, every: int, seed: int):
    """Yield ``wanted`` decisions (view, legal) of matches played by ``easy`` bots."""
    found = 0
    while True:
        match = new_match(game, players, seed=seed)
        agents = [make_agent("easy", seed * 10 + s) for s in range(players)]
        count = 0
        while match.to_act():
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            view = match.view(seat)
            if len(legal) > 1:
                count += 1
                if count % every == 0:
                    yield view, legal
                    found += 1
                    if found == wanted:
                        return
            match.act(seat, agents[seat].choose(view, legal))
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    hard = {k: v for k, v in LEVELS["hard"].items() if k != "agent"}
    hard["time_limit"] = None
    per = -(-args.decisions // len(GAMES))
    totals = [0, 0, 0, 0]
    for i, (game, players) in enumerate(GAMES):
        same = among = itself = n = 0
        for view, legal in sample(game, players, per, args.every, args.seed + 1000 * i):
            n += 1
            chosen = ISMCTSAgent(n * 7919 + i, **hard).choose(view, legal)
            again = ISMCTSAgent(n * 6007 + i, **hard).choose(view, legal)
            advice = advise(
                view, legal, n * 104729 + i, iterations=HINT_ITERATIONS, searches=HINT_SEARCHES
            )
            hints = [o.action for o in advice.options]
            same += hints[0] == chosen
            among += chosen in hints
            itself += again == chosen
        totals = [totals[0] + same, totals[1] + among, totals[2] + itself, totals[3] + n]
        print(json.dumps(_row(same, among, itself, n, game=game, players=players)), flush=True)
    print(json.dumps(_row(*totals, game="all")))


def _row(same: int, among: int, itself: int, n: int, **where: object) -> dict[str, object]:
    low, high = wilson(same, n)
    return {
        **where,
        "decisions": n,
        "first_is_hards": round(same / n, 3),
        "interval": [round(low, 3), round(high, 3)],
        "hards_among_three": round(among / n, 3),
        "hard_agrees_with_itself": round(itself / n, 3),
    }


if __name__ == "__main__":
    main()
