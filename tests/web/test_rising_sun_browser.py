"""Rising Sun in the browser: whole games played by clicking the table's choices.

Every choice is a real button carrying its action's notation in ``data-notation``; the bid
composer stands for every ``bid`` of the step asked (``data-covers``) and sends the whole
split; the controls carry the update's number in ``data-number``, which the tests wait on
instead of sleeping. A second WebSocket connection of the same seat (``Client``) gives the
server's view and legal actions to compare the page with.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket, expect

from sengoku.games.rising_sun.data import load_data
from tests.server.harness import Client, Server
from tests.web.conftest import (
    PHONE,
    check_no_overflow,
    console_errors,
    on_phone,
    open_page,
    welcome_or_update,
)

CONTROLS = ".rs-controls"
OVER = ".scores:not([hidden])"
SEED = 5  # 4 players: the person plays Lotus, and meets the bots in Battle
Shot = Callable[[Page, str], Path]
GIFT = re.compile(r"^give 1 (coin|ronin) to ")
CLANS = load_data().clans
PROVINCES = load_data().province_names


def notations(page: Page) -> list[str]:
    """The notations the choices panel offers: one per button, and each bid the composer
    stands for."""
    buttons = page.locator(f"{CONTROLS} [data-notation]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.notation)"
    )
    covered = page.locator(f"{CONTROLS} [data-covers]").evaluate_all(
        "nodes => nodes.flatMap(n => JSON.parse(n.dataset.covers))"
    )
    return [str(n) for n in [*buttons, *covered]]


class Player:
    """Plays one seat through its page: varied choices, all by clicking, never a gift."""

    def __init__(self, page: Page, seed: int = 0) -> None:
        self.page = page
        self.rng = random.Random(seed)
        self.decisions: list[str] = []

    def state(self) -> tuple[str, int] | None:
        """(decision, number) of the choices shown now, or None once the game is over."""
        found = self.page.wait_for_function(
            """() => {
              if (document.querySelector('.scores:not([hidden])')) return 'over';
              const c = document.querySelector('.rs-controls');
              return c ? `${c.dataset.decision}|${c.dataset.number}` : null;
            }""",
            timeout=60_000,
        ).json_value()
        if found == "over":
            return None
        decision, number = str(found).split("|")
        return decision, int(number)

    def choose(self, decision: str) -> None:
        """Click one choice: a split with some Coins on each Advantage when bidding, else a
        random button that is no gift."""
        self.decisions.append(decision)
        page = self.page
        if decision == "bid":
            plus = page.locator(f"{CONTROLS} .rs-bid-set button:has-text('+')")
            for _ in range(self.rng.randrange(4)):
                enabled = [i for i in range(plus.count()) if plus.nth(i).is_enabled()]
                if enabled:
                    plus.nth(self.rng.choice(enabled)).click()
            battle = page.locator(f"{CONTROLS} .rs-bid").get_attribute("data-battle")
            page.click("#rs-send-bids")
            page.wait_for_function(  # the four steps are sent one by one
                "key => !document.querySelector(`.rs-bid[data-battle='${key}']`)", arg=battle
            )
            return
        buttons = page.locator(f"{CONTROLS} button.rs-act")
        texts = buttons.evaluate_all("nodes => nodes.map(n => n.dataset.notation)")
        choices = [i for i, n in enumerate(texts) if not GIFT.match(n)] or list(range(len(texts)))
        buttons.nth(self.rng.choice(choices)).click()

    def wait_past(self, number: int) -> None:
        """Wait until the page shows a later update than ``number`` (or the end)."""
        self.page.wait_for_function(
            "n => !document.querySelector('.rs-controls') || "
            "Number(document.querySelector('.rs-controls').dataset.number) > n",
            arg=number,
            timeout=60_000,
        )


def start_from_lobby(page: Page, server: Server) -> tuple[str, str]:
    """Create a 4-player match in the lobby (seats 2-4 easy bots), which opens the first
    seat's board; returns the match's id and the seat's token."""
    page.goto(server.base + "/")
    page.select_option("#new-game", "rising_sun")
    page.select_option("#new-players", "4")
    expect(page.locator(".seat-kind")).to_have_count(4)
    for seat in (1, 2, 3):
        page.locator(".seat-kind").nth(seat).select_option("easy")
    page.locator("details.options summary").first.click()
    expect(page.locator("label[for=opt-season_set]")).to_have_text("Season card set")
    page.locator("details.options summary").last.click()
    page.fill("#new-seed", str(SEED))
    page.click("#create-match")
    # one person against bots goes straight from the lobby to the board
    page.wait_for_url(re.compile(r"/play/[\w-]+#token="))
    found = re.search(r"/play/([\w-]+)#token=(.+)$", page.url)
    assert found, page.url
    return found.group(1), found.group(2)


