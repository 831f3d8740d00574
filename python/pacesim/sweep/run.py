"""Running a sweep into a results store: every point checked first (`check`), the sweep registered, then the
points not yet finished made one at a time, handed to an executor (`executors`) at most `IN_FLIGHT` at once and
stored as each arrives; a rerun, or a run after a crash, skips what is done and reruns a damaged point."""

from __future__ import annotations

import socket
import time
import warnings
from array import array
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np
from rich.progress import Progress

from .. import ENGINE_VERSION
from ..messages import printable
from ..pool import WorkerDied
from ..result import Result
from ..store import DamagedRun, ReadOnlyStore, Store, StoreError, StoreFailed
from .check import check_points
from .definition import Point, Sweep, SweepError, named
from .executors import executor, interrupts_deferred, memory_room
from .executors import submit as placed
from .progress import bar as progress_bar


def _store_failure(sweep: str, e: StoreError, more: str = "") -> SweepError:
    """The SweepError of `sweep` for a store's error `e` (with `more` said after it)."""
    return SweepError(f"{sweep}: {e}{more}", 1 if isinstance(e, StoreFailed) else 2)



@dataclass(frozen=True)
class SweepRun:
    """What one call of `run_sweep` did; `damaged`: the stored runs found damaged (and run again), each
    with its file and what is wrong with it."""

    name: str
    points: int
    skipped: int
    ran: int
    failed: int
    wall_s: float
    damaged: Tuple[str, ...] = ()


IN_FLIGHT = 256
"""The most points handed to the executor at once (beyond its workers): enough to keep a cluster busy,
few enough that a sweep's memory does not grow with its size."""


def run_sweep(sweep: Sweep, store: Store, pool: Optional[Executor] = None, progress: bool = True,
              origin: Optional[str] = None, max_memory: Optional[int] = None) -> SweepRun:
    """Run every point of `sweep` not yet finished in `store`, on `pool` (default: a
    local process pool), storing each as it completes. Failed points are retried, and so
    are finished ones whose stored tables are damaged (each named in a `DamagedRun` warning).
    `origin` is who registers it (`Store.register_sweep`); a point whose estimated memory exceeds
    `max_memory` bytes (default: the memory available to the worker that takes it) fails, saying so.

    The points are made one at a time, never all held: every one is checked first (a
    progress bar counts them), then the sweep is registered, then the points to run are
    made again as the executor takes them. A store that fails while the sweep writes (a
    full or read-only disk) raises a SweepError; every point stored before is kept."""
    t0 = time.perf_counter()
    with progress_bar(progress) as bar:
        keys = check_points(sweep, bar, max_memory)
        n = sweep.size
        key = lambda i: keys[16 * i:16 * i + 16].hex()  # noqa: E731
        runnable = array("q")  # the index of each run to do: the first point of its run key
        damaged: List[str] = []
        try:
            store.register_sweep(sweep.name, sweep.spec(), ((*sweep.axes_at(i), key(i)) for i in range(n)), origin)
            for i, _, why in _unfinished(store, keys, _firsts(keys)):
                runnable.append(i)
                if why is not None:
                    damaged.append(why)
                    warnings.warn(DamagedRun(printable(f"{sweep.name}: the stored run of {named(*sweep.axes_at(i))}: "
                                                       f"{why}; running it again")), stacklevel=2)
        except ReadOnlyStore:  # the caller's to say whether it had anything to write (`unwritten`)
            raise
        except StoreError as e:
            raise _store_failure(sweep.name, e) from None
        failed, ran = 0, len(runnable)
        if runnable:
            if pool is None:
                with executor() as own:
                    failed = _execute(sweep, runnable, n - ran, store, own, bar, key, max_memory)
            else:
                failed = _execute(sweep, runnable, n - ran, store, pool, bar, key, max_memory)
    return SweepRun(sweep.name, n, n - ran, ran, failed, time.perf_counter() - t0, tuple(damaged))


def unwritten(sweep: Sweep, store: Store, progress: bool = True, max_memory: Optional[int] = None) -> Optional[str]:
    """What running `sweep` would write to `store`, read without writing (a store that cannot be written,
    `ReadOnlyStore`): None if nothing (its definition and points recorded as they are, every run finished
    and whole), else what. Its points are checked as `run_sweep` checks them (with `max_memory`)."""
    with progress_bar(progress) as bar:
        keys = check_points(sweep, bar, max_memory)
    n = sweep.size
    key = lambda i: keys[16 * i:16 * i + 16].hex()  # noqa: E731
    try:
        if not store.registered(sweep.name, sweep.spec(), ((*sweep.axes_at(i), key(i)) for i in range(n))):
            return f"the store does not hold {sweep.name} as this file defines it"
        left = sum(1 for _ in _unfinished(store, keys, range(n)))
    except StoreError as e:
        raise _store_failure(sweep.name, e) from None
    return f"{left:,} of its {n:,} points are not done" if left else None



