#!/usr/bin/env python3
"""Two threads against one, on a quiet machine and beside one busy process.

E-base (paper E Sec 3.1: 1000 TCP Reno flows, 10 KB drop-tail core buffer,
unpaced), 400 simulated seconds, on one thread and on two (the network split
into two halves, `engine/partition.rs`, run as `engine/parallel.rs` schedules
them), each in a fresh process; "busy" runs it beside one competing process
that spins on a core for the whole run. The repetitions are taken in turn
across the four cases, so that a slow spell of the machine hits each alike;
the table shows the median engine time (with the least and the most) and the
machine's load average over the benchmark (other users' work included: note
it with the numbers). `--pythonpath DIR` runs the pacesim found in DIR (say,
a checkout of an older commit with its engine built), to compare engines.
Results go to bench/speed/results/split_load.csv (or `--out`).

    python bench/speed/split_load.py [--duration 400] [--repeat 3] [--pythonpath DIR] [--only-quiet] [--out CSV]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "e-base.toml"
OUT = ROOT / "bench" / "speed" / "results" / "split_load.csv"

RUN = """
import json, sys, pacesim
s = pacesim.apply_overrides(pacesim.load_scenario(sys.argv[1]),
    ["core.buffer=10KB", "pacing.scheme=none", f"duration={sys.argv[2]}", f"warmup={sys.argv[3]}"])
r = pacesim.run(s, threads=int(sys.argv[4]))
print(json.dumps({"engine_s": r.wall_s, **r.work, "aggregate_mbps": r.summary["aggregate_mbps"]}))
"""
BUSY = "while True: pass"


def run(duration: float, threads: int, busy: bool, pythonpath: str) -> dict:
    env = dict(os.environ, PYTHONPATH=pythonpath)
    spinner = subprocess.Popen([sys.executable, "-c", BUSY]) if busy else None
    try:
        cmd = [sys.executable, "-c", RUN, str(SCENARIO), f"{duration}s", f"{duration / 4}s", str(threads)]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
    return json.loads(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=400.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pythonpath", default=str(ROOT / "python"), help="where the pacesim to run is")
    ap.add_argument("--only-quiet", action="store_true", help="skip the runs beside a busy process")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    cases = [(busy, threads) for busy in ([False] if args.only_quiet else [False, True]) for threads in (1, 2)]
    load_before = os.getloadavg()
    runs: dict[tuple[bool, int], list[dict]] = {c: [] for c in cases}
    for i in range(args.repeat):
        for busy, threads in cases:
            r = run(args.duration, threads, busy, args.pythonpath)
            runs[(busy, threads)].append(r)
            print(f"repetition {i + 1}: {'busy' if busy else 'quiet'}, {threads} thread(s): {r['engine_s']:.2f} s",
                  flush=True)
    load_after = os.getloadavg()
    rows = []
    for (busy, threads), rs in runs.items():
        t = [r["engine_s"] for r in rs]
        assert len({r["aggregate_mbps"] for r in rs}) == 1, "the same scenario gave different reports"
        rows.append(dict(machine="beside one busy process" if busy else "quiet", threads=threads,
                         engine_s=statistics.median(t), least_s=min(t), most_s=max(t), runs=len(t),
                         duration_s=args.duration, pythonpath=args.pythonpath,
                         load_before=" ".join(f"{x:.1f}" for x in load_before),
                         load_after=" ".join(f"{x:.1f}" for x in load_after), cores=os.cpu_count()))
    df = pd.DataFrame(rows)
    args.out.parent.mkdir(exist_ok=True)
    df.to_csv(args.out, index=False)
    print(df[["machine", "threads", "engine_s", "least_s", "most_s", "runs"]].to_string(index=False))
    print(f"load average (1, 5, 15 min) before {rows[0]['load_before']}, after {rows[0]['load_after']}; "
          f"{os.cpu_count()} cores; written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
