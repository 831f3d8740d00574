#!/usr/bin/env python3
"""Trace paper W's dumbbell without its cross traffic at the core in pacesim (Wei's pacer, cuts from flight)
and in the patched ns-2 (trace_wdumbbell.tcl, given pacesim's start times), and diff the two (PACESIM.md,
"Event by event"). Two setups: W-s6's (5 Reno flows, 1 Gb/s everywhere, core 4 ms, access 1 ms, 30 KB,
starts U[0, 120 ms], every second flow paced) and W-s1's (16 SACK flows, core 1.05 ms, access 0.1 ms,
375 KB, starts U[0, 0.5 ms], every flow paced; SACK needs build.sh --sack1-paced's binary).

    PYTHONPATH=python python bench/ns2/wei/trace_wdumbbell.py [--setup ws6|ws1] [--mode none|original|modified]
        [--flows N] [--duration 5] [--tick 10ms] [--out DIR] [--ns NS]

Writes OUT/pacesim-TAG.tr.gz and OUT/ns2-TAG.tr.gz (TAG: MODE for ws6, ws1-MODE for ws1) and prints
`pacesim trace diff` of the two.
"""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[2] / "tests"))
from support.ns2_wei import TRACE_SETUPS as SETUPS, trace_scenario as scenario  # noqa: E402
from trace_ebase import trace_both  # noqa: E402

MODES = {"none": 0, "original": 1, "modified": 2}


def params(s, setup: str, mode: str, starts) -> str:
    """trace_wdumbbell.tcl's PARAMS for scenario `s` and the flows' start times (s)."""
    _, (_, agent, sink), _, access_delay, _, _, share = SETUPS[setup]
    core = s.core_values()
    out = [f"set flows {len(starts)}", f"set rate {core.rate}", f"set core_delay {core.delay / 1e9!r}",
           "set access_rate 1000000000", f"set access_delay {access_delay!r}", f"set buffer {core.buffer}",
           f"set payload {s.tcp.segment_size}", f"set tick {s.tcp.tick / 1e9!r}",
           f"set duration {s.duration / 1e9!r}", f"set mode {MODES[mode]}", f"set variant {agent}",
           f"set sinkclass {sink}", f"set paced_every {round(1 / share)}"]
    out += [f"set start({i}) {t!r}" for i, t in enumerate(starts)]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setup", choices=list(SETUPS), default="ws6")
    ap.add_argument("--mode", choices=list(MODES), default="none")
    ap.add_argument("--flows", type=int, help="flows (default: the setup's)")
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--buffer", type=int, help="core buffer, bytes (default: the setup's)")
    ap.add_argument("--tick", default="10ms")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "trace")
    ap.add_argument("--ns", default=Path("/work/ns2-wei/READY").read_text().strip()
                    if Path("/work/ns2-wei/READY").exists() else "ns")
    args = ap.parse_args()
    flows, _, _, _, buffer, _, _ = SETUPS[args.setup]
    s = scenario(args.setup, args.mode, args.flows or flows, args.duration, args.tick, args.buffer or buffer)
    tag = args.mode if args.setup == "ws6" else f"{args.setup}-{args.mode}"
    return trace_both(s, lambda starts: params(s, args.setup, args.mode, starts),
                      [args.ns, HERE / "trace_wdumbbell.tcl"], args.out, tag)


if __name__ == "__main__":
    sys.exit(main())
