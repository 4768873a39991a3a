"""How fast the vector environments step: ids per second, per core and across Ray's actors.

``python benchmarks/vector_env.py --seconds 3``

For each game (its smallest player count), random masked ids through
:class:`~sengoku.envs.vector.SengokuVectorEnv` with 1, 16 and 64 games in this process (CPU
time of the process: ids per second per core), beside the AEC environment stepped the same
way (``observe`` and the mask of the selected agent, then ``step``); then 64 games through
:class:`~sengoku.envs.vector.RayVectorEnv` with 1 and 2 actors on a local Ray of ``--cpus``
CPUs (wall time: the actors run in processes of their own), and the ratio of the two.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

import numpy as np  # noqa: E402

from sengoku.core import get_game  # noqa: E402
from sengoku.envs.pettingzoo import env  # noqa: E402
from sengoku.envs.vector import RayVectorEnv, SengokuVectorEnv  # noqa: E402


def _random_ids(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One random allowed id per row of ``masks``."""
    weights = rng.random(masks.shape) * masks
    return np.asarray(weights.argmax(axis=1))


def vector_rate(envs: Any, seconds: float, clock: Any) -> float:
    """Ids per second (``clock``'s seconds) of random play through ``envs``."""
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        _, _, _, _, infos = envs.step(_random_ids(rng, infos["action_mask"]))
        steps += envs.num_envs
    return steps / (clock() - start)


def aec_rate(name: str, players: int, seconds: float) -> float:
    """Ids per CPU second of random play through the AEC environment, whole games."""
    e = env(name, players)
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        e.reset(seed=games)
        for agent in e.agent_iter():
            if e.terminations[agent]:
                e.step(None)
                continue
            e.observe(agent)
            e.step(int(_random_ids(rng, e.infos[agent]["action_mask"][None])[0]))
            steps += 1
        games += 1
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (default: all three)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--cpus", type=int, default=2, help="the local Ray's CPUs")
    args = parser.parse_args()
    names = args.game or ["rising_sun", "shitenno", "shogun"]
    print("| game | players | AEC ids/s | vector 1 | vector 16 | vector 64 | 64 / AEC |")
    print("|" + "---|" * 7)
    for name in names:
        players = get_game(name).player_counts[0]
        aec = aec_rate(name, players, args.seconds)
        rates = [
            vector_rate(SengokuVectorEnv(name, n, players), args.seconds, time.process_time)
            for n in (1, 16, 64)
        ]
        print(
            f"| {name} | {players} | {aec:,.0f} | "
            + " | ".join(f"{r:,.0f}" for r in rates)
            + f" | {rates[-1] / aec:.2f} |"
        )
    import ray

    ray.init(num_cpus=args.cpus, include_dashboard=False, logging_level=logging.ERROR)
    print()
    print("| game | players | Ray, 1 actor: ids/s (wall) | 2 actors | 2 / 1 |")
    print("|" + "---|" * 5)
    for name in names:
        players = get_game(name).player_counts[0]
        rates = []
        for workers in (1, 2):
            envs = RayVectorEnv(name, 64, workers, players)
            rates.append(vector_rate(envs, args.seconds, time.perf_counter))
            envs.close()
        print(
            f"| {name} | {players} | {rates[0]:,.0f} | {rates[1]:,.0f} "
            f"| {rates[1] / rates[0]:.2f} |"
        )
    ray.shutdown()


if __name__ == "__main__":
    main()
