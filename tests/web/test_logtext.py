"""The log's templates (``<game>.log.*`` in the catalogs) cover every line the engine writes,
for a game that writes its log as English text (Rising Sun; Shogun and Shitenno write
messages, tests/shogun/test_messages.py and tests/shitenno/test_messages.py).

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

import sengoku
from sengoku.core import get_game
from sengoku.games.rising_sun.state import KIND_NAMES

WEB = Path(__file__).resolve().parents[2] / "src/sengoku/web"


def english(game: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{game}.en.json").read_text())
    return data


# Rising Sun's placeholder letters (the renderer builds one word map per letter; each maps the
# engine's English word to its translation):
#   c  a clan or a seat: client_data clans' names (rising_sun.clan.*) and the seat names
#      "Player 1".. (rising_sun.colour.*)
#   p  a province: client_data provinces' names (rising_sun.province.*)
#   k  a Kami: client_data kami's names (rising_sun.kami.*)
#   m  a Mandate: client_data mandates (rising_sun.mandate.*)
#   d  a Season card: client_data cards' names (rising_sun.card.*)
#   a  a War Advantage: client_data advantages (rising_sun.advantage.*)
#   s  a season as the log writes it, "Spring": the English of rising_sun.season.*
#   f  a figure kind: the engine's kind names (rising_sun.kind.*: Daimyo, Shinto, Bushi,
#      Stronghold) and the names of the Monster cards (rising_sun.card.*)
#   n  a number
#   x  free text: every word above, and the English of rising_sun.term.*, translated one by one
# Templates are tried in catalog order and the first match wins: the generic pieces of a kill
# line (``rising_sun.log.killed_last``, ``killed_more``) come last.


def rising_sun_words() -> dict[str, set[str]]:
    """The engine's English words per placeholder type, from the game's client data."""
    rules = get_game("rising_sun")
    data = rules.client_data()
    catalog = english("rising_sun")

    def texts(family: str) -> set[str]:
        return {v for k, v in catalog.items() if k.startswith(f"rising_sun.{family}.")}

    cards = data["cards"]
    words = {
        "c": {c["name"] for c in data["clans"]}
        | {rules.seat_name(i) for i in range(max(rules.player_counts))},
        "p": {p["name"] for p in data["provinces"]},
        "k": {k["name"] for k in data["kami"]},
        "m": set(data["mandates"]),
        "d": {c["name"] for c in cards},
        "a": set(data["advantages"]),
        "s": texts("season"),
        "f": set(KIND_NAMES) | {c["name"] for c in cards if c["type"] == "monster"},
    }
    words["x"] = set().union(*words.values(), texts("term"))
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


RISING_SUN_OPTIONS: list[dict[str, Any]] = [dict(o) for o in get_game("rising_sun").option_sets]
RISING_SUN_LETTERS = set("cpkmdasfnx")


def test_rising_sun_templates_use_its_placeholder_letters() -> None:
    """The renderer has words for exactly these letters (the list above): a template with
    another letter would match anything."""
    letters = {
        name[0]
        for key, text in english("rising_sun").items()
        if key.startswith(("rising_sun.log.", "rising_sun.act."))
        for name in re.findall(r"\{(\w+)\}", text)
    }
    assert letters <= RISING_SUN_LETTERS


def test_every_rising_sun_log_segment_has_a_template() -> None:
    """rising_sun.md §4.1-§4.3, §6, §8, §16.4-§16.6: each segment of each log line of 30 random
    games (every option set of ``RisingSun.option_sets``, 3 to 5 players) matches one of the
    catalog's log templates, or is a known term; where several match, the first (the one the
    browser uses) is the most specific."""
    words = rising_sun_words()
    patterns = compile_templates("rising_sun", words)
    assert len(patterns) > 100
    catalog = english("rising_sun")
    literal = [
        len(re.sub(r"\{\w+\}", "", text))
        for key, text in catalog.items()
        if key.startswith("rising_sun.log.")
    ]
    missing: set[str] = set()
    misordered: set[str] = set()
    lines = set(random_logs("rising_sun", RISING_SUN_OPTIONS, 30))
    assert len(lines) > 2000
    for segment in {segment for line in lines for segment in line.split("; ")}:
        hits = [i for i, p in enumerate(patterns) if p.match(segment)]
        if not hits and segment not in words["x"]:
            missing.add(segment)
        # the first match wins in the browser: it must be the most specific one
        if hits and literal[hits[0]] < max(literal[i] for i in hits):
            misordered.add(segment)
    assert sorted(missing)[:20] == []
    assert sorted(misordered)[:20] == []


def test_every_rising_sun_action_notation_has_a_template() -> None:
    """rising_sun.md §4.2, §6.1-§6.4, §8.3, §16.4: the notation of every action of 30 random
    games (the replay names each move by it) matches one of ``rising_sun.act.*``."""
    words = rising_sun_words()
    patterns = compile_templates("rising_sun", words, "act")
    notations = random_notations("rising_sun", RISING_SUN_OPTIONS, 30)
    assert len(notations) > 300
    missing = sorted(n for n in notations if not any(p.match(n) for p in patterns))
    assert missing[:20] == []
