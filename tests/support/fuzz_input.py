"""Hostile input for pacesim's front end, generated with hypothesis, and the
class of every outcome (issue 20).

Six kinds of case, each driven through what `pacesim run` and `pacesim
sweep` call (cli.py): a scenario TOML file (one of scenarios/ made tiny,
then mutated: values replaced by wrong types, huge, negative, NaN or
non-ASCII-digit ones, unknown keys, keys deleted, tables turned into
values; or its bytes: non-UTF-8, truncated, deep nesting, a number past
Python's 4300-digit limit) read by `load_scenario`; a sweep file (one of
scenarios/, mutated alike) read by `load_sweep` and expanded into its
points; `--set` overrides on a tiny scenario (`apply_overrides`); a
video trace file with its `[traffic.udp.trace]` table; UDP sources of
absurd offered load (`offered_case`); and TCP senders paced by their hosts
with Wei's pacer, FACK most of all (`pacer_case`). What validates and
is small enough (`COST_CAP` packets) runs in a worker process with a
timeout and its memory watched (`WATCH`), one or two threads, and its
report is checked for nonsense.

Classes (`CLASSES`): clean errors that name their field, errors that do
not (or give an internal JSON position), runs that were fine, valid
scenarios too large to run here, timer storms that ns-2 with Wei's patch
has too (the storm `pacesim.engine.slow` warns of: FACK under Wei's pure
rate control, its progress and events recorded as evidence), and the
defects: a Python traceback, an engine panic, an engine failure (a broken
conservation check), a crashed worker (killed by a signal: abort on a
failed allocation), a hang (not done in `TIMEOUT_S` of its worker's CPU
time, its simulated time standing still, or no CPU time used for
`fuzzing.BLOCKED_S`), a slow run (not done, its simulated time moving: any
other), nonsense a report should never hold (`nonsense`), an `offered`
case whose queue the memory guard let grow past its limit (`unguarded`)
and a run whose worker kept taking memory (`WATCH`).

`fuzzing.fuzz(Harness(work), CASES, cases, seed)` generates the cases and counts
their classes; tests/test_fuzz.py runs a fixed budget of it, bench/fuzz/hostile.py
(its command line) the long runs of bench/fuzz/README.md.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import re
import traceback
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import psutil
import tomli_w
from hypothesis import strategies as st

import pacesim
from pacesim import memory
from pacesim.engine import SlowRun, slow
from pacesim.memory import tcp_flows
from pacesim.scenario import Scenario, ScenarioError, apply_overrides, load_scenario, tomllib
from pacesim.sweep import SweepError, load_sweep
from pacesim.topology import describe

from . import fuzzing

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
SCENARIO_FILES = sorted(p for p in SCENARIOS.glob("[a-z]*.toml"))
SWEEP_FILES = sorted(p for p in SCENARIOS.glob("[A-Z]*.toml"))

CLASSES = ["error names field", "ran ok", "valid, too large to run here", "timer storm, as ns-2",
           "error without field", "traceback", "panic", "engine failure", "crash", "hang", "slow", "nonsense",
           "memory unguarded", "memory runaway"]
DEFECTS = CLASSES[4:]
"""Outcomes issue 20 allows none of."""
KEPT = DEFECTS + ["timer storm, as ns-2"]
"""Outcomes whose examples a record keeps: the defects, and the storms, each with its evidence."""

COST_CAP = 300_000
"""The most packets (core rate x duration / smallest packet, plus UDP) a case may send to be run here."""
FLOW_CAP = 400
TIMEOUT_S = 30.0
"""A run of at most `COST_CAP` packets takes well under a second of CPU; one not done when its worker has used
this much CPU time (`fuzzing.Clock`: not wall time, which a worker starved on a loaded machine spends
waiting) is stopped and classed by its simulated progress (`Engine.run`): a hang if its simulated time stood
still over the second half of this CPU time, else a slow run or a timer storm. A worker using no CPU time for
`fuzzing.BLOCKED_S` of wall time is blocked: a hang."""
EVENTS_PER_PROGRESS = 2**18
"""Events the engine pops between two calls of its `progress` (engine/world.rs `run_until`)."""
STORM_EVENTS_PER_PACKET = 100
"""Events per packet the run may send (`cost`, in the share of the run simulated) past which a slow run is a
storm of events that are no packet's: timers. A packet makes a few events a hop (hang-pacer-4605's storm:
about 650 a packet-hop)."""
WATCH = (0.05, 2**28)
"""How often (s) the worker's resident memory is read while it runs a case, and how far (B) it may grow
above what it held before: a run of at most `COST_CAP` packets queues under 20 MB (64 B each) and at most
`FLOW_CAP` flows hold about 3 MB, so a worker past this keeps taking memory the up-front guard
(`memory.check`) did not see coming (E-fig7's FACK with Wei's pacer: 120 MB/s) and is stopped before it
takes the machine's. An `offered` case, whose absurd
sources the guard bounds at `OFFERED_LIMIT`, may grow to that limit."""

# Each scenario of scenarios/ made tiny: a second of simulated time and a few flows.
TINY_TIME = {"duration": "1s", "warmup": "200ms"}
TINY_TOPOLOGY = {
    "e-base": {"edges": 2, "hosts_per_edge": 3},
    "a-base": {"tcp_hosts": 4},
    "q-dumbbell": {"access_routers": 2, "senders_per_router": 2, "receivers": 2},
    "w-dumbbell": {"flows": 3},
}
# Optional tables and keys no scenario file writes, so that mutations reach them too.
OPTIONAL = ["burstiness.bin", "burstiness.scales", "burstiness.series", "burstiness.link", "progress.interval",
            "delay.class", "traffic.short.mean_size", "traffic.short.shape", "traffic.short.mean_think",
            "traffic.short.fraction", "pacing.utilization", "pacing.max_delay", "pacing.links", "tcp.delayed_ack",
            "core.red.min_th", "core.red.max_th", "core.buffer_packets", "topology.udp.rate", "traffic.two_way",
            "traffic.udp", "pacing.scheme", "core.queue", "series.flows", "series.links", "series.pacers",
            "series.interval"]


def tiny(data: dict) -> dict:
    """A scenario in human units cut to a second and a few flows (sizes of the paper setups otherwise kept)."""
    data = json.loads(json.dumps(data))
    data.update(TINY_TIME)
    data.setdefault("traffic", {})["start"] = ["0s", "100ms"]
    topo = data.setdefault("topology", {})
    topo.update(TINY_TOPOLOGY.get(topo.get("kind", "e-base"), {}))
    return data


def _read(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _paths(data: Any, prefix: str = "") -> List[str]:
    """Every dotted path in a TOML document (list elements as name[i])."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            p = f"{prefix}.{k}" if prefix else k
            out.append(p)
            out += _paths(v, p)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            if isinstance(v, (dict, list)):
                out += _paths(v, f"{prefix}[{i}]")
    return out


