"""The log as each language's reader sees it in the browser: no key, no placeholder, no raw code.

The engine writes messages (``sengoku.core.messages``); the page renders them with the
catalogs (``web/i18n.js``'s ``say``). ``tests/messages_check.py`` checks the catalogs from
Python; this checks what Chromium shows, for whole matches played by bots.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import Browser, expect

from sengoku.core import msg, render
from sengoku.core.messages import placeholders
from tests.messages_check import KEY_IN_TEXT, LANGUAGES
from tests.messages_check import raw_catalog as raw
from tests.server.harness import Server

from .conftest import open_page

#: what the engine's codes look like where they would leak: identifiers with underscores,
#: Python's None, and Shitenno's troop codes (Bu, Sa, Sh, So and doubles like "ShSh") and its
#: notation's "/" joints ("So/plus_one"); Shogun's card "battle/move" is a name, not a code
CODE = r"\b[a-z]+_[a-z0-9_]+\b|\bNone\b"
RAW = {
    "shogun": re.compile(CODE),
    "rising_sun": re.compile(CODE),
    "shitenno": re.compile(CODE + r"|\b(?:Bu|Sa|Sh|So)+\b|\w/\w"),
}
#: the script each language writes its log in (a line of English left in Japanese shows)
SCRIPT = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "zh": re.compile(r"[\u4e00-\u9fff]")}

MATCHES = {
    "shogun": (3, {"years": 1}),
    "shitenno": (2, {}),
    "rising_sun": (3, {}),
}


def finished_match(server: Server, game: str) -> str:
    players, options = MATCHES[game]
    made = server.create(game, players, ["random"] * players, seed=7, options=options)
    deadline = time.monotonic() + 90
    while httpx.get(f"{server.base}/api/matches/{made['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return str(made["id"])


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_every_language_renders_the_whole_log_in_words(
    server: Server, browser: Browser, game: str
) -> None:
    """shogun.md §12 / shitenno.md §4.6 / rising_sun.md §4.3: a bots' match to its end,
    watched in each language: every log line the page shows is words in that language, with
    no catalog key, no ``{`` placeholder and no engine code (such as Shitenno's "Bu, ShSh")."""
    match_id = finished_match(server, game)
    page = open_page(browser)
    page.goto(f"{server.base}/play/{match_id}")
    lines = page.locator(".log-lines li")
    expect(page.locator(".status")).to_contain_text("Game over")
    english: list[str] = []
    for lang in LANGUAGES:
        page.select_option("#lang", lang)
        expect(page.locator("html")).to_have_attribute("lang", "zh-Hans" if lang == "zh" else lang)
        page.wait_for_function(
            "n => document.querySelectorAll('.log-lines li').length >= n", arg=10
        )
        # the html's lang changes before the new catalogs arrive and the log is drawn again:
        # wait (up to 10 s) for a log that is no longer the one drawn in the language before
        before = english if lang != "en" else []
        deadline = time.monotonic() + 10
        shown = lines.all_inner_texts()
        while time.monotonic() < deadline and (
            shown == before or (lang in SCRIPT and not all(SCRIPT[lang].search(x) for x in shown))
        ):
            time.sleep(0.1)
            shown = lines.all_inner_texts()
        assert len(shown) >= 10
        for line in shown:
            assert "{" not in line and not KEY_IN_TEXT.search(line), (lang, line)
            assert not RAW[game].search(line), (lang, line)
            if lang in SCRIPT:
                assert SCRIPT[lang].search(line), (lang, line)
        if lang == "en":
            english = shown
        else:
            assert shown != english, lang
    assert page.errors == []  # type: ignore[attr-defined]


def test_plurals_read_the_same_in_the_browser_as_in_python(
    server: Server, browser: Browser
) -> None:
    """Each catalog's plurals (``{n, plural, one {…} other {…}}``) take the same form in the
    page's ``t`` (the browser's ``Intl.PluralRules``) as in the engine's ``render``, for 0, 1,
    2 and 5, in every language: "1 War Province token", "2 War Province tokens"."""
    page = open_page(browser)
    page.goto(server.base + "/")
    checked = 0
    for lang in LANGUAGES:
        for scope in ("ui", *MATCHES):
            catalog = raw(scope, lang)
            plural = {k: v for k, v in catalog.items() if ", plural," in v}
            cases = [
                (key, dict.fromkeys(placeholders(text), n))
                for key, text in plural.items()
                for n in (0, 1, 2, 5)
            ]
            shown = page.evaluate(
                """async ([lang, scope, cases]) => {
                  const i18n = await import('/web/i18n.js');
                  await i18n.useLanguage(lang, ['ui', scope]);
                  return cases.map(([key, vars]) => i18n.t(key, vars));
                }""",
                [lang, scope, cases],
            )
            wanted = [render(msg(key, **args), catalog) for key, args in cases]
            assert shown == wanted, (lang, scope)
            checked += len(cases)
    assert checked >= 4 * 2 * 20  # en and nl have plurals in every scope
    assert render(
        msg("rising_sun.log.vp_tokens", c=1, n=2, n2=1), raw("rising_sun", "en")
    ).endswith("for 1 War Province token")
    assert page.errors == []  # type: ignore[attr-defined]
