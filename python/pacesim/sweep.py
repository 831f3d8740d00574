"""Sweeps: a scenario, axes over any of its keys, and seeds; every point one run.

A sweep file (TOML):

    name = "buffers"
    scenario = "e-base.toml"        # a file relative to this one, or a packaged scenario's name (as
                                    # `pacesim run` takes it); or a [scenario] table; default E-base
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
(`pool.Pool`) by default, or a Dask cluster's executor (`executor()` makes either). Each
finished point is written to the `Store` as it arrives, so a rerun, or a run
after a crash, skips what is done (and reruns a stored point found damaged).
Every point is checked before any runs, as `pacesim run` checks a scenario
(validated, and its network built): an invalid one (a bad axis value, an
invalid combination, RED on a graph's link, a pacer in front of a queue that
holds its packets) stops the sweep with a SweepError naming its axis values
and the field; a point that fails while running (engine error, lost worker) is
stored with its error and the sweep goes on (a local worker killed by the
kernel's OOM killer or `kill -9` fails the point it ran, naming it and the
signal, and a new worker takes the next). Points are made one at a time,
never all held (a sweep has at most `MAX_POINTS`), and handed to the executor
`IN_FLIGHT` at a time. A sweep sets neither the seed (its `seeds` do) nor a
packet trace, and its name is a plain file name (`store.plain_name`).
Ctrl-C abandons the points in flight and kills the pool's workers (a Dask
cluster's too); a worker whose parent dies (kill -9) exits by itself.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
import signal
import socket
import sys
import threading
import time
import warnings
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from . import ENGINE_VERSION, _core, memory, schema
from .messages import printable, shown
from .pool import Pool, WorkerDied
from .result import Result
from .scenario import (Scenario, ScenarioError, apply_overrides, check_key, load_scenario, packaged, packaged_names,
                       parse_scenario, read_toml)
from .store import (MAX_SEED, DamagedRun, ReadOnlyStore, Store, StoreError, StoreFailed, key_part, keyed_run, plain_name,
                    run_key)
from .units import parse_rate

FLOWS = "flows"
"""An axis that is not a scenario key: total flows, spread over the edges."""
VARIANT = "variant"
"""An axis that is not a scenario key: names of override sets (`variants`)."""


MAX_POINTS = 10**6
"""The most points a sweep may have. Its points are made, checked and run one at a time, but the store
lists every one (a row each) and the sweep keeps each point's key (16 B) while it runs; checking a combination
of axis values takes about 0.3 ms of CPU (most of it the engine's rules, `_Factors`), and a network's build
for each it has not built, so a sweep this size may be checked for some minutes before its first point runs."""

SEEDS = ("a sweep's seeds are its `seeds` list (seeds = [1, 2]), which sets every point's seed; "
         "a seed set otherwise would be replaced")
NO_TRACE = ("a sweep writes no packet traces (its points would share one file); trace one point with "
            "`pacesim run --trace FILE`")


class SweepError(ValueError):
    """A sweep that cannot be run at all (as opposed to one failing point); `status` is the command's exit
    status for it: 2 for what it was given (a definition, a store), 1 if the file system failed the work."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(printable(message))
        self.status = status


def _store_failure(sweep: str, e: StoreError, more: str = "") -> SweepError:
    """The SweepError of `sweep` for a store's error `e` (with `more` said after it)."""
    return SweepError(f"{sweep}: {e}{more}", 1 if isinstance(e, StoreFailed) else 2)


def _traces(key: str) -> bool:
    """Whether override key `key` sets the packet trace (`trace`, `trace.file`, ...)."""
    return key.strip().split(".")[0].strip() == "trace"


def _once(where: str, values: list) -> None:
    """A SweepError if a value is given twice in `values` (`where`: the seeds, an axis): the sweep would
    hold that point twice, and the store, which knows a point by its axis values and seed, once."""
    seen: Dict[str, int] = {}
    for i, value in enumerate(values):
        text = json.dumps(value, sort_keys=True, default=repr)
        if text in seen:
            raise SweepError(f"{where}[{i}]: {shown(value)} is given twice (also at [{seen[text]}])")
        seen[text] = i


def _check_overrides(where: str, overrides: List[str]) -> None:
    """A SweepError if one of `overrides` (in `where`: `set`, a variant) sets what a sweep may not: the seed
    (each point's comes from `seeds`) or the packet trace."""
    for i, item in enumerate(overrides):
        key = item.partition("=")[0].strip()
        if key == "seed":
            raise SweepError(f"{where}[{i}]: {shown(item)}: {SEEDS}")
        if _traces(key):
            raise SweepError(f"{where}[{i}]: {shown(item)}: {NO_TRACE}")


def _check_axis(base: Scenario, key: str, values: list, variants: dict, root: Optional[Path] = None) -> List[Any]:
    """A SweepError naming axis `key` if it is no scenario key (nor the flows or variant axis), names an
    unknown variant, or holds two values that mean one thing ("3KB" and "3000B": one point run twice, and
    stored once). Else what each value changes of `base`'s engine scenario alone (`_changes`; None for a
    value invalid alone, whose points say why when they are made; False for the flows and variant axes,
    whose values are no keys' or are checked with the variants)."""
    if key == FLOWS:
        return [False] * len(values)
    if key == VARIANT:
        unknown = [v for v in values if not isinstance(v, str) or v not in variants]
        if unknown:
            raise SweepError(f"variant axis names {unknown}, not defined under [variants] ({', '.join(variants)})")
        return [False] * len(values)
    try:
        check_key(base, key)
    except ScenarioError as e:
        raise SweepError(f"axis {key!r} is not a scenario key (nor {FLOWS!r}): {e.message}") from None
    meant: Dict[str, int] = {}
    changes: List[Any] = []
    was = base.to_engine()
    for i, value in enumerate(values):
        try:
            alone = apply_overrides(base, [f"{key}={json.dumps(value)}"], root)
        except ScenarioError:
            changes.append(None)
            continue
        engine = alone.to_engine()
        changes.append(_changes(was, engine, ()) if alone.trace is None else None)
        text = json.dumps(engine, sort_keys=True)
        if text in meant:
            j = meant[text]
            raise SweepError(f"axis {shown(key)}[{i}]: {shown(value)} means what [{j}] {shown(values[j])} means; "
                             "the sweep would run that point twice")
        meant[text] = i
    return changes


def scaled(scenario: Scenario, k: float, engine: bool = True) -> Scenario:
    """`scenario` with k times the TCP hosts (E-base: per edge) and k times every
    link rate (the core, those its topology kind's schema names in `x-scale`,
    the UDP host's) and UDP source rate, so each flow keeps its share of the
    core: paper-size experiments made small (`reproduce --quick`). For the
    kinds whose schema has `x-scale` (e-base and a-base). `engine` as `parse_scenario`'s."""
    if k == 1:
        return scenario
    t = scenario.topology
    scale = schema.table("topology", t.kind).get("x-scale")
    if scale is None:
        scalable = [kind for kind in schema.kinds() if "x-scale" in schema.table("topology", kind)]
        raise ScenarioError("topology.kind", f"scaling applies to {' and '.join(scalable)}, not {t.kind}")
    hosts_key, ranges = scale["hosts"], scale["rates"]
    hosts = getattr(t, hosts_key) * k
    if not 1 <= hosts < 2**32 or abs(hosts - round(hosts)) > 1e-9:
        raise ScenarioError(f"topology.{hosts_key}", f"{getattr(t, hosts_key)} x scale {k} is not a whole number "
                                                     "of hosts the engine can hold")
    data = scenario.model_dump(mode="json", exclude_none=True, by_alias=True)  # validated once, when all is scaled
    data["topology"][hosts_key] = round(hosts)
    data.setdefault("core", {})["rate"] = f"{round(scenario.core_values().rate * k)}bps"
    for r in ranges:
        data["topology"][r] = [f"{round(getattr(t, r)[0] * k)}bps", f"{round(getattr(t, r)[1] * k)}bps"]
    for i, source in enumerate(data["traffic"]["udp"]):
        if "rate" not in source:
            raise ScenarioError(f"traffic.udp[{i}].rate", "scaling a trace source needs its rate (the trace's mean)")
    rated = data["traffic"]["udp"] + ([data["topology"]["udp"]] if "udp" in data["topology"] else [])
    for table in rated:
        table["rate"] = f"{round(parse_rate(table['rate']) * k)}bps"
    return parse_scenario(data, engine=engine)


@dataclass(frozen=True)
class Point:
    """One run of a sweep: its axis values and seed, and either the scenario or why it is invalid."""

    axes: dict
    seed: int
    key: str
    scenario: Optional[Scenario] = None
    error: Optional[str] = None

    def named(self) -> str:
        return _named(self.axes, self.seed)


def _named(axes: dict, seed: int) -> str:
    """A point for a person: its axis values and seed ("point core.buffer='3KB', seed 2")."""
    return "point " + "".join(f"{a}={v!r}, " for a, v in axes.items()) + f"seed {seed}"


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
    # The last combination of axis values made (`_combination`): its index, the seeds then, whether the engine
    # checked it, and its points.
    _made: Optional[Tuple[int, Tuple[int, ...], bool, List[Point]]] = field(default=None, init=False, repr=False,
                                                                            compare=False)
    # The base with `set` applied (`__post_init__`): every point's overrides start from it.
    _fixed: Optional[Scenario] = field(default=None, init=False, repr=False, compare=False)
    # By axis and value: what the value changes of `_fixed`'s engine scenario alone (`_check_axis`).
    _alone: List[List[Any]] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        why = plain_name(self.name)
        if why:
            raise SweepError(f"name: {why}")
        if not isinstance(self.seeds, list) or not self.seeds:
            raise SweepError("seeds: a sweep needs a list of at least one seed")
        for i, seed in enumerate(self.seeds):
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
                raise SweepError(f"seeds[{i}]: {shown(seed)} is not a whole number from 0 to 2^63 - 1 "
                                 "(the seeds a results store holds)")
        _once("seeds", self.seeds)
        if isinstance(self.scale, bool) or not isinstance(self.scale, (int, float)) or not 0 < self.scale < math.inf:
            raise SweepError(f"scale {self.scale!r}: expected a finite number above zero")
        try:
            fixed = self._fixed = apply_overrides(self.base, self.set, self.root)  # axes are keys of what `set` makes
        except ScenarioError as e:
            raise SweepError(f"set: {e}") from None
        if fixed.trace is not None:
            raise SweepError(f"trace: {NO_TRACE}")
        _check_overrides("set", self.set)
        for key, values in self.axes.items():
            if not isinstance(values, list) or not values:
                raise SweepError(f"axis {shown(key)} needs a non-empty list of values")
            _once(f"axis {shown(key)}", values)
            if key.strip() == "seed":
                raise SweepError(f"axis 'seed': {SEEDS}")
            if _traces(key):
                raise SweepError(f"axis {shown(key)}: {NO_TRACE}")
        if self.size > MAX_POINTS:  # before any value is checked: four axes of 10,000 values took minutes
            sizes = " x ".join([f"{len(v):,} values of {shown(k)}" for k, v in self.axes.items()]
                               + [f"{len(self.seeds):,} seeds"])
            raise SweepError(f"{self.name}: {self.size:,} points ({sizes}), more than the {MAX_POINTS:,} a sweep "
                             "may have; split it into several sweeps")
        self._alone = [_check_axis(fixed, key, values, self.variants, self.root) for key, values in self.axes.items()]
        alone = {}
        for name, overrides in self.variants.items():
            for i, item in enumerate(overrides):
                if not item.partition("=")[0].strip() or "=" not in item:
                    raise SweepError(f"variants.{name!r}[{i}]: {item!r} is not an override; an override is "
                                     "key=value, e.g. core.buffer=5KB")
            _check_overrides(f"variants.{name!r}", overrides)
            variant = apply_overrides(self.base, self.set + overrides, self.root)
            if variant.trace is not None:
                raise SweepError(f"variants.{name!r}: {NO_TRACE}")
            alone[name] = _changes(fixed.to_engine(), variant.to_engine(), ())
        if VARIANT in self.axes:
            self._alone[list(self.axes).index(VARIANT)] = [alone[v] for v in self.axes[VARIANT]]
        unknown = set(self.quick or {}) - {"set", "scale", "seeds"}
        if unknown:
            raise SweepError(f"[quick] has unknown keys {sorted(unknown)}; it takes set, scale, seeds")

    @property
    def size(self) -> int:
        """How many points the sweep has: every combination of axis values, times the seeds."""
        return math.prod(len(v) for v in self.axes.values()) * len(self.seeds)

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
        """Every (axes, seed) combination, axes varying slowest first, seeds fastest (`iter_points`, held)."""
        return list(self.iter_points())

    def iter_points(self) -> Iterator[Point]:
        """`points` one at a time: each combination of axis values is made and checked once, its seeds
        are copies of it (a point's validity does not depend on its seed)."""
        for c in range(self.size // len(self.seeds)):
            yield from self._combination(c)

    def axes_at(self, i: int) -> Tuple[dict, int]:
        """Point `i`'s axis values and seed (its place in `points`), without making its scenario."""
        c, seed = divmod(i, len(self.seeds))
        axes = {}
        for key, values in reversed(list(self.axes.items())):  # the last axis varies fastest
            c, at = divmod(c, len(values))
            axes[key] = values[at]
        return {k: axes[k] for k in self.axes}, self.seeds[seed]

    def point(self, i: int, engine: bool = True) -> Point:
        """Point `i` of `points`; `engine` False leaves out the engine's rules (`parse_scenario`), for a point
        of a combination the engine has checked (`_check`)."""
        return self._combination(i // len(self.seeds), engine)[i % len(self.seeds)]

    def _combination(self, c: int, engine: bool = True) -> List[Point]:
        """The points of combination `c` of axis values, one per seed (the last one made is kept, while the
        seeds are the same: `reproduce` adds seeds to a sweep), held to the engine's rules if `engine`."""
        if self._made is not None and self._made[:3] == (c, tuple(self.seeds), engine):
            return self._made[3]
        axes, made, keys = self._keyed(c, engine)
        if isinstance(made, ScenarioError):
            points = [Point(axes, seed, key, error=f"ScenarioError: {made}") for seed, key in zip(self.seeds, keys)]
        else:
            points = [Point(axes, seed, key, scenario=made if seed == made.seed else
                            made.model_copy(update={"seed": seed}, deep=True)) for seed, key in zip(self.seeds, keys)]
        self._made = (c, tuple(self.seeds), engine, points)
        return points

    def _overrides(self, key: str, value: Any) -> List[str]:
        """The overrides that value `value` of axis `key` stands for (none for the flows axis, applied after them)."""
        if key == VARIANT:
            return list(self.variants[value])
        return [] if key == FLOWS else [f"{key}={json.dumps(value)}"]

    def _keyed(self, c: int, engine: bool = True) -> Tuple[dict, Union[Scenario, ScenarioError], List[str]]:
        """Combination `c`'s axis values, its scenario on the first seed (or why it is invalid) and its run key on
        each seed: one validation and one conversion to the engine's form for all its seeds (the seed is a key
        of that form, and changes nothing else), on `set` applied once (`_fixed`); the engine reads it once, at
        the end, if `engine` (its steps leave out the engine's rules)."""
        axes, _ = self.axes_at(c * len(self.seeds))
        overrides = [o for k, v in axes.items() for o in self._overrides(k, v)]
        try:
            s = apply_overrides(self._fixed, overrides + [f"seed={self.seeds[0]}"], self.root, engine=False)
            if FLOWS in axes:
                s = _with_flows(s, axes[FLOWS])
            s = scaled(s, self.scale, engine=False)
            if s.trace is not None:
                raise ScenarioError("trace", NO_TRACE)
            if engine:
                s.engine_checked()
        except ScenarioError as e:
            invalid = {"base": self.base.to_engine(), "overrides": self.set + overrides, "axes": axes, "scale": self.scale}
            return axes, e, [run_key({**invalid, "overrides": invalid["overrides"] + [f"seed={seed}"]}, ENGINE_VERSION)
                             for seed in self.seeds]
        engine = s.to_engine()
        return axes, s, [run_key({**engine, "seed": seed}, ENGINE_VERSION) for seed in self.seeds]


def _with_flows(s: Scenario, flows: Any) -> Scenario:
    if s.topology.kind != "e-base":
        raise ScenarioError(FLOWS, f"the flows axis spreads flows over E-base's edges, not a {s.topology.kind} topology")
    edges = s.topology.edges
    if not isinstance(flows, int) or flows <= 0 or flows % edges:
        raise ScenarioError(FLOWS, f"{flows!r} flows cannot be spread evenly over {edges} edges")
    return apply_overrides(s, [f"topology.hosts_per_edge={flows // edges}"], engine=False)


Scale = Annotated[float, Field(gt=0.0, allow_inf_nan=False)]
Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]


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


def _base_file(path: Path, name: str) -> Path:
    """The scenario file a sweep file `path` names in `scenario`: a file relative to the sweep file's
    directory, else a packaged scenario of that name (as `pacesim run` takes it), else a SweepError."""
    try:
        if (path.parent / name).is_file():
            return path.parent / name
    except OSError:  # a name the file system refuses (too long, ...)
        pass
    found = packaged(name) if len(name) <= 255 else None
    if found is None:
        named = path.parent / name if len(name) <= 255 else f"{name[:80]}... ({len(name)} characters)"
        raise SweepError(f"{path}: scenario: no file {named}, and no packaged scenario named {name!r} "
                         f"({packaged_names()})")
    return found


def load_sweep(path: Union[str, Path], max_memory: Optional[int] = None) -> Sweep:
    """Read a sweep TOML file (see the module docstring); a base scenario whose graph alone needs more than
    `max_memory` bytes (default: the memory available) is refused, as `parse_scenario` refuses it."""
    path = Path(path)
    try:
        f = _SweepFile.model_validate(read_toml(path))
    except ValidationError as e:
        error = e.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        raise SweepError(f"{path}: {where}: {error['msg']} (got {shown(error['input'])})") from None
    if isinstance(f.scenario, str):
        scenario = load_scenario(_base_file(path, f.scenario), max_memory)
    else:
        scenario = parse_scenario(f.scenario, path.parent, max_memory=max_memory)
    quick = f.quick.model_dump(exclude_none=True) if f.quick is not None else None
    return Sweep(name=f.name or path.stem, base=scenario, axes=f.axes, seeds=f.seeds, set=f.set, scale=f.scale,
                 variants=f.variants, quick=quick, root=path.parent)


def simulate(scenario: dict, max_memory: Optional[int] = None) -> dict:
    """Run one point (a scenario in human units) where the executor puts it, refused if its estimated memory
    exceeds `max_memory` bytes (default: the memory available there), as `pacesim run` refuses a run.

    Returns the report, wall time and host, or the error: a worker never raises
    for a bad point, so every executor reports failures the same way.
    """
    from . import run

    try:
        # The pool's workers are the parallelism: one thread each.
        r = run(parse_scenario(scenario, max_memory=max_memory), threads=1, max_memory=max_memory)
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
                with _interrupts_deferred():  # never a cluster half started
                    cluster = LocalCluster(n_workers=workers or os.cpu_count(), threads_per_worker=1,
                                           processes=True, dashboard_address=None, silence_logs=logging.CRITICAL)
                    client = Client(cluster)
                yield client.get_executor(pure=False)
        finally:
            with _interrupts_deferred():  # nor half closed
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
def _interrupts_deferred() -> Iterator[None]:
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
    with _bar(progress) as bar:
        keys = _checked(sweep, bar, max_memory)
        n = sweep.size
        key = lambda i: keys[16 * i:16 * i + 16].hex()  # noqa: E731
        try:
            store.register_sweep(sweep.name, sweep.spec(), ((*sweep.axes_at(i), key(i)) for i in range(n)), origin)
            done, damaged = store.check(key(i) for i in range(n))
        except ReadOnlyStore:  # the caller's to say whether it had anything to write (`unwritten`)
            raise
        except StoreError as e:
            raise _store_failure(sweep.name, e) from None
        todo: Dict[bytes, int] = {}  # each run to do, by its first point
        for i in range(n):
            k = bytes(keys[16 * i:16 * i + 16])
            if k not in todo and k.hex() not in done:
                todo[k] = i
        del done
        for k, why in damaged.items():
            point = _named(*sweep.axes_at(todo[bytes.fromhex(k)]))
            warnings.warn(DamagedRun(printable(f"{sweep.name}: the stored run of {point}: {why}; running it again")),
                          stacklevel=2)
        failed = 0
        if todo:
            runnable = list(todo.values())
            del todo
            if pool is None:
                with executor() as own:
                    failed = _execute(sweep, runnable, n - len(runnable), store, own, bar, key, max_memory)
            else:
                failed = _execute(sweep, runnable, n - len(runnable), store, pool, bar, key, max_memory)
            ran = len(runnable)
        else:
            ran = 0
    return SweepRun(sweep.name, n, n - ran, ran, failed, time.perf_counter() - t0, tuple(damaged.values()))


def unwritten(sweep: Sweep, store: Store, progress: bool = True, max_memory: Optional[int] = None) -> Optional[str]:
    """What running `sweep` would write to `store`, read without writing (a store that cannot be written,
    `ReadOnlyStore`): None if nothing (its definition and points recorded as they are, every run finished
    and whole), else what. Its points are checked as `run_sweep` checks them (with `max_memory`)."""
    with _bar(progress) as bar:
        keys = _checked(sweep, bar, max_memory)
    n = sweep.size
    key = lambda i: keys[16 * i:16 * i + 16].hex()  # noqa: E731
    try:
        if not store.registered(sweep.name, sweep.spec(), ((*sweep.axes_at(i), key(i)) for i in range(n))):
            return f"the store does not hold {sweep.name} as this file defines it"
        done, _ = store.check(key(i) for i in range(n))
    except StoreError as e:
        raise _store_failure(sweep.name, e) from None
    left = sum(key(i) not in done for i in range(n))
    return f"{left:,} of its {n:,} points are not done" if left else None


PROGRESS_EVERY_S = 5.0
"""Off a terminal (a log file, a batch job), how often a sweep's progress is written as a line."""


class _Bar(Progress):
    """rich's progress bar, which draws only on a terminal; elsewhere (output to a file or a pipe) a plain
    line on standard error every `PROGRESS_EVERY_S` seconds: a 10^6-point sweep is checked for minutes
    before it runs, which was silence off a terminal (issue 33)."""

    def __init__(self, *columns, disable: bool = False) -> None:
        super().__init__(*columns, disable=disable)
        self.lines = not disable and not self.console.is_terminal
        self.written = time.monotonic()

    def update(self, task_id, **kw) -> None:
        super().update(task_id, **kw)
        if self.lines and time.monotonic() - self.written >= PROGRESS_EVERY_S:
            self.written = time.monotonic()
            task = self._tasks[task_id]
            share = f" ({100 * task.completed / task.total:.0f} %)" if task.total else ""
            failed = task.fields.get("failed")
            print(printable(f"{task.description}: {task.completed:,.0f} of {task.total or 0:,.0f}{share}"
                            f"{', ' + failed if failed else ''}, {task.elapsed or 0:,.0f} s"), file=sys.stderr, flush=True)


def _bar(progress: bool) -> Progress:
    return _Bar(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("[red]{task.fields[failed]}"), TextColumn("elapsed"), TimeElapsedColumn(),
        TextColumn("ETA"), TimeRemainingColumn(), disable=not progress,
    )


def _checked(sweep: Sweep, bar: Progress, max_memory: Optional[int] = None) -> bytearray:
    """Every point of `sweep` checked as `pacesim run` checks a scenario before it runs it, a combination of axis
    values at a time (its seeds share its validity): the scenario validated (`Sweep._keyed`, or from its axes'
    values alone, `_Factors`) and its network built (`_built`) if it fits in `max_memory` bytes (default: the
    memory available); their run keys, 16 bytes each in point order. A SweepError naming the invalid
    combinations of axis values (the first three), and the field at fault, if there are any."""
    factors = _Factors.of(sweep)
    task = bar.add_task(f"{sweep.name}: checking points", total=sweep.size, failed="")
    while True:
        try:
            return _check(sweep, bar, task, factors, _Built(max_memory))
        except _Disagree:  # never seen: a key or a verdict made from the axes' values alone is not the whole one
            factors = None
            bar.update(task, completed=0)


class _Disagree(Exception):
    """A combination checked from its axes' values alone (`_Factors`) and made whole disagree."""


@functools.lru_cache(maxsize=None)
def _builds(path: tuple) -> bool:
    """Whether building the network (engine/build.rs: what `_core.describe_json` builds) may refuse a scenario
    for the engine scenario's key at `path`: not for a key the schema marks `x-no-build` (nor one inside it),
    where the engine holds that scenarios differing only in such keys, each valid, are built or refused alike
    (tests/run.rs), so that a sweep of buffers, the papers' usual axis, builds one network for them all; nor for
    the seed (the topology's drawn rates), as a sweep checks its first seed's build as its validity."""
    if path[0] == "seed":
        return False
    node = schema.SCHEMA
    for part in path:
        keys = schema.resolve(node).get("properties", {})
        if part not in keys:  # a list's item, a tagged table's key: read
            return True
        node = keys[part]
        if node.get("x-no-build"):
            return False
    return True


BUILT = 65_536
"""The most networks `_check` remembers as built (a FIFO), so that combinations sharing one build it once."""

SAMPLE = 1009
"""Every this many combinations (and the first and last), one checked from its axes' values alone is made whole
too, and the two compared."""


class _Built(dict):
    """The networks `_check` has built (at most `BUILT`, a FIFO), and the bytes a network may take to be built
    (`limit`; None: the memory available)."""

    def __init__(self, limit: Optional[int]) -> None:
        super().__init__()
        self.limit = limit


def _check(sweep: Sweep, bar: Progress, task, factors: Optional[_Factors], built: _Built) -> bytearray:
    keys = bytearray()
    invalid: List[str] = []
    count = 0
    seeds, n = len(sweep.seeds), sweep.size // len(sweep.seeds)
    for c in range(n):
        fast = factors.keyed(c, built) if factors is not None else None
        if fast is None or c % SAMPLE == 0 or c == n - 1:
            axes, made, each = _whole(sweep, c, built)
            if fast is not None and ((fast[1] is None) != (made is None) or made is None and fast[2] != each):
                raise _Disagree
        else:
            axes, made, each = fast
        keys += bytes.fromhex("".join(each))
        if isinstance(made, ScenarioError):
            count += 1
            if len(invalid) < 3:
                invalid.append(f"{', '.join(f'{k}={v!r}' for k, v in axes.items())}: {made}")
        if (c + 1) * seeds // 1000 > c * seeds // 1000:
            bar.update(task, completed=(c + 1) * seeds)
    bar.update(task, completed=sweep.size)
    if count:
        raise SweepError(f"{sweep.name}: {count} combination(s) of axis values are invalid, nothing was run; "
                         + "; ".join(invalid) + ("; ..." if count > 3 else ""))
    return keys


def _whole(sweep: Sweep, c: int, built: _Built) -> Tuple[dict, Optional[ScenarioError], List[str]]:
    """Combination `c` made whole (`Sweep._keyed`) and its network built: its axis values, why it is invalid
    (None if it is not), its run keys."""
    axes, made, keys = sweep._keyed(c, engine=False)  # the engine reads it once, in `_built`
    if isinstance(made, ScenarioError):
        return axes, made, keys
    engine = made.to_engine()
    read = {k: v for k, v in engine.items() if _builds((k,))}
    read["core"] = {k: v for k, v in engine["core"].items() if _builds(("core", k))}
    network = hashlib.sha256(json.dumps(read, sort_keys=True).encode()).digest()
    return axes, _built(json.dumps(engine), network, built, valid=False), keys


def _built(engine: str, network: Any, built: _Built, valid: bool = True) -> Optional[ScenarioError]:
    """Why the scenario of engine JSON `engine` cannot run, or None: its network weighed (`memory.check_network`:
    one that would not fit in `built.limit` is refused naming its key, as `pacesim run` refuses it, not built)
    and built (as `pacesim run` builds it before it runs: RED on a graph's link, a pacer in front of a queue
    that holds its packets, a topology that paces no link by default), unless `built` holds `network` (what
    the build reads of it, which is all the weighing reads), and, unless `valid`, the engine's rules checked."""
    try:
        if network not in built:
            memory.check_network(json.loads(engine), built.limit)
            _core.describe_json(engine, 0)  # the engine's rules too
            built[network] = None
            if len(built) > BUILT:
                del built[next(iter(built))]
        elif not valid:
            _core.validate_json(engine)
    except ScenarioError as e:
        return e
    except ValueError as e:
        return ScenarioError.from_engine(e)
    return None


class _Factors:
    """A sweep's combinations checked and keyed from its axes' values alone, without making each scenario
    whole (pydantic's validation, 0.6 ms of CPU a combination): where every axis value is an assignment of
    keys that no other axis changes, a combination's engine scenario is the base's (`set` applied) with each
    of its values' changes, and its run key is made from the parts of it that changed (`store.keyed_run`).
    Each value is validated alone, as `Sweep._check_axis` does; each combination is still held to the
    engine's rules (`_core.validate_json`: those across keys) and has its network built (`_built`). `_check`
    compares one combination in `SAMPLE` with the one made whole; one that disagrees, never seen, makes every
    combination whole."""

    def __init__(self, sweep: Sweep, base: dict, changes: List[List[Optional[dict]]]) -> None:
        self.sweep = sweep
        self.sizes = [len(v) for v in sweep.axes.values()]
        self.changes = changes  # by axis and value: {engine path: value}, None if the value alone is invalid
        self.base = base
        self.texts = {k: json.dumps(v) for k, v in base.items()}
        self.names = {k: json.dumps(k) for k in base}
        self.parts = {k: key_part(k, v) for k, v in base.items()}
        self.seeds = [key_part("seed", seed) for seed in sweep.seeds]
        # Each top-level key an axis changes, with the axes that change it; the axes that change what a build reads.
        self.tables: Dict[str, List[int]] = {}
        for a, values in enumerate(changes):
            for top in sorted({path[0] for change in values if change for path in change}):
                self.tables.setdefault(top, []).append(a)
        self.network = [a for a, values in enumerate(changes) if any(_builds(p) for c in values if c for p in c)]
        self.made: Dict[Tuple[str, tuple], Tuple[str, Optional[str]]] = {}

    @classmethod
    def of(cls, sweep: Sweep) -> Optional[_Factors]:
        """The factors of `sweep`, or None if its combinations must be made whole: it is scaled (`scaled` reads
        the whole scenario) or has a flows axis (hosts from flows and edges), an axis sets a topology's kind
        (which starts the topology anew) or a table at once (each of its keys), removes a key, or two axes
        change one key."""
        if sweep.scale != 1 or FLOWS in sweep.axes:
            return None
        for key, values in sweep.axes.items():
            for value in values:
                for item in sweep._overrides(key, value):
                    name, _, text = item.partition("=")
                    if name.strip() == "topology.kind" or text.strip().startswith("{") or isinstance(value, dict):
                        return None
        if any(change is False for values in sweep._alone for change in values):
            return None
        touched = [{path for change in values if change for path in change} for values in sweep._alone]
        for a, paths in enumerate(touched):
            for other in touched[a + 1:]:
                if any(p[:len(q)] == q or q[:len(p)] == p for p in paths for q in other):
                    return None
        base = sweep._fixed.to_engine()
        base["seed"] = sweep.seeds[0]  # no axis sets it, and each point's own replaces it in its key
        return cls(sweep, base, sweep._alone)

    def keyed(self, c: int, built: _Built) -> Optional[Tuple[dict, Optional[ScenarioError], List[str]]]:
        """Combination `c`'s axis values, why it is invalid (None if it is not) and its run keys; None if one of
        its values is invalid alone (the combination is made whole, and says why)."""
        at = []
        for size in reversed(self.sizes):  # the last axis varies fastest
            c, i = divmod(c, size)
            at.append(i)
        at.reverse()
        if any(self.changes[a][i] is None for a, i in enumerate(at)):
            return None
        texts, parts = dict(self.texts), dict(self.parts)
        for top, axes in self.tables.items():
            texts[top], parts[top] = self._table(top, tuple((a, at[a]) for a in axes))
        engine = "{" + ",".join(f"{self.names[k]}:{v}" for k, v in texts.items()) + "}"
        why = _built(engine, tuple(at[a] for a in self.network), built, valid=False)
        parts = {k: v for k, v in parts.items() if v is not None}
        keys = [keyed_run({**parts, "seed": seed}, ENGINE_VERSION) for seed in self.seeds]
        return {k: v[i] for (k, v), i in zip(self.sweep.axes.items(), at)}, why, keys

    def _table(self, top: str, values: tuple) -> Tuple[str, Optional[str]]:
        """Top-level key `top` of the engine's scenario with the changes of `values` ((axis, value index) of the
        axes that change it): its JSON and its part of a run's key (`store.key_part`)."""
        made = self.made.get((top, values))
        if made is None:
            table = self.base[top]
            for a, i in values:
                for path, value in self.changes[a][i].items():
                    if path[0] == top:
                        table = _assigned(table, path[1:], value) if len(path) > 1 else value
            made = self.made[(top, values)] = (json.dumps(table), key_part(top, table))
            if len(self.made) > BUILT:
                del self.made[next(iter(self.made))]
        return made


def _assigned(table: Any, path: tuple, value: Any) -> Any:
    """`table` with the key at `path` (a tuple of keys) set to `value`: the tables on the path copied, the rest
    shared."""
    if len(path) == 1:
        return {**table, path[0]: value}
    return {**table, path[0]: _assigned(table[path[0]], path[1:], value)}


def _changes(base: dict, new: dict, path: tuple) -> Union[dict, bool]:
    """The keys (paths) of engine scenario `new` whose values differ from `base`'s, with their values in `new` (a
    list changed whole); False if `new` lacks a key `base` has (no assignment of keys removes one)."""
    out: dict = {}
    for k, value in new.items():
        was = base.get(k, _ABSENT)
        if isinstance(value, dict) and isinstance(was, dict):
            inner = _changes(was, value, path + (k,))
            if inner is False:
                return False
            out.update(inner)
        elif type(value) is not type(was) or value != was or (
                isinstance(value, (list, tuple)) and json.dumps(value) != json.dumps(was)):  # [1] == [1.0]
            out[path + (k,)] = value
    return False if set(base) - set(new) else out


_ABSENT = object()


def _execute(sweep: Sweep, points: List[int], skipped: int, store: Store, pool: Executor, bar: Progress,
             checked: Callable[[int], str], max_memory: Optional[int] = None) -> int:
    """Make each of the points of `sweep` at indices `points`, submit it (at most `IN_FLIGHT` at once, each
    with `max_memory`, as `simulate` takes it) and store each result as it completes; the number that failed.
    A point made with another key than it was checked and registered with (`checked`; never seen) is a
    SweepError: stored, it would never count done."""
    failed = 0
    task = bar.add_task(f"{sweep.name} ({skipped} done before)", total=len(points), failed="0 failed")
    waiting = iter(points)
    running: Dict[Future, Point] = {}
    stored = 0

    def submit() -> None:
        for i in waiting:
            p = sweep.point(i, engine=False)  # `_check` had the engine check it; the worker's run reads it once
            if p.key != checked(i):
                raise SweepError(f"{sweep.name}: {p.named()}: made to run, its run key {p.key} is not the one checked, "
                                 f"{checked(i)}; nothing more was run", 1)
            running[pool.submit(simulate, p.scenario.model_dump(mode="json", exclude_none=True), max_memory)] = p
            if len(running) >= IN_FLIGHT:
                return

    # Python raises Ctrl-C's KeyboardInterrupt (and SIGTERM's Terminated) in whatever code the main
    # thread runs; inside pydantic's serializer or SQLite that code wraps it in its own error (a
    # traceback, not "interrupted"). So a signal is heard in wait() and held while points are made
    # and stored, and a point whose result came back before it is kept.
    with _interrupts_deferred():
        submit()
    while running:
        finished, _ = wait(running, return_when=FIRST_COMPLETED)
        with _interrupts_deferred():
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
