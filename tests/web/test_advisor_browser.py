"""The advisor in the browser: a seat asks for a hint and sees three options with their chances
(and everyone reads that it asked); a finished match's replay shows its review: a chart of
each player's chance to win, the turning points, a summary. Desktop and phone width."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import ROOMY_ACCOUNTS, Server, play_to_end
from tests.web.conftest import PHONE, check_no_overflow, console_errors, on_phone, open_page

Shot = Callable[[Page, str], Path]
#: A short Shitenno match to review (6 Kamons per general, not 10): a review judges every
#: decision, so its cost follows the match's length.
SHORT = {"kamons_3_players": 6}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose reviews are quick (a tiny search budget)."""
    flags = ("--messages-per-second", "200", *ROOMY_ACCOUNTS, "--review-iterations", "6")
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'sengoku.db'}", 2, flags)
    yield srv
    srv.stop()
    assert "Traceback" not in srv.output(), srv.output()[-4000:]


def seat_page(page: Page, server: Server, match_id: str, token: str) -> None:
    page.goto(f"{server.base}/play/{match_id}#token={token}")
    expect(page.locator(".status.mine")).to_be_visible()


def test_a_hint_shows_three_options_with_their_chances(
    server: Server, page: Page, browser: Browser, shot: Shot
) -> None:
    """Shitenno, seat 0 a person against three bots: on its turn the Hint button asks the
    advisor; three options come, best first, each with its chance to win; the chat and the
    log say that the seat asked, to everyone (a spectator's page too)."""
    made = server.create("shitenno", 4, ["human", "easy", "easy", "easy"], seed=12)
    errors = console_errors(page)
    seat_page(page, server, made["id"], made["seats"][0]["token"])
    ask = page.locator(".hint-box .hint-ask")
    expect(ask).to_be_visible()
    watcher = open_page(browser)
    watcher.goto(f"{server.base}/play/{made['id']}")
    expect(watcher.locator(".status")).to_contain_text("Red")
    expect(watcher.locator(".hint-box")).to_be_hidden()  # a spectator has no hints
    ask.click()
    options = page.locator(".hint-options li")
    expect(options).to_have_count(3)
    legal = page.locator("#controls [data-notation]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.notation)"
    )
    for n in range(3):
        expect(options.nth(n).locator(".hint-win")).to_contain_text("% to win")
        notation = options.nth(n).get_attribute("data-notation")
        assert notation in legal or not legal, (notation, legal)
    expect(options.first).to_have_class("hint-option best")
    expect(page.locator(".chat-lines li.chat-note")).to_contain_text("asked the advisor for a hint")
    expect(page.locator(".log-lines")).to_contain_text("asked the advisor for a hint")
    expect(watcher.locator(".chat-lines li.chat-note")).to_contain_text("asked the advisor")
    check_no_overflow(page)
    shot(page, "desktop")
    watcher.context.close()
    phone = open_page(browser, PHONE)
    seat_page(phone, server, made["id"], made["seats"][0]["token"])
    phone.locator(".hint-box .hint-ask").click()
    expect(phone.locator(".hint-options li")).to_have_count(3)
    phone.locator(".hint-box").scroll_into_view_if_needed()
    check_no_overflow(phone)
    shot(phone, "phone")
    phone.context.close()
    assert not errors and not phone.errors, errors  # type: ignore[attr-defined]


def finished_and_reviewed(server: Server) -> str:
    """A Shitenno match a person played to the end at random, once its review is done."""
    made = server.create("shitenno", 3, ["human", "easy", "random"], seed=21, options=SHORT)
    client = server.client(made["id"], made["seats"][0]["token"])
    rng = random.Random(4)
    try:
        play_to_end(client, lambda legal: rng.choice(legal)["notation"])
    finally:
        client.close()
    deadline = time.monotonic() + 120
    while server.get(f"/api/matches/{made['id']}/review").json()["status"] != "done":
        assert time.monotonic() < deadline, "no review came"
        time.sleep(0.3)
    return str(made["id"])


def test_a_finished_match_shows_its_review(
    server: Server, page: Page, browser: Browser, shot: Shot
) -> None:
    """The replay page of a finished match shows, per player, the chart of its chance to win
    and its turning points with what was played and what the search preferred; "Show"
    takes the replay to just after that move."""
    match_id = finished_and_reviewed(server)
    review = server.get(f"/api/matches/{match_id}/review").json()["review"]
    errors = console_errors(page)
    page.goto(f"{server.base}/replay/{match_id}#review")
    panel = page.locator("section.review")
    expect(panel.locator(".review-chart")).to_have_count(3)
    for seat in review["seats"]:
        card = panel.locator(f".review-seat[data-seat='{seat['seat']}']")
        expect(card.locator(".review-points > li")).to_have_count(len(seat["turning_points"]))
        expect(card.locator(".review-summary")).to_contain_text(
            f"of {seat['summary']['decisions']} decisions"
        )
        points = card.locator(".review-chart").get_attribute("data-points")
        assert points == str(len(seat["chart"]))
    first = review["seats"][0]["turning_points"][0]
    card = panel.locator(".review-seat[data-seat='0']")
    expect(card.locator(".review-points > li").first).to_contain_text(
        f"Move {first['number'] + 1}:"
    )
    expect(card.locator(".review-points > li").first).to_contain_text("Played:")
    card.locator(".review-show").first.click()
    expect(page.locator(".replay-count")).to_contain_text(f"Move {first['number'] + 1} of ")
    expect(page.locator(".replay-action")).not_to_be_empty()
    check_no_overflow(page)
    panel.scroll_into_view_if_needed()
    shot(page, "desktop")
    assert not errors
    on_phone(browser, f"{server.base}/replay/{match_id}#review", ".review-chart", shot, "phone")


def test_a_review_is_asked_for_where_none_was_made(server: Server, page: Page) -> None:
    """A match of bots alone is not reviewed unasked: its replay offers the review, and the
    button asks for it; the review then appears."""
    made = server.create("shitenno", 3, ["random", "random", "random"], seed=2, options=SHORT)
    deadline = time.monotonic() + 120
    while server.get(f"/api/matches/{made['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    page.goto(f"{server.base}/replay/{made['id']}#review")
    ask = page.locator(".review-ask")
    expect(ask).to_be_visible()
    ask.click()
    expect(page.locator(".review-chart")).to_have_count(3, timeout=60_000)
