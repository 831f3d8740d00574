#!/usr/bin/env python3
"""Run the host-paced ns-2 references (ns-2 2.35 built by build.sh with
tcp-paced.cc) and append their results to results/*.csv.

    python3 bench/ns2/paced/run_paced.py GRID... [--ns PATH]

Grids (each row skipped if already in its CSV, so a crashed run resumes):

- efig3:  E-base (ebase_host.tcl), every host paced, original pacing,
          1000 flows, buffers 3/5/10/20 KB, seeds 1-2, 200 s over [50, 200] s;
- efig17: the same with 30 % of the hosts paced, buffers 5 and 10 KB;
- ebase-ci: 100 flows (10 x 10), all or 30 % paced, 5 and 10 KB, seeds 1-2;
- ws5:    paper W scenario 5 (ws5.tcl): 20 paced + 20 unpaced, 57 Mb/s,
          RTT 100 ms, 712 KB, 1500 B packets, Reno/SACK x original/modified,
          seeds 1-2, 200 s over [20, 200] s;
- ws3:    paper W scenario 3 (ws5.tcl's network): 5 unpaced Reno flows, 1 Gb/s, RTT 12 ms,
          1, 3 and 15 MB, on-off cross traffic 100 Mb/s while on, starts U[0, 0.12] s,
          seed 1, 200 s from 0 s: the worst and the best flow's goodput (W-s3.1);
- ws1:    paper W scenario 1 (ws1.tcl): 16 SACK flows, 1 Gb/s LAN, 375 KB, RTT 2.5 ms,
          on-off cross traffic, all paced (original) or none, seeds 1-10, 10 s: each flow's
          latency to its first 1 MB (725 packets).

E-base rows go to results/ebase-host.csv, W-s5 rows to results/ws5.csv
(per-flow counters in results/flows/), W-s3 rows to results/ws3.csv, W-s1 rows to results/ws1.csv (per-flow
latencies and progress every 100 ms in results/flows/). Standard library only; runs go one
at a time. The binary is --ns, or the path build.sh wrote to /work/ns2/READY.
"""

import argparse
import csv
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from run_ebase import append  # noqa: E402  (one CSV appender for every ns-2 runner)
RESULTS = HERE / "results"
FLOWS = RESULTS / "flows"

EBASE_COLUMNS = ["flows", "edges", "hosts_per_edge", "buffer_bytes", "seed", "duration_s", "warmup_s", "mode",
                 "fraction", "aggregate_mbps", "goodput_kbps_mean", "goodput_kbps_paced", "goodput_kbps_unpaced",
                 "core_loss", "core_arrivals", "core_drops", "wall_s"]
EBASE_KEY = EBASE_COLUMNS[:9]
WS5_COLUMNS = ["variant", "mode", "seed", "flows", "rate_mbps", "core_delay_ms", "buffer_bytes", "packet_bytes",
               "duration_s", "warmup_s", "aggregate_mbps", "core_loss", "goodput_kbps_paced", "goodput_kbps_unpaced",
               "retransmit_rate_paced", "retransmit_rate_unpaced", "loss_events_per_rtt_paced",
               "loss_events_per_rtt_unpaced", "wall_s"]
WS5_KEY = WS5_COLUMNS[:10]
WS1_COLUMNS = ["mode", "seed", "duration_s", "latency_min_s", "latency_median_s", "latency_max_s", "core_loss",
               "wall_s"]
WS1_KEY = WS1_COLUMNS[:3]
# W-s5's nominal RTT (2 x (1 + 48 + 1) ms): loss events are counted per RTT of it.
WS5_RTT_S = 0.1


def ebase_grid(name):
    """(edges, hosts, KB, seed, duration, warmup, mode, fraction) rows of an E-base grid."""
    if name == "efig3":
        return [(10, 100, kb, s, 200, 50, "original", 1.0) for s in (1, 2) for kb in (3, 5, 10, 20)]
    if name == "efig17":
        return [(10, 100, kb, s, 200, 50, "original", 0.3) for s in (1, 2) for kb in (5, 10)]
    if name == "ebase-ci":
        return [(10, 10, kb, s, 200, 50, "original", f) for f in (1.0, 0.3) for s in (1, 2) for kb in (5, 10)]
    return None


def ws5_grid(name):
    """(variant, mode, seed, duration, warmup) rows of the W-s5 grid."""
    return [(v, m, s, 200, 20) for s in (1, 2) for v in ("Reno", "Sack1") for m in ("original", "modified")]


def evenly(i, fraction):
    """Whether flow i is among a share `fraction` spread evenly (paced.tcl, pacesim's scenario.rs)."""
    return math.floor((i + 1) * fraction) > math.floor(i * fraction)


