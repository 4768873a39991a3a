"""Our games and search against OpenSpiel's, in one process, in CPU time, as ratios.

Run ``python benchmarks/anchors.py`` (about two minutes), or for example::

    python benchmarks/anchors.py --seconds 2 --rounds 3 --players 4
    python benchmarks/anchors.py --game shitenno --skip-ismcts

``SENGOKU_SRC=build/compiled python benchmarks/anchors.py`` measures the compiled build
(``tools/compile.py``) instead of the package under ``src/``; each run compares with OpenSpiel
in its own process, so the ratios of the two runs compare. ``--collector tuned`` sets Python's
garbage collector for the whole process (every subject alike) as ``sengoku simulate`` does.

Three tables, every figure CPU time (``time.process_time``) on one core, each subject timed in
turns with the others (``--rounds`` rounds of ``--seconds`` each, so a machine that slows down
meanwhile slows them all), medians over the rounds:

1. **Random play**: legal actions chosen uniformly at random until the game ends, through each
   side's public API (ours: ``to_act``, ``legal_actions``, ``act``; OpenSpiel's:
   ``legal_actions``, ``apply_action``, chance outcomes drawn by their probabilities and not
   counted as actions). Actions per second and whole games per second, for our games and for
   OpenSpiel 2's C++ ``hearts`` and ``backgammon`` and its pure-Python ``python_kuhn_poker``;
   then each of our games' actions per second as a ratio to hearts' and to kuhn poker's.
2. **Search efficiency**: iterations per second of a search with random playouts divided by
   the same game's whole random games per second (table 1), so the length of the game cancels:
   how many iterations a search makes for the time one random game takes. Ours is
   :class:`~sengoku.ai.ismcts.ISMCTSAgent` (random playouts, no depth cut) at ``--points``
   decision points of a random game; OpenSpiel's is its Python ``MCTSBot`` (one random rollout
   per leaf, UCT constant 2) on hearts, at ``--points`` decisions spread over a random game.
   The ratio ours/OpenSpiel's is the issue's "search efficiency" (at least 1.0 asked).
3. **IS-MCTS on our games**: OpenSpiel's Python ``ISMCTSBot`` (one random rollout per leaf,
   our ``determinize`` resampler) playing our game through ``sengoku.envs.openspiel`` (one
   search per action token), against our ISMCTS at the same decision points and seat:
   simulations per second of each. ``--skip-ismcts`` leaves it out.

OpenSpiel (``open-spiel``, in the ``research`` and ``dev`` extras) must be installed.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python import games as _python_games  # noqa: E402, F401  (registers kuhn)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from playouts import random_game  # noqa: E402
from search_speed import decision_points  # noqa: E402

import sengoku  # noqa: E402
from sengoku.ai.ismcts import ISMCTSAgent  # noqa: E402
from sengoku.collector import tune_collector  # noqa: E402
from sengoku.core import Match, get_game  # noqa: E402
from sengoku.envs import openspiel  # noqa: E402

SPIEL_GAMES = ("hearts", "backgammon", "python_kuhn_poker")


def spiel_random(name: str) -> Callable[[int], int]:
    """One random game of OpenSpiel's ``name`` per call: returns its players' actions."""
    game = pyspiel.load_game(name)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return actions

    return play


def timed(work: Callable[[int], int], seconds: float, seed: int) -> tuple[float, float]:
    """Calls of ``work`` for at least ``seconds`` of CPU: (actions per second, games per second)."""
    games = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or games == 0:
        actions += work(seed + games)
        games += 1
    return actions / elapsed, games / elapsed


def interleaved(subjects: dict[str, Callable[[], float]], rounds: int) -> dict[str, float]:
    """Each subject's median over ``rounds`` rounds, the subjects in turns within a round."""
    results: dict[str, list[float]] = {name: [] for name in subjects}
    for _ in range(rounds):
        for name, measure in subjects.items():
            results[name].append(measure())
    return {name: statistics.median(values) for name, values in results.items()}


def ours_search_rate(points: list[Match], seconds: float) -> float:
    """Our ISMCTS's iterations per CPU second over the decision points."""
    iterations, spent = 0, 0.0
    for k, match in enumerate(points):
        seat = match.to_act()[0]
        agent = ISMCTSAgent(k, iterations=None, time_limit=seconds, playout="random")
        begin = time.process_time()
        agent.choose(match.view(seat), match.legal_actions(seat))
        spent += time.process_time() - begin
        iterations += agent.last_iterations
    return iterations / spent


def hearts_search_rate(simulations: int, searches: int) -> float:
    """OpenSpiel's Python MCTS on hearts: simulations per CPU second at ``searches`` decisions
    spread over one random game (as our decision points are over ours)."""
    game = pyspiel.load_game("hearts")
    rng = random.Random(5)
    state = game.new_initial_state()
    history = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        history.append(action)
        state.apply_action(action)
    stride = max(1, len(history) // (searches + 1))
    spent, done = 0.0, 0
    for at in range(stride, len(history), stride):
        state = game.new_initial_state()
        for action in history[:at]:
            state.apply_action(action)
        if state.is_chance_node() or len(state.legal_actions()) < 2:
            continue
        bot = mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(at)),
            random_state=np.random.RandomState(at + 1),
        )
        begin = time.process_time()
        bot.step(state)
        spent += time.process_time() - begin
        done += 1
        if done == searches:
            break
    return simulations * done / spent


