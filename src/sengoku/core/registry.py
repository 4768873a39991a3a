"""The game registry: a name for each game, loaded on first use.

Registering a game is one line, with the game object or the import path of its class,
``register("shitenno", "sengoku.games.shitenno:Shitenno")``; the built-in games are
registered that way in :mod:`sengoku.games`. A path is imported only when the game is
first asked for, so ``sengoku --help`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGameError
from .game import Game

_targets: dict[str, str | Game[Any, Any]] = {}
_loaded: dict[str, Game[Any, Any]] = {}


def register(name: str, game: str | Game[Any, Any]) -> None:
    """Register ``game`` (an instance, or ``"package.module:ClassName"``) under ``name``.

    Registering the same name again replaces the earlier entry.
    """
    if not name or name != name.lower() or not name.replace("_", "").isalnum():
        raise ValueError(f"a game name is lower-case letters, digits and '_', not {name!r}")
    _targets[name] = game
    _loaded.pop(name, None)


def unregister(name: str) -> None:
    """Remove ``name`` from the registry (for tests and plug-ins)."""
    _targets.pop(name, None)
    _loaded.pop(name, None)


def available_games() -> list[str]:
    """The names of the registered games, sorted.

    >>> import sengoku
    >>> isinstance(sengoku.available_games(), list)
    True
    """
    _ensure_builtins()
    return sorted(_targets)


def get_game(name: str) -> Game[Any, Any]:
    """Return the game registered as ``name``, importing it on first use."""
    _ensure_builtins()
    game = _loaded.get(name)
    if game is not None:
        return game
    target = _targets.get(name) if isinstance(name, str) else None
    if target is None:
        raise UnknownGameError(str(name), sorted(_targets))
    if isinstance(target, str):
        module_name, _, class_name = target.partition(":")
        game = getattr(importlib.import_module(module_name), class_name)()
    else:
        game = target
    if game.name != name:
        raise ValueError(f"game registered as {name!r} calls itself {game.name!r}")
    _loaded[name] = game
    return game


def registry_targets() -> dict[str, str]:
    """Each registered name with an import path that loads it in another process."""
    _ensure_builtins()
    out = {}
    for name, target in _targets.items():
        if isinstance(target, str):
            out[name] = target
        else:
            cls = type(target)
            out[name] = f"{cls.__module__}:{cls.__qualname__}"
    return out


_builtins_done = False


def _ensure_builtins() -> None:
    global _builtins_done
    if not _builtins_done:
        _builtins_done = True
        importlib.import_module("sengoku.games")
