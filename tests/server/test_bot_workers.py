"""The bots' worker processes end with their server, however it ends: a server killed
outright (SIGKILL, no time to shut its pool down) leaves no worker behind, and one stopped
with SIGTERM, as a service manager stops it, ends as cleanly as after Ctrl+C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from .harness import Server


def _workers(server_pid: int) -> list[int]:
    """The pids of the bot workers (spawned processes) a server started."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == server_pid and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _bots_played(server: Server) -> list[int]:
    """Let bots play a few moves on ``server`` (so its pool has its workers); their pids."""
    assert server.process is not None
    made = server.create("shitenno", 3, ["easy", "easy", "easy"], seed=1)
    deadline = time.monotonic() + 60
    while server.get(f"/api/matches/{made['id']}").json()["actions"] < 3:
        assert time.monotonic() < deadline, "the bots did not play"
        time.sleep(0.2)
    workers = _workers(server.process.pid)
    assert workers
    return workers


def test_a_killed_servers_bot_workers_end_too(tmp_path: Path) -> None:
    """Bots have played (so the pool has its workers); the server alone is killed with
    SIGKILL; within seconds none of its workers is left."""
    server = Server(f"sqlite:///{tmp_path / 'sengoku.db'}", bot_workers=2)
    try:
        workers = _bots_played(server)
        assert server.process is not None
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(10)
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        server.stop()


def test_a_server_stopped_with_sigterm_leaves_nothing_behind(tmp_path: Path) -> None:
    """Bots have played; SIGTERM to the server alone: it shuts down, exits with 143 (128 +
    SIGTERM), its workers end, and Python's resource tracker finds no semaphore leaked."""
    server = Server(f"sqlite:///{tmp_path / 'sengoku.db'}", bot_workers=2)
    try:
        workers = _bots_played(server)
        assert server.process is not None
        os.kill(server.process.pid, signal.SIGTERM)
        assert server.process.wait(20) == 128 + signal.SIGTERM
        time.sleep(0.5)  # the resource tracker speaks when the last user of it is gone
        output = server.output()
        assert "Application shutdown complete" in output
        assert "leaked" not in output and "Traceback" not in output, output[-2000:]
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        server.stop()


def test_a_worker_whose_server_is_gone_before_it_started_ends_too() -> None:
    """A worker that finishes starting after its server is gone (a server stopped just as it
    started a worker) ends at once instead of waiting for work forever."""
    code = (
        "import time; from sengoku.server.bots import _leave_with; "
        "_leave_with(-1); time.sleep(60); raise SystemExit(3)"  # -1: never its parent
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=30)  # not the 60 s sleep
    assert done.returncode == 0
