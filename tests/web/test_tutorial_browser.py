"""Learn to play (docs/ui.md): each game's tutorial played to its end in English from the lobby,
by clicking what each step marks; a wrong choice gets a word and changes nothing; at the end
"Play your first match against easy bots" starts one. In Japanese, Chinese and Dutch every
step has its own text, and its box fits a phone's screen. Screenshots of the first, a middle
and the last step at desktop and phone width, in each language (the screen as a player sees
it, not the whole page)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from sengoku.core import get_game
from sengoku.core.tutorial import Tutorial
from tests.server.harness import Server
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS, check_no_overflow, open_page

GAMES = ("shogun", "shitenno", "rising_sun")
LOCALES = {"en": "en-GB", "ja": "ja-JP", "zh": "zh-CN", "nl": "nl-NL"}


def lesson_of(game: str) -> Tutorial:
    tutorial = get_game(game).tutorial()
    assert tutorial is not None
    return tutorial


def snap(page: Page, name: str) -> None:
    """The screen as the player sees it (a phone's sheet stays at its foot)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"tutorial--{name}.png")


def shown_steps(tutorial: Tutorial) -> set[int]:
    """The first, a middle and the last step."""
    return {0, len(tutorial.steps) // 2, len(tutorial.steps) - 1}


def make_the_move(page: Page, index: int) -> None:
    """Click what the step marks (a first step, such as an army's source or a bid's value,
    then the next) until the tutorial moves on."""
    box = page.locator(".lesson")
    for _ in range(12):
        page.wait_for_function(  # the step moved on, or a choice is marked
            "i => document.querySelector('.lesson').dataset.step !== String(i)"
            " || [...document.querySelectorAll('.match .lesson-expected')]"
            ".some(el => el.getClientRects().length)",
            arg=index,
        )
        if box.get_attribute("data-step") != str(index):
            return
        marked = page.locator(".match .lesson-expected:visible").first
        clicked = marked.element_handle()
        marked.click()
        page.wait_for_function(
            "([i, el]) => document.querySelector('.lesson').dataset.step !== String(i)"
            " || !el.isConnected || !el.classList.contains('lesson-expected')",
            arg=[index, clicked],
        )
    raise AssertionError(f"step {index} did not move on")


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_plays_to_its_end(server: Server, browser: Browser, game: str) -> None:
    """From the lobby's "Learn to play", every step in turn: its text, its anchor on the
    page, its choice marked and taken (steps that ask for no move pass with Next). The
    first step that asks for a move refuses another choice with a word on what it asks and
    stays. Back goes a step back. At the end the final scores show, and "Play your first
    match against easy bots" opens the learner's seat of a new match against easy bots."""
    tutorial = lesson_of(game)
    page = open_page(browser, DESKTOP)
    page.goto(server.base)
    page.locator(f'a.learn-link[data-game="{game}"]').click()
    expect(page).to_have_url(re.compile(f"/learn/{game}#step=1$"))
    box = page.locator(".lesson")
    tried_wrong = False
    for index, step in enumerate(tutorial.steps):
        expect(box).to_have_attribute("data-step", str(index))
        expect(box.locator(".lesson-text")).to_have_text(tutorial.texts["en"][step.id])
        expect(box).to_have_attribute("data-anchor-found", "yes")
        expect(page.locator(".lesson-anchor")).to_have_count(1)
        if index in shown_steps(tutorial):
            snap(page, f"{game}-en-desktop-{index + 1}")
        if step.do:
            wrong = page.locator("#controls [data-notation]:not(.lesson-expected):visible")
            if not tried_wrong and wrong.count():
                tried_wrong = True
                number = page.locator("#app").get_attribute("data-number")
                wrong.first.click()
                expect(box.locator(".lesson-note")).to_contain_text("this step asks for")
                expect(box).to_have_attribute("data-step", str(index))
                assert page.locator("#app").get_attribute("data-number") == number
            make_the_move(page, index)
        elif index < len(tutorial.steps) - 1:
            box.locator(".lesson-next").click()
        if index == 1:  # Back, then on again
            expect(box).to_have_attribute("data-step", "2")
            box.locator(".lesson-back").click()
            expect(box).to_have_attribute("data-step", "1")
            step_one = tutorial.steps[1]
            if step_one.do:
                make_the_move(page, 1)
            else:
                box.locator(".lesson-next").click()
    assert tried_wrong
    expect(page.locator(".scores")).to_be_visible()
    expect(page.locator(".scores .review-link")).to_have_count(0)
    page.locator(".lesson-play").click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+#token="))
    expect(page.locator(".status .who")).to_be_visible()
    assert page.locator(".players").inner_text().count("easy") == tutorial.players - 1
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("language", ["ja", "zh", "nl", "en"])
def test_every_step_has_its_text_and_fits_a_phone(
    server: Server, browser: Browser, language: str
) -> None:
    """On a 390x844 phone, each game's every step (opened by its address, #step=n): the text
    in the page's language, never the English one unless it is English; the box at the foot
    of the screen, as wide as the screen and no wider, its text shown whole without
    scrolling inside it; nothing wider than the screen. Desktop screenshots too."""
    phone = open_page(browser, PHONE, locale=LOCALES[language])
    desktop = open_page(browser, DESKTOP, locale=LOCALES[language])
    for game in GAMES:
        tutorial = lesson_of(game)
        phone.goto(f"{server.base}/learn/{game}#step=1")
        desktop_open = False  # the desktop page opens each game once, then follows the address
        box = phone.locator(".lesson")
        for index, step in enumerate(tutorial.steps):
            if index:
                phone.evaluate(f"location.hash = 'step={index + 1}'")
            expect(box).to_have_attribute("data-step", str(index))
            text = tutorial.texts[language][step.id]
            assert language == "en" or text != tutorial.texts["en"][step.id], step.id
            expect(box.locator(".lesson-text")).to_have_text(text)
            fit = box.evaluate(
                "b => { const r = b.getBoundingClientRect();"
                " return [r.left, r.right, r.bottom, r.height, b.scrollHeight - b.clientHeight,"
                " innerWidth, innerHeight]; }"
            )
            left, right, bottom, height, hidden, width, screen = fit
            assert left >= 0 and right <= width and abs(bottom - screen) <= 1, (step.id, fit)
            assert hidden <= 1 and height <= screen * 0.45, (step.id, fit)
            check_no_overflow(phone)
            if index in shown_steps(tutorial):
                snap(phone, f"{game}-{language}-phone-{index + 1}")
                if language != "en":
                    if desktop_open:
                        desktop.evaluate(f"location.hash = 'step={index + 1}'")
                    else:
                        desktop.goto(f"{server.base}/learn/{game}#step={index + 1}")
                        desktop_open = True
                    expect(desktop.locator(".lesson")).to_have_attribute("data-step", str(index))
                    snap(desktop, f"{game}-{language}-desktop-{index + 1}")
    for page in (phone, desktop):
        errors = page.errors  # type: ignore[attr-defined]
        page.context.close()
        assert not errors, errors