CHECKED = 65_536
"""The most points whose stored runs are read at once (`_unfinished`): a sweep holds no set of its every point's
key (review33i D3: the parent of a sweep of 100,000 points grew past --max-memory)."""


def _firsts(keys: bytearray) -> Sequence[int]:
    """The index of the first point of each run key among `keys` (16 bytes each, in point order), in order: two
    points of one run key are one run."""
    rows = np.frombuffer(keys, dtype=np.uint64).reshape(-1, 2)
    _, first = np.unique(rows, axis=0, return_index=True)
    first.sort()
    return first


def _unfinished(store: Store, keys: bytearray, points: Sequence[int]) -> Iterator[Tuple[int, str, Optional[str]]]:
    """Those of `points` (indices of a sweep's points, in order; their run keys 16 bytes each in `keys`) whose run
    `store` does not hold finished and whole (`Store.check`), in order: the index, the run key and, for a stored run
    found damaged, why (else None); read `CHECKED` at a time."""
    for start in range(0, len(points), CHECKED):
        chunk = [int(i) for i in points[start:start + CHECKED]]
        each = [keys[16 * i:16 * i + 16].hex() for i in chunk]
        done, damaged = store.check(each)
        for i, k in zip(chunk, each):
            if k not in done:
                yield i, k, damaged.get(k)


def _execute(sweep: Sweep, points: Sequence[int], skipped: int, store: Store, pool: Executor, bar: Progress,
             checked: Callable[[int], str], max_memory: Optional[int] = None) -> int:
    """Make each of the points of `sweep` at indices `points`, submit it (at most `IN_FLIGHT` at once, each
    with `max_memory`, as `simulate` takes it; on Dask workers that declare MEMORY, placed by its estimate:
    `executors.submit`) and store each result as it completes; the number that failed.
    A point made with another key than it was checked and registered with (`checked`; never seen) is a
    SweepError: stored, it would never count done."""
    failed = 0
    task = bar.add_task(f"{sweep.name} ({skipped} done before)", total=len(points), failed="0 failed")
    waiting = iter(points)
    running: Dict[Future, Point] = {}
    stored = 0

    def submit() -> None:
        room = memory_room(pool)
        for i in waiting:
            p = sweep.point(i, engine=False)  # `_check` had the engine check it; the worker's run reads it once
            if p.key != checked(i):
                raise SweepError(f"{sweep.name}: {p.named()}: made to run, its run key {p.key} is not the one checked, "
                                 f"{checked(i)}; nothing more was run", 1)
            running[placed(pool, room, p.scenario, p.named(), max_memory)] = p
            if len(running) >= IN_FLIGHT:
                return

    # Python raises Ctrl-C's KeyboardInterrupt (and SIGTERM's Terminated) in whatever code the main
    # thread runs; inside pydantic's serializer or SQLite that code wraps it in its own error (a
    # traceback, not "interrupted"). So a signal is heard in wait() and held while points are made
    # and stored, and a point whose result came back before it is kept.
    with interrupts_deferred():
        submit()
    while running:
        finished, _ = wait(running, return_when=FIRST_COMPLETED)
        with interrupts_deferred():
            for fut in finished:
                p = running.pop(fut)
                human = p.scenario.model_dump(mode="json", exclude_none=True)
                try:
                    out = fut.result()
                except WorkerDied as e:  # killed (the kernel's OOM killer, kill -9): this point only
                    out = {"error": f"{p.named()}: {e}; the sweep went on in a new worker, and a rerun runs this point "
                                    "again", "host": socket.gethostname()}
                except Exception as e:  # the cluster lost its worker
                    out = {"error": f"{type(e).__name__}: {e}", "host": None}
                if "report" in out and out["report"]["engine_version"] != ENGINE_VERSION:
                    out = {"error": f"worker engine {out['report']['engine_version']} is not this engine "
                                    f"{ENGINE_VERSION}", "host": out["host"]}
                try:
                    if "error" in out:
                        store.save_failed(p.key, human, p.seed, ENGINE_VERSION, out["error"], out["host"])
                        failed += 1
                    else:
                        store.save_ok(p.key, Result(out["report"], p.scenario, out["wall_s"]), out["host"])
                except ReadOnlyStore:
                    raise
                except StoreError as e:
                    raise _store_failure(sweep.name, e, f"; the {stored:,} points this run stored before are kept, "
                                         "and a rerun goes on from them") from None
                stored += 1
                bar.update(task, advance=1, failed=f"{failed} failed")
            submit()
    return failed
