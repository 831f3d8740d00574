"""Where a sweep's points run: any `concurrent.futures.Executor`, made by `executor` (a local process pool,
`pool.Pool`, or a Dask cluster's executor), each point by `simulate` in the worker that takes it; and the
signals held while a cluster starts or stops, or while points are made and stored (`interrupts_deferred`)."""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from typing import Dict, Iterator, List, Optional, Tuple

from ..memory import estimate
from ..pool import Pool
from ..scenario import ScenarioError, parse_scenario
from .definition import SweepError


def simulate(scenario: dict, max_memory: Optional[int] = None) -> dict:
    """Run one point (a scenario in human units) where the executor puts it, refused if its estimated memory
    exceeds `max_memory` bytes (default: the memory available there), as `pacesim run` refuses a run; on a Dask
    worker, nor more than the worker's own memory (`worker_memory`), which its nanny enforces by killing it.

    Returns the report, wall time and host, or the error: a worker never raises
    for a bad point, so every executor reports failures the same way.
    """
    from ..engine import run

    worker = worker_memory()
    limit = max_memory if worker is None or (max_memory is not None and max_memory <= worker[1]) else worker[1]
    try:
        # The pool's workers are the parallelism: one thread each.
        r = run(parse_scenario(scenario, max_memory=limit), threads=1, max_memory=limit)
    except Exception as e:  # invalid, or the engine failed (an engine panic is a RuntimeError with its message)
        bound = isinstance(e, ScenarioError) and worker is not None and limit == worker[1]  # a refusal by its memory
        where = f" (Dask worker {worker[0]}'s memory)" if bound else ""
        return {"error": f"{type(e).__name__}: {e}{where}", "host": socket.gethostname()}
    return {"report": r.report, "wall_s": r.wall_s, "host": socket.gethostname()}


MEMORY = "MEMORY"
"""The Dask resource, in bytes, by which a sweep places its points: a worker started with `--resources
MEMORY=<bytes>` takes points whose estimated memory (`memory.estimate`) sums to at most that at once."""


def worker_memory() -> Optional[Tuple[str, int]]:
    """The Dask worker running this (its address) and the bytes a point may take there: its MEMORY resource if
    it declares one, else its memory limit (past 95 % of which its nanny kills it); None outside a Dask worker
    or on one with neither."""
    if "distributed" not in sys.modules:  # a local pool's worker: never a Dask worker, and Dask not imported
        return None
    from distributed import get_worker

    try:
        w = get_worker()
    except ValueError:  # not in a Dask worker's task
        return None
    limit = w.state.total_resources.get(MEMORY) or w.memory_manager.memory_limit
    return (w.address, int(limit)) if limit else None


def memory_room(pool: Executor) -> Optional[Dict[str, int]]:
    """The MEMORY resource (bytes) each worker of a Dask executor declares, by address; None for any other
    executor, or when no worker declares it (the points then go where Dask puts them, each refused on a worker
    it does not fit: `simulate`). Read again at each call: workers come and go."""
    client = getattr(pool, "_client", None)  # distributed's ClientExecutor (Client.get_executor) keeps it so
    if client is None or "distributed" not in sys.modules:
        return None
    workers = client.scheduler_info(n_workers=-1)["workers"]  # all: some versions list 5 unless asked
    room = {a: int(w["resources"][MEMORY]) for a, w in workers.items() if w.get("resources", {}).get(MEMORY)}
    return room or None


