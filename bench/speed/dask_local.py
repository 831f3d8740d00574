"""A sweep run with `pacesim sweep --scheduler` on a local multi-process Dask cluster, as on a real one (issue 38):
2 single-threaded workers, each with a memory limit and the same MEMORY resource, so each point is placed by its
estimate. Prints each point's estimate, the sweep's wall time and outcome, and each worker's peak RSS.

    python bench/speed/dask_local.py [--scale 10] [--memory 1GB] [--results DIR]
"""

from __future__ import annotations

import argparse
import logging
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from distributed import Client, LocalCluster

from pacesim import memory
from pacesim.sweep import load_sweep
from pacesim.units import parse_size

SWEEP = """name = "dask-local"
scale = {scale}
seeds = [1]
[axes]
"pacing.scheme" = ["none", "host", "edge"]
"core.buffer" = ["{small}KB", "{large}KB"]
"""


def peak_rss() -> int:
    """This process's peak resident memory, bytes (Linux counts ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=int, default=10, help="E-base scaled so: flows and every rate (default 10)")
    ap.add_argument("--memory", default="1GB", help="each worker's memory limit and MEMORY resource")
    ap.add_argument("--results", type=Path, default=None, help="the store (default: a new temporary one)")
    a = ap.parse_args()
    limit = parse_size(a.memory)
    work = Path(tempfile.mkdtemp(prefix="dask-local-"))
    sweep_file = work / "sweep.toml"
    # paper E's 5 and 10 KB buffers scaled with the rate (the same drain time)
    sweep_file.write_text(SWEEP.format(scale=a.scale, small=5 * a.scale, large=10 * a.scale))
    sw = load_sweep(sweep_file)
    for i in range(sw.size):
        p = sw.point(i, engine=False)
        print(f"{p.named()}: estimate {memory.estimate(p.scenario).total / 1e6:,.0f} MB")
    with LocalCluster(n_workers=2, threads_per_worker=1, memory_limit=limit, resources={"MEMORY": limit},
                      processes=True, dashboard_address=None, silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as client:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "from pacesim.cli import app; app()", "sweep", str(sweep_file),
                        "--scheduler",
                        cluster.scheduler_address, "--results", str(a.results or work / "results"), "--quiet"],
                       check=False)
        wall = time.perf_counter() - t0
        peaks = client.run(peak_rss)
    print(f"{sw.size} points on 2 workers (1 thread, {a.memory} each): {wall:.1f} s wall")
    for worker, rss in sorted(peaks.items()):
        print(f"  {worker}: peak RSS {rss / 1e6:,.0f} MB")


if __name__ == "__main__":
    main()
