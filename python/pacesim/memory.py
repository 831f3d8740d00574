"""How much memory a run will take, estimated before it starts, and the guard
that refuses a run that would not fit (issue 20: 10^9 flows once aborted the
process on a 48 GB allocation; a UDP source faster than its link grew an
unbounded queue without a word).

The estimate is the sum of what grows with the scenario, each term named by
the key that sets it: TCP flows (the topology's flow count, twice with
`traffic.two_way`; per flow its hosts, links, sender and sink state and its
report row), q-dumbbell's receivers (a host and its link each), finished short transfers (one report row each), progress
samples and burstiness bins (the engine keeps them as 8-byte values, the
report holds them again as JSON text and Python lists), packets queued
behind a link with no queue limit that the UDP sources entering it (it is
their first link) outpace together, each at its mean offered rate (that
queue grows for the whole run; a trace source's rate, if not given, is its
file's, which the engine reads; an ON-OFF source offers ns-2's closed form,
never above its peak), and the packets of one frame of a trace source that
sends its frames as bursts. The constants are measured (bench/fuzz/README.md):
37 MB for ten flows, 3.8 KB more per flow over a 2 s run and 7 KB over 100 s on two threads (bench/results/scale.csv),
56 B per queued packet; the estimate takes the larger figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

import psutil

from .fields import ScenarioError
from .units import format_rate

BASE_BYTES = 64 * 2**20
"""The interpreter, the engine and a small network."""
FLOW_BYTES = 8 * 2**10
"""One TCP flow with its hosts and links, its state and its report row."""
HOST_BYTES = FLOW_BYTES // 2
"""One host and its link alone (a receiver of q-dumbbell's that no flow's count covers): half a flow's."""
ROW_BYTES = 32
"""One progress sample or burstiness bin: 8 B in the engine, its JSON text and its Python float."""
MAX_ROWS = 2**24
"""The most progress rows or series bins the engine allows (it refuses more, naming the key)."""
TRANSFER_BYTES = 256
"""One finished short transfer's report row."""
QUEUED_PACKET_BYTES = 64
"""One packet waiting in a queue."""


