#!/usr/bin/env python3
"""Speed of pacesim and ns-2 on the paper-size E-base, in one run.

E-base (paper E Sec 3.1): 1000 TCP Reno flows, 10 KB drop-tail core buffer,
400 simulated seconds. pacesim runs each pacing scheme (none, host, edge),
on one thread and on two (the network split into two
halves simulated in parallel, `engine/partition.rs`; the same report);
ns-2 runs the unpaced scenario (Debian's ns-2 has no pacing; paper E
patched it) twice: with every route installed by hand (`ebase_manual.tcl`,
`$ns rtproto Manual`: an expert's script, the figure the speedups are taken
against) and with ns-2's default static routing (`ebase.tcl`: all-pairs
routes computed at start-up, what a first script gets). Every run is its own process under /usr/bin/time (wall time,
peak RSS), and each simulator also runs a near-zero-length copy, so set-up
(ns-2 builds its routes) is separated from the cost per simulated second.
Every run is repeated `--repeat` times (default 3), the repetitions taken
in turn across all runs so that a slow spell of the machine hits every
simulator alike, and each row shows the median wall time (with the
least and the most) and the largest peak RSS.
The engine's events and packet-hops per second are shown beside the bare
event queue's time for the same number of events (the practical ceiling,
`examples/event_queue.rs`). ns-2 runs only where `ns` is installed
(Debian: apt-get install -y ns2); otherwise its committed reference row
(bench/ns2/results/ebase.csv) is shown, marked as such. Results are also
written to bench/speed/results/speed.csv.

    python bench/speed/speed_ebase.py [--duration 400] [--repeat 3] [--no-ns2]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.progress import Progress, TextColumn
from rich.table import Table

ROOT = Path(__file__).resolve().parents[2]
NS2 = {"manual": ROOT / "bench" / "ns2" / "ebase_manual.tcl", "static": ROOT / "bench" / "ns2" / "ebase.tcl"}
"""ns-2's two set-ups of the same E-base: every route installed by hand (`$ns rtproto Manual`, an expert's
script: the honest comparison, and the one the speedups are taken against) and ns-2's default static
routing (all-pairs routes computed at start-up, what a first script gets)."""
NS2_CSV = ROOT / "bench" / "ns2" / "results" / "ebase.csv"
SCENARIO = ROOT / "scenarios" / "e-base.toml"
OUT = ROOT / "bench" / "speed" / "results" / "speed.csv"
SCHEMES = ["none", "host", "edge"]
THREADS = [1, 2]

PACESIM = """
import json, sys, pacesim
extra = ["traffic.start=0s"] if sys.argv[4] == "setup" else []
s = pacesim.apply_overrides(pacesim.load_scenario(sys.argv[1]),
    ["core.buffer=10KB", f"duration={sys.argv[2]}", f"warmup={sys.argv[3]}", f"pacing.scheme={sys.argv[5]}", *extra])
r = pacesim.run(s, threads=int(sys.argv[6]))
print(json.dumps({"engine_s": r.wall_s, **r.work, **r.summary}))
"""


def timed(cmd: list[str]) -> tuple[str, float, float]:
    """Run `cmd`; return its stdout, wall seconds and peak RSS in MB."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        out = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf.name, *cmd],
                             capture_output=True, text=True, check=True).stdout
        wall, rss_kb = tf.read().split()[-2:]
    return out, float(wall), int(rss_kb) / 1024


def pacesim_run(duration: float, warmup: float, scheme: str, threads: int, setup_only: bool = False) -> dict:
    """One pacesim run in a fresh process; `setup_only` starts every flow at 0
    so that a near-zero-length run passes validation."""
    mode = "setup" if setup_only else "full"
    cmd = [sys.executable, "-c", PACESIM, str(SCENARIO), f"{duration}s", f"{warmup}s", mode, scheme, str(threads)]
    out, wall, rss = timed(cmd)
    return {**json.loads(out), "wall_s": wall, "rss_mb": rss}


def ns2_run(routes: str, duration: float, warmup: float) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".csv") as flows:
        out, wall, rss = timed(["ns", str(NS2[routes]), "10", "100", "10000", "1", str(duration), str(warmup), flows.name])
    return {"wall_s": wall, "rss_mb": rss, "result": out.strip()}


