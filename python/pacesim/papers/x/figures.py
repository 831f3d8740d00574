"""The papers' question asked of today's transports and queues (issue 37): what E-base's small core buffers
cost each, and what pacing wins back.

Both sweeps (`scenarios/X-transports.toml`, `scenarios/X-aqm.toml`) run E-base under paper E's reading with one
thing changed: the transport, or the core's queue discipline. They quote no paper, so they carry no claims: the
record draws them, with their numbers, and docs/experiments.md says what they show of the papers' conclusions.
"""

from __future__ import annotations

from ...panels import Panel
from ...reproduce.figure import GOODPUT, TCP_THROUGHPUT, Figure

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
