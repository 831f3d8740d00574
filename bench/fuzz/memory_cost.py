#!/usr/bin/env python3
"""The memory a run takes, measured, against the guard's estimate (python/pacesim/memory.py).

Each run is a fresh process reporting its peak resident memory: E-base with
10 edges x 1, 1000 and 5000 hosts over 2 s (memory per TCP flow), and an
A-base UDP host sending 200 Mb/s of 1000 B packets into its 100 Mb/s
unlimited access link for 10 s and 80 s on one thread and split in two halves
(memory per queued packet: 12,500 more packets queue each second), and E-base with 10 edges x 1000 and 3000
hosts over 10 s through a 1 Gb/s core with 2 MB of buffer (delays that vary:
p99 about 1.5 times p50), with and without `[transit]` (memory per flow of
its histogram and statistics). The estimate must not be below what is
measured; the table gives both.

    python bench/fuzz/memory_cost.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

RUN = """
import json, os, resource, sys, pacesim
from pacesim import memory
s = pacesim.apply_overrides(pacesim.Scenario(), sys.argv[1:])
if os.environ["THREADS"] == "split":  # two halves whatever the machine's load (else split only with a core free)
    from pacesim import _core
    run_json = _core.run_json
    _core.run_json = lambda request, progress, threads: run_json(request, progress, 2, force_split=True)
pacesim.run(s, threads=2 if os.environ["THREADS"] == "split" else 1)
print(json.dumps({"rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "estimate": memory.estimate(s).total}))
"""
SHORT = ["duration=2s", "warmup=0s", 'traffic.start=["0s", "1s"]']
TRANSIT = ["duration=10s", "warmup=0s", 'traffic.start=["0s", "1s"]', "core.rate=1Gbps", "core.buffer=2MB"]
UDP = ['topology={kind="a-base", tcp_hosts=0}', 'traffic.udp=[{kind="cbr", rate="200Mbps", size="1000B"}]', "warmup=0s",
       'traffic.start=["0s", "0s"]']


def measure(overrides: list[str], threads: str = "1") -> dict:
    out = subprocess.run([sys.executable, "-c", RUN, *overrides], capture_output=True, text=True, check=True,
                         env={**os.environ, "THREADS": threads})
    return json.loads(out.stdout)


def main() -> None:
    flows = {n: measure(SHORT + [f"topology.hosts_per_edge={n}"]) for n in (1, 1000, 5000)}
    queue = {(t, n): measure(UDP + [f"duration={t}s"], n) for t in (10, 80) for n in ("1", "split")}
    print(f"{'run':34} {'measured MB':>12} {'estimate MB':>12}")
    for n, m in flows.items():
        print(f"{f'E-base {10 * n} flows, 2 s':34} {m['rss'] / 1e6:12.1f} {m['estimate'] / 1e6:12.1f}")
    for (t, n), m in queue.items():
        print(f"{f'UDP 2x its link, {t} s, ' + ('one thread' if n == '1' else 'split'):34} {m['rss'] / 1e6:12.1f} "
              f"{m['estimate'] / 1e6:12.1f}")
    transit = {(n, on): measure(TRANSIT + [f"topology.hosts_per_edge={n}"] + (["transit={}"] if on else []))
               for n in (1000, 3000) for on in (False, True)}
    for (n, on), m in transit.items():
        print(f"{f'E-base {10 * n} flows, 10 s' + (', transit' if on else ''):34} {m['rss'] / 1e6:12.1f} "
              f"{m['estimate'] / 1e6:12.1f}")
    per_flow = (flows[5000]["rss"] - flows[1000]["rss"]) / 40_000
    per_packet = max((queue[(80, n)]["rss"] - queue[(10, n)]["rss"]) / (70 * 12_500) for n in ("1", "split"))
    growth = {on: transit[(3000, on)]["rss"] - transit[(1000, on)]["rss"] for on in (False, True)}
    print(f"per TCP flow: {per_flow:.0f} B; per queued packet: {per_packet:.0f} B; "
          f"per flow with [transit]: {(growth[True] - growth[False]) / 20_000:.0f} B more")


if __name__ == "__main__":
    main()