def check_board(page: Page, view: dict[str, Any]) -> None:
    """The map, the shrines and the clans' screens show what the view holds: each clan's
    Force in each province, its Shinto on each shrine, its VP, Coins and Ronin."""
    for p, name in enumerate(PROVINCES):
        tile = page.locator(f".rs-prov[data-province='{name}']")
        shown = {
            int(seat): int(force)
            for seat, force in tile.locator(".rs-row").evaluate_all(
                "rows => rows.map(r => [r.dataset.seat, "
                "r.querySelector('.rs-force-text').textContent])"
            )
        }
        present = {q for q, _, _, loc, _ in view["pieces"] if loc == p}
        assert shown == {q: view["force"][p][q] for q in present}, name
    for slot in range(4):  # SHRINE + slot
        chips = page.locator(".rs-shrine").nth(slot).locator(".rs-chip").all_inner_texts()
        shinto = [q for q, _, _, loc, _ in view["pieces"] if loc == 8 + slot]
        assert sum(int(c.rsplit("\u00d7", 1)[1]) for c in chips) == len(shinto), slot
    for seat in range(view["players"]):
        screen = page.locator(f".rs-clan[data-seat='{seat}']")
        vp = view["final"][seat] if view["final"] else view["vp"][seat]
        expect(screen.locator(".rs-vp-total b")).to_have_text(str(vp))
        stats = screen.locator(".rs-stat b").all_inner_texts()
        assert stats == [str(view["coins"][seat]), str(view["ronin"][seat])], seat


