"""The papers' question asked of today's transports and queues (issue 37): what E-base's small core buffers
cost each, and what pacing wins back; and paper E's conjecture on the number of flows asked at the sizes it
points to (issue 38).

The sweeps (`scenarios/X-transports.toml`, `scenarios/X-aqm.toml`, `scenarios/X-scale.toml`) run E-base under
paper E's reading with one thing changed: the transport, the core's queue discipline, or the size of the whole
network. They carry no claims (X-scale quotes its question, and measures): the record draws them, with their
numbers, and docs/experiments.md says what they show of the papers' conclusions.
"""

from __future__ import annotations

from typing import Any, Dict

from ...panels import Panel
from ...reproduce.figure import GOODPUT, TCP_THROUGHPUT, Figure
from ...scenario import apply_overrides
from ...sweep import Sweep

LOSS = "core_loss_rate"
FAIRNESS = "goodput_jain"

XTRANSPORTS = Figure(
    id="X-transports",
    caption="Today's transports through E-base's small core buffer: throughput, goodput, loss and fairness",
    setup="E-base (1000 flows, 100 Mb/s core, 400 s, measured over [100, 400] s) under paper E's reading; Reno "
          "unpaced, host-paced (Wei's pacer) and edge-paced (d = 10 ms) as E-fig3; CUBIC paced at Linux's rate "
          "(2x cwnd/RTT in slow start, 1.2x after); BBR v1; DCTCP with ECN, the core marking from a third of "
          "the buffer; core buffer 2-50 KB; seeds 1-3",
    panels=[Panel("core.buffer", TCP_THROUGHPUT, ["variant"], title="(a) TCP throughput on the core"),
            Panel("core.buffer", GOODPUT, ["variant"], title="(b) Mean per-flow goodput"),
            Panel("core.buffer", LOSS, ["variant"], title="(c) Core loss"),
            Panel("core.buffer", FAIRNESS, ["variant"], title="(d) Fairness (Jain's index of goodputs)")],
    claims=[],
)

XAQM = Figure(
    id="X-aqm",
    caption="Today's queues at E-base's small core buffer, unpaced and edge-paced: throughput, goodput, loss "
            "and fairness",
    setup="E-base (1000 Reno flows, 100 Mb/s core, 400 s, measured over [100, 400] s) under paper E's reading; "
          "the core queue drop-tail, RED (paper E Fig. 9's parameters), CoDel (target 5 ms, interval 100 ms), "
          "FQ-CoDel (1024 queues, quantum 1514 B) or PIE (target 15 ms), the buffer its hard limit; unpaced or "
          "edge-paced (d = 10 ms); core buffer 2-50 KB; seeds 1-3",
    panels=[Panel("core.buffer", TCP_THROUGHPUT, ["variant", "pacing.scheme"],
                  title="(a) TCP throughput on the core"),
            Panel("core.buffer", GOODPUT, ["variant", "pacing.scheme"], title="(b) Mean per-flow goodput"),
            Panel("core.buffer", LOSS, ["variant", "pacing.scheme"], title="(c) Core loss"),
            Panel("core.buffer", FAIRNESS, ["variant", "pacing.scheme"],
                  title="(d) Fairness (Jain's index of goodputs)")],
    claims=[],
)


# --- X-scale: E-fig3 at 1k to 1M flows ---

E32_FLOWS = ('Paper E Sec 3.2: "In practice however, core links typically have tens of thousands of TCP flows '
             'traversing through them, suggesting that it is better to pace the aggregate (at the edges) rather '
             'than the individual (at the host) for improved TCP performance."')
"""The conjecture X-scale asks (paper E ran 10-1000 flows on 100 Mb/s, E-fig4)."""

FULL_FLOWS = "full-size flows"
BUFFER_PACKETS = "buffer packets"
BUFFERS = "buffers"
"""The axes an X-scale variant stands for (`scale_and_buffer`): its flows at full size (a quick run's scale
left out, so that its panels are the full size's), its core buffer in packets of a data segment on the wire,
and how that buffer was set: "packets" (a packet limit, the byte limit out of reach) or "KB x k" (the paper's
KB times the scale k, the same drain time)."""

SCALES = [(1_000, "100 Mb/s"), (10_000, "1 Gb/s"), (100_000, "10 Gb/s"), (1_000_000, "100 Gb/s")]
"""X-scale's scales: flows and core rate (scenarios/X-scale.toml)."""


def scale_and_buffer(sweep: Sweep) -> Dict[str, Dict[str, Any]]:
    """Each variant of `sweep` (X-scale's: one scale and one core buffer) as its values of `FULL_FLOWS`,
    `BUFFER_PACKETS` and `BUFFERS`, read from the scenario its overrides make of the sweep's base and `set`:
    flows = edges x hosts per edge; the buffer in packets = the packet limit where one is set, else the byte
    limit over a data segment and its header (1040 B in E-base: 10 KB is 9.6 packets)."""
    out = {}
    for name, overrides in sweep.variants.items():
        e = apply_overrides(sweep.base, sweep.set + overrides, sweep.root, engine=False).to_engine()
        packets = e["core"].get("buffer_packets")
        out[name] = {
            FULL_FLOWS: e["topology"]["edges"] * e["topology"]["hosts_per_edge"],
            BUFFER_PACKETS: float(packets if packets is not None
                                  else e["core"]["buffer"] / (e["tcp"]["segment_size"] + e["tcp"]["header_size"])),
            BUFFERS: "packets" if packets is not None else "KB x k",
        }
    return out


XSCALE = Figure(
    id="X-scale",
    caption="E-fig3 from 1,000 flows on 100 Mb/s to 1,000,000 on 100 Gb/s: TCP utilisation of the core against "
            "its buffer, unpaced, host- and edge-paced",
    setup="E-base scaled by k = 1, 10, 100, 1000 (k x 100 hosts per edge; core, edge and access rates x k, so "
          "each flow keeps 100 Kb/s of the core; RTTs as E-base's) under paper E's reading; unpaced, host-paced "
          "(Wei's pacer) and edge-paced (d = 10 ms) as E-fig3; core buffer the paper's 2-50 KB x k (the same "
          "drain time, 0.16-4 ms) or 5-50 packets; runs of 400, 100, 30 and 20 s measured after 100, 30, 15 "
          "and 12 s; seeds 1-3. It asks " + E32_FLOWS,
    panels=[Panel(BUFFER_PACKETS, "tcp_utilisation", ["pacing.scheme", BUFFERS], where={FULL_FLOWS: flows},
                  title=f"({letter}) {flows:,} flows, {rate} core",
                  xlabel="Core link buffer (packets of 1040 B)")
            for letter, (flows, rate) in zip("abcd", SCALES)],
    claims=[],
    parts=scale_and_buffer,
    quick_set_wins=True,
)