# --- values a hostile user writes ---

UNITS = ["B", "KB", "kB", "MB", "GB", "KiB", "GiB", "bps", "Kbps", "Mbps", "Gbps", "b/s", "ns", "us", "\u00b5s", "ms",
         "s", "", " s", "min", "Mb", "KBps", "%"]
DIGITS = st.one_of(
    st.integers(0, 10**25).map(str),
    st.builds(lambda a, b: f"{a}.{b}", st.integers(0, 10**6), st.integers(0, 10**12)),
    st.sampled_from(["0", "-1", "-0", "1e3", "1E400", "nan", "inf", "0x10", "1_000", "9" * 20, "9" * 4400,
                     "\u0665", "1\u0660", "\uff15", "5\u2003", "\u00b2", "٣.٥", "18446744073709551616",
                     "1.0000000000000000001", ".5", "5.", ""]),
)
QUANTITY = st.builds(lambda n, u: f"{n}{u}", DIGITS, st.sampled_from(UNITS))
NUMBER = st.one_of(
    st.integers(),
    st.sampled_from([0, -1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63) - 1, 10**30]),
    st.floats(),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e-300, 1e300, 5e-324]),
)
SCALAR = st.one_of(NUMBER, st.booleans(), QUANTITY, st.text(max_size=12),
                   st.sampled_from(["reno", "red", "edge", "host", "qlbp", "graph", "a-base", "e-base", "cbr", "trace",
                                    "core", "s-udp", "d-udp", "h1", "../x", "/dev/zero", "scenarios"]))
# Values a careful user might write, so that edits also make scenarios that validate and run.
PLAUSIBLE = st.sampled_from([1, 2, 3, 10, 0.5, 0.01, True, False, "1KB", "5KB", "64KiB", "1500B", "40B", "1ms", "10ms",
                             "0s", "100ms", "2s", "1Mbps", "10Mbps", "1Gbps", "red", "droptail", "edge", "host", "qlbp",
                             "cbr", "poisson", "newreno", "cubic", "fast", ["1ms", "5ms"], ["1Mbps", "2Mbps"]])
VALUE = st.recursive(st.one_of(PLAUSIBLE, SCALAR), lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                     max_leaves=8)


QUANTITY_TEXT = re.compile(r"([0-9.]+) ?(.+)")
NUMBER_TEXT = st.one_of(st.integers(0, 10**4).map(str), st.integers(0, 10**40).map(str), DIGITS)


