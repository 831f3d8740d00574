#!/usr/bin/env python3
"""What `[transit]` (each flow's transit delays and jitter, ns-3 FlowMonitor's) costs on E-base.

One build of `examples/run_json` runs E-base (1000 flows, 10 KB, `--duration`, warm-up a quarter of it,
one thread) for each pacing scheme without `[transit]` and with it, each run its own process: by default
under `valgrind --tool=callgrind`, counting instructions (deterministic, load-free; about 50 times slower
than the run), or with `--clock cpu`/`wall` `--repeat` times in turn (without, with, without, ...),
medians. Prints each pair and the extra share; checks that the two reports are the same but for the
flows' `transit_*` and `jitter_ms` columns (measuring changes no result).

    cargo build --release --example run_json
    python bench/speed/transit_cost.py target/release/examples/run_json [--duration 40s] [--schemes none edge]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import pacesim
from ab_ebase import run  # this folder's: the script's own

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "e-base.toml"
TRANSIT = ("transit_mean_ms", "transit_p50_ms", "transit_p95_ms", "transit_p99_ms", "jitter_ms")
"""The flows' columns `[transit]` adds."""


def engine_json(scheme: str, duration: str, transit: bool) -> str:
    seconds = pacesim.units.parse_time(duration) / 1e9
    s = pacesim.apply_overrides(pacesim.load_scenario(SCENARIO),
                                ["core.buffer=10KB", f"duration={duration}", f"warmup={seconds / 4:g}s",
                                 f"pacing.scheme={scheme}"] + (["transit={}"] if transit else []))
    return json.dumps(s.to_engine())


def measure(binary: str, scenario: Path, how: str) -> tuple[float, dict]:
    """Instructions (`how` "instructions") or seconds ("cpu", "wall": `ab_ebase.run`) of one run on one
    thread in a fresh process, and its report less its work counters."""
    if how != "instructions":
        return run(binary, scenario, 1, how)
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as out:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", binary,
                               str(scenario), "1"], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    report.pop("work")
    return float(re.search(r"Collected : (\d+)", done.stderr).group(1)), report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="a run_json binary")
    ap.add_argument("--duration", default="400s")
    ap.add_argument("--schemes", nargs="+", default=["none", "host", "edge"])
    ap.add_argument("--clock", choices=["instructions", "cpu", "wall"], default="instructions")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each, in turn (medians)")
    args = ap.parse_args()
    unit = "instructions" if args.clock == "instructions" else "s"
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for scheme in args.schemes:
            files = {}
            for transit in (False, True):
                files[transit] = Path(tmp) / f"{scheme}-{transit}.json"
                files[transit].write_text(engine_json(scheme, args.duration, transit))
            values: dict = {False: [], True: []}
            reports = {}
            for _ in range(args.repeat):
                for transit in (False, True):
                    v, reports[transit] = measure(args.engine, files[transit], args.clock)
                    values[transit].append(v)
            without, with_ = statistics.median(values[False]), statistics.median(values[True])
            added = {k: reports[True]["flows"].pop(k) for k in TRANSIT}
            equal = reports[True] == reports[False] and all(len(c) == len(reports[False]["flows"]["flow"])
                                                             for c in added.values())
            same &= equal
            shown = "{:,.0f}" if unit == "instructions" else "{:.2f}"
            print(f"E-base {scheme}, {args.duration}: without {shown.format(without)} {unit}, with [transit] "
                  f"{shown.format(with_)} "
                  f"(+{100 * (with_ / without - 1):.2f} %); reports {'the same but' if equal else 'DIFFER beyond'} "
                  "the transit columns")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
