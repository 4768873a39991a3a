"""The match page's board pieces (issue 19, point 5) in a real browser through the real
server: Shogun's battle panel and attack arrows, the log that follows play, "since your last
move", bots thinking, the turn clock, turn notices, the Shogun end screen, and the layout at
1280x800 and on a phone.

The screenshots of each piece (desktop and phone) go to ``build/screenshots/``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import sengoku
from sengoku.core import message_from_json, render
from tests.server.harness import Server

from .conftest import PHONE, check_no_overflow, click_on_map, open_page
from .test_shogun_browser import TURN, after, create_from_lobby, number, submit_plan

Shot = Callable[[Page, str], Path]
COLOURS = ["Red", "Blue", "Yellow", "Purple"]

PANEL = """() => [...document.querySelectorAll('.battle-panel li.battle')].map(li => ({
  ...li.dataset,
  title: li.querySelector('.battle-title').textContent,
  result_text: li.querySelector('summary .result').textContent,
}))"""

LAST_LINE = """() => {
  const ol = document.querySelector('.log-lines');
  const li = ol && ol.lastElementChild;
  if (!li) return null;
  const r = li.getBoundingClientRect(), box = ol.getBoundingClientRect();
  return { inLog: r.top >= box.top - 1 && r.bottom <= box.bottom + 1,
           inWindow: r.top >= 0 && r.bottom <= innerHeight, text: li.textContent };
}"""


def plan(page: Page) -> None:
    """A real plan in the table: provinces for the Nō theatre, rice, taxes, recruit 1 and
    both battles where the cards allow, blanks (or empties) elsewhere, the first bid offered
    (shogun.md §4.3); then sent."""
    expect(page.locator("#submit-plan")).to_be_visible(timeout=TURN)
    for space in range(10):
        select = page.locator(f'select.plan-select[data-space="{space}"]')
        if select.is_disabled():
            continue
        values = [o.get_attribute("value") for o in select.locator("option").all()]
        cards = [v for v in values if v not in ("", "-1", "-2")]
        if space in (2, 3, 4, 7, 8, 9) and cards:
            select.select_option(cards[0])
        else:
            select.select_option("-1" if "-1" in values else "-2" if "-2" in values else cards[0])
    bid = page.locator("select.bid-select")
    bids = [o.get_attribute("value") for o in bid.locator("option").all()]
    bid.select_option("1:-1" if "1:-1" in bids else bids[1])
    submit_plan(page)


def last_line_visible(page: Page) -> None:
    """The log's newest line is shown: scrolled into the log's view, and the log is in the
    window without scrolling the page (once the page has drawn the latest update)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"() => {{ const s = ({LAST_LINE})(); return s && s.inLog && s.inWindow; }}",
            timeout=15_000,  # a busy machine draws late
        )
    seen = page.evaluate(LAST_LINE)
    assert seen is not None and seen["inLog"] and seen["inWindow"], seen


def public(server: Server, match_id: str) -> dict[str, Any]:
    """The public log and view as the server has them now (``GET /record``)."""
    return dict(httpx.get(f"{server.base}/api/matches/{match_id}/record").json())


def fights(lines: list[str], year: int) -> list[str]:
    """The public log's fights of ``year``: attacks and revolts (shogun.md §9.1)."""
    starts = [i for i, line in enumerate(lines) if re.match(rf"year {year}\b", line)]
    ends = [i for i, line in enumerate(lines) if re.match(rf"year {year + 1}\b", line)]
    part = lines[(starts[0] if starts and year > 1 else 0) : (ends[0] if ends else len(lines))]
    return [line for line in part if " attacks " in line or "revolt in " in line]


RESULTS = [
    (re.compile(r"^(\w+) takes (\S+) with (\d+)$"), "taken"),
    (re.compile(r"^(\S+) stays neutral$"), "neutral"),
    (re.compile(r"^(\w+) holds (\S+) with (\d+)$"), "held"),
    (re.compile(r"^only peasants beat the attack: a tie, (\S+) is devastated$"), "peasant_tie"),
    (re.compile(r"^a tie, (\S+) is devastated$"), "tie"),
    (re.compile(r"^the peasants win, (\S+) is devastated$"), "devastated"),
    (re.compile(r"^(\w+) crushes it and keeps (\d+)$"), "crushed"),
]


