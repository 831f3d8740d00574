#!/usr/bin/env python3
"""The memory a run takes, measured, against the guard's estimate (python/pacesim/memory.py).

Each run is a fresh process reporting its peak resident memory: E-base with
10 edges x 1, 1000 and 5000 hosts over 2 s (memory per TCP flow), and an
A-base UDP host sending 200 Mb/s of 1000 B packets into its 100 Mb/s
unlimited access link for 10 s and 80 s on one thread and split in two halves
(memory per queued packet: 12,500 more packets queue each second), and E-base with 10 edges x 1000 and 3000
hosts over 10 s through a 1 Gb/s core with 2 MB of buffer (delays that vary:
p99 about 1.5 times p50), with and without `[transit]` (memory per flow of
its histogram and statistics). Then what the network holds without a limit
and what the report keeps (issue 33's fourth review): a graph's TCP flow
with window 10^8 into a 100 Mb/s link with no queue limit for 60 s and 300 s
(its queue grows by the packets the link delivers), 100 Mb/s of UDP into a
QLBP pacer sending 10 Mb/s with `q_lim` 10^8 for 100 s and 400 s (memory
per held packet), `[series]` of 1 flow and 2 links every 24 and 48 us over
10 s (per point), and a UDP trace file of 5 and 10 million lines "1" (per
line). The estimate must not be below what is measured; the table gives both.

    python bench/fuzz/memory_cost.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

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


GRAPH = ('topology={kind="graph", nodes=["a", "b"], hosts=["h1", "h2"], flows=[%s], links=['
         '{from="h1", to="a", rate="1Gbps", delay="1ms"}, {from="a", to="b", core=true%s}, '
         '{from="b", to="h2", rate="%s", delay="1ms"}]}')
WINDOW = [GRAPH % ('{from="h1", to="h2"}', "", "100Mbps"), "core.rate=1Gbps", "core.delay=10ms", "core.buffer=10MB",
          "tcp.window=100000000", "warmup=0s", 'traffic.start=["0s", "0s"]']
QLBP = [GRAPH % ("", ", forward={pace=true}", "1Gbps"), "core.rate=10Mbps", "core.delay=10ms", "core.buffer=10KB",
        "pacing.scheme=qlbp", "pacing.mu_min=1Mbps", "pacing.mu_max=10Mbps", "pacing.q_max=1000000",
        "pacing.q_lim=100000000", "warmup=0s", 'traffic.start=["0s", "0s"]',
        'traffic.udp=[{kind="cbr", rate="100Mbps", size="1000B", from="h1", to="h2"}]']
SERIES = [GRAPH % ('{from="h1", to="h2"}', "", "100Mbps"), "core.rate=10Mbps", "core.delay=10ms", "core.buffer=100KB",
          "duration=10s", "warmup=0s", 'traffic.start=["0s", "0s"]']


def trace(path: str, lines: int) -> list[str]:
    """A 1 s run of a UDP trace source reading file `path`, written with `lines` lines "1"."""
    with open(path, "w") as f:
        f.write("1\n" * lines)
    return ['topology={kind="a-base", tcp_hosts=0}', "duration=1s", "warmup=0s", 'traffic.start=["0s", "0s"]',
            f'traffic.udp=[{{kind="trace", size="1000B", trace={{file="{path}", columns=["bytes"], fps=1000}}}}]']


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
    held()


def held() -> None:
    """What the network holds without a limit and what the report keeps (the module notes)."""
    window = {t: measure(WINDOW + [f"duration={t}s"]) for t in (60, 300)}
    qlbp = {t: measure(QLBP + [f"duration={t}s"]) for t in (100, 400)}
    series = {us: measure(SERIES + [f'series={{interval="{us}us", flows=[0], links=["core", "core.rev"]}}'])
              for us in (24, 48)}
    with tempfile.TemporaryDirectory() as tmp:
        lines = {n: measure(trace(os.path.join(tmp, f"{n}.trace"), n)) for n in (5_000_000, 10_000_000)}
    rows = [*((f"TCP window 10^8, {t} s", m) for t, m in window.items()),
            *((f"UDP into QLBP, q_lim 10^8, {t} s", m) for t, m in qlbp.items()),
            *((f"series every {us} us, 10 s", m) for us, m in series.items()),
            *((f"trace file of {n:,} lines", m) for n, m in lines.items())]
    for name, m in rows:
        print(f"{name:34} {m['rss'] / 1e6:12.1f} {m['estimate'] / 1e6:12.1f}")
    per_point = (series[24]["rss"] - series[48]["rss"]) / (12 * (10_000_000 // 24 - 10_000_000 // 48))
    per_line = (lines[10_000_000]["rss"] - lines[5_000_000]["rss"]) / 5_000_000
    per_held = (qlbp[400]["rss"] - qlbp[100]["rss"]) / (300 * 11_250)  # 90 Mb/s more than it sends, in 1000 B
    print(f"per series point: {per_point:.0f} B; per trace line: {per_line:.0f} B (2 B of it text); "
          f"per packet held by QLBP: {per_held:.0f} B")


if __name__ == "__main__":
    main()
