"""Routing to the process that serves a match: the reverse proxy's configuration (HAProxy), and
``sengoku serve --processes N``, which starts N server processes and the proxy on one machine.

Clients keep one address, the proxy's. It sends each request to any living process (round
robin), except one that names a process with ``?at=NAME``: that one goes to the process
called ``NAME`` while it lives. A process asked for a running match that another living
process owns answers with that owner's name (``owners.MovedError``): an HTTP request is redirected
(``307``, the same path with ``?at=NAME``; the browser follows it by itself), a WebSocket gets
a ``moved`` error naming it and is closed (4307), and the page connects again there. When a
process dies, the proxy's health checks (every half second) stop sending it anything, and
requests that name it go to the others, one of which takes its matches once its lease has
run out (docs/deploy.md).

>>> print(haproxy_config("127.0.0.1:8000", [("s1", "127.0.0.1:8001")]))  # doctest: +ELLIPSIS
global
...
backend sengoku
    balance roundrobin
    option httpchk GET /api/health/process
    use-server s1 if { urlp(at) -m str s1 }
    server s1 127.0.0.1:8001 check inter 500ms fall 2 rise 1
<BLANKLINE>
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import multiprocessing
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from .settings import ServerSettings

__all__ = ["ProcessGroup", "haproxy_config"]

log = logging.getLogger("sengoku.server")


def haproxy_config(listen: str, processes: Sequence[tuple[str, str]], check_ms: int = 500) -> str:
    """An HAProxy configuration that listens at ``listen`` (``host:port``) and routes to
    ``processes``, ``(name, host:port)`` each, as the module docs say: ``?at=NAME`` to that
    process while its health check passes, anything else round robin; a request whose
    process does not answer is sent to another (``redispatch``)."""
    lines = [
        "global",  # the most connections: as many as the open-file limit allows (ulimit -n)
        "    log stderr format short local0 notice",
        "",
        "defaults",
        "    mode http",
        "    option forwardfor",  # the client's address, for the rate limits (--trusted-proxy)
        "    option redispatch",
        "    retries 3",
        "    timeout connect 1s",
        "    timeout client 1h",
        "    timeout server 1h",
        "    timeout tunnel 1h",  # an open WebSocket
        "    timeout http-request 10s",
        "",
        "frontend sengoku",
        f"    bind {listen}",
        "    default_backend sengoku",
        "",
        "backend sengoku",
        "    balance roundrobin",
        "    option httpchk GET /api/health/process",
    ]
    lines += [f"    use-server {name} if {{ urlp(at) -m str {name} }}" for name, _ in processes]
    lines += [
        f"    server {name} {address} check inter {check_ms}ms fall 2 rise 1"
        for name, address in processes
    ]
    return "\n".join(lines) + "\n"


def _serve_one(settings: ServerSettings, host: str, port: int, ws_compression: bool) -> None:
    """One server process of the group (in a process of its own), as ``sengoku serve`` runs
    one, logging warnings only (HAProxy's health checks would fill the log)."""
    from .app import create_app, run

    run(create_app(settings), settings, host, port, ws_compression, log_level="warning")


class ProcessGroup:
    """``count`` server processes on loopback ports from ``first_port`` on, named ``s1`` …,
    and HAProxy in front of them at ``host:port``; a process that dies is started again (a
    new owner: the others have taken its matches meanwhile).

    Raises :class:`ValueError` for SQLite (one process only) or a missing ``haproxy``.
    """

    def __init__(
        self,
        settings: ServerSettings,
        count: int,
        host: str,
        port: int,
        first_port: int,
        ws_compression: bool = True,
        haproxy: str | None = None,
    ) -> None:
        if not settings.database_url.startswith(("postgresql://", "postgresql+psycopg://")):
            raise ValueError(
                "several server processes share one PostgreSQL database: give "
                "--db postgresql://USER@HOST/DB (SQLite serves one process; leave out "
                "--processes)"
            )
        found = haproxy or shutil.which("haproxy")
        if found is None:
            raise ValueError(
                "--processes needs HAProxy in front of the processes: apt-get install haproxy"
            )
        self.haproxy = found
        self.count = count
        self.host, self.port, self.first_port = host, port, first_port
        self.ws_compression = ws_compression
        trusted = (*settings.trusted_proxies, "127.0.0.1")
        self.settings = [
            dataclasses.replace(
                settings,
                process_name=f"s{i + 1}",
                process_address=f"127.0.0.1:{first_port + i}",
                trusted_proxies=trusted,
            )
            for i in range(count)
        ]
        self.processes: list[BaseProcess | None] = [None] * count
        self.proxy: subprocess.Popen[bytes] | None = None
        self.dir = Path(tempfile.mkdtemp(prefix="sengoku-proxy-"))
        self.stopping = False

    def config(self) -> str:
        """The proxy's configuration."""
        members = [(s.process_name, s.process_address) for s in self.settings]
        return haproxy_config(f"{self.host}:{self.port}", members)

    def _start(self, i: int) -> None:
        context = multiprocessing.get_context("spawn")
        process = context.Process(
            target=_serve_one,
            args=(self.settings[i], "127.0.0.1", self.first_port + i, self.ws_compression),
            name=self.settings[i].process_name,
        )
        process.start()
        self.processes[i] = process

    def start(self) -> None:
        """Start the processes and the proxy (checking its configuration first)."""
        path = self.dir / "haproxy.cfg"
        path.write_text(self.config())
        subprocess.run([self.haproxy, "-c", "-q", "-f", str(path)], check=True)
        for i in range(self.count):
            self._start(i)
        self.proxy = subprocess.Popen([self.haproxy, "-db", "-f", str(path)])

    def watch(self) -> None:
        """Start again every process that died, until :meth:`stop` (or a signal)."""
        while not self.stopping:
            time.sleep(0.5)
            for i, process in enumerate(self.processes):
                if process is not None and not process.is_alive() and not self.stopping:
                    code = process.exitcode
                    log.warning("server process s%d ended (%s); starting it again", i + 1, code)
                    self._start(i)
            if self.proxy is not None and self.proxy.poll() is not None and not self.stopping:
                raise RuntimeError(f"HAProxy ended ({self.proxy.returncode})")

    def stop(self, *_args: Any) -> None:
        """Stop the processes gently (each hands its matches over), then the proxy."""
        self.stopping = True
        for process in self.processes:
            if process is not None and process.is_alive():
                process.terminate()
        for process in self.processes:
            if process is not None:
                process.join(20)
                if process.is_alive():
                    process.kill()
        if self.proxy is not None:
            self.proxy.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proxy.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)
