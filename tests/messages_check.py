"""Checks shared by the games' message tests: what a game writes in its log, and how it names
an action, are messages (:mod:`sengoku.core.messages`) that every language can render.

For a message, in each language (``en``, ``ja``, ``zh``, ``nl``) and from that language's own
catalog file (``web/i18n/<scope>.<lang>.json`` over ``ui.<lang>.json``, no English fallback, so
an untranslated key fails):

- every key it uses (its templates, terms and separators) is there;
- each template has exactly the placeholders the message's arguments give;
- no argument is plain text (it would reach every reader in English);
- the rendered text holds no ``{`` and no catalog key (``shogun.x``, ``ui.x``);
- in English, it matches no pattern of the game's raw engine codes.

:func:`check_random_games` plays seeded random games and checks every log line of every seat
and of a spectator, and the description of every legal action offered on the way.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import sengoku
from sengoku.core import Match, Message, Rng, message_to_json
from sengoku.core.messages import Items, Term, keys_used, placeholders, render, walk

WEB = Path(__file__).resolve().parents[1] / "src/sengoku/web"
LANGUAGES = ("en", "ja", "zh", "nl")
#: a catalog key left in a rendered text
KEY_IN_TEXT = re.compile(r"\b(?:ui|shogun|shitenno|rising_sun)\.\w")


@functools.cache
def raw_catalog(scope: str, lang: str) -> Mapping[str, str]:
    """The entries of ``ui.<lang>.json`` and ``<scope>.<lang>.json``, without English under."""
    merged: dict[str, str] = {}
    for name in ("ui", scope):
        data = json.loads((WEB / "i18n" / f"{name}.{lang}.json").read_text(encoding="utf-8"))
        merged.update({k: v for k, v in data.items() if isinstance(v, str)})
    return merged


def check_message(value: Any, scope: str, raw_code: re.Pattern[str] | None = None) -> None:
    """``value`` is a message every language renders in words (the rules of the module)."""
    assert isinstance(value, Message), f"not a message: {value!r}"
    plain = [
        v
        for v in walk(value)
        if isinstance(v, bool) or not isinstance(v, Message | Term | Items | int)
    ]
    assert plain == [], f"plain text in {message_to_json(value)}"
    for lang in LANGUAGES:
        catalog = raw_catalog(scope, lang)
        missing = sorted(keys_used(value) - catalog.keys())
        assert missing == [], f"{lang} lacks {missing} for {message_to_json(value)}"
        for part in walk(value):
            if isinstance(part, Message):
                wanted = placeholders(catalog[part.key])
                assert wanted == set(part.args), (lang, part.key, sorted(part.args))
        text = render(value, catalog)
        assert "{" not in text, (lang, text)
        assert not KEY_IN_TEXT.search(text), (lang, text)
        if lang == "en" and raw_code is not None:
            assert not raw_code.search(text), f"raw code in {text!r}"


class Checker:
    """Checks messages once each (a random game repeats many)."""

    def __init__(self, scope: str, raw_code: re.Pattern[str] | None = None) -> None:
        self.scope = scope
        self.raw_code = raw_code
        self.seen: set[str] = set()

    def check(self, value: Any) -> None:
        key = (
            json.dumps(message_to_json(value), sort_keys=True)
            if isinstance(value, Message)
            else repr(value)
        )
        if key not in self.seen:
            check_message(value, self.scope, self.raw_code)
            self.seen.add(key)

    def check_log(self, match: Match) -> None:
        """Every log line of every seat and of a spectator."""
        for seat in [None, *range(match.players)]:
            for entry in match.log_entries(seat):
                self.check(entry)


def check_random_games(
    game: str,
    players: int,
    seeds: range,
    raw_code: re.Pattern[str] | None = None,
    options: dict[str, Any] | None = None,
) -> int:
    """Play a random game per seed to the end, checking the description of every legal
    action offered and then every log line; the number of distinct messages checked."""
    checker = Checker(game, raw_code)
    for seed in seeds:
        match = sengoku.new_match(game, players, seed=seed, options=options)
        rules = match.game
        rng = Rng(seed)
        while to_act := match.to_act():
            legal = match.legal_actions(to_act[0])
            for action in legal:
                checker.check(rules.action_message(action))
            match.act(to_act[0], rng.choice(legal))
        checker.check_log(match)
    return len(checker.seen)
