"""The browser UI's translations: every key in every language, every key the code uses.

Catalogs are flat JSON files ``src/sengoku/web/i18n/<scope>.<lang>.json``; ``scope`` is ``ui``
or a game's name. English is the reference.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sengoku.core import available_games, describe_options, get_game
from sengoku.core.messages import placeholders, plural_forms
from sengoku.games.rising_sun.state import KIND_NAMES
from sengoku.games.rising_sun.state import SEASON_NAMES as RISING_SUN_SEASONS
from sengoku.games.shitenno.state import Phase
from sengoku.games.shogun.data import ACTIONS
from sengoku.games.shogun.state import PHASE_NAMES, SEASONS
from sengoku.server.bots import BOT_LEVELS

WEB = Path(__file__).resolve().parents[2] / "src/sengoku/web"
LANGUAGES = ("en", "ja", "zh", "nl")
#: the games Sengoku ships (the tests register a toy game of their own beside them)
GAMES = [g for g in available_games() if type(get_game(g)).__module__.startswith("sengoku.")]
SCOPES = ("ui", *GAMES)


def catalog(scope: str, lang: str) -> dict[str, Any]:
    path = WEB / "i18n" / f"{scope}.{lang}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    return data


@pytest.mark.parametrize("lang", LANGUAGES[1:])
@pytest.mark.parametrize("scope", SCOPES)
def test_every_key_exists_in_every_language(scope: str, lang: str) -> None:
    """Each language has exactly English's keys, the same kinds of value and placeholders."""
    english, other = catalog(scope, "en"), catalog(scope, lang)
    assert sorted(set(english) - set(other)) == [], f"missing in {scope}.{lang}"
    assert sorted(set(other) - set(english)) == [], f"not in English ({scope}.{lang})"
    for key, text in english.items():
        assert type(other[key]) is type(text), key
        if isinstance(text, str):
            assert placeholders(other[key]) == placeholders(text), key
            assert other[key].strip(), f"{key} is empty in {lang}"
        else:
            assert other[key] == text, f"{key}: lists (section ids) are not translated"


PLURAL = re.compile(r"\{(\w+), plural,")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("scope", SCOPES)
def test_plural_forms_are_whole_and_follow_the_language(scope: str, lang: str) -> None:
    """Each plural (``{n, plural, one {…} other {…}}``) closes, has an ``other`` form and
    the categories its language has (CLDR's for whole numbers): English and Dutch ``one``
    and ``other``, Japanese and Chinese ``other`` alone; ``=N`` forms may stand beside them.
    A number that a template shows with a noun has a plural where the noun changes."""
    wanted = {"en": {"one", "other"}, "nl": {"one", "other"}, "ja": {"other"}, "zh": {"other"}}
    for key, text in catalog(scope, lang).items():
        if not isinstance(text, str):
            continue
        for found in PLURAL.finditer(text):
            forms, _ = plural_forms(text, found.end())
            categories = {f for f in forms if not f.startswith("=")}
            assert categories == wanted[lang], (key, sorted(forms))
            assert all(f[1:].isdigit() for f in forms if f.startswith("=")), key


@pytest.mark.parametrize("scope", SCOPES)
def test_keys_belong_to_their_scope(scope: str) -> None:
    """A key names its catalog: ``shogun.*`` lives in ``shogun.<lang>.json``."""
    for key in catalog(scope, "en"):
        assert key.startswith(scope + "."), key


def test_every_literal_key_in_the_code_is_in_the_english_catalog() -> None:
    """``t("scope.key")`` in any module finds its text."""
    used: set[str] = set()
    for path in WEB.rglob("*.js"):
        used |= set(re.findall(r"\bt(?:Or)?\(\s*\"([a-z_]+\.[\w.]+)\"", path.read_text()))
    assert len(used) > 100
    missing = sorted(k for k in used if k not in catalog(k.split(".")[0], "en"))
    assert missing == []


