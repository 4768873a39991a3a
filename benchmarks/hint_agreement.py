"""How often the advisor's first hint is the move ``hard`` plays, on sampled decisions.

``python benchmarks/hint_agreement.py --decisions 204``

Decisions are sampled from matches played by ``easy`` bots (every game, 3 and 4 players, the
decisions with more than one legal action, every ``--every``-th), the same number per game.
At each, ``hard`` chooses ``--runs`` times (7 seeds) and the advisor answers from the same
view with another: ``hard`` with its 200 iterations, the hint with its
:data:`~sengoku.ai.advisor.HINT_SEARCHES` searches of
:data:`~sengoku.ai.advisor.HINT_ITERATIONS` iterations, none with a time limit, so the
figures do not depend on the machine's load (on the server each search stops at
:data:`~sengoku.ai.advisor.HINT_TIME_LIMIT`).

``hard`` is a noisy search: where moves are close, its runs part. So "``hard``'s choice" at a
decision is the move its runs choose most often, and the main figure is how often the first
hint is that move (a tie counts when the hint is one of the tied moves), with Wilson's 95%
interval; the same with a tie counted as a share (1/2 for a move tied with another: what
an answer that broke ties at random would score), and with ties not counted at all. Beside
it, per game and in all: how often the first hint is the first run's move;
the share of runs whose move is the first hint (agreement with one run of ``hard``); the best
that share could be (each decision's most frequent move's share: no single answer agrees
with ``hard``'s runs more often); how often the first run's move is among the three hints;
and how often two of ``hard``'s runs agree with each other.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
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
    parser.add_argument("--runs", type=int, default=7, help="runs of hard per decision")
    args = parser.parse_args()
    hard = {k: v for k, v in LEVELS["hard"].items() if k != "agent"}
    hard["time_limit"] = None
    per = -(-args.decisions // len(GAMES))
    totals = Counts()
    for i, (game, players) in enumerate(GAMES):
        counts = Counts()
        for view, legal in sample(game, players, per, args.every, args.seed + 1000 * i):
            n = counts.n + 1
            runs = [
                ISMCTSAgent(n * 7919 + 6007 * r + i, **hard).choose(view, legal)
                for r in range(args.runs)
            ]
            advice = advise(
                view, legal, n * 104729 + i, iterations=HINT_ITERATIONS, searches=HINT_SEARCHES
            )
            counts.add([o.action for o in advice.options], runs)
        totals.merge(counts)
        print(json.dumps(counts.row(game=game, players=players)), flush=True)
    print(json.dumps(totals.row(game="all")))


class Counts:
    """What the decisions so far add up to."""

    def __init__(self) -> None:
        self.n = self.same = self.among = self.modal = 0
        self.unique = 0
        self.itself = self.share = self.ceiling = self.fair = 0.0

    def add(self, hints: list, runs: list) -> None:
        """Count one decision: the hints, and ``hard``'s choices in its runs."""
        tally = Counter(runs)
        top = max(tally.values())
        pairs = len(runs) * (len(runs) - 1) / 2
        self.n += 1
        self.same += hints[0] == runs[0]
        self.among += runs[0] in hints
        self.modal += tally[hints[0]] == top
        tied = sum(c == top for c in tally.values())
        self.unique += tally[hints[0]] == top and tied == 1
        self.fair += (tally[hints[0]] == top) / tied
        self.share += tally[hints[0]] / len(runs)
        self.ceiling += top / len(runs)
        self.itself += sum(c * (c - 1) / 2 for c in tally.values()) / pairs

    def merge(self, other: Counts) -> None:
        """Add another game's counts to these."""
        for key, value in vars(other).items():
            setattr(self, key, getattr(self, key) + value)

    def row(self, **where: object) -> dict[str, object]:
        """The figures, as the printed line."""
        n = self.n
        low, high = wilson(self.modal, n)
        return {
            **where,
            "decisions": n,
            "first_is_hards_usual": round(self.modal / n, 3),
            "interval": [round(low, 3), round(high, 3)],
            "first_is_hards_usual_ties_split": round(self.fair / n, 3),
            "first_is_hards_only_usual": round(self.unique / n, 3),
            "first_is_hards_first_run": round(self.same / n, 3),
            "first_is_a_run_of_hards": round(self.share / n, 3),
            "best_possible": round(self.ceiling / n, 3),
            "hards_among_three": round(self.among / n, 3),
            "hard_agrees_with_itself": round(self.itself / n, 3),
        }


if __name__ == "__main__":
    main()
