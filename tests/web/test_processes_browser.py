"""The match page behind HAProxy in front of two server processes (docs/deploy.md): it follows
``moved`` to the process that serves its match, and when that process stops it reconnects
by itself, through the proxy, to the one that takes the match over, and plays on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import PostgresCluster, Proxy, Server

from .conftest import open_page

CONTROLS = ".sh-controls"


def test_the_page_follows_moved_and_survives_its_owners_stop(
    postgres: PostgresCluster, browser: Browser, shot: Callable[[Page, str], Path]
) -> None:
    url = postgres.new_database()
    first, second = Server(url, name="s1", bot_workers=1), Server(url, name="s2", bot_workers=1)
    proxy = Proxy([first, second], unbalanced=["s1"])  # what names no process goes to s2
    page = open_page(browser)
    try:
        made = first.create("shitenno", 2, ["human", "random"], seed=4)  # s1 owns it
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"{proxy.base}/play/{made['id']}#token={made['seats'][0]['token']}")
        choices = page.locator(f"{CONTROLS} [data-notation]")
        expect(choices.first).to_be_visible()
        # s2 answered "moved" (s1 serves it), and the page connected again naming s1
        assert not sockets[0].endswith("at=s1") and sockets[-1].endswith("?at=s1"), sockets
        shot(page, "at-the-owner")
        first.stop()  # a clean stop: s2 takes the match at once
        expect(page.locator(".status")).not_to_contain_text("reconnecting", timeout=20_000)
        before = proxy.get(f"/api/matches/{made['id']}").json()["actions"]
        expect(choices.first).to_be_enabled()
        choices.first.click()
        for _ in range(100):  # the move is stored by the new owner
            if proxy.get(f"/api/matches/{made['id']}").json()["actions"] > before:
                break
            page.wait_for_timeout(100)
        assert proxy.get(f"/api/matches/{made['id']}").json()["actions"] > before
        assert not sockets[-1].endswith("at=s1")  # it forgot the lost process's name
        shot(page, "after-the-take-over")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
        proxy.stop()
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.output(), server.output()[-3000:]
