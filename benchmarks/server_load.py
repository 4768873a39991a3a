"""Server load: bot-vs-bot matches driven over WebSockets against a real ``sengoku serve``.

Run ``python benchmarks/server_load.py`` (20 four-player Shitenno matches on a fresh SQLite
file), or for example::

    python benchmarks/server_load.py --matches 50
    python benchmarks/server_load.py --game shogun --matches 20
    python benchmarks/server_load.py --postgres --matches 20     # a throw-away PostgreSQL
    python benchmarks/server_load.py --db postgresql://me@localhost/bench --json

The script starts ``python -m sengoku serve`` in a process of its own on a free port of
127.0.0.1 (``--bot-workers 1``, ``--messages-per-second 1000``), waits for ``/api/health``,
creates the matches with every seat human (``POST /api/matches``, seed ``--seed + i``), then
opens one WebSocket per seat. When every seat has its welcome, all of them start at once:
each seat acts whenever its newest welcome/update offers it legal actions it has not acted
on yet, choosing one uniformly at random (a seeded ``random.Random`` per seat) and naming
the position it chose in (``expect``), one action at a time: it chooses again only once the
last one is answered. An error (``stale`` if its choices changed meanwhile) is counted and
the seat goes on from the newest message. The server is stopped with SIGTERM at the end.

Figures: accepted moves, the wall time from the first action sent to the last match
finished (the last seat receiving a final outcome), moves per second, the latency of each
accepted move (``act`` sent to its ``accepted`` received; p50, p90, p99, max), errors by
code, and the CPU time the server and this client used meanwhile. The client runs on the
same machine: on a small one it competes with the server for the cores. Afterwards every
match is checked over HTTP (finished, with as many stored actions as moves accepted), and
the server's output is searched for tracebacks and errors.

The SQLite file lies in a new directory under ``$TMPDIR`` (the server commits each action
with an fsync, so the disk under it matters: compare ``TMPDIR=/dev/shm``). ``--postgres``
starts its cluster with ``fsync=off`` like the tests do; ``--pg-fsync`` keeps fsync on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

sys.path.insert(0, str(ROOT))

from tests.server import harness  # noqa: E402
from tests.server.harness import PostgresCluster  # noqa: E402

import sengoku  # noqa: E402
from sengoku.core import get_game  # noqa: E402

# -- the server process -------------------------------------------------------------------------


class Server(harness.Server):
    """``python -m sengoku serve`` in a process (and session) of its own, as in the tests."""

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the server process so far (Linux /proc; else None)."""
        assert self.process is not None
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    @property
    def returncode(self) -> int | None:
        """The server's exit status once stopped."""
        return None if self.process is None else self.process.returncode


# -- the clients ----------------------------------------------------------------------------


@dataclass
class SeatStats:
    """What one seat's client saw."""

    match: int
    seat: int
    moves: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, accepted moves only
    errors: Counter[str] = field(default_factory=Counter)
    first_sent: float | None = None
    finished_at: float | None = None  # when this seat first received a final outcome
    final_number: int | None = None
    messages: int = 0
    received_bytes: int = 0
    problem: str | None = None


