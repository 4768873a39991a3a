"""Simulation throughput of the backends: games and actions per second of ``run_games``.

``python benchmarks/sim_throughput.py --game shitenno --players 4 -n 400 --repeats 3``

Measures the same run (game *i* seeded *S+i*, the same agents) on ``local`` with 1 worker (this
process), ``local`` with 2 worker processes, and ``ray`` with 2 workers (a local Ray of 2 CPUs,
started once before timing; its start-up is printed apart). The configurations take turns,
repeat after repeat, so a shared machine's load falls on all of them alike; each figure is the
median over the repeats. Wall time counts everything a run costs (starting the process pool,
sending chunks to Ray tasks). CPU time is given where this process can see it: its own for one
worker, its own plus its finished children's for the pool; Ray's workers are no children of it.
``x 1 worker`` is the speed-up in wall time over one worker, ``x calib`` actions per second
divided by the pure-Python calibration loop of ``benchmarks/playouts.py``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))
# Ray's worker processes take their import path from the environment, not from sys.path:
# make them import this checkout's sengoku too.
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH", "")) if p
)

from playouts import calibration  # noqa: E402

from sengoku.core import options_from_pairs  # noqa: E402
from sengoku.sim import run_games  # noqa: E402
from sengoku.sim.backends import import_ray  # noqa: E402

CONFIGS = [("local", 1), ("local", 2), ("ray", 2)]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(
    backend: str,
    jobs: int,
    game: str,
    players: int,
    agents: list[str],
    games: int,
    options: dict[str, Any],
) -> dict[str, float]:
    """One timed run: wall seconds, CPU seconds where known, games and actions."""
    cpu, children = time.process_time(), _children_cpu()
    start = time.perf_counter()
    actions = 0
    for result in run_games(
        game,
        players=players,
        agents=agents,
        games=games,
        seed=1,
        options=options,
        jobs=jobs,
        backend=backend,
    ):
        actions += result.actions
    wall = time.perf_counter() - start
    own = time.process_time() - cpu
    cpu_seconds = own + (_children_cpu() - children) if backend == "local" else float("nan")
    return {"wall": wall, "cpu": cpu_seconds, "games": games, "actions": actions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="shitenno", help="the game (default shitenno)")
    parser.add_argument("--players", "-p", type=int, default=4, help="players (default 4)")
    parser.add_argument("--agents", default="random", help="one agent spec for every seat")
    parser.add_argument("-n", "--games", type=int, default=400, help="games per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per configuration")
    parser.add_argument("-o", "--option", action="append", default=[], help="NAME=VALUE")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    options = options_from_pairs(args.option)
    agents = [args.agents] * args.players

    calib = calibration(2.0)
    ray = import_ray()
    ray_start = time.perf_counter()
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.ERROR,
        log_to_driver=False,
    )
    ray_start = time.perf_counter() - ray_start
    runs: dict[tuple[str, int], list[dict[str, float]]] = {c: [] for c in CONFIGS}
    try:
        measure("ray", 2, args.game, args.players, agents, 8, options)  # start the workers
        for _ in range(args.repeats):
            for backend, jobs in CONFIGS:
                runs[backend, jobs].append(
                    measure(backend, jobs, args.game, args.players, agents, args.games, options)
                )
    finally:
        ray.shutdown()

    rows = []
    for (backend, jobs), measured in runs.items():
        wall = statistics.median(r["wall"] for r in measured)
        cpu = statistics.median(r["cpu"] for r in measured)
        actions = measured[0]["actions"]
        rows.append(
            {
                "backend": backend,
                "workers": jobs,
                "wall_seconds": wall,
                "wall_runs": [round(r["wall"], 3) for r in measured],
                "cpu_seconds": None if cpu != cpu else cpu,
                "games_per_second": args.games / wall,
                "actions_per_second": actions / wall,
                "actions_x_calib": actions / wall / calib,
                "actions_per_cpu_second": None if cpu != cpu else actions / cpu,
            }
        )
    single = rows[0]["wall_seconds"]
    for row in rows:
        row["speedup"] = single / row["wall_seconds"]
    info = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "game": args.game,
        "players": args.players,
        "agents": args.agents,
        "games": args.games,
        "actions_per_run": runs[CONFIGS[0]][0]["actions"],
        "repeats": args.repeats,
        "calibration_loops_per_second": calib,
        "ray_start_seconds": ray_start,
    }
    if args.json:
        print(json.dumps({"info": info, "results": rows}, indent=2))
        return
    print(
        f"Python {info['python']} on {info['machine']}, {info['cores']} cores; {args.games} games "
        f"of {args.game}, {args.players} players, agents {args.agents} "
        f"({info['actions_per_run']} actions a run); median of {args.repeats} runs each; "
        f"calibration loop {calib:,.0f} iterations/s; Ray start-up {ray_start:.1f} s"
    )
    print(
        "| backend | workers | wall s | games/s | actions/s | x calib | x 1 worker "
        "| CPU s | actions/CPU s |"
    )
    print("|" + "---|" * 9)
    for r in rows:
        cpu = "n/a" if r["cpu_seconds"] is None else f"{r['cpu_seconds']:.2f}"
        per_cpu = (
            "n/a" if r["actions_per_cpu_second"] is None else f"{r['actions_per_cpu_second']:,.0f}"
        )
        print(
            f"| {r['backend']} | {r['workers']} | {r['wall_seconds']:.2f} "
            f"| {r['games_per_second']:,.1f} | {r['actions_per_second']:,.0f} "
            f"| {r['actions_x_calib']:.4f} | {r['speedup']:.2f} | {cpu} | {per_cpu} |"
        )


if __name__ == "__main__":
    main()
