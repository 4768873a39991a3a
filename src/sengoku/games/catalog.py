"""The English catalogs the games' messages render from (read once, from package data).

The browser reads the same files (``web/i18n/<scope>.<lang>.json``) for every language, so
the engine's English and each translation come from one set of keys
(:mod:`sengoku.core.messages`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType


def _read(scope: str, lang: str) -> dict[str, str]:
    raw = (
        resources.files("sengoku")
        .joinpath("web", "i18n", f"{scope}.{lang}.json")
        .read_text("utf-8")
    )
    return {k: v for k, v in json.loads(raw).items() if isinstance(v, str)}


@functools.cache
def catalog(scope: str, lang: str = "en") -> Mapping[str, str]:
    """The catalog of a game (its name) in ``lang``, with the shared ``ui`` entries
    (separators) under it, falling back to English for a missing entry.

    >>> catalog("shogun")["ui.sep.comma"]
    ', '
    """
    merged = {**_read("ui", "en"), **_read(scope, "en")}
    if lang != "en":
        merged.update(_read("ui", lang))
        merged.update(_read(scope, lang))
    return MappingProxyType(merged)
