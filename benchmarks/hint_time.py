"""How long a hint takes on a real server: from asking to the answer, as a player waits.

``python benchmarks/hint_time.py --workers 2``

Starts ``python -m sengoku serve`` on a fresh SQLite file with ``--workers`` bot workers, and
for each game a 4-player match of one person and three ``easy`` bots. The person's seat asks
for a hint at each of its first ``--hints`` decisions (then plays the first option), and the
script prints the wall time from the question to the answer: median and largest, per game,
and how many iterations the hint's searches made in all (on the server each of them stops
at :data:`~sengoku.ai.advisor.HINT_TIME_LIMIT`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hints", type=int, default=12)
    parser.add_argument("--games", default="rising_sun,shitenno,shogun")
    args = parser.parse_args()
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="sengoku-hints-"))
    command = [sys.executable, "-m", "sengoku", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{folder / 'db.sqlite'}", "--bot-workers", str(args.workers)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/health").status_code == 200:
                    break
            time.sleep(0.1)
        for game in args.games.split(","):
            print(json.dumps(measure(base, port, game, args.hints)), flush=True)
    finally:
        server.terminate()
        server.wait(30)


def measure(base: str, port: int, game: str, hints: int) -> dict[str, object]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 3
    made = httpx.post(
        base + "/api/matches", json={"game": game, "players": 4, "seats": seats, "seed": 7}
    ).json()
    token = made["seats"][0]["token"]
    waits: list[float] = []
    iterations: list[int] = []
    with connect(f"ws://127.0.0.1:{port}/ws/matches/{made['id']}", max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        latest = None
        while len(waits) < hints:
            message = json.loads(ws.recv(120))
            if message["type"] in ("welcome", "update"):
                latest = message
            if latest is None or not latest["legal"] or latest.get("outcome"):
                if latest is not None and latest.get("outcome"):
                    break
                continue
            asked = time.perf_counter()
            ws.send(json.dumps({"type": "hint", "ref": "h"}))
            while (answer := json.loads(ws.recv(120))).get("ref") != "h":
                pass
            waits.append(time.perf_counter() - asked)
            iterations.append(answer.get("iterations", 0))
            choice = (
                answer["options"][0]["action"]["notation"]
                if answer["type"] == "hint"
                else (latest["legal"][0]["notation"])
            )
            ws.send(json.dumps({"type": "act", "action": choice, "expect": latest["number"]}))
            latest = None
    return {
        "game": game,
        "hints": len(waits),
        "median_s": round(statistics.median(waits), 2),
        "max_s": round(max(waits), 2),
        "median_iterations": statistics.median(iterations),
    }


if __name__ == "__main__":
    main()
