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

The cost of a packet-hop depends on the topology kind (paper A's scenarios draw UDP sizes and gaps per
packet, paper E's do not): `NS_PER_HOP`, measured. Points the store has run are timed by their recorded wall
time instead (`pacesim reproduce --list`).
"""

from __future__ import annotations

import json

NS_PER_HOP = {"e-base": 176, "a-base": 1250, "w-dumbbell": 393, "q-line": 105, "q-dumbbell": 528}
"""ns of wall time per packet-hop by topology kind, one point per worker: the medians of 24, 76, 135, 24 and
19 paper-size runs on this project's 2-core machine on 2026-12-04 with the load average at 10-12 (two
workers among other jobs; idle, E-base runs at about 30 ns on two threads)."""

DEFAULT_NS_PER_HOP = 393
"""For a kind `NS_PER_HOP` has not timed: the median kind above."""


def packet_hops(scenario) -> float:
    """The upper estimate of the packet-hops of `scenario` (a `Scenario`), by the formula above."""
    engine = scenario.to_engine()
    network = json.dumps([engine["topology"], engine.get("core")], sort_keys=True)
    if network not in _NETWORKS:
        _NETWORKS[network] = _core_and_hops(scenario)
    rate_bps, hops = _NETWORKS[network]
    packet_bits = 8 * (engine["tcp"]["segment_size"] + engine["tcp"]["header_size"])
    return rate_bps * engine["duration"] / 1e9 / packet_bits * hops


_NETWORKS: dict = {}
"""The topology and core specs seen (JSON) -> `_core_and_hops`: the points of a sweep share a few networks."""


def _core_and_hops(scenario) -> tuple:
    """The core link's rate and the first flow's data and ACK hops."""
    from ..topology import describe

    d = describe(scenario, examples=1)
    rate = next(link["rate_bps"] for link in d["links"] if link["name"] == d["core"])
    route = d["routes"][0] if d["routes"] else {"data": ["core"], "acks": ["core.rev"]}
    return rate, len(route["data"]) + len(route["acks"])


def calibrated(scenario) -> bool:
    """Whether `NS_PER_HOP` has timed the topology kind of `scenario`."""
    return scenario.to_engine()["topology"]["kind"] in NS_PER_HOP


def seconds(scenario) -> float:
    """The estimated wall seconds of one run of `scenario` on one worker."""
    kind = scenario.to_engine()["topology"]["kind"]
    return packet_hops(scenario) * NS_PER_HOP.get(kind, DEFAULT_NS_PER_HOP) / 1e9
