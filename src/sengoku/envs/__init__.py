"""Adapters for research frameworks: PettingZoo and OpenSpiel (their extras:
``pip install -e '.[pettingzoo]'``, ``pip install -e '.[openspiel]'``).

* :mod:`sengoku.envs.pettingzoo`: ``env(game, players=..., options=...)`` (AEC) and
  ``parallel_env(...)``;
* :mod:`sengoku.envs.vector`: ``SengokuVectorEnv(game, num_envs, ...)``, many games stepped
  together (Gymnasium's vector API), and ``RayVectorEnv`` over Ray's actors;
* :mod:`sengoku.envs.solo`: ``SengokuSoloEnv(game, ...)``, one learning seat against
  Sengoku's agents (Gymnasium's single-agent API, with ``action_masks()`` for sb3-contrib);
* :mod:`sengoku.envs.openspiel`: ``register()`` makes ``pyspiel.load_game("sengoku_shogun")``
  and the others work;
* :mod:`sengoku.envs.common`: what both stand on, a match played one action token at a time.

See ``docs/research.md``.
"""

__all__ = ["MissingExtraError"]


class MissingExtraError(ModuleNotFoundError):
    """A part of Sengoku used without its optional dependencies (its extra) installed; the
    message says what to install, in the form the README uses (from the checkout).

    A ``ModuleNotFoundError`` only, not also a ``SengokuError``: in the compiled build
    ``SengokuError`` is a compiled class, whose layout cannot be joined with
    ``ModuleNotFoundError``'s in one class.

    >>> str(MissingExtraError("plots", "plots", "matplotlib"))
    "plots need matplotlib, which is not installed: pip install -e '.[plots]'"
    """

    def __init__(self, what: str, extra: str, module: str | None) -> None:
        super().__init__(
            f"{what} need {module}, which is not installed: pip install -e '.[{extra}]'",
            name=module,
        )
        self.extra = extra
