"""The log's templates (``<game>.log.*`` in the catalogs) cover every line the engine writes.

The browser translates the engine's English log segment by segment with these templates
(``src/sengoku/web/logtext.js``); this test compiles them the same way and checks them against
every log line of many random games, so a new or changed engine line cannot slip through
untranslated.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sengoku
from sengoku.core import get_game

WEB = Path(__file__).resolve().parents[2] / "src/sengoku/web"


def english(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{game}.en.json").read_text())
    return data


def shogun_words() -> dict[str, set[str]]:
    """The engine's English words per placeholder type, as shogun.js builds them."""
    data = get_game("shogun").client_data()
    words = {
        "c": set(data["colours"]),
        "p": {p["name"] for p in data["provinces"]},
        "a": {a["title"] for a in data["actions"]} | {a["short"] for a in data["actions"]},
        "b": {"castle", "temple", "No theatre"},
        "s": {"spring", "summer", "autumn", "winter"},
    }
    terms = {v for k, v in english("shogun").items() if k.startswith("shogun.term.")}
    words["x"] = set().union(*words.values(), terms)
    words["x"] |= {card["label"] for card in data["specials"]}
    words["x"] |= {ev["effect"].split(" (")[0] for ev in data["events"]}
    return words


def compile_templates(
    game: str, words: dict[str, set[str]], family: str = "log"
) -> list[re.Pattern[str]]:
    """The templates ``<game>.<family>.*`` as logtext.js compiles them (``log``: the log's
    segments; ``act``: the notation of actions)."""
    kinds = {"n": r"\d+", "x": ".+?"}
    for kind, options in words.items():
        if kind != "x":
            kinds[kind] = "(?:" + "|".join(map(re.escape, sorted(options, key=len)[::-1])) + ")"
    patterns = []
    for key, template in english(game).items():
        if not key.startswith(f"{game}.{family}."):
            continue
        parts = re.split(r"\{(\w+)\}", template)
        body = "".join(
            re.escape(part) if i % 2 == 0 else f"({kinds.get(part[0], '.+?')})"
            for i, part in enumerate(parts)
        )
        patterns.append(re.compile(f"^{body}$"))
    return patterns


def random_matches(
    game: str, option_sets: list[dict[str, Any]], games: int
) -> Iterator[sengoku.Match]:
    """Random games to the end, over every player count and the option sets given."""
    rules = get_game(game)
    for g in range(games):
        players = rules.player_counts[g % len(rules.player_counts)]
        options = option_sets[g % len(option_sets)]
        match = sengoku.new_match(game, players, seed=900 + g, options=options)
        rng = random.Random(g)
        while match.outcome() is None:
            seat = match.to_act()[0]
            match.act(seat, rng.choice(match.legal_actions(seat)))
        yield match


def random_logs(game: str, option_sets: list[dict[str, Any]], games: int) -> Iterator[str]:
    """Every log line, for every seat and a spectator, of random games."""
    for match in random_matches(game, option_sets, games):
        for seat in [None, *range(match.players)]:
            yield from match.log(seat)


def random_notations(game: str, option_sets: list[dict[str, Any]], games: int) -> set[str]:
    """The notation of every action taken in random games (what a replay names)."""
    return {
        str(action)
        for match in random_matches(game, option_sets, games)
        for _, action in match.history
    }


SHOGUN_OPTIONS: list[dict[str, Any]] = [
    {},
    {"setup": "draft"},
    {"board": "moon", "show_tower": True},
    {"years": 3, "no_theatre_event": "on_reveal", "reveal_action_cards": "all_at_once"},
    {"over_bid": "pay_what_you_have", "short_recruit": "place_remaining"},
    {"battle_move_optional": True, "tie_break": "shared"},
    {"no_theatre_event": "action_one", "peasant_allies": "never"},
]


@pytest.mark.parametrize("game", ["shogun"])
def test_every_log_segment_has_a_template(game: str) -> None:
    """shogun.md §4-§11: each segment of each log line of 30 random games (every option set,
    3 to 5 players) matches one of the catalog's log templates, or is a known term."""
    words = shogun_words()
    patterns = compile_templates(game, words)
    assert len(patterns) > 40
    missing: set[str] = set()
    lines = set(random_logs(game, SHOGUN_OPTIONS, 30))
    assert len(lines) > 2000
    for line in lines:
        for segment in line.split("; "):
            if segment not in words["x"] and not any(p.match(segment) for p in patterns):
                missing.add(segment)
    assert sorted(missing)[:20] == []


def test_every_action_notation_has_a_template() -> None:
    """shogun.md §4-§10: the notation of every action of 30 random games (the replay names
    each move by it) matches one of the catalog's action templates (``shogun.act.*``)."""
    words = shogun_words()
    patterns = compile_templates("shogun", words, "act")
    notations = random_notations("shogun", SHOGUN_OPTIONS, 30)
    assert len(notations) > 500
    missing = sorted(n for n in notations if not any(p.match(n) for p in patterns))
    assert missing[:20] == []