def expected_keys(game: str) -> set[str]:
    """Keys the code builds from the game's data: options, colours, help sections."""
    rules = get_game(game)
    keys = {f"{game}.title", f"{game}.help.title", f"{game}.help.sections"}
    for option in describe_options(rules.options_type):
        keys |= {f"{game}.option.{option.name}", f"{game}.option.{option.name}.help"}
        for choice in option.to_json()["schema"].get("enum", []):
            keys.add(f"{game}.option.{option.name}.{choice}")
    keys |= {f"{game}.colour.{rules.seat_name(i)}" for i in range(max(rules.player_counts))}
    for section in catalog(game, "en")[f"{game}.help.sections"]:
        keys |= {f"{game}.help.{section}.h", f"{game}.help.{section}.p"}
    return keys


@pytest.mark.parametrize("game", GAMES)
def test_every_option_colour_and_help_section_has_its_text(game: str) -> None:
    """The lobby names every option and choice, the board every colour; help sections exist."""
    assert sorted(expected_keys(game) - set(catalog(game, "en"))) == []


def test_shogun_terms_built_from_the_data_have_their_text() -> None:
    """shogun.md §5-§7, §14.1: actions, phases, seasons, events, special cards, regions and
    the 45 provinces."""
    data = get_game("shogun").client_data()
    keys = {f"shogun.action.{a}" for a in ACTIONS}
    keys |= {f"shogun.phase.{p}" for p in PHASE_NAMES}
    keys |= {f"shogun.season.{s}" for s in SEASONS}
    keys |= {f"shogun.event.{e['kind']}" for e in data["events"]}
    keys |= {f"shogun.special.{c['kind']}" for c in data["specials"]}
    keys |= {f"shogun.region.{r}" for r in data["regions"]}
    keys |= {f"shogun.side.{s}" for s in ("sun", "moon")}
    keys |= {f"shogun.province.{p['name']}" for p in data["provinces"]}
    assert sorted(keys - set(catalog("shogun", "en"))) == []


def test_shitenno_phases_have_their_text() -> None:
    """shitenno.md §4: every phase the board can be in is described."""
    keys = {f"shitenno.phase.{p.name.lower()}" for p in Phase}
    assert sorted(keys - set(catalog("shitenno", "en"))) == []


def test_rising_sun_cards_have_their_text() -> None:
    """rising_sun.md §9, §15.5: every Season card's name and type has its text, and every
    effect key of the card data its description, whose placeholders are parameters of every
    card with that effect."""
    english = catalog("rising_sun", "en")
    cards = get_game("rising_sun").client_data()["cards"]
    keys = {f"rising_sun.card.{c['name']}" for c in cards}
    keys |= {f"rising_sun.cardtype.{c['type']}" for c in cards}
    keys |= {f"rising_sun.effect.{c['effect']}" for c in cards}
    assert sorted(keys - set(english)) == []
    for card in cards:
        used = placeholders(english[f"rising_sun.effect.{card['effect']}"])
        assert used <= set(card["params"]), (card["id"], sorted(used - set(card["params"])))
    # the English is the name the engine writes (the log's words are keyed by it)
    assert [c["name"] for c in cards if english[f"rising_sun.card.{c['name']}"] != c["name"]] == []


def test_rising_sun_terms_have_their_text() -> None:
    """rising_sun.md §1, §4: the seasons and the kinds of piece the board and the log name."""
    keys = {f"rising_sun.season.{s}" for s in RISING_SUN_SEASONS}
    keys |= {f"rising_sun.kind.{k}" for k in KIND_NAMES}
    assert sorted(keys - set(catalog("rising_sun", "en"))) == []


def test_every_bot_level_has_its_text() -> None:
    """The lobby names every bot level the server offers."""
    assert sorted({f"ui.level.{level}" for level in BOT_LEVELS} - set(catalog("ui", "en"))) == []


def test_the_lobby_offers_the_servers_bot_levels() -> None:
    """The lobby's and the host panel's list of bot levels is the server's own."""
    source = (WEB / "lobby.js").read_text()
    listed = re.search(r"export const BOT_LEVELS = \[([^\]]*)\]", source)
    assert listed is not None
    assert tuple(re.findall(r'"(\w+)"', listed.group(1))) == BOT_LEVELS