def submit(pool: Executor, room: Optional[Dict[str, int]], scenario, named: str,
           max_memory: Optional[int] = None) -> Future:
    """`simulate` of one point (`scenario`, a Scenario; `named`, its axis values and seed) submitted to `pool`.
    With `room` (`memory_room`), the point requires its estimated memory (`memory.estimate`) of the MEMORY
    resource, so that Dask runs it on a worker only while that much of it is free; a point needing more than
    every worker declares is not submitted (Dask would hold it forever, waiting for such a worker): the Future
    returned already holds its error."""
    human = scenario.model_dump(mode="json", exclude_none=True)
    if room is None:
        return pool.submit(simulate, human, max_memory)
    largest = max(room.values())
    need = estimate(scenario, largest).total
    if need <= largest:
        return pool.submit(simulate, human, max_memory, resources={MEMORY: need})
    refused: Future = Future()
    refused.set_result({"error": f"{named}: needs an estimated {need / 1e6:,.0f} MB of memory, more than any Dask "
                                 f"worker's MEMORY resource (the largest: {largest / 1e6:,.0f} MB, of "
                                 f"{len(room)} workers); not run", "host": None})
    return refused


SCHEDULER_TIMEOUT_S = 5
"""How long to try to reach a Dask scheduler, in seconds, before giving up with a SweepError."""


@contextmanager
def executor(workers: Optional[int] = None, scheduler: Optional[str] = None, dask: bool = False) -> Iterator[Executor]:
    """The executor a sweep runs on: a process pool of `workers` (default one per
    core), the Dask scheduler at `scheduler` (tcp://host:port), or with `dask`
    a Dask LocalCluster of `workers` single-threaded worker processes."""
    if scheduler or dask:
        try:
            import dask as dask_config
            from distributed import Client, LocalCluster
        except ImportError:
            flag = "--scheduler" if scheduler else "--dask"
            raise SweepError(f"{flag} needs Dask, an optional extra: pip install 'pacesim[dask]'") from None

        client = cluster = None
        try:
            if scheduler:
                try:
                    client = Client(scheduler, timeout=SCHEDULER_TIMEOUT_S)
                except (OSError, TimeoutError, ValueError, TypeError) as e:  # unreachable, or no address
                    raise SweepError(f"--scheduler {scheduler}: cannot connect ({e})") from None
                yield client.get_executor(pure=False)
                return
            with dask_config.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
                _quiet_forkserver()
                with interrupts_deferred():  # never a cluster half started
                    cluster = LocalCluster(n_workers=workers or os.cpu_count(), threads_per_worker=1,
                                           processes=True, dashboard_address=None, silence_logs=logging.CRITICAL)
                    client = Client(cluster)
                yield client.get_executor(pure=False)
        finally:
            with interrupts_deferred():  # nor half closed
                if client is not None:
                    client.close()
                if cluster is not None:
                    cluster.close()
    else:
        pool = Pool(workers or os.cpu_count() or 1)
        try:
            yield pool
        except BaseException:  # Ctrl-C or an error: abandon the points in flight
            pool.kill()
            raise
        pool.shutdown()


def _quiet_forkserver() -> None:
    """Start multiprocessing's fork server (with Dask's preloads) with Ctrl-C ignored, so that it and the
    Dask workers forked from it keep ignoring it (an ignored SIGINT stays ignored through exec, and the
    fork server gives its children the disposition it started with): Ctrl-C at a terminal, which goes
    to every process of its group, then reaches only this process, which closes the cluster. (Spawned
    workers would take it too, with a KeyboardInterrupt traceback each while they start.) In the main
    thread only; a Ctrl-C in the few milliseconds this takes is lost."""
    import multiprocessing.forkserver

    from distributed.utils import get_mp_context

    if threading.current_thread() is not threading.main_thread():
        return
    get_mp_context()  # sets the fork server's preloads
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, handler)


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """A Ctrl-C (SIGINT) or a SIGTERM while the body runs is held, and handed to the handler it would have
    met once the body is done (Ctrl-C's raises KeyboardInterrupt): a Dask cluster half started or half
    closed fails in Dask with a traceback. In the main thread only (elsewhere the body just runs)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: List[int] = []
    held = (signal.SIGINT, signal.SIGTERM)
    handlers = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in held}
    try:
        yield
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)
    if caught:
        handler = handlers[caught[0]]
        if callable(handler):
            handler(caught[0], None)
        elif handler == signal.SIG_DFL:
            signal.raise_signal(caught[0])


