#!/usr/bin/env python3
"""Speed of pacesim and ns-2 on the paper-size E-base, in one run.

E-base (paper E Sec 3.1): 1000 TCP Reno flows, 10 KB drop-tail core buffer,
400 simulated seconds. Each simulator runs in its own process under
/usr/bin/time (wall time, peak RSS). Each also runs a near-zero-length copy
of the scenario, so set-up cost (ns-2 builds its routes) is separated from
the cost per simulated second. ns-2 runs only where `ns` is installed
(Debian: apt-get install -y ns2); otherwise its committed reference row
(bench/ns2/results/ebase.csv) is shown instead, marked as such.

    python bench/speed_ebase.py [--duration 400] [--no-ns2]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
TCL = ROOT / "bench" / "ns2" / "ebase.tcl"
NS2_CSV = ROOT / "bench" / "ns2" / "results" / "ebase.csv"
SCENARIO = ROOT / "scenarios" / "e-base.toml"

PACESIM = """
import json, sys, pacesim
extra = ["traffic.start=0s"] if sys.argv[4] == "setup" else []
s = pacesim.apply_overrides(pacesim.load_scenario(sys.argv[1]),
    ["core.buffer=10KB", f"duration={sys.argv[2]}", f"warmup={sys.argv[3]}", *extra])
r = pacesim.run(s)
print(json.dumps({"engine_s": r.wall_s, **r.work, **r.summary}))
"""


def timed(cmd: list[str]) -> tuple[str, float, float]:
    """Run `cmd`; return its stdout, wall seconds and peak RSS in MB."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        out = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf.name, *cmd],
                             capture_output=True, text=True, check=True).stdout
        wall, rss_kb = tf.read().split()[-2:]
    return out, float(wall), int(rss_kb) / 1024


def pacesim_run(duration: float, warmup: float, setup_only: bool = False) -> dict:
    """One pacesim run in a fresh process; `setup_only` starts every flow at 0
    so that a near-zero-length run passes validation."""
    mode = "setup" if setup_only else "full"
    out, wall, rss = timed([sys.executable, "-c", PACESIM, str(SCENARIO), f"{duration}s", f"{warmup}s", mode])
    return {**json.loads(out), "wall_s": wall, "rss_mb": rss}


def ns2_run(duration: float, warmup: float) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".csv") as flows:
        out, wall, rss = timed(["ns", str(TCL), "10", "100", "10000", "1", str(duration), str(warmup), flows.name])
    return {"wall_s": wall, "rss_mb": rss, "result": out.strip()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=400.0)
    ap.add_argument("--no-ns2", action="store_true", help="use the committed ns-2 figures even if ns is installed")
    args = ap.parse_args()
    T, W = args.duration, args.duration / 4
    console = Console()

    with console.status("pacesim: set-up only, then the full run"):
        p0 = pacesim_run(0.002, 0.001, setup_only=True)
        p = pacesim_run(T, W)
    rows = {"pacesim": (p["wall_s"], p0["wall_s"], p["rss_mb"])}
    if shutil.which("ns") and not args.no_ns2:
        with console.status("ns-2: set-up only (route building), then the full run"):
            n0 = ns2_run(0.002, 0.001)
            n = ns2_run(T, W)
        rows["ns-2 2.35 (measured now)"] = (n["wall_s"], n0["wall_s"], n["rss_mb"])
    else:
        ref = pd.read_csv(NS2_CSV).query("flows == 1000 and buffer_bytes == 10000 and duration_s == @T")
        if len(ref):
            rows["ns-2 2.35 (committed reference)"] = (ref.wall_s.iloc[0], float("nan"), ref.peak_rss_mb.iloc[0])

    table = Table(title=f"E-base, 1000 flows, 10 KB, {T:g} simulated s")
    for col in ["simulator", "wall s", "set-up s", "wall s per sim s", "peak RSS MB"]:
        table.add_column(col, justify="right")
    for name, (wall, setup, rss) in rows.items():
        per = (wall - setup) / T if setup == setup else float("nan")
        table.add_row(name, f"{wall:.2f}", f"{setup:.2f}", f"{per:.4f}", f"{rss:.0f}")
    console.print(table)
    console.print(f"pacesim engine: {p['events']:,} events ({p['events'] / p['engine_s'] / 1e6:.1f} M/s), "
                  f"{p['packet_hops']:,} packet-hops ({p['packet_hops'] / p['engine_s'] / 1e6:.1f} M/s) "
                  f"in {p['engine_s']:.2f} s; aggregate {p['aggregate_mbps']:.1f} Mb/s")
    if len(rows) > 1:
        name, (wall, setup, rss) = list(rows.items())[1]
        ratio_total = wall / p["wall_s"]
        console.print(f"speed-up over {name}: {ratio_total:.1f}x total wall time"
                      + (f", {((wall - setup) / T) / ((p['wall_s'] - p0['wall_s']) / T):.1f}x per simulated second"
                         if setup == setup else "")
                      + f", {rss / p['rss_mb']:.0f}x less memory")
    return 0


if __name__ == "__main__":
    sys.exit(main())