def _like(value: Any) -> st.SearchStrategy:
    """Values of `value`'s shape with hostile numbers: its unit with any digits, an int, a float, a pair."""
    if isinstance(value, bool):
        return st.one_of(st.booleans(), SCALAR)
    if isinstance(value, int):
        return st.one_of(st.integers(0, 2**16), st.integers(), NUMBER)
    if isinstance(value, float):
        return st.one_of(st.floats(0, 2), NUMBER)
    if isinstance(value, str) and QUANTITY_TEXT.fullmatch(value):
        unit = QUANTITY_TEXT.fullmatch(value)[2]
        return st.builds(lambda n, u: f"{n}{u}", NUMBER_TEXT, st.one_of(st.just(unit), st.sampled_from(UNITS)))
    if isinstance(value, list) and value:
        return st.lists(_like(value[0]), min_size=len(value) - 1, max_size=len(value) + 1)
    return VALUE


@st.composite
def _mutated(draw, data: dict, extra_paths: List[str]) -> dict:
    """`data` with one to four structural edits: a value replaced, a key deleted or added, a table made a value."""
    data = json.loads(json.dumps(data))
    paths = _paths(data) + extra_paths
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["same", "same", "same", "same", "set", "set", "delete", "unknown", "table"]))
        path = draw(st.sampled_from(paths)) if paths else "x"
        parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
        table: Any = data
        for part in parts[:-1]:
            if part.startswith("["):
                i = int(part[1:-1])
                table = table[i] if isinstance(table, list) and i < len(table) else None
            elif isinstance(table, dict):
                table = table.setdefault(part, {})
            else:
                table = None
            if not isinstance(table, (dict, list)):
                break
        last = parts[-1]
        if not isinstance(table, dict) or last.startswith("["):
            continue
        if op == "same":
            table[last] = draw(_like(table.get(last)))
        elif op == "set":
            table[last] = draw(VALUE)
        elif op == "delete":
            table.pop(last, None)
        elif op == "unknown":
            table[draw(st.text(min_size=1, max_size=8))] = draw(SCALAR)
        else:
            table[last] = draw(st.one_of(st.just([]), st.just({}), st.lists(SCALAR, max_size=2), SCALAR))
    return data


def _dumps(data: dict) -> bytes:
    """TOML bytes of `data`; values TOML cannot hold (None, mixed keys) fall back to the JSON text."""
    try:
        return tomli_w.dumps(data).encode()
    except (TypeError, ValueError):
        return json.dumps(data, default=str).encode()


@st.composite
def _garbled(draw, text: bytes) -> bytes:
    """`text` with bytes inserted, cut, or hostile lines appended."""
    how = draw(st.sampled_from(["bytes", "cut", "nest", "digits", "latin1"] + ["none"] * 8))
    if how == "bytes":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.binary(min_size=1, max_size=8)) + text[at:]
    if how == "cut":
        return text[:draw(st.integers(0, len(text)))]
    if how == "nest":
        depth = draw(st.sampled_from([10, 100, 1000, 5000, 20000]))
        inner = draw(st.sampled_from(["[" * depth + "]" * depth, "{a=" * depth + "1" + "}" * depth]))
        return text + f"\nnested = {inner}\n".encode()
    if how == "digits":
        key = draw(st.sampled_from(["seed", "zz"]))
        return f"{key} = {'9' * draw(st.sampled_from([4301, 5000, 100000]))}\n".encode() + text
    if how == "latin1":
        return text.decode("utf-8", "replace").replace("s", "\u00b5").encode("latin-1", "replace") + b"\n# \xe9\xff\n"
    return text


# --- cases ---

@dataclass
class Case:
    kind: str  # scenario, sweep, set, trace, offered, pacer
    name: str  # the file it started from
    content: bytes = b""
    overrides: List[str] = field(default_factory=list)
    trace: bytes = b""
    threads: int = 1


@lru_cache(maxsize=None)
def _tiny_text(path: Path) -> str:
    return json.dumps(tiny(_read(path)))


def _base(path: Path) -> dict:
    """Scenario file `path` made tiny, a fresh copy each call."""
    return json.loads(_tiny_text(path))


@st.composite
def scenario_case(draw) -> Case:
    path = draw(st.sampled_from(SCENARIO_FILES))
    data = draw(_mutated(_base(path), OPTIONAL))
    return Case("scenario", path.stem, draw(_garbled(_dumps(data))), threads=draw(st.sampled_from([1, 2])))


def _tiny_sweep(path: Path) -> dict:
    """Sweep file `path` with two values per axis and one seed (its points are validated, not run)."""
    data = _read(path)
    data["axes"] = {k: v[:2] if isinstance(v, list) else v for k, v in data.get("axes", {}).items()}
    data["seeds"] = data.get("seeds", [1])[:1]
    return data


@st.composite
def sweep_case(draw) -> Case:
    path = draw(st.sampled_from(SWEEP_FILES))
    extra = ["scenario", "seeds", "set", "scale", "quick.scale", "quick.seeds", "quick.set", "variants", "axes.flows",
             "axes.variant", "axes.core.buffer"]
    data = draw(_mutated(_tiny_sweep(path), extra))
    return Case("sweep", path.stem, draw(_garbled(_dumps(data))))


