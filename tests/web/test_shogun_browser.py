"""Shogun in a real browser, through the real server: lobby, planning, bids, battles, winter.

Every test drives Debian's Chromium with Playwright and saves screenshots of the board states
it checks (``build/screenshots/``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from tests.server.harness import Server

from .conftest import PHONE, click_on_map, open_page

Shot = Callable[[Page, str], Path]
TURN = 60_000  # ms: bots of level easy answer at once; the server needs a moment


def create_from_lobby(
    page: Page, server: Server, bots: str = "easy", seed: int = 11, years: int | None = None
) -> str:
    """Start a 4-player Shogun match from the lobby (seat 1 a person, 2-4 bots), which opens
    seat 1's board at once; returns its address."""
    page.goto(server.base + "/")
    page.select_option("#new-game", "shogun")
    page.select_option("#new-players", "4")
    kinds = page.locator("select.seat-kind")
    expect(kinds).to_have_count(4)
    if years is not None:  # before the seats: each seat's change redraws the form
        expect(page.locator("#app")).not_to_have_attribute("aria-busy", "true")
        page.fill("#opt-years", str(years))
        page.locator("#opt-years").dispatch_event("change")
    for i in range(1, 4):
        kinds.nth(i).select_option(bots)
    if years is not None:
        expect(page.locator("#opt-years")).to_have_value(str(years))
    page.locator("details.options summary", has_text="Seed").click()
    page.fill("#new-seed", str(seed))
    page.click("#create-match")
    # one person against bots goes straight from the lobby to the board
    page.wait_for_url(re.compile(r"/play/[\w-]+#token="))
    expect(page.locator("svg.map")).to_be_visible()
    return page.url


def number(page: Page) -> int:
    """The number of accepted actions the page shows."""
    return int(page.locator("#app").get_attribute("data-number") or 0)


def my_turn(page: Page) -> None:
    expect(page.locator(".status.mine")).to_be_visible(timeout=TURN)


def after(page: Page, n: int) -> None:
    """Wait until the page shows a position after action ``n``."""
    page.wait_for_function(
        "n => Number(document.getElementById('app').dataset.number) > n", arg=n, timeout=TURN
    )


def plan_season(page: Page, attack_from_strongest: bool = True) -> dict[str, Any]:
    """Fill the plan table with real choices and a bid of 1, check its cost, submit it."""
    expect(page.locator("#submit-plan")).to_be_visible(timeout=TURN)
    options = lambda space: [  # noqa: E731
        (o.get_attribute("value"), o.inner_text())
        for o in page.locator(f'select.plan-select[data-space="{space}"] option').all()
    ]
    chosen: dict[int, str] = {}
    # provinces for the Nō theatre, rice, taxes, recruit 1 and both battles; blanks for the
    # rest (four chest cards), which leaves the fifth chest card for the bid
    for space in (2, 3, 4, 7, 8, 9):
        values = [v for v, _ in options(space) if v not in ("", "-1", "-2")]
        if values:
            page.select_option(f'select.plan-select[data-space="{space}"]', values[0])
            chosen[space] = values[0]
    for space in range(10):
        select = page.locator(f'select.plan-select[data-space="{space}"]')
        if select.input_value() == "":
            values = [v for v, _ in options(space)]
            select.select_option("-1" if "-1" in values else values[-1])
    bid = page.locator("select.bid-select")
    bid_values = [o.get_attribute("value") for o in bid.locator("option").all()]
    assert "1:-1" in bid_values, bid_values
    bid.select_option("1:-1")
    total = page.locator("table.planner tfoot td.total")
    expected = (1 if 2 in chosen else 0) + (1 if 7 in chosen else 0) + 1
    expect(total).to_have_text(str(expected))
    return {"chosen": chosen, "cost": expected}


def submit_plan(page: Page) -> None:
    """Send the composed plan and wait until all of its steps are accepted."""
    page.click("#submit-plan")
    expect(page.locator("#submit-plan")).to_have_count(0)
    expect(page.locator(".plan-box.sending")).to_have_count(0, timeout=TURN)
    expect(page.locator(".error:not(:empty)")).to_have_count(0)


