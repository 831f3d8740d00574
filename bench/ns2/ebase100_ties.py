#!/usr/bin/env python3
"""E-base's core with 100 flows whose every rate and delay is equal (bench/ns3's `ebase100` at 5 KB, drop-tail) in
stock ns-2 2.35 and in pacesim, with each access delay 3 ms (so packets of different flows meet the core queue at
exactly equal times) and drawn from U[3, 3.001] ms (so they do not): bench/ns2/TIES.md.

    PYTHONPATH=python python bench/ns2/ebase100_ties.py [--seeds 20] [--tcp sack newreno reno] [--hi 3 3.001]

Runs every (TCP, upper access delay in ms, seed, simulator) that results/ebase100_ties.csv lacks, rewriting the
file after each, and prints each group's mean aggregate. Needs Debian's ns2 (`ns`). One ns-2 run takes about
5 s, one pacesim run under 1 s.

The network (tests/support/ns3_refs.py, `ebase100`): 100 senders on 10 Mb/s access links to one edge node,
a 1 Gb/s, 1 ms edge link into the core (100 Mb/s, 100 ms, a 5,000 B drop-tail buffer) and the mirror image
to the sinks; flows start U[0, 10] s, 60 s run, measured over [20, 60] s; advertised window 100,000 packets,
ns-2's defaults otherwise. ns-2 runs bench/ns2/ebase.tcl through tcp_counts.tcl (retransmissions and
timeouts); each simulator draws the start times and delays from its own generator.
"""

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import pacesim

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = HERE / "results" / "ebase100_ties.csv"
AGENTS = {"sack": ("Sack1", "Sack1"), "newreno": ("Newreno", ""), "reno": ("Reno", "")}  # Agent/TCP/<a>, sink
FLOWS, BUFFER_B, DURATION_S, WARMUP_S, ACCESS_LO_MS = 100, 5000, 60, 20, 3
FIELDS = ["tcp", "access_delay_hi_ms", "seed", "simulator", "aggregate_mbps", "goodput_kbps_mean", "core_loss",
          "core_drops", "retransmits", "timeouts"]


def ns2(tcp: str, hi: str, seed: int) -> dict:
    """One ns-2 run; the RESULT line's numbers."""
    variables = dict(window=100000, core_rate=100, edge_rate=1000, access_lo=10, access_hi=10, core_delay=100,
                     edge_delay_lo=1, edge_delay_hi=1, access_delay_lo=ACCESS_LO_MS, access_delay_hi=hi)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["ns", str(HERE / "setvars.tcl"), *[f"{k}={v}" for k, v in variables.items()],
                              "tcp_counts.tcl", "ebase.tcl", "1", str(FLOWS), str(BUFFER_B), str(seed),
                              str(DURATION_S), str(WARMUP_S), str(Path(tmp) / "flows.csv"), *AGENTS[tcp],
                              "DropTail", "1"], capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    r = dict(kv.split("=") for kv in line.split()[1:])
    return dict(aggregate_mbps=float(r["aggregate_mbps"]), goodput_kbps_mean=float(r["goodput_kbps_mean"]),
                core_loss=float(r["core_loss"]), core_drops=int(r["core_drops"]),
                retransmits=int(r["retransmits"]), timeouts=int(r["timeouts"]))


def pacesim_run(tcp: str, hi: str, seed: int) -> dict:
    """The same network in pacesim (scenarios/e-base.toml with one edge and fixed rates)."""
    sets = [f"duration={DURATION_S}s", f"warmup={WARMUP_S}s", "topology.edges=1",
            f"topology.hosts_per_edge={FLOWS}", 'topology.access_rate=["10Mbps", "10Mbps"]',
            f'topology.access_delay=["{ACCESS_LO_MS}ms", "{hi}ms"]', "topology.edge_rate=1Gbps",
            'topology.edge_delay=["1ms", "1ms"]', "core.rate=100Mbps", "core.delay=100ms",
            f"core.buffer={BUFFER_B}B", "core.queue=droptail", f"tcp.variant={tcp}", "tcp.window=100000",
            'traffic.start=["0s", "10s"]']
    r = pacesim.run(str(ROOT / "scenarios" / "e-base.toml"), set=sets, seed=seed, threads=1)
    s, flows = r.summary, r.report["flows"]
    return dict(aggregate_mbps=s["aggregate_mbps"], goodput_kbps_mean=s["goodput_kbps_mean"],
                core_loss=s["core_loss_rate"], core_drops=r.report["links"]["core"]["drops"],
                retransmits=sum(flows["retransmits"]), timeouts=sum(flows["timeouts"]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--tcp", nargs="+", default=["sack"], choices=sorted(AGENTS))
    ap.add_argument("--hi", nargs="+", default=["3", "3.001"], help="upper access delays, ms")
    args = ap.parse_args()
    rows = {}
    if OUT.exists():
        with OUT.open() as f:
            rows = {(r["tcp"], r["access_delay_hi_ms"], int(r["seed"]), r["simulator"]): r for r in csv.DictReader(f)}
    runs = {"ns2": ns2, "pacesim": pacesim_run}
    for tcp in args.tcp:
        for hi in args.hi:
            for sim, run in runs.items():
                for seed in range(1, args.seeds + 1):
                    key = (tcp, hi, seed, sim)
                    if key in rows:
                        continue
                    r = run(tcp, hi, seed)
                    rows[key] = dict(tcp=tcp, access_delay_hi_ms=hi, seed=seed, simulator=sim,
                                     **{k: round(v, 6) if isinstance(v, float) else v for k, v in r.items()})
                    OUT.parent.mkdir(exist_ok=True)
                    with OUT.open("w", newline="") as f:
                        w = csv.DictWriter(f, FIELDS)
                        w.writeheader()
                        w.writerows(rows[k] for k in sorted(rows, key=lambda k: (k[0], k[1], k[3], k[2])))
                got = [float(rows[(tcp, hi, s, sim)]["aggregate_mbps"]) for s in range(1, args.seeds + 1)]
                print(f"{tcp} access 3-{hi} ms {sim}: mean {statistics.mean(got):.2f} Mb/s "
                      f"(sd {statistics.stdev(got):.2f}, seeds 1-{args.seeds})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
