"""A sweep on a local multi-process Dask cluster (issue 38, sweeps beyond one machine): each point placed by its
memory estimate, refused where it cannot fit, and a worker killed mid-sweep loses no point stored nor hangs it."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

import pytest

from pacesim import memory
from pacesim.store import Store
from pacesim.sweep import Sweep, run_sweep

from .test_kill import _count_ok, _ok_rows

distributed = pytest.importorskip("distributed")

SHORT = ["duration=1s", "warmup=0.5s", 'traffic.start=["0s", "0.5s"]']
"""E-base's points run for 1 s: about 0.1 s of engine time at 100 flows."""


SLACK = 0.05
"""Seconds by which a worker's task stream times may shift between two tasks (its clock offset, re-measured)."""


def _cluster(**kwargs):
    return distributed.LocalCluster(processes=True, dashboard_address=None, silence_logs=logging.CRITICAL, **kwargs)


def _needs(sweep: Sweep) -> list:
    """Each point's estimated memory, bytes, in point order (as `executors.submit` weighs it)."""
    return [memory.estimate(sweep.point(i, engine=False).scenario).total for i in range(sweep.size)]


def test_a_point_larger_than_its_worker_fails_naming_the_worker(tmp_path):
    # The machine has GBs free, the worker 400 MB (its nanny kills it past 95 %): the 60,000-flow point
    # (estimated 608 MB) must fail on the worker's limit, not run until its nanny kills it.
    sweep = Sweep(name="limit", axes={"flows": [100, 60_000]}, seeds=[1], set=SHORT)
    small, large = _needs(sweep)
    assert small < 200e6 < 400e6 < large < memory.available_bytes()
    with _cluster(n_workers=1, threads_per_worker=1, memory_limit="400MB") as cluster, \
            distributed.Client(cluster) as client, Store(tmp_path) as store:
        run = run_sweep(sweep, store, client.get_executor(pure=False), progress=False)
        (worker,) = client.scheduler_info()["workers"]
        points = store.points("limit").set_index("flows")
    assert (run.ran, run.failed) == (2, 1)
    assert points.loc[100, "status"] == "ok"
    assert points.loc[60_000, "status"] == "failed"
    assert "more than the limit (400 MB)" in points.loc[60_000, "error"]
    assert points.loc[60_000, "error"].endswith(f"(Dask worker {worker}'s memory)")


def test_points_are_placed_by_their_memory_resource(tmp_path):
    # One worker of two threads declaring MEMORY=300MB: the two 1,000-flow points (168 MB each, 30 s: about
    # 0.3 s of engine time) fit one at a time, never together; the 20,000-flow ones (339 MB) fit no worker and
    # fail at once, never submitted (Dask would hold them forever waiting for a worker with the room).
    sweep = Sweep(name="placed", axes={"flows": [1000, 20_000]}, seeds=[1, 2],
                  set=["duration=30s", *SHORT[1:]])
    needs = _needs(sweep)
    assert max(needs[:2]) <= 300e6 < sum(needs[:2]) and min(needs[2:]) > 300e6
    with _cluster(n_workers=1, threads_per_worker=2, resources={"MEMORY": 300e6}) as cluster, \
            distributed.Client(cluster) as client, Store(tmp_path) as store, \
            distributed.get_task_stream(client) as stream:
        run = run_sweep(sweep, store, client.get_executor(pure=False), progress=False)
        points = store.points("placed")
    assert (run.ran, run.failed) == (4, 2)
    failed = points[points["status"] == "failed"]
    assert sorted(failed["flows"]) == [20_000, 20_000]
    for error in failed["error"]:
        assert "needs an estimated 339 MB of memory, more than any Dask worker's MEMORY resource (the " \
               "largest: 300 MB, of 1 workers); not run" in error
    computed = sorted((s["start"], s["stop"]) for task in stream.data if task["key"].startswith("simulate")
                      for s in task["startstops"] if s["action"] == "compute")
    assert len(computed) == 2  # the refused points never reached a worker
    (start, stop), (later, _) = computed
    # One after the other: the second starts once the first stops, but for the worker's clock offset, which its
    # task stream adds to each time and updates at each heartbeat (tens of ms on a loaded machine: 73 ms seen);
    # both at once, the second would start within that of the first. So the second must start in the later
    # half of the first's computation or after it, which the first's 4 x SLACK or more makes unambiguous.
    assert stop - start > 4 * SLACK and later > (start + stop) / 2, computed


@pytest.mark.parametrize("allowed_failures", [3, 0])
def test_a_worker_killed_mid_sweep_loses_nothing_stored_nor_hangs(tmp_path, allowed_failures):
    # Two single-threaded workers, one stopped (SIGSTOP) before the sweep: the points the scheduler gives it
    # stay in flight there while the other worker runs the rest; then it is killed (SIGKILL, as the OOM killer
    # does). Dask reruns its points on the other worker (or on the one its nanny restarts), up to its
    # allowed-failures (3 by default), past which they fail (KilledWorker): either way the sweep ends, and the
    # rows stored before the kill are untouched.
    import dask

    sweep = Sweep(name="killed", axes={"core.buffer": ["5KB", "10KB", "20KB"]}, seeds=[1, 2],
                  set=["topology.edges=2", "topology.hosts_per_edge=2", *SHORT])
    db = tmp_path / "pacesim.sqlite"
    with dask.config.set({"distributed.scheduler.allowed-failures": allowed_failures}), \
            _cluster(n_workers=2, threads_per_worker=1, memory_limit="1GB") as cluster, \
            distributed.Client(cluster) as client, Store(tmp_path) as store:
        pids = client.run(os.getpid)
        held = sorted(pids)[0]
        os.kill(pids[held], signal.SIGSTOP)
        seen = {}

        def kill_once_the_rest_are_done() -> None:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                holding = len(client.processing().get(held, ()))
                done = _count_ok(db)
                if holding and done + holding == sweep.size:
                    seen.update(holding=holding, before=_ok_rows(db))
                    break
                time.sleep(0.05)
            os.kill(pids[held], signal.SIGKILL)

        killer = threading.Thread(target=kill_once_the_rest_are_done)
        killer.start()
        t0 = time.monotonic()
        run = run_sweep(sweep, store, client.get_executor(pure=False), progress=False)
        killer.join()
        assert time.monotonic() - t0 < 60
        assert seen["holding"] >= 1, "the stopped worker held no point"
        lost = seen["holding"] if allowed_failures == 0 else 0
        assert (run.ran, run.failed) == (6, lost)
        before = seen["before"]
        assert len(before) == 6 - seen["holding"]
        after = _ok_rows(db).set_index("key")
        assert len(after) == 6 - lost
        assert after.loc[before["key"]].reset_index().equals(before)  # untouched by the kill
        points = store.points("killed")
        for error in points.loc[points["status"] == "failed", "error"]:
            assert error.startswith("KilledWorker: "), error