@dataclass
class Estimate:
    """Bytes a run is expected to need: `parts` by the key that sets each, and
    `notes` on what grows without bound during the run."""

    parts: Dict[str, int] = field(default_factory=dict)
    notes: List[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return BASE_BYTES + sum(self.parts.values())


FLOW_KEYS = {"e-base": "topology.hosts_per_edge", "a-base": "topology.tcp_hosts", "q-dumbbell":
             "topology.senders_per_router", "w-dumbbell": "topology.flows", "graph": "topology.flows"}
"""The key that sets a topology kind's flow count (q-line and q-tandem have no TCP flows)."""


def tcp_flows(s) -> int:
    """TCP flows of scenario `s`, each twin of a two-way run counted."""
    t = s.topology
    flows = {"e-base": lambda: t.edges * t.hosts_per_edge, "a-base": lambda: t.tcp_hosts,
             "q-dumbbell": lambda: t.access_routers * t.senders_per_router, "w-dumbbell": lambda: t.flows,
             "graph": lambda: len(t.flows)}.get(t.kind, lambda: 0)()
    return flows * (2 if s.traffic.two_way else 1)


def network(s) -> Estimate:
    """The part of `estimate` the network takes, hosts, links and flows, all
    that `topology.describe` builds."""
    e = Estimate()
    flows = tcp_flows(s)
    if flows:
        e.parts[FLOW_KEYS[s.topology.kind]] = flows * FLOW_BYTES
    if s.topology.kind == "q-dumbbell":  # its receivers are hosts of their own, however few the flows
        e.parts["topology.receivers"] = s.topology.receivers * HOST_BYTES
    return e


def estimate(s) -> Estimate:
    """The memory scenario `s` needs (see the module docstring)."""
    e = network(s)
    flows = tcp_flows(s)
    run_s = s.duration / 1e9
    if s.traffic.short is not None and flows:
        transfers = flows * s.traffic.short.fraction * run_s / (s.traffic.short.mean_think / 1e9)
        e.parts["traffic.short.mean_think"] = int(transfers * TRANSFER_BYTES)
    if s.progress is not None:
        rows = (s.duration // s.progress.interval + 1) * max(flows, 1)
        e.parts["progress.interval"] = min(rows, MAX_ROWS) * ROW_BYTES
    if s.burstiness is not None and s.burstiness.series:
        e.parts["burstiness.bin"] = min((s.duration - s.warmup) // s.burstiness.bin, MAX_ROWS) * ROW_BYTES
    for i, u in enumerate(s.traffic.udp):
        _burst_frames(i, u, e)
    offered = sum(u.rate or 0 for u in s.traffic.udp)  # each source's peak, at least its mean
    unknown = any(u.kind == "trace" and u.rate is None for u in s.traffic.udp)  # its rate is its file's
    if (offered > _slowest_rate(s) or unknown) and e.total < 2**30:  # the engine finds each source's first link
        _udp_queues(s, e)
    return e


def _slowest_rate(s) -> int:
    """The lowest link rate the scenario gives anywhere (bit/s): a UDP source no
    faster than it outpaces no link, and the topology need not be built."""
    def rates(value, key=""):
        if isinstance(value, dict):
            return [r for k, v in value.items() for r in rates(v, k)]
        if isinstance(value, list):
            return [r for v in value for r in rates(v, key)]
        if isinstance(value, tuple) and key.endswith("rate"):
            return [value[0]]
        return [value] if key.endswith("rate") and isinstance(value, int) else []

    return min(rates(s.topology.model_dump()) + [s.core_values().rate])


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


def _udp_queues(s, e: Estimate) -> None:
    """Add the packets queued behind each unlimited link that the UDP sources entering it (it is their first
    link) outpace together, each at its mean rate from the engine (a trace source's is its file's, as played;
    an ON-OFF source's ns-2's closed form, never above its peak): the sources' bits offered from their starts
    less what the link sends from the first start, counted against the source offering most."""
    from .topology import describe

    d = describe(s, 0)
    links = {l["name"]: l for l in d["links"]}
    entering: Dict[str, List[int]] = {}
    for i, source in enumerate(d["udp"]):
        entering.setdefault(source["first_link"], []).append(i)
    for name, sources in entering.items():
        first = links[name]
        if first["buffer_bytes"] is not None or first["buffer_packets"] is not None:
            continue
        rates = {i: d["udp"][i]["mean_rate_bps"] for i in sources}
        mean_rate = sum(rates.values())
        excess = mean_rate - first["rate_bps"]
        if excess <= 0:
            continue
        run = {i: max(0, s.duration - s.traffic.udp[i].start) / 1e9 for i in sources}
        bits = sum(rates[i] * run[i] for i in sources) - first["rate_bps"] * max(run.values())
        # The queue holds each source's packets as they come: the offered stream's mean packet (packet-weighted).
        size = mean_rate / sum(rates[i] / _mean_size(s.traffic.udp[i]) for i in sources)
        packets = int(max(0.0, bits) / 8 / size)
        i = max(sources, key=lambda i: rates[i] * run[i])
        u = s.traffic.udp[i]
        key = "trace.file" if u.kind == "trace" and u.rate is None else "rate"
        e.parts[f"traffic.udp[{i}].{key}"] = packets * QUEUED_PACKET_BYTES
        who = f"traffic.udp[{i}]" if len(sources) == 1 else "traffic.udp[" + ", ".join(map(str, sources)) + "]"
        e.notes.append(
            f"{who} {'sends' if len(sources) == 1 else 'send'} {format_rate(int(mean_rate))} into link {name} of "
            f"{format_rate(first['rate_bps'])} with no queue limit: its queue grows by {format_rate(int(excess))} "
            f"for the whole run, to about {packets:,} packets ({_about(packets * size)})"
        )


def _about(nbytes: float) -> str:
    """A size to three figures: 8.59 GB, 12.5 MB."""
    for unit, factor in [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)]:
        if nbytes >= factor:
            return f"{nbytes / factor:.3g} {unit}"
    return f"{nbytes:.0f} B"


def available_bytes() -> int:
    """Memory the machine has free for a run now (psutil's `available`: Linux's MemAvailable, and its
    counterpart on macOS and Windows)."""
    return psutil.virtual_memory().available


def check(s, limit: Optional[int] = None, of: Callable = estimate) -> Estimate:
    """The estimate for `s` (`of`: `estimate`, or `network` alone); a ScenarioError
    naming the key of its largest part when it exceeds `limit` bytes (default: the
    machine's available memory)."""
    e = of(s)
    bound = available_bytes() if limit is None else limit
    if e.total > bound:
        key = max(e.parts, key=e.parts.get)
        where = "the memory this machine has available" if limit is None else "the limit"
        raise ScenarioError(key, f"the run needs an estimated {_about(e.total)} of memory ({_about(e.parts[key])} "
                                 f"for this), more than {where} ({_about(bound)}); lower it, or allow more "
                                 "with --max-memory (max_memory=)")
    return e
