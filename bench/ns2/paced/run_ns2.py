#!/usr/bin/env python3
"""Run ns-2 2.35 with the pacers of this directory and append to results/.

Needs an ns-2 built with edge_pacer.cc, qlbp.cc and paced_queue.cc
(build.sh, then `--ns PATH`); Debian's /usr/bin/ns has no Queue/EdgePacer.
Standard library only. Points already in a results CSV are skipped, so
the script resumes after a crash. Runs go one at a time.

    python3 bench/ns2/paced/run_ns2.py --ns /work/ns2-edge/ns-2.35/ns [--only efig3 ...]

Experiments (paper E's on E-base, ebase_edge.tcl; paper Q's on its dumbbell,
qdumbbell.tcl), in this order (within each, the points tests/ use first):
  efig3   edge pacing, d = 10 ms, 3/5/10/20 KB, 1000 flows, seeds 1-2
  qfig18  QLBP Q_max 10/40/160 and no pacing, core 5/20/50 packets, and Q_max 80 at 50 and
          100 packets (Q-fig18's "QLBP(80) beats TCP pacing beyond 30 pkts"), seeds 1-2
  qhost   TCP (host) pacing, original (tcp-paced.cc), core 5, 20, 50, 100 packets, seeds 1-2,
          to results/host-qdumbbell.csv (Q-fig18's TCP pacing curve)
  efig11  edge pacer delay d = 1/50/100 ms at 5 KB (10 ms is efig3's)
  efig17  3 of 10 edges paced (30 %), d = 10 ms, 5 and 10 KB
E-base runs are 200 s measured over [50, 200] s like results/ebase.csv;
Q-dumbbell runs take pacesim's link delays and start times for the seed
(results/draws/, made by draws.py) and run 300 s over [120, 300] s (pacesim's `reproduce Q-fig18 --quick`;
the paper: 1000 s from 200 s).
"""

import argparse
import csv
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from run_ebase import append  # noqa: E402  (bench/ns2/run_ebase.py: one row into a results CSV)
RESULTS = HERE / "results"
EDGE_CSV = RESULTS / "edge-ebase.csv"
QLBP_CSV = RESULTS / "qlbp-qdumbbell.csv"
HOST_CSV = RESULTS / "host-qdumbbell.csv"
SEEDS = (1, 2)

# E-base points: (edges, hosts_per_edge, buffer KB, seed, duration s, warmup s, delay ms, paced edges).
EDGE_GRIDS = {
    "efig3": [(10, 100, kb, s, 200, 50, 10, 10) for kb in (5, 10, 3, 20) for s in SEEDS],
    "efig11": [(10, 100, 5, s, 200, 50, d, 10) for s in SEEDS for d in (1, 100, 50)],
    "efig17": [(10, 100, kb, s, 200, 50, 10, 3) for kb in (5, 10) for s in SEEDS],
}
EDGE_KEY = ["edges", "hosts_per_edge", "buffer_bytes", "seed", "duration_s", "warmup_s", "delay_ms", "paced_edges"]
# Q-dumbbell points: (core buffer packets, seed, duration s, warmup s, Q_max; 0 = no pacing).
QLBP_GRIDS = {
    "qfig18": [(b, s, 300, 120, q) for b in (20, 5, 50) for q in (40, 160, 10, 0) for s in SEEDS]
    + [(b, s, 300, 120, 80) for b in (50, 100) for s in SEEDS],
    "qhost": [(b, s, 300, 120, "host") for s in SEEDS for b in (20, 50, 5, 100)],
}
QLBP_KEY = ["buffer_packets", "seed", "duration_s", "warmup_s", "q_max"]
METRICS = ["aggregate_mbps", "goodput_kbps_mean", "core_loss", "core_arrivals", "core_drops",
           "pacer_packets", "pacer_drops", "pacer_delay_ms_mean", "pacer_delay_ms_max", "wall_s"]


FLOWS = object()  # stands for the per-flow CSV in a script's arguments


def run_ns(ns: str, script: Path, args: list) -> tuple[dict, list[dict], list[float]]:
    """Run one script; its RESULT metrics (with wall_s), its PACER lines and
    the per-flow goodputs (Kb/s) it wrote where `args` has FLOWS."""
    with tempfile.NamedTemporaryFile("r", suffix=".csv") as flows:
        cmd = [ns, str(script), *(flows.name if a is FLOWS else str(a) for a in args)]
        start = time.monotonic()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        wall = time.monotonic() - start
        goodputs = [float(r["goodput_kbps"]) for r in csv.DictReader(flows)]
    lines = out.splitlines()
    result = dict(re.findall(r"(\w+)=(\S+)", next(l for l in lines if l.startswith("RESULT "))))
    pacers = [dict(re.findall(r"(\w+)=(\S+)", l)) for l in lines if l.startswith("PACER ")]
    result["wall_s"] = f"{wall:.1f}"
    return result, pacers, goodputs