def spiel_ismcts_rate(name: str, players: int, points: list[Match], simulations: int) -> float:
    """OpenSpiel's Python IS-MCTS on our game through the adapter: simulations per CPU second
    of the searches for the first token of each decision point's action."""
    game = pyspiel.load_game(f"sengoku_{name}", {"players": players})
    spent, searches = 0.0, 0
    for k, match in enumerate(points):
        state = game.new_initial_state()
        state.apply_action(match.seed)  # the root's chance outcome is the match's seed
        play = state.play
        for seat, action in match.history:
            play.carry_out(seat, action)
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(k)),
            uct_c=2.0,
            max_simulations=simulations,
            random_state=np.random.RandomState(k + 1),
        )
        bot.set_resampler(openspiel.resampler(k))
        if len(state.legal_actions()) < 2:
            continue  # a forced first token: no search to time
        begin = time.process_time()
        bot.step(state)
        spent += time.process_time() - begin
        searches += 1
    return simulations * searches / spent if searches else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="one of our games (default: all)")
    parser.add_argument("--players", type=int, default=4, help="players in our games")
    parser.add_argument("--seconds", type=float, default=1.5, help="CPU seconds per measure")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--points", type=int, default=6, help="decision points per game")
    parser.add_argument("--search", type=float, default=0.3, help="our CPU s per decision")
    parser.add_argument("--simulations", type=int, default=100, help="OpenSpiel's per search")
    parser.add_argument("--skip-ismcts", action="store_true", help="leave out table 3")
    parser.add_argument(
        "--collector",
        choices=("default", "tuned"),
        default="default",
        help="Python's garbage collector as it comes, or as sengoku simulate sets it "
        "(sengoku.collector), for every subject alike",
    )
    args = parser.parse_args()
    openspiel.register()
    if args.collector == "tuned":
        tune_collector()
    ours = args.game or sengoku.available_games()
    counts = {
        n: args.players
        if args.players in get_game(n).player_counts
        else get_game(n).player_counts[-1]
        for n in ours
    }
    build = (
        "pure Python"
        if sengoku.core.rng.__file__.endswith(".py")
        else "compiled (tools/compile.py)"
    )
    print(
        f"CPython {platform.python_version()}, {platform.machine()}; pyspiel "
        f"{getattr(pyspiel, '__version__', '?')}; {args.rounds} rounds of {args.seconds} CPU s; "
        f"sengoku {build} from {Path(sengoku.__file__).parent}; collector {args.collector}"
    )

    work: dict[str, Callable[[int], int]] = {
        f"{n} {counts[n]}p": (lambda seed, n=n: random_game(n, counts[n], seed, {})) for n in ours
    }
    work.update({n: spiel_random(n) for n in SPIEL_GAMES})
    rates: dict[str, tuple[float, float]] = {}
    medians = interleaved(
        {label: (lambda w=w: timed(w, args.seconds, 1)[0]) for label, w in work.items()},
        args.rounds,
    )
    for label, w in work.items():  # games per second, from one more measure each
        rates[label] = medians[label], timed(w, args.seconds, 7)[1]
    print("\n| game | actions/s | games/s | x hearts | x kuhn poker |")
    print("|---|---|---|---|---|")
    hearts, kuhn = rates["hearts"][0], rates["python_kuhn_poker"][0]
    for label, (actions, games) in rates.items():
        print(
            f"| {label} | {actions:,.0f} | {games:,.2f} | {actions / hearts:.2f} "
            f"| {actions / kuhn:.2f} |"
        )

    points = {n: decision_points(n, counts[n], args.points) for n in ours}
    search = interleaved(
        {
            "hearts": lambda: hearts_search_rate(args.simulations, args.points),
            **{n: (lambda n=n: ours_search_rate(points[n], args.search)) for n in ours},
        },
        args.rounds,
    )
    spiel_eff = search["hearts"] / rates["hearts"][1]
    print("\n| search | iterations/s | per random game | x OpenSpiel MCTS on hearts |")
    print("|---|---|---|---|")
    print(f"| OpenSpiel MCTS, hearts | {search['hearts']:,.0f} | {spiel_eff:.2f} | 1.00 |")
    for n in ours:
        eff = search[n] / rates[f"{n} {counts[n]}p"][1]
        print(
            f"| our ISMCTS, {n} {counts[n]}p | {search[n]:,.0f} | {eff:.2f} "
            f"| {eff / spiel_eff:.2f} |"
        )

    if args.skip_ismcts:
        return
    print("\n| game | OpenSpiel IS-MCTS simulations/s | our ISMCTS iterations/s | ours/theirs |")
    print("|---|---|---|---|")
    for n in ours:
        theirs = interleaved(
            {
                "spiel": lambda n=n: spiel_ismcts_rate(
                    n, counts[n], points[n], max(10, args.simulations // 4)
                ),
                "ours": lambda n=n: ours_search_rate(points[n], args.search),
            },
            args.rounds,
        )
        print(
            f"| {n} {counts[n]}p | {theirs['spiel']:,.0f} | {theirs['ours']:,.0f} "
            f"| {theirs['ours'] / theirs['spiel']:.2f} |"
        )


if __name__ == "__main__":
    main()
