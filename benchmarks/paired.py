"""A candidate's win rate measured against a baseline on the same deals (paired blocks).

``python benchmarks/paired.py --baseline heuristic --baseline-rate 0.9531 \
--baseline-games 40000 runs/*.json``

Each file is the ``--json`` output of one ``benchmarks/strength.py`` tournament (a block of
games: one seed range, every seat in turn; e.g. ``strength.py --game shitenno --candidate
hard --opponent random -n 16 --seed S --json``). The baseline agent is played on each block again,
with the same seeds and seats, so it meets the same deals and the same opponents' seeds.
Where the candidate and the baseline win and lose many of the same games, the difference of
their win rates is measured much more tightly than either rate, and the candidate's rate is
then the baseline's long-run rate (measured once, on many cheap games) plus that difference:
a control variate. The interval takes the spread of the difference between blocks (Student's
t) and the uncertainty of the baseline's rate.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scipy.stats import t as student_t
from strength import tournament


def t975(df: int) -> float:
    """Student's t quantile for a two-sided 95% interval with ``df`` degrees of freedom
    (scipy's ``t.ppf``; 1.96, the normal's, only in the limit).

    >>> [round(t975(df), 3) for df in (13, 31, 60, 1000)]
    [2.16, 2.04, 2.0, 1.962]
    """
    return float(student_t.ppf(0.975, df))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("blocks", nargs="+", help="strength.py --json outputs, one per block")
    parser.add_argument("--baseline", required=True, help="agent spec, e.g. heuristic")
    parser.add_argument("--baseline-rate", type=float, help="its long-run win rate")
    parser.add_argument("--baseline-games", type=int, help="games behind that rate")
    args = parser.parse_args()
    rows = []
    for path in args.blocks:
        block = json.loads(Path(path).read_text())
        if "seed" not in block:
            parser.error(f"{path} names no seed: make the blocks with strength.py --json")
        seed = block["seed"]
        base = tournament(
            block["game"],
            block["players"],
            args.baseline,
            block["opponent"],
            block["games"],
            seed,
            1,
        )
        diff = (block["wins"] - base["wins"]) / block["games"]
        rows.append((seed, block["games"], block["wins"], base["wins"], diff))
        print(
            f"block {seed}: {block['candidate']} {block['wins']:g} and {args.baseline} "
            f"{base['wins']:g} of {block['games']}"
        )
    n = len(rows)
    games = sum(r[1] for r in rows)
    mean = sum(r[4] for r in rows) / n
    spread = sum((r[4] - mean) ** 2 for r in rows) / (n - 1) if n > 1 else 0.0
    error = math.sqrt(spread / n)  # of the mean difference
    t = t975(max(1, n - 1))
    half = t * error
    print(
        f"{n} blocks, {games} games: {sum(r[2] for r in rows):g} wins against "
        f"{sum(r[3] for r in rows):g} for {args.baseline} on the same games; difference "
        f"{mean:+.4f} a game (95% interval {mean - half:+.4f} to {mean + half:+.4f})"
    )
    if args.baseline_rate is not None and args.baseline_games:
        p = args.baseline_rate
        total = math.sqrt(error**2 + p * (1 - p) / args.baseline_games)
        rate = p + mean
        low, high = rate - t * total, rate + t * total
        print(f"win rate: {rate:.4f} (95% interval {low:.4f} to {min(1.0, high):.4f})")


if __name__ == "__main__":
    main()
