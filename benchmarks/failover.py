"""Failover: SIGKILL the owners of running matches, again and again, while people play them.

``python benchmarks/failover.py`` (3 processes, 20 kills), or for example::

    python benchmarks/failover.py --processes 3 --kills 20 --matches 12 --interval 6

starts a throw-away PostgreSQL cluster, ``--processes`` named server processes (``s1`` …) on
it and HAProxy in front of them (the configuration ``sengoku serve --processes`` writes), and
``--matches`` tables of four-player Shitenno whose every seat is played by this script
through the proxy, as the page plays: it follows ``moved`` to the owner (``?at=NAME``),
chooses at random among its legal actions after a think time (exponential, mean
``--think``), and when its connection drops it connects again (through the proxy, after 0.1 s)
and says hello. A table starts a new match when one ends.

Every ``--interval`` seconds the script SIGKILLs the process that owns the most running
matches (as the database says), notes those matches, and starts the process again under the
same name (as ``sengoku serve --processes`` does), ``--restart-after`` seconds later: at once
it takes its matches back under its name; after the lease (3 s) the others have taken them
(the path of a machine that is gone). For each match of a killed owner it measures the time
from the kill to the first welcome a seat of it gets from its new owner, and to its first
accepted move after the kill.

At the end it checks, from the database: every move a seat was told was accepted is stored,
in the order told (none lost; a move stored but not told, because the kill or the end of the
run came between the commit and the answer, is counted apart); every match's actions are
numbered without a gap; and the processes that stored a match's actions never overlap (once
another process has stored an action of a match, no earlier owner stores one again:
``actions.process``). Figures: kills, matches resumed, their resume times (p50, p90, max),
and the checks' counts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

import httpx  # noqa: E402
import psycopg  # noqa: E402
from tests.server import harness  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

OPTIONS = (
    "--messages-per-second",
    "1000",
    "--matches-per-minute",
    "100000",
    "--review-iterations",
    "0",
)


@dataclass
class Book:
    """What the seats saw: acknowledged moves, welcomes and accepted moves after kills."""

    acked: dict[tuple[str, int], list[str]] = field(default_factory=lambda: defaultdict(list))
    welcomes: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    accepts: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    behind: list[str] = field(default_factory=list)  # welcomes older than what was acknowledged
    matches: list[str] = field(default_factory=list)
    stop: bool = False


async def seat_url(base: str, match_id: str, token: str) -> tuple[Any, dict[str, Any]]:
    """An open WebSocket to the match's owner through the proxy and its welcome."""
    at = None
    for attempt in range(200):
        url = f"{base}/ws/matches/{match_id}" + (f"?at={at}" if at else "")
        try:
            ws = await connect(url, open_timeout=10, ping_interval=None)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        except (ConnectionClosed, TimeoutError):
            await ws.close()
            await asyncio.sleep(0.1)
            continue
        if first.get("type") == "welcome":
            return ws, first
        await ws.close()
        if first.get("code") == "moved":
            at = first.get("at")
            await asyncio.sleep(0 if attempt == 0 else 0.1)
            continue
        raise RuntimeError(f"refused: {first}")
    raise RuntimeError(f"match {match_id} could not be reached")


async def play_seat(base: str, match: dict[str, Any], seat: int, think: float, book: Book) -> None:
    """Play one seat until its match ends or the run stops, reconnecting whenever the
    connection drops."""
    rng = random.Random(f"{match['id']}/{seat}")
    token = match["seats"][seat]["token"]
    key = (match["id"], seat)
    while not book.stop:
        # every move told accepted before this seat connects must be in its welcome (one
        # told meanwhile may come after the welcome was sent)
        told = sum(len(book.acked[(match["id"], s)]) for s in range(4))
        ws, latest = await seat_url(base, match["id"], token)
        book.welcomes[match["id"]].append(time.monotonic())
        if latest["number"] < told:
            book.behind.append(f"{match['id']}: welcome at {latest['number']}, {told} told")
        pending: dict[str, str] = {}
        acted_on = -1
        try:
            while not book.stop:
                if latest["outcome"] is not None:
                    return
                if latest["legal"] and latest["number"] != acted_on and not pending:
                    await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
                    acted_on = latest["number"]
                    notation = rng.choice(latest["legal"])["notation"]
                    pending[str(acted_on)] = notation
                    act = {"type": "act", "action": notation, "ref": str(acted_on)}
                    await ws.send(json.dumps({**act, "expect": acted_on}))
                message = json.loads(await ws.recv())
                kind = message.get("type")
                if kind in ("welcome", "update"):
                    latest = message
                elif kind == "accepted":
                    book.acked[key].append(message["action"])
                    book.accepts[match["id"]].append(time.monotonic())
                    pending.pop(str(message.get("ref")), None)
                elif kind == "error":
                    pending.pop(str(message.get("ref")), None)
        except ConnectionClosed:
            await asyncio.sleep(0.1)  # the page waits a moment too
        finally:
            await ws.close()


async def table(base: str, http: httpx.AsyncClient, seed: int, think: float, book: Book) -> None:
    """Matches one after another until the run stops."""
    while not book.stop:
        body = {"game": "shitenno", "players": 4, "seed": seed}
        made = (await http.post(f"{base}/api/matches", json=body)).json()
        book.matches.append(made["id"])
        await asyncio.gather(
            *(play_seat(base.replace("http", "ws", 1), made, s, think, book) for s in range(4))
        )
        seed += 1000


