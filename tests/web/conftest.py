"""Browser tests: a real ``sengoku serve`` and Debian's Chromium driven by Playwright.

``.ci/run`` installs Chromium (``tools/install-test-deps.sh``). Each test that checks a board
state saves a screenshot under ``build/screenshots/`` (or ``$SENGOKU_SCREENSHOTS``) for people
to look at.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.server.harness import Server

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS = Path(
    os.environ.get("SENGOKU_SCREENSHOTS", Path(__file__).resolve().parents[2] / "build/screenshots")
)
# a loaded CI machine may be slow to answer; waits end as soon as the page is ready
expect.set_options(timeout=15_000)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server on a fresh SQLite database per test module."""
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'sengoku.db'}", bot_workers=1)
    yield srv
    srv.stop()
    assert "Traceback" not in srv.output(), srv.output()[-4000:]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


def open_page(browser: Browser, size: dict[str, int] | None = None, locale: str = "en-GB") -> Page:
    """A page in a fresh browser context (its own storage: another person's browser).

    Script errors the page reports are collected in ``page.errors``.
    """
    context = browser.new_context(viewport=size or DESKTOP, locale=locale)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"script error: {exc}"))
    page.errors = errors  # type: ignore[attr-defined]
    page.set_default_timeout(20_000)
    return page


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A desktop-sized page (1280x800); the test fails if the page had a script error."""
    p = open_page(browser)
    yield p
    errors = p.errors  # type: ignore[attr-defined]
    p.context.close()
    assert not errors, errors


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Page, str], Path]:
    """``shot(page, "name")`` saves a full-page screenshot named after the test."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    test = re.sub(r"\W+", "-", request.node.name).strip("-")

    def take(target: Page, name: str) -> Path:
        path = SCREENSHOTS / f"{test}--{name}.png"
        target.screenshot(path=path, full_page=True)
        return path

    return take


def click_on_map(page: Page, selector: str) -> None:
    """Click the first element ``selector`` finds where a person would: at a point where it
    is the topmost thing drawn. A province's box centre may lie on a neighbour's shape (a
    curved province round a small one), where Playwright's own click would land instead."""
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    point = target.evaluate(
        """el => {
            const box = el.getBoundingClientRect();
            for (let n = 2; n <= 32; n *= 2) {
                for (let i = 1; i < n; i++) {
                    for (let j = 1; j < n; j++) {
                        const x = box.left + box.width * i / n, y = box.top + box.height * j / n;
                        const hit = document.elementFromPoint(x, y);
                        if (hit && (hit === el || el.contains(hit))) return [x, y];
                    }
                }
            }
            return null;
        }"""
    )
    assert point is not None, f"{selector} is drawn nowhere on top"
    page.mouse.click(point[0], point[1])


def console_errors(page: Page) -> list[str]:
    """Collect the page's console errors (script errors are collected by ``open_page``)."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def check_no_overflow(page: Page) -> None:
    """Nothing on the page is wider than the window (no sideways scrolling)."""
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def welcome_or_update(number: int) -> Callable[[dict[str, Any]], bool]:
    """A WebSocket message that shows the match at update ``number`` or later."""
    return lambda m: m["type"] in ("welcome", "update") and m["number"] >= number


def on_phone(
    browser: Browser, url: str, visible: str, shot: Callable[[Page, str], Path], name: str
) -> None:
    """The page at ``url`` on a 390x844 phone: ``visible`` shows, nothing is wider than the
    screen, no script or console error; saves the screenshot ``name``."""
    phone = open_page(browser, PHONE)
    errors = console_errors(phone)
    phone.goto(url)
    expect(phone.locator(visible).first).to_be_visible()
    check_no_overflow(phone)
    shot(phone, name)
    phone.context.close()
    assert not errors and not phone.errors, errors  # type: ignore[attr-defined]
