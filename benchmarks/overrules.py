"""Where a search agent plays another move than its game's heuristic, is it right?

``python benchmarks/overrules.py --game shitenno --agent hard -n 20 --playouts 160``

The heuristic plays one seat against random players (the seat rotates with the game). At
each of its decisions the agent is asked too (with its time limit lifted, so a busy machine
does not change its answers). Where the two differ, both moves are judged from the true
state of the match by ``--playouts`` paired playouts to the end: the seat plays the
heuristic afterwards and the others play at random, as they do in the match, and the same
seed drives both moves' playouts. A departure's worth is the difference in the share of
those playouts the seat wins; a positive worth means the agent's move was the better one.

With ``--untrusted`` the agent searches also in the phases its level leaves to the
heuristic (``sengoku.ai.agents.TRUSTED_PHASES``), to see what that trust costs or saves.

The table sums these worths by the phase of the decision (the view's ``phase``), per game:
about what the agent's departures add to the heuristic's win rate against random players,
judged one decision at a time. The intervals are 95% normal intervals from the spread
between decisions.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

import sengoku  # noqa: E402
from sengoku.ai import HeuristicAgent, RandomAgent, make_agent  # noqa: E402
from sengoku.ai.ismcts import ISMCTSAgent  # noqa: E402
from sengoku.core import Rng, get_game  # noqa: E402
from sengoku.sim.runner import agent_seeds  # noqa: E402


def win_share(game: Any, state: Any, seat: int, action: Any, seed: int) -> float:
    """Play ``action`` for ``seat`` on a copy of ``state``, then the heuristic for ``seat``
    and random moves for the others to the end; ``seat``'s share of the win."""
    rng = Rng(seed)
    state = game.clone(state)
    game.apply(state, seat, action, rng)
    while to_act := game.to_act(state):
        actor = to_act[0]
        legal = game.legal_actions(state, actor)
        move = game.policy(state, actor, legal, rng) if actor == seat else None
        if move is None:
            move = legal[rng.randbelow(len(legal))]
        game.apply(state, actor, move, rng)
    outcome = game.outcome(state)
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


def one_game(
    name: str, players: int, agent_spec: str, seed: int, playouts: int, untrusted: bool
) -> list[dict]:
    """The departures of ``agent_spec`` from the heuristic in one match, with their worth;
    ``untrusted``: the agent searches in the phases its level leaves to the heuristic too."""
    game = get_game(name)
    match = sengoku.new_match(name, players, seed=seed)
    seat = seed % players
    seeds = agent_seeds(seed, players)
    bots: list[Any] = [RandomAgent(s) for s in seeds]
    bots[seat] = HeuristicAgent(seeds[seat])
    agent = make_agent(agent_spec, seeds[seat] + 1)
    if isinstance(agent, ISMCTSAgent):
        agent.time_limit = None
        if untrusted:
            agent.trusted_phases = {}
    rows: list[dict] = []
    while match.outcome() is None:
        actor = match.to_act()[0]
        legal = match.legal_actions(actor)
        view = match.view(actor)
        move = bots[actor].choose(view if bots[actor].needs_view else None, legal)
        if actor == seat and len(legal) > 1:
            other = agent.choose(view, legal)
            row: dict[str, Any] = {"phase": str(view.get("phase")), "departs": other != move}
            if row["departs"]:
                base = seed * 1_000_003 + len(rows) * 10_007
                diffs = [
                    win_share(game, match.state, seat, other, base + i)
                    - win_share(game, match.state, seat, move, base + i)
                    for i in range(playouts)
                ]
                row["worth"] = sum(diffs) / playouts
            rows.append(row)
        match.act(actor, move)
    return rows


def summary(rows: list[dict], games: int) -> dict[str, Any]:
    """Decisions, departures and their worth per game, by phase and summed over the phases."""
    by_phase: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_phase[row["phase"]].append(row)
    table: dict[str, Any] = {}
    variance = 0.0  # of the summed worth per game
    for phase, items in sorted(by_phase.items()):
        worths = [r["worth"] for r in items if r["departs"]]
        n = len(worths)
        mean = sum(worths) / n if n else 0.0
        spread = sum((w - mean) ** 2 for w in worths) / (n - 1) if n > 1 else 0.0
        per_game = mean * n / games
        phase_variance = spread * n / games**2  # (n / games)^2 * spread / n
        variance += phase_variance
        half = 1.96 * math.sqrt(phase_variance)
        table[phase] = {
            "decisions": len(items),
            "departures": n,
            "worth_per_departure": mean,
            "worth_per_game": per_game,
            "ci95": [per_game - half, per_game + half],
        }
    departures = sum(t["departures"] for t in table.values())
    per_game = sum(t["worth_per_game"] for t in table.values())
    half = 1.96 * math.sqrt(variance)
    table["all"] = {
        "decisions": len(rows),
        "departures": departures,
        "worth_per_departure": per_game * games / departures if departures else 0.0,
        "worth_per_game": per_game,
        "ci95": [per_game - half, per_game + half],
    }
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="hard", help="agent spec, e.g. hard or ismcts:200")
    parser.add_argument("-n", "--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=160, help="paired playouts a departure")
    parser.add_argument(
        "--untrusted",
        action="store_true",
        help="search in every phase, also where the level trusts the heuristic",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (0: all cores)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    jobs = None if args.jobs == 0 else args.jobs
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(
                one_game, args.game, args.players, args.agent, s, args.playouts, args.untrusted
            )
            for s in seeds
        ]
        rows = [row for future in futures for row in future.result()]
    table = summary(rows, args.games)
    if args.json:
        print(
            json.dumps(
                {
                    "game": args.game,
                    "agent": args.agent,
                    "games": args.games,
                    "playouts": args.playouts,
                    "phases": table,
                },
                indent=2,
            )
        )
        return
    print(
        f"{args.game}, {args.players} players: {args.agent} against its heuristic, "
        f"{args.games} games, {args.playouts} paired playouts a departure"
    )
    print(
        f"{'phase':<10} {'decisions':>9} {'departs':>8} {'worth each':>11} "
        f"{'per game':>9}  95% interval"
    )
    for phase, t in table.items():
        low, high = t["ci95"]
        print(
            f"{phase:<10} {t['decisions']:>9} {t['departures']:>8} "
            f"{t['worth_per_departure']:>+11.4f} {t['worth_per_game']:>+9.4f}  "
            f"{low:+.4f} to {high:+.4f}"
        )


if __name__ == "__main__":
    main()