OVERRIDE_KEY = st.one_of(
    st.sampled_from(sorted(set(p for f in SCENARIO_FILES for p in _paths(_base(f))) | set(OPTIONAL))),
    st.builds(lambda k, i: f"{k}[{i}]", st.sampled_from(["traffic.udp", "topology.links", "topology.flows", "seed"]),
              st.integers(0, 10**30)),
    st.text(max_size=12),
)


def _get(data: dict, path: str) -> Any:
    for part in path.split("."):
        data = data[part]
    return data


def _literal(value: Any) -> str:
    """`value` as the TOML text after `=` in a --set."""
    try:
        return tomli_w.dumps({"v": value})[4:].strip()
    except (TypeError, ValueError):
        return str(value)


@st.composite
def set_case(draw) -> Case:
    path = draw(st.sampled_from(SCENARIO_FILES))
    base = _base(path)
    leaves = [p for p in _paths(base) if "[" not in p and not isinstance(_get(base, p), dict)]
    items = draw(st.lists(st.one_of(
        st.sampled_from(leaves).flatmap(lambda k: _like(_get(base, k)).map(lambda v: f"{k}={_literal(v)}")),
        st.sampled_from(leaves).flatmap(lambda k: _like(_get(base, k)).map(lambda v: f"{k}={_literal(v)}")),
        st.builds(lambda k, v: f"{k}={_literal(v)}", OVERRIDE_KEY, VALUE),
        st.builds(lambda k, v: f"{k}={v}", OVERRIDE_KEY, st.one_of(QUANTITY, st.text(max_size=30))),
        st.text(max_size=20),
    ), min_size=1, max_size=3))
    return Case("set", path.stem, _dumps(base), items, threads=draw(st.sampled_from([1, 2])))


TRACE_COLUMNS = [["frame", "time_s", "type", "bytes"], ["bytes"], ["time_ms", "bits"], ["-", "bytes", "time_s"]]
TRACE_FIELD = {"frame": st.integers(0, 10**4).map(str), "type": st.sampled_from(["I", "P", "B"]),
               "time_s": st.floats(0, 100).map(lambda t: f"{t:.4f}"), "time_ms": st.integers(0, 10**5).map(str),
               "bytes": st.integers(0, 10**5).map(str), "bits": st.integers(0, 10**6).map(str), "-": st.just("x")}
HOSTILE_FIELD = st.one_of(DIGITS, st.sampled_from(["#", "-", "nan", "inf", "-5", "1e400", "0", "9" * 5000]),
                          st.text(max_size=6))


@st.composite
def _trace_line(draw, columns: list) -> str:
    """One frame: plausible fields for the named columns, one of them hostile now and then."""
    fields = [draw(TRACE_FIELD.get(c, HOSTILE_FIELD) if isinstance(c, str) else HOSTILE_FIELD) for c in columns]
    if fields and draw(st.integers(0, 9)) == 0:
        fields[draw(st.integers(0, len(fields) - 1))] = draw(HOSTILE_FIELD)
    return " ".join(fields[:draw(st.integers(len(fields) - 1, len(fields)))] if fields else [])


@st.composite
def trace_case(draw) -> Case:
    columns = draw(st.one_of(st.sampled_from(TRACE_COLUMNS), st.sampled_from(TRACE_COLUMNS),
                             st.lists(st.one_of(st.sampled_from(list(TRACE_FIELD)), SCALAR), max_size=5)))
    rows = draw(st.lists(_trace_line(columns), max_size=12))
    body = "\n".join(rows).encode("utf-8", "surrogatepass")
    body = draw(_garbled(body))
    trace: Dict[str, Any] = {"file": "TRACE", "columns": columns, "send": draw(st.sampled_from(["spread", "burst", "x"]))}
    timed = any(c in ("time_s", "time_ms") for c in columns if isinstance(c, str))
    fps = draw(st.one_of(st.none() if timed else st.floats(1, 100), NUMBER))
    if fps is not None:
        trace["fps"] = fps
    source: Dict[str, Any] = {"kind": "trace", "size": draw(st.sampled_from(["200B", "1B", "0B", "65535B", "1500B"])),
                              "trace": trace}
    rate = draw(st.one_of(st.none(), st.sampled_from(["1Mbps", "1bps", "100Gbps", "0bps"])))
    if rate is not None:
        source["rate"] = rate
    data = _base(SCENARIOS / "a-video.toml")
    data["traffic"]["udp"] = [source]
    return Case("trace", "a-video", _dumps(data), trace=body, threads=draw(st.sampled_from([1, 2])))


OFFERED_LIMIT = 2**30
"""The memory an `offered` case may take: the guard must refuse a run whose UDP queue would grow past it."""


