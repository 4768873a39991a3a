"""Players in the browser: accounts, an open table filled from the lobby, a rated match played
to the end, ratings exactly as OpenSkill computes them, profiles with their replays, the
leaderboard; every new page in four languages at desktop and phone width."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from openskill.models import PlackettLuce
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import Server
from tests.web.conftest import DESKTOP, PHONE, check_no_overflow, on_phone, open_page
from tests.web.test_rising_sun_browser import Player

Shot = Callable[[Page, str], Path]
PASSWORD = "a long enough pass"
#: a key of the catalogs shown as it is: a text with no translation
RAW_KEY = re.compile(r"\bui\.[a-z_]+\.[a-z_]")


def sign_up(page: Page, server: Server, name: str, shown: str) -> None:
    """Make an account on the account page; it comes back to the lobby signed in."""
    page.goto(server.base + "/account")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-display_name", shown)
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up button[type=submit]")
    page.wait_for_url(server.base + "/")
    expect(page.locator("#nav-account")).to_have_text(shown)


def state_now(page: Page) -> str | tuple[str, int] | None:
    """Without waiting: "over", the (decision, update number) the page asks, or None."""
    found = page.evaluate(
        """() => {
          if (document.querySelector('.scores:not([hidden])')) return 'over';
          const c = document.querySelector('.rs-controls');
          return c ? `${c.dataset.decision}|${c.dataset.number}` : null;
        }"""
    )
    if found in (None, "over"):
        return found
    decision, number = str(found).split("|")
    return decision, int(number)


def play_both_to_the_end(players: list[Player], timeout: float = 600) -> None:
    """Both people play by clicking whatever their page asks, each at most once per update,
    until both pages show the final scores."""
    acted = [-1] * len(players)
    deadline = time.monotonic() + timeout
    while True:
        states = [state_now(p.page) for p in players]
        if all(s == "over" for s in states):
            return
        assert time.monotonic() < deadline, "the match did not end in time"
        moved = False
        for i, (player, found) in enumerate(zip(players, states, strict=True)):
            if isinstance(found, tuple) and found[1] > acted[i]:
                acted[i] = found[1]
                player.choose(found[0])
                moved = True
        if not moved:
            time.sleep(0.05)


def test_two_accounts_fill_a_rated_table_from_the_lobby_and_play_it_to_the_end(
    browser: Browser, server: Server, shot: Shot
) -> None:
    """Two people sign up; Ann opens a rated Rising Sun table with two open seats and a bot
    and sits at one of them; Bob takes the other from the lobby; Ann starts the match; they
    play it to the end by clicking. Both ratings move exactly as openskill's Plackett-Luce
    model computes them from the ratings before and the places; the end screen shows them;
    both profiles list the match with its replay, which steps from move 0; the leaderboard
    lists both and the bot level."""
    ann, bob = open_page(browser), open_page(browser)
    sign_up(ann, server, "ann", "Ann of Edo")
    sign_up(bob, server, "bob", "Bob")

    ann.select_option("#new-game", "rising_sun")
    ann.select_option("#new-players", "3")
    expect(ann.locator(".seat-kind")).to_have_count(3)
    ann.select_option("#seat-kind-0", "open")
    ann.select_option("#seat-kind-1", "open")
    ann.select_option("#seat-kind-2", "random")
    ann.check("#new-rated")
    ann.locator("details[data-fold=rules] summary").click()
    ann.uncheck("#opt-gifts")  # the lobby will say so: a rule that differs from the default
    ann.locator("details[data-fold=more] summary").click()
    expect(ann.locator("#new-undo")).to_be_disabled()
    ann.fill("#new-seed", "5")
    shot(ann, "new-rated-table")
    ann.click("#create-match")
    expect(ann.locator(".table-room")).to_be_visible()
    match_id = ann.url.rsplit("/", 1)[1]
    ann.locator(".table-seat[data-seat='0'] .take-seat").click()
    expect(ann.locator(".table-seat[data-seat='0']")).to_contain_text("Ann of Edo (you)")
    expect(ann.locator("#table-start")).to_be_disabled()  # seat 1 is still open

    bob.goto(server.base + "/")
    row = bob.locator(f"#tables .table-row[data-table='{match_id}']")
    expect(row).to_contain_text("rated")
    expect(row.locator(".table-seats")).to_contain_text("Ann of Edo")
    expect(row.locator(".table-options")).to_have_text("Gifts of Coins and Ronin: off")
    shot(bob, "lobby-open-table")
    on_phone(
        browser, server.base + "/", f".table-row[data-table='{match_id}']", shot, "lobby-phone"
    )
    row.locator(".take-seat").click()
    expect(bob.locator(".table-seat[data-seat='1']")).to_contain_text("Bob (you)")
    shot(bob, "table-waiting")

    expect(ann.locator(".table-seat[data-seat='1']")).to_contain_text("Bob")
    shot(ann, "table-host")
    ann.click("#table-start")
    for page in (ann, bob):
        expect(page.locator(".status")).to_be_visible(timeout=30_000)
    expect(ann.locator(".status .who")).to_contain_text("Ann of Edo")
    expect(bob.locator(".status .who")).to_contain_text("Bob")
    play_both_to_the_end([Player(ann, 1), Player(bob, 2)])

    match = server.get(f"/api/matches/{match_id}").json()
    assert match["rated"] and match["status"] == "finished"
    ranks = match["outcome"]["ranks"]
    changes = server.get(f"/api/matches/{match_id}/ratings").json()["changes"]
    assert [c["player"] for c in changes] == ["ann", "bob", "bot:random"]
    model = PlackettLuce()
    before = [model.rating(c["mu_before"], c["sigma_before"]) for c in changes]
    assert [(r.mu, r.sigma) for r in before[:2]] == [(25.0, 25 / 3)] * 2  # their first
    expected = model.rate([[r] for r in before], ranks=ranks)
    for name, [after] in zip(("ann", "bob"), expected[:2], strict=True):
        profile = server.get(f"/api/players/{name}").json()
        rating = next(r for r in profile["ratings"] if r["game"] == "rising_sun")
        assert (rating["mu"], rating["sigma"]) == (after.mu, after.sigma), name
        assert profile["matches"][0]["id"] == match_id
    for page, seat in ((ann, 0), (bob, 1)):
        cell = page.locator(f".scores tr[data-seat='{seat}'] .rating-change")
        expect(cell).to_contain_text(f"{expected[seat][0].mu:.1f} ± {expected[seat][0].sigma:.1f}")
    shot(ann, "rated-end")

    ann.click("#nav-account")
    ann.click("#my-profile")
    listed = ann.locator(f"tr[data-match='{match_id}']")
    expect(listed).to_be_visible()
    expect(ann.locator(".rating[data-game='rising_sun'] svg.rating-chart")).to_have_attribute(
        "data-points", "1"
    )
    shot(ann, "profile")
    on_phone(browser, ann.url, f"tr[data-match='{match_id}']", shot, "profile-phone")
    listed.locator("a.replay").click()
    expect(ann.locator(".replay-count")).to_have_text(re.compile(r"Move 0 of \d+"))
    bob.goto(f"{server.base}/player/bob")
    expect(bob.locator(f"tr[data-match='{match_id}'] a.replay")).to_have_attribute(
        "href", f"/replay/{match_id}"
    )

    bob.click("#nav-ratings")
    bob.get_by_role("tab", name="Rising Sun").click()
    board = bob.locator("tbody tr")
    expect(board).to_have_count(3)
    assert {r.get_attribute("data-player") for r in board.all()} == {"ann", "bob", "bot:random"}
    shot(bob, "leaderboard")
    bob.click("#nav-account")  # the account keeps the language its player chooses
    bob.select_option("#settings-language", "nl")
    bob.click("#settings button[type=submit]")
    expect(bob.locator("#nav-ratings")).to_have_text("Ranglijst")
    assert server.get("/api/players/bob").status_code == 200
    for page in (ann, bob):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_players_pages_in_every_language_fit_a_desktop_and_a_phone(
    browser: Browser, server: Server, shot: Shot
) -> None:
    """The account page (signed out and in), the lobby with an open table, the table's
    waiting room, a profile and the leaderboard, in English, Japanese, Chinese and Dutch:
    every text translated (no catalog key shows), nothing wider than a phone's screen, no
    script error. A signed-in player's account keeps the language they chose."""
    shown = {"en": "Sign in", "ja": "ログイン", "zh": "登录", "nl": "Inloggen"}
    for lang, sign_in in shown.items():
        page = open_page(browser, PHONE)
        page.context.add_init_script(f"localStorage.setItem('sengoku.lang', '{lang}')")
        page.goto(server.base + "/account")
        expect(page.locator("#nav-account")).to_have_text(sign_in)
        pages = [("account-signed-out", "#sign-up")]
        check(page, lang, shot, *pages[0])
        page.fill("#sign-up-name", f"polyglot_{lang}")
        page.fill("#sign-up-password", PASSWORD)
        page.click("#sign-up button[type=submit]")
        page.wait_for_url(server.base + "/")
        assert server.get(f"/api/players/polyglot_{lang}").status_code == 200
        page.select_option("#new-game", "shitenno")
        page.select_option("#seat-kind-1", "open")
        page.click("#create-match")
        expect(page.locator(".table-room")).to_be_visible()
        check(page, lang, shot, "table-room", ".table-room")
        table = page.url
        for name, path, ready in (
            ("lobby", "/", f".table-row[data-table='{table.rsplit('/', 1)[1]}']"),
            ("account-signed-in", "/account", "#sign-out"),
            ("profile", f"/player/polyglot_{lang}", ".profile"),
            ("ratings", "/ratings", ".ratings-page"),
        ):
            page.goto(server.base + path)
            check(page, lang, shot, name, ready)
        page.goto(table)
        page.click("#table-cancel")
        expect(page.locator("[role=alert]").first).to_be_visible()
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


def check(page: Page, lang: str, shot: Shot, name: str, ready: str) -> None:
    """The page shows ``ready``, in ``lang`` (no catalog key), fits a phone and a desktop;
    a screenshot of each."""
    expect(page.locator(ready).first).to_be_visible()
    assert page.evaluate("document.documentElement.lang").startswith(lang)
    text = page.locator("body").inner_text()
    assert not RAW_KEY.search(text), RAW_KEY.search(text)
    check_no_overflow(page)
    shot(page, f"{name}-{lang}-phone")
    page.set_viewport_size(DESKTOP)
    shot(page, f"{name}-{lang}-desktop")
    page.set_viewport_size(PHONE)
