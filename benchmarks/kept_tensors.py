"""How much a kept tensor saves: one seat's observation tensor from its view, kept against whole.

``python benchmarks/kept_tensors.py --games 3 --rounds 3``

For each game and player count, records the views of the seat to act along ``--games`` random
games (whole random actions), then makes their tensors as the research adapters do
(:class:`sengoku.envs.tensors.KeptTensor`, one per seat, as a float32 array) and whole
(``observation_tensor`` as a list, then float32 through ``array("f")``), in ``--rounds``
turns taken in turn; prints CPU microseconds per view of each, their ratio and the share of
parts the kept tensors made. Then, for the same games, the other costs of an environment's
step beside the engine's: making the view, the token tree of the legal actions
(``Decision``), and the engine's own legal actions and ``act``, in microseconds per action.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from array import array
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

import numpy as np  # noqa: E402

import sengoku  # noqa: E402
from sengoku.core import ActionSpace, Decision, Rng, get_game  # noqa: E402
from sengoku.envs.tensors import KeptTensor  # noqa: E402


def views_of(name: str, players: int, games: int) -> tuple[Any, list[tuple[int, Any]]]:
    """The game's rules and the views of the seat to act, along random games."""
    views = []
    for seed in range(games):
        match = sengoku.new_match(name, players, seed=seed)
        rng = Rng(seed)
        while (to_act := match.to_act()) != []:
            views.append((to_act[0], match.view(to_act[0])))
            match.act(to_act[0], rng.choice(match.legal_actions(to_act[0])))
    return match, views


def kept(match: Any, views: list[tuple[int, Any]]) -> tuple[float, float]:
    """CPU seconds to make every view's tensor kept, and the share of parts made."""
    parts = match.game.observation_parts(match.players, match.options)
    tensors: dict[int, KeptTensor] = {}
    made = 0
    start = time.process_time()
    for seat, view in views:
        tensor = tensors.get(seat)
        if tensor is None:
            tensor = tensors[seat] = KeptTensor(parts)
        tensor.update(view).copy()
        made += tensor.made
    return time.process_time() - start, made / (len(views) * len(parts.parts))


def whole(match: Any, views: list[tuple[int, Any]]) -> float:
    """CPU seconds to make every view's tensor whole, as float32."""
    game = match.game
    start = time.process_time()
    for _seat, view in views:
        np.frombuffer(array("f", game.observation_tensor(view)), dtype=np.float32)
    return time.process_time() - start


def step_costs(name: str, players: int, games: int) -> dict[str, float]:
    """CPU microseconds per action of the view, the ``Decision``, legal actions and ``act``
    of the seat to act, along ``games`` random games."""
    spent = dict.fromkeys(("view", "legal actions", "decision", "act"), 0.0)
    actions = 0
    clock = time.process_time
    for seed in range(games):
        match = sengoku.new_match(name, players, seed=seed)
        space = ActionSpace.of(match)
        rng = Rng(seed)
        while (to_act := match.to_act()) != []:
            seat = to_act[0]
            start = clock()
            match.view(seat)
            view_done = clock()
            legal = match.legal_actions(seat)
            legal_done = clock()
            Decision(space, match, seat)  # on the legal actions the match keeps
            decision_done = clock()
            match.act(seat, rng.choice(legal))
            act_done = clock()
            spent["view"] += view_done - start
            spent["legal actions"] += legal_done - view_done
            spent["decision"] += decision_done - legal_done
            spent["act"] += act_done - decision_done
            actions += 1
    return {key: value / actions * 1e6 for key, value in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (default: all)")
    parser.add_argument("--games", type=int, default=3, help="random games of views")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print("| game | players | views | kept µs/view | whole µs/view | kept / whole | parts made |")
    print("|" + "---|" * 7)
    for name in args.game or sengoku.available_games():
        for players in get_game(name).player_counts:
            match, views = views_of(name, players, args.games)
            spent_kept = spent_whole = share = 0.0
            for _ in range(args.rounds):
                seconds, share = kept(match, views)
                spent_kept += seconds
                spent_whole += whole(match, views)
            n = len(views) * args.rounds
            print(
                f"| {name} | {players} | {len(views):,} | {spent_kept / n * 1e6:.0f} "
                f"| {spent_whole / n * 1e6:.0f} | **{spent_kept / spent_whole:.2f}** "
                f"| {share:.2f} |"
            )
    print()
    print("| game | players | view µs | legal actions µs | Decision µs | act µs |")
    print("|" + "---|" * 6)
    for name in args.game or sengoku.available_games():
        for players in get_game(name).player_counts:
            costs = step_costs(name, players, args.games)
            print(
                f"| {name} | {players} | " + " | ".join(f"{v:.0f}" for v in costs.values()) + " |"
            )


if __name__ == "__main__":
    main()
