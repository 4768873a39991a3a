"""Rising Sun's log lines and action descriptions are messages (docs/protocol.md, "Messages"):
catalog keys with typed arguments, rendered in every language from the same keys, so no
English and no engine code reaches a reader of another language, and no code reaches anyone.

Each check plays seeded random games to the end and looks at every log entry each seat and a
spectator may read, and at the description of every action played.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import sengoku
from sengoku.core import Items, Match, Message, Rng, Term, render
from sengoku.core.messages import keys_used, placeholders, seats_named, walk
from sengoku.games.catalog import catalog
from sengoku.games.rising_sun.rules import RisingSun

I18N = Path(sengoku.__file__).parent / "web" / "i18n"
LANGUAGES = ("en", "ja", "zh", "nl")
#: what an engine code looks like where a person should read words: an id with underscores
#: ("shell_of_the_eternal"), a dotted id or catalog key ("core.summer.path_of_the_serpent"),
#: a constant ("MONSTER_BASE"), Python's reprs (None, True, brackets, key=value), a negative
#: number (-1: nobody), a placeholder left in, or a seat, province, card... by its number
RAW_CODE = re.compile(
    r"\w_\w|\w\.\w|\b[A-Z]{2,}_|\b(?:None|True|False)\b|[\[\]{}<]|\w=|(?<![\w/])-\d"
    r"|\b(?:seat|clan|province|kami|card|mandate|piece|figure) \d"
)
#: the terms that stand for a seat (its clan; its player before the clans are given)
SEAT_TERMS = ("rising_sun.clan.", "rising_sun.colour.")
#: the names the log spells with their macrons, as the board does; notation spells them plain
MACRONS = str.maketrans({"ō": "o", "Ō": "O", "ū": "u"})


@cache
def raw(lang: str) -> dict[str, str]:
    """The ``ui`` and ``rising_sun`` catalog files of ``lang`` as they are, without English
    under them: a key a translation lacks is missing here."""
    merged: dict[str, str] = {}
    for scope in ("ui", "rising_sun"):
        merged.update(json.loads((I18N / f"{scope}.{lang}.json").read_text(encoding="utf-8")))
    return merged


def played(players: int, seed: int, options: dict[str, Any]) -> tuple[Match, list[Any]]:
    """A seeded random game to the end, and the actions played."""
    m = sengoku.new_match("rising_sun", players, seed=seed, options=options)
    rng = Rng(seed)
    actions = []
    while m.to_act():
        seat = m.to_act()[0]
        action = rng.choice(m.legal_actions(seat))
        actions.append(action)
        m.act(seat, action)
    return m, actions


def entries(m: Match) -> Iterator[tuple[Message | str, int | None]]:
    """Every log entry each seat and a spectator may read (each once), with a reader."""
    seen: set[int] = set()
    for seat in [None, *range(m.players)]:
        for entry in m.log_entries(seat):
            if id(entry) not in seen:
                seen.add(id(entry))
                yield entry, seat


def check_message(value: Message | str) -> None:
    """The checks every message passes: a message, only words and numbers inside, every key it
    uses in each language's own file, each template with exactly the placeholders its
    arguments fill, and renders with no key, no placeholder and (in English) no code."""
    assert isinstance(value, Message), value
    for part in walk(value):
        assert isinstance(part, Message | Term | Items) or type(part) is int, (part, value)
    for lang in LANGUAGES:
        words = raw(lang)
        missing = keys_used(value) - set(words)
        assert not missing, f"{lang} lacks {sorted(missing)}"
        for part in walk(value):
            if isinstance(part, Message):
                template = words[part.key]
                assert placeholders(template) == set(part.args), (lang, part)
        text = render(value, catalog("rising_sun", lang))
        assert "{" not in text and "}" not in text, (lang, text)
        assert "rising_sun." not in text and "ui." not in text, (lang, text)
        if lang == "en":
            assert not RAW_CODE.search(text), text


GAMES = [
    (players, seed, options)
    for players in RisingSun.player_counts
    for seed, options in enumerate([{}, *RisingSun.option_sets][players - 3 :: 2])
]


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_every_log_line_is_a_message_in_every_language(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """rising_sun.md §4: every line of a whole game (set-up, the Seasons, Winter), public or
    private, is a message that renders in English, Japanese, Chinese and Dutch, naming its
    clans by terms that name their seats; English reads as ``Match.log``."""
    m, _ = played(players, 100 + seed, options)
    for entry, _seat in entries(m):
        check_message(entry)
        assert isinstance(entry, Message)
        for part in walk(entry):
            if isinstance(part, Term) and part.key.startswith(
                ("rising_sun.clan.", "rising_sun.colour.")
            ):
                assert part.seat is not None, (part, entry)
    english = catalog("rising_sun", "en")
    assert m.log(0) == [render(e, english) for e in m.log_entries(0)]


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_every_action_is_described_by_a_message(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """rising_sun.md §6, §8: a replay names each action played by a message in every language;
    its English reads as the action's notation (where the names keep their macrons)."""
    m, actions = played(players, 200 + seed, options)
    english = catalog("rising_sun", "en")
    for action in {str(a): a for a in actions}.values():
        message = m.game.action_message(action)
        check_message(message)
        assert render(message, english).translate(MACRONS) == str(action)


