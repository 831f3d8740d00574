"""How much memory a run will take, estimated before it starts, and the guard
that refuses a run that would not fit (issue 20: 10^9 flows once aborted the
process on a 48 GB allocation; a UDP source faster than its link grew an
unbounded queue without a word).

The estimate is the sum of what grows with the scenario, each term named by
the key that sets it: TCP flows (the topology's flow count, twice with
`traffic.two_way`; per flow its hosts, links, sender and sink state and its
report row), q-dumbbell's receivers (a host and its link each), each UDP source (its table, its engine state
and its row: `UDP_SOURCE_BYTES`; each element of its `sizes` list: `LISTED_SIZE_BYTES`), finished short transfers (one report row each), progress
samples and burstiness bins (the engine keeps them as 8-byte values, the
report holds them again as JSON text and Python lists), `[series]` points
(every track's grid over the run; every change, a bound on how often each
traced quantity can change, from the packets that can reach its link or
flow, at most `max_points`: `_series_changes`), each UDP trace file (the engine reads it whole:
its text and each line's frame), each flow's `[transit]` histogram and
statistics, and what the network holds without a limit:
- packets queued (each source's part of the bits in its own packets: `_queued_packets`)
at every link of the UDP sources' routes that they outpace together, or
that the TCP flows crossing it push past its rate (their windows in flight
displace UDP from it, `_udp_queues`), each
source at its mean offered rate at its first link and at what the link
before let through at the next (behind a link with no queue limit that
queue grows for the whole run; a trace source's rate, if not given, is its
file's, which the engine reads; an ON-OFF source offers ns-2's closed form,
never above its peak), and beyond that fluid the bursts of each ON-OFF,
Poisson or trace source as the engine draws them for the run (`_bursts`; a
Poisson or ON-OFF source past its share of the replay, bounds from its peak or,
for Poisson, Kingman's: `_unreplayed`; a trace source's from its frames, by the
engine; an fbm source's from its noise's model: `_fbm`), the packets of one
frame of a trace source scaled to a rate that sends its frames as bursts, and
the packets on each link's wire (`_on_wire`);
- the packets a pacer holds (`[pacing]`): a QLBP pacer at most `q_lim`, an
edge pacer at most what arrives within its delay bound `delay` (each packet
leaves by then), neither more than arrives in the run;
- the packets of each TCP flow whose path crosses a link with no queue limit
or a pacer: its data and its ACKs in flight are at most its window,
min(`tcp.window`, the initial window plus one packet per packet delivered,
the slowest link of its route at full rate for the run; a named topology's
flows together deliver at most what its core link sends) (a window grows by
at most one packet per packet acknowledged: slow start's pace, the fastest
of the engine's controllers);
- each fbm source's noise buffers (`FBM_SOURCE_BYTES`), and a written-out
graph's links, hosts, routers and flows (`GRAPH_LINK_BYTES`: refused, with
the UDP sources and every other list of the scenario, before the front reads
one too large, `check_data`);
- every connection a Tmix cloud starts (its
vectors once, or with a `rate` as many plays as the run holds; each one's
row and, while it lasts, its two ends' TCP state), and pandas, which
tabulates them (`PANDAS_BYTES`).

Counting the UDP queues and pacers, and a graph's flows' routes, needs the
network built (`topology.describe`), which itself takes the network's part:
`estimate` builds it only when that part
fits in the bound it is given (the machine's available memory by default),
and `check` refuses without building it when the parts counted without it
already exceed the bound (a sweep's point check, which builds each point's
network, weighs it first too: `check_network`). No part is left out because others are large, so
adding a part never lowers the estimate (issue 33's fourth review: the
UDP queues were skipped past 1 GiB of other parts). The constants are measured (bench/fuzz/README.md):
37 MB for ten flows, 3.8 KB more per flow over a 2 s run and 7 KB over 100 s on two threads (bench/speed/results/scale.csv),
0.3 to 1.3 KB more per flow with `[transit]`, 104 B per queued packet (220 B when a split run's halves carry
it; 66 B held by a QLBP pacer), 103 to 115 B per series point, 62 to 66 B per trace frame beyond its text; the
estimate takes the larger figures.
"""

from __future__ import annotations

import collections
import functools
import itertools
import math
import os
import stat
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Tuple

import psutil

from . import schema
from .fields import ScenarioError
from .tmix import MAX_BYTES
from .units import format_rate

BASE_BYTES = 64 * 2**20
"""The interpreter, the engine and a small network."""
FLOW_BYTES = 8 * 2**10
"""One TCP flow with its hosts and links, its state and its report row."""
HOST_BYTES = FLOW_BYTES // 2
"""One host and its link alone (a receiver of q-dumbbell's that no flow's count covers): half a flow's."""
ROW_BYTES = 32
"""One burstiness bin: 8 B in the engine, its JSON text and its Python float (16 million bins: 294 MB peak, issue
33's fifth review)."""
PROGRESS_ROW_BYTES = 128
"""One progress sample, a row of three columns (time, flow, bytes): 20 B in the engine, its JSON text and three
Python objects. Measured 100 B a row (16 flows sampled every 1 ms for 1000 s, 16.0 million rows: 1.67 GB peak
without --json; issue 33's fifth review, where 32 B let it through under --max-memory 700MB)."""
MAX_ROWS = 2**24
"""The most progress rows or series bins the engine allows (it refuses more, naming the key)."""
TRANSIT_BYTES = 2 * 2**10
"""One flow's `[transit]` statistics: its histogram of 2 % delay bins from its least delay to its greatest
(8 B a bin), its sums and its five report columns. Measured 0.3 KB a flow when delays hardly vary (E-base,
50,000 flows, 2 s) and 1.1-1.3 KB when they do (10,000 to 30,000 flows through a 1 Gb/s core with 2 MB of
buffer, 10 s, p99 1.46 times p50; bench/fuzz/memory_cost.py); all 1000 bins, delays from 1 us to 1000 s, would
be 8 KB."""
TRANSFER_BYTES = 256
"""One finished short transfer's report row."""
QUEUED_PACKET_BYTES = 256
"""One packet waiting in a queue: its place in the packet arena, its arrival event at the link's far end
and its entry in the link's queue; when the run is split in two halves and the packet crosses to the other,
also its copy in the mail between them. Measured 104 B a packet on one thread and 220 B split, 125,000 to
1,000,000 queued (bench/fuzz/memory_cost.py); 64 B let through a run of 12.5 million queued 40 B packets
that peaked at 1.31 GB under --max-memory 1GB (issue 33's third review)."""
SERIES_POINT_BYTES = 128
"""One `[series]` point: 16 B in the engine, its JSON text and its Python floats. Measured 103 B a point on one
thread and split alike (1 flow and 2 links sampled every 24 and 48 us for 30 s, 15 and 7.5 million points:
1.63 and 0.86 GB peak) and 115 B over 10 s (bench/fuzz/memory_cost.py)."""
TRACE_FRAME_BYTES = 96
"""One line of a UDP trace file beyond its text: the engine parses the whole file into a row (32 B) and then a
time (8 B) and a frame (24 B) per line. Measured 62 to 66 B a line beyond its 2 B of text (files of 5, 10 and 20
million lines "1": 0.38, 0.72 and 1.36 GB peak; bench/fuzz/memory_cost.py); the estimate adds a row's worth for
a vector's growth copying it."""
TMIX_CONNECTION_BYTES = 4 * 2**10
"""One Tmix connection: its report row (engine, JSON text, pandas) and, while it lasts, its application and
each end's TCP sender and sink. Measured 2.3 KB a connection (two 1-byte vectors replayed at 1 Gb/s into a
100 Mb/s dumbbell, 83,336 and 250,002 connections, most never done: 262 and 646 MB peak)."""

UDP_SOURCE_BYTES = 8 * 2**10
"""One UDP source (`traffic.udp`): its table as the front reads and checks it, the engine's source with its
random streams and route, and its report row. Measured 7.2 KB a source (100,000 CBR sources of 1 Kb/s for 1 s:
758 MB peak; issue 33's seventh review, where they were not counted)."""
LISTED_SIZE_BYTES = 192
"""One element of a UDP source's `sizes` list: its TOML string, the front's checked value, its JSON for the
engine and the engine's copy. Measured 170 to 179 B an element (a CBR source listing 200,000, 800,000 and 3.2
million "1B" sizes, 1 s: 79, 186 and 593 MB peak; review33e D4b, where they were not counted)."""
LISTED_NAME_BYTES = 384
"""One element of a list of names or numbers (`NAMED_LISTS`, a trace source's `trace.columns`): its TOML value,
the front's checked copy, its JSON for the engine, the engine's JSON tree and its own copy. Measured 274 to 329 B
an element, the TOML read included (15 MB scenarios of 1.7 to 1.9 million "core", 0 or "bytes" in `trace.links`,
`series.links`, `series.flows`, `series.pacers` and `trace.columns`: 506 to 616 MB peak before the error a
repeated name gets, under --max-memory 200MB; review33e D6, where they were not weighed)."""
WIDE_TABLE_KEYS = 64
"""More keys than any table of a scenario has (`[tcp]`, the widest, has 22): such a table's keys are weighed
(`KEY_BYTES` each) before the front checks them, one error each."""
KEY_BYTES = 2 * 2**10
"""One key of a table too wide to be a scenario's, unknown to it: its TOML entry and pydantic's error about it.
Measured 1.25 KB a key (1,000,000 keys under `[tcp]` or `[transit]`, a 10 MB file: 1.30 GB peak against 45 MB
for a scenario refused at once; review33f: 1.3 million under `[tcp]` ended in a MemoryError at 3.69 GB while
every error was still written into the message)."""
TMIX_TABLE_BYTES = 4 * 2**10
"""One `[[traffic.tmix]]` table as read, before its vectors file is: the TOML table, the front's checked cloud,
its JSON for the engine and the engine's. Measured 3.5 KB a table (288,000 of a 15 MB scenario: 1,021 MB peak
before the engine's error on the first, under --max-memory 200MB)."""
REPLAY_MISS = 2.0**-40
"""The chance the guard allows a Poisson source it could not replay (`_unreplayed`) of queueing past its bound,
and a source of varying sizes of queueing more packets in its bits than counted (`_queued_packets`)."""

