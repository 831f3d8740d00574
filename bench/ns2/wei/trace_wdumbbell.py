#!/usr/bin/env python3
"""Trace W-s6's network without its cross traffic (5 Reno flows, 1 Gb/s everywhere, core 4 ms, 30 KB) at
the core in pacesim (Wei's pacer, cuts from flight) and in the patched ns-2 (trace_wdumbbell.tcl, given
pacesim's start times), and diff the two (PACESIM.md, "Event by event").

    PYTHONPATH=python python bench/ns2/wei/trace_wdumbbell.py [--mode none|original|modified] [--flows 5]
        [--duration 5] [--tick 10ms] [--out DIR] [--ns NS]

Writes OUT/pacesim-MODE.tr.gz and OUT/ns2-MODE.tr.gz and prints `pacesim trace diff` of the two.
"""

import argparse
import sys
from pathlib import Path

from pacesim.scenario import apply_overrides, load_scenario

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from trace_ebase import trace_both  # noqa: E402

ROOT = HERE.parents[2]
MODES = {"none": 0, "original": 1, "modified": 2}


def scenario(mode: str, flows: int, duration: float, tick: str, buffer: int):
    """The w-dumbbell as W-s6 without cross traffic: `flows` Reno flows, every second paced with `mode`,
    `duration` s, `buffer` bytes at the core, Wei's pacer and cuts from flight (the patched build)."""
    pacing = (["pacing.scheme=none"] if mode == "none" else
              ["pacing.scheme=host", "pacing.fraction=0.5", f"pacing.host_mode={mode}"])
    return apply_overrides(load_scenario(ROOT / "scenarios" / "w-dumbbell.toml"), [
        f"topology.flows={flows}", "core.rate=1000Mbps", "core.delay=4ms", f"core.buffer={buffer}B",
        "tcp.segment_size=1460B", "tcp.window=100000", "tcp.variant=reno", f"tcp.tick={tick}",
        f"duration={duration}s", "warmup=0s", 'traffic.start=["0s", "120ms"]', "seed=1", *pacing,
        "pacing.host_pacer=wei", "tcp.window_cut=flight"])


def params(s, mode: str, starts) -> str:
    """trace_wdumbbell.tcl's PARAMS for scenario `s` and the flows' start times (s)."""
    core = s.core_values()
    out = [f"set flows {len(starts)}", f"set rate {core.rate}", f"set core_delay {core.delay / 1e9!r}",
           "set access_rate 1000000000", "set access_delay 0.001", f"set buffer {core.buffer}",
           f"set payload {s.tcp.segment_size}", f"set tick {s.tcp.tick / 1e9!r}",
           f"set duration {s.duration / 1e9!r}", f"set mode {MODES[mode]}"]
    out += [f"set start({i}) {t!r}" for i, t in enumerate(starts)]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=list(MODES), default="none")
    ap.add_argument("--flows", type=int, default=5)
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--buffer", type=int, default=30_000, help="core buffer, bytes")
    ap.add_argument("--tick", default="10ms")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "trace")
    ap.add_argument("--ns", default=Path("/work/ns2-wei/READY").read_text().strip()
                    if Path("/work/ns2-wei/READY").exists() else "ns")
    args = ap.parse_args()
    s = scenario(args.mode, args.flows, args.duration, args.tick, args.buffer)
    return trace_both(s, lambda starts: params(s, args.mode, starts), [args.ns, HERE / "trace_wdumbbell.tcl"],
                      args.out, args.mode)

if __name__ == "__main__":
    sys.exit(main())
