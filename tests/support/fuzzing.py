"""What the hostile-input harnesses share (fuzz_input, fuzz_store, fuzz_cli, fuzz_split_graphs): generating
a budget of cases and handing each to a harness (`fuzz`), and the forked worker process a harness runs a case
in, so that a hang, an abort or a runaway takes only the worker along (`Worker`); how long a worker has
run a case, in its own CPU time (`Clock`); and its counts (`Tally`).

A case's time budget is the CPU time its worker uses, not wall time: on a loaded machine (load 20, the
harness at nice 19) a worker waits for a core, its simulated time standing still for seconds of wall time
while it uses none; counted in wall time, that was a "hang". A worker that uses no CPU time at all for
`BLOCKED_S` of wall time is blocked (on a lock, a pipe): a hang too, whatever its budget.

A harness is anything with `record(case)`, which runs one case and counts its class.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import Counter
from typing import Any, Callable, Collection, Dict, List, Optional, Protocol

import psutil
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st


class Recording(Protocol):
    def record(self, case: Any) -> Any: ...


def fuzz(harness: Recording, strategy: st.SearchStrategy, cases: int, seed: Optional[int] = None) -> None:
    """Generate `cases` cases of `strategy` and hand each to `harness.record`; with no `seed`, hypothesis
    derandomizes (the same cases every time: seeded by this function's code, so an edit here changes which)."""

    @settings(max_examples=cases, database=None, deadline=None, derandomize=seed is None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def each(case: Any) -> None:
        harness.record(case)

    (hypothesis_seed(seed)(each) if seed is not None else each)()


class Worker:
    """A forked process running `serve(conn, *args)`, which answers on `conn` each request sent to it, one at
    a time; started on first use and again after `close` or its death. `daemon`: False for a worker that
    starts processes of its own (a sweep's pool)."""

    def __init__(self, serve: Callable[..., None], *args: Any, daemon: bool = True) -> None:
        self.ctx = multiprocessing.get_context("fork")
        self.serve, self.args, self.daemon = serve, args, daemon
        self.proc = None

    def start(self) -> None:
        """Start the worker if it is not running."""
        if self.proc is None or not self.proc.is_alive():
            self.conn, child = self.ctx.Pipe()
            self.proc = self.ctx.Process(target=self.serve, args=(child, *self.args), daemon=self.daemon)
            self.proc.start()

    def send(self, request: Any) -> None:
        """Send `request` to the worker, started first if it is not running."""
        self.start()
        self.conn.send(request)

    def answer(self) -> Any:
        """The worker's answer to the request sent, or ("crash", ...) if it died first."""
        try:
            return self.conn.recv()
        except EOFError:
            self.proc.join()
            code, self.proc = self.proc.exitcode, None
            return ("crash", f"worker exited with {code}")

    def close(self) -> None:
        """Stop the worker (a hang, a runaway, or the harness's end); the next request starts another."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.join()
            self.proc = None


BLOCKED_S = 60.0
"""Wall time (s) a worker may use no CPU time at all before it is taken to be blocked (a hang). One starved of
CPU (load 20, nice 19) still runs a slice every scheduling period, a fraction of a second."""


class Clock:
    """The CPU time (s) a worker process and its descendants have used since the clock was made (psutil: user
    and system, of the live processes and of those they reaped), and the wall time since it last grew."""

    def __init__(self, pid: int) -> None:
        self.proc = psutil.Process(pid)
        self.start = self.last = self._cpu()
        self.grew_at = time.monotonic()

    def _cpu(self) -> float:
        total = 0.0
        for p in [self.proc, *self.proc.children(recursive=True)]:
            try:
                t = p.cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
            except psutil.NoSuchProcess:  # ended since listed: its time is its parent's now
                pass
        return total

    def used(self) -> float:
        """CPU seconds used since the clock was made. Raises psutil.NoSuchProcess if the worker is gone."""
        now = self._cpu()
        if now > self.last:
            self.last, self.grew_at = now, time.monotonic()
        return now - self.start

    def blocked(self) -> bool:
        """Whether the worker used no CPU time in the last `BLOCKED_S` of wall time (as of the last `used`)."""
        return time.monotonic() - self.grew_at > BLOCKED_S


class Tally:
    """A harness's counts per class and per kind of case and class (`by_kind`), and up to `keep` examples of
    each class in `kept` (its defects)."""

    def __init__(self, kept: Collection[str], keep: int = 20) -> None:
        self.counts: Counter = Counter()
        self.by_kind: Dict[str, Counter] = {}
        self.examples: Dict[str, List[str]] = {}
        self.kept, self.keep = kept, keep

    def count(self, cls: str, kind: Optional[str], example: Callable[[], str]) -> None:
        """Count a case of `kind` (None: the harness has one kind) in `cls`; keep `example()` if `cls` is kept
        and fewer than `keep` are."""
        self.counts[cls] += 1
        if kind is not None:
            self.by_kind.setdefault(kind, Counter())[cls] += 1
        if cls in self.kept and len(self.examples.setdefault(cls, [])) < self.keep:
            self.examples[cls].append(example())
