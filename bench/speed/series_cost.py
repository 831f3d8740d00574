#!/usr/bin/env python3
"""What recording time series (`[series]`) costs on the paper-size E-base.

Runs E-base (1000 flows, 10 KB, `--duration`, unpaced and edge-paced)
through the engine alone (`examples/run_json`, as bench/speed/ab_ebase.py),
without series and with each of a few `[series]` tables, each run its own
process, the repetitions taken in turn so that a slow spell of a shared
machine hits every case alike. For each case it prints the median wall
time, the points recorded, the extra time per point against the run
without series (ns per point), and the bytes per million points of the
report's JSON (what crosses into Python) and of the store's Parquet
table. While the run lasts a point takes 16 bytes in the engine (a time
and a value); assembling the report adds 20 more (time, track, value).

    cargo build --release --example run_json
    python bench/speed/series_cost.py [--repeat 3] [--duration 100s] [--threads 1]
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pacesim
from pacesim.report_tables import series_rows

ROOT = Path(__file__).resolve().parents[2]

CASES = {
    "off": [],
    "core, every change": ['series.links=["core"]'],
    "100 flows, every change": [f"series.flows={list(range(100))}"],
    "1000 flows + core, 100 ms": [f"series.flows={list(range(1000))}", 'series.links=["core"]', "series.interval=100ms"],
    "edge, off": ["pacing.scheme=edge"],
    "edge, 10 pacers, every change": ["pacing.scheme=edge",
                                      f'series.pacers={json.dumps([f"edge_in.{i}" for i in range(10)])}'],
}
"""Each case's overrides on top of E-base at 10 KB; an "edge" case is timed against "edge, off"."""


def engine_json(sets: list, duration: str) -> str:
    fixed = ["core.buffer=10KB", f"duration={duration}", "warmup=10s"]
    s = pacesim.apply_overrides(pacesim.load_scenario("e-base"), fixed + sets)
    return json.dumps(s.to_engine())


def run(binary: Path, scenario: Path, threads: int) -> tuple[float, str]:
    """Wall seconds of one run in a fresh process, and its report's JSON text."""
    t0 = time.perf_counter()
    out = subprocess.run([str(binary), str(scenario), str(threads)], capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t0, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", type=Path, default=ROOT / "target" / "release" / "examples" / "run_json")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--duration", default="100s")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    walls: dict = {c: [] for c in CASES}
    reports: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for i, (case, sets) in enumerate(CASES.items()):
            files[case] = Path(tmp) / f"{i}.json"
            files[case].write_text(engine_json(sets, args.duration))
        for _ in range(args.repeat):
            for case in CASES:
                wall, reports[case] = run(args.binary, files[case], args.threads)
                walls[case].append(wall)
    print(f"E-base 10 KB, {args.duration}, {args.threads} thread(s), median (least-most) of {args.repeat}")
    print(f"{'case':32} {'wall s':>18} {'points':>11} {'ns/point':>9} {'JSON B/Mpt':>11} {'Parquet B/Mpt':>14}")
    for case in CASES:
        w = walls[case]
        report = json.loads(reports[case])
        series = report.get("series")
        points = len(series["t_s"]) if series else 0
        cols = f"{statistics.median(w):.2f} ({min(w):.2f}-{max(w):.2f})"
        if not points:
            print(f"{case:32} {cols:>18} {points:>11,}")
            continue
        off = statistics.median(walls["edge, off" if case.startswith("edge") else "off"])
        ns = (statistics.median(w) - off) / points * 1e9
        json_bytes = len(json.dumps(series, separators=(",", ":")))
        buf = io.BytesIO()
        series_rows(series).to_parquet(buf, index=False)
        mega = 1e6 / points
        print(f"{case:32} {cols:>18} {points:>11,} {ns:>9.1f} {json_bytes * mega:>11,.0f} {buf.tell() * mega:>14,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