async def play_seat(
    url: str,
    token: str,
    rng: random.Random,
    stats: SeatStats,
    ready: asyncio.Queue[None],
    go: asyncio.Event,
    idle_timeout: float,
) -> None:
    """Play one seat at random until its match has an outcome and every act is answered."""
    signalled = False
    try:
        async with connect(url, max_size=None, open_timeout=60, ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            latest: dict[str, Any] | None = None
            while latest is None:
                async with asyncio.timeout(idle_timeout):
                    message = json.loads(await ws.recv())
                if message.get("type") == "welcome":
                    latest = message
                elif message.get("type") == "error":
                    stats.problem = f"refused: {message.get('code')}: {message.get('message')}"
                    return
            ready.put_nowait(None)
            signalled = True
            await go.wait()
            acted_on = -1
            pending: dict[str, float] = {}  # ref -> when the act was sent
            while True:
                over = latest["outcome"] is not None
                if over and not pending:
                    return
                # One action at a time, like a person: choose again once the last is answered.
                if not over and not pending and latest["legal"] and latest["number"] != acted_on:
                    acted_on = latest["number"]
                    choice = rng.choice(latest["legal"])
                    ref = str(acted_on)
                    text = json.dumps(
                        {
                            "type": "act",
                            "action": choice["notation"],
                            "ref": ref,
                            "expect": acted_on,
                        }
                    )
                    pending[ref] = sent = time.perf_counter()
                    if stats.first_sent is None:
                        stats.first_sent = sent
                    await ws.send(text)
                    continue
                try:
                    async with asyncio.timeout(idle_timeout):
                        raw = await ws.recv()
                except TimeoutError:
                    stats.problem = (
                        f"nothing received for {idle_timeout:g} s at action {latest['number']}"
                        f" (outcome: {'yes' if over else 'no'}, legal: {len(latest['legal'])},"
                        f" unanswered acts: {sorted(pending, key=int)})"
                    )
                    return
                now = time.perf_counter()
                stats.messages += 1
                stats.received_bytes += len(raw)
                message = json.loads(raw)
                kind = message.get("type")
                if kind in ("welcome", "update"):
                    latest = message
                    if message["outcome"] is not None and stats.finished_at is None:
                        stats.finished_at = now
                        stats.final_number = message["number"]
                elif kind == "accepted":
                    sent_at = pending.pop(str(message.get("ref")), None)
                    if sent_at is None:
                        stats.errors["unexpected_accepted"] += 1
                    else:
                        stats.moves += 1
                        stats.latencies.append(now - sent_at)
                elif kind == "error":
                    stats.errors[str(message.get("code"))] += 1
                    pending.pop(str(message.get("ref")), None)
    except ConnectionClosed as exc:
        stats.problem = f"connection closed: {exc}"
    except (OSError, TimeoutError) as exc:
        stats.problem = f"{type(exc).__name__}: {exc}"
    finally:
        if not signalled:
            ready.put_nowait(None)


async def create_matches(
    server: Server, game: str, players: int, count: int, seed: int
) -> list[dict[str, Any]]:
    """Create the matches, all seats human."""
    created: list[dict[str, Any]] = []
    async with httpx.AsyncClient(timeout=60) as client:
        while len(created) < count:
            body = {
                "game": game,
                "players": players,
                "seats": [{"kind": "human"} for _ in range(players)],
                "seed": seed + len(created),
            }
            response = await client.post(server.base + "/api/matches", json=body)
            if response.status_code != 201:
                raise SystemExit(
                    f"POST /api/matches answered {response.status_code}: {response.text}"
                )
            created.append(response.json())
    return created


async def check_matches(server: Server, ids: list[str]) -> tuple[list[dict[str, Any]], Any]:
    """Each match as the server reports it now (``GET /api/matches/{id}``), and how many
    matches the server still holds in memory before those requests (``/api/health``)."""
    async with httpx.AsyncClient(timeout=60) as client:
        await asyncio.sleep(0.5)  # let the server see the last connections close
        live = (await client.get(server.base + "/api/health")).json().get("live")
        out = []
        for match_id in ids:
            response = await client.get(f"{server.base}/api/matches/{match_id}")
            out.append(response.json() if response.status_code == 200 else {"id": match_id})
        return out, live


async def drive(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    """Create the matches, play them all at once and collect the figures."""
    created = await create_matches(server, args.game, args.players, args.matches, args.seed)
    ready: asyncio.Queue[None] = asyncio.Queue()
    go = asyncio.Event()
    seats: list[SeatStats] = []
    tasks = []
    for i, match in enumerate(created):
        url = f"{server.ws_base}/ws/matches/{match['id']}"
        for seat in match["seats"]:
            stats = SeatStats(i, seat["seat"])
            seats.append(stats)
            rng = random.Random(f"{args.seed}/{i}/{seat['seat']}")
            tasks.append(
                asyncio.create_task(
                    play_seat(url, seat["token"], rng, stats, ready, go, args.idle_timeout)
                )
            )
    for _ in seats:
        await ready.get()
    server_cpu_start = server.cpu_seconds()
    client_cpu_start = time.process_time()
    go.set()
    await asyncio.gather(*tasks)
    end = time.perf_counter()
    server_cpu_end = server.cpu_seconds()
    client_cpu = time.process_time() - client_cpu_start

    starts = [s.first_sent for s in seats if s.first_sent is not None]
    finishes = [s.finished_at for s in seats if s.finished_at is not None]
    start = min(starts) if starts else end
    last_finished = max(finishes) if finishes else end
    wall = last_finished - start
    moves = sum(s.moves for s in seats)
    latencies = sorted(x for s in seats for x in s.latencies)
    errors: Counter[str] = Counter()
    for s in seats:
        errors.update(s.errors)

    reported, live_left = await check_matches(server, [m["id"] for m in created])
    mismatches = []
    for i, info in enumerate(reported):
        accepted = sum(s.moves for s in seats if s.match == i)
        stored = info.get("actions")
        final = {s.final_number for s in seats if s.match == i}
        if info.get("status") != "finished" or stored != accepted or final != {accepted}:
            mismatches.append(
                f"match {i} ({created[i]['id']}): status {info.get('status')}, "
                f"{stored} stored actions, {accepted} accepted moves, final update numbers "
                f"seen by the seats {sorted(final, key=str)}"
            )
    server_cpu = (
        server_cpu_end - server_cpu_start
        if server_cpu_start is not None and server_cpu_end is not None
        else None
    )
    return {
        "matches_finished": sum(1 for info in reported if info.get("status") == "finished"),
        "moves": moves,
        "moves_per_match": moves / len(created) if created else 0.0,
        "wall_seconds": wall,
        "moves_per_second": moves / wall if wall > 0 else 0.0,
        "latency_ms": {
            "p50": percentile(latencies, 50) * 1000,
            "p90": percentile(latencies, 90) * 1000,
            "p99": percentile(latencies, 99) * 1000,
            "max": (latencies[-1] if latencies else math.nan) * 1000,
            "mean": (sum(latencies) / len(latencies) if latencies else math.nan) * 1000,
        },
        "errors": dict(sorted(errors.items())),
        "messages_received": sum(s.messages for s in seats),
        "megabytes_received": sum(s.received_bytes for s in seats) / 1e6,
        "server_cpu_seconds": server_cpu,
        "client_cpu_seconds": client_cpu,
        "problems": [
            f"match {s.match} seat {s.seat}: {s.problem}" for s in seats if s.problem is not None
        ],
        "mismatches": mismatches,
        "live_matches_left": live_left,
    }


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile of an ascending list (NaN when empty)."""
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def server_log_problems(text: str) -> list[str]:
    """The lines of the server's output that report errors."""
    markers = ("Traceback", "ERROR", "Exception", "CRITICAL")
    return [line for line in text.splitlines() if any(m in line for m in markers)]


# -- main -----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20, help="matches played at once")
    parser.add_argument("--game", default="shitenno", help="the game (default: shitenno)")
    parser.add_argument("--players", type=int, default=4, help="players per match")
    parser.add_argument("--seed", type=int, default=1, help="match i has seed SEED+i")
    database = parser.add_mutually_exclusive_group()
    database.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    database.add_argument(
        "--postgres", action="store_true", help="start a throw-away PostgreSQL cluster"
    )
    parser.add_argument(
        "--pg-fsync", action="store_true", help="--postgres: keep fsync on (default: off)"
    )
    parser.add_argument(
        "--messages-per-second", type=float, default=1000.0, help="the server's per-socket limit"
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=120.0,
        help="seconds a seat waits for a message before it reports the match stuck",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.players not in get_game(args.game).player_counts:
        parser.error(f"{args.game} is for {get_game(args.game).player_counts} players")

    workdir = Path(tempfile.mkdtemp(prefix="sengoku-bench-"))
    cluster: PostgresCluster | None = None
    server: Server | None = None
    try:
        if args.postgres:
            cluster = PostgresCluster(fsync=args.pg_fsync)
            db_url = cluster.new_database()
            db_label = f"postgresql (throw-away cluster, fsync={'on' if args.pg_fsync else 'off'})"
        elif args.db:
            db_url = args.db
            db_label = db_url.split(":", 1)[0] + " (--db)"
        else:
            db_url = f"sqlite:///{workdir / 'bench.db'}"
            db_label = "sqlite (fresh file in a temp dir)"
        server = Server(
            db_url,
            bot_workers=1,
            extra=[
                "--messages-per-second",
                str(args.messages_per_second),
                "--matches-per-minute",
                str(max(30, args.matches)),
            ],
        )
        results = asyncio.run(drive(server, args))
    finally:
        if server is not None:
            server.stop()
        if cluster is not None:
            cluster.stop()
    log_problems = server_log_problems(server.output())
    results["server_exit_code"] = server.returncode
    # uvicorn logs this line after a graceful shutdown (and then re-raises SIGTERM: -15)
    results["server_shutdown_graceful"] = "Finished server process" in server.output()
    results["server_log_problems"] = log_problems[:50]
    shutil.rmtree(workdir, ignore_errors=True)

    info = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "system": platform.system(),
        "cores": os.cpu_count(),
        "sengoku": sengoku.__version__,
    }
    parameters = {
        "game": args.game,
        "players": args.players,
        "matches": args.matches,
        "seats": args.matches * args.players,
        "seed": args.seed,
        "database": db_label,
        "bot_workers": 1,
        "messages_per_second": args.messages_per_second,
    }
    if args.json:
        print(json.dumps({"info": info, "parameters": parameters, "results": results}, indent=2))
        return
    report(info, parameters, results)


def report(info: dict[str, Any], parameters: dict[str, Any], r: dict[str, Any]) -> None:
    """Print the figures for people."""
    p = parameters
    print(
        f"{info['implementation']} {info['python']} on {info['system']} {info['machine']}, "
        f"{info['cores']} cores; sengoku {info['sengoku']}"
    )
    print(
        f"{p['matches']} x {p['game']} ({p['players']} players, seeds {p['seed']}.."
        f"{p['seed'] + p['matches'] - 1}), {p['seats']} WebSocket seats; database: "
        f"{p['database']}; --bot-workers {p['bot_workers']}, "
        f"--messages-per-second {p['messages_per_second']:g}"
    )
    print()
    print(f"matches finished     {r['matches_finished']} of {p['matches']}")
    print(f"moves accepted       {r['moves']:,} ({r['moves_per_match']:.1f} per match)")
    print(f"wall time            {r['wall_seconds']:.2f} s (first action to last match finished)")
    print(f"throughput           {r['moves_per_second']:,.1f} moves/s")
    lat = r["latency_ms"]
    print(
        f"latency (ms)         p50 {lat['p50']:.1f}  p90 {lat['p90']:.1f}  p99 {lat['p99']:.1f}"
        f"  max {lat['max']:.1f}  (mean {lat['mean']:.1f})"
    )
    errors = ", ".join(f"{code} {n}" for code, n in r["errors"].items()) or "none"
    print(f"errors               {errors}")
    print(f"messages received    {r['messages_received']:,} ({r['megabytes_received']:.1f} MB)")
    wall = r["wall_seconds"] or math.nan
    if r["server_cpu_seconds"] is not None:
        print(
            f"CPU                  server {r['server_cpu_seconds']:.1f} s "
            f"({100 * r['server_cpu_seconds'] / wall:.0f}% of a core), client "
            f"{r['client_cpu_seconds']:.1f} s ({100 * r['client_cpu_seconds'] / wall:.0f}%)"
        )
    else:
        print(f"CPU                  client {r['client_cpu_seconds']:.1f} s")
    graceful = "graceful shutdown" if r["server_shutdown_graceful"] else "NO graceful shutdown"
    print(f"matches in memory    {r['live_matches_left']} after the run (finished ones leave)")
    print(f"server exit          code {r['server_exit_code']}, {graceful}")
    trouble = r["problems"] + r["mismatches"] + r["server_log_problems"]
    if r["live_matches_left"]:
        trouble.append(f"{r['live_matches_left']} finished matches stayed in server memory")
    if not r["server_shutdown_graceful"]:
        trouble.append("the server did not log a graceful shutdown after SIGTERM")
    if not trouble:
        print("checks               every match finished with its moves stored; clean log")
        return
    print()
    print("PROBLEMS:")
    for line in trouble:
        print(f"  {line}")


if __name__ == "__main__":
    main()