PANDAS_BYTES = 96 * 2**20
"""pandas and the libraries it loads, which `pacesim run` imports to tabulate a Tmix cloud's connections (the
run path reads no other DataFrame): measured 82 to 87 MB more resident importing it after `pacesim.cli`.
Q-fig16's quick point peaked at 142 MB, estimated 109 MB without it (issue 33's seventh review), and a Tmix run
of 0.2 s at 137 MB where `pacesim.run` alone takes 37."""

GRAPH_LINK_BYTES = 36 * 2**10
"""One link of a graph topology written out (`topology.links`): its table as the front reads and checks it
(about 25 KB, most of a link's cost) and the engine's two halves, queues and names. Measured per link, hosts and
routers alike: stars of 5,000, 20,000 and 50,000 hosts on one router, 222, 747 and 1,786 MB peak (34.8 KB a link
and host); a chain of 20,000 routers, 748 MB; the 19,900 links of 200 routers all joined, 740 MB (34.8 KB a link
with next to no names: the links cost it; issue 33's sixth review, where graphs were not counted)."""
GRAPH_NODE_BYTES = 512
"""One host or router of a graph topology (`topology.hosts`, `topology.nodes`): its name, in the front and the
engine, and its place in the router's tables (next to nothing measured, see GRAPH_LINK_BYTES)."""
FBM_BLOCK = 2**20
"""An fbm source's noise block, samples (the engine's `traffic::udp::FBM_BLOCK`)."""
FBM_DT = 1_000
"""An fbm source's noise interval, ns (the engine's `traffic::udp::FBM_DT`): one sample of its noise each."""
FBM_GRID = 1_000
"""The intervals between the ends of the windows an fbm source's bound takes (`_fbm`): every window lies in one
of them, a grid's 2 ms longer at most, and fewer windows give a smaller union bound."""
FBM_SOURCE_BYTES = 2 * FBM_BLOCK * (8 + 16 + 8 + 16)
"""What an fbm source holds for the whole run (`traffic::fbm::Fgn`): over its circulant embedding of 2n = 2^21
points, the eigenvalues' square roots (f64), the complex work vector (16 B a point), the two blocks of samples
ready (f64) and its FFT's plan, whose twiddles are 2n complex factors: 96 MiB. Measured 100.7 MB a source
(1, 4 and 10 sources: 163, 465 and 1,069 MB peak; issue 33's sixth review, where they were not counted)."""
FBM_BUILD_BYTES = 2 * FBM_BLOCK * 16
"""What building an fbm source takes for a while beside the sources already built: the complex first row of
its circulant, transformed to its eigenvalues (32 MiB)."""


@dataclass
class Estimate:
    """Bytes a run is expected to need: `parts` by the key that sets each, and
    `notes` on what grows without bound during the run."""

    parts: Dict[str, int] = field(default_factory=dict)
    notes: List[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return BASE_BYTES + sum(self.parts.values())


def _counted(value: Callable[[str], object], keys) -> int:
    """The product of a topology's `keys` (`value` gives each; a list counts its length); 0 for no key."""
    counts = [len(v) if isinstance(v, list) else v for v in map(value, keys)]
    return math.prod(counts) if counts else 0


def _flows(kind: str, value: Callable[[str], object], two_way: bool) -> int:
    """TCP flows of a topology of `kind` (`value` gives its keys), each twin of a two-way run counted: the
    product of the keys its schema names in `x-flows` (the engine's, held to the network it builds by its
    tests)."""
    return _counted(value, schema.table("topology", kind)["x-flows"]) * (2 if two_way else 1)


def tcp_flows(s) -> int:
    """TCP flows of scenario `s` (`_flows`)."""
    return _flows(s.topology.kind, functools.partial(getattr, s.topology), s.traffic.two_way)


def network(s) -> Estimate:
    """The part of `estimate` the network takes, hosts, links and flows, all that `topology.describe` builds
    (`_network`)."""
    traces = [(i, u.trace.file) for i, u in enumerate(s.traffic.udp) if u.kind == "trace"]
    return _network(s.topology.kind, functools.partial(getattr, s.topology), s.traffic.two_way, traces)


def check_network(engine: dict, limit: Optional[int] = None) -> Estimate:
    """Refuse the scenario of engine JSON `engine` (a sweep's point, checked without making it whole) whose
    network (`_network`) exceeds `limit` bytes (default: the memory available) before it is built: a
    ScenarioError naming the key of its largest part, as `check` refuses a run (issue 33: `pacesim sweep`
    built each point's network unweighed, and a point of 4x10^7 hosts aborted the process). The network's
    estimate if it fits."""
    t, traffic = engine["topology"], engine["traffic"]
    traces = [(i, u["trace"]["file"]) for i, u in enumerate(traffic["udp"]) if u["kind"] == "trace"]
    e = _network(t["kind"], t.get, traffic["two_way"], traces)
    _refuse(e, limit)
    return e


def _network(kind: str, value: Callable[[str], object], two_way: bool, traces: List[Tuple[int, str]]) -> Estimate:
    """The network of a topology of `kind` (`value` gives its keys, `two_way` doubles its flows): its flows
    under the key of `x-flows` that sets their count, and hosts that are no flow's own (`x-hosts`: Q's
    receivers) under theirs, however few the flows; a graph's links, hosts and routers; and each UDP trace
    file of `traces` (source index, path), which the engine reads whole to describe its source (review33e:
    `topology show --max-memory 100MB` read a 20 MB file of 10 million lines at 814 MB)."""
    e = Estimate()
    table = schema.table("topology", kind)
    flows = _flows(kind, value, two_way)
    if flows:
        e.parts[f"topology.{table['x-flows'][-1]}"] = flows * FLOW_BYTES
    for key in table.get("x-hosts", []):
        e.parts[f"topology.{key}"] = _counted(value, [key]) * HOST_BYTES
    if kind == "graph":
        _graph(len(value("links")), len(value("hosts")), len(value("nodes")), e)
    for i, path in traces:
        e.parts[f"traffic.udp[{i}].trace.file"] = _trace_bytes(path)
    return e


def _graph(links: int, hosts: int, nodes: int, e: Estimate) -> None:
    """Add a written-out graph's links, hosts and routers (`GRAPH_LINK_BYTES`, `GRAPH_NODE_BYTES`)."""
    e.parts["topology.links"] = links * GRAPH_LINK_BYTES
    e.parts["topology.hosts"] = hosts * GRAPH_NODE_BYTES
    e.parts["topology.nodes"] = nodes * GRAPH_NODE_BYTES


def check_data(data: dict, limit: Optional[int] = None) -> None:
    """Refuse a scenario as read from TOML, before the front checks it, when its lists (`early`) alone exceed
    `limit` bytes (default: `available_bytes`): checking them takes most of what they cost. A ScenarioError
    names the largest of the keys."""
    _refuse(early(data), limit)


NAMED_LISTS = ("trace.links", "pacing.links", "series.links", "series.flows", "series.pacers")
"""The scenario's lists of link, pacer or flow names (`LISTED_NAME_BYTES` an element)."""


def early(data: dict) -> Estimate:
    """What the lists of a scenario as read from TOML take before the front and the engine have checked them: a
    graph's links, hosts, routers and flows, the UDP sources with their `sizes` and `trace.columns` lists, the
    Tmix clouds, and each of `NAMED_LISTS` (issue 33's sixth review: 200,000 hosts aborted the process at 2.9 GB,
    never refused; its seventh: 500,000 flows of a graph peaked at 775 MB before an error on another key;
    review33e D4b: 3.2 million listed sizes, 593 MB under a 150 MB limit; D6: 1.9 million `trace.links`, 616 MB
    under 200 MB before "named twice"); what is not a list is the front's to check."""
    e = Estimate()
    if not isinstance(data, dict):
        return e
    t, traffic = data.get("topology"), data.get("traffic")
    if isinstance(t, dict) and t.get("kind") == "graph":
        counts = [t.get(key) for key in ("links", "hosts", "nodes", "flows")]
        links, hosts, nodes, flows = (len(v) if isinstance(v, list) else 0 for v in counts)
        _graph(links, hosts, nodes, e)
        if flows:
            e.parts["topology.flows"] = flows * FLOW_BYTES
    traffic = traffic if isinstance(traffic, dict) else {}
    udp = traffic.get("udp")
    if isinstance(udp, list) and udp:
        e.parts["traffic.udp"] = len(udp) * UDP_SOURCE_BYTES
        for i, u in enumerate(udp):
            if isinstance(u, dict) and isinstance(u.get("sizes"), list):
                _listed_sizes(i, u["sizes"], e)
            trace = u.get("trace") if isinstance(u, dict) else None
            if isinstance(trace, dict) and isinstance(trace.get("columns"), list):
                e.parts[f"traffic.udp[{i}].trace.columns"] = len(trace["columns"]) * LISTED_NAME_BYTES
    if isinstance(traffic.get("tmix"), list) and traffic["tmix"]:
        e.parts["traffic.tmix"] = len(traffic["tmix"]) * TMIX_TABLE_BYTES
    for key in NAMED_LISTS:
        table, name = key.split(".")
        listed = data[table].get(name) if isinstance(data.get(table), dict) else None
        if isinstance(listed, list):
            e.parts[key] = len(listed) * LISTED_NAME_BYTES
    for path, keys in _wide_tables(data):
        e.parts[path or "the scenario's top level"] = keys * KEY_BYTES
    return e


def _wide_tables(data: dict):
    """(path, keys) of each table in `data` (tables and lists of tables, as read from TOML) with more than
    `WIDE_TABLE_KEYS` keys. Walked with a stack, not recursion: dotted keys nest tables thousands deep."""
    stack = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):  # a dict's own length and pairs, whatever a subclass says (review of 0118e6a)
            if dict.__len__(value) > WIDE_TABLE_KEYS:
                yield path, dict.__len__(value)
            stack += [(f"{path}.{k}" if path else str(k), v) for k, v in dict.items(value) if isinstance(v, (dict, list))]
        elif isinstance(value, list):
            stack += [(f"{path}[{i}]", v) for i, v in enumerate(value) if isinstance(v, dict)]


def _listed_sizes(i: int, sizes: list, e: Estimate) -> None:
    """Add UDP source `i`'s `sizes` list, `LISTED_SIZE_BYTES` an element."""
    e.parts[f"traffic.udp[{i}].sizes"] = len(sizes) * LISTED_SIZE_BYTES


