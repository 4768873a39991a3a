"""OpenSpiel's Python IS-MCTS against our ISMCTS, at equal CPU time per decision.

``python benchmarks/openspiel_ismcts.py --game shitenno -n 8 --simulations 40``

OpenSpiel's bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with one random rollout per
leaf, UCT constant 2, our ``determinize`` resampler) plays through ``sengoku_<game>``: one
search per action token, ``--simulations`` each. A calibration game first measures the CPU
time its searches take per whole action (the tokens of one action together); our
``ISMCTSAgent`` (random playouts, the same kind of leaf estimate) then gets that much CPU time
per decision. The OpenSpiel bot takes every seat in turn against copies of ours (seat
rotation), one match seed per game. Prints the OpenSpiel bot's win rate with Wilson's 95%
interval, and each side's mean CPU time and searches per decision.
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
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from sengoku.ai.ismcts import ISMCTSAgent  # noqa: E402
from sengoku.core import get_game  # noqa: E402
from sengoku.envs import openspiel  # noqa: E402
from sengoku.sim.runner import agent_seeds  # noqa: E402
from sengoku.sim.stats import wilson  # noqa: E402


def play(
    game: Any, players: int, seed: int, spiel_seat: int, simulations: int, ours_time: float | None
) -> dict[str, Any]:
    """One game: OpenSpiel's bot at ``spiel_seat``, our ISMCTS (``ours_time`` CPU seconds per
    decision) at the others; returns the outcome and each side's CPU time per decision."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    bot.set_resampler(openspiel.resampler(seed))
    seeds = agent_seeds(seed, players)
    ours = {
        s: ISMCTSAgent(seeds[s], iterations=None, time_limit=ours_time or 1.0, playout="random")
        for s in range(players)
        if s != spiel_seat
    }
    state = game.new_initial_state()
    state.apply_action(seed % game.max_chance_outcomes())
    tokenplay = state.play
    spiel_time = spiel_actions = 0.0
    ours_cpu = ours_decisions = 0.0
    iterations = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == spiel_seat:
            started = len(tokenplay.pending(seat)) == 0
            wide = len(tokenplay.match.legal_actions(seat)) > 1
            begin = time.process_time()
            token = bot.step(state)
            state.apply_action(int(token))
            spiel_time += time.process_time() - begin
            spiel_actions += started and wide
        else:
            legal = tokenplay.match.legal_actions(seat)
            begin = time.process_time()
            action = ours[seat].choose(tokenplay.match.view(seat), legal)
            if len(legal) > 1:
                ours_cpu += time.process_time() - begin
                ours_decisions += 1
                iterations += ours[seat].last_iterations
            tokenplay.carry_out(seat, action)
    outcome = tokenplay.match.outcome()
    assert outcome is not None
    return {
        "win": 1 / len(outcome.winners) if spiel_seat in outcome.winners else 0.0,
        "spiel_time": spiel_time,
        "spiel_actions": spiel_actions,
        "ours_time": ours_cpu,
        "ours_decisions": ours_decisions,
        "ours_iterations": iterations,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="shitenno")
    parser.add_argument("--players", type=int)
    parser.add_argument("-n", "--games", type=int, default=8)
    parser.add_argument("--simulations", type=int, default=40, help="OpenSpiel's per token")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    players = args.players or get_game(args.game).player_counts[0]
    openspiel.register()
    game = pyspiel.load_game(f"sengoku_{args.game}", {"players": players})
    calibration = play(game, players, args.seed - 1, 0, args.simulations, 0.05)
    budget = calibration["spiel_time"] / max(1.0, calibration["spiel_actions"])
    print(
        f"{args.game}, {players} players: OpenSpiel IS-MCTS ({args.simulations} simulations "
        f"per token) takes {budget:.3f} CPU s per action; our ISMCTS gets as much."
    )
    totals = {"win": 0.0, "spiel_time": 0.0, "spiel_actions": 0.0}
    totals.update(ours_time=0.0, ours_decisions=0.0, ours_iterations=0.0)
    for index in range(args.games):
        result = play(game, players, args.seed + index, index % players, args.simulations, budget)
        for key in totals:
            totals[key] += result[key]
        print(f"  game {index + 1}: OpenSpiel seat {index % players}, win share {result['win']}")
    low, high = wilson(totals["win"], args.games)
    fair = 1 / players
    print(
        f"| {args.game} | {players} | {args.games} | {totals['win']:g} "
        f"({totals['win'] / args.games:.1%}, {low:.1%}-{high:.1%}; even: {fair:.1%}) "
        f"| {totals['spiel_time'] / max(1.0, totals['spiel_actions']):.3f} "
        f"| {totals['ours_time'] / max(1.0, totals['ours_decisions']):.3f} "
        f"| {totals['ours_iterations'] / max(1.0, totals['ours_decisions']):.0f} |"
    )
    print(
        "| game | players | games | OpenSpiel wins (rate, 95% interval) "
        "| OpenSpiel CPU s/action | ours CPU s/decision | our iterations/decision |"
    )


if __name__ == "__main__":
    main()
