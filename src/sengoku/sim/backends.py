"""Where games are played: this process, a pool of local processes, or Ray.

A backend takes :class:`~sengoku.sim.runner.Chunk` s of games and gives back their results
in the order of the chunks. Each game carries its own seeds, so every backend gives the same
results for the same run. Open one as a context manager::

    with open_backend("ray", jobs=0, address="head-node:6379") as backend:
        for results in backend.map(chunks):
            ...

Ray is an optional extra (``pip install -e '.[ray]'``) and is imported only when the Ray
backend opens. Without an address it starts a Ray on this machine and shuts it down when the
backend closes; with one (``HOST:PORT`` of the head node, or ``auto`` for the cluster that
``ray start`` began here) it connects to that cluster, whose nodes must have Sengoku
installed. A Ray session this process already holds is used as it is and left open.
"""

from __future__ import annotations

import enum
import logging
import multiprocessing
import os
import socket
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from types import ModuleType, TracebackType
from typing import Any, Protocol, Self

from sengoku.collector import tune_collector
from sengoku.core import SengokuError, registry_targets

from .runner import Chunk, GameResult, ensure_registered, play_chunk


class BackendName(enum.StrEnum):
    """The backends :func:`open_backend` knows."""

    LOCAL = "local"
    RAY = "ray"


class BackendError(SengokuError, RuntimeError):
    """A backend cannot be used: an unknown name, or Ray missing or unreachable."""


class Backend(Protocol):
    """Plays chunks of games somewhere and yields each chunk's results in order."""

    @property
    def workers(self) -> int:
        """How many games it plays at once (processes, or cluster CPUs)."""
        ...

    def map(self, chunks: Sequence[Chunk]) -> Iterator[list[GameResult]]:
        """The results of each chunk, in the order of ``chunks``."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None: ...


class LocalBackend:
    """This process for one worker, else a pool of spawned processes on this machine.

    >>> from sengoku.sim.runner import Chunk
    >>> chunk = Chunk("shitenno", 2, ("random", "random"), {}, 0, 0, 2, False)
    >>> with LocalBackend(1) as backend:
    ...     [r.seed for results in backend.map([chunk]) for r in results]
    [0, 1]
    """

    def __init__(self, jobs: int = 1) -> None:
        self._workers = jobs if jobs > 0 else os.cpu_count() or 1

    @property
    def workers(self) -> int:
        return self._workers

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        return None

    def map(self, chunks: Sequence[Chunk]) -> Iterator[list[GameResult]]:
        if self._workers <= 1 or len(chunks) <= 1:
            for chunk in chunks:
                yield play_chunk(chunk)
            return
        with ProcessPoolExecutor(
            max_workers=min(self._workers, len(chunks)),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(registry_targets(),),
        ) as pool:
            yield from pool.map(play_chunk, chunks)


def _start_worker(targets: Mapping[str, str]) -> None:
    """What a worker process of the local pool does first: set its garbage collector for
    playing games (:mod:`sengoku.collector`) and learn the parent's games."""
    tune_collector()
    ensure_registered(targets)


#: How long :func:`_check_listening` waits for a Ray head to answer (Ray itself waits minutes).
CONNECT_TIMEOUT = 10.0


def _check_listening(address: str) -> None:
    """Refuse at once a Ray address ``HOST:PORT`` (or ``ray://HOST:PORT``) where nothing
    listens, instead of waiting for Ray's own connection timeouts; other forms (``auto``)
    are left to Ray.

    >>> _check_listening("auto")
    >>> _check_listening("127.0.0.1:1")
    Traceback (most recent call last):
    ...
    sengoku.sim.backends.BackendError: nothing answers at 127.0.0.1:1 (connection refused): \
is a Ray head running there? (ray start --head)
    """
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        why = "connection refused" if isinstance(exc, ConnectionRefusedError) else str(exc)
        raise BackendError(
            f"nothing answers at {address} ({why}): is a Ray head running there? (ray start --head)"
        ) from None


def import_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`BackendError` that says how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError(
            "the Ray backend needs Ray, which is not installed: pip install -e '.[ray]'"
        ) from None
    return ray