def run_ns(ns, args):
    """Run `ns ARGS...`: its RESULT line as a dict, and the wall time."""
    t0 = time.monotonic()
    out = subprocess.run([ns, *map(str, args)], capture_output=True, text=True, check=True).stdout
    wall = time.monotonic() - t0
    line = out.split("RESULT", 1)[1].split("\n", 1)[0]
    return dict(kv.split("=") for kv in line.split()), wall


def read_flows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def mean(xs):
    return sum(xs) / len(xs) if xs else ""


def run_ebase(ns, row, wrap=()):
    """One E-base row; a row may end with ebase_host.tcl's VARIANT, SINK and QUEUE (Reno, the plain sink and
    drop-tail if not). `wrap`: a script and its arguments that source ebase_host.tcl (bench/ns2/setvars.tcl and
    its NAME=VALUE pairs, e.g. paper E Fig. 5's access rates)."""
    edges, hosts, kb, seed, duration, warmup, mode, fraction, *tcp = row
    with tempfile.NamedTemporaryFile("r", suffix=".csv") as tf:
        m, wall = run_ns(ns, [*wrap, HERE / "ebase_host.tcl", mode, fraction, edges, hosts, kb * 1000, seed, duration,
                              warmup, tf.name, *tcp])
        flows = read_flows(tf.name)
    paced = [float(f["goodput_kbps"]) for f in flows if evenly(int(f["flow"]), fraction)]
    unpaced = [float(f["goodput_kbps"]) for f in flows if not evenly(int(f["flow"]), fraction)]
    return {**({"variant": tcp[0]} if tcp else {}),
            "flows": edges * hosts, "edges": edges, "hosts_per_edge": hosts, "buffer_bytes": kb * 1000, "seed": seed,
            "duration_s": duration, "warmup_s": warmup, "mode": mode, "fraction": fraction,
            "aggregate_mbps": m["aggregate_mbps"], "goodput_kbps_mean": m["goodput_kbps_mean"],
            "goodput_kbps_paced": mean(paced), "goodput_kbps_unpaced": mean(unpaced), "core_loss": m["core_loss"],
            "core_arrivals": m["core_arrivals"], "core_drops": m["core_drops"], "wall_s": f"{wall:.1f}"}


def ws5_groups(flows, span):
    """Per half (paced, unpaced): mean goodput, retransmissions per data packet
    sent, loss events (fast retransmits + timeouts) per flow per nominal RTT."""
    out = {}
    for name, flag in (("paced", "1"), ("unpaced", "0")):
        g = [f for f in flows if f["paced"] == flag]
        sent = sum(int(f["data_packets_sent"]) for f in g)
        out[f"goodput_kbps_{name}"] = mean([float(f["goodput_kbps"]) for f in g])
        out[f"retransmit_rate_{name}"] = sum(int(f["retransmits"]) for f in g) / sent
        events = sum(int(f["fast_retransmits"]) + int(f["timeouts"]) for f in g)
        out[f"loss_events_per_rtt_{name}"] = events / (len(g) * span / WS5_RTT_S)
    return out


def run_ws5(ns, row):
    variant, mode, seed, duration, warmup = row
    tag = f"ws5_{variant.lower()}_{mode}_s{seed}_t{duration}"
    FLOWS.mkdir(parents=True, exist_ok=True)
    flows_csv = FLOWS / f"{tag}.csv"
    scenario = {"flows": 40, "rate_mbps": 57, "core_delay_ms": 48, "buffer_bytes": 712_000, "packet_bytes": 1500}
    m, wall = run_ns(ns, [HERE / "ws5.tcl", *scenario.values(), seed, duration, warmup, flows_csv, variant, mode])
    return {"variant": variant, "mode": mode, "seed": seed, **scenario, "duration_s": duration, "warmup_s": warmup,
            "aggregate_mbps": m["aggregate_mbps"], "core_loss": m["core_loss"],
            **ws5_groups(read_flows(flows_csv), duration - warmup), "wall_s": f"{wall:.1f}"}


WS3_COLUMNS = ["variant", "mode", "seed", "flows", "rate_mbps", "core_delay_ms", "buffer_bytes", "packet_bytes",
               "duration_s", "warmup_s", "cross_mbps", "core_loss", "goodput_kbps_min", "goodput_kbps_max", "wall_s"]
WS3_KEY = WS3_COLUMNS[:11]


def ws3_grid(name):
    """(buffer bytes, seed) rows of the W-s3 grid."""
    return [(b, 1) for b in (15_000_000, 1_000_000, 3_000_000)]


def w_dumbbell_args(buffer, seed, flows_csv, mode="none", cross_mbps=100, fraction=None):
    """ws5.tcl's arguments for paper W's dumbbell of W-s3, W-s4 and W-s6 (5 Reno flows on 1 Gb/s, 4 ms, 200 s,
    `cross_mbps` of on-off cross traffic, the share `fraction` paced by `mode`) with a core buffer of `buffer`
    bytes, each flow's row written to `flows_csv`."""
    tail = [] if fraction is None else [fraction]
    return [HERE / "ws5.tcl", 5, 1000, 4, buffer, 1500, seed, 200, 0, flows_csv, "Reno", mode, 0.12, cross_mbps, *tail]


