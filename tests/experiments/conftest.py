"""Shared fixtures: tiny E-base sweeps (2 edges x 5 hosts, 20 s runs) and one stored run of them."""

from __future__ import annotations

import pytest

from pacesim.store import Store
from pacesim.sweep import Sweep, executor, run_sweep

TINY = ["topology.edges=2", "topology.hosts_per_edge=5", "duration=20s", "warmup=5s"]


def tiny_sweep(name: str = "tiny", **axes) -> Sweep:
    """2 buffers x 2 schemes x 2 seeds, or the given axes x 2 seeds."""
    axes = axes or {"core.buffer": ["3KB", "10KB"], "pacing.scheme": ["none", "edge"]}
    return Sweep(name=name, axes=axes, seeds=[1, 2], set=TINY)


@pytest.fixture(scope="session")
def pool():
    with executor(workers=2) as ex:
        yield ex


@pytest.fixture(scope="session")
def tiny_store(tmp_path_factory, pool):
    """A store holding the tiny sweep, run once with the local pool."""
    root = tmp_path_factory.mktemp("results")
    with Store(root) as store:
        first = run_sweep(tiny_sweep(), store, pool, progress=False)
        yield store, first
