"""Rising Sun in the browser, until its own board lands: the lobby offers it with its options
in the reader's language, and a match is played through the generic renderer's buttons."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import Server
from tests.web.conftest import PHONE, open_page

Shot = Callable[[Page, str], Path]


def test_a_rising_sun_match_from_the_lobby_to_the_first_mandate(
    server: Server, page: Page, browser: Browser, shot: Shot
) -> None:
    """rising_sun.md §4.1, §4.2: the lobby offers Rising Sun for 3 to 5 players with every
    option labelled; a person and two bots start a match, the person's page lists the Tea
    Ceremony's choices as buttons, and answering them reaches the Political Phase."""
    page.goto(server.base + "/")
    page.select_option("#new-game", "rising_sun")
    page.select_option("#new-players", "3")
    expect(page.locator(".seat-kind")).to_have_count(3)
    for seat in (1, 2):
        page.locator(".seat-kind").nth(seat).select_option("easy")
    page.locator("details.options summary").first.click()
    expect(page.locator("label[for=opt-season_set]")).to_have_text("Season card set")
    expect(page.locator("label[for=opt-zero_bid_wins]")).to_have_text("A bid of 0 can win")
    page.select_option("#opt-clans", "fixed")  # seat 1 plays Koi, who opens the Tea Ceremony
    shot(page, "lobby")
    page.locator("details.options summary").last.click()
    page.fill("#new-seed", "3")
    page.click("#create-match")
    link = page.locator('a.join[data-seat="0"]')
    href = link.get_attribute("href") or ""
    assert re.search(r"/play/[\w-]+#token=", href), href
    link.click()
    choices = page.locator("button.choice")
    expect(choices.first).to_be_visible()
    assert "no alliance" in choices.all_inner_texts()
    expect(page.locator(".status")).to_contain_text("Your turn — tea · ")
    shot(page, "tea")
    for _ in range(30):  # no alliance for us, whatever the bots offer
        if '"phase": "political"' in page.locator("pre.raw-view").inner_text():
            break
        texts = choices.all_inner_texts()
        answer = next((t for t in texts if t == "no alliance" or t.startswith("refuse")), None)
        if answer is not None:
            page.get_by_role("button", name=answer, exact=True).click()
        page.wait_for_timeout(300)
    expect(page.locator("pre.raw-view")).to_contain_text('"phase": "political"')
    phone = open_page(browser, PHONE)
    phone.goto(href)
    expect(phone.locator("pre.raw-view")).to_be_visible()
    shot(phone, "phone")
    phone.context.close()
    page.select_option("#lang", "ja")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("button", name="ルール")).to_be_visible()  # the rules help
