"""Test set-up: the test-only game is registered beside the real ones; a local Ray for the
tests that need one."""

from __future__ import annotations

import logging
from collections.abc import Iterator

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
