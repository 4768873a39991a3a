"""The agents' hooks: the heuristic picks from whatever subset of the legal actions it is
given, and its estimates are well formed."""

from __future__ import annotations

import math

import sengoku
from sengoku.core import Rng, get_game
from sengoku.games.rising_sun.actions import COIN, RONIN, Give


def test_the_policy_chooses_within_any_subset_and_never_gives_gifts() -> None:
    """rising_sun.md §14 (every decision of the game): at each decision of random games, the
    heuristic returns one of the actions it was offered (search offers it subsets), and
    prefers anything to handing out Coins or Ronin."""
    game = get_game("rising_sun")
    for seed in range(4):
        m = sengoku.new_match("rising_sun", 3 + seed % 3, seed=seed)
        rng = Rng(seed)
        while m.outcome() is None:
            q = m.to_act()[0]
            legal = m.legal_actions(q)
            for _ in range(2):
                subset = [a for a in legal if rng.random() < 0.5] or legal[:1]
                choice = game.policy(m.state, q, subset, rng)
                assert choice is None or choice in subset
                if choice is not None and any(not isinstance(a, Give) for a in subset):
                    assert not (isinstance(choice, Give) and choice.purpose in (COIN, RONIN))
            m.act(q, rng.choice(legal))
        scores = game.estimate(m.state)
        assert list(scores or []) == list(m.outcome().scores)
        shares = game.evaluate(m.state)
        assert shares is not None and math.isclose(sum(shares), 1.0)
