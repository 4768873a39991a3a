"""How fast the research interfaces step: PettingZoo AEC steps and OpenSpiel actions per second.

``python benchmarks/env_steps.py --seconds 3``

For each game and player count: random masked ids through the PettingZoo AEC environment
(``last()`` with its observation and mask, then ``step``), and random ids through the OpenSpiel
game (``legal_actions``, ``apply_action``, no observations), each for about ``--seconds`` of
CPU time, whole games from seed 0 on. Prints ids per second and games per second (CPU time of
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

import sengoku  # noqa: E402
from sengoku.core import Rng, get_game  # noqa: E402
from sengoku.envs import openspiel  # noqa: E402
from sengoku.envs.pettingzoo import env  # noqa: E402


def pettingzoo_rate(name: str, players: int, seconds: float) -> tuple[float, float]:
    e = env(name, players)
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        e.reset(seed=games)
        for _agent in e.agent_iter():
            _, _, termination, truncation, info = e.last()
            if termination or truncation:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        games += 1
    spent = time.process_time() - start
    return steps / spent, games / spent


def openspiel_rate(name: str, players: int, seconds: float) -> tuple[float, float]:
    game = pyspiel.load_game(f"sengoku_{name}", {"players": players})
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        state.apply_action(games)
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        games += 1
    spent = time.process_time() - start
    return steps / spent, games / spent


def match_rate(name: str, players: int, seconds: float) -> tuple[float, float]:
    rng = Rng(0)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        match = sengoku.new_match(name, players, seed=games)
        while (to_act := match.to_act()) != []:
            match.act(to_act[0], rng.choice(match.legal_actions(to_act[0])))
            actions += 1
        games += 1
    spent = time.process_time() - start
    return actions / spent, games / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    openspiel.register()
    print(
        "| game | players | PettingZoo ids/s | games/s | OpenSpiel ids/s | games/s "
        "| Match actions/s | games/s | PettingZoo games / Match games |"
    )
    print("|" + "---|" * 9)
    for name in args.game or sengoku.available_games():
        for players in get_game(name).player_counts:
            pz, pz_games = pettingzoo_rate(name, players, args.seconds)
            os_, os_games = openspiel_rate(name, players, args.seconds)
            plain, plain_games = match_rate(name, players, args.seconds)
            print(
                f"| {name} | {players} | {pz:,.0f} | {pz_games:.2f} | {os_:,.0f} "
                f"| {os_games:.2f} | {plain:,.0f} | {plain_games:.1f} "
                f"| **{pz_games / plain_games:.3f}** |"
            )


if __name__ == "__main__":
    main()