def pacer_summary(pacers: list[dict]) -> dict:
    """Over all pacers: packets, drops, packet-weighted mean delay and the largest delay (ms)."""
    packets = sum(int(p["packets"]) for p in pacers)
    mean = sum(float(p["mean_delay_ms"]) * int(p["packets"]) for p in pacers) / packets if packets else 0.0
    return {"pacer_packets": packets, "pacer_drops": sum(int(p["drops"]) for p in pacers),
            "pacer_delay_ms_mean": f"{mean:.4f}",
            "pacer_delay_ms_max": f"{max((float(p['max_delay_ms']) for p in pacers), default=0.0):.4f}"}


def run_edge(ns: str, point: tuple) -> dict:
    edges, hosts, kb, seed, duration, warmup, delay_ms, paced_edges = point
    m, pacers, goodputs = run_ns(ns, HERE / "ebase_edge.tcl",
                                 [delay_ms, paced_edges, edges, hosts, kb * 1000, seed, duration, warmup, FLOWS])
    # Flow i enters at edge i // hosts; the first paced_edges edges pace.
    paced = goodputs[: paced_edges * hosts]
    unpaced = goodputs[paced_edges * hosts:]
    row = dict(zip(EDGE_KEY, [edges, hosts, kb * 1000, seed, duration, warmup, delay_ms, paced_edges]))
    row.update({k: m[k] for k in METRICS[:5]}, **pacer_summary(pacers), wall_s=m["wall_s"],
               flows=edges * hosts,
               goodput_kbps_paced=f"{sum(paced) / len(paced):.4f}" if paced else "",
               goodput_kbps_unpaced=f"{sum(unpaced) / len(unpaced):.4f}" if unpaced else "")
    return row


def run_qlbp(ns: str, point: tuple) -> dict:
    buffer, seed, duration, warmup, q_max = point
    draws = RESULTS / "draws" / f"qdumbbell-s{seed}.tcl"  # pacesim's delays and starts (draws.py)
    m, pacers, _ = run_ns(ns, HERE / "qdumbbell.tcl", [buffer, seed, duration, warmup, FLOWS, q_max, draws])
    if q_max == "host":  # no network pacer: the host-paced rows have no q_max or pacer columns
        return dict(zip(HOST_KEY, point), **{k: m[k] for k in METRICS[:5]}, wall_s=m["wall_s"], flows=40)
    row = dict(zip(QLBP_KEY, point))
    row.update({k: m[k] for k in METRICS[:5]}, **pacer_summary(pacers), wall_s=m["wall_s"], flows=40)
    return row


EDGE_COLUMNS = ["flows"] + EDGE_KEY + METRICS[:5] + ["goodput_kbps_paced", "goodput_kbps_unpaced"] + METRICS[5:]
QLBP_COLUMNS = ["flows"] + QLBP_KEY + METRICS
HOST_KEY = QLBP_KEY[:-1]
HOST_COLUMNS = ["flows"] + HOST_KEY + METRICS[:5] + ["wall_s"]


def done(path: Path, key: list) -> set:
    if not path.exists():
        return set()
    with path.open() as f:
        return {tuple(int(float(r[k])) for k in key) for r in csv.DictReader(f)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ns", required=True, help="the ns binary built with the pacers")
    ap.add_argument("--only", action="append", choices=[*EDGE_GRIDS, *QLBP_GRIDS])
    ap.add_argument("--seed", type=int, action="append", help="only these seeds (to split a grid over processes)")
    args = ap.parse_args()
    RESULTS.mkdir(exist_ok=True)
    for name in ["efig3", "qfig18", "efig11", "efig17", "qhost"]:
        if args.only and name not in args.only:
            continue
        edge, host = name in EDGE_GRIDS, name == "qhost"
        path, key, columns, grid = ((EDGE_CSV, EDGE_KEY, EDGE_COLUMNS, EDGE_GRIDS[name]) if edge else
                                    (HOST_CSV, HOST_KEY, HOST_COLUMNS, QLBP_GRIDS[name]) if host else
                                    (QLBP_CSV, QLBP_KEY, QLBP_COLUMNS, QLBP_GRIDS[name]))
        for point in grid:
            if args.seed and point[3 if edge else 1] not in args.seed:
                continue
            k = (point[0], point[1], point[2] * 1000, *point[3:]) if edge else point[:-1] if host else point
            if k in done(path, key):
                continue
            row = run_edge(args.ns, point) if edge else run_qlbp(args.ns, point)
            append(path, row, columns)
            print(f"{name} {row}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
