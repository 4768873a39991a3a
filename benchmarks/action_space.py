"""How big the decisions are: legal actions per decision in random games, per game and count.

``python benchmarks/action_space.py --game rising_sun -n 200``

For each game and player count it plays ``n`` random games and prints the mean and largest
number of legal actions a deciding seat is offered, the same for the largest decision kind
(by ``view["decision"]`` or ``view["phase"]``), and how many different notations appeared.
For Rising Sun it also prints what the secret coin split would offer as one action per whole
split (every way to put up to c Coins on 4 Advantages: C(c + 4, 4)) beside the four steps it
takes instead.

``--tokens`` prints the integer action space of the research interfaces instead
(``sengoku.core.ActionSpace``): the vocabulary's size, how many ids the games used, the most
ids one step offered and the mean, how many steps an action took (steps with one way on are
followed without asking, as ``Decision`` does) and the longest spelling.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("SENGOKU_SRC", str(ROOT / "src")))  # or a compiled build

import sengoku  # noqa: E402
from sengoku.core import ActionSpace, Rng, get_game  # noqa: E402


def measure_tokens(name: str, players: int, games: int) -> dict[str, object]:
    widths: list[int] = []
    steps: list[int] = []
    longest = 0
    used: set[int] = set()
    space = None
    for seed in range(games):
        match = sengoku.new_match(name, players, seed=seed)
        space = space or ActionSpace.of(match)
        rng = Rng(seed)
        while match.outcome() is None:
            seat = rng.choice(match.to_act())
            action = rng.choice(match.legal_actions(seat))
            node = space.tree(match, seat).root
            spelled = space.encode(match, seat, action)
            used.update(spelled)
            longest = max(longest, len(spelled))
            asked = 0
            for token in spelled:
                if len(node) > 1 or asked == 0:
                    widths.append(len(node))
                    asked += 1
                child = node[token]
                node = child if isinstance(child, dict) else {}
            steps.append(asked)
            match.act(seat, action)
    assert space is not None
    return {
        "game": name,
        "players": players,
        "vocabulary": space.size,
        "used": len(used),
        "max_ids": max(widths),
        "mean_ids": sum(widths) / len(widths),
        "steps": sum(steps) / len(steps),
        "longest": longest,
    }


def measure(name: str, players: int, games: int) -> dict[str, object]:
    sizes: list[int] = []
    by_kind: dict[str, list[int]] = defaultdict(list)
    notations: set[str] = set()
    splits: list[int] = []
    for seed in range(games):
        match = sengoku.new_match(name, players, seed=seed)
        rng = Rng(seed)
        while match.outcome() is None:
            seat = rng.choice(match.to_act())
            legal = match.legal_actions(seat)
            view = match.view(seat)
            kind = str(view.get("decision") or view.get("phase"))
            sizes.append(len(legal))
            by_kind[kind].append(len(legal))
            notations.update(str(a) for a in legal)
            if kind == "bid" and not view["battle"]["bids"][seat]:
                splits.append(math.comb(view["coins"][seat] + 4, 4))
            match.act(seat, rng.choice(legal))
    widest = max(by_kind, key=lambda k: max(by_kind[k]))
    return {
        "game": name,
        "players": players,
        "decisions": len(sizes),
        "mean": sum(sizes) / len(sizes),
        "max": max(sizes),
        "widest": f"{widest} (max {max(by_kind[widest])})",
        "notations": len(notations),
        "bid_steps_max": max(by_kind["bid"]) if "bid" in by_kind else None,
        "whole_split_mean": sum(splits) / len(splits) if splits else None,
        "whole_split_max": max(splits) if splits else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game (default: all)")
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("--tokens", action="store_true", help="the research action space")
    args = parser.parse_args()
    if args.tokens:
        print(
            "| game | players | vocabulary | ids used | max ids at a step | mean ids at a step "
            "| steps per action | longest spelling |"
        )
        print("|" + "---|" * 8)
        for name in args.game or sengoku.available_games():
            for players in get_game(name).player_counts:
                t = measure_tokens(name, players, args.games)
                print(
                    f"| {name} | {players} | {t['vocabulary']} | {t['used']} | {t['max_ids']} "
                    f"| {t['mean_ids']:.1f} | {t['steps']:.2f} | {t['longest']} |"
                )
        return
    print(
        "| game | players | decisions | mean legal | max legal | widest decision | notations "
        "| bid step max | whole split mean / max |"
    )
    print("|" + "---|" * 9)
    for name in args.game or sengoku.available_games():
        for players in get_game(name).player_counts:
            r = measure(name, players, args.games)
            split = (
                f"{r['whole_split_mean']:.0f} / {r['whole_split_max']}"
                if r["whole_split_max"] is not None
                else "-"
            )
            print(
                f"| {r['game']} | {r['players']} | {r['decisions']} | {r['mean']:.1f} | {r['max']} "
                f"| {r['widest']} | {r['notations']} | {r['bid_steps_max'] or '-'} | {split} |"
            )


if __name__ == "__main__":
    main()
