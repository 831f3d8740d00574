#!/usr/bin/env python3
"""Two engines against each other on the paper-size E-base, interleaved.

Times two builds of `examples/run_json` (e.g. the one of a base commit,
saved aside, and the working tree's) on E-base (1000 flows, 10 KB, 400 s)
for each pacing scheme and thread count, each run its own process, the
repetitions taken in turn (A, B, A, B, ...) so that a slow spell of a
shared machine hits both alike. Prints each engine's median wall time
(least-most) and B's median against A's; checks that both gave the same
report (work counters aside).

    cargo build --release --example run_json && cp target/release/examples/run_json /tmp/run_json.before
    ... change the engine, build again ...
    python bench/speed/ab_ebase.py /tmp/run_json.before target/release/examples/run_json [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pacesim

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "e-base.toml"


def engine_json(scheme: str, duration: str) -> str:
    s = pacesim.apply_overrides(pacesim.load_scenario(SCENARIO),
                                ["core.buffer=10KB", f"duration={duration}", f"pacing.scheme={scheme}"])
    return json.dumps(s.to_engine())


def run(binary: str, scenario: Path, threads: int, clock: str) -> tuple[float, dict]:
    """Seconds of one run in a fresh process by `clock` ("wall", or "cpu": its
    user + system time), and its report less work counters."""
    t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([binary, str(scenario), str(threads)], capture_output=True, text=True, check=True).stdout
    t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = t1 - t0 if clock == "wall" else (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    report = json.loads(out)
    report.pop("work")
    return seconds, report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="run_json binary A (before)")
    ap.add_argument("b", help="run_json binary B (after)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--schemes", nargs="+", default=["none", "host", "edge"])
    ap.add_argument("--threads", nargs="+", type=int, default=[1])
    ap.add_argument("--duration", default="400s")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="wall time, or the run's CPU time (user + system): steadier on a busy machine, where"
                         " it still counts the cache misses other processes cause")
    args = ap.parse_args()
    cases = [(s, t) for s in args.schemes for t in args.threads]
    walls: dict = {(c, e): [] for c in cases for e in "ab"}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for scheme in args.schemes:
            files[scheme] = Path(tmp) / f"{scheme}.json"
            files[scheme].write_text(engine_json(scheme, args.duration))
        for _ in range(args.repeat):
            for scheme, threads in cases:
                reports = {}
                for e, binary in (("a", args.a), ("b", args.b)):
                    wall, reports[e] = run(binary, files[scheme], threads, args.clock)
                    walls[((scheme, threads), e)].append(wall)
                if reports["a"] != reports["b"]:
                    print(f"{scheme}, {threads} thread(s): the reports differ", file=sys.stderr)
                    return 1
    print(f"E-base {args.duration}, median (least-most) of {args.repeat}, {args.clock} s per run")
    print(f"{'scheme':8} {'threads':>7} {'A':>20} {'B':>20} {'B/A':>7}")
    for scheme, threads in cases:
        a, b = walls[((scheme, threads), "a")], walls[((scheme, threads), "b")]
        fmt = lambda w: f"{statistics.median(w):.2f} ({min(w):.2f}-{max(w):.2f})"
        ratio = statistics.median(b) / statistics.median(a)
        print(f"{scheme:8} {threads:>7} {fmt(a):>20} {fmt(b):>20} {ratio:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
