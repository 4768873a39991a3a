"""Fixtures: a PostgreSQL cluster per test process, and servers on SQLite or PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Person, PostgresCluster, Proxied, Server

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], str]:
    """Makes an empty database of a backend and returns its URL."""

    def make(backend: str) -> str:
        if backend == "sqlite":
            return f"sqlite:///{tmp_path / 'sengoku.db'}"
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        return cluster.new_database()

    return make


def backend_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, **options: Any
) -> Iterator[Server]:
    """A server on the backend the fixture's parameter names (``options`` as for
    :class:`Server`; ``proxied``: two PostgreSQL processes behind HAProxy, :class:`Proxied`),
    stopped at the end; its output must hold no traceback."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'sengoku.db'}"
    else:
        url = request.getfixturevalue("postgres").new_database()
    if request.param == "proxied":  # two processes behind HAProxy, reached through it
        srv: Any = Proxied(url, **{"bot_workers": 2, **options})
    else:
        srv = Server(url, **{"bot_workers": 2, **options})
    yield srv
    srv.stop()
    assert "Traceback" not in srv.output(), srv.output()[-4000:]


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One server per backend, shared by a module's tests."""
    yield from backend_server(request, tmp_path_factory)


@pytest.fixture
def person() -> Iterator[Callable[[Server], Person]]:
    """Makes a person's browser (:class:`Person`) for a server; all are closed afterwards."""
    made: list[Person] = []

    def make(server: Server) -> Person:
        made.append(Person(server))
        return made[-1]

    yield make
    for browser in made:
        browser.close()