def test_a_whole_game_from_the_lobby_to_the_winter_scoring(
    page: Page, browser: Browser, server: Server, shot: Shot
) -> None:
    """A whole 4-player game against three bots, played by clicking: the Tea Ceremony
    (rising_sun.md §4.2), the Mandates and Kami turns of the Political Phase (§6.1-§6.4), the
    War Phase's secret bids and Battles (§8.2, §8.3) and the Winter scoring (§4.3). At every
    decision the choices are exactly the seat's legal actions; after each Season the board
    agrees with the server's view; the final scores and their breakdown are the server's.
    Then the same seat on a phone (no sideways scroll) and in Japanese after a reload."""
    errors = console_errors(page)
    match_id, token = start_from_lobby(page, server)
    client: Client = server.client(match_id, token)
    player = Player(page, SEED)
    shots = {
        "offer": "tea",
        "answer": "alliance-offer",
        "keep": "mandate",
        "announce": "lotus-announce",
        "recruit": "recruit",
        "move": "marshal",
        "buy": "train",
        "betray": "betray",
        "bid": "secret-bids",
        "hostage": "hostage",
        "seppuku": "seppuku",
    }
    season = "spring"
    seasons_checked: list[str] = []
    phone_done = False
    try:
        while (state := player.state()) is not None:
            decision, number = state
            message = client.until(welcome_or_update(number))
            assert message["number"] == number
            view = message["view"]
            if view["season"] != season:
                check_board(page, view)
                seasons_checked.append(season)
                season = view["season"]
            legal = sorted(a["notation"] for a in message["legal"])
            assert sorted(notations(page)) == legal, decision
            if decision == "announce":  # Lotus sees its own face-down tile (§6.1)
                expect(page.locator(CONTROLS)).to_contain_text("Your tile lies face down")
            if decision in shots:
                shot(page, shots.pop(decision))
            if decision == "bid" and not phone_done:
                phone_done = True
                on_phone(browser, page.url, ".rs-bid", shot, "secret-bids-phone")
            player.choose(decision)
            player.wait_past(number)
        final = client.until(lambda m: m["type"] == "update" and m.get("outcome") is not None)
    finally:
        client.close()
    assert seasons_checked == ["spring", "summer"], seasons_checked
    assert {"offer", "keep", "announce", "bid"} <= set(player.decisions), player.decisions

    expect(page.locator(".rs-final")).to_be_visible()
    check_board(page, final["view"])
    shot(page, "winter-scoring")
    outcome = server.get(f"/api/matches/{match_id}").json()["outcome"]
    rows = page.locator(".scores table:not(.rs-final)").first.locator("tbody tr")
    expect(rows).to_have_count(4)
    shown = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(4)]
    assert shown == [outcome["scores"][seat] for seat in outcome["ranking"]]
    breakdown = final["view"]["breakdown"]
    for row in page.locator(".rs-final tbody tr").all():
        seat = int(row.get_attribute("data-seat") or -1)
        cells = [int(x) for x in row.locator("td.num").all_inner_texts()]
        assert cells == [*breakdown[seat], outcome["scores"][seat]], seat

    # in English each province's kanji stands under its name
    expect(page.locator(".rs-prov[data-province='Kyoto'] .rs-prov-kanji")).to_have_text("京都")
    clan = final["view"]["clans"][0]
    # the seats are named by their clans, as the log and the battles name them
    expect(page.locator(".status .who")).to_have_text(f"You play {clan} (Player 1)")
    winner = final["view"]["clans"][outcome["winners"][0]]
    expect(page.locator(".status")).to_contain_text(
        f"Winner: {winner} (Player {outcome['winners'][0] + 1})"
    )
    assert (
        rows.first.locator("td")
        .nth(1)
        .inner_text()
        .startswith(
            f"{final['view']['clans'][outcome['ranking'][0]]} (Player {outcome['ranking'][0] + 1})"
        )
    )
    page.select_option(".log-who", "0")  # the log's filter finds the lines naming our clan
    lines = page.locator(".log-lines li").all_inner_texts()  # the lines' terms name the seat
    assert lines and all(clan in line for line in lines), lines[:5]
    page.select_option(".log-who", "")

    on_phone(browser, page.url, ".rs-final", shot, "winter-scoring-phone")

    page.evaluate("localStorage.setItem('sengoku.lang', 'ja')")
    page.reload()
    expect(page.locator(".rs-players h2")).to_contain_text("氏族")
    expect(page.locator(".rs-prov[data-province='Kyoto'] .rs-prov-name")).to_have_text("京都")
    expect(page.locator(".rs-prov-kanji")).to_have_count(0)  # the name once, not twice
    expect(page.locator(".rs-final thead")).to_contain_text("合計")
    expect(page.locator(".log-lines")).to_contain_text("最終得点")
    shot(page, "winter-scoring-ja")
    assert not errors, errors


def bid_lines(frame: str) -> set[int]:
    """The seats whose secret bids the log lines of a WebSocket frame tell (the log travels
    as messages: docs/protocol.md)."""
    message = json.loads(frame)
    return {
        entry["args"]["c"]["seat"]
        for entry in message.get("log", [])
        if isinstance(entry, dict) and entry.get("key") == "rising_sun.log.bids"
    }


def frames_of(page: Page) -> list[str]:
    """Every WebSocket frame the page receives from now on."""
    frames: list[str] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", watch)
    return frames


def play_until(clients: list[Client], rng: random.Random, wanted: Callable[[], bool]) -> None:
    """The people play at random (no gifts) through their connections until ``wanted()``."""
    while True:
        for client in clients:
            client.drain(0.05)
        for client in clients:
            latest = client.latest
            assert latest is not None and latest.get("outcome") is None, "it never came"
        if wanted():
            return
        mover = next((c for c in clients if c.latest and c.latest["legal"]), None)
        if mover is None:
            clients[0].recv()
            continue
        assert mover.latest is not None
        legal = mover.latest["legal"]
        pick = [a for a in legal if not GIFT.match(a["notation"])] or legal
        action = rng.choice(pick)
        number = mover.latest["number"]
        answer = mover.act({"name": action["name"], "args": action["args"]})
        assert answer["type"] == "accepted", answer
        if mover.latest["number"] <= number:  # the update may come before or after the answer
            mover.until(welcome_or_update(number + 1))


def play_until_they_fight(clients: list[Client], rng: random.Random) -> dict[str, Any]:
    """Both people play at random until a Battle in which both bid; returns the update that
    asks them."""

    def fighting() -> bool:
        latest = clients[0].latest
        assert latest is not None
        battle = latest["view"]["battle"]
        both_bid = all(c.latest and c.latest["legal"] for c in clients)
        return bool(
            latest["view"]["decision"] == "bid"
            and both_bid
            and {0, 1} <= set(battle["participants"])
        )

    play_until(clients, rng, fighting)
    assert clients[0].latest is not None
    return clients[0].latest


