#!/usr/bin/env python3
"""The ns-2 defaults that shape a simulated TCP flow, side by side for several ns-2 versions.

Reads each version's `tcl/lib/ns-default.tcl` from a source tree (public
mirrors of ns-2 2.28, 2.30, 2.33 and Debian's 2.35; where they came from is
in docs/guide/ns2-versions.md) and prints one markdown row per default:
its value in each version with the line it is set on. Nothing of ns-2 is
copied here: the trees are read where they lie, and only values and line
numbers are printed.

    python bench/ns2/versions.py 2.28=/tmp/ns2v/2.28 2.30=/tmp/ns2v/2.30 \
        2.33=/tmp/ns2v/2.33 2.35=/tmp/ns2v/2.35
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

# (class, variable, what pacesim calls it or why it matters)
KNOBS: List[Tuple[str, str, str]] = [
    ("Agent/TCP", "window_", "tcp.window (advertised window, packets)"),
    ("Agent/TCP", "windowInit_", "tcp.initial_window"),
    ("Agent/TCP", "syn_", "tcp.syn"),
    ("Agent/TCP", "delay_growth_", "tcp.syn (cwnd 1 until the SYN is acknowledged)"),
    ("Agent/TCP", "packetSize_", "tcp.segment_size (bytes)"),
    ("Agent/TCP", "useHeaders_", "tcp.header_size counted on the wire"),
    ("Agent/TCP", "tcpip_base_hdr_size_", "tcp.header_size (bytes)"),
    ("Agent/TCP", "tcpTick_", "tcp.tick (s)"),
    ("Agent/TCP", "minrto_", "tcp.min_rto (s)"),
    ("Agent/TCP", "maxrto_", "tcp.max_rto (s)"),
    ("Agent/TCP", "rtxcur_init_", "tcp.initial_rto (s)"),
    ("Agent/TCP", "rfc2988_", "RTO = max(minrto_, srtt + 4 rttvar) x backoff"),
    ("Agent/TCP", "maxburst_", "no burst limit at 0 (pacesim has none)"),
    ("Agent/TCP", "numdupacks_", "fast retransmit threshold"),
    ("Agent/TCP", "numdupacksFrac_", "threshold max(numdupacks_, cwnd / numdupacksFrac_)"),
    ("Agent/TCP", "bugFix_", "one fast retransmit per window (Reno, NewReno)"),
    ("Agent/TCP", "bugfix_ss_", "fast retransmit and initial window 1 when the first packet is lost"),
    ("Agent/TCP", "precisionReduce_", "halve the window as a float (true) or an integer (false)"),
    ("Agent/TCP", "exitFastRetrans_", "Reno leaves fast recovery on the first new ACK"),
    ("Agent/TCP", "SetCWRonRetransmit_", "ECN's CWR bit on retransmissions (ECN only)"),
    ("Agent/TCP", "overhead_", "random send delay U[0, overhead_] (s)"),
    ("Agent/TCP", "timestamps_", "RTT from timestamps"),
    ("Agent/TCPSink", "packetSize_", "tcp.ack_size (bytes)"),
    ("Agent/TCPSink", "SYN_immediate_ack_", "DelAck sink ACKs the SYN at once"),
    ("Agent/TCPSink/DelAck", "interval_", "tcp.delayed_ack (only with Agent/TCPSink/DelAck)"),
    ("Queue", "limit_", "queue limit (packets, or units of mean_pktsize_ in byte mode)"),
    ("Queue/DropTail", "queue_in_bytes_", "byte-limited queue (core.buffer in bytes)"),
    ("Queue/DropTail", "mean_pktsize_", "bytes per limit_ unit in byte mode"),
    ("Queue/DropTail", "drop_front_", "drop the head instead of the arrival"),
    ("Queue/DropTail", "summarystats_", "queue statistics only"),
    ("Application/Traffic/Exponential", "burst_time_", "on time (s), exponential"),
    ("Application/Traffic/Exponential", "idle_time_", "off time (s), exponential"),
    ("Application/Traffic/Exponential", "rate_", "rate while on"),
    ("Application/Traffic/Exponential", "packetSize_", "bytes"),
]


def defaults(path: Path) -> Dict[Tuple[str, str], Tuple[str, int]]:
    """(class, variable) -> (value, line) for every top-level `Class set var value` line of ns-default.tcl."""
    out: Dict[Tuple[str, str], Tuple[str, int]] = {}
    for n, line in enumerate(path.read_text(encoding="latin-1").splitlines(), 1):
        m = re.match(r"^([A-Za-z][\w/]*) set (\w+)\s+([^;#\s]+)", line)
        if m and (m[1], m[2]) not in out:
            out[m[1], m[2]] = (m[3], n)
    return out


def table(trees: Dict[str, Path]) -> str:
    """A markdown table: one row per knob, its value and line in each version ("-": not set there)."""
    read = {v: defaults(p / "tcl" / "lib" / "ns-default.tcl") for v, p in trees.items()}
    lines = ["| default | pacesim / effect | " + " | ".join(f"ns-{v}" for v in trees) + " |",
             "|---|---|" + "---|" * len(trees)]
    for cls, var, what in KNOBS:
        cells = []
        for v in trees:
            got: Optional[Tuple[str, int]] = read[v].get((cls, var))
            cells.append(f"{got[0]} (l. {got[1]})" if got else "-")
        same = len({c.split(" (")[0] for c in cells}) == 1
        name = f"`{cls} {var}`" if same else f"**`{cls} {var}`**"
        lines.append(f"| {name} | {what} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: List[str]) -> None:
    trees = dict(a.split("=", 1) for a in argv)
    if not trees:
        sys.exit(__doc__)
    print(table({v: Path(p) for v, p in trees.items()}))


if __name__ == "__main__":
    main(sys.argv[1:])
