#!/usr/bin/env python3
"""What a pcap trace costs against ns-2's text trace (issue 34: 4.6 s against 1.0 s).

One run of E-base cut to 2 edges x 10 hosts (`--hosts`) and 20 s, its core traced, is made `--repeat` times with
no trace, `trace=run.tr` and `trace=run.pcap` in turn, each in its own process; the rows are the medians
of the process's CPU time (user + system: on a shared machine wall time includes waiting for a core), the
ratio of the traced runs' medians and of what each spends beyond the untraced run's (the writing, without
the interpreter's start and the simulation), and the file's size. `--pythonpath DIR` runs another checkout's pacesim (its `python/` folder) for a
before-and-after.

    python bench/speed/pcap_cost.py [--repeat 5] [--hosts 10] [--pythonpath /tmp/base/python]
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
pacesim.run("e-base", set=["topology.edges=2", f"topology.hosts_per_edge={sys.argv[2]}", "duration=20s", "warmup=1s"],
            threads=1, trace=None if sys.argv[1] == "none" else sys.argv[1])
"""


def cpu_of(path: Path, hosts: int, pythonpath: str) -> float:
    """CPU seconds of one run of 2 x `hosts` flows in a fresh process writing `path` ('none': no trace)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {})}
    subprocess.run([sys.executable, "-c", RUN, str(path), str(hosts)], check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--hosts", type=int, default=10, help="hosts per edge (2 edges: twice as many flows)")
    ap.add_argument("--pythonpath", default="", help="the `python/` folder of the pacesim to measure")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cpu = {"none": [], "run.tr": [], "run.pcap": []}
        for _ in range(args.repeat):
            for name in cpu:
                cpu[name].append(cpu_of(Path(tmp) / name if name != "none" else Path(name), args.hosts,
                                         args.pythonpath))
        median = {name: statistics.median(times) for name, times in cpu.items()}
        for name, times in cpu.items():
            line = f"{name:9} median CPU {median[name]:.2f} s (of {', '.join(f'{t:.2f}' for t in times)})"
            if name != "none":
                size = (Path(tmp) / name).stat().st_size
                line += (f", {median[name] / median['run.tr']:.2f} x the text trace's run, writing "
                         f"{median[name] - median['none']:.2f} s ({(median[name] - median['none']) / (median['run.tr'] - median['none']):.2f} x the text's); {size / 1e6:.1f} MB")
            print(line)


if __name__ == "__main__":
    main()
