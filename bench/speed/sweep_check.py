#!/usr/bin/env python3
"""How fast a sweep checks its points before the first runs (issue 33's fourth review: a 10^6-point sweep
checked ~170 points/s, 1.7 h before its first run).

Three 2,000-point sweeps (one seed each), each loaded (`load_sweep`: every axis value validated alone) and
then checked (`sweep.check.check_points`: every combination validated and its network built, its run keys made), in
a fresh process each, for each pacesim given (`--pythonpath`, the `python/` folder of a checkout; none: the
one installed), in turn, `--repeat` times. The rows are the medians of the check's wall time and CPU time
(a loaded machine's wall time includes waiting for a core), as points a second, and a digest of the run
keys, which must be the same for every pacesim.

    python bench/speed/sweep_check.py [--repeat 3] [--pythonpath BEFORE/python AFTER/python]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TINY = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=2s", "warmup=1s", "traffic.start=['0s','1s']"]
SWEEPS = {
    "tcp.window x tcp.min_rto, 4 hosts": (TINY, {"tcp.window": list(range(1, 1001)), "tcp.min_rto": ["200ms", "1s"]}),
    "core.buffer x pacing.fraction, 4 hosts": (TINY, {"core.buffer": [f"{i}KB" for i in range(1, 1001)],
                                                      "pacing.fraction": [0.5, 1.0]}),
    "core.buffer x pacing.scheme, E-base": ([], {"core.buffer": [f"{i}B" for i in range(3000, 4000)],
                                                 "pacing.scheme": ["none", "host"]}),
}

CHECK = """
import hashlib, json, sys, time
from pacesim.sweep import load_sweep
try:
    from pacesim.sweep.check import check_points
    from pacesim.sweep.progress import bar
except ImportError:  # a pacesim of before sweep/ was a package (issue 36)
    from pacesim.sweep import _bar as bar, _checked as check_points
sweep = load_sweep(sys.argv[1])
wall, cpu = time.perf_counter(), time.process_time()
keys = check_points(sweep, bar(False))
print(json.dumps({"points": sweep.size, "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "keys": hashlib.sha256(keys).hexdigest()[:12]}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pythonpath", nargs="*", default=[""], help="the `python/` folders of the pacesims to compare")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for i, (name, (fixed, axes)) in enumerate(SWEEPS.items()):
            lines = [f'name = "s{i}"', 'scenario = "e-base"', "seeds = [1]", f"set = {json.dumps(fixed)}", "[axes]"]
            lines += [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in axes.items()]
            files[name] = Path(tmp) / f"s{i}.toml"
            files[name].write_text("\n".join(lines) + "\n")
        got = {(name, path): [] for name in SWEEPS for path in args.pythonpath}
        for _ in range(args.repeat):
            for name, file in files.items():
                for path in args.pythonpath:
                    env = {**os.environ, **({"PYTHONPATH": path} if path else {})}
                    done = subprocess.run([sys.executable, "-c", CHECK, str(file)], env=env, check=True,
                                          capture_output=True, text=True)
                    got[(name, path)].append(json.loads(done.stdout))
        for (name, path), runs in got.items():
            n = runs[0]["points"]
            wall = statistics.median(n / r["wall"] for r in runs)
            cpu = statistics.median(n / r["cpu"] for r in runs)
            each = ", ".join(f"{n / r['cpu']:,.0f}" for r in runs)
            print(f"{name:40} {path or 'installed':30} {wall:7,.0f} points/s wall, {cpu:7,.0f} CPU (of {each}); "
                  f"keys {runs[0]['keys']}")


if __name__ == "__main__":
    main()