def _play_remotely(targets: dict[str, str], chunk: Chunk) -> list[GameResult]:
    """What a Ray task runs: register the driver's games, then play the chunk."""
    ensure_registered(targets)
    return play_chunk(chunk)


class RayBackend:
    """Ray tasks, one per chunk, on a Ray of this machine or on a cluster.

    ``jobs`` is the number of CPUs of a Ray started here (0: every core); on a cluster or
    in a Ray session already open, it caps how many chunks run at once (0: one per CPU of the
    cluster). Where the run may use every CPU, twice as many chunks as CPUs are in flight so
    that none waits for work; under a cap, exactly ``jobs``.
    """

    def __init__(self, jobs: int = 0, address: str | None = None) -> None:
        self._jobs = jobs
        self._address = address
        self._ray: ModuleType | None = None
        self._started = False
        self._remote: Any = None
        self._workers = max(jobs, 1)
        self._window = self._workers

    @property
    def workers(self) -> int:
        return self._workers

    def __enter__(self) -> Self:
        ray = import_ray()
        if not ray.is_initialized():
            local = self._address is None
            if not local:
                _check_listening(str(self._address))
            try:
                ray.init(
                    address="local" if local else self._address,
                    num_cpus=(self._jobs or os.cpu_count() or 1) if local else None,
                    include_dashboard=False if local else None,
                    logging_level=logging.ERROR,
                    log_to_driver=False,
                )
            except (ConnectionError, ValueError, RuntimeError) as exc:
                where = "a local Ray" if local else f"the Ray cluster at {self._address}"
                raise BackendError(f"cannot start or reach {where}: {exc}") from None
            self._started = True
        self._ray = ray
        cpus = max(int(ray.cluster_resources().get("CPU", 1)), 1)
        self._workers = min(self._jobs, cpus) if self._jobs > 0 else cpus
        self._window = 2 * cpus if self._workers == cpus else self._workers
        self._remote = ray.remote(_play_remotely)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._started and self._ray is not None:
            self._ray.shutdown()
        self._started = False
        self._ray = None

    def map(self, chunks: Sequence[Chunk]) -> Iterator[list[GameResult]]:
        ray = self._ray
        if ray is None:
            raise BackendError("open the Ray backend (with RayBackend(...) as backend) first")
        targets = ray.put(registry_targets())
        remote = self._remote

        def submit(chunk: Chunk) -> Any:
            return remote.remote(targets, chunk)

        pending: deque[Any] = deque()
        queued = iter(chunks)
        for chunk in queued:
            pending.append(submit(chunk))
            if len(pending) >= self._window:
                break
        while pending:
            results: list[GameResult] = ray.get(pending.popleft())
            following = next(queued, None)
            if following is not None:
                pending.append(submit(following))
            yield results


def play_chunks(
    backend: str | Backend,
    jobs: int,
    address: str | None,
    chunks_for: Callable[[int], list[Chunk]],
) -> Iterator[GameResult]:
    """Play the chunks ``chunks_for(workers)`` makes and yield their results in order.

    ``backend`` is a name for :func:`open_backend` (opened here with ``jobs`` and ``address``,
    closed at the end) or an open :class:`Backend`, used as it is.
    """
    if isinstance(backend, str):
        with open_backend(backend, jobs, address) as opened:
            yield from play_chunks(opened, jobs, address, chunks_for)
        return
    for results in backend.map(chunks_for(backend.workers)):
        yield from results


def open_backend(name: str, jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``), to open with ``with``.

    >>> open_backend("local", 2).workers
    2
    >>> open_backend("slurm")
    Traceback (most recent call last):
    ...
    sengoku.sim.backends.BackendError: unknown backend 'slurm'; known backends: local, ray
    """
    if name == BackendName.LOCAL:
        if address is not None:
            raise BackendError("--address is for the Ray backend; the local one has none")
        return LocalBackend(jobs)
    if name == BackendName.RAY:
        return RayBackend(jobs, address)
    known = ", ".join(b.value for b in BackendName)
    raise BackendError(f"unknown backend {name!r}; known backends: {known}")
