"""Instructions a level's searches execute at fixed decision points, against an older version.

``python benchmarks/instructions.py --game rising_sun --base HEAD~3``

CPU time on a shared machine moves by a tenth or more between runs of the very same code; the
number of instructions a program executes does not. So a change that must not alter what the
search does (the same choices, visits and rewards) is best judged by it: valgrind's cachegrind
counts the instructions (its ``I refs``) of the searches at ``--points`` decision points of one
game the heuristic plays on every seat, for each version, in a process of its own (the count
does not depend on the machine's load, so the versions run side by side). Each search is the
level's (``--agent``, default ``hard``) without its time limit and with ``--iterations``
iterations (default 30: under valgrind Python runs about 50 times slower). The instructions of
setting up the points are counted in a run without the searches and taken off.

Two copies of the same code count within about 1% of each other (their paths differ). The
ratio of two counts only predicts the ratio of CPU times (cache misses and mispredicted
branches cost time and are not counted), so report it beside ``decision_cpu.py``'s CPU time.
``--base`` takes a git revision (checked out in a temporary worktree) or a package folder, as in
``decision_cpu.py``. Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from decision_cpu import versions_of


def work(args: argparse.Namespace) -> None:
    """The measured program: the points, then (unless ``--setup-only``) their searches."""
    from sengoku.ai import make_agent
    from sengoku.core import new_match

    match = new_match(args.game, args.players, seed=args.seed)
    player = make_agent("heuristic", args.seed)
    chosen = []
    while match.to_act():
        seat = match.to_act()[0]
        legal = match.legal_actions(seat)
        if len(legal) > 1:
            chosen.append((match.clone(), seat))
        match.act(seat, player.choose(match.view(seat), legal))
    points = chosen[:: max(1, len(chosen) // args.points)][: args.points]
    if args.setup_only:
        return
    for k, (point, seat) in enumerate(points):
        bot = make_agent(args.agent, k)
        bot.time_limit = None
        bot.iterations = args.iterations
        print(bot.choose(point.view(seat), point.legal_actions(seat)))


def count(src: Path, args: argparse.Namespace, setup_only: bool) -> tuple[int, str]:
    """Instructions of the program with the package under ``src``, and what it printed."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--worker",
        *("--game", args.game, "--players", str(args.players), "--seed", str(args.seed)),
        *("--points", str(args.points), "--agent", args.agent),
        *("--iterations", str(args.iterations)),
        *(["--setup-only"] if setup_only else []),
    ]
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if refs is None:
        raise SystemExit(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="hard", help="a search level (default hard)")
    parser.add_argument("--iterations", type=int, default=30, help="per search")
    parser.add_argument("--points", type=int, default=4, help="decision points")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--base", help="git revision or package folder to compare with")
    parser.add_argument("--jobs", type=int, default=2, help="valgrind runs side by side")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--setup-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        work(args)
        return
    start = time.monotonic()
    with versions_of(args.base) as versions:
        runs = [(name, setup) for name in versions for setup in (True, False)]
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            counts = pool.map(lambda run: count(versions[run[0]], args, run[1]), runs)
            counted = dict(zip(runs, counts, strict=True))
    searches = {}
    for name in versions:
        (setup, _), (whole, chosen) = counted[name, True], counted[name, False]
        searches[name] = whole - setup
        print(
            f"{name}: {searches[name] / 1e9:.3f} G instructions in {args.points} searches of "
            f"{args.iterations} iterations (set-up {setup / 1e9:.3f} G); "
            f"chose {' | '.join(chosen.split(chr(10))[:-1])}"
        )
    if "base" in searches:
        same = counted["base", False][1] == counted["this", False][1]
        print(
            f"this/base: {searches['this'] / searches['base']:.3f} of the instructions; "
            f"choices {'the same' if same else 'DIFFERENT'} ({time.monotonic() - start:.0f} s)"
        )


if __name__ == "__main__":
    main()
