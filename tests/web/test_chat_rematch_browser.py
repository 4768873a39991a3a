"""Chat between two people's browsers, and a rematch from the end screen (docs/ui.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import Server, play_out_at_random
from tests.web.conftest import PHONE, check_no_overflow, open_page

Shot = Callable[[Page, str], Path]
LINES = ".chat-lines li:not(.chat-none)"


def _two_people(server: Server, **extra: Any) -> dict[str, Any]:
    response = server.post(
        "/api/matches",
        json={
            "game": "shitenno",
            "players": 2,
            "seats": [{"kind": "human", "name": "Aki"}, {"kind": "human", "name": "Bo"}],
            **extra,
        },
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def _say(page: Page, text: str) -> None:
    page.fill(".chat-input", text)
    page.press(".chat-input", "Enter")


def _frames(page: Page) -> list[str]:
    """Every WebSocket frame the page receives from now on."""
    frames: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))),
    )
    return frames


def test_two_people_chat_from_their_browsers(browser: Browser, server: Server, shot: Shot) -> None:
    made = _two_people(server)
    aki, bo = open_page(browser), open_page(browser, PHONE)
    watcher = open_page(browser)
    aki.goto(made["seats"][0]["join_url"])
    bo.goto(made["seats"][1]["join_url"])
    watcher.goto(made["spectate_url"])
    for page in (aki, bo, watcher):
        expect(page.locator(".chat .chat-none")).to_have_text("No messages yet.")
    # the host did not let spectators write: they read along
    expect(watcher.locator(".chat-form")).to_be_hidden()
    expect(watcher.locator(".chat-read-only")).to_be_visible()
    expect(aki.locator(".chat-read-only")).to_be_hidden()

    markup = "<b>hi</b> <img src=x onerror=alert(1)> Bo, good luck"
    _say(aki, markup)
    for page in (aki, bo, watcher):
        line = page.locator(LINES).last
        expect(line.locator(".chat-text")).to_have_text(markup)  # as text, not as markup
        expect(line.locator(".chat-who")).to_have_text("Red · Aki")
        assert page.locator(".chat-lines b, .chat-lines img").count() == 0
    expect(aki.locator(".chat-input")).to_have_value("")
    # new messages are marked for the others until they turn to the chat
    expect(aki.locator(LINES).last).not_to_have_class(re.compile("fresh"))
    expect(bo.locator(LINES).last).to_have_class(re.compile("fresh"))
    expect(bo.locator(".chat-new")).to_have_text("1 new")
    # on a phone the chat is below the board: a line under the status leads there
    jump = bo.locator("button.chat-jump")
    expect(jump).to_have_text("Chat · 1 new")
    expect(aki.locator("button.chat-jump")).to_be_hidden()  # beside the board already
    check_no_overflow(bo)
    shot(bo, "phone-new-message")
    jump.click()
    expect(bo.locator(".chat-input")).to_be_focused()
    expect(jump).to_be_hidden()
    expect(bo.locator(".chat-new")).to_be_hidden()
    expect(bo.locator(LINES).last).not_to_have_class(re.compile("fresh"))
    _say(bo, "Thanks, you too!")
    expect(aki.locator(LINES)).to_have_count(2)
    expect(aki.locator(LINES).last.locator(".chat-who")).to_have_text("Blue · Bo")
    expect(aki.locator(LINES).last.locator(".chat-text")).to_have_text("Thanks, you too!")
    expect(aki.locator(".chat-new")).to_have_text("1 new")
    shot(aki, "desktop-chat")
    shot(watcher, "desktop-spectator-reads")

    # the limits: the server's error shows in the chat, in the reader's language
    for n in range(4):
        _say(bo, f"spam {n}")
        expect(bo.locator(LINES)).to_have_count(3 + n)
    _say(bo, "one too many")
    expect(bo.locator(".chat-error")).to_have_text(
        "Too many messages: at most 5 every 10 seconds. Wait a moment."
    )
    expect(bo.locator(".chat-input")).to_have_value("one too many")  # kept to send later
    shot(bo, "phone-chat-rate")
    check_no_overflow(bo)

    # a reload brings the recent messages back (they come with the welcome)
    aki.reload()
    expect(aki.locator(LINES)).to_have_count(6)
    expect(aki.locator(LINES).first.locator(".chat-text")).to_have_text(markup)
    expect(aki.locator(".chat-new")).to_be_hidden()
    aki.select_option("#lang", "ja")
    expect(aki.locator(".chat h2")).to_have_text("チャット")
    expect(aki.locator(LINES)).to_have_count(6)
    for page in (aki, bo, watcher):
        errors = page.errors  # type: ignore[attr-defined]
        page.context.close()
        assert not errors, errors


def test_spectators_write_when_the_host_allows_it_from_the_lobby(
    browser: Browser, server: Server, shot: Shot
) -> None:
    page = open_page(browser)
    page.goto(server.base + "/")
    page.select_option("#new-game", "shitenno")
    page.select_option("#new-players", "2")
    kinds = page.locator("select.seat-kind")
    expect(kinds).to_have_count(2)
    kinds.nth(1).select_option("human")  # two people: the lobby shows the links (and watch)
    page.locator("details.options summary").last.click()
    page.check("#new-spectator-chat")
    shot(page, "lobby-spectator-chat")
    page.click("#create-match")
    spectate = page.locator("#created a.spectate")
    expect(spectate).to_be_visible()
    match_id = (spectate.get_attribute("href") or "").rsplit("/", 1)[1]
    assert server.get(f"/api/matches/{match_id}").json()["spectator_chat"] is True
    page.goto(f"{server.base}/play/{match_id}")
    page.wait_for_selector("[data-phase]", state="attached")  # welcomed: the socket is open
    _say(page, "hello from the stands")
    line = page.locator(LINES).last
    expect(line.locator(".chat-who")).to_have_text("Spectator")
    expect(line.locator(".chat-text")).to_have_text("hello from the stands")
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, errors


def test_a_rematch_from_the_end_screen(browser: Browser, server: Server, shot: Shot) -> None:
    made = _two_people(server, options={"end_after_odd_year": True})
    match_id, old = made["id"], [s["token"] for s in made["seats"]]
    red, blue = server.client(match_id, old[0]), server.client(match_id, old[1])
    play_out_at_random(red, blue)  # the whole match over the WebSocket: a few seconds

    aki = open_page(browser)  # Aki's browser created the match: it holds the host key
    aki.goto(server.base + "/")
    aki.evaluate(
        "([id, key]) => localStorage.setItem('sengoku.host', JSON.stringify({[id]: key}))",
        [match_id, made["host_token"]],
    )
    bo, watcher = open_page(browser, PHONE), open_page(browser)
    bo_frames = _frames(bo)
    aki.goto(made["seats"][0]["join_url"])
    bo.goto(made["seats"][1]["join_url"])
    watcher.goto(made["spectate_url"])
    for page in (aki, bo, watcher):
        expect(page.locator(".scores")).to_be_visible()
        expect(page.locator(".status")).to_contain_text("Game over")
    expect(aki.locator("button.rematch-ask")).to_have_text("Rematch")
    expect(bo.locator("button.rematch-ask")).to_be_visible()
    expect(watcher.locator("button.rematch-ask")).to_have_count(0)  # spectators only follow
    expect(watcher.locator(".rematch")).to_be_hidden()
    shot(aki, "desktop-end-screen")
    shot(bo, "phone-end-screen")

    aki.click("button.rematch-ask")
    links = {}
    for name, page in (("aki", aki), ("bo", bo), ("watcher", watcher)):
        # under the status line, where a phone's reader sees it without scrolling
        expect(page.locator(".rematch")).to_contain_text("A rematch is ready.")
        go = page.locator(".rematch a.rematch-go")
        expect(go).to_have_text("Go to the rematch")
        links[name] = go.get_attribute("href") or ""
    new_id = server.get(f"/api/matches/{match_id}").json()["rematch"]
    assert new_id and new_id != match_id
    aki_key = re.fullmatch(rf"/play/{new_id}#token=(\S+)", links["aki"])
    bo_key = re.fullmatch(rf"/play/{new_id}#token=(\S+)", links["bo"])
    assert aki_key and bo_key and aki_key.group(1) != bo_key.group(1)
    assert links["watcher"] == f"/play/{new_id}"
    # the old match's clients of the harness were told too
    for client in (red, blue):
        told = client.until(lambda m: m["type"] == "rematch")
        assert told == {"type": "rematch", "match": new_id}
    check_no_overflow(bo)
    shot(bo, "phone-rematch-ready")
    shot(aki, "desktop-rematch-ready")
    # nothing Bo's browser holds or received carries Aki's new key
    seen = json.dumps(bo_frames) + bo.content() + bo.evaluate("JSON.stringify(localStorage)")
    assert aki_key.group(1) not in seen and bo_key.group(1) in seen

    bo.click("a.rematch-go")
    expect(bo.locator(".status .who")).to_contain_text("Blue · Bo")
    expect(bo.locator(".scores")).to_be_hidden()
    expect(bo.locator(".rematch")).to_be_hidden()
    aki.click("a.rematch-go")
    expect(aki.locator(".status .who")).to_contain_text("Red · Aki")
    hosts = json.loads(aki.evaluate("localStorage.getItem('sengoku.host')"))
    assert new_id in hosts  # the host of the old match hosts the rematch
    expect(aki.locator("details.host")).to_be_visible()
    watcher.click("a.rematch-go")
    expect(watcher.locator(".status .who")).to_have_text("You are watching")
    shot(bo, "phone-rematch-started")
    for page in (aki, bo, watcher):
        errors = page.errors  # type: ignore[attr-defined]
        page.context.close()
        assert not errors, errors
    red.close()
    blue.close()
