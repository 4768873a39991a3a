"""Train a masked PPO agent (sb3-contrib) to play a Sengoku game against Sengoku's agents,
then measure it against them on matches it never trained on.

``pip install -e '.[learning]'``, then::

    python examples/learn.py --game shitenno --players 2 --steps 60000 --games 400

The learner plays one seat of each match (seat ``seed % players``, so every seat in turn;
:class:`sengoku.envs.solo.SengokuSoloEnv`), the opponents' agents the others. Its policy is
PPO's multilayer perceptron over the game's observation; masks keep it to legal ids. The
measure is its score, the mean of its rewards (1 for a win, shared in a tie), with a 95%
Wilson interval; against random opponents an untrained policy scores ``1 / players``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from sb3_contrib import MaskablePPO

from sengoku.envs.solo import SengokuSoloEnv
from sengoku.sim.stats import wilson

#: Evaluation matches are seeded from here on, far from the training's seeds.
EVALUATION_SEEDS = 1_000_000


def train(
    game: str,
    players: int,
    opponents: str = "random",
    steps: int = 60_000,
    seed: int = 0,
    **ppo: Any,
) -> MaskablePPO:
    """A MaskablePPO model trained for ``steps`` of the learner's ids (``ppo``: PPO's settings,
    such as ``n_steps`` or ``batch_size``)."""
    env = SengokuSoloEnv(game, players, opponents=opponents)
    env.reset(seed=seed)
    model = MaskablePPO("MlpPolicy", env, seed=seed, verbose=0, **ppo)
    model.learn(total_timesteps=steps)
    return model


def evaluate(
    model: MaskablePPO, game: str, players: int, opponents: str = "random", games: int = 400
) -> tuple[float, float, float]:
    """The model's score over ``games`` matches (its most likely legal id at each step) and
    the score's 95% interval: ``(score, low, high)``."""
    env = SengokuSoloEnv(game, players, opponents=opponents)
    total = 0.0
    for k in range(games):
        observation, _ = env.reset(seed=EVALUATION_SEEDS + k)
        done = False
        while not done:
            action, _ = model.predict(
                observation, action_masks=env.action_masks(), deterministic=True
            )
            observation, reward, done, _, _ = env.step(int(action))
        total += reward
    low, high = wilson(total, games)
    return total / games, low, high


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="shitenno")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="an agent spec, as --agent")
    parser.add_argument("--steps", type=int, default=60_000, help="the learner's ids to train on")
    parser.add_argument("--games", type=int, default=400, help="matches to measure it on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-steps", type=int, default=2048, help="PPO's ids per update")
    args = parser.parse_args(argv)
    batch = min(64, args.n_steps)
    untrained = MaskablePPO(
        "MlpPolicy", SengokuSoloEnv(args.game, args.players, args.opponents), seed=args.seed
    )
    before = evaluate(untrained, args.game, args.players, args.opponents, args.games)
    start = time.process_time()
    model = train(
        args.game,
        args.players,
        args.opponents,
        args.steps,
        args.seed,
        n_steps=args.n_steps,
        batch_size=batch,
    )
    spent = time.process_time() - start
    after = evaluate(model, args.game, args.players, args.opponents, args.games)
    print(f"{args.game}, {args.players} players, against {args.opponents}, {args.games} matches")
    for name, (score, low, high) in (("untrained", before), ("trained", after)):
        print(f"{name}: score {score:.3f} (95% {low:.3f}-{high:.3f})")
    print(f"training: {args.steps:,} ids in {spent:.0f} s of CPU")


if __name__ == "__main__":
    main()