def test_two_people_fight_a_battle_and_neither_sees_the_others_split(
    browser: Browser, server: Server, shot: Shot
) -> None:
    """rising_sun.md §8.3: the split of Coins over the War Advantages is secret and
    simultaneous. Two people in two browsers meet in a Battle; while one has bid and the other
    has not, neither page shows the other's bids, nor does any WebSocket frame either page
    received carry them; once both have bid, both pages show every bid and who won each
    Advantage."""
    made = server.create("rising_sun", 3, ["human", "human", "random"], seed=2)
    tokens = [made["seats"][q]["token"] for q in range(2)]
    clients = [server.client(made["id"], token) for token in tokens]
    try:
        for client in clients:
            client.until(welcome_or_update(0))
        asked = play_until_they_fight(clients, random.Random(4))
    finally:
        for client in clients:
            client.close()
    pages = [open_page(browser) for _ in range(2)]
    frames = [frames_of(p) for p in pages]
    for p, q in zip(pages, range(2), strict=True):
        p.goto(made["seats"][q]["join_url"])
        expect(p.locator(".rs-bid")).to_be_visible()
    first, second = pages
    plus = first.locator(".rs-bid-row").nth(3).locator("button:has-text('+')")
    for _ in range(min(2, asked["view"]["coins"][0])):
        plus.click()
    expect(first.locator(".rs-bid-total")).to_contain_text(
        f"Bid {min(2, asked['view']['coins'][0])} of"
    )
    first.click("#rs-send-bids")
    expect(second.locator(".rs-battle-table")).to_contain_text("✓")  # the first has bid
    expect(first.locator(".rs-bid")).to_have_count(0)
    shot(first, "bid-sent")
    shot(second, "other-waits")
    column = second.locator(".rs-battle-live tbody tr.advantage td:nth-child(2)")
    assert column.all_inner_texts() == ["✓"] * 4  # the first's bids, not their numbers
    for frame in frames[1]:  # everything the second page was sent so far
        message = json.loads(frame)
        if "view" in message:
            assert message["view"]["battle"]["bids"][0] is None
        assert 0 not in bid_lines(frame)
    assert any(0 in bid_lines(frame) for frame in frames[0])  # its own, private lines
    second.click("#rs-send-bids")
    for p in pages:
        expect(p.locator(".rs-battle-table td.won:visible").first).to_be_visible()
    shot(second, "bids-revealed")
    for p in pages:
        assert not p.errors, p.errors  # type: ignore[attr-defined]
        p.context.close()


def test_choosing_a_clan_shows_each_clans_power_home_and_income(
    page: Page, server: Server, shot: Shot
) -> None:
    """rising_sun.md §2.2, §2.3 (option clans=chosen): each seat in turn picks a clan; the
    table shows every clan in play with its power, home province and income, the choices are
    exactly the legal ones, and a clan taken is marked with who took it. With the option
    box_supply (rising_sun.md §17.5) the board shows what is left in the pile: the box's 65
    Coins and 20 Ronin less those the clans hold."""
    options = {"clans": "chosen", "box_supply": True}
    made = server.create("rising_sun", 3, ["human", "random", "random"], seed=3, options=options)
    page.goto(made["seats"][0]["join_url"])
    cards = page.locator(".rs-clan-choice .rs-clan")
    expect(cards).to_have_count(5)
    expect(page.locator(".rs-clan-choice [data-clan='Bonsai']")).to_contain_text("Sacred Bounty")
    expect(page.locator(".rs-clan-choice [data-clan='Bonsai']")).to_contain_text("home: Ky")
    expect(page.locator(".rs-clan-choice [data-clan='Lotus']")).to_contain_text("income: 7 Coins")
    assert sorted(notations(page)) == sorted(f"choose {c.name}" for c in CLANS)
    page.click(f"{CONTROLS} button[data-notation='choose Lotus']")
    expect(page.locator(".rs-clan[data-seat='0'] .rs-clan-name")).to_have_text("Lotus")
    expect(page.locator(".rs-pile")).to_be_visible()  # the track shows once clans sit down
    pile, held = page.evaluate(
        "() => [document.querySelector('.rs-pile').textContent, [...document.querySelectorAll("
        "'.rs-clan[data-seat] .rs-stat:first-child b')].map(b => Number(b.textContent))]"
    )
    left = re.fullmatch(r"pile: (\d+) Coins, (\d+) Ronin", pile)
    assert left is not None and len(held) == 3, (pile, held)
    assert int(left.group(1)) + sum(held) == 65 and sum(held) > 0
    shot(page, "box-supply")