def test_every_choice_and_offered_action_is_described() -> None:
    """rising_sun.md §6, §8: every action offered along a game, taken or not (each Choice's
    words, the Vassal's price), has its description."""
    m = sengoku.new_match("rising_sun", 4, seed=7, options={"season_set": "horseman"})
    rng = Rng(7)
    english = catalog("rising_sun", "en")
    seen: set[str] = set()
    while m.to_act():
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        for action in legal:
            if str(action) not in seen:
                seen.add(str(action))
                message = m.game.action_message(action)
                assert isinstance(message, Message)
                assert render(message, english).translate(MACRONS) == str(action)
        m.act(seat, rng.choice(legal))
    assert len(seen) > 200


def test_secret_lines_name_no_more_than_their_reader_may_know() -> None:
    """rising_sun.md §6.1, §8.3: the tiles a holder keeps and returns and each secret bid are
    private lines of their clan; a spectator's log is the public lines only."""
    m, _ = played(3, 11, {})
    public = m.log_entries(None)
    keys = {e.key for e in public if isinstance(e, Message)}
    assert not keys & {"rising_sun.log.keeps", "rising_sun.log.keeps_only", "rising_sun.log.bids"}
    bids = [e for e in m.log_entries(0) if isinstance(e, Message) and e.key.endswith(".bids")]
    assert bids and all(seats_named(e) == {0} for e in bids)


def test_the_log_renders_in_each_language() -> None:
    """rising_sun.md §4.2: one line in four languages, from the same message."""
    m = sengoku.new_match("rising_sun", 3, seed=2, options={"clans": "fixed"})
    line = next(
        e for e in m.log_entries(None) if isinstance(e, Message) and e.key.endswith(".income")
    )
    assert [render(line, catalog("rising_sun", lang)) for lang in LANGUAGES] == [
        "income: Koi 5, Lotus 7, Turtle 6",
        "収入：鯉 5、蓮 7、亀 6",  # noqa: RUF001 (Japanese punctuation)
        "收入：鲤 5、莲 7、龟 6",  # noqa: RUF001 (Chinese punctuation)
        "inkomen: Koi 5, Lotus 7, Schildpad 6",
    ]


def test_the_choices_templates_use_the_letters_the_buttons_have_words_for() -> None:
    """A legal action reaches the browser as notation only, so its button reads it through the
    ``rising_sun.act.*`` templates (web/logtext.js); rising_sun.js has words for the letters
    c, p, k, m, d, a, f (n: a number), and a template with another letter would match anything.
    """
    letters = {
        name[0]
        for key, text in raw("en").items()
        if key.startswith("rising_sun.act.")
        for name in placeholders(text)
    }
    assert letters <= set("cpkmdafn")
