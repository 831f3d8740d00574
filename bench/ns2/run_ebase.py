#!/usr/bin/env python3
"""Run the ns-2 E-base reference grid and append results to results/ebase.csv.

Each run is `ns ebase.tcl ...` under /usr/bin/time (wall time, peak RSS).
Runs already in the CSV are skipped, so the script resumes after a crash.
Standard library only; needs Debian's ns2 (`apt-get install -y ns2`).

    python3 bench/ns2/run_ebase.py            # the whole grid, in order
    python3 bench/ns2/run_ebase.py --speed    # only the 400 s speed reference
"""

import argparse
import csv
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "ebase.csv"
FLOWS = HERE / "results" / "flows"
BUFFERS_KB = [2, 3, 5, 8, 10, 15, 20, 30, 50]
COLUMNS = ["flows", "edges", "hosts_per_edge", "buffer_bytes", "seed", "duration_s", "warmup_s",
           "aggregate_mbps", "goodput_kbps_mean", "core_loss", "core_arrivals", "core_drops",
           "wall_s", "peak_rss_mb"]


def grid():
    """(edges, hosts, buffer KB, seed, duration, warmup), most important first."""
    runs = [(10, 100, b, 1, 200, 50) for b in BUFFERS_KB]
    runs += [(10, 10, b, s, 200, 50) for s in (1, 2, 3) for b in BUFFERS_KB]
    runs += [(10, 100, b, 2, 200, 50) for b in BUFFERS_KB]
    return runs


SPEED = [(10, 100, 10, 1, 400, 100)]


def done_keys():
    if not RESULTS.exists():
        return set()
    with RESULTS.open() as f:
        return {(int(r["edges"]), int(r["hosts_per_edge"]), int(r["buffer_bytes"]) // 1000, int(r["seed"]),
                 int(r["duration_s"]), int(r["warmup_s"])) for r in csv.DictReader(f)}


def run_one(edges, hosts, kb, seed, duration, warmup):
    tag = f"f{edges * hosts}_b{kb}k_s{seed}_t{duration}"
    flows_csv = FLOWS / f"{tag}.csv"
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        cmd = ["/usr/bin/time", "-f", "%e %M", "-o", tf.name, "ns", str(HERE / "ebase.tcl"),
               str(edges), str(hosts), str(kb * 1000), str(seed), str(duration), str(warmup), str(flows_csv)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        wall, rss_kb = tf.read().split()
    m = dict(re.findall(r"(\w+)=([-\d.e]+)", out.split("RESULT", 1)[1]))
    return {"flows": edges * hosts, "edges": edges, "hosts_per_edge": hosts, "buffer_bytes": kb * 1000,
            "seed": seed, "duration_s": duration, "warmup_s": warmup,
            "aggregate_mbps": m["aggregate_mbps"], "goodput_kbps_mean": m["goodput_kbps_mean"],
            "core_loss": m["core_loss"], "core_arrivals": m["core_arrivals"], "core_drops": m["core_drops"],
            "wall_s": wall, "peak_rss_mb": f"{int(rss_kb) / 1024:.1f}"}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--speed", action="store_true", help="only the 400 s, 1000-flow speed reference")
    args = ap.parse_args()
    FLOWS.mkdir(parents=True, exist_ok=True)
    todo = [r for r in (SPEED if args.speed else grid() + SPEED) if r not in done_keys()]
    for i, r in enumerate(todo, 1):
        row = run_one(*r)
        new = not RESULTS.exists()
        with RESULTS.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            if new:
                w.writeheader()
            w.writerow(row)
        print(f"[{i}/{len(todo)}] {row}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
