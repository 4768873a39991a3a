"""Undo in the browser: a Shitenno placement taken back with the Undo button and with Ctrl+Z.

Seat 0 is a person, seats 1-3 ``easy`` bots. The test plays seat 0 over a WebSocket up to its
first province-control turn (shitenno.md §4.4), then opens the seat's page: a click on a
province goes straight to the payment, and Undo puts the board back as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import Client, Server
from tests.web.conftest import PHONE, check_no_overflow, console_errors, open_page

CONTROLS = ".sh-controls"
UNDO = ".undo-bar button.undo"
Shot = Callable[[Page, str], Path]


def to_control_turn(server: Server, match_id: str, token: str) -> None:
    """Play seat 0 at random (never choosing a province) until it may choose one."""
    client = Client(server.ws_base + f"/ws/matches/{match_id}", token)
    rng = random.Random(1)
    try:
        while True:
            latest = client.latest
            if latest is None or not latest["legal"]:
                client.until(lambda m: m["type"] in ("welcome", "update"))
                continue
            if any(a["name"] == "Target" for a in latest["legal"]):
                return
            choices = [a for a in latest["legal"] if a["name"] != "Target"]
            answer = client.act(rng.choice(choices)["notation"], expect=latest["number"])
            assert answer["type"] == "accepted" or answer["code"] == "stale", answer
    finally:
        client.close()


def position(page: Page) -> dict[str, Any]:
    """What the page shows of the position: the board, the choices, the update's number."""
    return {
        "board": page.inner_html(".sh-board"),
        "choices": page.locator(f"{CONTROLS} [data-notation]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.notation)"
        ),
        "number": page.locator(CONTROLS).get_attribute("data-number"),
    }


def seat_record(server: Server, match_id: str, token: str) -> dict[str, Any]:
    """The running match as the server has it for seat 0: actions, log and view."""
    response = server.get(
        f"/api/matches/{match_id}/record", headers={"Authorization": f"Bearer {token}"}
    )
    body: dict[str, Any] = response.json()
    assert body["finished"] is False
    return body


def test_a_shitenno_placement_is_taken_back(
    page: Page, browser: Browser, server: Server, shot: Shot
) -> None:
    errors = console_errors(page)
    made = server.create("shitenno", 4, ["human", "easy", "easy", "easy"], seed=0)
    seat = made["seats"][0]
    to_control_turn(server, made["id"], seat["token"])
    page.goto(seat["join_url"])
    expect(page.locator(f"{CONTROLS}[data-phase='control']")).to_be_visible()
    expect(page.locator(UNDO)).to_be_hidden()  # nothing of ours to take back yet
    shown = position(page)
    stored = seat_record(server, made["id"], seat["token"])

    # a click on a province: straight to the payment, and Undo shows
    page.locator(".sh-board .sh-prov-go").first.click()
    expect(page.locator(f"{CONTROLS}[data-phase='pay']")).to_be_visible()
    expect(page.locator(UNDO)).to_be_visible()
    expect(page.locator(UNDO)).to_have_attribute("title", "Take back your last move (Ctrl+Z)")
    assert seat_record(server, made["id"], seat["token"])["actions"] == stored["actions"] + 1
    shot(page, "undo-offered")
    phone = open_page(browser, PHONE)
    phone.goto(seat["join_url"])  # a second page of the seat: its hint comes in the welcome
    expect(phone.locator(UNDO)).to_be_visible()
    check_no_overflow(phone)
    shot(phone, "undo-offered-phone")

    page.locator(UNDO).click()
    expect(page.locator(f"{CONTROLS}[data-phase='control']")).to_be_visible()
    expect(page.locator(UNDO)).to_be_hidden()
    assert position(page) == shown  # the board and the choices are back as before
    assert seat_record(server, made["id"], seat["token"]) == stored
    expect(phone.locator(f"{CONTROLS}[data-phase='control']")).to_be_visible()
    assert position(phone)["choices"] == shown["choices"]
    shot(page, "undone")
    shot(phone, "undone-phone")

    # the same with the keyboard
    page.locator(".sh-board .sh-prov-go").nth(1).click()
    expect(page.locator(f"{CONTROLS}[data-phase='pay']")).to_be_visible()
    expect(page.locator(UNDO)).to_be_visible()  # the key works once the server has offered it
    page.keyboard.press("Control+z")
    expect(page.locator(f"{CONTROLS}[data-phase='control']")).to_be_visible()
    assert position(page) == shown

    # paying takes a face-down bonus tile: the placement stands, and Undo is not offered
    page.locator(".sh-board .sh-prov-go").first.click()
    page.locator(f"{CONTROLS} .sh-payment").first.click()
    expect(page.locator(CONTROLS)).not_to_have_attribute("data-phase", "pay")
    expect(page.locator(UNDO)).to_be_hidden()
    assert seat_record(server, made["id"], seat["token"])["actions"] >= stored["actions"] + 2
    phone.context.close()
    assert not errors and not page.errors, errors  # type: ignore[attr-defined]