def agrees(entry: dict[str, str], line: str) -> None:
    """A fight in the panel tells what the server's log line says: where, who, the cubes
    that came out of the tower for each party, and the result (shogun.md §9.2-9.3, §10)."""
    head, tower, result = line.split("; ")[:3]
    if " attacks " in head:
        attacker, rest = head.split(" attacks ", 1)
        province = rest.split(" from ")[0]
        assert entry["kind"] == "attack" and entry["title"].startswith(attacker), (entry, line)
    else:
        province = re.search(r"revolt in \w+'s (\S+):", head).group(1)  # type: ignore[union-attr]
        assert entry["kind"] in ("revolt", "hunger"), (entry, line)
        assert (entry["kind"] == "hunger") == head.startswith("hunger"), (entry, line)
    assert entry["province"] == province, (entry, line)
    out = [int(n) for n in entry["out"].split(",")]
    assert tower.startswith("tower: "), line
    for part in tower[len("tower: ") :].split(", "):
        name, count = part.rsplit(" ", 1)
        index = len(out) - 1 if name == "peasants" else COLOURS.index(name)
        assert out[index] == int(count), (entry, line)
    for pattern, kind in RESULTS:
        found = pattern.match(result)
        if found:
            assert entry["result"] == kind, (entry, line)
            if kind in ("taken", "held", "crushed"):
                assert entry["survivors"] == found.groups()[-1], (entry, line)
                assert entry["survivors"] in entry["result_text"], (entry, line)
            break
    else:
        raise AssertionError(f"no result in {line}")
    assert province in entry["result_text"] or entry["result"] == "crushed", (entry, line)


def check_panel(page: Page, server: Server, match_id: str) -> list[dict[str, str]]:
    """The battle panel holds the year's fights, exactly as the server's public log (and
    view) has them; returns its entries."""
    for _ in range(20):  # the server's answer and the page show the same position
        body = public(server, match_id)
        actions = body["record"]["actions"] if body["finished"] else body["actions"]
        if (len(actions) if isinstance(actions, list) else actions) == number(page):
            break
        page.wait_for_timeout(200)
    entries = sorted(page.evaluate(PANEL), key=lambda e: int(e["index"]))
    if body["finished"]:
        match = sengoku.Match.from_record(body["record"])
        lines, view = match.log(), match.view(None)
    else:
        lines, view = _english(body["log"]), body["view"]
    assert len(entries) == len(view["battles"])
    if entries:
        year = int(entries[0]["year"])
        logged = fights(lines, year)
        assert len(logged) == len(entries), (logged, entries)
        for entry, line in zip(entries, logged, strict=True):
            agrees(entry, line)
    return entries


def _english(log: list[Any]) -> list[str]:
    """The log lines in the engine's English: plain lines as they are, messages (their wire
    form, docs/protocol.md) rendered from the game's catalog."""
    from sengoku.games.shogun.rules import Shogun

    catalog = {**Shogun.catalog, "ui.sep.comma": ", ", "ui.sep.semicolon": "; "}
    return [render(message_from_json(line), catalog) for line in log]


