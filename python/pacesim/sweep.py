"""Sweeps: a scenario, axes over any of its keys, and seeds; every point one run.

A sweep file (TOML):

    name = "buffers"
    scenario = "e-base.toml"        # relative to this file; or a [scenario] table; default E-base
    seeds = [1, 2, 3]
    set = ["duration=100s"]         # fixed overrides, applied first
    [axes]                          # the cartesian product of these, in this order
    "core.buffer" = ["3KB", "5KB", "10KB"]
    "pacing.scheme" = ["none", "host", "edge"]
    flows = [100, 1000]             # topology.hosts_per_edge = flows / topology.edges
    variant = ["none", "qlbp-40"]   # named override sets, from [variants]
    [variants]                      # curves that are not a product of keys
    none = ["pacing.scheme=none"]
    qlbp-40 = ["pacing.scheme=qlbp", "pacing.q_max=40"]
    [quick]                         # optional: the reduced sweep (`--quick`), named NAME-quick
    set = ["duration=30s"]          # more overrides, after `set`
    scale = 0.1                     # and/or E-base scaled (see `scaled`)
    seeds = [1, 2, 3]               # and/or other seeds

Points run through any `concurrent.futures.Executor`: a local process pool
by default, or a Dask cluster's executor (`executor()` makes either). Each
finished point is written to the `Store` as it arrives, so a rerun, or a run
after a crash, skips what is done. Every point is validated before any runs:
an invalid one (a bad axis value, an invalid combination) stops the sweep
with a SweepError naming its axis values; a point that fails while running
(engine error, lost worker) is stored with its error and the sweep goes on.
Ctrl-C abandons the points in flight and kills the pool's workers; a worker
whose parent dies (kill -9) exits by itself.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import socket
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Dict, Iterator, List, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from . import ENGINE_VERSION
from .result import Result
from .scenario import Scenario, ScenarioError, apply_overrides, check_key, load_scenario, parse_scenario, read_toml
from .store import Store, run_key
from .units import parse_rate

FLOWS = "flows"
"""An axis that is not a scenario key: total flows, spread over the edges."""
VARIANT = "variant"
"""An axis that is not a scenario key: names of override sets (`variants`)."""


class SweepError(ValueError):
    """A sweep definition that cannot be run at all (as opposed to one failing point)."""


def _check_axis(base: Scenario, key: str, values: list, variants: dict) -> None:
    if key == FLOWS:
        return
    if key == VARIANT:
        unknown = [v for v in values if not isinstance(v, str) or v not in variants]
        if unknown:
            raise SweepError(f"variant axis names {unknown}, not defined under [variants] ({', '.join(variants)})")
        return
    try:
        check_key(base, key)
    except ScenarioError as e:
        raise SweepError(f"axis {key!r} is not a scenario key (nor {FLOWS!r}): {e.message}") from None


def scaled(scenario: Scenario, k: float) -> Scenario:
    """`scenario` with k times the TCP hosts (E-base: per edge) and k times every
    link rate (core, edge, access, the UDP host's) and UDP source rate, so each
    flow keeps its share of the core: paper-size experiments made small
    (`reproduce --quick`). For e-base and a-base."""
    if k == 1:
        return scenario
    t = scenario.topology
    if t.kind not in ("e-base", "a-base"):
        raise ScenarioError("topology.kind", f"scaling applies to e-base and a-base, not {t.kind}")
    hosts_key = "hosts_per_edge" if t.kind == "e-base" else "tcp_hosts"
    hosts = getattr(t, hosts_key) * k
    if not 1 <= hosts < 2**32 or abs(hosts - round(hosts)) > 1e-9:
        raise ScenarioError(f"topology.{hosts_key}", f"{getattr(t, hosts_key)} x scale {k} is not a whole number "
                                                     "of hosts the engine can hold")
    ranges = ["access_rate", "edge_rate"] if t.kind == "e-base" else ["access_rate", "udp_access_rate"]
    data = apply_overrides(scenario, [
        f"topology.{hosts_key}={round(hosts)}",
        f"core.rate={round(scenario.core_values().rate * k)}bps",
    ] + [f'topology.{r}=["{round(getattr(t, r)[0] * k)}bps", "{round(getattr(t, r)[1] * k)}bps"]' for r in ranges]
    ).model_dump(mode="json", exclude_none=True, by_alias=True)
    for i, source in enumerate(data["traffic"]["udp"]):
        if "rate" not in source:
            raise ScenarioError(f"traffic.udp[{i}].rate", "scaling a trace source needs its rate (the trace's mean)")
    rated = data["traffic"]["udp"] + ([data["topology"]["udp"]] if "udp" in data["topology"] else [])
    for table in rated:
        table["rate"] = f"{round(parse_rate(table['rate']) * k)}bps"
    return parse_scenario(data)


@dataclass(frozen=True)
class Point:
    """One run of a sweep: its axis values and seed, and either the scenario or why it is invalid."""

    axes: dict
    seed: int
    key: str
    scenario: Optional[Scenario] = None
    error: Optional[str] = None


@dataclass
class Sweep:
    """A base scenario, fixed overrides, axes (key -> values) and seeds; `scale` != 1
    shrinks every point with `scaled`."""

    name: str
    base: Scenario = field(default_factory=Scenario)
    axes: dict = field(default_factory=dict)
    seeds: List[int] = field(default_factory=lambda: [1])
    set: List[str] = field(default_factory=list)
    scale: float = 1.0
    variants: Dict[str, List[str]] = field(default_factory=dict)
    # The reduced version: more `set`, a `scale`, other `seeds` (see `reduced`).
    quick: Optional[Dict[str, Any]] = None
    # Where relative file names in overrides are from (the sweep file's directory).
    root: Optional[Path] = None

    def __post_init__(self) -> None:
        if not self.name:
            raise SweepError("a sweep needs a name")
        if not self.seeds:
            raise SweepError("a sweep needs at least one seed")
        if isinstance(self.scale, bool) or not isinstance(self.scale, (int, float)) or not 0 < self.scale < math.inf:
            raise SweepError(f"scale {self.scale!r}: expected a finite number above zero")
        try:
            fixed = apply_overrides(self.base, self.set, self.root)  # axes are keys of the scenario `set` makes
        except ScenarioError as e:
            raise SweepError(f"set: {e}") from None
        if fixed.trace is not None:
            raise SweepError("trace: a sweep writes no packet traces (its points would share one file); "
                             "trace one point with `pacesim run --trace FILE`")
        for key, values in self.axes.items():
            if not isinstance(values, list) or not values:
                raise SweepError(f"axis {key!r} needs a non-empty list of values")
            _check_axis(fixed, key, values, self.variants)
        for name, overrides in self.variants.items():
            for i, item in enumerate(overrides):
                if not item.partition("=")[0].strip() or "=" not in item:
                    raise SweepError(f"variants.{name!r}[{i}]: {item!r} is not an override; an override is "
                                     "key=value, e.g. core.buffer=5KB")
            apply_overrides(self.base, self.set + overrides, self.root)
        unknown = set(self.quick or {}) - {"set", "scale", "seeds"}
        if unknown:
            raise SweepError(f"[quick] has unknown keys {sorted(unknown)}; it takes set, scale, seeds")

    def reduced(self) -> Sweep:
        """The quick version this sweep defines, named `<name>-quick`."""
        if self.quick is None:
            raise SweepError(f"sweep {self.name!r} defines no [quick] version")
        return Sweep(name=f"{self.name}-quick", base=self.base, axes=self.axes, variants=self.variants,
                     set=self.set + self.quick.get("set", []), scale=self.quick.get("scale", self.scale),
                     seeds=self.quick.get("seeds", self.seeds), root=self.root)

    def spec(self) -> dict:
        """The definition as JSON-able data (stored with the sweep)."""
        return {"base": self.base.model_dump(mode="json", exclude_none=True), "set": self.set,
                "axes": self.axes, "seeds": self.seeds, "scale": self.scale, "variants": self.variants}

    def points(self) -> List[Point]:
        """Every (axes, seed) combination, axes varying slowest first, seeds fastest."""
        out = []
        keys = list(self.axes)
        for values in itertools.product(*self.axes.values()):
            axes = dict(zip(keys, values))
            for seed in self.seeds:
                out.append(self._point(axes, seed))
        return out

    def _point(self, axes: dict, seed: int) -> Point:
        overrides = list(self.set)
        for k, v in axes.items():
            if k == VARIANT:
                overrides += self.variants[v]
            elif k != FLOWS:
                overrides.append(f"{k}={json.dumps(v)}")
        overrides.append(f"seed={seed}")
        try:
            s = apply_overrides(self.base, overrides, self.root)
            if FLOWS in axes:
                s = _with_flows(s, axes[FLOWS])
            s = scaled(s, self.scale)
        except ScenarioError as e:
            invalid = {"base": self.base.to_engine(), "overrides": overrides, "axes": axes, "scale": self.scale}
            return Point(axes, seed, run_key(invalid, ENGINE_VERSION), error=f"ScenarioError: {e}")
        return Point(axes, seed, run_key(s.to_engine(), ENGINE_VERSION), scenario=s)


def _with_flows(s: Scenario, flows: Any) -> Scenario:
    if s.topology.kind != "e-base":
        raise ScenarioError(FLOWS, f"the flows axis spreads flows over E-base's edges, not a {s.topology.kind} topology")
    edges = s.topology.edges
    if not isinstance(flows, int) or flows <= 0 or flows % edges:
        raise ScenarioError(FLOWS, f"{flows!r} flows cannot be spread evenly over {edges} edges")
    return apply_overrides(s, [f"topology.hosts_per_edge={flows // edges}"])


Scale = Annotated[float, Field(gt=0.0, allow_inf_nan=False)]
Seed = Annotated[int, Field(ge=0, lt=2**64)]


class _Quick(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    set: List[str] = []
    scale: Optional[Scale] = None
    seeds: Optional[Annotated[List[Seed], Field(min_length=1)]] = None


class _SweepFile(BaseModel):
    """The keys of a sweep file and their types (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Optional[Annotated[str, Field(min_length=1)]] = None
    scenario: Union[str, Dict[str, Any]] = {}
    seeds: Annotated[List[Seed], Field(min_length=1)] = [1]
    set: List[str] = []
    axes: Dict[str, Annotated[List[Any], Field(min_length=1)]] = {}
    scale: Scale = 1.0
    variants: Dict[str, List[str]] = {}
    quick: Optional[_Quick] = None


def load_sweep(path: Union[str, Path]) -> Sweep:
    """Read a sweep TOML file (see the module docstring)."""
    path = Path(path)
    try:
        f = _SweepFile.model_validate(read_toml(path))
    except ValidationError as e:
        where = ".".join(str(part) for part in e.errors()[0]["loc"])
        raise SweepError(f"{path}: {where}: {e.errors()[0]['msg']}") from None
    if isinstance(f.scenario, str):
        try:
            found = (path.parent / f.scenario).is_file()
        except OSError:  # a name the file system refuses (too long, ...)
            found = False
        if not found:
            shown = path.parent / f.scenario if len(f.scenario) <= 255 else f"{f.scenario[:80]}... ({len(f.scenario)} characters)"
            raise SweepError(f"{path}: scenario: no file {shown}")
        scenario = load_scenario(path.parent / f.scenario)
    else:
        scenario = parse_scenario(f.scenario, path.parent)
    quick = f.quick.model_dump(exclude_none=True) if f.quick is not None else None
    return Sweep(name=f.name or path.stem, base=scenario, axes=f.axes, seeds=f.seeds, set=f.set, scale=f.scale,
                 variants=f.variants, quick=quick, root=path.parent)


def simulate(scenario: dict) -> dict:
    """Run one point (a scenario in human units) where the executor puts it.

    Returns the report, wall time and host, or the error: a worker never raises
    for a bad point, so every executor reports failures the same way.
    """
    from . import run

    try:
        r = run(parse_scenario(scenario), threads=1)  # the pool's workers are the parallelism
    except Exception as e:  # invalid, or the engine failed (an engine panic is a RuntimeError with its message)
        return {"error": f"{type(e).__name__}: {e}", "host": socket.gethostname()}
    return {"report": r.report, "wall_s": r.wall_s, "host": socket.gethostname()}


SCHEDULER_TIMEOUT_S = 5
"""How long to try to reach a Dask scheduler, in seconds, before giving up with a SweepError."""


@contextmanager
def executor(workers: Optional[int] = None, scheduler: Optional[str] = None, dask: bool = False) -> Iterator[Executor]:
    """The executor a sweep runs on: a process pool of `workers` (default one per
    core), the Dask scheduler at `scheduler` (tcp://host:port), or with `dask`
    a Dask LocalCluster of `workers` single-threaded worker processes."""
    if scheduler or dask:
        from distributed import Client, LocalCluster

        if scheduler:
            try:
                client = Client(scheduler, timeout=SCHEDULER_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError, TypeError) as e:  # unreachable, or no address
                raise SweepError(f"--scheduler {scheduler}: cannot connect ({e})") from None
            cluster = None
        else:
            cluster = LocalCluster(n_workers=workers or os.cpu_count(), threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        try:
            yield client.get_executor(pure=False)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    else:
        pool = ProcessPoolExecutor(max_workers=workers or os.cpu_count(), initializer=_pool_worker)
        try:
            yield pool
        except BaseException:  # Ctrl-C or an error: abandon the points in flight
            workers = list((pool._processes or {}).values())  # no public handle before Python 3.14
            for worker in workers:
                worker.kill()
            # Then join the pool's manager thread, which sees the workers gone and ends (a first
            # shutdown without waiting would let go of it unjoined, and the interpreter's exit
            # would wake it through a pipe already closed: an ignored OSError's traceback).
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown()


PARENT_POLL_S = 0.2
"""How often a pool worker checks that the process that started it is alive."""


def _pool_worker() -> None:
    """Set up a process pool worker: Ctrl-C is its parent's to handle (the
    parent kills the workers), and it exits as soon as its parent is gone
    (killed with -9, say), which it notices as a change of parent pid."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


@dataclass(frozen=True)
class SweepRun:
    """What one call of `run_sweep` did."""

    name: str
    points: int
    skipped: int
    ran: int
    failed: int
    wall_s: float


def run_sweep(sweep: Sweep, store: Store, pool: Optional[Executor] = None, progress: bool = True) -> SweepRun:
    """Run every point of `sweep` not yet finished in `store`, on `pool` (default: a
    local process pool), storing each as it completes. Failed points are retried."""
    t0 = time.perf_counter()
    points = sweep.points()
    invalid = {json.dumps(p.axes): p for p in points if p.error}  # one per combination of axis values
    if invalid:
        shown = [f"{', '.join(f'{k}={v!r}' for k, v in p.axes.items())}: {p.error.removeprefix('ScenarioError: ')}"
                 for p in invalid.values()]
        raise SweepError(f"{sweep.name}: {len(invalid)} combination(s) of axis values are invalid, nothing was run; "
                         + "; ".join(shown[:3]) + ("; ..." if len(shown) > 3 else ""))
    store.register_sweep(sweep.name, sweep.spec(), [(p.axes, p.seed, p.key) for p in points])
    done = store.finished(p.key for p in points)
    todo: dict[str, Point] = {}
    for p in points:
        if p.key not in done:
            todo.setdefault(p.key, p)
    failed = 0
    runnable = list(todo.values())
    if runnable:
        if pool is None:
            with executor() as own:
                failed += _execute(sweep.name, runnable, len(points) - len(todo), store, own, progress)
        else:
            failed += _execute(sweep.name, runnable, len(points) - len(todo), store, pool, progress)
    return SweepRun(sweep.name, len(points), len(points) - len(todo), len(todo), failed, time.perf_counter() - t0)


def _execute(name: str, points: List[Point], skipped: int, store: Store, pool: Executor, progress: bool) -> int:
    """Submit `points`, store each result as it completes; the number that failed."""
    futures: dict[Future, Point] = {pool.submit(simulate, p.scenario.model_dump(mode="json", exclude_none=True)): p
                                    for p in points}
    failed = 0
    bar = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("[red]{task.fields[failed]} failed"), TextColumn("elapsed"), TimeElapsedColumn(),
        TextColumn("ETA"), TimeRemainingColumn(), disable=not progress,
    )
    with bar:
        task = bar.add_task(f"{name} ({skipped} done before)", total=len(points), failed=0)
        for fut in as_completed(futures):
            p = futures[fut]
            human = p.scenario.model_dump(mode="json", exclude_none=True)
            try:
                out = fut.result()
            except Exception as e:  # the worker itself died or the cluster lost it
                out = {"error": f"{type(e).__name__}: {e}", "host": None}
            if "report" in out and out["report"]["engine_version"] != ENGINE_VERSION:
                out = {"error": f"worker engine {out['report']['engine_version']} is not this engine "
                                f"{ENGINE_VERSION}", "host": out["host"]}
            if "error" in out:
                store.save_failed(p.key, human, p.seed, ENGINE_VERSION, out["error"], out["host"])
                failed += 1
            else:
                store.save_ok(p.key, Result(out["report"], p.scenario, out["wall_s"]), out["host"])
            bar.update(task, advance=1, failed=failed)
    return failed
