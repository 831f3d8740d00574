#!/usr/bin/env python3
"""E-base's core with 100 flows whose every rate and delay is equal (bench/ns3's `ebase100` at 5 KB, drop-tail) in
stock ns-2 2.35 and in pacesim, with each access delay 3 ms (so packets of different flows meet the core queue at
exactly equal times) and drawn from U[3, 3.001] ms (so they do not): bench/ns2/TIES.md.

    PYTHONPATH=python python bench/ns2/ebase100_ties.py [--seeds 20] [--tcp sack newreno reno] [--hi 3 3.001]

Runs every (TCP, upper access delay in ms, seed, simulator) that results/ebase100_ties.csv lacks, rewriting the
file after each, and prints each group's mean aggregate. Needs Debian's ns2 (`ns`). One ns-2 run takes about
5 s, one pacesim run under 1 s.

The network is tests/support/ns2_ties.py's (pacesim's side too); ns-2 runs bench/ns2/ebase.tcl with it
through tcp_counts.tcl (retransmissions and timeouts). Each simulator draws the start times and delays from its
own generator.
"""

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tests"))
from support.ns2_ties import (ACCESS_LO_MS, BUFFER_B, DURATION_S, FIELDS, FLOWS, RESULTS,  # noqa: E402
                              WARMUP_S, pacesim_run, rows)

AGENTS = {"sack": ("Sack1", "Sack1"), "newreno": ("Newreno", ""), "reno": ("Reno", "")}  # Agent/TCP/<a>, sink


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--tcp", nargs="+", default=["sack"], choices=sorted(AGENTS))
    ap.add_argument("--hi", nargs="+", default=["3", "3.001"], help="upper access delays, ms")
    args = ap.parse_args()
    done = rows()
    runs = {"ns2": ns2, "pacesim": pacesim_run}
    for tcp in args.tcp:
        for hi in args.hi:
            for sim, run in runs.items():
                for seed in range(1, args.seeds + 1):
                    key = (tcp, hi, seed, sim)
                    if key in done:
                        continue
                    r = run(tcp, hi, seed)
                    done[key] = dict(tcp=tcp, access_delay_hi_ms=hi, seed=seed, simulator=sim,
                                     **{k: round(v, 6) if isinstance(v, float) else v for k, v in r.items()})
                    RESULTS.parent.mkdir(exist_ok=True)
                    with RESULTS.open("w", newline="") as f:
                        w = csv.DictWriter(f, FIELDS)
                        w.writeheader()
                        w.writerows(done[k] for k in sorted(done, key=lambda k: (k[0], k[1], k[3], k[2])))
                got = [float(done[(tcp, hi, s, sim)]["aggregate_mbps"]) for s in range(1, args.seeds + 1)]
                print(f"{tcp} access 3-{hi} ms {sim}: mean {statistics.mean(got):.2f} Mb/s "
                      f"(sd {statistics.stdev(got):.2f}, seeds 1-{args.seeds})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
