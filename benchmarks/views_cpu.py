"""CPU time to make and encode every seat's view (and a spectator's) after each move: the
game's ``Game.views`` against views made one at a time (the default), in one run.

    python benchmarks/views_cpu.py --game rising_sun --players 4 --games 6

Random games with fixed seeds; at each position both ways run in turns (which goes first
alternates), each timed in process CPU time, as the server does it: the views of all seats
and of a spectator, then each encoded to JSON. Prints the microseconds per move of each and
their ratio (docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import msgspec

from sengoku.core import Game, get_game, new_match

_encode = msgspec.json.Encoder()


def _made(views: list[dict[str, Any]]) -> int:
    return sum(len(_encode.encode(v)) for v in views)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="rising_sun")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game(args.game)
    seats: list[int | None] = [None, *range(args.players)]
    spent = {"together": 0.0, "alone": 0.0}
    moves = 0
    for g in range(args.games):
        match = new_match(args.game, args.players, seed=args.seed + g)
        rng = random.Random(args.seed + g)
        while match.outcome() is None:
            ways = [("together", game.views), ("alone", lambda s, q: Game.views(game, s, q))]
            if moves % 2:
                ways.reverse()
            sizes = set()
            for name, make in ways:
                start = time.process_time()
                sizes.add(_made(make(match.state, seats)))
                spent[name] += time.process_time() - start
            assert len(sizes) == 1  # the same views, byte for byte
            seat = match.to_act()[0]
            match.act(seat, rng.choice(match.legal_actions(seat)))
            moves += 1
    per = {name: 1e6 * cpu / moves for name, cpu in spent.items()}
    print(
        json.dumps(
            {
                "game": args.game,
                "players": args.players,
                "moves": moves,
                "us_per_move_together": round(per["together"], 1),
                "us_per_move_alone": round(per["alone"], 1),
                "ratio": round(per["together"] / per["alone"], 3),
            }
        )
    )


if __name__ == "__main__":
    main()
