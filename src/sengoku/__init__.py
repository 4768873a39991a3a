"""Sengoku: Shogun, Shitenno and Rising Sun, with every rule enforced, for players and researchers.

The public contract (see ``README.md`` and ``docs/architecture.md``):
:func:`available_games`, :func:`new_match`, :class:`Match` (``to_act``, ``legal_actions``,
``act``, ``view``, ``outcome``, ``to_record``, ``from_record``, ``clone``, ``parse_action``,
``undo``, ``undo_refusal``),
:class:`Outcome`, :class:`IllegalActionError`, :class:`UndoRefusedError` and :func:`determinize`.
"""

from sengoku.core import (
    Game,
    GameOptions,
    IllegalActionError,
    Match,
    OptionError,
    Outcome,
    RecordError,
    Rng,
    SengokuError,
    SetupError,
    UndoRefusedError,
    UnknownGameError,
    available_games,
    determinize,
    get_game,
    new_match,
    register,
)

__version__ = "0.1.0"

__all__ = [
    "Game",
    "GameOptions",
    "IllegalActionError",
    "Match",
    "OptionError",
    "Outcome",
    "RecordError",
    "Rng",
    "SengokuError",
    "SetupError",
    "UndoRefusedError",
    "UnknownGameError",
    "__version__",
    "available_games",
    "determinize",
    "get_game",
    "new_match",
    "register",
]