@st.composite
def offered_case(draw) -> Case:
    """A-base's UDP host alone sending one to three sources of absurd offered load into its 100 Mb/s access
    link (no queue limit): any kind, rates from 1 b/s to 2^64 - 1, ON and OFF from 1 ns, packets of 1 B up,
    runs of 1 s to a day (issue 33: ON = OFF = 1 ns grew to 20 GB unseen by the memory guard)."""
    def source(kind: str) -> Dict[str, Any]:
        u: Dict[str, Any] = {"kind": kind, "size": draw(st.sampled_from(["1B", "40B", "200B", "1500B", "65535B"])),
                             "rate": draw(st.sampled_from(["1bps", "1Mbps", "60Mbps", "99Mbps", "300Mbps", "10Gbps",
                                                           "18446744073709551615bps"])),
                             "start": draw(st.sampled_from(["0s", "1ns", "0.5s"]))}
        if kind == "onoff":
            for key in ("on", "off"):
                u[key] = draw(st.sampled_from(["1ns", "1us", "1ms", "100ms", "1s", "100000s"]))
        if kind == "fbm":
            u["hurst"] = 0.85
        return u

    data = _base(SCENARIOS / "a-base.toml")
    data["topology"]["tcp_hosts"] = 0
    data["duration"] = draw(st.sampled_from(["1s", "20s", "1000s", "86400s"]))
    data["warmup"] = "0s"
    data.pop("burstiness", None)
    kinds = draw(st.lists(st.sampled_from(["cbr", "poisson", "onoff", "fbm"]), min_size=1, max_size=3))
    data["traffic"]["udp"] = [source(k) for k in kinds]
    return Case("offered", "a-base", _dumps(data), threads=draw(st.sampled_from([1, 2])))


def offered_bps(u) -> float:
    """A UDP source's mean offered rate, bit/s, computed here from its spec (independent of the engine): its
    rate, or for an ON-OFF source ns-2's renewal cycle, E[N] packets of 8 L bits per E[N] I + off,
    I = 8 L / peak, E[N] = 1 + e^(-3/(2m)) / (1 - e^(-1/m)), m = on / I."""
    if u.kind != "onoff":
        return float(u.rate)
    bits = 8 * memory._mean_size(u)
    interval = bits / u.rate
    m = u.on / 1e9 / interval
    n = 1 + math.exp(-1.5 / m) / -math.expm1(-1 / m)
    return bits * n / (n * interval + u.off / 1e9)


def unguarded(s: Scenario) -> Optional[str]:
    """What the memory guard let through of an `offered` case whose UDP queue, by this harness's own count
    (the sources' offered bits less the 100 Mb/s link's, in the offered stream's mean packets, 220 B each
    queued: measured in a split run, bench/fuzz/memory_cost.py), grows
    past `OFFERED_LIMIT` (None if nothing)."""
    run = s.duration / 1e9
    offered = [offered_bps(u) * max(0.0, run - u.start / 1e9) for u in s.traffic.udp]  # bits
    packets = sum(b / 8 / memory._mean_size(u) for b, u in zip(offered, s.traffic.udp))
    if packets == 0:
        return None
    size = sum(offered) / 8 / packets  # the offered stream's mean packet
    queued = (sum(offered) - 100e6 * run) / 8 / size * 220
    return f"the guard let through a UDP queue of about {queued:.3g} B" if queued > 2 * OFFERED_LIMIT else None


@st.composite
def pacer_case(draw) -> Case:
    """E-base's TCP senders paced by their hosts with Wei's pacer, FACK three times in four (the others any
    variant), the pacer's options, the window cut, small buffers and delays of 0 to 100 ms drawn: a sender
    that re-arms its own timers (E-fig7's FACK with Wei's pacer fired one every nanosecond until its first
    RTT sample and grew to 22 GB, unseen by the memory guard, which estimates a run before it starts: the
    worker's memory is watched through every run, `WATCH`)."""
    data = _base(SCENARIOS / "e-base.toml")
    delays = st.sampled_from(["0ms", "1us", "1ms", "100ms"])
    data["topology"].update(edges=draw(st.integers(1, 2)), hosts_per_edge=draw(st.integers(1, 3)),
                            access_delay=draw(delays), edge_delay=draw(delays))
    data["core"].update(buffer=draw(st.sampled_from(["1KB", "2KB", "5KB", "50KB"])), delay=draw(delays))
    data["duration"] = draw(st.sampled_from(["1s", "3s"]))
    data["warmup"] = "0s"
    data["traffic"]["start"] = draw(st.sampled_from([["0s", "0s"], ["0s", "500ms"]]))
    fack = draw(st.integers(0, 3)) > 0
    data["tcp"].update(variant="fack" if fack else draw(st.sampled_from(["reno", "newreno", "sack", "cubic", "fast"])),
                       window_cut=draw(st.sampled_from(["cwnd", "flight", "flight-if-host-paced"])),
                       rampdown=draw(st.booleans()), window=draw(st.sampled_from([1, 2, 20, 1000])),
                       syn=draw(st.booleans()))
    data["pacing"].update(scheme="host", host_pacer="wei", host_mode=draw(st.sampled_from(["original", "modified"])),
                          fraction=draw(st.sampled_from([1.0, 0.5])))
    overhead = draw(st.sampled_from(["0ms", "1us", "1ms"]))
    data["pacing"]["wei"] = {"ack_counting": draw(st.booleans()), "loss_filter": draw(st.sampled_from([0, 1, 4, -2])),
                             "inflation_ratio": draw(st.sampled_from([0, 1, 3])),
                             "pure_rate_control": draw(st.booleans()), "overhead": overhead,
                             "random_pace": overhead != "0ms" and draw(st.booleans())}
    return Case("pacer", "e-base", _dumps(data), threads=draw(st.sampled_from([1, 2])))