def test_a_whole_shogun_match_shows_every_battle_and_follows_the_log(
    server: Server, page: Page, browser: Browser, shot: Shot
) -> None:
    """shogun.md §9-§11: a whole match (two years) from the lobby, which takes a solo player
    straight to the board, against three random bots: at each of the person's turns the
    battle panel holds every fight of the year so far as the server's log tells it (who,
    where, the cubes out of the tower, the result), so that none is missed between two
    moves; attacks are drawn on the map; the log's newest line is in view after every move
    unless the reader scrolled up; the end screen shows the rank and each winter's breakdown
    as the engine scored it."""
    url = create_from_lobby(page, server, bots="random", seed=12, years=2)
    match_id = url.split("/play/")[1].split("#")[0]
    expect(page.locator("#created")).to_have_count(0)
    seen: dict[tuple[int, int], dict[str, str]] = {}
    shots: set[str] = set()
    scrolled_up = False
    for _ in range(400):
        page.wait_for_selector(".status.mine, .status.over", timeout=TURN)
        last_line_visible(page)
        for entry in check_panel(page, server, match_id):
            seen[int(entry["year"]), int(entry["index"])] = entry
        if page.locator(".status.over").count():
            break
        if page.locator(".battle-panel li.battle").count() and "panel" not in shots:
            shots.add("panel")
            panel = page.locator(".battle-panel")
            if panel.get_attribute("open") is None:
                panel.locator("> summary").click()
            expect(panel.locator("li.battle").first.locator(".battle-body")).to_be_visible()
            expect(page.locator("svg.map g.attack-arrow").first).to_be_attached()
            shot(page, "battle-panel")
            phone = open_page(browser, PHONE)
            phone.goto(url)
            expect(phone.locator(".battle-panel")).to_be_visible()
            if phone.locator(".battle-panel").get_attribute("open") is None:
                phone.locator(".battle-panel > summary").click()
            expect(
                phone.locator(".battle-panel li.battle").first.locator(".battle-body")
            ).to_be_visible()  # the newest, open
            check_no_overflow(phone)
            shot(phone, "battle-panel-phone")
            phone.context.close()
        if page.locator("details.since:not([hidden])").count() and "since" not in shots:
            shots.add("since")
            page.locator("details.since summary").click()
            expect(page.locator(".since-lines li").last).to_be_visible()
            shot(page, "since-your-last-move")
            page.locator("details.since summary").click()
        n = number(page)
        if page.locator("#submit-plan").count():
            if not scrolled_up and n > 30:
                # the reader scrolls the log up: new lines do not pull it down again
                scrolled_up = True
                page.locator(".log-lines").evaluate("ol => { ol.scrollTop = 0; }")
                page.wait_for_timeout(100)
                plan(page)
                top = page.locator(".log-lines").evaluate("ol => ol.scrollTop")
                assert top == 0
                page.locator(".log-lines").evaluate("ol => { ol.scrollTop = ol.scrollHeight; }")
                page.wait_for_timeout(100)
                continue
            plan(page)
            continue
        attack = page.locator("svg.map path.province.target.attack")
        if attack.count():
            click_on_map(page, "svg.map path.province.target.attack")
        elif page.locator('#controls [data-key^="armies-"]').count():
            expect(page.locator("svg.map g.attack-arrow.pending")).to_have_count(1)
            if "march" not in shots:
                shots.add("march")
                shot(page, "march-arrow")
            page.locator("#controls button.choice").last.click()
        elif page.locator("#controls button.choice").count():
            page.locator("#controls button.choice").last.click()
        else:
            page.locator("#controls button.primary").click()
        after(page, n)
        last_line_visible(page)
    else:
        raise AssertionError("the match never ended")
    for year in (1, 2):  # every fight of each year was seen, in order
        indexes = sorted(i for y, i in seen if y == year)
        assert indexes and indexes == list(range(len(indexes))), (year, indexes)
    assert {"panel", "march"} <= shots, shots
    # the end: your rank, each winter's breakdown as the engine scored it
    body = public(server, match_id)
    outcome, record = body["record"]["outcome"], body["record"]
    final = sengoku.Match.from_record(record).view(0)
    rank = outcome["ranks"][0]
    place = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[rank]
    expect(page.locator(".your-rank")).to_contain_text(f"You finished {place}")
    assert [w["year"] for w in final["winters"]] == [1, 2]
    for winter in final["winters"]:
        table = page.locator(f'table.winter-score[data-year="{winter["year"]}"]')
        expect(table.locator("tbody tr")).to_have_count(4)
        for seat in range(4):
            cells = table.locator(f'tbody tr[data-seat="{seat}"] td').all_inner_texts()
            assert [int(x) for x in cells[1:]] == [
                winter["provinces"][seat],
                winter["buildings"][seat],
                winter["majorities"][seat],
                winter["points"][seat],
            ]
    for seat in range(4):
        assert sum(w["points"][seat] for w in final["winters"]) == outcome["scores"][seat]
    expect(page.locator(".scores")).to_be_in_viewport()
    last_line_visible(page)
    shot(page, "end-screen")
    phone = open_page(browser, PHONE)
    phone.goto(url)
    expect(phone.locator("table.winter-score").last).to_be_visible()
    check_no_overflow(phone)
    shot(phone, "end-screen-phone")
    phone.context.close()


FAKES = """
window.__hidden = false;
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
window.__notices = [];
window.__tones = 0;
window.Notification = class {
  constructor(title, options) { window.__notices.push([title, options.body]); }
};
window.Notification.permission = "granted";
window.Notification.requestPermission = async () => "granted";
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createOscillator() {
    return { frequency: {}, connect: g => g, start: () => { window.__tones++; }, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: d => d };
  }
};
"""


