"""Adapters for research frameworks: PettingZoo and OpenSpiel (their extras:
``pip install -e '.[pettingzoo]'``, ``pip install -e '.[openspiel]'``).

* :mod:`sengoku.envs.pettingzoo`: ``env(game, players=..., options=...)`` (AEC) and
  ``parallel_env(...)``;
* :mod:`sengoku.envs.openspiel`: ``register()`` makes ``pyspiel.load_game("sengoku_shogun")``
  and the others work;
* :mod:`sengoku.envs.common`: what both stand on, a match played one action token at a time.

See ``docs/research.md``.
"""