CASES = st.one_of(scenario_case(), sweep_case(), set_case(), trace_case(), offered_case(), pacer_case())


# --- outcomes ---

JSON_POSITION = re.compile(r"line \d+ column \d+")


TOP = set(Scenario.model_fields) | {"flows"}
"""The first part of every dotted path an error may name (`flows`: a sweep's axis)."""


def names_field(e: ScenarioError, case: Case, where: Path) -> bool:
    """Whether an error names what is wrong: a scenario key (a dotted path from
    the top, `flows` for a sweep's axis), an override as given or its key, the
    file, or a name the input holds; and no position in internal JSON."""
    if JSON_POSITION.search(e.message) or not e.field.strip():
        return False
    if e.field in (str(where), "--set") or any(e.field in (o, o.partition("=")[0].strip()) for o in case.overrides):
        return True
    if e.message.startswith("unknown key"):  # a key the input made up, quoted in the path when it is odd
        return True
    return re.split(r"[.\[]", e.field)[0] in TOP or e.field in case.content.decode("utf-8", "replace")


def nonsense(scenario: Scenario, report: dict) -> Optional[str]:
    """What in a report cannot be (None if nothing): numbers that are not
    finite, packets not conserved, rates, probabilities and counts out of
    range, a flow's goodput above the fastest link of the network, the core
    carrying more than its rate."""
    text = json.dumps(report)
    if re.search(r"\b(NaN|Infinity)\b", text):
        return "a number in the report is not finite"
    c = report["conservation"]
    if c["created"] != c["delivered"] + c["dropped"] + c["in_flight"] or min(c.values()) < 0:
        return f"packets not conserved: {c}"
    window = report["window_s"]
    if not (0 <= window[0] < window[1] <= scenario.duration / 1e9 + 1e-9):
        return f"window {window} outside the run"
    rates = [v for k, v in _numbers(scenario.to_engine()) if "rate" in k or k.startswith("mu_")]
    fastest = max(rates + [scenario.core_values().rate])
    # A link counts the packets it sent whole in the window, so none carries more than its rate (issue 33: it
    # counted them as they started, a packet more); goodput counts each segment for the share of its bits that
    # reached the receiver in the window, so no flow receives more than its last link carries (it counted a
    # segment whole as it was delivered, up to one more than the window holds).
    core_rate = scenario.core_values().rate
    for name, link in report["links"].items():
        if not 0 <= link["drops"] <= link["arrivals"] or link["departures"] > link["arrivals"] + 10**6:
            return f"link {name}: drops {link['drops']}, arrivals {link['arrivals']}, departures {link['departures']}"
        for key in ("loss_rate", "empty_prob", "idle_prob"):
            if not 0 <= link[key] <= 1:
                return f"link {name}: {key} {link[key]}"
        if link["throughput_mbps"] * 1e6 > fastest * 1.001 or link["mean_queue_bytes"] < 0:
            return f"link {name}: {link['throughput_mbps']} Mb/s above every link's rate ({fastest} b/s)"
    core = report["links"].get("core")
    if core is not None and core["throughput_mbps"] * 1e6 > core_rate * 1.001:
        return f"core carries {core['throughput_mbps']} Mb/s, its rate is {scenario.core_values().rate} b/s"
    flows = report["flows"]
    for i, g in enumerate(flows["goodput_kbps"]):
        if not 0 <= g * 1e3 <= fastest * 1.001:
            return f"flow {i}: goodput {g} Kb/s, the fastest link is {fastest} b/s"
        if not 0 <= flows["retransmits"][i] <= flows["data_packets_sent"][i]:
            return f"flow {i}: {flows['retransmits'][i]} retransmits of {flows['data_packets_sent'][i]} packets"
    for key in ("core_loss_rate", "core_empty_prob", "core_udp_loss_rate"):
        if not 0 <= report["summary"][key] <= 1:
            return f"summary {key} {report['summary'][key]}"
    return None


def _numbers(data: Any, key: str = "") -> List[Tuple[str, int]]:
    """(key, number) for every integer under `data`, lists under their key."""
    if isinstance(data, dict):
        return [x for k, v in data.items() for x in _numbers(v, k)]
    if isinstance(data, (list, tuple)):
        return [x for v in data for x in _numbers(v, key)]
    return [(key, data)] if isinstance(data, int) and not isinstance(data, bool) else []