AT_KAMI = 20  # a shrine in an action: AT_KAMI + its Kami
SHRINE = 8  # a shrine in the view: SHRINE + its slot
MONSTER_BASE = 10


def map_places(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The places on the map a seat can click, with the notations each stands for (the
    province a choice goes to, the shrine of its Kami, the figure it starts from or
    strikes): ``p<province>``, ``k<kami>``, ``f<seat>-<what>-<province>``."""
    places: dict[str, list[str]] = {}
    seat_of = {
        c: view["clans"].index(clan.name)
        for c, clan in enumerate(CLANS)
        if clan.name in view["clans"]
    }

    def at(where: int) -> str:
        return f"k{where - AT_KAMI}" if where >= AT_KAMI else f"p{where}"

    for a in legal:
        g, keys = a["args"], []
        if a["name"] == "Summon":
            keys = [f"p{g['province']}"] + ([f"k{g['kami']}"] if g["kami"] >= 0 else [])
        elif a["name"] == "Place":
            keys = [at(g["where"])]
        elif a["name"] == "Build":
            keys = [f"p{g['province']}"]
        elif a["name"] == "Move":
            keys = [f"p{g['dst']}", f"f{view['seat']}-{g['what']}-{g['src']}"]
        elif a["name"] == "Replace":
            keys = [at(g["where"])]
            if g["where"] < AT_KAMI:
                keys.append(f"f{seat_of[g['clan']]}-{g['what']}-{g['where']}")
        elif a["name"] == "Kill":
            keys = [f"p{g['province']}", f"f{seat_of[g['clan']]}-{g['what']}-{g['province']}"]
        for key in keys:
            places.setdefault(key, []).append(a["notation"])
    return places


def count(view: dict[str, Any], seat: int, what: int, loc: int) -> int:
    """How many figures of this type (a kind, or MONSTER_BASE + a card) the seat has there."""
    return sum(
        1
        for owner, kind, card, where, _ in view["pieces"]
        if owner == seat and (MONSTER_BASE + card if kind == 3 else kind) == what and where == loc
    )


def landing(view: dict[str, Any], action: dict[str, Any]) -> tuple[int, int]:
    """(type, view location) of the figure a Summon, Place, Build or Move puts on the map."""
    g = action["args"]
    if action["name"] == "Build":
        return 4, g["province"]
    if action["name"] == "Move":
        return g["what"], g["dst"]
    where = g["province"] if action["name"] == "Summon" else g["where"]
    kami = g.get("kami", -1) if action["name"] == "Summon" else where - AT_KAMI
    if kami >= 0:
        return g["what"], SHRINE + view["shrines"].index(kami)
    return g["what"], where


def test_the_map_takes_choices_by_click_and_by_keyboard(
    browser: Browser, server: Server, shot: Shot
) -> None:
    """rising_sun.md §6.2 (Recruit and Marshal: Summon and Move), §6.4 (a Shinto to a Kami's
    shrine): the map stands for the choices that name its places. Exactly the provinces,
    shrines and figures that a legal action names can be clicked; a province that several
    choices go to opens a menu of exactly those, which Escape closes; the keyboard reaches a
    province, Enter opens its menu and takes a choice in it. A figure that can move is picked
    first, its destinations are marked, and a click on one moves it there. Each choice made on
    the map is the move the server then applies. The list of choices stays beside it."""
    made = server.create("rising_sun", 3, ["human"] * 3, seed=3)
    clients = [server.client(made["id"], made["seats"][q]["token"]) for q in range(3)]
    me = clients[0]
    rng = random.Random(11)
    page = open_page(browser)

    def latest() -> dict[str, Any]:
        assert me.latest is not None
        return me.latest

    def asked(name: str, menu: bool = False) -> Callable[[], bool]:
        def test() -> bool:
            legal = latest()["legal"]
            places = map_places(latest()["view"], legal)
            several = any(len(v) > 1 for k, v in places.items() if k[0] == "p")
            return any(a["name"] == name for a in legal) and (several or not menu)

        return test

    def clickable() -> set[str]:
        return set(page.locator("[data-map]").evaluate_all("ns => ns.map(n => n.dataset.map)"))

    try:
        for client in clients:
            client.until(welcome_or_update(0))
        play_until(clients, rng, asked("Summon", menu=True))
        number, view, legal = latest()["number"], latest()["view"], latest()["legal"]
        places = map_places(view, legal)
        page.goto(made["seats"][0]["join_url"])
        expect(page.locator(f"{CONTROLS}[data-number='{number}']")).to_be_visible()
        assert clickable() == set(places)
        assert sorted(notations(page)) == sorted(a["notation"] for a in legal)  # the list stays
        expect(page.locator(".rs-menu")).to_have_count(0)

        # a province several choices go to: its menu, then Escape
        key = next(k for k, v in places.items() if k[0] == "p" and len(v) > 1)
        tile = page.locator(f".rs-prov[data-map='{key}']")
        tile.locator(".rs-prov-name").click()
        menu = page.locator(f".rs-menu[data-menu='{key}']")
        expect(menu).to_be_visible()
        shown = menu.locator("[data-notation]").evaluate_all(
            "ns => ns.map(n => n.dataset.notation)"
        )
        assert sorted(shown) == sorted(places[key])
        expect(tile).to_have_attribute("aria-expanded", "true")
        shot(page, "map-menu")
        page.keyboard.press("Escape")
        expect(menu).to_have_count(0)
        assert page.evaluate("document.activeElement.dataset.map") == key
        phone = open_page(browser, PHONE)  # on a phone the menu fits the screen
        phone.goto(page.url)
        phone.locator(f".rs-prov[data-map='{key}'] .rs-prov-name").click()
        expect(phone.locator(f".rs-menu[data-menu='{key}']")).to_be_in_viewport()
        check_no_overflow(phone)
        shot(phone, "map-menu-phone")
        assert not phone.errors, phone.errors  # type: ignore[attr-defined]
        phone.context.close()

        # the keyboard: Enter on the focused province opens its menu, Enter takes a choice
        tile.focus()
        page.keyboard.press("Enter")
        expect(menu).to_be_visible()
        first = menu.locator("[data-notation]").first
        expect(first).to_be_focused()
        chosen = next(a for a in legal if a["notation"] == first.get_attribute("data-notation"))
        what, loc = landing(view, chosen)
        page.keyboard.press("Enter")
        after = me.until(welcome_or_update(number + 1))
        assert count(after["view"], 0, what, loc) == count(view, 0, what, loc) + 1, chosen

        # a figure that can move: picked, its destinations marked, moved by a click
        play_until(clients, rng, asked("Move"))
        number, view, legal = latest()["number"], latest()["view"], latest()["legal"]
        expect(page.locator(f"{CONTROLS}[data-number='{number}']")).to_be_visible()
        assert clickable() == set(map_places(view, legal))
        move = next(a for a in legal if a["name"] == "Move")
        g = move["args"]
        figure = page.locator(f".rs-piece[data-map='f0-{g['what']}-{g['src']}']")
        figure.click()
        expect(figure).to_have_attribute("aria-pressed", "true")
        targets = page.locator(".rs-prov.target").evaluate_all(
            "ns => ns.map(n => n.dataset.province)"
        )
        alike = [a for a in legal if a["name"] == "Move" and a["args"]["what"] == g["what"]]
        assert sorted(targets) == sorted(
            PROVINCES[a["args"]["dst"]] for a in alike if a["args"]["src"] == g["src"]
        )
        shot(page, "map-move-picked")
        on_phone(browser, page.url, ".rs-map", shot, "map-move-phone")
        dst = page.locator(f".rs-prov[data-province='{PROVINCES[g['dst']]}']")
        expect(dst).to_have_attribute("data-notation", move["notation"])
        dst.locator(".rs-prov-name").click()
        after = me.until(welcome_or_update(number + 1))
        assert (
            count(after["view"], 0, g["what"], g["dst"]) == count(view, 0, g["what"], g["dst"]) + 1
        )
        assert (
            count(after["view"], 0, g["what"], g["src"]) == count(view, 0, g["what"], g["src"]) - 1
        )
    finally:
        for client in clients:
            client.close()
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()
