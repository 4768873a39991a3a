"""Test set-up: the test-only game is registered beside the real ones; a local Ray and a
PostgreSQL server for the tests that need them."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from sengoku.core import register
from tests.toygame import Auction

register("auction", Auction())


@pytest.fixture
def ray_cluster() -> Iterator[str]:
    """A Ray of 2 CPUs started by this test process, for this test alone; its address for
    other drivers. (Ray is imported here only: the lowest-versions job has none.)"""
    import ray

    assert not ray.is_initialized()
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.ERROR,
        log_to_driver=False,
    )
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A real PostgreSQL server for this test process (``.ci/run`` installs PostgreSQL), a
    ``tests.server.harness.PostgresCluster``: the server's tests and the browser's. (Imported
    here only: the lowest-versions job has no server extra.)"""
    from tests.server.harness import PostgresCluster

    cluster = PostgresCluster()
    yield cluster
    cluster.stop()