def cost(s: Scenario) -> Tuple[float, int]:
    """(packets the run may send, flows): TCP data packets and their ACKs at the core's rate, every UDP
    source's at its rate (a trace's without one its file's mean, from the engine) in its smallest
    packets, over the run; and the TCP flows. A trace's mean comes from `describe`, which builds the whole
    network in this, the harness's own, process (seed 18503: A-base with 6,355,983 TCP hosts grew it to
    22 GB, and the kernel killed it): a network of more than `FLOW_CAP` flows, which is not run here, is not
    described (its packets: infinite), and any other only past the memory guard of the network, as pacesim's
    own callers of `describe` ask it (a ScenarioError naming the key, as `pacesim topology show` gives)."""
    tcp = 2 * s.core_values().rate / (s.tcp.segment_size + s.tcp.header_size)  # and an ACK each
    rates = [u.rate for u in s.traffic.udp]
    if None in rates:
        if tcp_flows(s) > FLOW_CAP:
            return math.inf, tcp_flows(s)
        memory.check(s, of=memory.network)
        rates = [r if r is not None else d["mean_rate_bps"] for r, d in zip(rates, describe(s, 0)["udp"])]
    udp = sum(r / min(u.sizes or u.size) for r, u in zip(rates, s.traffic.udp))
    return (tcp + udp) * s.duration / 1e9 / 8, tcp_flows(s)


# --- the engine in a worker process (a hang or an abort must not take the harness along) ---

def _serve(conn, progress) -> None:
    """Run what `conn` sends; `progress` holds the run's simulated fraction done and its calls of `progress`."""
    import faulthandler

    faulthandler.disable()
    warnings.simplefilter("ignore", SlowRun)  # the harness classes such runs itself

    def heard(done: float) -> None:
        progress[0] = done
        progress[1] += 1

    while True:
        scenario, threads = conn.recv()
        progress[0] = progress[1] = 0
        try:
            r = pacesim.run(scenario, threads=threads, progress=heard)
            conn.send(("ok", json.dumps(r.report)))
        except ScenarioError as e:
            conn.send(("ScenarioError", e.field, e.message))
        except RuntimeError as e:
            conn.send(("panic" if str(e).startswith("engine panic") else "engine failure", str(e)))
        except BaseException as e:  # noqa: BLE001  (classified, with its traceback, as a defect)
            conn.send(("traceback", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))


class Engine(fuzzing.Worker):
    """The engine in a worker process, one scenario at a time, restarted after a hang or a crash; `progress`
    (shared memory) holds the running scenario's simulated fraction done and its calls of `progress`."""

    def __init__(self) -> None:
        progress = multiprocessing.get_context("fork").Array("d", 2, lock=False)
        super().__init__(_serve, progress)
        self.progress = progress

    def run(self, s: Scenario, threads: int, growth: int = WATCH[1]) -> tuple:
        """Run `s` in the worker: its answer, or a runaway past `growth` bytes, a crash, or, not done in
        `TIMEOUT_S` of its CPU time, a hang (its simulated time stood still over the budget's second half, or
        it used no CPU time for `fuzzing.BLOCKED_S`), a timer storm
        as ns-2's (one `slow` warns of), or slow. A storm is judged at `TIMEOUT_S` like any run, so that one
        whose time stops moving after a while is a hang, not a storm."""
        self.start()
        every = WATCH[0]
        worker = psutil.Process(self.proc.pid)
        before = worker.memory_info().rss
        clock = fuzzing.Clock(self.proc.pid)
        self.send((s, threads))
        halfway = None  # the simulated fraction done at half of TIMEOUT_S of the worker's CPU time
        while not self.conn.poll(every):
            try:
                grew = worker.memory_info().rss - before
                used = clock.used()
            except psutil.NoSuchProcess:  # died: its end is read below
                break
            if halfway is None and used > TIMEOUT_S / 2:
                halfway = self.progress[0]
            verdict = None
            if grew > growth:
                verdict = ("memory runaway", f"the worker grew by {grew / 2**20:,.0f} MiB in {used:.1f} s of CPU time")
            elif used > TIMEOUT_S:
                verdict = self._unfinished(s, TIMEOUT_S, self.progress[0], halfway, self.progress[1])
            elif clock.blocked():
                verdict = ("hang", f"no CPU time used in {fuzzing.BLOCKED_S:g} s, its simulated time standing at "
                                   f"{self.progress[0]:.3%} of the run")
            if verdict is not None:
                self.close()
                return verdict
        return self.answer()

    @staticmethod
    def _unfinished(s: Scenario, age: float, done: float, halfway: float, calls: float) -> tuple:
        """The class of a run not done in `age` seconds of its worker's CPU time: `done` of its simulated time,
        `halfway` of it at half that, `calls` calls of its progress (`EVENTS_PER_PROGRESS` events each)."""
        if done <= halfway:
            return ("hang", f"no answer in {age:g} s of CPU time, its simulated time stood at {done:.3%} of the "
                            f"run from {age / 2:g} s on")
        events = calls * EVENTS_PER_PROGRESS
        per_packet = events / max(1.0, cost(s)[0] * done)
        evidence = (f"{done:.1%} of the run simulated in {age:g} s of CPU time ({done - halfway:.1%} in the last "
                    f"{age / 2:g} s), at least {events:,.0f} events, {per_packet:,.0f} a packet it may send")
        if per_packet > STORM_EVENTS_PER_PACKET and slow(s):  # FACK's storm under Wei's pure rate control
            return ("timer storm, as ns-2", evidence)
        return ("slow", evidence)

