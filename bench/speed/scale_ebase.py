#!/usr/bin/env python3
"""How pacesim's cost grows with the network: E-base scaled by k.

E-base (paper E Sec 3.1) with k times the hosts per edge and k times every
link rate (core, edge, access), so each flow keeps the paper's fair share
of 100 Kb/s: k = 1 is the paper (1000 flows, 100 Mb/s), 10 is 10,000 flows
on 1 Gb/s, 100 is 100,000 flows on 10 Gb/s. Issue 6 asks for 10 edges x
1000 hosts at k = 10; we scale hosts per edge, so k = 10 is exactly that and
k = 100 is 10 edges x 10,000 hosts. Each run is 100 simulated seconds
(flows start over [0, 10] s, measured over [30, 100] s) in a fresh process
under /usr/bin/time; the table gives wall time, peak memory, events and
the cost per flow and per packet-hop, so linear growth shows as flat
columns. Results go to bench/speed/results/scale.csv.

Runs use one thread unless `--threads 2` (the network split at its core
into two halves run in parallel, `engine/partition.rs`; the same reports).
`--engine BINARY` runs the engine alone (`examples/run_json.rs`, built with
`cargo build --release --example run_json`) on the scenario's engine JSON
instead of `pacesim.run`: wall time and peak memory are then the engine's
and its JSON report's, without Python's copy of a million flows' rows.

    python bench/speed/scale_ebase.py [--k 1 10 100] [--duration 100] [--threads 2] [--engine BINARY]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "speed" / "results" / "scale.csv"

RUN = """
import json, sys, pacesim
from pacesim.sweep import scaled
k, threads = float(sys.argv[1]), int(sys.argv[2])
s = pacesim.apply_overrides(pacesim.Scenario(), sys.argv[3:])
r = pacesim.run(scaled(s, k), threads=threads)
print(json.dumps({"engine_s": r.wall_s, "flows": len(r.flows), **r.work, **r.summary}))
"""


def overrides(duration: float) -> list[str]:
    """E-base's settings for a run of `duration` seconds, before scaling."""
    return [f"duration={duration}s", "warmup=30s", "core.buffer=10KB"]


def scenario(k: float, duration: float) -> dict:
    """The engine JSON of E-base scaled by k, as RUN runs it."""
    import pacesim
    from pacesim.sweep import scaled
    return scaled(pacesim.apply_overrides(pacesim.Scenario(), overrides(duration)), k).to_engine()


def timed(command: list[str]) -> tuple[subprocess.CompletedProcess, float, int]:
    """The finished `command`, its wall seconds and peak RSS (KB) under /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        done = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf.name, *command],
                              capture_output=True, text=True, check=True)
        wall, rss_kb = tf.read().split()[-2:]
    return done, float(wall), int(rss_kb)


def engine_run(binary: str, k: float, duration: float, threads: int) -> tuple[dict, float, int]:
    """The engine alone on scaled E-base: its summary and work, wall time, peak RSS."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(scenario(k, duration), f)
        f.flush()
        done, wall, rss_kb = timed([binary, f.name, str(threads)])
    report = json.loads(done.stdout)
    # run_json's own clock: the run, without reading the scenario or writing the report.
    engine_s = float(re.search(r"wall ([0-9.]+) s", done.stderr).group(1))
    return {"engine_s": engine_s, "flows": len(report["flows"]["flow"]), **report["work"], **report["summary"]}, wall, rss_kb


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k", type=float, nargs="+", default=[1, 10, 100])
    ap.add_argument("--duration", type=float, default=100.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--engine", metavar="BINARY", help="run_json binary: the engine alone, not pacesim.run")
    args = ap.parse_args()
    console = Console()
    rows = []
    for k in args.k:
        with console.status(f"k = {k:g}: {1000 * k:,.0f} flows, {100 * k:g} Mb/s core, {args.duration:g} s"):
            if args.engine:
                r, wall, rss_kb = engine_run(args.engine, k, args.duration, args.threads)
            else:
                done, wall, rss_kb = timed([sys.executable, "-c", RUN, str(k), str(args.threads), *overrides(args.duration)])
                r = json.loads(done.stdout)
        rows.append(dict(k=k, threads=args.threads, flows=r["flows"], core_mbps=100 * k, wall_s=float(wall), engine_s=r["engine_s"],
                         rss_mb=int(rss_kb) / 1024, events=r["events"], packet_hops=r["packet_hops"],
                         utilisation=r["aggregate_mbps"] / (100 * k), goodput_kbps=r["goodput_kbps_mean"]))
    df = pd.DataFrame(rows)
    df["ns_per_hop"] = df.engine_s / df.packet_hops * 1e9
    df["us_per_flow_sim_s"] = df.engine_s / df.flows / args.duration * 1e6
    OUT.parent.mkdir(exist_ok=True)
    df.assign(duration_s=args.duration).to_csv(OUT, index=False)
    t = Table(title=f"E-base scaled by k, {args.duration:g} simulated s, {args.threads} thread(s)")
    for col in ["k", "flows", "core Mb/s", "wall s", "engine s", "peak RSS MB", "events", "packet-hops",
                "ns per hop", "utilisation", "goodput Kb/s"]:
        t.add_column(col, justify="right")
    for r in df.to_dict("records"):
        t.add_row(f"{r['k']:g}", f"{r['flows']:,}", f"{r['core_mbps']:,.0f}", f"{r['wall_s']:.1f}",
                  f"{r['engine_s']:.1f}", f"{r['rss_mb']:.0f}", f"{r['events']:,}", f"{r['packet_hops']:,}",
                  f"{r['ns_per_hop']:.0f}", f"{r['utilisation']:.3f}", f"{r['goodput_kbps']:.1f}")
    console.print(t)
    console.print(f"written to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
