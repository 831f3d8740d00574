#!/usr/bin/env python3
"""What a pcap trace costs against ns-2's text trace (issue 34: 4.6 s against 1.0 s).

One run of E-base cut to 2 edges x 10 hosts and 20 s, its core traced, is made `--repeat` times with
`trace=run.tr` and with `trace=run.pcap` in turn, each in its own process; the rows are the medians of
the process's CPU time (user + system: on a shared machine wall time includes waiting for a core) and
the file's size. `--pythonpath DIR` runs another checkout's pacesim (its `python/` folder) for a
before-and-after.

    python bench/pcap_cost.py [--repeat 5] [--pythonpath /tmp/base/python]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RUN = """
import sys, pacesim
pacesim.run("e-base", set=["topology.edges=2", "topology.hosts_per_edge=10", "duration=20s", "warmup=1s"],
            threads=1, trace=sys.argv[1])
"""


def cpu_of(path: Path, pythonpath: str) -> float:
    """CPU seconds of one traced run in a fresh process writing `path`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {})}
    subprocess.run([sys.executable, "-c", RUN, str(path)], check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pythonpath", default="", help="the `python/` folder of the pacesim to measure")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cpu = {"run.tr": [], "run.pcap": []}
        for _ in range(args.repeat):
            for name in cpu:
                cpu[name].append(cpu_of(Path(tmp) / name, args.pythonpath))
        text = statistics.median(cpu["run.tr"])
        for name, times in cpu.items():
            size = (Path(tmp) / name).stat().st_size
            print(f"{name:9} median CPU {statistics.median(times):.2f} s (of {', '.join(f'{t:.2f}' for t in times)}), "
                  f"{statistics.median(times) / text:.2f} x the text trace's run; {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
