"""CPU time a level takes per decision, at fixed decision points, against an older version.

``python benchmarks/decision_cpu.py --game shogun --agent hard --base HEAD~3``

Decision points are taken from games the ``heuristic`` plays on every seat (``--games`` games
from ``--seed``, ``--points`` evenly spread decisions with more than one legal action in
each), so both versions meet the very same positions. At each point the agent (seeded by the
point's number) makes one decision, timed in CPU time (``time.process_time``) around
``Agent.choose``; the figures are the median and mean over the points.

With ``--base REV`` the same points are decided by the code of ``REV`` too (checked out in a
temporary git worktree), each version in its own process, in turns for ``--rounds`` rounds (a
machine that slows down meanwhile slows both), and the script prints each version's median
CPU per decision (the median over rounds of each point, then over points), the ratio, and how
many decisions came out the same: an optimisation that must not change the search's choices
shows all of them the same. Without ``--base`` it measures the working tree only.
``--uncapped`` lifts a search level's time limit: its limit is wall time, so on a loaded
machine it cuts the searches of both versions short and hides which is faster; uncapped, each
decision runs the level's whole iteration budget.
``--base`` may also name a folder holding a ``sengoku`` package, and ``SENGOKU_SRC`` the one
measured as "this": ``SENGOKU_SRC=build/compiled python benchmarks/decision_cpu.py --game
shogun --base src`` sets the compiled build (``tools/compile.py``) against the pure package.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def decide(
    game: str, players: int, agent: str, games: int, seed: int, points: int, uncapped: bool
) -> list[Any]:
    """[cpu seconds, notation of the choice] at each decision point (in this process's
    ``sengoku``); ``uncapped``: a search level without its time limit."""
    from sengoku.ai import make_agent
    from sengoku.core import new_match

    out: list[Any] = []
    for g in range(games):
        match = new_match(game, players, seed=seed + g)
        player = make_agent("heuristic", seed + g)
        chosen: list[tuple[Any, int]] = []
        while match.to_act():
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            if len(legal) > 1:
                chosen.append((match.clone(), seat))
            match.act(seat, player.choose(match.view(seat), legal))
        stride = max(1, len(chosen) // points)
        for k, (point, seat) in enumerate(chosen[::stride][:points]):
            bot = make_agent(agent, 1000 * g + k)
            if uncapped and hasattr(bot, "time_limit"):
                bot.time_limit = None
            view, legal = point.view(seat), point.legal_actions(seat)
            start = time.process_time()
            action = bot.choose(view, legal)
            out.append([time.process_time() - start, str(action)])
    return out


def run_version(src: Path, args: argparse.Namespace) -> list[Any]:
    """The decisions of the code under ``src``, in a process of its own."""
    command = [sys.executable, __file__, "--worker", "--game", args.game, "--agent", args.agent]
    command += ["--players", str(args.players), "--games", str(args.games)]
    command += ["--seed", str(args.seed), "--points", str(args.points)]
    command += ["--uncapped"] if args.uncapped else []
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


@contextmanager
def versions_of(base: str | None) -> Iterator[dict[str, Path]]:
    """The package folders to measure, by name: ``this`` (``SENGOKU_SRC``, by default
    ``src``), and with ``base`` also ``base``: a package folder (``src``, ``build/compiled``),
    or a git revision checked out in a temporary worktree for as long as the block runs."""
    this = Path(os.environ.get("SENGOKU_SRC", ROOT / "src")).resolve()
    if not base:
        yield {"this": this}
    elif Path(base).is_dir():
        yield {"base": Path(base).resolve(), "this": this}
    else:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "base"
            git = ["git", "-C", str(ROOT), "worktree"]
            subprocess.run([*git, "add", "-q", "--detach", str(tree), base], check=True)
            try:
                yield {"base": tree / "src", "this": this}
            finally:
                subprocess.run([*git, "remove", "--force", str(tree)], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="hard", help="agent spec (default hard)")
    parser.add_argument("--games", type=int, default=2, help="games the points come from")
    parser.add_argument("--points", type=int, default=8, help="decision points per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--base", help="git revision to compare with")
    parser.add_argument(
        "--uncapped",
        action="store_true",
        help="search levels without their time limit: the CPU their whole iteration budget "
        "takes (on a slow machine the limit, in wall time, cuts the searches short and so "
        "evens out the versions)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        found = decide(
            args.game, args.players, args.agent, args.games, args.seed, args.points, args.uncapped
        )
        print(json.dumps(found))
        return
    with versions_of(args.base) as versions:
        runs: dict[str, list[list[Any]]] = {name: [] for name in versions}
        for r in range(args.rounds):
            order = list(versions) if r % 2 == 0 else list(reversed(versions))
            for name in order:
                runs[name].append(run_version(versions[name], args))
    medians: dict[str, float] = {}
    for name, rounds in runs.items():
        per_point = [statistics.median(r[i][0] for r in rounds) for i in range(len(rounds[0]))]
        medians[name] = statistics.median(per_point)
        print(
            f"{name}: {len(per_point)} decisions, CPU per decision median "
            f"{medians[name]:.3f} s, mean {statistics.fmean(per_point):.3f} s, "
            f"max {max(per_point):.3f} s"
        )
    if args.base:
        same = sum(a[1] == b[1] for a, b in zip(runs["base"][0], runs["this"][0], strict=True))
        print(
            f"this/base: {medians['this'] / medians['base']:.3f} of the CPU per decision "
            f"(medians); {same} of {len(runs['this'][0])} decisions the same"
        )


if __name__ == "__main__":
    main()