def queue_ceiling(events: int) -> float:
    """Seconds the bare event queue takes for `events` pop+push pairs."""
    cmd = ["cargo", "run", "-q", "--release", "--example", "event_queue", "--", str(events), "8000"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return float(re.search(r": ([0-9.]+) s,", out).group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=400.0)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each simulator; the table shows medians")
    ap.add_argument("--no-ns2", action="store_true", help="use the committed ns-2 figures even if ns is installed")
    args = ap.parse_args()
    T, W = args.duration, args.duration / 4
    console = Console(width=None if sys.stdout.isatty() else 160)

    measure_ns2 = shutil.which("ns") and not args.no_ns2
    runs: dict[str, list[dict]] = {}
    with Progress(*Progress.get_default_columns(), TextColumn("{task.fields[run]}"), console=console) as bar:
        task = bar.add_task("E-base", total=args.repeat * (len(THREADS) * (1 + len(SCHEMES)) + 2 * len(NS2) * bool(measure_ns2)),
                            run="")
        for _ in range(args.repeat):
            for threads in THREADS:
                for scheme in ["setup", *SCHEMES]:
                    key = f"pacesim {scheme} {threads}"
                    bar.update(task, run=key)
                    if scheme == "setup":
                        p = pacesim_run(0.002, 0.001, "none", threads, setup_only=True)
                    else:
                        p = pacesim_run(T, W, scheme, threads)
                    runs.setdefault(key, []).append(p)
                    bar.advance(task)
            if measure_ns2:
                for routes in NS2:
                    for key, length in [(f"ns-2 {routes} setup", (0.002, 0.001)), (f"ns-2 {routes}", (T, W))]:
                        bar.update(task, run=key)
                        runs.setdefault(key, []).append(ns2_run(routes, *length))
                        bar.advance(task)

    def wall(key: str) -> dict:
        w = [r["wall_s"] for r in runs[key]]
        return dict(wall_s=statistics.median(w), wall_min_s=min(w), wall_max_s=max(w),
                    rss_mb=max(r["rss_mb"] for r in runs[key]))

    rows = []
    for threads in THREADS:
        setup = wall(f"pacesim setup {threads}")["wall_s"]
        for scheme in SCHEMES:
            key = f"pacesim {scheme} {threads}"
            p = runs[key][0]
            rows.append(dict(simulator=f"pacesim, {scheme}, {threads} thread{'s' * (threads > 1)}",
                             scheme=scheme, threads=threads, **wall(key), setup_s=setup,
                             engine_s=statistics.median(r["engine_s"] for r in runs[key]), events=p["events"],
                             packet_hops=p["packet_hops"], aggregate_mbps=p["aggregate_mbps"]))
    if measure_ns2:
        for routes, words in [("manual", "routes by hand"), ("static", "default static routing")]:
            rows.append(dict(simulator=f"ns-2 2.35, none, {words} (measured now)", **wall(f"ns-2 {routes}"),
                             setup_s=wall(f"ns-2 {routes} setup")["wall_s"]))
    else:
        ref = pd.read_csv(NS2_CSV).query("flows == 1000 and buffer_bytes == 10000 and duration_s == @T")
        if len(ref):
            rows.append(dict(simulator="ns-2 2.35, none (committed reference)", wall_s=ref.wall_s.iloc[0],
                             setup_s=float("nan"), rss_mb=ref.peak_rss_mb.iloc[0]))
    with console.status("the event queue alone on each run's event count"):
        for row in rows:
            if "events" in row:
                row["queue_ceiling_s"] = queue_ceiling(row["events"])
    df = pd.DataFrame(rows)
    df["per_sim_s"] = (df.wall_s - df.setup_s) / T
    ns2 = df[df.simulator.str.startswith("ns-2")]
    if len(ns2):
        df["speedup_total"] = ns2.wall_s.iloc[0] / df.wall_s
        df["speedup_per_sim_s"] = ns2.per_sim_s.iloc[0] / df.per_sim_s
        df["memory_ratio"] = ns2.rss_mb.iloc[0] / df.rss_mb
    OUT.parent.mkdir(exist_ok=True)
    df.assign(duration_s=T).to_csv(OUT, index=False)

    table = Table(title=f"E-base, 1000 flows, 10 KB, {T:g} simulated s (median of {args.repeat} runs each)")
    cols = ["simulator", "wall s", "least-most", "set-up s", "wall s per sim s", "peak RSS MB", "x ns-2 total", "x ns-2 per sim s", "ns-2 RSS / ours"]
    for col in cols:
        table.add_column(col, justify="right")
    for r in df.to_dict("records"):
        fmt = lambda k, f: "" if pd.isna(r.get(k, float("nan"))) else format(r[k], f)  # noqa: E731
        spread = "" if pd.isna(r.get("wall_min_s", float("nan"))) else f"{r['wall_min_s']:.2f}-{r['wall_max_s']:.2f}"
        table.add_row(r["simulator"], fmt("wall_s", ".2f"), spread, fmt("setup_s", ".2f"), fmt("per_sim_s", ".4f"),
                      fmt("rss_mb", ".0f"), fmt("speedup_total", ".1f"), fmt("speedup_per_sim_s", ".1f"),
                      fmt("memory_ratio", ".1f"))
    console.print(table)
    work = Table(title="pacesim engine work (queue alone: one queue, one thread, the run's event count)")
    for col in ["scheme", "threads", "engine s", "events", "M events/s", "packet-hops", "M hops/s", "queue alone s",
                "queue share"]:
        work.add_column(col, justify="right")
    for r in df[df.simulator.str.startswith("pacesim")].to_dict("records"):
        work.add_row(r["scheme"], str(int(r["threads"])), f"{r['engine_s']:.2f}", f"{int(r['events']):,}",
                     f"{r['events'] / r['engine_s'] / 1e6:.1f}",
                     f"{int(r['packet_hops']):,}", f"{r['packet_hops'] / r['engine_s'] / 1e6:.1f}",
                     f"{r['queue_ceiling_s']:.2f}", f"{100 * r['queue_ceiling_s'] / r['engine_s']:.0f} %")
    console.print(work)
    if measure_ns2:
        each = Table(title="each repetition against that repetition's ns-2 (routes by hand): x ns-2 total / per sim s")
        each.add_column("simulator")
        for i in range(args.repeat):
            each.add_column(f"run {i + 1}", justify="right")
        ns2_setup = [n["wall_s"] for n in runs["ns-2 manual setup"]]
        for threads in THREADS:
            setups = [r["wall_s"] for r in runs[f"pacesim setup {threads}"]]
            for scheme in SCHEMES:
                cells = []
                for i, r in enumerate(runs[f"pacesim {scheme} {threads}"]):
                    n = runs["ns-2 manual"][i]["wall_s"]
                    per = (n - ns2_setup[i]) / (r["wall_s"] - setups[i])
                    cells.append(f"{n / r['wall_s']:.1f} / {per:.1f}")
                each.add_row(f"pacesim, {scheme}, {threads} thread{'s' * (threads > 1)}", *cells)
        console.print(each)
    console.print(f"written to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