def estimate(s, bound: Optional[int] = None) -> Estimate:
    """The memory scenario `s` needs (see the module docstring); the parts that need the network built are
    counted when building it fits in `bound` bytes (default: the machine's available memory; past it the
    network's own part exceeds the bound)."""
    e = _unbuilt(s)
    _built(s, e, available_bytes() if bound is None else bound)
    return e


def _unbuilt(s) -> Estimate:
    """The parts of `estimate` known without building the network."""
    e = network(s)
    flows = tcp_flows(s)
    run_s = s.duration / 1e9
    if s.traffic.short is not None and flows:
        transfers = flows * s.traffic.short.fraction * run_s / (s.traffic.short.mean_think / 1e9)
        e.parts["traffic.short.mean_think"] = int(transfers * TRANSFER_BYTES)
    if s.transit is not None and flows:
        e.parts["transit"] = flows * TRANSIT_BYTES
    if s.progress is not None:
        rows = (s.duration // s.progress.interval + 1) * max(flows, 1)
        e.parts["progress.interval"] = min(rows, MAX_ROWS) * PROGRESS_ROW_BYTES
    if s.burstiness is not None and s.burstiness.series:
        e.parts["burstiness.bin"] = min((s.duration - s.warmup) // s.burstiness.bin, MAX_ROWS) * ROW_BYTES
    if s.series is not None and s.series.interval is not None:
        _series(s, e)
    if s.traffic.tmix:
        e.parts["traffic.tmix"] = PANDAS_BYTES
    for i, t in enumerate(s.traffic.tmix):
        key = f"traffic.tmix[{i}].{'rate' if t.rate is not None else 'vectors'}"
        e.parts[key] = e.parts.get(key, 0) + _tmix_connections(s, t) * TMIX_CONNECTION_BYTES
    fbm = [i for i, u in enumerate(s.traffic.udp) if u.kind == "fbm"]
    for i in fbm:  # each holds its noise's buffers for the run; one more is built at a time
        e.parts[f"traffic.udp[{i}].kind"] = FBM_SOURCE_BYTES + (FBM_BUILD_BYTES if i == fbm[-1] else 0)
    if s.traffic.udp:
        e.parts["traffic.udp"] = len(s.traffic.udp) * UDP_SOURCE_BYTES
    for i, u in enumerate(s.traffic.udp):
        _burst_frames(i, u, e)
        if u.sizes is not None:
            _listed_sizes(i, u.sizes, e)
    return e


def _built(s, e: Estimate, bound: int) -> None:
    """Add what the network holds without a limit: the TCP flows' windows (`_tcp_windows`), and, from the
    network built (`topology.describe`), the UDP sources' queues and the pacers' backlogs; built only when
    that fits in `bound`: the base and the network's part (the trace files the engine reads to describe it among it)."""
    flows = tcp_flows(s)
    routed = s.topology.kind == "graph" and 0 < flows <= ROUTED_FLOWS
    if flows and not routed:
        _tcp_windows(s, None, {}, e)
    # The engine finds each UDP source's route: every link it crosses holds its packets on the wire, and a
    # Poisson or trace source's bursts pass any rate for a while.
    udp = bool(s.traffic.udp)
    changes = s.series is not None and s.series.interval is None  # its bound needs the links' rates
    if not (udp or routed or changes):
        return
    if network(s).total > bound:  # building it would not fit either, and the estimate exceeds the bound already
        return
    from .topology import describe

    shared = udp and bool(flows) and flows <= ROUTED_FLOWS  # TCP's share of a link adds to UDP's: their routes
    d = describe(s, flows if routed or shared else 0)
    links = {l["name"]: l for l in d["links"]}
    if routed:
        _tcp_windows(s, d["routes"], links, e)
    if udp:
        _udp_queues(s, d, links, e)
    if changes:
        _series_changes(s, d, links, e)


def _tcp_windows(s, routes: Optional[List[dict]], links: Dict[str, dict], e: Estimate) -> None:
    """Add the packets of the TCP flows (`routes`, from `describe`): each flow's data and ACKs in flight are at
    most its window, min(`tcp.window`, the initial window plus one packet per data packet delivered, at most
    what the slowest link of its data route sends from the earliest start), and the packets at a link at most
    what it holds, queued and on its wire (unbounded with no queue limit or a pacer). With `routes` None every flow counts:
    a named topology's all deliver at most what the core sends (each kind's flows cross its core link, their
    twins the reverse: tests/test_memory.py holds the engine to it), a graph's each what its fastest link does.
    Host pacing sends up to twice that (its modified mode and Wei's window inflation), Wei's pure rate
    control `tcp.window` alone. Each segment not yet acknowledged is in flight as data or delivered with its
    ACK in flight; a retransmitted copy queued beside its original is within QUEUED_PACKET_BYTES' margin."""
    if routes is None and s.topology.kind == "graph":
        packets = tcp_flows(s) * _window(s, 1, max(_rates(s)))
    elif routes is None:
        packets = _window(s, tcp_flows(s), s.core_values().rate * (2 if s.traffic.two_way else 1))
    else:
        def room(name: str) -> float:
            """Packets link `name` holds at most, queued and on its wire, each at least an ACK or a SYN (a
            header alone): unbounded with no queue limit or a pacer in front."""
            l, ack = links[name], min(s.tcp.ack_size, s.tcp.header_size)
            if l["pacer"] is not None or (l["buffer_bytes"] is None and l["buffer_packets"] is None):
                return math.inf
            queued = min(math.inf if l["buffer_packets"] is None else l["buffer_packets"],
                         math.inf if l["buffer_bytes"] is None else l["buffer_bytes"] // ack + 1)
            return queued + l["rate_bps"] * l["delay_ns"] / 1e9 / 8 / ack + 1

        windows = [_window(s, 1, min(links[name]["rate_bps"] for name in r["data"])) for r in routes]
        through: Dict[str, int] = {}  # link -> the windows of the flows crossing it, data or ACKs
        for w, r in zip(windows, routes):
            for name in dict.fromkeys(r["data"] + r["acks"]):
                through[name] = through.get(name, 0) + w
        # Each packet is at one link: at most all windows, and at each link at most what it holds or what
        # the flows crossing it have in flight (issue 33's fifth review: a 10 GB limit counted as none).
        packets = min(sum(windows), math.ceil(sum(min(room(name), held) for name, held in through.items())))
    if packets:
        e.parts["tcp.window"] = packets * QUEUED_PACKET_BYTES


def _window(s, flows: int, rate_bps: float) -> int:
    """The most packets `flows` TCP flows of `s` delivering at most `rate_bps` together have in flight (see
    `_tcp_windows`)."""
    bits = (s.tcp.segment_size + s.tcp.header_size) * 8
    run_s = max(0, s.duration - s.traffic.start[0]) / 1e9
    host = s.pacing.scheme == "host"
    pure = host and s.pacing.host_pacer == "wei" and s.pacing.wei.pure_rate_control
    grown = (flows * (s.tcp.initial_window + 1) + math.ceil(rate_bps * run_s / bits)) * (2 if host else 1)
    return flows * s.tcp.window if pure else min(flows * s.tcp.window, grown)


ROUTED_FLOWS = 10_000
"""The most TCP flows of a graph whose routes the guard reads, one by one (describing 50,000 E-base routes took
1.8 s and 437 MB); past it, and on a named topology, every flow counts as crossing a link with no queue limit."""


def _series(s, e: Estimate) -> None:
    """Add a sampled `[series]`'s points: every track's points at 0, interval, ... up to the run's end (the
    engine refuses more than `max_points`)."""
    q = s.series
    tracks = 4 * len(q.flows) + 4 * len(q.links) + 2 * len(q.pacers)  # the engine's FLOW_, LINK_ and PACER_SERIES
    points = min((s.duration // q.interval + 1) * tracks, q.max_points or MAX_SERIES_POINTS)
    e.parts["series.interval"] = points * SERIES_POINT_BYTES


def _series_changes(s, d: dict, links: Dict[str, dict], e: Estimate) -> None:
    """Add an every-change `[series]`'s points (how often a quantity changes is known only by running, and
    the engine's cap, `max_points` or 2^26 points, 8.6 GB, would refuse ordinary runs): a bound from how
    often each traced quantity can change in the run's T seconds, at most that cap.
    - A link's queue (bytes and packets) changes at most when a packet arrives and when one leaves (sent or
      dropped), and its arrivals and drops at most once each per packet arriving: 6 points a packet
      arriving, and where only an arriving packet is dropped 2, and 3 more for each that joins the queue
      (`link_points`); a pacer's backlog and rate at most when a packet arrives at it and when one leaves: 4.
    - What arrives at a link leaving a router is at most what the links into that router send (`fed`).
    - A flow's cwnd and ssthresh change at most once per ACK or timeout, its srtt once per RTT sample (one
      timed packet a round trip: at most T over its base RTT, plus one) or timeout (the back-off fold), its
      RTO also at each back-off; timeouts are at most T / max(min_rto, 2 ticks) + 1 (each waits that long).
    TCP packets: a flow's data reaching its receiver are at most what the slowest link of its data route
    sends, full segments at its rate for T (flows with the same slowest link share it), and its ACKs one per
    data packet arriving; so a link's TCP arrivals are the sum over the slowest links of the flows crossing
    it (both ways), a named topology's at most twice what its core sends (each flow crosses it, its twin the
    reverse), and past `ROUTED_FLOWS` a graph's, or a Tmix cloud's, what `fed` allows (at a host's own link,
    its rate in the smallest packets crossing it).
    A flow's losses at its slowest link add arrivals before it beyond this, within the margin of 128 B a
    point over the 103-120 B measured. UDP: each source's mean rate reaching the link (`_carried`).
    Measured on one thread: issue 33's fifth review (2 flows through a 1 Gb/s core for 20 s, every change
    of both flows and of core and core.rev) recorded 4,050,141 points and peaked at 488 MB (bound: 28.9
    million points, 3.7 GB); q-prototype (one flow, 10 Mb/s, 30 s, links in and core) 11,909 points and
    47 MB (bound: 361,000 points, 46 MB); issue 33's sixth review (a Tmix cloud flooding a 10 Mb/s core from
    a 1 Gb/s link for 5 s) 5.94 million points and 702 MB (bound: 10.0 million points, 1.28 GB)."""
    q = s.series
    run_s = s.duration / 1e9
    data_bits = (s.tcp.segment_size + s.tcp.header_size) * 8

    def sends(name: str, bits: int) -> float:
        """Packets of `bits` link `name` sends at most in the run."""
        return links[name]["rate_bps"] * run_s / bits

    routes = d["routes"] if len(d["routes"]) == tcp_flows(s) else []  # every flow's, or none
    slowest = [min(r["data"], key=lambda name: links[name]["rate_bps"]) for r in routes]
    core = links[d["core"]]
    reverse = next((l["name"] for l in links.values() if (l["from"], l["to"]) == (core["to"], core["from"])), None)
    named = s.topology.kind != "graph"
    delivered = sends(core["name"], data_bits) + (sends(reverse, data_bits) if s.traffic.two_way and reverse else 0)

    hosts = set(d["hosts"])
    smallest = _smallest(s, d, links)

    def fed(name: str) -> float:
        """Packets arriving at link `name` at most, whatever they are: all that the links into its sending
        router send, in the smallest packets that cross it (a route never turns back, so not over its own
        reverse), and the fewer smaller ones; not bounded so for a host's link (its own packets)."""
        l, (bits, fewer) = links[name], smallest[name]
        if l["from"] in hosts:
            return math.inf
        into = sum(x["rate_bps"] for x in links.values() if x["to"] == l["from"] and x["from"] != l["to"])
        return into * run_s / bits + fewer

    def tcp_arrivals(name: str) -> float:
        """TCP packets arriving at link `name` at most, data and ACKs: a Tmix cloud's, or a graph's flows whose
        routes are not read, what `fed` allows, or at a host's link its rate in the smallest packets crossing it
        (issue 33's seventh review: in ACKs, which may be larger than a data segment, `tcp.ack_size` to 64 KB)."""
        bits, fewer = smallest[name]
        unbounded = sends(name, bits) + fewer if links[name]["from"] in hosts else math.inf
        if not tcp_flows(s):
            through = 0.0
        elif routes:
            crossing = {(b, way) for r, b in zip(routes, slowest) for way in ("data", "acks") if name in r[way]}
            through = sum(sends(b, data_bits) for b, _ in crossing)
        elif named:
            through = 2 * delivered
        else:
            through = unbounded
        return through + (unbounded if s.traffic.tmix else 0)

    udp_routes = [source["route"] for source in d["udp"]]
    carried = _carried(udp_routes, [source["mean_rate_bps"] for source in d["udp"]],
                       {name: l["rate_bps"] for name, l in links.items()})
    udp: Dict[str, float] = {}  # link -> UDP packets arriving at most
    for i, (route, rates) in enumerate(zip(udp_routes, carried)):
        run = max(0, s.duration - s.traffic.udp[i].start) / 1e9
        for name, rate in zip(route, rates):
            udp[name] = udp.get(name, 0.0) + rate * run / 8 / _mean_size(s.traffic.udp[i])

    def arrivals(name: str) -> float:
        return min(tcp_arrivals(name) + udp.get(name, 0.0), fed(name))

    def link_points(name: str) -> float:
        """A link's points: each arrival 1, and it joins the queue (its bytes and packets: 2) or is dropped
        (1); each packet leaving the queue, sent or dropped from it, 2 more, and 1 if dropped. Where only an
        arriving packet is dropped, the packets that join are at most those sent and those left queued (its
        limit, or all that arrive): A arrivals bring at most 2 A + 3 min(A, sent + limit) points."""
        if name not in links:  # the engine names an unknown link
            return 0.0
        a, l, (bits, fewer) = arrivals(name), links[name], smallest[name]
        if l["drops_queued"]:
            return 6 * a + 2
        limit = min(math.inf if l["buffer_packets"] is None else l["buffer_packets"],
                    math.inf if l["buffer_bytes"] is None else l["buffer_bytes"] * 8 // bits + 1 + fewer)
        return 2 * a + 3 * min(a, sends(name, bits) + fewer + limit) + 2

    points = sum(link_points(name) for name in q.links) + \
        sum(4 * arrivals(name) + 2 for name in q.pacers if name in links)
    flows = [f for f in q.flows if f < tcp_flows(s)]
    timeouts = run_s / (max(s.tcp.min_rto, 2 * s.tcp.tick) / 1e9) + 1
    if routes:
        acks = sum(sends(b, data_bits) for b in {slowest[f] for f in flows})
        rtts = [routes[f]["base_rtt_ms"] / 1e3 for f in flows]
    elif named:
        acks = delivered if flows else 0.0
        rtts = [2 * s.core_values().delay / 1e9] * len(flows)  # each flow's data crosses the core, its ACKs back
    else:
        acks = len(flows) * sends(max(links, key=lambda name: links[name]["rate_bps"]), data_bits)
        rtts = [0.0] * len(flows)
    samples = sum(run_s / rtt + 1 if rtt > 0 else acks for rtt in rtts)
    points += 2 * acks + samples * 2 + len(flows) * (5 * timeouts + 4)
    e.parts["series.max_points"] = int(min(points, q.max_points or MAX_SERIES_POINTS)) * SERIES_POINT_BYTES


MAX_SERIES_POINTS = 2**26
"""The most points a `[series]` keeps (the engine's `SeriesSpec::MAX_SAMPLES`)."""


def _smallest(s, d: dict, links: Dict[str, dict]) -> Dict[str, Tuple[float, float]]:
    """For each link, the smallest packets that can cross it, bits (infinite for none), and how many smaller
    ones at most. A TCP flow's data and ACKs, at most a SYN's or an ACK's size, wherever (its routes are
    not all read); a UDP source's smallest packet on its route; a Tmix cloud's data on each end's route when
    that end sends any (whole segments with their headers: one-way TCP carries whole packets, the engine's
    `traffic::tmix::app`) with a SYN a connection, one more at each timeout, and its sink's ACKs there when
    the other end sends."""
    least = {name: math.inf for name in links}
    syns = {name: 0.0 for name in links}

    def cross(route: List[str], size: float, syn: float = 0.0) -> None:
        for name in route:
            least[name], syns[name] = min(least[name], size), syns[name] + syn

    ack = 8 * min(s.tcp.ack_size, s.tcp.header_size)
    if tcp_flows(s):
        for name in links:
            cross([name], ack)
    for source, u in zip(d["udp"], s.traffic.udp):
        cross(source["route"], 8 * min(u.size if u.size is not None else u.sizes))
    data = 8 * (s.tcp.segment_size + s.tcp.header_size)
    timeouts = s.duration / max(s.tcp.min_rto, 2 * s.tcp.tick) + 1
    for cloud, t in zip(d["tmix"], s.traffic.tmix):
        (n, sent), connections = _tmix_vectors(s, t), _tmix_connections(s, t)
        for route, sends, back in ((cloud["from_initiator"], sent[0], sent[1]),
                                   (cloud["from_acceptor"], sent[1], sent[0])):
            if sends or not n:  # (a file the engine will refuse: its data, however little)
                cross(route, data, connections * timeouts)
            if back or not n:
                cross(route, ack)
    syn = 8 * s.tcp.header_size
    return {name: (least[name], syns[name] if least[name] > syn else 0.0) for name in links}


def _trace_bytes(path: str) -> int:
    """What the engine holds reading UDP trace file `path`: its text and a frame per line (a line count,
    newlines counted in 1 MiB chunks; the front refuses a file past `scenario.MAX_TRACE_BYTES`)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return 0
        return st.st_size + _lines(path, st.st_mtime_ns, st.st_size) * TRACE_FRAME_BYTES
    except OSError:  # the engine names a file it cannot read
        return 0


@functools.lru_cache(maxsize=8)
def _lines(path: str, mtime_ns: int, size: int) -> int:
    """File `path`'s lines (a last one without a newline counted) as it was at `mtime_ns` and `size`."""
    n, last = 0, b"\n"
    with open(path, "rb") as f:
        while chunk := f.read(2**20):
            n, last = n + chunk.count(b"\n"), chunk[-1:]
    return n + (last != b"\n")


def _tmix_connections(s, t) -> int:
    """How many connections Tmix cloud `t` of `s` starts: its vectors once, or with a `rate` every play the run
    holds (a play lasts its ADUs' wire bits, whole segments with headers, over the rate: the engine's
    `TmixSpec::load`); 0 for a file it cannot read (the engine names it when the scenario runs)."""
    n, bits = _tmix_vectors(s, t)
    if t.rate is None or not sum(bits):
        return n
    return n * (math.ceil(s.duration / 1e9 * t.rate / sum(bits)) + 1)


def _tmix_vectors(s, t) -> Tuple[int, Tuple[int, int]]:
    """Tmix cloud `t`'s vectors (`_vectors`); none for a file the engine will name when the scenario runs."""
    try:
        st = os.stat(t.vectors)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return 0, (0, 0)
        return _vectors(t.vectors, st.st_mtime_ns, st.st_size, s.tcp.segment_size, s.tcp.header_size)
    except (OSError, ValueError, IndexError):
        return 0, (0, 0)


@functools.lru_cache(maxsize=8)
def _vectors(path: str, mtime_ns: int, size: int, mss: int, header: int) -> Tuple[int, Tuple[int, int]]:
    """A vectors file's connections and the wire bits of all the ADUs of its initiators and of its acceptors
    (both formats; any line the engine would refuse is its to name), for the file as it was at `mtime_ns`
    and `size`."""
    n, bits = 0, [0, 0]
    with open(path, "rb") as f:
        for raw in f:
            fields = raw.split(b"#", 1)[0].split()
            if not fields:
                continue
            kind = fields[0]
            if kind in (b"S", b"C", b"SEQ", b"CONC"):
                n += 1
                continue
            size = fields[3] if kind in (b"I", b"A") else fields[1] if kind in (b">", b"<", b"c>", b"c<") else None
            if size is not None:
                bits[kind in (b"A", b"<", b"c<")] += -(-int(size) // mss) * (mss + header) * 8
    return n, (bits[0], bits[1])


def _rates(s) -> List[int]:
    """Every link rate the scenario gives (bit/s; a range by its ends), the core's included: a UDP source no
    faster than the lowest outpaces no link, and the topology need not be built."""
    def rates(value, key=""):
        if isinstance(value, dict):
            return [r for k, v in value.items() for r in rates(v, k)]
        if isinstance(value, list):
            return [r for v in value for r in rates(v, key)]
        if isinstance(value, tuple) and key.endswith("rate"):
            return list(value)
        return [value] if key.endswith("rate") and isinstance(value, int) else []

    return rates(s.topology.model_dump()) + [s.core_values().rate]


def _mean_size(u) -> float:
    """A UDP source's mean packet size, bytes."""
    return sum(u.size) / 2 if u.size is not None else sum(u.sizes) / len(u.sizes)


def _burst_frames(i: int, u, e: Estimate) -> None:
    """Add the packets of one frame of a trace source scaled to `rate` at `fps` frames a second that
    sends each frame as a burst: all of them are queued at once, whatever the link."""
    t = u.trace
    if u.kind != "trace" or u.rate is None or t.fps is None or t.send != "burst":
        return
    packets = int(u.rate / 8 / t.fps / _mean_size(u))
    e.parts[f"traffic.udp[{i}].trace.fps"] = packets * QUEUED_PACKET_BYTES


def _udp_queues(s, d: dict, links: Dict[str, dict], e: Estimate) -> None:
    """Add the packets queued at each link the UDP sources crossing it outpace together: behind a link with
    no queue limit, all that it does not send; behind one with a limit, up to that limit. Each source offers
    its mean rate from the engine (a trace source's is its file's, as played; an ON-OFF source's ns-2's
    closed form, never above its peak) at its first link, and at each next link what the link before let
    through (`_carried`); a link's queue grows by the bits its sources bring from their starts less what it
    sends from the first start, counted against the source bringing most. TCP flows crossing the link take
    a share of what it sends, so UDP at its rate or under it queues too (issue 33's fifth review: 10 Mb/s
    of Poisson UDP into a 10 Mb/s link with no limit shared with 100 TCP flows, 153 MB peak under 120MB,
    not counted): they have at most W bits in flight (`_tcp_in_flight`), and each waits behind the queue,
    Q bits, so they bring at most W C / Q bits a second into a link sending C; with UDP bringing r, the
    queue grows as dQ/dt <= r - C + W C / Q: it stays under W C / (C - r) when r < C, and reaches at most
    (r - C) T + sqrt(2 W C T) in T seconds (the bound's own growth is at least that), never more than all
    the UDP that arrives. A pacer in front of a link holds what `_pacer_backlog` counts. `d` is the network
    described, `links` its links by name."""
    in_flight = _tcp_in_flight(s, d["routes"], links)
    routes = [source["route"] for source in d["udp"]]
    rates = _carried(routes, [source["mean_rate_bps"] for source in d["udp"]],
                     {name: l["rate_bps"] for name, l in links.items()})
    paths = _Paths(routes, links)
    crossing: Dict[str, Dict[int, float]] = {}  # link -> {source: its rate arriving there, bit/s}
    for i, route in enumerate(routes):
        for hop, name in enumerate(route):
            crossing.setdefault(name, {})[i] = rates[i][hop]
    replayed = [source.get("replayed") or _unreplayed(s, i, source, links) for i, source in enumerate(d["udp"])]
    # What each source brings wherever it is, taken once (a link crossed by N sources costs O(N) below)
    udp, means = s.traffic.udp, [source["mean_rate_bps"] for source in d["udp"]]
    runs = [max(0, s.duration - u.start) / 1e9 for u in udp]
    largest = [8 * _sizes(u)[1] for u in udp]
    moments = [_size_moments(u) for u in udp]
    wired = [_on_wire_packets(u, source) for u, source in zip(udp, d["udp"])]
    for name, arriving in crossing.items():
        link, sources = links[name], list(arriving)
        run = dict(zip(sources, map(runs.__getitem__, sources)))
        at = {i: paths.place[paths.key[i]][name] for i in sources}  # the link's place on each one's route
        # All the UDP each source brings here: at its mean rate, or what a replayed source sends in this run if more.
        sent = {i: max(arriving[i] * run[i], (replayed[i] or {}).get("sent_bits", 0.0)) for i in sources}

        def within(i: int, seconds: float) -> float:
            """The most bits source i brings here in any `seconds`: a packet, and its fluid with its burst or its
            peak, whichever is less, and never more than it sends in its run."""
            x = min(seconds, run[i])
            return min(sent[i], largest[i] + min((replayed[i] or {}).get("burst_bits", 0.0) + means[i] * x,
                                                 _peak(udp[i], paths.slowest(paths.key[i], at[i])) * x))

        if link["pacer"] is not None:
            _pacer_backlog(s, link["pacer"], arriving, run, within, e)
        mean_rate, rate, w = sum(arriving.values()), link["rate_bps"], in_flight(name)
        excess, t = mean_rate - rate, max(run.values())
        # Sources that the links before bring no faster together than this one sends bring no burst beyond their
        # fluid (`_Paths.arriving`)
        together = paths.arriving(zip(map(paths.key.__getitem__, sources), map(at.get, sources)))
        alone = len(sources) == 1 and replayed[sources[0]] is None  # a fluid alone waits behind none of its own
        burst = 0.0 if alone or together <= rate else \
            _bursts(link, [(at[i], replayed[i], means[i], largest[i]) for i in sources])
        i = max(sources, key=lambda i: arriving[i] * run[i])
        u = s.traffic.udp[i]
        key = f"traffic.udp[{i}].{'trace.file' if u.kind == 'trace' and u.rate is None else 'rate'}"
        e.parts[key] = e.parts.get(key, 0) + _on_wire(link, map(wired.__getitem__, sources)) * QUEUED_PACKET_BYTES
        if excess <= 0 and not w and not burst:  # alone at or under the rate, it queues nothing here (as a fluid)
            continue
        udp_bits = sum(sent.values())
        shared = math.sqrt(2 * w * rate * t) if t else 0.0  # (w may be unbounded: a Tmix cloud's)
        mean_bits = sum(arriving[i] * run[i] for i in sources)
        fluid = mean_bits - rate * t + shared if excess >= 0 else min(shared, w * rate / -excess)
        bits = max(0.0, min(udp_bits, max(0.0, fluid) + burst))
        # A FIFO holds what came since its head did, which waited behind at most the whole queue (its UDP
        # and the TCP flows' W), sent at C since: each source's part is what it brings in that window
        # (`_queued_packets`).
        window = min(t, min(max(0.0, fluid) + burst, udp_bits + w) / rate)
        parts = {i: min(sent[i], within(i, window)) for i in sources}
        windows = {i: window if at[i] == 0 else run[i] for i in sources}
        packets = _queued_packets(s, d["udp"], parts, bits, windows, sent, moments)
        limited = link["buffer_bytes"] is not None or link["buffer_packets"] is not None
        if limited:  # it drops what passes its limit, and a byte limit admits small packets after big ones are
            # dropped, so it fills with the smallest that reach it (issue 33, review33e D1)
            least = min(_least(s.traffic.udp[i]) for i in sources)
            packets = min(packets, link["buffer_packets"] or int(link["buffer_bytes"] / least) + 1)
        e.parts[key] = e.parts.get(key, 0) + packets * QUEUED_PACKET_BYTES
        if limited:
            continue
        if excess < 0:
            continue
        who = f"traffic.udp[{i}]" if len(sources) == 1 else "traffic.udp[" + ", ".join(map(str, sources)) + "]"
        grows = f"by {format_rate(int(excess))}" if excess > 0 else "with the TCP flows' share"
        e.notes.append(
            f"{who} {'sends' if len(sources) == 1 else 'send'} {format_rate(int(mean_rate))} into link {name} of "
            f"{format_rate(link['rate_bps'])} with no queue limit: its queue grows {grows} "
            f"for the whole run, to about {packets:,} packets ({_about(bits / 8)})"
        )


def _queued_packets(s, described: List[dict], parts: Dict[int, float], bits: float, windows: Dict[int, float],
                    sent: Dict[int, float], moments: List[Tuple[int, int, float, float]]) -> int:
    """The most packets a FIFO queue holds of at most `bits` UDP bits, source i's part of them at most `parts[i]`
    bits (review33f #3: the queue's bits were taken in the mean packet of the sources' mean rates, 41 KB, where a
    burst of 40 B packets filled it beside 65,000 B ones: 70.8 MB estimated, 451 MB peak). The queue holds what
    came since its head did, d seconds at most, so source i's part is at most what it brings in d: its mean
    rate r_i times d and its burst beyond that (`burst_bits`, at every link of its route), or its peak times d
    (`_peak`), and a packet, and at most all it sends in the run (`sent[i]`); the parts fill the queue's bits,
    those of the smallest packets first (the most packets a bit). In a source's own packets, B bytes are at most:
    - B / lo + F packets, lo its smallest packet and F the frames a trace source plays within `windows[i]`
      seconds (the window at its first link; the run at a later one: `_frames_within`), each of which may end
      in a packet smaller than lo;
    - fewer when its sizes vary: n packets drawn from its sizes, of mean mu, variance sigma^2, none more than
      b = mu - lo under the mean, weigh less than n mu - t with chance under exp(-L) for t = b L / 3 +
      sqrt((b L / 3)^2 + 2 n sigma^2 L) (Bernstein, as the engine bounds a burst's bits); of a source of N
      packets at most (twice its bits in its smallest, and 100), all of its N^2 runs of consecutive packets
      hold that for L = ln(N^2 / REPLAY_MISS). So n mu - (B + F hi) <= t (a frame's last packet is a draw of
      at most hi cut short), which solved for n is n <= (B' + k + sqrt(k^2 + 2 sigma^2 L B' / mu)) / mu, B' =
      B + F hi, k = b L / 3 + sigma^2 L / mu: B / mu, filled as the sizes mu, and the rest, which grows with
      B, taken at the source's whole part.
    For a source of one size both are B / lo. The least of the two fills is the bound, and no packet is less
    than a byte."""
    mean, least, extra, frames = [], [], 0.0, 0.0
    for i, part in parts.items():
        if part <= 0:
            continue
        u, share = s.traffic.udp[i], part / 8
        lo, hi, mu, var = moments[i]  # `_size_moments`, each source's taken once
        f = _frames_within(u, described[i], windows[i])
        big = math.log((2 * sent[i] / 8 / lo + 100) ** 2 / REPLAY_MISS)  # L, of at most N packets
        k = (mu - lo) * big / 3 + var * big / mu
        drawn = share + f * hi
        extra += (f * hi + k + math.sqrt(k * k + 2 * var * big * drawn / mu)) / mu
        mean.append((mu, share))
        least.append((lo, share))
        frames += f
    return int(min(_fill(mean, bits / 8) + extra, _fill(least, bits / 8) + frames, bits / 8))


def _peak(u, before: float) -> float:
    """The fastest UDP source `u` brings bits to a link behind links the slowest of which sends `before` bit/s
    (infinite at its first): at most that, and a CBR source at its rate, an ON-OFF source at its peak (each
    packet due its own size's time at that rate after the one before, so a window of x seconds holds at most
    rate x bits and a packet); the others' are not bounded so."""
    return min(u.rate if u.kind in ("cbr", "onoff") else math.inf, before)


def _fill(parts: List[Tuple[float, float]], total: float) -> float:
    """The most packets of `parts` (each its packet's size and its bytes at most) in `total` bytes: the
    smallest packets first."""
    packets = 0.0
    for size, share in sorted(parts):
        take = min(share, total)
        packets, total = packets + take / size, total - take
    return packets


def _size_moments(u) -> Tuple[int, int, float, float]:
    """A UDP source's smallest and largest packet, bytes, and their mean and variance as the engine draws them:
    evenly from its `sizes`, or an integer of bytes evenly in its `size` range."""
    lo, hi = _sizes(u)
    if u.size is None:
        mean = sum(u.sizes) / len(u.sizes)
        return lo, hi, mean, sum((x - mean) ** 2 for x in u.sizes) / len(u.sizes)
    return lo, hi, (lo + hi) / 2, ((hi - lo + 1) ** 2 - 1) / 12


def _frames_within(u, source: dict, window_s: float) -> float:
    """The most frames a trace source (`u`, described as `source`) plays in part within `window_s` seconds (0 for
    another kind): at its instants a second at most (`_frame_rate`), those starting in it and the one before,
    each as many frames as start at once at most (`frames_at_once`; review33h D1: two frames at one instant
    counted every packet as a byte, 9.2 GB for a 46 MB peak)."""
    if u.kind != "trace":
        return 0.0
    return (math.floor(window_s * _frame_rate(u, source)) + 2) * (source.get("frames_at_once") or 1)


def _frame_rate(u, source: dict) -> float:
    """A trace source's instants where frames start, a second at most (0 for another kind): its `fps`, or for one
    timed by its file one over the least time between two instants where frames holding bytes start as played
    (`frame_gap_ns`, which the engine reads from the file; review33f: its packets were counted as a byte
    each)."""
    if u.kind != "trace":
        return 0.0
    return u.trace.fps if u.trace.fps is not None else 1e9 / source["frame_gap_ns"]


def _on_wire(link: dict, sources: Iterable[Tuple[float, int, float, int]]) -> int:
    """The UDP packets of `sources` (each its `_on_wire_packets`) on `link`'s wire at once, sent and not yet
    arrived: what the link sends in its delay, at its rate (`_wire`), and at most what each source sends in the
    delay at its peak (a CBR source's rate, an ON-OFF source's peak; the others' the link's), each in its packets
    (issue 33's seventh review: 1 Gb/s of 100 B packets over a 10 s wire, 12.5 million packets, 1.32 GB peak, not
    counted; review33e D7: 1000 Poisson sources of 10 Kb/s over a 1 Gb/s, 100 ms wire were each given the whole
    wire, 50.1 GB for 51 MB)."""
    delay_s = link["delay_ns"] / 1e9
    # Sources alike on the wire counted once: (peak, smallest packet, instants a second, frames at once) -> how many.
    alike = collections.Counter()
    for (peak, *packets), n in collections.Counter(sources).items():
        alike[(min(link["rate_bps"], peak), *packets)] += n
    offered = sum(n * _wire(peak, [source], delay_s) for (peak, *source), n in alike.items())
    return min(_wire(link["rate_bps"], [source for _, *source in alike], delay_s), offered)


def _on_wire_packets(u, source: dict) -> Tuple[float, int, float, int]:
    """A UDP source's peak on a wire, bit/s (a CBR source's rate, an ON-OFF source's peak; the others' unbounded),
    its smallest packet on it, bytes, its instants where frames start a second at most
    (`_frame_rate`) and the frames starting at one at most (`frames_at_once`)."""
    peak = u.rate if u.kind in ("cbr", "onoff") else math.inf
    return peak, _sizes(u)[0], _frame_rate(u, source), source.get("frames_at_once") or 1


def _wire(rate: float, sources: List[Tuple[int, float, int]], delay_s: float) -> int:
    """The packets of UDP `sources` (each its `_on_wire_packets`) in what `rate` bit/s puts on a wire of `delay_s`
    seconds: in the smallest packet of any, and one more; a trace source cuts each frame into its packets, the
    last carrying what is left (a byte, maybe), so one more for each frame it plays in the delay, at its instants
    a second at most, each as many frames as start at once. Session 23: trace packets on a wire were counted as a
    byte each, review33e's D9 source at 4 times its peak."""
    least = min(size for size, _, _ in sources)
    frames = sum((math.ceil(delay_s * fps) + 1) * together for _, fps, together in sources if fps)
    return math.ceil(rate * delay_s / 8 / least) + 1 + frames


def _least(u) -> int:
    """A UDP source's smallest packet, bytes: a trace's a byte (a frame's last packet carries what is left of
    it, and a frame scaled to a rate may be a byte)."""
    return 1 if u.kind == "trace" else _sizes(u)[0]


def _sizes(u) -> Tuple[int, int]:
    """A UDP source's smallest and largest packet, bytes (`size` a [low, high] range, or `sizes` a list)."""
    sizes = u.size if u.size is not None else u.sizes
    return min(sizes), max(sizes)


def _unreplayed(s, i: int, source: dict, links: Dict[str, dict]) -> Optional[dict]:
    """Bounds standing for the replay (`_bursts`) of UDP source `i` the engine did not replay within its share of
    the steps (`describe`'s REPLAYED_STEPS; issue 33's seventh review: an ON-OFF source past 2^25 packets was
    counted as no burst, 67 MB for 1.50 GB), in bits: all it sends, the most beyond its mean rate, and beyond
    each link's rate on its route. An ON-OFF source sends at most its peak P, so a link of rate C holds at most
    (P - C) T of its T seconds and a packet. A Poisson source queues as `_kingman` bounds (its `poisson`: its
    cumulant rate, its mean rate, its arrivals' bound n and its largest packet, for pooling with others at a
    link); it sends more than n = 2 lambda T + 100 packets with a smaller chance still (Chernoff). An fbm source,
    which the engine never replays, is bounded from its noise's model (`_fbm`). None for a CBR source (a fluid and
    a packet), and for a trace source, which the engine bounds from its frames in no step (`describe`'s
    `replayed` always holds it: `VideoSource::backlog`)."""
    u = s.traffic.udp[i]
    if u.kind == "fbm":
        return _fbm(s, u, [links[name]["rate_bps"] for name in source["route"]])
    if u.kind not in ("onoff", "poisson"):
        return None
    run = max(0, s.duration - u.start) / 1e9
    smallest, largest = (8 * size for size in _sizes(u))
    if u.kind == "onoff":
        sent = u.rate * run + largest
        return {"sent_bits": sent, "burst_bits": min(sent, (u.rate - source["mean_rate_bps"]) * run + largest),
                "backlog_bits": [min(sent, max(0, u.rate - links[name]["rate_bps"]) * run + largest)
                                 for name in source["route"]]}
    per_s = source["mean_rate_bps"] / 8 / _mean_size(u)
    n = 2 * per_s * run + 100
    sent = n * largest
    poisson = (_cumulant(u, per_s), source["mean_rate_bps"], n, largest)
    return {"sent_bits": sent, "burst_bits": sent, "poisson": poisson,
            "backlog_bits": [min(sent, _kingman([poisson], links[name]["rate_bps"])) for name in source["route"]]}


MEAN_TRUNCATED = 0.5 * (1 + math.erf(2**-0.5)) + math.exp(-0.5) / math.sqrt(2 * math.pi)
"""E max(0, 1 + x) for x standard normal, Phi(1) + phi(1) (the engine's `traffic::fbm::MEAN_TRUNCATED`)."""


def _fbm(s, u, rates: List[float]) -> dict:
    """Bounds on what fbm source `u` brings (as `_unreplayed`'s), in bits, from the model the engine draws it by
    (`traffic::fbm`): each interval i of dt = `FBM_DT` brings y_i = a max(0, 1 + x_i) bytes, a = mu / E max(0,
    1 + x) so that its mean is mu = rate dt / 8, x fractional Gaussian noise of Hurst H >= 1/2 (unit variance,
    autocovariance g(k) >= 0) drawn exactly by circulant embedding in blocks of n = `FBM_BLOCK` samples,
    independent of each other; a packet leaves at the end of the interval whose bytes cover it. Review33h D3: it
    was taken as a fluid, and alone under its link's rate counted as queueing nothing; at H = 0.95, 98 Mb/s of
    100 B into 100 Mb/s queued 601,241 packets, and 980 Mb/s into 1 Gb/s peaked at 483 MB under a 205 MB limit.
    Why this is an upper bound, with chance under REPLAY_MISS of being passed:
    - The x of a window of m intervals are a linear map of independent standard normals z, x = M z, and its
      bytes f(z) = a sum max(0, 1 + x_i) have gradient a M^T v, v_i in [0, 1], |M^T v|^2 = v' MM^T v. MM^T is
      fGn's covariance S, every entry g >= 0, and D from the eigenvalues the engine clamps to 0 (each at most
      1e-9 of the largest, itself at most the circulant's row sum R = n^2H - (n - 1)^2H + g(n)): v' S v <=
      1' S 1, the variance of the window's sum of x, m^2H within a block and across blocks, independent, at
      most V(m) = q n^2H + r^2H (m = q n + r: whole blocks the most a sum of powers 2H >= 1 of pieces of at
      most n can be), and v' D v <= 1e-9 R m. So f is a sqrt(V'(m))-Lipschitz, V' = V + 1e-9 R m, with mean
      m mu.
    - Gaussian concentration (Tsirelson, Ibragimov, Sudakov): f passes its mean by t with chance at most
      exp(-t^2 / 2 a^2 V'). Every window of the run's N intervals lies in one of at most (N / G + 2)^2 / 2
      windows from a multiple of G = `FBM_GRID` intervals to another, 2 G longer at most; with chance under
      REPLAY_MISS none of those passes M mu + e(M), e(M) = a sqrt(2 L V'(M)), L = ln((N / G + 2)^2 /
      REPLAY_MISS).
    - The packets of a window bring at most its bytes and a packet (what was left from before it), and those
      arriving within m intervals' ends span m - 1 of them: a link sending c bytes an interval, fed directly,
      holds at most the most over multiples M of G of M (mu - c) + e(M), and c (2 G + 1) and a packet more;
      fed through links before, no more. The most is taken over M in geometric steps of 1 %, on each step the
      linear part at its better end and e at its upper one (e grows with M), so never under it.
    `burst_bits` is that queue at c = mu (the most beyond its mean in any window), `sent_bits` what the whole
    run's window brings, `backlog_bits` the queue at each of `rates` (bit/s, its route's links'), at most all it
    sends."""
    intervals = max(1, math.ceil(max(0, s.duration - u.start) / FBM_DT))
    mu = u.rate / 8 * FBM_DT / 1e9
    a, h, n = mu / MEAN_TRUNCATED, u.hurst, FBM_BLOCK
    grid = min(FBM_GRID, intervals)
    clamped = 1e-9 * (n ** (2 * h) - (n - 1) ** (2 * h) + _fgn_autocov(h, n))
    spread = 2 * math.log((intervals / grid + 2) ** 2 / REPLAY_MISS)

    def e(m: int) -> float:  # bytes beyond m mu in a window of m intervals
        whole, rest = divmod(m, n)
        return a * math.sqrt(spread * (whole * n ** (2 * h) + rest ** (2 * h) + clamped * m))

    top = math.ceil(intervals / grid)  # grid steps in the run
    steps = sorted({min(top, math.ceil(1.01**j)) for j in range(math.ceil(math.log(top, 1.01)) + 1)} | {top})
    excess = [(grid * low, grid * k, e(grid * k)) for low, k in zip([1] + steps, steps)]  # (lower, upper, e)
    packet = _sizes(u)[1]

    def backlog(c: float) -> float:  # bytes a link sending c bytes an interval holds
        worst = max((m if mu >= c else low) * (mu - c) + most for low, m, most in excess)
        return max(0.0, worst) + c * (2 * grid + 1) + packet

    sent = 8 * (grid * top * mu + e(grid * top) + packet)
    held = {rate: min(sent, 8 * backlog(rate / 8 * FBM_DT / 1e9)) for rate in set(rates)}  # a long route has few rates
    return {"sent_bits": sent, "burst_bits": min(sent, 8 * backlog(mu)), "backlog_bits": [held[r] for r in rates]}


def _fgn_autocov(h: float, k: int) -> float:
    """Normalised fGn's autocovariance at lag `k` (the engine's `traffic::fbm::fgn_autocov`)."""
    return 0.5 * ((k + 1) ** (2 * h) - 2 * k ** (2 * h) + abs(k - 1) ** (2 * h))


def _cumulant(u, per_s: float) -> Callable[[float], float]:
    """Poisson source `u`'s cumulant rate, theta -> lambda (E exp(theta S) - 1), S its packet in bits drawn as the
    engine draws it (evenly from its `sizes`, or an integer of bytes evenly in its `size` range, whose sum over
    the bytes is at most the integral over a byte more, half at each end: exp is convex)."""
    if u.size is None:
        counts = collections.Counter(u.sizes)
        return lambda theta: per_s * sum(k * math.expm1(theta * 8 * b) for b, k in counts.items()) / len(u.sizes)
    low, high = u.size
    if low == high:
        return lambda theta: per_s * math.expm1(theta * 8 * low)
    a, b = 8 * (low - 0.5), 8 * (high + 0.5)
    return lambda theta: per_s * ((math.expm1(theta * b) - math.expm1(theta * a)) / (theta * (b - a)) - 1)


def _kingman(sources: List[Tuple[Callable[[float], float], float, float, float]], rate: float) -> float:
    """The bits that Poisson `sources` (each its cumulant rate, its mean rate, bit/s, its arrivals' bound n and its
    largest packet, bits) queue together at a link of `rate` bit/s, with chance under REPLAY_MISS: past x bits
    with chance at most exp(-theta x) at each arrival, theta > 0 solving sum(cumulant(theta)) = theta C (Kingman's bound, their
    arrivals' exponential martingale; a sum of Poisson sources is one, of their sizes mixed), so past
    ln(n / REPLAY_MISS) / theta + the largest packet within their n arrivals; infinite when they bring on
    average as much as the link sends (review33e D2: taken at the largest packet for every packet, 60 Mb/s of
    64 to 1500 B into 100 Mb/s counted as all it sent, 34 GB for 46 MB)."""
    def kappa(theta: float) -> float:
        return sum(c(theta) for c, _, _, _ in sources)

    mean, largest = sum(m for _, m, _, _ in sources), max(s for _, _, _, s in sources)
    if mean >= rate:
        return math.inf
    if mean == 0:
        return 0.0
    lo, hi = 0.0, 1.0 / largest
    while kappa(hi) < hi * rate:  # grows past the root
        hi *= 2
    for _ in range(100):  # bisect theta: below the root the cumulant is under theta C
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if kappa(mid) < mid * rate else (lo, mid)
    n = sum(n for _, _, n, _ in sources)
    return math.log(n / REPLAY_MISS) / lo + largest if lo > 0 else math.inf


def _bursts(link: dict, sources: List[Tuple[int, Optional[dict], float, float]]) -> float:
    """The bits `link` queues beyond the fluid of its sources' mean rates, from the bursts of each `(link's place
    on its route, bounds, mean rate, largest packet in bits)` source: what the engine replayed (`topology.describe`:
    an ON-OFF or Poisson source's packets as drawn for the run, a trace source's frames), or what stands for it
    (`_unreplayed`; an fbm source's from its noise's model). The caller asks only where the links before can
    bring the sources faster together than this one sends (`_Paths.arriving`): elsewhere they bring no burst.
    A source's burst `burst_bits` is the most it sends in any window beyond its mean rate times the window, so
    sources of mean rates r_i bring at most sum(burst_bits) + sum(r_i) x bits in any x seconds, and a FIFO link
    of rate C holds at most sum(burst_bits) + (sum(r_i) - C) T (a burst leaves a FIFO no larger than it came, so
    this holds at every link of the route); a source alone at the link holds no more than it would fed
    directly, `backlog_bits` at the link's rate (nothing at a link as fast as its peak). Poisson sources past
    their replay share queue together what `_kingman` bounds at what the others leave of the link's rate, C -
    sum(r_i) of the others, beside the others' bursts (review33e D2: each counted as all it sent, 50.6 GB for
    52 MB); all they send if they leave nothing. Issue 33's sixth review: ON periods of 30 s at 1 Gb/s, a mean
    of 9.9 Mb/s into 10 Mb/s, queued 7.4 million packets (893 MB peak), counted as none. A source with no
    bounds (CBR) brings at most its mean rate and a packet in any window, so beside others its packet is a
    burst too, its largest (a 65,000 B CBR packet holds the others' 40 B ones behind it; alone, it waits behind
    none of its own)."""
    fluids = sum(packet for _, r, _, packet in sources if r is None) if len(sources) > 1 else 0.0
    bursts = [(r["burst_bits"], r["backlog_bits"][hop]) for hop, r, _, _ in sources if r is not None]
    if len(sources) == 1:
        return min(bursts[0])
    pooled = [r for _, r, _, _ in sources if r is not None and "poisson" in r]
    if not pooled:
        return fluids + sum(burst for burst, _ in bursts)
    others = [(r, mean) for _, r, mean, _ in sources if r is None or "poisson" not in r]
    left = link["rate_bps"] - sum(mean for _, mean in others)
    queued = _kingman([r["poisson"] for r in pooled], left) if left > 0 else math.inf
    return fluids + sum(r["burst_bits"] for r, _ in others if r is not None) + \
        min(queued, sum(r["sent_bits"] for r in pooled))


class _Paths:
    """The UDP sources' routes (`routes`, lists of link names; `links` by name), each distinct route numbered
    (`key[i]`: source i's) with each link's place on it (`place`) and the slowest rate of its first h links
    (`slowest`): sources of one route are alike in every bound taken from the links before a link (estimating a
    q-tandem of 1000 CBR pacers crossed by 300 sources took 60 s when each source's route was scanned at each
    link, review33h D2)."""

    def __init__(self, routes: List[List[str]], links: Dict[str, dict]):
        numbers: Dict[Tuple[str, ...], int] = {}
        self.key = [numbers.setdefault(tuple(route), len(numbers)) for route in routes]
        self.routes = [list(route) for route in numbers]
        self.rate = {name: links[name]["rate_bps"] for route in self.routes for name in route}
        self.least = [list(itertools.accumulate((self.rate[n] for n in route), min, initial=math.inf))
                      for route in self.routes]
        self.place = [{n: h for h, n in reversed(list(enumerate(route)))} for route in self.routes]  # its first

    def slowest(self, route: int, hop: int) -> float:
        """The slowest rate of the links before the `hop`th of route `route`, bit/s: infinite before none."""
        return self.least[route][hop]

    def arriving(self, at: Iterable[Tuple[int, int]]) -> float:
        """How fast sources each at `at` (its route's number and the link's place on it) can bring bits to a link
        together, at most, bit/s: each at most as fast as the slowest link before it on its route, and those that
        cross one link before it together at most as fast as that link: the links before taken slowest first,
        each bounding the sources crossing it that a slower one did not (session 24: 200 Poisson sources beside a
        trace, all behind one 10 Mb/s link, were counted as 2 Gb/s at the 10 Mb/s link behind a 1 Gb/s core, and
        the trace's burst counted there again). Infinite for a source at its first link. Sources at one place of
        one route cross the same links, so they are counted together, at that many times one's bound."""
        alike = collections.Counter(at)  # in the order each first comes, as are the links they cross
        if any(hop == 0 for _, hop in alike):
            return math.inf
        if len(alike) == 1:  # one route's sources behind its slowest link before: at most its rate
            (route, hop), = alike
            return self.slowest(route, hop)
        crossing: Dict[str, List[Tuple[int, int]]] = {}
        for route, hop in alike:
            for n in self.routes[route][:hop]:
                crossing.setdefault(n, []).append((route, hop))
        counted, total = set(), 0.0
        for n in sorted(crossing, key=self.rate.get):
            group = [g for g in crossing[n] if g not in counted]
            if group:
                total += min(self.rate[n], sum(alike[g] * self.slowest(*g) for g in group))
                counted.update(group)
        return total


def _tcp_in_flight(s, routes: List[dict], links: Dict[str, dict]) -> Callable[[str], float]:
    """The bits the TCP flows crossing a link (data or ACKs) have in flight at most: each its window of full
    segments (`_window`, at the rate of its data route's slowest link); every flow's when `routes` are not all
    the flows' (a named topology's, at what its core sends, or each at a graph's fastest link, as
    `_tcp_windows`); unbounded with a Tmix cloud, whose connections' windows are not counted."""
    bits = (s.tcp.segment_size + s.tcp.header_size) * 8
    flows = tcp_flows(s)
    if s.traffic.tmix:
        return lambda name: math.inf
    if len(routes) < flows and s.topology.kind != "graph":
        every = _window(s, flows, s.core_values().rate * (2 if s.traffic.two_way else 1)) * bits
        return lambda name: every
    if len(routes) < flows:
        every = flows * _window(s, 1, max(_rates(s))) * bits
        return lambda name: every
    held: Dict[str, float] = {}
    for r in routes:
        w = _window(s, 1, min(links[name]["rate_bps"] for name in r["data"])) * bits
        for name in dict.fromkeys(r["data"] + r["acks"]):
            held[name] = held.get(name, 0.0) + w
    return lambda name: held.get(name, 0.0)


def _pacer_backlog(s, kind: str, arriving: Dict[int, float], run: Dict[int, float],
                   within: Callable[[int, float], float], e: Estimate) -> None:
    """Add the UDP packets a pacer of `kind` holds, its sources `arriving` at their mean rates (bit/s) for
    `run` seconds each: at most all that arrive in the run, and for QLBP at most `pacing.q_lim` (it drops an
    arrival that finds that many waiting), for an edge pacer at most what arrives within its delay bound
    `pacing.delay` (each packet leaves by then): `within` that many seconds, the one that arrives as the bound
    ends included, each source's bits in its smallest packets. Counted at the mean rate, an ON-OFF source of
    1 Gb/s peak, 2 s ON in 102, behind a 4 s bound was 123.8 MiB for a 796 MB peak (review33i D1)."""
    if kind == "qlbp":
        packets = sum(rate / 8 / _mean_size(s.traffic.udp[i]) * run[i] for i, rate in arriving.items())
        key, packets = "pacing.q_lim", min(packets, s.pacing.q_lim)
    else:  # `within` is at most all a source sends in its run
        key, packets = "pacing.delay", sum(within(i, s.pacing.delay / 1e9) / 8 / _least(s.traffic.udp[i])
                                           for i in arriving)
    e.parts[key] = e.parts.get(key, 0) + math.ceil(packets) * QUEUED_PACKET_BYTES


def _carried(routes: List[List[str]], offered: List[float], capacity: Dict[str, int]) -> List[List[float]]:
    """Each source's mean rate arriving at each link of its route, bit/s: `offered` at the first; a link sends
    at most its `capacity`, shared among the sources arriving in proportion to their rates (a FIFO queue's
    long-run share), and each next link gets what the one before sent. Where no links feed each other in a
    circle (through the routes, link k of a route feeding link k + 1), each link is settled once, after every
    link feeding it (`_feeding_order`), and sources of one route and one offered rate, alike at every link, are
    carried together (one list for them all): review33i D2, rounds of every hop, as many as the longest route
    has links, took 69 s for a chain of 2000 links, each a little slower than the one before, crossed by 300
    sources (O(K^2 N)). A link's arrivals are summed source by source in their order, as the rounds summed
    them; the rates are the rounds' fixed point, to the last bit where the rounds settle (on 20,000 random route
    sets 232 differed, each where a chain of links is deeper than the longest route, so the rounds, capped at
    that many, stopped before settling: review-scale38b D4). Links in a circle take those rounds
    (`_carried_rounds`), whose time still grows as K^2 N (52 routes over a 2000-link chain with one pair
    reversed: 30 s)."""
    alike: Dict[Tuple[Tuple[str, ...], float], int] = {}
    group = [alike.setdefault((tuple(route), rate), len(alike)) for route, rate in zip(routes, offered)]
    kinds = list(alike)
    runs = [(g, len(list(same))) for g, same in itertools.groupby(group)]  # consecutive sources alike
    order = _feeding_order([list(route) for route, _ in kinds], runs)
    if order is None:
        return _carried_rounds(routes, offered, capacity)
    rates = [[rate] * len(route) for route, rate in kinds]
    for name, at in order:  # at: (kind, hop, sources) of each run of sources crossing link `name`, in order
        total = 0.0
        for g, hop, count in at:
            rate = rates[g][hop]
            for _ in range(count):
                total += rate
        sent = min(1.0, capacity[name] / total) if total > 0 else 1.0
        for g, hop, _ in at:
            if hop + 1 < len(kinds[g][0]):
                rates[g][hop + 1] = rates[g][hop] * sent
    return [rates[g] for g in group]


def _feeding_order(routes: List[List[str]], runs: List[Tuple[int, int]]) -> Optional[
        List[Tuple[str, List[Tuple[int, int, int]]]]]:
    """The links of `routes` (distinct ones), each after every link that feeds it on some route (the one before
    it), with the (route, hop, sources) of each of `runs` (a route's number and how many sources in a row take
    it) crossing it, in the runs' order; None if links feed each other in a circle."""
    at: Dict[str, List[Tuple[int, int, int]]] = {}
    waiting: Dict[str, int] = {}  # link -> its crossings whose link before is not yet settled
    for g, count in runs:
        for hop, name in enumerate(routes[g]):
            at.setdefault(name, []).append((g, hop, count))
            waiting[name] = waiting.get(name, 0) + (hop > 0)
    ready = [name for name, n in waiting.items() if n == 0]
    order = []
    while ready:
        name = ready.pop()
        order.append((name, at[name]))
        for g, hop, _ in at[name]:
            if hop + 1 < len(routes[g]):
                after = routes[g][hop + 1]
                waiting[after] -= 1
                if waiting[after] == 0:
                    ready.append(after)
    return order if len(order) == len(at) else None


def _carried_rounds(routes: List[List[str]], offered: List[float], capacity: Dict[str, int]) -> List[List[float]]:
    """`_carried` where links feed each other in a circle: from the offered rates, in as many rounds as the
    longest route has links (each round O(hops)), or until a round changes nothing."""
    rates = [[rate] * len(route) for route, rate in zip(routes, offered)]
    for _ in range(max(map(len, routes), default=0)):
        arriving: Dict[str, float] = {}
        for route, at in zip(routes, rates):
            for name, rate in zip(route, at):
                arriving[name] = arriving.get(name, 0.0) + rate
        sent = {name: min(1.0, capacity[name] / total) if total > 0 else 1.0 for name, total in arriving.items()}
        carried = [[rate] + [at[k] * sent[route[k]] for k in range(len(route) - 1)]
                   for route, rate, at in zip(routes, offered, rates)]
        if carried == rates:  # settled: no more rounds change it
            break
        rates = carried
    return rates


def _about(nbytes: float) -> str:
    """A size to three figures: 8.59 GB, 12.5 MB."""
    for unit, factor in [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)]:
        if nbytes >= factor:
            return f"{nbytes / factor:.3g} {unit}"
    return f"{nbytes:.0f} B"


def available_bytes() -> int:
    """Memory the machine has free for a run now (psutil's `available`: Linux's MemAvailable, and its
    counterpart on macOS and Windows), and no more than the process may still map under its address-space
    limit (`ulimit -v`, `prlimit --as`: what it has mapped beyond what it holds resident is no run's)."""
    free = psutil.virtual_memory().available
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, AttributeError, OSError):  # no such limit on this system
        return free
    if soft == resource.RLIM_INFINITY:
        return free
    mem = psutil.Process().memory_info()
    return max(0, min(free, soft - (mem.vms - mem.rss)))


def check(s, limit: Optional[int] = None, of: Callable = estimate) -> Estimate:
    """The estimate for `s` (`of`: `estimate`, or `network` alone); a ScenarioError
    naming the key of its largest part when it exceeds `limit` bytes (default: the
    machine's available memory). The parts known without building the network
    are weighed first: past the bound already, the run is refused unbuilt."""
    bound = available_bytes() if limit is None else limit
    if of is estimate:
        e = _unbuilt(s)
        if e.total <= bound:
            _built(s, e, bound)
    else:
        e = of(s)
    _refuse(e, limit, bound)
    return e


def _refuse(e: Estimate, limit: Optional[int], bound: Optional[int] = None) -> None:
    """A ScenarioError naming the key of `e`'s largest part when its total exceeds `bound` (default: `limit`,
    or the machine's available memory when that is None)."""
    bound = bound if bound is not None else available_bytes() if limit is None else limit
    if e.total <= bound:
        return
    where = "the limit" if limit is not None else \
        "the memory available (the machine's, within this process's address-space limit)"
    more = "; allow more with --max-memory (max_memory=)" if limit is not None else ""
    if not e.parts:
        raise ScenarioError("max_memory", f"the interpreter and the engine alone take an estimated "
                                          f"{_about(e.total)}, more than {where} ({_about(bound)}){more}")
    key = max(e.parts, key=e.parts.get)
    raise ScenarioError(key, f"the run needs an estimated {_about(e.total)} of memory ({_about(e.parts[key])} "
                             f"for this), more than {where} ({_about(bound)}); lower it, or allow more "
                             "with --max-memory (max_memory=)")
