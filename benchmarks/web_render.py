"""The browser UI's weight and speed: Debian's Chromium (Playwright) against a real server.

Run ``python benchmarks/web_render.py`` (or ``--steps 200 --json``). It starts
``python -m sengoku serve`` on a fresh SQLite file (as the tests do) and, for Shogun,
Shitenno and Rising Sun (4 players each):

- opens a seat's page of a new match (the person against three ``easy`` bots) in a fresh
  browser context and reports the requests and bytes the page loaded (uncompressed bodies)
  and the time from navigation until the board is drawn (the 45 provinces of the Shogun map,
  the 8 Shitenno and the 8 Rising Sun provinces);
- plays a bots-only match (``random`` bots) to the end and steps through its replay, one move
  per key press, ``--steps`` times: the mean and 90th percentile of the time from the key press
  until the page shows the next move (the server replays the record to that move, the page
  fetches and redraws everything), and the JS heap afterwards (``performance.memory``).

The browser runs headless on the same machine as the server.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.harness import Server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
BOARD = {
    "shogun": ("svg.map path.province", 45),
    "shitenno": (".sh-prov-name", 8),
    "rising_sun": (".rs-prov", 8),
}


def first_board(page: Page, url: str, game: str) -> dict[str, Any]:
    """Load a seat's page; the requests, bytes and milliseconds until its board is drawn."""
    sizes: list[int] = []
    page.on("response", lambda response: sizes.append(len(response.body())))
    selector, count = BOARD[game]
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(
        "([s, n]) => document.querySelectorAll(s).length >= n", arg=[selector, count]
    )
    ms = (time.perf_counter() - start) * 1000
    page.wait_for_load_state("networkidle")
    return {"requests": len(sizes), "kib": round(sum(sizes) / 1024, 1), "first_board_ms": round(ms)}


def replay_steps(page: Page, base: str, match_id: str, steps: int) -> dict[str, Any]:
    """Step through a replay with the → key; milliseconds per step and the JS heap."""
    page.goto(f"{base}/replay/{match_id}")
    page.wait_for_selector(".replay-count")
    times = []
    for n in range(1, steps + 1):
        start = time.perf_counter()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "n => document.getElementById('app').dataset.number == String(n)", arg=n
        )
        times.append((time.perf_counter() - start) * 1000)
    heap = page.evaluate("performance.memory ? performance.memory.usedJSHeapSize : null")
    times.sort()
    return {
        "steps": steps,
        "step_ms_mean": round(statistics.fmean(times), 1),
        "step_ms_p90": round(times[int(0.9 * (len(times) - 1))], 1),
        "heap_mib": None if heap is None else round(heap / 2**20, 1),
    }


def finished_match(server: Server, game: str, players: int, options: dict[str, Any]) -> str:
    made = server.create(game, players, ["random"] * players, seed=7, options=options)
    deadline = time.monotonic() + 300
    while httpx.get(f"{server.base}/api/matches/{made['id']}").json()["status"] != "finished":
        if time.monotonic() > deadline:
            raise RuntimeError("the bots did not finish")
        time.sleep(0.2)
    return str(made["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100, help="replay steps timed per game")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp(prefix="sengoku-web-bench-")) / "sengoku.db"
    server = Server(f"sqlite:///{db}", bot_workers=1)
    results: dict[str, Any] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for game, options in (("shogun", {"years": 1}), ("shitenno", {}), ("rising_sun", {})):
                made = server.create(game, 4, ["human", "easy", "easy", "easy"], seed=3)
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                row = first_board(context.new_page(), made["seats"][0]["join_url"], game)
                context.close()
                match_id = finished_match(server, game, 4, options)
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                row |= replay_steps(context.new_page(), server.base, match_id, args.steps)
                context.close()
                results[game] = row
            browser.close()
    finally:
        server.stop()
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(
        "| game | requests | KiB loaded | first board, ms | replay step, ms (mean / p90) "
        "| JS heap, MiB |"
    )
    print("|---|---|---|---|---|---|")
    for game, r in results.items():
        print(
            f"| {game} | {r['requests']} | {r['kib']} | {r['first_board_ms']} | "
            f"{r['step_ms_mean']} / {r['step_ms_p90']} | {r['heap_mib']} |"
        )


if __name__ == "__main__":
    main()