def test_bots_thinking_the_turn_clock_and_a_turn_notice(
    server: Server, browser: Browser, shot: Shot
) -> None:
    """While a bot decides, the status line says so; with a turn clock the person sees its
    countdown (from the server's deadline); with the bell on, a hidden tab gets a sound and a
    notice when the person's turn comes, and a visible one does not."""
    made = server.create(
        "shogun", 3, ["human", "hard", "random"], seed=23, turn_clock=600, options={"years": 1}
    )
    page = open_page(browser)
    page.add_init_script(FAKES)
    try:
        page.goto(made["seats"][0]["join_url"])
        expect(page.locator("#submit-plan")).to_be_visible(timeout=TURN)
        clock = page.locator(".status .clock")
        expect(clock).to_have_text(re.compile(r"^(9|10):\d\d left$"))
        first = clock.inner_text()
        expect(clock).not_to_have_text(first, timeout=3000)  # it counts down
        shot(page, "turn-clock")
        bell = page.locator(".status button.notify")
        expect(bell).to_have_attribute("aria-pressed", "false")
        bell.click()
        expect(page.locator(".status button.notify")).to_have_attribute("aria-pressed", "true")
        # your turn in a visible tab: no notice
        assert page.evaluate("window.__notices.length") == 0
        page.locator('[data-key="plan-fill"]').click()
        page.click("#submit-plan")
        expect(page.locator(".status")).to_contain_text("Blue (bot) is thinking…", timeout=TURN)
        shot(page, "bot-thinking")
        phone = open_page(browser, PHONE)
        phone.goto(made["seats"][0]["join_url"])
        expect(phone.locator(".status")).to_contain_text("(bot) is thinking", timeout=TURN)
        check_no_overflow(phone)
        shot(phone, "bot-thinking-phone")
        phone.context.close()
        page.evaluate("window.__hidden = true")
        expect(page.locator(".status.mine")).to_be_visible(timeout=TURN)
        page.wait_for_function("window.__notices.length > 0", timeout=TURN)
        title, body = page.evaluate("window.__notices[0]")
        assert title == "Your turn in Shogun" and "Year 1" in body
        assert page.evaluate("window.__tones") == 2  # the two notes of the chime
        assert page.evaluate("localStorage.getItem('sengoku.notify')") == "1"
    finally:
        page.context.close()


def test_the_log_and_the_names_fit_a_laptop_screen(server: Server, page: Page) -> None:
    """At 1280x800 the log is in the window without scrolling the page, beside the plan,
    and the map's province names are readable (about 11 px)."""
    made = server.create("shogun", 4, ["human", "random", "random", "random"], seed=3)
    page.goto(made["seats"][0]["join_url"])
    expect(page.locator("#submit-plan")).to_be_visible(timeout=TURN)
    last_line_visible(page)
    sizes = page.evaluate(
        """() => { const m = document.querySelector('svg.map').getScreenCTM().a;
        return [...document.querySelectorAll('svg.map text.pname')].map(t =>
          parseFloat(getComputedStyle(t).fontSize) * m); }"""
    )
    assert len(sizes) == 45 and min(sizes) >= 10.5, min(sizes)


def test_every_fight_result_bonus_and_place_has_its_text() -> None:
    """The words the board builds from the engine's battle records (docs/shogun.md: kinds,
    results, bonus cubes) and the places of the end screen exist in every language."""
    import json

    web = Path(__file__).resolve().parents[2] / "src/sengoku/web/i18n"
    keys = {f"shogun.battles.{k}" for k in ("attack", "attack_neutral", "revolt", "hunger")}
    keys |= {
        f"shogun.battles.result.{r}"
        for r in ("taken", "held", "neutral", "tie", "peasant_tie", "crushed", "devastated")
    }
    keys |= {f"shogun.battles.bonus.{b}" for b in ("attack_card", "defence_card", "castle")}
    keys |= {f"shogun.final.{c}" for c in ("player", "provinces", "buildings", "regions", "points")}
    places = {f"ui.ordinal.{n}" for n in range(1, 6)}
    for lang in ("en", "ja", "zh", "nl"):
        shogun = json.loads((web / f"shogun.{lang}.json").read_text(encoding="utf-8"))
        ui = json.loads((web / f"ui.{lang}.json").read_text(encoding="utf-8"))
        assert sorted(keys - set(shogun)) == [] and sorted(places - set(ui)) == [], lang
