"""The local process pool a sweep's points run on: `Pool`, a `concurrent.futures.Executor` of worker
processes that each run one call at a time, handed to it through its own pipe.

Why not the standard library's `ProcessPoolExecutor`, nor loky (joblib's executor): both share one queue
of calls among their workers, so neither knows which call a worker was running when it died, and both
then fail every call in flight and refuse new ones (`BrokenProcessPool`; loky's `TerminatedWorkerError`
for all, then a new executor). A paper-size sweep lost 26 of 81 points so when the kernel's
out-of-memory killer ended one worker (issue 34, session 13). Here each worker is handed one call and
returns its result before it takes the next, so a worker that dies (a signal: the OOM killer, `kill -9`;
an abort) fails only the call it held, with the signal named (`WorkerDied`), and its slot starts a fresh
worker for the next call. Stopping is public API too: `kill` ends every worker with SIGKILL
(`multiprocessing.Process.kill`), where abandoning a `ProcessPoolExecutor` reached into its private
`_processes` and result queue (Python 3.14 adds `kill_workers()`).

A worker ignores Ctrl-C and SIGTERM (a terminal sends Ctrl-C to the whole process group, as a job manager
or `kill -TERM -PGID` does SIGTERM: each is the parent's to handle, which kills the workers; a worker
ended by it would store its point as failed), and exits by itself within `PARENT_POLL_S` when its parent is gone (`kill -9`),
by watching its parent's pid from a thread: a worker inside the engine reads no pipe, so it cannot see
the parent's end close, and Linux's `PR_SET_PDEATHSIG` (no such call on macOS) fires when the thread
that started the worker ends, not the process.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from concurrent.futures import Executor, Future
from typing import Any, Callable, List, Optional, Tuple

PARENT_POLL_S = 0.2
"""How often a worker checks that the process that started it is alive, in seconds."""


class WorkerDied(RuntimeError):
    """The worker running a call ended before it returned (killed by a signal, or exited)."""


def died(exitcode: Optional[int]) -> str:
    """How a worker process with `exitcode` (multiprocessing's: -N for signal N) ended, for a person."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = "an unknown signal"
        why = (" (the kernel's out-of-memory killer, or a kill -9)" if -exitcode == signal.SIGKILL else "")
        return f"its worker process was killed by {name} (signal {-exitcode}){why}"
    return f"its worker process exited with status {exitcode}"


def _serve(conn) -> None:
    """A worker: run each call received on `conn` and send back (True, result) or (False, exception),
    until None or the parent's end closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
    while True:
        try:
            call = conn.recv()
        except (EOFError, OSError):
            return
        if call is None:
            return
        fn, args = call
        try:
            out: Tuple[bool, Any] = (True, fn(*args))
        except Exception as e:
            out = (False, e)
        try:
            conn.send(out)
        except Exception as e:  # a result or an exception that cannot be pickled
            conn.send((False, RuntimeError(f"{type(e).__name__}: {e}")))


_STARTING = threading.Lock()
"""Held while a worker starts: a worker forked meanwhile (by any pool of this process) would inherit the
worker's end of the other's pipe, made but not yet closed here, and that pipe would never read as ended."""


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context) -> None:
        with _STARTING:
            self.conn, theirs = context.Pipe()
            self.process = context.Process(target=_serve, args=(theirs,), daemon=True)
            self.process.start()
            theirs.close()  # so that the parent reads the end of the pipe when the worker dies


class Pool(Executor):
    """`workers` worker processes, each started with the pool and again after one dies (see the module
    docstring). Calls wait in one queue, taken in order by a thread per worker."""

    def __init__(self, workers: int) -> None:
        self._context = multiprocessing.get_context()
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()  # over _killed and _workers
        self._killed = False
        self._closed = False
        self._workers: List[Optional[_Worker]] = [_Worker(self._context) for _ in range(workers)]
        self._threads = [threading.Thread(target=self._slot, args=(i,), name=f"pool-slot-{i}", daemon=True)
                         for i in range(workers)]
        for t in self._threads:
            t.start()

    def submit(self, fn: Callable, /, *args, **kwargs) -> Future:
        if kwargs:
            raise TypeError("Pool.submit takes positional arguments only")
        if self._closed:
            raise RuntimeError("cannot submit to a pool that was shut down")
        future: Future = Future()
        self._calls.put((future, fn, args))
        return future

    def _slot(self, i: int) -> None:
        """Hand the queue's calls one at a time to worker `i`, starting a new one after it dies."""
        while True:
            item = self._calls.get()
            if item is None:
                break
            future, fn, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                ok, value = self._call(i, fn, args)
            except Exception as e:  # WorkerDied; a worker that could not start (no memory left for a
                future.set_exception(e)  # process); a result that could not be unpickled here
                continue
            (future.set_result if ok else future.set_exception)(value)
        worker = self._workers[i]
        if worker is not None and not self._killed:
            try:
                worker.conn.send(None)
            except OSError:  # already gone
                pass
            worker.process.join()
            worker.conn.close()

    def _call(self, i: int, fn: Callable, args: tuple) -> Tuple[bool, Any]:
        """Run fn(*args) on worker `i` (started if there is none); a WorkerDied if it dies meanwhile."""
        for _ in range(2):  # a worker found dead before it took the call: the call again on a new one
            with self._lock:
                if self._killed:
                    raise WorkerDied("the pool was stopped")
                if self._workers[i] is None:
                    self._workers[i] = _Worker(self._context)
                worker = self._workers[i]
            try:
                worker.conn.send((fn, args))
            except OSError:
                self._lost(i)
                continue
            try:
                return worker.conn.recv()
            except (EOFError, OSError):  # the pipe ended, or ended inside a message
                raise WorkerDied(died(self._lost(i))) from None
        raise WorkerDied(died(worker.process.exitcode))

    def _lost(self, i: int) -> Optional[int]:
        """Worker `i`'s exit code, once it has ended; its slot then empty."""
        worker = self._workers[i]
        worker.process.join()
        worker.conn.close()
        with self._lock:
            self._workers[i] = None
        return worker.process.exitcode

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Let the workers finish the calls queued (or, with `cancel_futures`, those running only), then
        end them."""
        if self._closed:
            return
        self._closed = True
        if cancel_futures:
            self._cancel_queued()
        for _ in self._threads:
            self._calls.put(None)
        if wait:
            for t in self._threads:
                t.join()

    def kill(self) -> None:
        """End every worker now (SIGKILL) and abandon the calls queued and running."""
        with self._lock:
            self._killed = True
            workers = [w for w in self._workers if w is not None]
        for w in workers:
            w.process.kill()
        self._cancel_queued()
        self._closed = True
        for _ in self._threads:
            self._calls.put(None)
        for t in self._threads:
            t.join()
        for w in workers:
            w.process.join()
            w.conn.close()

    def _cancel_queued(self) -> None:
        while True:
            try:
                item = self._calls.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                item[0].cancel()
