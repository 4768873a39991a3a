"""Server load: bot-vs-bot matches driven over WebSockets against a real ``sengoku serve``.

Run ``python benchmarks/server_load.py`` (20 four-player Shitenno matches on a fresh SQLite
file), or for example::

    python benchmarks/server_load.py --matches 50
    python benchmarks/server_load.py --game shogun --matches 20
    python benchmarks/server_load.py --postgres --matches 20     # a throw-away PostgreSQL
    python benchmarks/server_load.py --db postgresql://me@localhost/bench --json
    python benchmarks/server_load.py --matches 500 --hold 60 --think 2   # 2,000 sockets
    python benchmarks/server_load.py --compare main~5 --rounds 3         # another revision
    python benchmarks/server_load.py --postgres --processes 2 --matches 20

The script starts ``python -m sengoku serve`` in a process of its own on a free port of
127.0.0.1 (``--bot-workers 1``, ``--messages-per-second 1000``), waits for ``/api/health``,
creates the matches with every seat human (``POST /api/matches``, seed ``--seed + i``), then
opens one WebSocket per seat. When every seat has its welcome, all of them start at once:
each seat acts whenever its newest welcome/update offers it legal actions it has not acted
on yet, choosing one uniformly at random (a seeded ``random.Random`` per seat) and naming
the position it chose in (``expect``), one action at a time: it chooses again only once the
last one is answered. An error (``stale`` if its choices changed meanwhile) is counted and
the seat goes on from the newest message. The server is stopped with SIGTERM at the end.
A seat reads only ``type``, ``number``, ``legal``, ``outcome`` and ``ref`` of what it
receives, never the ``view``; its hello asks for view patches as the page's does
(``--no-patches``: whole views), and it offers permessage-deflate as browsers do (the
servers compress unless ``--no-ws-compression``).

Figures: accepted moves, the wall time from the first action sent to the last match
finished (the last seat receiving a final outcome), moves per second, the latency of each
accepted move (``act`` sent to its ``accepted`` received; p50, p90, p99, max), errors by
code, and the CPU time the server and this client used meanwhile. The client runs on the
same machine: on a small one it competes with the server for the cores. Afterwards every
match is checked over HTTP (finished, with as many stored actions as moves accepted), and
the server's output is searched for tracebacks and errors.

Hold mode (``--hold SECONDS``): ``--matches`` N matches are open at once for that long, and
each seat thinks before each action: offered actions it has not acted on, it waits a think
time drawn from its own generator (exponential, mean ``--think``: 1 s by default in this
mode, 0 otherwise), then acts on the newest position. Each of the N matches is a table:
when its match ends during the hold, its seats close their sockets and the table creates
the next match (numbered on from N, seed ``--seed`` + its number), whose seats connect at
once, so N matches stay open but for those moments. At the end of the hold no seat acts any
more; each waits for the answers to its unanswered acts, and every match, finished or not,
must have as many stored actions as moves accepted (``GET /api/matches/{id}``). Figures:
moves per second over the hold, latency, errors, the server's CPU time per accepted move,
its resident memory (VmRSS) before the matches were created and at the end of the hold
(and the difference per match), and the sockets open then (the client's seats, the
server's socket descriptors).

Compare mode (``--compare REV``): the same load against this checkout's server (its working
tree, uncommitted changes included) and that of another revision, ``--rounds`` K times each
(2 by default) in turns: this, other, this, other... Each run has a fresh database (a new
SQLite file, or a new database in the ``--postgres`` cluster; with ``--db`` all runs share
it). The revision is extracted with ``git archive REV`` into a temporary directory (deleted
at the end; the repository is left as it is), and its server runs there with a
``PYTHONPATH`` of that tree's ``src``; it is passed only the limit options below that its
``serve --help`` lists. The report gives each side's medians over its rounds and the ratios
this/other.

Several processes (``--processes 2``; PostgreSQL only: ``--postgres`` or a postgresql
``--db``): that many servers on one database. Match i is created on server i mod P, which
owns it (server/owners.py), and its seats connect there, as the proxy would route them
(docs/deploy.md). CPU and memory are summed over the processes; the report shows each one's
CPU too. With ``--proxy``, HAProxy stands in front of them (PostgreSQL; the configuration
``sengoku serve --processes`` writes): the matches are created through it, round robin, and
each seat connects through it with ``?at=NAME`` of the match's owner, learnt from a
``moved`` answer as the page learns it; HAProxy's CPU is reported apart.

Every server gets the limits the load needs: ``--messages-per-second`` (1000 by default),
``--matches-per-minute`` (as many as the matches, or 1,000,000 in hold mode),
``--max-connections`` and ``--connections-per-address`` (twice the seats, as every seat
connects from 127.0.0.1), ``--review-iterations 0`` (no reviews of finished matches), and
``--no-ws-compression`` when asked. The client raises its
limit of open files (RLIMIT_NOFILE) to the hard limit; the servers inherit it.

The SQLite file lies in a new directory under ``$TMPDIR`` (the server commits each action
with an fsync, so the disk under it matters: compare ``TMPDIR=/dev/shm``). ``--postgres``
starts its cluster with ``fsync=off`` like the tests do; ``--pg-fsync`` keeps fsync on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
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


class LoadError(Exception):
    """The load could not be set up (a refused match, a revision git does not know)."""


# -- the source trees and their servers ---------------------------------------------------------


@dataclass(frozen=True)
class Tree:
    """A source tree whose server the benchmark runs: this checkout, or another revision's."""

    name: str  # "this" or "other"
    root: Path
    revision: str  # for people: "5d502b5c1a-dirty", "main~5 = 1a2b3c4d5e"

    def env(self) -> dict[str, str]:
        """Our environment, with a ``PYTHONPATH`` of the tree's ``src`` alone."""
        return {**os.environ, "PYTHONPATH": str(self.root / "src")}

    def serve_options(self) -> set[str]:
        """The options its ``sengoku serve --help`` lists."""
        shown = subprocess.run(
            [sys.executable, "-m", "sengoku", "serve", "--help"],
            cwd=self.root,
            env={**self.env(), "COLUMNS": "200", "TERM": "dumb"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        if shown.returncode != 0:
            raise LoadError(f"sengoku serve --help failed in {self.revision}: {shown.stderr}")
        return set(re.findall(r"--[a-z][a-z0-9-]*", shown.stdout))


def git(*args: str) -> str:
    """What a git command in this repository prints."""
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise LoadError(f"git {' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return done.stdout.strip()


def other_tree(revision: str, directory: Path) -> Tree:
    """Another revision of the repository, extracted with ``git archive`` into ``directory``."""
    commit = git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    directory.mkdir(parents=True)
    with subprocess.Popen(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit], stdout=subprocess.PIPE
    ) as archive:
        assert archive.stdout is not None
        with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
            tar.extractall(directory, filter="data")
    if archive.returncode != 0:
        raise LoadError(f"git archive {commit} failed ({archive.returncode})")
    return Tree("other", directory, f"{revision} = {commit[:10]}")


class Server(harness.Server):
    """A tree's ``python -m sengoku serve`` in a process (and session) of its own, as in the
    tests, with ``--bot-workers 1``."""

    def __init__(
        self, db_url: str, tree: Tree, options: Sequence[str], name: str | None = None
    ) -> None:
        super().__init__(
            db_url, bot_workers=1, extra=options, cwd=tree.root, env=tree.env(), name=name
        )

    def _proc(self, name: str) -> Path:
        assert self.process is not None
        return Path(f"/proc/{self.process.pid}/{name}")

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the server process so far (Linux /proc; else None)."""
        try:
            fields = self._proc("stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_bytes(self) -> int | None:
        """The server process's resident memory now (VmRSS; Linux /proc; else None)."""
        try:
            status = self._proc("status").read_text()
        except OSError:
            return None
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return None

    def open_sockets(self) -> int | None:
        """How many of the server process's file descriptors are sockets (Linux; else None)."""
        fds = self._proc("fd")
        try:
            names = os.listdir(fds)
        except OSError:
            return None
        count = 0
        for name in names:
            with contextlib.suppress(OSError):
                count += os.readlink(fds / name).startswith("socket:")
        return count

    @property
    def returncode(self) -> int | None:
        """The server's exit status once stopped."""
        return None if self.process is None else self.process.returncode


def server_options(args: argparse.Namespace, known: set[str]) -> tuple[list[str], list[str]]:
    """The limit options the load needs that a tree's ``serve`` knows, and the names of
    those it does not know (not passed)."""
    seats = args.matches * args.players
    wanted = {
        "--messages-per-second": str(args.messages_per_second),
        "--matches-per-minute": str(max(30, args.matches) if args.hold is None else 1_000_000),
        "--max-connections": str(max(10_000, 2 * seats)),
        "--connections-per-address": str(max(256, 2 * seats)),
        "--review-iterations": "0",  # no reviews of the finished matches: not the load's
    }
    flags = ["--no-ws-compression"] if args.no_ws_compression else []
    passed = [word for name, value in wanted.items() if name in known for word in (name, value)]
    passed += [flag for flag in flags if flag in known]
    return passed, [name for name in [*wanted, *flags] if name not in known]


def raise_open_files_limit(sockets: int) -> None:
    """Raise this process's soft limit of open files to its hard limit (the servers it
    starts inherit it); warn when that leaves too little room for ``sockets``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 2 * sockets + 1024)
    if soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft < sockets + 256:
        print(
            f"warning: {soft} open files allowed (RLIMIT_NOFILE) for {sockets} sockets",
            file=sys.stderr,
        )


# -- the clients ----------------------------------------------------------------------------


@dataclass
class Pace:
    """How the seats play: how long they think, when they stop acting."""

    think: float  # the mean seconds a seat thinks before each action (exponential); 0: none
    idle_timeout: float  # seconds a seat waits for a message before it reports its match stuck
    patches: bool = True  # ask for updates as view patches (a server that predates them ignores it)
    stop_at: float = math.inf  # time.perf_counter() after which no seat acts (hold mode)
    # set once the end of the hold is measured: a stopped seat keeps its socket open till then
    released: asyncio.Event = field(default_factory=asyncio.Event)


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
    connected: bool = False  # its socket is open now


async def owner_url(url: str, token: str) -> str:
    """``url`` as the page ends up connecting to it through a proxy: with ``?at=NAME`` of the
    process that serves the match, learnt from the ``moved`` answer of another process (the
    proxy sends the probes round robin); ``url`` as it is when no process says ``moved``
    (one process, or none in front)."""
    for _attempt in range(24):  # round robin among all seats' probes: about a coin toss each
        async with connect(url, open_timeout=60, ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            first = json.loads(await ws.recv())
        if first.get("type") == "error" and first.get("code") == "moved" and first.get("at"):
            return f"{url}?at={first['at']}"
    return url


async def play_seat(
    url: str,
    token: str,
    rng: random.Random,
    stats: SeatStats,
    pace: Pace,
    ready: asyncio.Queue[None],
    go: asyncio.Event,
) -> None:
    """Play one seat at random until its match has an outcome (or the hold is over) and
    every act is answered; before each action the seat thinks (``pace``), then acts on the
    newest position. Stopped by the hold, it keeps its socket open until ``pace.released``."""
    signalled = False
    try:
        url = await owner_url(url, token)
        async with connect(url, max_size=None, open_timeout=60, ping_interval=None) as ws:
            stats.connected = True
            await ws.send(json.dumps({"type": "hello", "token": token, "patches": pace.patches}))
            latest: dict[str, Any] | None = None
            while latest is None:
                async with asyncio.timeout(pace.idle_timeout):
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
            act_at: float | None = None  # when its thinking about the newest position is over
            pending: dict[str, float] = {}  # ref -> when the act was sent
            heard = time.perf_counter()  # when the last message came
            while True:
                now = time.perf_counter()
                stopped = now >= pace.stop_at
                over = latest["outcome"] is not None
                if (over or stopped) and not pending:
                    if not over:
                        await pace.released.wait()
                    return
                # One action at a time, like a person: choose again once the last is answered.
                if over or stopped or pending or not latest["legal"]:
                    act_at = None
                elif latest["number"] != acted_on:
                    if act_at is None:
                        act_at = now + (rng.expovariate(1 / pace.think) if pace.think else 0.0)
                    if now >= act_at:
                        act_at = None
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
                idle_at = heard + pace.idle_timeout
                wake_at = min(idle_at, math.inf if act_at is None else act_at)
                if not stopped:
                    wake_at = min(wake_at, pace.stop_at)
                try:
                    async with asyncio.timeout(wake_at - now):
                        raw = await ws.recv()
                except TimeoutError:
                    if time.perf_counter() < idle_at:
                        continue  # done thinking, or the hold is over
                    stats.problem = (
                        f"nothing received for {pace.idle_timeout:g} s at action "
                        f"{latest['number']} (outcome: {'yes' if over else 'no'}, legal: "
                        f"{len(latest['legal'])}, unanswered acts: {sorted(pending, key=int)})"
                    )
                    return
                heard = now = time.perf_counter()
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
        stats.connected = False
        if not signalled:
            ready.put_nowait(None)


async def create_match(
    http: httpx.AsyncClient, bases: list[str], args: argparse.Namespace, number: int
) -> dict[str, Any]:
    """Create match ``number`` (seed ``--seed`` + number, all seats human) at ``bases``
    number mod P (the servers, or the proxy alone)."""
    body = {
        "game": args.game,
        "players": args.players,
        "seats": [{"kind": "human"} for _ in range(args.players)],
        "seed": args.seed + number,
    }
    response = await http.post(bases[number % len(bases)] + "/api/matches", json=body)
    if response.status_code != 201:
        raise LoadError(f"POST /api/matches answered {response.status_code}: {response.text}")
    return dict(response.json())


async def check_matches(
    http: httpx.AsyncClient, servers: list[Server], ids: list[tuple[str, str]]
) -> tuple[list[dict[str, Any]], Any]:
    """Each match, ``(base, id)``, as that server (its owner) or the proxy reports it now
    (``GET /api/matches/{id}``, following a redirect to its owner), and the most matches a
    server still holds in memory before those requests (``/api/health``)."""
    await asyncio.sleep(0.5)  # let the servers see the last connections close
    live = [(await http.get(s.base + "/api/health")).json().get("live") for s in servers]
    out = []
    for base, match_id in ids:
        response = await http.get(f"{base}/api/matches/{match_id}")
        out.append(response.json() if response.status_code == 200 else {"id": match_id})
    return out, max(live, key=lambda n: -1 if n is None else n)


def total(values: Iterable[float | None]) -> float | None:
    """The sum, or None when a value is unknown."""
    known = list(values)
    return None if None in known else sum(v for v in known if v is not None)


async def drive(
    servers: list[Server], args: argparse.Namespace, proxy: harness.Proxy | None = None
) -> dict[str, Any]:
    """Create the matches, play them all at once (in hold mode: keep that many open for the
    hold) and collect the figures."""
    hold: float | None = args.hold
    pace = Pace(args.think, args.idle_timeout, patches=not args.no_patches)
    rss_before = total(s.rss_bytes() for s in servers)
    matches: dict[int, dict[str, Any]] = {}
    numbers = itertools.count(args.matches)  # of the matches that replace finished ones
    seats: list[SeatStats] = []
    problems: list[str] = []
    ready: asyncio.Queue[None] = asyncio.Queue()
    go = asyncio.Event()
    # through the proxy (--proxy): matches made round robin, seats at their owners (?at=)
    bases = [proxy.base] if proxy is not None else [s.base for s in servers]
    async with httpx.AsyncClient(timeout=60, follow_redirects=True) as http:
        for number in range(args.matches):
            matches[number] = await create_match(http, bases, args, number)

        async def play(number: int) -> bool:
            """Play match ``number``'s seats; whether they all ended without a problem."""
            match, group, runs = matches[number], [], []
            for seat in match["seats"]:
                base = bases[number % len(bases)]  # its owner, which made it, or the proxy
                stats = SeatStats(number, seat["seat"])
                group.append(stats)
                rng = random.Random(f"{args.seed}/{number}/{seat['seat']}")
                url = f"{base.replace('http', 'ws', 1)}/ws/matches/{match['id']}"
                runs.append(play_seat(url, seat["token"], rng, stats, pace, ready, go))
            seats.extend(group)
            await asyncio.gather(*runs)
            return all(s.problem is None for s in group)

        async def table(number: int) -> None:
            """Play match ``number``, and in hold mode a new one after each that ends while
            the hold lasts."""
            while await play(number) and hold is not None and time.perf_counter() < pace.stop_at:
                number = next(numbers)
                try:
                    matches[number] = await create_match(http, bases, args, number)
                except (LoadError, httpx.HTTPError) as exc:
                    problems.append(f"match {number}: {exc}")
                    return

        tables = [asyncio.create_task(table(number)) for number in range(args.matches)]
        for _ in range(args.matches * args.players):
            await ready.get()
        server_cpu_start = [s.cpu_seconds() for s in servers]
        proxy_cpu_start = proxy_cpu(proxy)
        client_cpu_start = time.process_time()
        begin = time.perf_counter()
        if hold is not None:
            pace.stop_at = begin + hold
        go.set()
        if hold is not None:
            await asyncio.sleep(hold)
        else:
            await asyncio.gather(*tables)
        end = time.perf_counter()
        server_cpu_end = [s.cpu_seconds() for s in servers]
        proxy_cpu_end = proxy_cpu(proxy)
        client_cpu = time.process_time() - client_cpu_start
        rss_end = total(s.rss_bytes() for s in servers)
        seats_connected = sum(s.connected for s in seats)
        server_sockets = [s.open_sockets() for s in servers]
        pace.released.set()
        await asyncio.gather(*tables)  # hold mode: the seats stop and wait for their answers
        wind_down = time.perf_counter() - end
        numbered = sorted(matches)
        reported, live_left = await check_matches(
            http, servers, [(bases[n % len(bases)], matches[n]["id"]) for n in numbered]
        )

    starts = [s.first_sent for s in seats if s.first_sent is not None]
    finishes = [s.finished_at for s in seats if s.finished_at is not None]
    if hold is None:
        start = min(starts) if starts else end
        wall = (max(finishes) if finishes else end) - start
    else:
        wall = end - begin
    moves = sum(s.moves for s in seats)
    latencies = sorted(x for s in seats for x in s.latencies)
    errors: Counter[str] = Counter()
    accepted: Counter[int] = Counter()
    finals: dict[int, set[int | None]] = {}
    for s in seats:
        errors.update(s.errors)
        accepted[s.match] += s.moves
        finals.setdefault(s.match, set()).add(s.final_number)
    mismatches = []
    for number, info in zip(numbered, reported, strict=True):
        stored = info.get("actions")
        finished = info.get("status") == "finished"
        # In hold mode a match may stay unfinished, and a seat may stop before its end.
        if stored != accepted[number] or (
            hold is None and (not finished or finals[number] != {accepted[number]})
        ):
            mismatches.append(
                f"match {number} ({matches[number]['id']}): status {info.get('status')}, "
                f"{stored} stored actions, {accepted[number]} accepted moves, final update "
                f"numbers seen by the seats {sorted(finals[number], key=str)}"
            )
    cpu_each = [
        None if a is None or b is None else b - a
        for a, b in zip(server_cpu_start, server_cpu_end, strict=True)
    ]
    server_cpu = total(cpu_each)
    spent_by_proxy = None
    if proxy_cpu_start is not None and proxy_cpu_end is not None:
        spent_by_proxy = proxy_cpu_end - proxy_cpu_start
    finished_count = sum(1 for info in reported if info.get("status") == "finished")
    return {
        "matches_created": len(matches),
        "matches_finished": finished_count,
        "moves": moves,
        "moves_per_match": moves / len(matches) if matches else 0.0,
        "wall_seconds": wall,
        "wind_down_seconds": wind_down,
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
        "server_cpu_seconds_each": cpu_each,
        "server_cpu_ms_per_move": (
            1000 * server_cpu / moves if server_cpu is not None and moves else None
        ),
        "proxy_cpu_seconds": spent_by_proxy,
        "proxy_cpu_ms_per_move": (
            1000 * spent_by_proxy / moves if spent_by_proxy is not None and moves else None
        ),
        "client_cpu_seconds": client_cpu,
        "server_rss_mb_before": None if rss_before is None else rss_before / 1e6,
        "server_rss_mb_end": None if rss_end is None else rss_end / 1e6,
        "rss_kib_per_match": (
            None
            if rss_before is None or rss_end is None
            else (rss_end - rss_before) / 1024 / args.matches
        ),
        "seats_connected_at_end": seats_connected,
        "server_sockets_at_end": server_sockets,
        "problems": problems
        + [f"match {s.match} seat {s.seat}: {s.problem}" for s in seats if s.problem is not None],
        "mismatches": mismatches,
        "live_matches_left": live_left,
        "unfinished_matches": len(matches) - finished_count,
    }


def proxy_cpu(proxy: harness.Proxy | None) -> float | None:
    """User + system CPU time of HAProxy so far (``None`` without one)."""
    if proxy is None:
        return None
    try:
        fields = Path(f"/proc/{proxy.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


def run_load(
    tree: Tree, options: list[str], db_url: str, args: argparse.Namespace
) -> dict[str, Any]:
    """Start ``--processes`` servers of the tree on the database, drive the load, stop them;
    the figures, with the servers' exit and log."""
    servers: list[Server] = []
    proxy: harness.Proxy | None = None
    try:
        for i in range(args.processes):
            name = f"s{i + 1}" if args.proxy else None
            servers.append(Server(db_url, tree, options, name))
        if args.proxy:
            proxy = harness.Proxy(servers)
        results = asyncio.run(drive(servers, args, proxy))
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.stop()
    outputs = [server.output() for server in servers]
    for server in servers:
        server.log.unlink(missing_ok=True)
    codes = [server.returncode for server in servers]
    results["server_exit_code"] = codes[0]
    results["server_exit_codes"] = codes
    # uvicorn logs this line after a graceful shutdown (and then re-raises SIGTERM: -15)
    results["server_shutdown_graceful"] = all("Finished server process" in o for o in outputs)
    results["server_log_problems"] = [p for o in outputs for p in server_log_problems(o)][:50]
    return results


# -- main -----------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    """The command line, checked; ``--think`` resolved to its mode's default."""
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
    parser.add_argument(
        "--hold",
        type=float,
        metavar="SECONDS",
        help="hold mode: keep --matches matches open for SECONDS (a finished one is replaced)",
    )
    parser.add_argument(
        "--think",
        type=float,
        metavar="MEAN_SECONDS",
        help="a seat's mean think time before each action (exponential; default: 1 with "
        "--hold, else 0)",
    )
    parser.add_argument(
        "--compare", metavar="REV", help="run the load against git revision REV's server too"
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="--compare: runs of each side, in turns (2)"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes on one PostgreSQL database"
    )
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="HAProxy in front of the processes (PostgreSQL): matches made and seats "
        "connected through it, as `sengoku serve --processes` serves them",
    )
    parser.add_argument(
        "--no-patches", action="store_true", help="ask for whole views in every update"
    )
    parser.add_argument(
        "--no-ws-compression",
        action="store_true",
        help="start the servers with --no-ws-compression (no permessage-deflate)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.players not in get_game(args.game).player_counts:
        parser.error(f"{args.game} is for {get_game(args.game).player_counts} players")
    if args.matches < 1 or args.rounds < 1 or args.processes < 1:
        parser.error("--matches, --rounds and --processes take a whole number from 1")
    if args.hold is not None and args.hold <= 0:
        parser.error("--hold takes a number of seconds above 0")
    if (args.processes > 1 or args.proxy) and not (
        args.postgres or (args.db or "").startswith("postgresql")
    ):
        parser.error("--processes above 1 needs PostgreSQL (--postgres or --db postgresql://...)")
    if args.think is None:
        args.think = 1.0 if args.hold is not None else 0.0
    if args.think < 0:
        parser.error("--think takes a number of seconds from 0")
    return args


def main() -> None:
    args = parse_args()
    raise_open_files_limit(args.matches * args.players)
    workdir = Path(tempfile.mkdtemp(prefix="sengoku-bench-"))
    cluster: PostgresCluster | None = None
    runs: dict[str, list[dict[str, Any]]] = {}
    try:
        revision = "this checkout"
        with contextlib.suppress(LoadError):
            revision = git("describe", "--always", "--dirty", "--abbrev=10")
        trees = [Tree("this", ROOT, revision)]
        if args.compare:
            trees.append(other_tree(args.compare, workdir / "other"))
        options = {tree.name: server_options(args, tree.serve_options()) for tree in trees}
        if args.postgres:
            cluster = PostgresCluster(fsync=args.pg_fsync)
            db_label = f"postgresql (throw-away cluster, fsync={'on' if args.pg_fsync else 'off'})"
        elif args.db:
            db_label = args.db.split(":", 1)[0] + " (--db)"
        else:
            db_label = "sqlite (fresh file in a temp dir)"
        for round_number in range(args.rounds if args.compare else 1):
            for tree in trees:
                if cluster is not None:
                    db_url = cluster.new_database()
                elif args.db:
                    db_url = args.db
                else:
                    db_url = f"sqlite:///{workdir / f'{tree.name}-{round_number}.db'}"
                results = run_load(tree, options[tree.name][0], db_url, args)
                runs.setdefault(tree.name, []).append(results)
    except LoadError as exc:
        raise SystemExit(f"error: {exc}") from None
    finally:
        if cluster is not None:
            cluster.stop()
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
        "hold_seconds": args.hold,
        "think_mean_seconds": args.think,
        "processes": args.processes,
        "proxy": args.proxy,
        "server_options": options["this"][0],
    }
    if not args.compare:
        if args.json:
            out = {"info": info, "parameters": parameters, "results": runs["this"][0]}
            print(json.dumps(out, indent=2))
        else:
            report(info, parameters, runs["this"][0])
        return
    parameters["rounds"] = args.rounds
    median = {tree.name: medians(runs[tree.name]) for tree in trees}
    sides: dict[str, dict[str, Any]] = {
        tree.name: {
            "revision": tree.revision,
            "options_not_passed": options[tree.name][1],
            "median": median[tree.name],
            "rounds": runs[tree.name],
        }
        for tree in trees
    }
    ratios = {key: ratio(median["this"][key], median["other"][key]) for key in FIGURES}
    if args.json:
        out = {"info": info, "parameters": parameters, "sides": sides, "ratios": ratios}
        print(json.dumps(out, indent=2))
    else:
        compare_report(info, parameters, sides, ratios)


# -- reports --------------------------------------------------------------------------------

# The figures compare mode sets side by side: column heading, format.
FIGURES = {
    "moves_per_second": ("moves/s", ".1f"),
    "latency_p50_ms": ("p50 ms", ".1f"),
    "latency_p99_ms": ("p99 ms", ".1f"),
    "server_cpu_ms_per_move": ("CPU ms/move", ".2f"),
    "rss_kib_per_match": ("RSS KiB/match", ".0f"),
    "errors": ("errors", ".0f"),
}


def figures(r: dict[str, Any]) -> dict[str, float | None]:
    """One run's figures for compare mode."""
    return {
        "moves_per_second": r["moves_per_second"],
        "latency_p50_ms": r["latency_ms"]["p50"],
        "latency_p99_ms": r["latency_ms"]["p99"],
        "server_cpu_ms_per_move": r["server_cpu_ms_per_move"],
        "rss_kib_per_match": r["rss_kib_per_match"],
        "errors": sum(r["errors"].values()),
    }


def medians(runs: list[dict[str, Any]]) -> dict[str, float | None]:
    """Each figure's median over the runs (None where no run has it)."""
    each = [figures(r) for r in runs]
    out: dict[str, float | None] = {}
    for key in FIGURES:
        known = [v for f in each if (v := f[key]) is not None and not math.isnan(v)]
        out[key] = statistics.median(known) if known else None
    return out


def ratio(this: float | None, other: float | None) -> float | None:
    """this / other, where both are known and other is not 0."""
    return None if this is None or not other else this / other


def header(info: dict[str, Any], p: dict[str, Any]) -> None:
    """Print the machine and the load."""
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
    if p["hold_seconds"] is not None:
        print(
            f"hold mode: {p['matches']} matches open for {p['hold_seconds']:g} s (a finished "
            f"one is replaced by a new one); think time exponential, mean "
            f"{p['think_mean_seconds']:g} s"
        )
    elif p["think_mean_seconds"]:
        print(f"think time exponential, mean {p['think_mean_seconds']:g} s")
    if p.get("proxy"):
        print(
            f"{p['processes']} server processes behind HAProxy: matches created through it "
            "(round robin), each seat connected through it to the match's owner (?at=NAME)"
        )
    elif p["processes"] > 1:
        n = p["processes"]
        print(
            f"{n} server processes on one database: match i is created on process i mod {n}, "
            "and its seats connect to it, its owner"
        )


def trouble(r: dict[str, Any], hold: float | None) -> list[str]:
    """What went wrong in a run."""
    found = r["problems"] + r["mismatches"] + r["server_log_problems"]
    stayed = (r["live_matches_left"] or 0) - (0 if hold is None else r["unfinished_matches"])
    if stayed > 0:
        found.append(f"{stayed} finished matches stayed in server memory")
    if not r["server_shutdown_graceful"]:
        found.append("the server did not log a graceful shutdown after SIGTERM")
    return list(found)


def report(info: dict[str, Any], parameters: dict[str, Any], r: dict[str, Any]) -> None:
    """Print one run's figures for people."""
    p = parameters
    hold = p["hold_seconds"]
    header(info, p)
    print()
    if hold is None:
        print(f"matches finished     {r['matches_finished']} of {p['matches']}")
    else:
        print(
            f"matches              {r['matches_created']} created ({p['matches']} open at "
            f"once), {r['matches_finished']} finished"
        )
    print(f"moves accepted       {r['moves']:,} ({r['moves_per_match']:.1f} per match)")
    if hold is None:
        print(
            f"wall time            {r['wall_seconds']:.2f} s (first action to last match finished)"
        )
    else:
        print(
            f"hold                 {r['wall_seconds']:.2f} s (then {r['wind_down_seconds']:.2f}"
            " s until every seat had its answers and closed)"
        )
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
        each = r["server_cpu_seconds_each"]
        parts = f" = {' + '.join(f'{c:.1f}' for c in each)} s" if len(each) > 1 else ""
        print(
            f"CPU                  server {r['server_cpu_seconds']:.1f} s{parts} "
            f"({100 * r['server_cpu_seconds'] / wall:.0f}% of a core), client "
            f"{r['client_cpu_seconds']:.1f} s ({100 * r['client_cpu_seconds'] / wall:.0f}%)"
        )
    else:
        print(f"CPU                  client {r['client_cpu_seconds']:.1f} s")
    if r.get("proxy_cpu_seconds") is not None:
        print(
            f"CPU of HAProxy       {r['proxy_cpu_seconds']:.1f} s, "
            f"{r['proxy_cpu_ms_per_move']:.2f} ms per move"
        )
    if hold is not None:
        if r["server_cpu_ms_per_move"] is not None:
            print(f"server CPU per move  {r['server_cpu_ms_per_move']:.2f} ms")
        if r["rss_kib_per_match"] is not None:
            print(
                f"server memory        RSS {r['server_rss_mb_before']:.1f} MB before the "
                f"matches, {r['server_rss_mb_end']:.1f} MB at the end of the hold: "
                f"{r['rss_kib_per_match']:.0f} KiB per match"
            )
        sockets = " + ".join(str(n) for n in r["server_sockets_at_end"])
        print(
            f"open sockets         {r['seats_connected_at_end']:,} seats connected at the end "
            f"of the hold; the server's socket descriptors: {sockets}"
        )
    graceful = "graceful shutdown" if r["server_shutdown_graceful"] else "NO graceful shutdown"
    stays = "finished ones leave" if hold is None else f"{r['unfinished_matches']} unfinished"
    print(f"matches in memory    {r['live_matches_left']} after the run ({stays})")
    codes = ", ".join(str(code) for code in r["server_exit_codes"])
    print(f"server exit          code {codes}, {graceful}")
    found = trouble(r, hold)
    if not found:
        done = "finished" if hold is None else "(finished or not)"
        print(f"checks               every match {done} with its moves stored; clean log")
        return
    print()
    print("PROBLEMS:")
    for line in found:
        print(f"  {line}")


def compare_report(
    info: dict[str, Any],
    parameters: dict[str, Any],
    sides: dict[str, dict[str, Any]],
    ratios: dict[str, float | None],
) -> None:
    """Print compare mode's figures for people: each run, the medians, the ratios."""
    hold = parameters["hold_seconds"]
    header(info, parameters)
    for name, side in sides.items():
        lacks = side["options_not_passed"]
        note = f" (its serve lacks {', '.join(lacks)}: not passed)" if lacks else ""
        print(f"{name:<6} {side['revision']}{note}")
    print()
    keys = [key for key in FIGURES if key != "rss_kib_per_match" or hold is not None]

    def row(label: str, values: dict[str, float | None], spec: str | None = None) -> None:
        cells = (
            "-" if (v := values[key]) is None else format(v, spec or FIGURES[key][1])
            for key in keys
        )
        print(f"{label:<16}" + "".join(f"{cell:>14}" for cell in cells))

    print(f"{'run':<16}" + "".join(f"{FIGURES[key][0]:>14}" for key in keys))
    for number in range(parameters["rounds"]):
        for name, side in sides.items():
            row(f"{number + 1} {name}", figures(side["rounds"][number]))
    for name, side in sides.items():
        row(f"median {name}", side["median"])
    row("this/other", ratios, ".2f")
    found = [
        f"round {number + 1} {name}: {line}"
        for name, side in sides.items()
        for number, r in enumerate(side["rounds"])
        for line in trouble(r, hold)
    ]
    if not found:
        print("checks          every run's moves stored; clean logs")
        return
    print()
    print("PROBLEMS:")
    for line in found:
        print(f"  {line}")


if __name__ == "__main__":
    main()
