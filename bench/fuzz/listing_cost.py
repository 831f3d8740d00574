"""The time of `pacesim results` (the sweeps' listing, which hashes every stored table file to count the
damaged points; issue 33, review 33d) on a store of SIZE MB. A tiny sweep of POINTS points is run into DIR,
then each of its table files is padded to reach SIZE MB in all (the points then read as damaged: hashing costs
the same whether the checksum matches or not). Prints the listing's wall and CPU time, median of REPEAT, and
those of `Store.sweeps` alone, each of REPEAT; `--keep` times DIR's store again as it is; without it DIR
must not exist yet.

    python bench/fuzz/listing_cost.py DIR --points 100 --size 690 --repeat 5
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TINY = ["topology.edges=2", "topology.hosts_per_edge=5", "duration=20s", "warmup=5s"]
PACESIM = [sys.executable, "-c", "import sys; from pacesim.cli import app; sys.argv[0] = 'pacesim'; app()"]

a = argparse.ArgumentParser()
a.add_argument("dir", type=Path)
a.add_argument("--points", type=int, default=100)
a.add_argument("--size", type=float, default=690.0, help="MB of table files in all")
a.add_argument("--repeat", type=int, default=3)
a.add_argument("--keep", action="store_true", help="reuse DIR's store as it is")
args = a.parse_args()
results = args.dir / "results"
if not args.keep:
    args.dir.mkdir(parents=True)  # refused if it exists: nothing of the user's is replaced
    sweep = args.dir / "cost.toml"
    buffers = [f"{1000 + 10 * i}B" for i in range(args.points)]
    sweep.write_text(f'name = "cost"\nseeds = [1]\nset = {json.dumps(TINY)}\n[axes]\n"core.buffer" = {json.dumps(buffers)}\n')
    subprocess.run([*PACESIM, "sweep", str(sweep), "--results", str(results), "--quiet", "--workers", "2"], check=True)
    files = sorted((results / "tables").rglob("*.parquet"))
    pad = int(args.size * 1e6 / len(files))  # bytes a file
    for f in files:
        with open(f, "ab") as out:
            out.write(os.urandom(1 << 16) * (max(0, pad - f.stat().st_size) >> 16))
files = sorted((results / "tables").rglob("*.parquet"))
total = sum(f.stat().st_size for f in files)
walls, cpus = [], []
for _ in range(args.repeat):
    t0, c0 = time.perf_counter(), os.times()
    done = subprocess.run([*PACESIM, "results", "--results", str(results)], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200"})
    c1 = os.times()
    walls.append(time.perf_counter() - t0)
    cpus.append(c1.children_user + c1.children_system - c0.children_user - c0.children_system)
print(f"{len(files)} table files, {total / 1e6:.0f} MB: `pacesim results` wall {statistics.median(walls):.2f} s "
      f"(all: {', '.join(f'{w:.2f}' for w in walls)}), CPU {statistics.median(cpus):.2f} s; status {done.returncode}")
print(done.stdout[-600:], done.stderr[-300:])
from pacesim.store import Store  # noqa: E402  (after the sweep, which the script may have run first)

with Store(results, read_only=True) as store:
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        store.sweeps()
        print(f"Store.sweeps(): wall {time.perf_counter() - t0:.2f} s, CPU {time.process_time() - c0:.2f} s")