@dataclass
class Outcome:
    cls: str
    detail: str


class Harness(fuzzing.Tally):
    """Drives cases through the front end and counts their outcomes."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(KEPT)
        self.dir = workdir
        for f in SCENARIO_FILES + [SCENARIOS / "traces"]:  # sweep files name scenarios and traces by relative path
            link = workdir / f.name
            if not link.exists():
                link.symlink_to(f)
        self.engine = Engine()

    def close(self) -> None:
        self.engine.close()

    def _run(self, s: Scenario, case: Case) -> Outcome:
        if case.kind == "offered":  # the guard refuses it (a ScenarioError naming the source) or it is bounded
            memory.check(s, OFFERED_LIMIT)
            blind = unguarded(s)
            if blind:
                return Outcome("memory unguarded", blind)
        packets, flows = cost(s)
        if packets > COST_CAP or flows > FLOW_CAP:
            return Outcome("valid, too large to run here", f"{packets:.3g} packets, {flows} flows")
        # A run the guard prices past what the worker may grow by: seen coming, so no runaway; too large to run
        # here. Its network (seed 18022: Q's dumbbell with 2,922,896 receivers, 12 GB estimated, 3.5 GB taken) or
        # what its sources queue (seed 29001: a video trace at 6.8 M frames/s into a 100 Mb/s link, 1.9 GB
        # estimated, 0.7 GB taken: weighed by the guard, the whole estimate, not by `cost`'s packets).
        growth = OFFERED_LIMIT if case.kind == "offered" else WATCH[1]
        priced = memory.estimate(s, growth)
        if sum(priced.parts.values()) > growth:
            largest = max(priced.parts, key=priced.parts.get)
            return Outcome("valid, too large to run here",
                           f"{sum(priced.parts.values()):,} B estimated, most for {largest}")
        # an offered case may take what the guard let through, up to its limit (CI's seed found one at 269 MiB)
        out = self.engine.run(s, case.threads, growth)
        if out[0] == "ok":
            bad = nonsense(s, json.loads(out[1]))
            return Outcome("nonsense", bad) if bad else Outcome("ran ok", "")
        if out[0] == "ScenarioError":
            e = ScenarioError(out[1], out[2])
            return Outcome("error names field" if names_field(e, case, Path("-")) else "error without field", str(e))
        return Outcome(out[0], out[1])

    def outcome(self, case: Case) -> Outcome:
        path = self.dir / ("case-sweep.toml" if case.kind == "sweep" else "case.toml")
        path.write_bytes(case.content)
        trace = self.dir / "case-trace.txt"
        if case.kind == "trace":
            trace.write_bytes(case.trace)
            path.write_bytes(case.content.replace(b'"TRACE"', json.dumps(str(trace)).encode()))
        try:
            if case.kind == "sweep":
                sw = load_sweep(path)
                points = sw.points() + (sw.reduced().points() if sw.quick is not None else [])
                errors = [p.error for p in points if p.error]
                for text in errors:
                    name, _, rest = text.partition(": ")
                    if name != "ScenarioError" or not rest:
                        return Outcome("error without field", text)
                return Outcome("error names field" if errors else "ran ok",
                               errors[0] if errors else f"{len(points)} points (expanded, not run)")
            s = load_scenario(path)
            s = apply_overrides(s, case.overrides, self.dir) if case.overrides else s
            return self._run(s, case)
        except SweepError as e:
            return Outcome("error names field", str(e))
        except ScenarioError as e:
            return Outcome("error names field" if names_field(e, case, path) else "error without field", str(e))
        except Exception as e:  # noqa: BLE001  (the defect this harness looks for)
            return Outcome("traceback", f"{type(e).__name__}: {str(e)[:300]}")

    def record(self, case: Case) -> None:
        o = self.outcome(case)
        self.count(o.cls, case.kind, lambda: f"[{case.kind} {case.name} {case.overrides}] {o.detail[:400]}\n"
                   f"{case.content[:2000]!r}" + (f"\ntrace: {case.trace[:400]!r}" if case.trace else ""))