def run_ws3(ns, row):
    buffer, seed = row
    scenario = {"variant": "Reno", "mode": "none", "seed": seed, "flows": 5, "rate_mbps": 1000, "core_delay_ms": 4,
                "buffer_bytes": buffer, "packet_bytes": 1500, "duration_s": 200, "warmup_s": 0, "cross_mbps": 100}
    with tempfile.NamedTemporaryFile("r", suffix=".csv") as tf:
        m, wall = run_ns(ns, w_dumbbell_args(buffer, seed, tf.name))
        goodputs = [float(f["goodput_kbps"]) for f in read_flows(tf.name)]
    # (ws5.tcl's aggregate_mbps counts every departure as a 1500 B packet, the cross traffic's 210 B ones too)
    return {**scenario, "core_loss": m["core_loss"], "goodput_kbps_min": min(goodputs),
            "goodput_kbps_max": max(goodputs), "wall_s": f"{wall:.1f}"}


def ws1_grid(name):
    """(mode, seed, duration) rows of the W-s1 grid."""
    return [(m, s, 10) for s in range(1, 11) for m in ("none", "original")]


def run_ws1(ns, row):
    mode, seed, duration = row
    FLOWS.mkdir(parents=True, exist_ok=True)
    tag = f"ws1_{mode}_s{seed}_t{duration}"
    flows_csv, progress_csv = FLOWS / f"{tag}.csv", FLOWS / f"{tag}_progress.csv"
    m, wall = run_ns(ns, [HERE / "ws1.tcl", mode, seed, duration, flows_csv, progress_csv])
    lat = sorted(float(f["latency_s"]) for f in read_flows(flows_csv) if f["latency_s"])
    return {"mode": mode, "seed": seed, "duration_s": duration, "latency_min_s": lat[0],
            "latency_median_s": lat[len(lat) // 2], "latency_max_s": lat[-1], "core_loss": m["core_loss"],
            "wall_s": f"{wall:.1f}"}


def done(path, key):
    if not path.exists():
        return set()
    with path.open() as f:
        return {tuple(r[k] for k in key) for r in csv.DictReader(f)}


def run_rows(ns, name, keyed, path, columns, key, run):
    """Run each (row, key) of grid `name` whose key is not yet in the CSV at
    `path` with `run(ns, row)`, appending each result as it comes."""
    have = done(path, key)
    todo = [r for r, k in keyed if tuple(map(str, k)) not in have]
    for i, r in enumerate(todo, 1):
        out = run(ns, r)
        append(path, out, columns)
        print(f"[{name} {i}/{len(todo)}] {out}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("grids", nargs="+", choices=["efig3", "efig17", "ebase-ci", "ws5", "ws1", "ws3"])
    ap.add_argument("--ns", help="the ns binary (default: the path in /work/ns2/READY)")
    ap.add_argument("--seed", type=int, action="append", help="only these seeds (repeatable)")
    args = ap.parse_args()
    ns = args.ns or Path("/work/ns2/READY").read_text().strip()
    RESULTS.mkdir(exist_ok=True)
    for name in args.grids:
        if (rows := ebase_grid(name)) is not None:
            path, columns, key, run = RESULTS / "ebase-host.csv", EBASE_COLUMNS, EBASE_KEY, run_ebase
            seed_of = lambda r: r[3]
            keyed = [(r, (r[0] * r[1], r[0], r[1], r[2] * 1000, *r[3:])) for r in rows]
        elif name == "ws3":
            rows = ws3_grid(name)
            path, columns, key, run = RESULTS / "ws3.csv", WS3_COLUMNS, WS3_KEY, run_ws3
            seed_of = lambda r: r[1]
            keyed = [(r, ("Reno", "none", r[1], 5, 1000, 4, r[0], 1500, 200, 0, 100)) for r in rows]
        elif name == "ws1":
            rows = ws1_grid(name)
            path, columns, key, run = RESULTS / "ws1.csv", WS1_COLUMNS, WS1_KEY, run_ws1
            seed_of = lambda r: r[1]
            keyed = [(r, r) for r in rows]
        else:
            rows = ws5_grid(name)
            path, columns, key, run = RESULTS / "ws5.csv", WS5_COLUMNS, WS5_KEY, run_ws5
            seed_of = lambda r: r[2]
            keyed = [(r, (r[0], r[1], r[2], 40, 57, 48, 712000, 1500, r[3], r[4])) for r in rows]
        run_rows(ns, name, [(r, k) for r, k in keyed if not args.seed or seed_of(r) in args.seed],
                 path, columns, key, run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
