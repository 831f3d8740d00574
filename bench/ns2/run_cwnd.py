#!/usr/bin/env python3
"""Paper A Fig. 4 (A-fig4) in stock ns-2 2.35: each flow's average cwnd, against pacesim.

A-base with a 200 Mb/s core, 1000 or 200 TCP Reno flows on 10 Mb/s access
links and 10 Mb/s (5 %) Poisson UDP of 200 B (refs.poisson_trace), at 2 and
20 KB; abase.tcl's `cwnd_csv` samples every flow's cwnd_ every 50 ms over
[WARMUP, DURATION] (pacesim: the exact time average). Shorter than the
paper-size 800 s run (ns-2 at 200 Mb/s is slow): 60 s over [20, 60] s,
seed 1; pacesim is rerun on the same window for the comparison. `--window`:
the advertised window_, 1000 (abase.tcl's) or 20 (ns-2's default, paper A's
reading in the record).

    python3 bench/ns2/run_cwnd.py --ns2 [--window 20]      # ns-2 points not yet in results/cwnd/
    python bench/ns2/run_cwnd.py --compare [--window 20]   # 5th / 50th / 95th percentile of the flows' mean cwnd, both

Per-flow means go to results/cwnd/a4_f<flows>_b<KB>k_s<seed>_t<duration>[_w<window>].csv
(no suffix: window_ 1000).
"""

import argparse
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import refs  # noqa: E402

OUT = refs.HERE / "results" / "cwnd"
POINTS = [(1000, 2), (200, 2), (1000, 20), (200, 20)]  # (flows, buffer KB)
SEED, DURATION, WARMUP = 1, 60, 20


def path(flows, kb, window):
    suffix = "" if window == 1000 else f"_w{window}"
    return OUT / f"a4_f{flows}_b{kb}k_s{SEED}_t{DURATION}{suffix}.csv"


def run_ns2(window):
    OUT.mkdir(parents=True, exist_ok=True)
    for flows, kb in POINTS:
        if path(flows, kb, window).exists():
            continue
        point = {"scale": 2, "seed": SEED, "duration_s": DURATION}  # udp_rate: 5 Mb/s x 2 = 10 Mb/s
        with tempfile.TemporaryDirectory() as tmp:
            trace = Path(tmp) / "udp.bin"
            refs.poisson_trace(trace, point)
            args = ["hosts", flows, "access", 10e6, "core", 200e6, "udp_access", 100e6, "buffer", kb * 1000,
                    "seed", SEED, "duration", DURATION, "warmup", WARMUP, "window", window, "udp", "trace", "trace",
                    trace, "cwnd_csv", path(flows, kb, window)]
            subprocess.run(["ns", refs.HERE / "abase.tcl", *map(str, args)], check=True, capture_output=True)
        print(f"ns-2 {flows} flows, {kb} KB: {path(flows, kb, window)}", flush=True)


def percentiles(values):
    import numpy as np

    return [float(np.percentile(values, q)) for q in (5, 50, 95)]


def compare(window):
    import pacesim

    base = pacesim.load_scenario(refs.ROOT / "scenarios" / "a-base.toml")
    print("| flows | buffer | ns-2 5th / 50th / 95th | pacesim 5th / 50th / 95th |\n|---|---|---|---|")
    for flows, kb in POINTS:
        if not path(flows, kb, window).exists():
            continue
        with path(flows, kb, window).open() as f:
            ns2 = [float(r["mean_cwnd"]) for r in csv.DictReader(f)]
        s = pacesim.apply_overrides(base, [
            f"topology.tcp_hosts={flows}", "core.rate=200Mbps", f"core.buffer={kb}KB", f"seed={SEED}",
            f"duration={DURATION}s", f"warmup={WARMUP}s", f"tcp.window={window}",
            'traffic.udp=[{kind = "poisson", rate = "10Mbps", size = "200B"}]'])
        ours = [c for c in pacesim.run(s).report["flows"]["mean_cwnd"] if c is not None]
        fmt = lambda q: " / ".join(f"{x:.2f}" for x in q)  # noqa: E731
        print(f"| {flows} | {kb} KB | {fmt(percentiles(ns2))} | {fmt(percentiles(ours))} |", flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ns2", action="store_true")
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--window", type=int, default=1000, help="advertised window_, packets (default 1000)")
    a = ap.parse_args()
    if a.ns2:
        run_ns2(a.window)
    if a.compare:
        compare(a.window)
