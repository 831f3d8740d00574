#!/usr/bin/env python3
"""Run the ns-2 E-base reference grid and append results to results/ebase.csv.

Each run is `ns ebase.tcl ...` under /usr/bin/time (wall time, peak RSS).
Runs already in the CSV are skipped, so the script resumes after a crash.
Standard library only; needs Debian's ns2 (`apt-get install -y ns2`).

    python3 bench/ns2/run_ebase.py             # the whole grid, in order
    python3 bench/ns2/run_ebase.py --speed     # only the 400 s speed reference
    python3 bench/ns2/run_ebase.py --validate  # 400 s, [100,400] checks -> results/validation.csv
    python3 bench/ns2/run_ebase.py --summary   # mean over seeds per buffer, Markdown
    python3 bench/ns2/run_ebase.py --config sack1  # a TCP variant / queue: results/ebase-sack1.csv
    python3 bench/ns2/run_ebase.py --wan cubic     # paper W scenario 4: results/wan-cubic.csv
"""

import argparse
import csv
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "ebase.csv"
FLOWS = HERE / "results" / "flows"
BUFFERS_KB = [2, 3, 5, 8, 10, 15, 20, 30, 50]
COLUMNS = ["flows", "edges", "hosts_per_edge", "buffer_bytes", "seed", "duration_s", "warmup_s",
           "aggregate_mbps", "goodput_kbps_mean", "core_loss", "core_arrivals", "core_drops",
           "wall_s", "peak_rss_mb"]


def grid():
    """(edges, hosts, buffer KB, seed, duration, warmup), most important first."""
    runs = [(10, 100, b, 1, 200, 50) for b in BUFFERS_KB]
    runs += [(10, 10, b, s, 200, 50) for s in (1, 2, 3) for b in BUFFERS_KB]
    runs += [(10, 100, b, 2, 200, 50) for b in BUFFERS_KB]
    return runs


# Other configurations: name -> (Agent/TCP/<variant>, Agent/TCPSink/<sink> or
# "" for the plain sink, core queue), each on its own buffer and seed grid.
CONFIGS = {
    "newreno": ("Newreno", "", "DropTail"),
    "sack1": ("Sack1", "Sack1", "DropTail"),
    "fack": ("Fack", "Sack1", "DropTail"),
    "red": ("Reno", "", "RED"),
}
CONFIG_GRID = {
    "newreno": [(10, 100, b, 1, 200, 50) for b in BUFFERS_KB],
    **{c: [(10, 100, b, s, 200, 50) for s in (1, 2) for b in (3, 5, 10, 20)] for c in ("sack1", "fack", "red")},
}

SPEED = [(10, 100, 10, 1, 400, 100)]
# Checked against numbers measured independently with ns-2 2.35 (1000 flows, seed 1, 400 s, [100,400]).
VALIDATE = [(10, 100, b, 1, 400, 100) for b in (5, 10, 2)]


def done_keys(results):
    if not results.exists():
        return set()
    with results.open() as f:
        return {(int(r["edges"]), int(r["hosts_per_edge"]), int(r["buffer_bytes"]) // 1000, int(r["seed"]),
                 int(r["duration_s"]), int(r["warmup_s"])) for r in csv.DictReader(f)}


def run_ns(args, tag):
    """Run `ns ARGS...` under `time -v`; its RESULT metrics, wall time and peak RSS."""
    m = run_ns_all(args, tag)
    return {k: m[k] for k in COLUMNS[7:]}