def test_shogun_against_three_bots_through_the_first_winter(
    server: Server, page: Page, shot: Shot
) -> None:
    """shogun.md §4 and §11: from the lobby, plan three seasons (a province or a blank on each
    action, a bid, the plan's cost shown before it is sent), choose turn positions, fight a
    battle on the map, and see the first winter's report and scores."""
    create_from_lobby(page, server)
    match_id = page.url.split("/play/")[1].split("#")[0]
    expect(page.locator("svg.map path.province")).to_have_count(45)
    shot(page, "1-plan-empty")
    plan_season(page)
    shot(page, "2-plan-filled")
    submit_plan(page)
    battles = stays = 0
    for _ in range(400):
        my_turn(page)
        status = page.locator(".status").inner_text()
        if "Year 2" in status:
            break
        n = number(page)
        if page.locator("#submit-plan").count():
            plan_season(page)
            submit_plan(page)
            continue
        if page.locator("svg.map path.province.target.attack").count() and battles < 3:
            if battles == 0:
                shot(page, "3-battle-targets")
            # attack by clicking the marked province on the map
            click_on_map(page, "svg.map path.province.target.attack")
            battles += 1
        elif page.locator("#controls button.choice").count():
            buttons = page.locator("#controls button.choice")
            # the most armies, a target that stays home, or the first position
            stay = page.locator("#controls button.choice", has_text="Stay in")
            if stay.count():
                stay.first.click()
                stays += 1
            else:
                buttons.last.click()
        elif page.locator("#controls button.primary").count():
            page.locator("#controls button.primary").click()
        else:
            raise AssertionError(f"my turn, but nothing to choose: {status}")
        after(page, n)
    else:
        raise AssertionError("the first winter never came")
    assert battles >= 1, "no battle was fought"
    assert stays >= 1, "Recruit 1 / move never offered to stay"
    log = page.locator(".log-lines").inner_text()
    assert "attacks" in log
    winter = page.locator("details.winter")
    expect(winter).to_be_visible()
    expect(winter.locator("summary")).to_contain_text("Winter of year 1")
    expect(winter).to_contain_text("scoring, year 1")
    shot(page, "4-after-winter")
    # the points shown are the server's
    public = httpx.get(f"{server.base}/api/matches/{match_id}/record").json()
    shown = [int(v) for v in page.locator(".player .stat:nth-child(3) .v").all_inner_texts()]
    assert shown == public["view"]["vp"]
    assert sum(shown) > 0
    # and so is the map: each province's owner, armies, buildings and revolt markers as the
    # server's public view has them (the province's label, which screen readers read too)
    view = public["view"]
    colours = ["Red", "Blue", "Yellow", "Purple"]
    buildings = ((1, "castle"), (2, "temple"), (4, "Nō theatre"))
    labels = page.locator("svg.map path.province").evaluate_all(
        "paths => paths.map(p => p.getAttribute('aria-label'))"
    )
    assert len(labels) == 45
    for i, label in enumerate(labels):
        owner = colours[view["owner"][i]] if view["owner"][i] >= 0 else "neutral"
        armies, markers = view["armies"][i], view["markers"][i]  # in English's plural forms
        parts = [f"{owner}, {armies} {'army' if armies == 1 else 'armies'}"]
        parts += [name for bit, name in buildings if view["buildings"][i] & bit]
        parts += [f"{markers} revolt marker{'' if markers == 1 else 's'}"] if markers else []
        assert label.split(": ", 1)[1] == ", ".join(parts), (i, label)


def test_a_seat_never_sees_another_seats_plan(server: Server, browser: Browser, shot: Shot) -> None:
    """shogun.md §4.3: plans and bids are secret until revealed. Two people in two browsers:
    while both plan, and after one has sent his plan, neither page shows the other's choices."""
    made = server.create("shogun", 3, ["human", "human", "easy"], seed=21)
    links = [s["join_url"] for s in made["seats"][:2]]
    pages = [open_page(browser), open_page(browser)]
    try:
        for p, link in zip(pages, links, strict=True):
            p.goto(link)
            expect(p.locator("#submit-plan")).to_be_visible(timeout=TURN)
        red, blue = pages
        chosen = plan_season(red)["chosen"]
        names = {
            red.locator(f'select.plan-select[data-space="{space}"] option:checked').inner_text()
            for space in chosen
        }
        submit_plan(red)
        expect(red.locator(".plan-box.done")).to_be_visible()
        shot(red, "red-plan-sent")
        shot(blue, "blue-still-planning")
        # Blue's page: Red's plan is nowhere, not even in the page's data
        blue_text = blue.locator("#app").inner_text()
        assert "plan ready" in blue_text
        with connect(f"{server.ws_base}/ws/matches/{made['id']}") as ws:
            token = links[1].split("#token=")[1]
            ws.send(json.dumps({"type": "hello", "token": token}))
            welcome = json.loads(ws.recv())
        assert welcome["view"]["plans"][0] == [None] * 10
        red_secret = red.locator(".plan-box.done").inner_text()
        for name in names:
            assert name in red_secret
        blue_log = blue.locator(".log-lines").inner_text()
        for name in names:
            assert f"Red {name}" not in blue_log
    finally:
        for p in pages:
            p.context.close()


