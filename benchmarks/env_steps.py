"""How fast the research interfaces step: PettingZoo AEC steps and OpenSpiel actions per second.

``python benchmarks/env_steps.py --seconds 3``

For each game and player count: random masked ids through the PettingZoo AEC environment
(``last()`` with its observation and mask, then ``step``), and random ids through the OpenSpiel
game (``legal_actions``, ``apply_action``, no observations), each for about ``--seconds`` of
CPU time, whole games (each measure split in ``--rounds`` turns taken in turn with the others,
games seeded from 0, 1000, 2000, ... on). Prints ids per second and games per second (CPU time of
the process), beside whole actions per second of plain random play through ``Match`` for the
same games and their games per second, and the ratio of whole games per second through
PettingZoo to those through ``Match`` (issue 38's target: at least 0.5).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

import sengoku  # noqa: E402
from sengoku.core import Rng, get_game  # noqa: E402
from sengoku.envs import openspiel  # noqa: E402
from sengoku.envs.pettingzoo import env  # noqa: E402


def pettingzoo_steps(
    name: str, players: int, seconds: float, seed: int, observe: bool = True
) -> tuple[int, int, float]:
    """Ids, whole games and CPU seconds of random masked ids through the AEC environment,
    games seeded from ``seed`` on, for about ``seconds`` (``observe=False``: ``last()`` makes
    no observation, the cost of the rest of a step)."""
    e = env(name, players)
    rng = Rng(seed)  # as the Match side picks: a random id costs about what a random action does
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        e.reset(seed=seed + games)
        for _agent in e.agent_iter():
            _, _, termination, truncation, info = e.last(observe)
            if termination or truncation:
                e.step(None)
                continue
            allowed = np.flatnonzero(info["action_mask"])
            e.step(int(allowed[rng.randbelow(len(allowed))]))
            steps += 1
        games += 1
    return steps, games, time.process_time() - start


def openspiel_steps(name: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """As :func:`pettingzoo_steps`, through the OpenSpiel game (no observations)."""
    game = pyspiel.load_game(f"sengoku_{name}", {"players": players})
    rng = Rng(seed)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        state.apply_action(seed + games)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    return steps, games, time.process_time() - start


def match_steps(name: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Whole random actions, games and CPU seconds of plain random play through ``Match``."""
    rng = Rng(seed)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        match = sengoku.new_match(name, players, seed=seed + games)
        while (to_act := match.to_act()) != []:
            match.act(to_act[0], rng.choice(match.legal_actions(to_act[0])))
            actions += 1
        games += 1
    return actions, games, time.process_time() - start


def blind_steps(name: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """As :func:`pettingzoo_steps` with no observations made."""
    return pettingzoo_steps(name, players, seconds, seed, observe=False)


def interleaved(
    name: str, players: int, seconds: float, rounds: int, blind: bool
) -> list[tuple[float, float]]:
    """(steps per second, games per second) of PettingZoo, OpenSpiel and ``Match`` (and with
    ``blind`` PettingZoo with no observations), each measured in ``rounds`` turns of
    ``seconds / rounds`` taken one after the other, so that a machine that gets slower or
    faster meanwhile slows or speeds them all alike."""
    kinds: tuple[Any, ...] = (pettingzoo_steps, openspiel_steps, match_steps)
    if blind:
        kinds += (blind_steps,)
    totals = [[0, 0, 0.0] for _ in kinds]
    for turn in range(rounds):
        for total, measure in zip(totals, kinds, strict=True):
            steps, games, spent = measure(name, players, seconds / rounds, 1000 * turn)
            total[0] += steps
            total[1] += games
            total[2] += spent
    return [(steps / spent, games / spent) for steps, games, spent in totals]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3, help="turns each measure is split in")
    parser.add_argument(
        "--blind",
        action="store_true",
        help="also PettingZoo games with no observations made, over Match games",
    )
    args = parser.parse_args()
    openspiel.register()
    print(
        "| game | players | PettingZoo ids/s | games/s | OpenSpiel ids/s | games/s "
        "| Match actions/s | games/s | PettingZoo games / Match games |"
        + (" without observations |" if args.blind else "")
    )
    print("|" + "---|" * (10 if args.blind else 9))
    for name in args.game or sengoku.available_games():
        for players in get_game(name).player_counts:
            rates = interleaved(name, players, args.seconds, args.rounds, args.blind)
            (pz, pz_games), (os_, os_games), (plain, plain_games) = rates[:3]
            blind = f" {rates[3][1] / plain_games:.3f} |" if args.blind else ""
            print(
                f"| {name} | {players} | {pz:,.0f} | {pz_games:.2f} | {os_:,.0f} "
                f"| {os_games:.2f} | {plain:,.0f} | {plain_games:.1f} "
                f"| **{pz_games / plain_games:.3f}** |{blind}"
            )


if __name__ == "__main__":
    main()