def owned(url: str) -> dict[str, list[str]]:
    """Each living process's name and the running matches it owns."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT p.name, m.id FROM matches m JOIN server_processes p ON p.id = m.owner "
            "WHERE m.status = 'running' AND p.expires_at > now()"
        ).fetchall()
    out: dict[str, list[str]] = defaultdict(list)
    for name, match_id in rows:
        out[name].append(match_id)
    return out


async def killer(
    url: str, servers: list[harness.Server], args: argparse.Namespace
) -> list[dict[str, Any]]:
    """SIGKILL the busiest owner every ``--interval`` seconds, ``--kills`` times; start it
    again ``--restart-after`` seconds later."""
    done = []
    kills, interval = args.kills, args.interval
    for _ in range(kills):
        await asyncio.sleep(interval)
        owners = await asyncio.to_thread(owned, url)
        name = max(owners, key=lambda n: len(owners[n]))
        server = next(s for s in servers if s.name == name)
        matches = owners[name]
        killed = time.monotonic()
        server.kill()
        done.append({"name": name, "at": killed, "matches": matches})
        await asyncio.sleep(args.restart_after)
        await asyncio.to_thread(server.start)  # the same name: as `serve --processes` does
    return done


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank percentile of an ascending list (NaN when empty)."""
    if not ordered:
        return math.nan
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def check(url: str, book: Book) -> dict[str, Any]:
    """The database against what the seats were told (see the module docs)."""
    lost, untold, gaps, overlaps = 0, 0, 0, 0
    with psycopg.connect(url) as conn:
        for match_id in book.matches:
            rows = conn.execute(
                "SELECT number, seat, notation, process FROM actions WHERE match_id = %s "
                "ORDER BY number",
                (match_id,),
            ).fetchall()
            if [r[0] for r in rows] != list(range(len(rows))):
                gaps += 1
            for seat in range(4):
                stored = [r[2] for r in rows if r[1] == seat]
                told = book.acked[(match_id, seat)]
                i = 0
                for notation in stored:  # told must be stored, in order; extras: untold
                    if i < len(told) and told[i] == notation:
                        i += 1
                    else:
                        untold += 1
                lost += len(told) - i
            seen: list[str] = []
            for _number, _seat, _notation, process in rows:
                if not seen or seen[-1] != process:
                    if process in seen:
                        overlaps += 1
                    seen.append(process)
    return {"lost": lost, "stored_untold": untold, "gaps": gaps, "owner_overlaps": overlaps}


async def run(args: argparse.Namespace) -> None:
    cluster = harness.PostgresCluster()
    url = cluster.new_database()
    servers = [
        harness.Server(url, bot_workers=1, extra=OPTIONS, name=f"s{i + 1}")
        for i in range(args.processes)
    ]
    proxy = harness.Proxy(servers)
    book = Book()
    try:
        async with httpx.AsyncClient(timeout=60, follow_redirects=True) as http:
            tables = [
                asyncio.create_task(table(proxy.base, http, seed, args.think, book))
                for seed in range(args.matches)
            ]
            kills = await killer(url, servers, args)
            await asyncio.sleep(args.interval)  # the last kill's matches resume
            book.stop = True
            for task in tables:
                task.cancel()
            await asyncio.gather(*tables, return_exceptions=True)
        await asyncio.sleep(1)
        result = check(url, book)
    finally:
        proxy.stop()
        for server in servers:
            server.stop()
        cluster.stop()
    to_welcome, to_accept, unresumed = [], [], 0
    for kill in kills:
        for match_id in kill["matches"]:
            after = [t - kill["at"] for t in book.welcomes[match_id] if t > kill["at"]]
            accepted = [t - kill["at"] for t in book.accepts[match_id] if t > kill["at"]]
            if not after:
                unresumed += 1
                continue
            to_welcome.append(min(after))
            if accepted:
                to_accept.append(min(accepted))
    to_welcome.sort()
    to_accept.sort()
    affected = sum(len(k["matches"]) for k in kills)
    print(
        f"{args.processes} processes behind HAProxy, {args.matches} tables of 4-player "
        f"Shitenno, think {args.think:g} s; {len(kills)} SIGKILLs every {args.interval:g} s, "
        f"each process started again {args.restart_after:g} s after its kill"
    )
    print(f"matches played       {len(book.matches)}")
    print(f"owned by the killed  {affected} (match, kill) pairs; not resumed: {unresumed}")
    for label, times in (("to a welcome", to_welcome), ("to a move", to_accept)):
        print(
            f"resumed {label:<12} p50 {percentile(times, 50):.2f} s, p90 "
            f"{percentile(times, 90):.2f} s, max {max(times, default=math.nan):.2f} s; "
            f"within 5 s: {sum(t <= 5 for t in times)} of {len(times)}"
        )
    print(f"acknowledged lost    {result['lost']}")
    print(
        f"stored, not told     {result['stored_untold']} (the kill, or the end of the run, came "
        "between the commit and the answer)"
    )
    print(f"welcomes behind      {len(book.behind)}")
    print(f"numbering gaps       {result['gaps']}")
    print(f"owners overlapping   {result['owner_overlaps']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--matches", type=int, default=12, help="tables played at once")
    parser.add_argument("--interval", type=float, default=6.0, help="seconds between kills")
    parser.add_argument("--think", type=float, default=0.2, help="mean think time, seconds")
    parser.add_argument(
        "--restart-after",
        type=float,
        default=0.0,
        help="seconds before a killed process starts again (past the lease: the others "
        "take its matches; at once: it takes them back under its name)",
    )
    args = parser.parse_args()
    if args.processes < 2:
        parser.error("--processes: at least 2 (one dies each time)")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
