"""What a point of a sweep costs to run, before it runs: `pacesim reproduce --list`'s estimate for the points
the results store has not timed.

The engine's work is its packet-hops (a packet crossing one link; `Report.work.packet_hops`), its time that
work times the cost of one packet-hop. A point's packet-hops are bounded by what its core link can carry over
the run, in packets of one segment and its headers, times the links a data packet and its ACK cross (the
routes the engine builds for the first flow, `topology.describe`):

    packet_hops = core rate (b/s) x duration (s) / (8 x (segment + header) B) x (data hops + ACK hops)

For E-base (100 Mb/s, 400 s, 1000 + 40 B, 5 + 5 hops) that is 48.1 million; the engine counts 46.8 million
at 5 KB. A core that is not saturated (short flows, light UDP) does less; a core carrying smaller packets
(ACKs of two-way traffic, small UDP datagrams) does more (Q-tab2: 72,100 estimated, 75,000 counted).

A packet-hop costs about the same in every topology of the papers' sizes; what changes it is the network's
size and fractional Gaussian noise. Past about 10,000 flows a network's state outgrows the caches and a hop
costs more, about 4x from 100,000 flows on (`SCALE_NS_PER_HOP`); a scenario with an fBm UDP source (paper A's
self-similar traffic) synthesises its arrivals and costs about six times as much per hop. Both costs are CPU
time of one engine thread, which is a point's wall time on an idle machine (one worker per core). Points the
store has run are timed by their recorded wall time instead (`pacesim reproduce --list`).
"""

from __future__ import annotations

import json
import math
from typing import Optional

from .. import memory

NS_PER_HOP = 67
"""CPU ns per packet-hop: the median of the 31 points without fBm in bench/record/cost.jsonl (one full-size
point per figure, one engine thread, 4 December 2026; 39-125 ns over E-base, A-base, paper Q's and W's
topologies; Q-tab2's point too short to time)."""

FBM_NS_PER_HOP = 375
"""CPU ns per packet-hop with an fBm UDP source: the median of E-fig14, A-fig13 and A-fig12 there (340-538)."""

SCALE_NS_PER_HOP = ((10_000, NS_PER_HOP), (100_000, 280), (1_000_000, 273))
"""CPU ns per packet-hop by the network's TCP flows, measured (issue 38): up to 10,000 flows the catalogue's
`NS_PER_HOP` (bench/speed/README.md, "Scale": E-base scaled x10 cost 36 ns a hop against 32 at x1, where its
state still fits the caches); at 100,000 flows about 280 (bench/record/COST.md, "X-scale": X-scale's 100k
points, 91 CPU s a point for 310-343 million packet-hops, their check, build and report rows included); at
1,000,000 flows 273 (bench/speed/README.md, "A million flows": 618 CPU s for 2,260 million packet-hops). Between
two points the cost is taken linear in the logarithm of the flows (scale.csv's 30,000 flows lie between, at
1.7x the 1k cost), and past the last it stays there."""


def packet_hops(scenario, engine: Optional[dict] = None) -> float:
    """The estimated packet-hops of `scenario` (a `Scenario`; `engine`, its `to_engine()` if made), by the
    formula above."""
    engine = scenario.to_engine() if engine is None else engine
    core = engine.get("core") or {}
    network = json.dumps([engine["topology"], core.get("rate"), core.get("delay")], sort_keys=True)
    if network not in _NETWORKS:
        _NETWORKS[network] = _core_and_hops(scenario)
    rate_bps, hops = _NETWORKS[network]
    packet_bits = 8 * (engine["tcp"]["segment_size"] + engine["tcp"]["header_size"])
    return rate_bps * engine["duration"] / 1e9 / packet_bits * hops


_NETWORKS: dict = {}
"""The topologies and core rates and delays seen (JSON) -> `_core_and_hops`: the points of a sweep share a few
networks (its buffer and queue, a sweep's usual axes, change neither the core's rate nor a route)."""


def _core_and_hops(scenario) -> tuple:
    """The core link's rate and the first flow's data and ACK hops, from the network built with one host (per
    edge) where its topology scales by hosts (`x-scale`): neither changes with their number, and X-scale's
    million hosts would take gigabytes and minutes to build for an estimate."""
    from .. import schema
    from ..scenario import apply_overrides
    from ..topology import describe

    scale = schema.table("topology", scenario.topology.kind).get("x-scale")
    if scale is not None:
        scenario = apply_overrides(scenario, [f"topology.{scale['hosts']}=1"])
    memory.check(scenario, of=memory.network)  # describing builds the network
    d = describe(scenario, examples=1)
    rate = next(link["rate_bps"] for link in d["links"] if link["name"] == d["core"])
    route = d["routes"][0] if d["routes"] else {"data": ["core"], "acks": ["core.rev"]}
    return rate, len(route["data"]) + len(route["acks"])


READ = ("topology", "core.rate", "core.delay", "duration", "tcp.segment_size", "tcp.header_size", "traffic")
"""The scenario keys `seconds` reads, with what `topology` and `traffic` hold: a sweep's axis of no such key
(a buffer, a queue, a pacer) gives each of its values the same estimate."""


def reads(axis: str) -> bool:
    """Whether a sweep's `axis` may change `seconds`: one of `READ` or inside one, or the flows or variant
    axis (which set any key)."""
    from ..sweep import FLOWS, VARIANT

    return axis in (FLOWS, VARIANT) or any(axis == k or axis.startswith(k + ".") for k in READ)


def ns_per_hop(flows: int) -> float:
    """The CPU ns a packet-hop costs in a network of `flows` TCP flows (`SCALE_NS_PER_HOP`)."""
    points = SCALE_NS_PER_HOP
    for (low, below), (high, above) in zip(points, points[1:]):
        if flows <= high:
            return below + (above - below) * max(0.0, math.log(max(flows, 1) / low) / math.log(high / low))
    return points[-1][1]


def seconds(scenario) -> float:
    """The estimated CPU seconds of one run of `scenario` on one engine thread (its wall time when idle)."""
    engine = scenario.to_engine()
    fbm = any(u.get("kind") == "fbm" for u in engine["traffic"].get("udp") or ())
    return packet_hops(scenario, engine) * (FBM_NS_PER_HOP if fbm else ns_per_hop(memory.tcp_flows(scenario))) / 1e9