def test_phone_sized_screen_and_language(server: Server, browser: Browser, shot: Shot) -> None:
    """shogun.md §14.1: the board fits a phone (no sideways scrolling) and speaks Japanese
    (province names in kanji) once the language is switched; a reload keeps the game, the
    language and the seat, and play goes on."""
    page = open_page(browser, PHONE)
    try:
        create_from_lobby(page, server, seed=31)
        expect(page.locator("#submit-plan")).to_be_visible(timeout=TURN)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        shot(page, "phone-en")
        # "Zoom in" opens at the provinces the decision marks (here: those the seat may plan)
        page.locator('[data-key="zoom"]').click()
        expect(page.locator(".map-wrap.zoomed")).to_be_visible()
        page.wait_for_timeout(200)
        seen = page.evaluate(
            """() => {
              const wrap = document.querySelector('.map-wrap.zoomed').getBoundingClientRect();
              const boxes = [...document.querySelectorAll('.province.clickable')]
                .map(e => e.getBoundingClientRect());
              const x = (Math.min(...boxes.map(b => b.left))
                + Math.max(...boxes.map(b => b.right))) / 2;
              const visible = boxes.filter(b => b.right > wrap.left && b.left < wrap.right
                && b.bottom > 0 && b.top < innerHeight).length;
              return [x - wrap.left, wrap.width, visible, boxes.length];
            }"""
        )
        centre, width, visible, marked = seen
        assert marked and visible and width / 4 <= centre <= width * 3 / 4, seen
        shot(page, "phone-zoomed")
        page.locator('[data-key="zoom"]').click()
        # a half-made plan survives the switch of language
        theatre = page.locator('select.plan-select[data-space="2"]')
        province = theatre.locator("option").nth(1).get_attribute("value") or ""
        theatre.select_option(province)
        page.select_option("#lang", "ja")
        expect(theatre).to_have_value(province)
        expect(page.locator("#help-button")).to_have_text("ルール")
        kanji = re.compile(r"[\u4e00-\u9fff]")
        expect(page.locator("svg.map text.pname").first).to_have_text(kanji)
        shot(page, "phone-ja")
        page.reload()
        expect(page.locator("#submit-plan")).to_be_visible(timeout=TURN)
        expect(page.locator("#help-button")).to_have_text("ルール")
        # and the game goes on: the plan is sent and the season moves past planning
        plan_season(page)
        submit_plan(page)
        page.wait_for_function(
            "document.getElementById('app').dataset.phase !== 'plan'", timeout=TURN
        )
        shot(page, "phone-ja-after-reload")
    finally:
        page.context.close()


def test_keyboard_plans_from_the_map_and_opens_the_help(server: Server, page: Page) -> None:
    """shogun.md §4.3: with the keyboard alone a province on the map goes onto the selected
    action space; ? opens the rules help and Escape closes it."""
    made = server.create("shogun", 3, ["human"] * 3, seed=41)
    page.goto(made["seats"][0]["join_url"])
    expect(page.locator("#submit-plan")).to_be_visible()
    token = made["seats"][0]["token"]
    seen = httpx.get(
        f"{server.base}/api/matches/{made['id']}/record",
        headers={"Authorization": f"Bearer {token}"},
    ).json()
    mine = page.locator("svg.map path.province[tabindex]")  # the provinces Red may plan
    expect(mine).to_have_count(len(seen["view"]["hand"][0]))
    first = mine.first
    name = first.get_attribute("data-province")
    first.focus()
    page.keyboard.press("Enter")
    castle = page.locator('select.plan-select[data-space="0"] option:checked')
    expect(castle).to_have_text(str(name))
    # focus stays on the map, and the next row is selected for the next province
    assert page.evaluate("document.activeElement.dataset.province") == name
    expect(page.locator('tr.selected[data-space="1"]')).to_have_count(1)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator('select.plan-select[data-space="1"] option:checked')).not_to_have_text(
        "choose…"
    )
    page.locator("body").press("?")
    expect(page.locator("dialog.help")).to_be_visible()
    expect(page.locator("dialog.help h3").first).to_have_text("The goal")
    page.keyboard.press("Escape")
    expect(page.locator("dialog.help")).to_have_count(0)


def test_the_draft_from_the_map(server: Server, page: Page, shot: Shot) -> None:
    """shogun.md §2 (draft): with the option setup=draft the face-up cards and the stacks left
    are shown; a person drafts by clicking a province or choosing a card, until planning."""
    made = server.create(
        "shogun", 3, ["human", "easy", "easy"], seed=51, options={"setup": "draft"}
    )
    page.goto(made["seats"][0]["join_url"])
    expect(page.locator(".season h2")).to_have_text("Choosing starting provinces")
    shot(page, "draft")
    drafted = 0
    while not page.locator("#submit-plan").count():
        my_turn(page)
        if page.locator("#submit-plan").count():
            break
        n = number(page)
        clickable = page.locator("svg.map path.province.clickable")
        if clickable.count() and drafted % 2 == 0:
            clickable.first.click()
        else:
            page.locator("#controls button.choice").first.click()
        drafted += 1
        after(page, n)
    assert drafted >= 3
    expect(page.locator(".player").first).to_contain_text("plan")
    mine = page.locator("svg.map path.province[tabindex]")
    assert mine.count() >= 3  # the provinces drafted are Red's to plan
