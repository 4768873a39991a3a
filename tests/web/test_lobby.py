"""The lobby: matches listed, resumed, watched, replayed and downloaded as records."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import sengoku
from tests.server.harness import Person, Server
from tests.web.conftest import DESKTOP, PHONE, check_no_overflow, open_page

Shot = Callable[[Page, str], Path]


def wait_finished(server: Server, match_id: str) -> None:
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.base}/api/matches/{match_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)


def test_a_finished_match_is_watched_replayed_and_downloaded(
    server: Server, page: Page, shot: Shot
) -> None:
    """shogun.md §12: a bots-only one-year match from the lobby ends; the lobby lists it as
    finished; its page shows the final scores the server computed; the replay steps through it
    from the empty board to the end; the downloaded record replays to the same outcome."""
    page.goto(server.base + "/")
    page.select_option("#new-game", "shogun")
    page.select_option("#new-players", "3")
    kinds = page.locator("select.seat-kind")
    expect(kinds).to_have_count(3)
    # the years first: each seat's change redraws the form, which may swallow typing
    page.fill("#opt-years", "1")
    page.locator("#opt-years").dispatch_event("change")
    for i in range(3):
        kinds.nth(i).select_option("random")
    expect(page.locator("#opt-years")).to_have_value("1")
    page.click("#create-match")
    spectate = page.locator("#created a.spectate")
    expect(spectate).to_be_visible()
    match_id = (spectate.get_attribute("href") or "").rsplit("/", 1)[1]
    wait_finished(server, match_id)
    outcome = httpx.get(f"{server.base}/api/matches/{match_id}").json()["outcome"]

    page.get_by_role("tab", name="Finished").click()
    row = page.locator("tr", has=page.locator(f'a[href="/replay/{match_id}"]'))
    expect(row).to_contain_text("finished")
    shot(page, "lobby-finished")

    with page.expect_download() as download:
        row.locator("a.record").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert sengoku.Match.from_record(record).outcome().to_json() == outcome

    row.locator("a.watch").click()
    scores = page.locator(".scores")
    expect(scores).to_be_visible()
    shown = {
        cells[1]: int(cells[2])
        for cells in (
            r.split("\t")
            for r in scores.locator("table").first.locator("tbody tr").all_inner_texts()
        )
    }
    assert sorted(shown.values()) == sorted(outcome["scores"])
    expect(page.locator(".status")).to_contain_text("Game over")
    shot(page, "watch-finished")

    page.goto(f"{server.base}/replay/{match_id}")
    count = page.locator(".replay-count")
    expect(count).to_have_text(re.compile(r"Move 0 of \d+"))
    total = int((count.inner_text()).rsplit(" ", 1)[1])
    assert total == len(record["actions"])
    page.get_by_role("button", name="One move forward").click()
    expect(count).to_have_text(f"Move 1 of {total}")
    _, notation = record["actions"][0]
    expect(page.locator(".replay-action")).to_contain_text(notation)
    page.keyboard.press("ArrowRight")
    expect(count).to_have_text(f"Move 2 of {total}")
    page.get_by_role("button", name="Last move").click()
    expect(count).to_have_text(f"Move {total} of {total}")
    expect(page.locator(".scores")).to_be_visible()
    shot(page, "replay-end")
    # in Japanese the replay names the move in Japanese (the engine's notation on hover)
    _, last_notation = record["actions"][-1]
    action = page.locator(".replay-action")
    expect(action).to_have_attribute("title", last_notation)
    page.select_option("#lang", "ja")
    expect(action).not_to_contain_text(last_notation)
    expect(action).to_contain_text(re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"))
    expect(count).to_have_text(re.compile(f"{total}"))


def test_the_lobby_resumes_the_seats_this_browser_holds(server: Server, page: Page) -> None:
    """A seat opened from this browser is listed with a Resume link that opens it again."""
    made = server.create("shogun", 3, ["human"] * 3)
    page.goto(made["seats"][1]["join_url"])
    expect(page.locator("#submit-plan")).to_be_visible()
    page.goto(server.base + "/")
    resume = page.locator(f'a.resume[href^="/play/{made["id"]}#token="]')
    expect(resume).to_have_text("Resume (seat 2)")
    resume.click()
    expect(page.locator(".status .who")).to_contain_text("Blue")


def test_a_link_whose_key_no_longer_works_says_why(server: Server, page: Page) -> None:
    """A seat link with a wrong (or replaced) key is refused with the server's reason, and the
    page stops trying instead of waiting forever."""
    made = server.create("shogun", 3, ["human"] * 3)
    page.goto(f"{server.base}/play/{made['id']}#token=not-a-key")
    status = page.locator(".status")
    expect(status).to_contain_text("closed")
    expect(status).to_contain_text("token")
    expect(page.locator("#submit-plan")).to_have_count(0)


def test_the_host_hands_a_seat_to_a_bot_and_to_someone_new(
    server: Server, page: Page, shot: Shot
) -> None:
    """The browser that created a match may hand an absent player's seat to a bot, and give
    it to someone new with a fresh link; the old link stops working."""
    page.goto(server.base + "/")
    page.select_option("#new-game", "shogun")
    page.select_option("#new-players", "3")
    kinds = page.locator("select.seat-kind")
    kinds.nth(1).select_option("human")
    kinds.nth(2).select_option("easy")
    page.click("#create-match")
    old_blue = page.locator('a.join[data-seat="1"]').get_attribute("href") or ""
    page.locator('a.join[data-seat="0"]').click()
    expect(page.locator("#submit-plan")).to_be_visible()
    blue = page.locator(".player").nth(1)
    expect(blue).to_contain_text("planning (0 of 11)")
    host = page.locator("details.host")
    host.locator("summary").click()
    host.locator('select.host-kind[data-seat="1"]').select_option("easy")
    host.locator("li").nth(1).locator("button.host-apply").click()
    expect(blue).to_contain_text("Bot (easy)")
    expect(blue).to_contain_text("plan ready")  # the bot planned Blue's season
    host.locator('select.host-kind[data-seat="1"]').select_option("human")
    host.locator("li").nth(1).locator("button.host-apply").click()
    host.locator("li").nth(1).locator("button.host-new").click()
    link = host.locator("input.host-link")
    expect(link).to_have_value(re.compile(r"/play/[\w-]+#token=\S+"))
    assert link.input_value() != old_blue
    shot(page, "host-seats")
    other = page.context.new_page()
    other.goto(old_blue)
    expect(other.locator(".status")).to_contain_text("closed")
    other.goto(link.input_value())
    expect(other.locator(".status .who")).to_contain_text("Blue")
    other.close()


def both_widths(page: Page, shot: Shot, name: str) -> None:
    """Screenshots at desktop and at phone width; nothing scrolls sideways on the phone."""
    shot(page, name)
    page.set_viewport_size(PHONE)
    check_no_overflow(page)
    shot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


def test_the_host_abandons_a_match_from_the_lobby_and_its_page(
    server: Server, page: Page, shot: Shot
) -> None:
    """The browser that created a match lists it with Abandon among the running ones (after
    asking); the match leaves the running list, is listed as abandoned among all, and its page
    says it takes no more moves. Another match is abandoned from its page's host panel.
    Nobody else gets the button."""
    made = []
    for _ in range(2):
        page.goto(server.base + "/")
        page.select_option("#new-game", "shitenno")
        page.select_option("#new-players", "3")
        kinds = page.locator("select.seat-kind")
        expect(kinds).to_have_count(3)  # the form redrawn for the game and its players
        for seat in (1, 2):
            kinds.nth(seat).select_option("easy")
        page.click("#create-match")  # one person and bots: straight to the board
        try:
            page.wait_for_url(re.compile(r"/play/[\w-]+#token="))
        except PlaywrightTimeoutError:
            said = page.locator(".new-match .error").text_content()
            raise AssertionError(f"no board after Create; the form says {said!r}") from None
        made.append(page.url.split("/play/", 1)[1].split("#", 1)[0])
    first, second = made
    page.goto(server.base + "/")
    row = page.locator("tr", has=page.locator(f'a.watch[href="/play/{first}"]'))
    expect(row.locator("button.abandon")).to_have_text("Abandon")
    both_widths(page, shot, "lobby-abandon")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    row.locator("button.abandon").click()
    expect(page.locator(f'a.watch[href="/play/{first}"]')).to_have_count(0)
    assert asked == ["Abandon this match for good? It ends without a winner."]
    page.get_by_role("tab", name="All").click()
    row = page.locator("tr", has=page.locator(f'a[href="/play/{first}"]'))
    expect(row.locator("td").nth(2)).to_have_text("abandoned")
    expect(row.locator("button.abandon")).to_have_count(0)
    page.goto(f"{server.base}/play/{first}")
    expect(page.locator(".status")).to_contain_text("This match was abandoned")

    page.goto(f"{server.base}/play/{second}")
    host = page.locator("details.host")
    host.locator("summary").click()
    both_widths(page, shot, "host-abandon")
    page.once("dialog", lambda dialog: dialog.accept())
    host.locator("button.host-abandon").click()
    expect(page.locator(".status")).to_contain_text("This match was abandoned")
    expect(host).to_be_hidden()
    both_widths(page, shot, "abandoned")
    assert httpx.get(f"{server.base}/api/matches/{second}").json()["status"] == "abandoned"

    third = server.create("shitenno", 3, ["human"] * 3)["id"]  # not this browser's
    page.goto(server.base + "/")
    expect(page.locator(f'a.watch[href="/play/{third}"]')).to_be_visible()
    expect(page.locator("button.abandon")).to_have_count(0)


def test_a_seat_name_typed_while_the_lobby_redraws_is_kept(server: Server, page: Page) -> None:
    """A name typed into a seat's field right after choosing a game, while the lobby still
    waits for the network to redraw (held here until the name is typed), stays in the field
    of the new form, the caret where it was, and goes into the match."""
    page.goto(server.base + "/")
    expect(page.locator("#new-game")).to_be_visible()
    held: list[Route] = []
    page.route("**/api/matches?status=*", lambda route: held.append(route))
    page.select_option("#new-game", "rising_sun")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the redraw never asked for the matches"
    page.locator(".seat-name").first.fill("Aiko")  # the form on screen is still the old one
    for route in held:
        route.continue_()
    page.unroute("**/api/matches?status=*")
    expect(page.locator("#new-game")).to_have_value("rising_sun")
    expect(page.locator(".seat-row .chip").first).to_have_text("Player 1")  # the new form
    expect(page.locator(".seat-name").first).to_have_value("Aiko")
    expect(page.locator(".seat-name").first).to_be_focused()


def test_a_rule_option_typed_while_the_lobby_redraws_is_kept(server: Server, page: Page) -> None:
    """A number typed into a rule option right after choosing the player count, while the
    lobby still waits for the network to redraw (held here until it is typed), stays in the
    new form's field and goes into the match; the lobby says it is busy (aria-busy) until the
    redraw stands."""
    page.goto(server.base + "/")
    expect(page.locator("#opt-years")).to_be_visible()
    held: list[Route] = []
    page.route("**/api/matches?status=*", lambda route: held.append(route))
    page.select_option("#new-players", "3")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the redraw never asked for the matches"
    expect(page.locator("#app")).to_have_attribute("aria-busy", "true")
    page.fill("#opt-years", "2")  # the form on screen is still the old one
    for route in held:
        route.continue_()
    page.unroute("**/api/matches?status=*")
    expect(page.locator("#app")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("select.seat-kind")).to_have_count(3)  # the new form
    expect(page.locator("#opt-years")).to_have_value("2")
    expect(page.locator("#opt-years")).to_be_focused()
    for i in (1, 2):
        page.locator("select.seat-kind").nth(i).select_option("easy")
    page.locator("select.seat-kind").nth(0).select_option("easy")  # leaves the field
    expect(page.locator("#opt-years")).to_have_value("2")
    with page.expect_response("**/api/matches") as answer:
        page.click("#create-match")
    made = answer.value.json()
    assert server.get(f"/api/matches/{made['id']}").json()["options"]["years"] == 2


def test_a_clan_income_typed_while_the_lobby_redraws_is_kept(server: Server, page: Page) -> None:
    """rising_sun.md §15.3: a clan's income typed into the rule options' editor while the
    lobby waits for the network to redraw stays in the new form's field, which keeps the
    focus, and goes into the match as the text the engine reads."""
    page.goto(server.base + "/")
    page.select_option("#new-game", "rising_sun")
    expect(page.locator("#app")).not_to_have_attribute("aria-busy", "true")
    page.locator("details[data-fold=rules] summary").click()
    lotus = "#opt-clan_incomes input[data-key=Lotus]"
    expect(page.locator(lotus)).to_be_visible()
    held: list[Route] = []
    page.route("**/api/matches?status=*", lambda route: held.append(route))
    page.select_option("#new-players", "3")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the redraw never asked for the matches"
    page.fill(lotus, "8")  # the form on screen is still the old one
    for route in held:
        route.continue_()
    page.unroute("**/api/matches?status=*")
    expect(page.locator("#app")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("select.seat-kind")).to_have_count(3)  # the new form
    expect(page.locator(lotus)).to_have_value("8")
    expect(page.locator(lotus)).to_be_focused()
    for seat in (1, 2):
        page.locator("select.seat-kind").nth(seat).select_option("easy")
    page.click("#create-match")
    page.wait_for_url(re.compile(r"/play/[\w-]+#token="))
    match_id = re.search(r"/play/([\w-]+)#", page.url).group(1)  # type: ignore[union-attr]
    assert "Lotus: 8" in server.get(f"/api/matches/{match_id}").json()["options"]["clan_incomes"]


def test_a_number_field_out_of_its_range_is_named_and_nothing_is_made(
    server: Server, page: Page
) -> None:
    """A rule option's number outside its range, or a seed that is no whole number, is
    refused in the page before anything is sent: a message names the field and its range,
    the field is marked (aria-invalid) and has the focus, its folded section opened; mended,
    the match is made."""
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    page.goto(server.base + "/")
    expect(page.locator("#opt-years")).to_be_visible()
    expect(page.locator("#app")).not_to_have_attribute("aria-busy", "true")
    for i in (1, 2, 3):
        page.locator("select.seat-kind").nth(i).select_option("easy")
    page.locator("select.seat-kind").nth(0).select_option("easy")
    expect(page.locator("#app")).not_to_have_attribute("aria-busy", "true")
    page.fill("#opt-years", "7")
    page.click("#create-match")
    error = page.locator(".new-match .error")
    expect(error).to_have_text("Years: a whole number from 1 to 3, please.")
    expect(page.locator("#opt-years")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#opt-years")).to_be_focused()
    page.fill("#opt-years", "3")
    page.locator("details.options summary", has_text="Seed").click()
    page.fill("#new-seed", "1.5")
    page.click("#create-match")
    expect(error).to_have_text("Seed: a whole number, 0 or more, please.")
    expect(page.locator("#new-seed")).to_be_focused()
    expect(page.locator("#opt-years")).not_to_have_attribute("aria-invalid", "true")
    assert not [url for url in posted if url.endswith("/api/matches")]
    page.fill("#new-seed", "5")
    with page.expect_response("**/api/matches") as answer:
        page.click("#create-match")
    made = answer.value.json()
    match = server.get(f"/api/matches/{made['id']}").json()
    assert match["options"]["years"] == 3
    # a rule option in the folded section: the fold opens on the field
    page.goto(server.base + "/")
    page.select_option("#new-game", "shitenno")
    expect(page.locator("#app")).not_to_have_attribute("aria-busy", "true")
    rules = page.locator("details[data-fold=rules]")
    rules.locator("summary").click()
    page.fill("#opt-kamons_3_players", "0")
    rules.locator("summary").click()
    expect(page.locator("#opt-kamons_3_players")).to_be_hidden()
    page.click("#create-match")
    expect(error).to_contain_text("a whole number from 1 to 10, please.")
    expect(page.locator("#opt-kamons_3_players")).to_be_focused()


def test_rule_options_speak_the_readers_language(server: Server, browser: Browser) -> None:
    """Every game's rule options in the new-match form, in Japanese: a label and a help in
    Japanese, and nowhere the rules reference's English jargon (sections, certainties) in a
    tooltip or text: those are for `sengoku games --details` and the docs."""
    page = open_page(browser, locale="ja-JP")
    page.goto(server.base + "/")
    for game in ("shogun", "shitenno", "rising_sun"):
        page.select_option("#new-game", game)
        expect(page.locator("#new-game")).to_have_value(game)
        options = page.locator('.new-match .option:has([id^="opt-"])')
        assert options.count() > 3
        expect(page.locator(".new-match [title]")).to_have_count(0)
        text = page.locator(".new-match").text_content() or ""
        assert "§" not in text and "certainty" not in text, game
        helps = options.locator("small").all_text_contents()  # folded ones too
        assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", h) for h in helps), helps
    page.context.close()


def test_rising_suns_clan_and_deck_options_are_edited_in_the_readers_words(
    server: Server, browser: Browser, shot: Shot
) -> None:
    """rising_sun.md §2 (clans in play), §15.3 (homes and incomes), §15.6 (the Mandate deck):
    the text options made of the game's names are edited as those names in the reader's
    language, never as English text: the clans to play as boxes to tick, each clan's home as
    a choice of provinces, each income and Mandate count as a number. What is set goes into
    the match as the text the engine reads, and an open table lists it in the reader's words."""
    words = json.loads(
        (Path(sengoku.__file__).parent / "web/i18n/rising_sun.ja.json").read_text("utf-8")
    )
    page = open_page(browser, locale="ja-JP")
    page.goto(server.base + "/")
    page.select_option("#new-game", "rising_sun")
    page.select_option("#new-players", "3")
    page.locator("details.options summary").first.click()
    clans = page.locator("#opt-clan_list input[type=checkbox]")
    expect(clans).to_have_count(5)
    assert page.locator("#opt-clan_list").inner_text().split() == [
        words[f"rising_sun.clan.{c}"] for c in ("Koi", "Lotus", "Turtle", "Dragonfly", "Bonsai")
    ]
    for field in ("clan_list", "clan_homes", "clan_incomes", "mandate_deck"):
        text = page.locator(f"#opt-{field}").inner_text()
        assert not re.search(r"Koi|Lotus|Bonsai|Edo|Kyushu|Recruit|Betray", text), (field, text)
    page.locator("#opt-clan_list label", has_text=words["rising_sun.clan.Bonsai"]).click()
    page.select_option("#opt-clan_homes select[data-key=Koi]", "Kyoto")
    expect(page.locator("#opt-clan_homes select[data-key=Koi]")).to_contain_text(
        words["rising_sun.province.Kyoto"]
    )
    page.fill("#opt-clan_incomes input[data-key=Lotus]", "8")
    page.fill("#opt-mandate_deck input[data-key=Betray]", "3")
    page.locator("#opt-mandate_deck input[data-key=Betray]").blur()
    shot(page, "rising-sun-options-ja")
    for seat in (1, 2):
        page.locator(".seat-kind").nth(seat).select_option("easy")
    page.click("#create-match")
    page.wait_for_url(re.compile(r"/play/[\w-]+#token="))
    match_id = re.search(r"/play/([\w-]+)#", page.url).group(1)  # type: ignore[union-attr]
    options = server.get(f"/api/matches/{match_id}").json()["options"]
    assert options["clan_list"] == "Koi, Lotus, Turtle, Dragonfly"
    assert options["clan_homes"].startswith("Koi: Kyoto, Lotus: Nagato")
    assert "Lotus: 8" in options["clan_incomes"]
    assert options["mandate_deck"].endswith("Betray: 3")

    host = Person(server)
    host.sign_up("Haruki")
    seats = [{"kind": "human", "mine": True}, {"kind": "open"}, {"kind": "open"}]
    made = host.post(
        "/api/matches",
        json={
            "game": "rising_sun",
            "players": 3,
            "seats": seats,
            "options": {"clan_list": "Koi, Turtle, Bonsai"},
        },
    )
    assert made.status_code == 201, made.text
    page.goto(server.base + "/")
    listed = page.locator(f".table-row[data-table='{made.json()['id']}'] .table-options")
    ja = ", ".join(words[f"rising_sun.clan.{c}"] for c in ("Koi", "Turtle", "Bonsai"))
    expect(listed).to_contain_text(ja)
    assert "Bonsai" not in listed.inner_text()
    host.close()
    page.context.close()
