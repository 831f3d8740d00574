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
columns. Results go to bench/results/scale.csv.

Runs use one thread unless `--threads 2` (the network split at its core
into two halves run in parallel, `engine/partition.rs`; the same reports).

    python bench/scale_ebase.py [--k 1 10 100] [--duration 100] [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "scale.csv"

RUN = """
import json, sys, pacesim
from pacesim.sweep import scaled
k, duration, threads = float(sys.argv[1]), sys.argv[2], int(sys.argv[3])
s = pacesim.apply_overrides(pacesim.Scenario(), [f"duration={duration}s", "warmup=30s", "core.buffer=10KB"])
r = pacesim.run(scaled(s, k), threads=threads)
print(json.dumps({"engine_s": r.wall_s, "flows": len(r.flows), **r.work, **r.summary}))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k", type=float, nargs="+", default=[1, 10, 100])
    ap.add_argument("--duration", type=float, default=100.0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    console = Console()
    rows = []
    for k in args.k:
        with console.status(f"k = {k:g}: {1000 * k:,.0f} flows, {100 * k:g} Mb/s core, {args.duration:g} s"):
            with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
                out = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf.name, sys.executable, "-c", RUN,
                                      str(k), str(args.duration), str(args.threads)],
                                     capture_output=True, text=True, check=True).stdout
                wall, rss_kb = tf.read().split()[-2:]
        r = json.loads(out)
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