def run_ns_all(args, tag, binary="ns"):
    """Run `BINARY ARGS...` (Debian's ns unless given) under `time -v`; every key=value of its RESULT line,
    wall_s and peak_rss_mb."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        cmd = ["/usr/bin/time", "-v", "-o", tf.name, binary, *map(str, args)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        tv = tf.read()
    timedir = HERE / "results" / "time"  # full `time -v` report: user/sys CPU time, not only wall
    timedir.mkdir(exist_ok=True)
    (timedir / f"{tag}.txt").write_text(tv)
    # GNU time -v: "Elapsed (wall clock) time (h:mm:ss or m:ss): 1:40.22", "Maximum resident set size (kbytes): N"
    clock = re.search(r"Elapsed \(wall clock\) time.*: ([\d:.]+)", tv).group(1)
    wall = f"{sum(float(x) * 60 ** i for i, x in enumerate(reversed(clock.split(':')))):.2f}"
    rss_kb = re.search(r"Maximum resident set size \(kbytes\): (\d+)", tv).group(1)
    m = dict(re.findall(r"(\w+)=([-\d.e]+)", out.split("RESULT", 1)[1]))
    return {**m, "wall_s": wall, "peak_rss_mb": f"{int(rss_kb) / 1024:.1f}"}


def run_one(edges, hosts, kb, seed, duration, warmup, config=None):
    variant, sink, queue = CONFIGS[config] if config else ("Reno", "", "DropTail")
    tag = f"f{edges * hosts}_b{kb}k_s{seed}_t{duration}" + (f"_{config}" if config else "")
    flows_csv = FLOWS / f"{tag}.csv"
    m = run_ns([HERE / "ebase.tcl", edges, hosts, kb * 1000, seed, duration, warmup, flows_csv, variant, sink, queue], tag)
    return {"flows": edges * hosts, "edges": edges, "hosts_per_edge": hosts, "buffer_bytes": kb * 1000,
            "seed": seed, "duration_s": duration, "warmup_s": warmup, **m}


# Paper W scenario 4 (wan.tcl): 5 flows, 1 Gb/s, RTT 120 ms, Agent/TCP/Linux
# with Linux's BIC (beta 819/1024) or CUBIC (beta set to RFC 9438's 0.7, 717/1024).
WAN_CA = {"bic": "", "cubic": "717"}
WAN_GRID = [(5, kb, s, 60, 20) for s in (1, 2) for kb in (100, 1000, 4000)]
WAN_COLUMNS = ["flows", "buffer_bytes", "seed", "duration_s", "warmup_s", "beta"] + COLUMNS[7:]


def run_wan(ca):
    """The scenario-4 grid for Linux module `ca`, appended to results/wan-<ca>.csv."""
    results = RESULTS.with_name(f"wan-{ca}.csv")
    done = set()
    if results.exists():
        with results.open() as f:
            done = {(int(r["flows"]), int(r["buffer_bytes"]) // 1000, int(r["seed"]), int(r["duration_s"]),
                     int(r["warmup_s"])) for r in csv.DictReader(f)}
    todo = [r for r in WAN_GRID if r not in done]
    for i, (n, kb, seed, duration, warmup) in enumerate(todo, 1):
        tag = f"wan_f{n}_b{kb}k_s{seed}_t{duration}_{ca}"
        m = run_ns([HERE / "wan.tcl", n, kb * 1000, seed, duration, warmup, FLOWS / f"{tag}.csv", ca, WAN_CA[ca]], tag)
        row = {"flows": n, "buffer_bytes": kb * 1000, "seed": seed, "duration_s": duration, "warmup_s": warmup,
               "beta": WAN_CA[ca] or "819", **m}
        append(results, row, WAN_COLUMNS)
        print(f"[{i}/{len(todo)}] {ca} {row}", flush=True)


def summary():
    """Mean over seeds per (flows, buffer, duration) of the grid CSV, as a Markdown table."""
    groups = {}
    with RESULTS.open() as f:
        for r in csv.DictReader(f):
            key = (int(r["flows"]), int(r["buffer_bytes"]), int(r["duration_s"]), int(r["warmup_s"]))
            groups.setdefault(key, []).append(r)
    print("| flows | buffer KB | T, W s | seeds | aggregate Mb/s | goodput Kb/s | core loss % | wall s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (flows, buf, t, w), rows in sorted(groups.items()):
        mean = lambda k: sum(float(r[k]) for r in rows) / len(rows)
        seeds = ",".join(sorted(r["seed"] for r in rows))
        print(f"| {flows} | {buf / 1000:g} | {t}, {w} | {seeds} | {mean('aggregate_mbps'):.2f} | "
              f"{mean('goodput_kbps_mean'):.2f} | {100 * mean('core_loss'):.2f} | {mean('wall_s'):.1f} | "
              f"{mean('peak_rss_mb'):.0f} |")


def append(results, row, columns=COLUMNS):
    """Add one run's row to a results CSV (header first if new)."""
    new = not results.exists()
    with results.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        if new:
            w.writeheader()
        w.writerow(row)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--speed", action="store_true", help="only the 400 s, 1000-flow speed reference")
    ap.add_argument("--validate", action="store_true",
                    help="only the 400 s validation runs (5, 10, 2 KB), to results/validation.csv")
    ap.add_argument("--summary", action="store_true", help="print the mean over seeds of results/ebase.csv")
    ap.add_argument("--config", choices=sorted(CONFIGS),
                    help="a TCP variant or queue other than Reno + DropTail (see CONFIGS): "
                         "its grid to results/ebase-<config>.csv")
    ap.add_argument("--wan", choices=sorted(WAN_CA),
                    help="paper W scenario 4 (wan.tcl) with this Linux module: results/wan-<module>.csv")
    args = ap.parse_args()
    if args.wan:
        return run_wan(args.wan)
    if args.summary:
        return summary()
    FLOWS.mkdir(parents=True, exist_ok=True)
    if args.config:
        results = RESULTS.with_name(f"ebase-{args.config}.csv")
        todo = [r for r in CONFIG_GRID[args.config] if r not in done_keys(results)]
        for i, r in enumerate(todo, 1):
            append(results, run_one(*r, config=args.config))
            print(f"[{i}/{len(todo)}] {args.config} {r}", flush=True)
        return 0
    results = RESULTS.with_name("validation.csv") if args.validate else RESULTS
    runs = VALIDATE if args.validate else SPEED if args.speed else grid() + SPEED
    todo = [r for r in runs if r not in done_keys(results)]
    for i, r in enumerate(todo, 1):
        row = run_one(*r)
        append(results, row)
        print(f"[{i}/{len(todo)}] {row}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
