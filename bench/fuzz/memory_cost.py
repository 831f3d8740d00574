#!/usr/bin/env python3
"""The memory a run takes, measured, against the guard's estimate (python/pacesim/memory.py).

Each run is a fresh process reporting its peak resident memory: E-base with
10 edges x 1, 1000 and 5000 hosts over 2 s (memory per TCP flow), and an
A-base UDP host sending 200 Mb/s of 1000 B packets into its 100 Mb/s
unlimited access link for 5 s and 20 s (memory per queued packet: 12,500
more packets queue each second). The estimate must not be below what is
measured; the table gives both.

    python bench/fuzz/memory_cost.py
"""

from __future__ import annotations

import json
import subprocess
import sys

RUN = """
import json, resource, sys, pacesim
from pacesim import memory
s = pacesim.apply_overrides(pacesim.Scenario(), sys.argv[1:])
pacesim.run(s)
print(json.dumps({"rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "estimate": memory.estimate(s).total}))
"""
SHORT = ["duration=2s", "warmup=0s", 'traffic.start=["0s", "1s"]']
UDP = ['topology={kind="a-base", tcp_hosts=0}', 'traffic.udp=[{kind="cbr", rate="200Mbps", size="1000B"}]', "warmup=0s",
       'traffic.start=["0s", "0s"]']


def measure(overrides: list[str]) -> dict:
    out = subprocess.run([sys.executable, "-c", RUN, *overrides], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    flows = {n: measure(SHORT + [f"topology.hosts_per_edge={n}"]) for n in (1, 1000, 5000)}
    queue = {t: measure(UDP + [f"duration={t}s"]) for t in (5, 20)}
    print(f"{'run':28} {'measured MB':>12} {'estimate MB':>12}")
    for n, m in flows.items():
        print(f"{f'E-base {10 * n} flows, 2 s':28} {m['rss'] / 1e6:12.1f} {m['estimate'] / 1e6:12.1f}")
    for t, m in queue.items():
        print(f"{f'UDP 2x its link, {t} s':28} {m['rss'] / 1e6:12.1f} {m['estimate'] / 1e6:12.1f}")
    per_flow = (flows[5000]["rss"] - flows[1000]["rss"]) / 40_000
    per_packet = (queue[20]["rss"] - queue[5]["rss"]) / (15 * 12_500)
    print(f"per TCP flow: {per_flow:.0f} B; per queued packet: {per_packet:.0f} B")


if __name__ == "__main__":
    main()
