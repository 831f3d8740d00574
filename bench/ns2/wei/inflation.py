#!/usr/bin/env python3
"""The patched ns-2's side of `tests/test_fidelity_ns2_wei.py::test_window_inflation_follows_the_patched_ns2`
(PACESIM.md, "Event by event"): one flow, original pacing with `inflation_ratio_` 3, 50 Mb/s core of 30 KB,
10 s (inflation.tcl), with NewReno (TcpAgent's send_much), FACK and SACK (build.sh --sack1-paced's binary:
the published patch leaves Sack1 unpaced).

    python3 bench/ns2/wei/inflation.py [--ns NS] [--ns-sack NS_SACK1_PACED] [--out DIR]

Writes DIR/ns2-VARIANT.tr.gz (the trace's queue arrivals and drops, `+` and `d`, at the sender's link, its
ACKs' link and the core, in the first 3 s) and DIR/ns2.csv (the sender's counters at the end; core arrivals and drops from the
trace). DIR defaults to results/inflation.
"""

import argparse
import csv
import gzip
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = [("Newreno", False), ("Fack", False), ("Sack1", True)]  # (agent, needs the Sack1-gated build)
RATIO, DURATION = 3, 10
TRACED_S = 3  # the trace kept: its first 3 s (pacesim before the fix parted by 1.91 s in each)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ns", default="/work/ns2-wei/ns-2.35/ns")
    ap.add_argument("--ns-sack", default="/work/ns2-wei-sack/ns-2.35/ns")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "inflation")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for agent, gated in RUNS:
        with tempfile.TemporaryDirectory() as tmp:
            trace = Path(tmp) / "ns2.tr"
            end = subprocess.run([args.ns_sack if gated else args.ns, str(HERE / "inflation.tcl"), agent,
                                  str(RATIO), str(DURATION), str(trace)],
                                 check=True, capture_output=True, text=True).stdout.split()
            kept = [line for line in trace.read_text().splitlines(keepends=True) if line[0] in "+d"]
        early = [line for line in kept if float(line.split()[1]) < TRACED_S]
        with gzip.open(args.out / f"ns2-{agent.lower()}.tr.gz", "wt") as f:
            f.writelines(early)
        core = [line.split() for line in kept if line.split()[2:5] == ["1", "2", "tcp"]]
        row = {"variant": agent, "inflation_ratio": RATIO, "duration_s": DURATION, "events": len(kept),
               "traced_s": TRACED_S, "traced_events": len(early),
               "core_arrivals": sum(f[0] == "+" for f in core), "core_drops": sum(f[0] == "d" for f in core)}
        row.update(zip(end[::2], end[1::2]))
        rows.append(row)
        print(row)
    with open(args.out / "ns2.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
