#!/usr/bin/env python3
"""pacesim against ns-2 2.35, from the committed ns-2 outputs.

Reads bench/ns2/results/ebase.csv (E-base, TCP Reno, drop-tail),
ebase-<config>.csv (other TCP variants or core queues, see CONFIGS) and
wan-<module>.csv (paper W scenario 4 with ns-2's Agent/TCP/Linux BIC or
CUBIC, built here from E-base's knobs: one edge of 5 hosts on 1 Gb/s access
links, a 10 Gb/s edge, a 1 Gb/s core, 120 ms RTT); made by
bench/ns2/run_ebase.py, ns-2 is not needed here. Reruns pacesim on the
same scenarios, configurations and seeds, averages
both over seeds and checks the agreement the engine issue asks for:

- aggregate core throughput within 3 % of the core link rate;
- core loss rate within 20 % (relative) wherever ns-2's exceeds 0.5 %;
- mean per-flow goodput within 5 % (relative).

Prints the side-by-side table and exits 1 if any point misses.

    python bench/ns2/fidelity.py [--flows 100] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import pacesim

ROOT = Path(__file__).resolve().parents[2]
NS2 = ROOT / "bench" / "ns2" / "results"
SCENARIO = ROOT / "scenarios" / "e-base.toml"
CORE_MBPS = 100.0
TOL_THROUGHPUT = 0.03  # of the core link rate
TOL_LOSS = 0.20  # relative, where ns-2 loss > LOSS_FLOOR
LOSS_FLOOR = 0.005
TOL_GOODPUT = 0.05  # relative

# ns-2 configuration (results file suffix) -> the pacesim overrides that model it.
CONFIGS = {
    "reno": [],
    "newreno": ["tcp.variant=newreno"],
    "sack1": ["tcp.variant=sack"],
    "fack": ["tcp.variant=fack"],
    "red": ["core.queue=red"],
    "wan-bic": ["tcp.variant=bic"],
    "wan-cubic": ["tcp.variant=cubic"],
}

# bench/ns2/wan.tcl in E-base's terms (its flows start U[0, 1] s).
WAN = ["topology.edges=1", "topology.access_rate=10Gbps", "topology.access_delay=1ms", "topology.edge_rate=100Gbps",
       "topology.edge_delay=4ms", "core.rate=1Gbps", "core.delay=50ms", "tcp.window=100000", 'traffic.start=["0s", "1s"]']

KEY = ["config", "flows", "edges", "hosts_per_edge", "buffer_bytes", "duration_s", "warmup_s", "core_mbps"]


def load_reference() -> pd.DataFrame:
    """Every committed ns-2 row, with the configuration it ran and its core rate."""
    frames = [pd.read_csv(NS2 / "ebase.csv").assign(config="reno")]
    for path in sorted(NS2.glob("ebase-*.csv")):
        frames.append(pd.read_csv(path).assign(config=path.stem.removeprefix("ebase-")))
    ebase = pd.concat(frames, ignore_index=True).assign(core_mbps=CORE_MBPS)
    wan = [pd.read_csv(path).assign(config=path.stem, edges=1, hosts_per_edge=lambda d: d.flows, core_mbps=1000.0)
           for path in sorted(NS2.glob("wan-*.csv"))]
    return pd.concat([ebase, *wan], ignore_index=True)


def simulate(point: dict) -> dict:
    """One pacesim run of an ns-2 reference row's scenario."""
    s = pacesim.apply_overrides(
        pacesim.load_scenario(SCENARIO),
        [
            f"topology.edges={point['edges']}",
            f"topology.hosts_per_edge={point['hosts_per_edge']}",
            f"core.buffer={point['buffer_bytes']}B",
            f"duration={point['duration_s']}s",
            f"warmup={point['warmup_s']}s",
            f"seed={point['seed']}",
            "tcp.window=1000",  # ebase.tcl's window_ (paper E's reading, ns-2's 20, is not the reference's)
            *(WAN if point["config"].startswith("wan-") else []),
            *CONFIGS[point["config"]],
        ],
    )
    m = pacesim.run(s).summary
    return {**point, "aggregate_mbps": m["aggregate_mbps"], "goodput_kbps_mean": m["goodput_kbps_mean"],
            "core_loss": m["core_loss_rate"]}


def compare(ns2: pd.DataFrame, workers: int | None = None, progress: bool = True) -> pd.DataFrame:
    """Run pacesim on every (scenario, seed) of `ns2` and return one row per
    scenario with both simulators' seed means and whether each metric agrees."""
    points = ns2[KEY + ["seed"]].to_dict("records")
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(simulate, p) for p in points]
        if progress:
            with Progress(transient=True) as bar:
                task = bar.add_task("pacesim runs", total=len(futures))
                for f in futures:
                    f.result()
                    bar.advance(task)
        ours = pd.DataFrame([f.result() for f in futures])
    metrics = ["aggregate_mbps", "goodput_kbps_mean", "core_loss"]
    a = ns2.groupby(KEY)[metrics].mean()
    b = ours.groupby(KEY)[metrics].mean()
    t = a.merge(b, left_index=True, right_index=True, suffixes=("_ns2", "_pacesim")).reset_index()
    t["seeds"] = ns2.groupby(KEY)["seed"].count().values
    t["ok_throughput"] = (t.aggregate_mbps_pacesim - t.aggregate_mbps_ns2).abs() <= TOL_THROUGHPUT * t.core_mbps
    t["ok_goodput"] = (t.goodput_kbps_mean_pacesim / t.goodput_kbps_mean_ns2 - 1).abs() <= TOL_GOODPUT
    loss_rel = (t.core_loss_pacesim / t.core_loss_ns2 - 1).abs()
    t["ok_loss"] = (t.core_loss_ns2 <= LOSS_FLOOR) | (loss_rel <= TOL_LOSS)
    return t


def show(t: pd.DataFrame, console: Console) -> None:
    for (config, flows, duration, warmup), g in t.groupby(["config", "flows", "duration_s", "warmup_s"]):
        seeds = g.seeds.max()
        table = Table(title=f"{'paper W scenario 4' if config.startswith('wan-') else 'E-base'}, {config}, {flows} flows, {duration} s measured over [{warmup}, {duration}] s "
                            f"(mean over {seeds} seed{'s' if seeds > 1 else ''})")
        for col in ["buffer", "Mb/s ns-2", "Mb/s pacesim", "Kb/s ns-2", "Kb/s pacesim", "loss % ns-2",
                    "loss % pacesim", "agrees"]:
            table.add_column(col, justify="right")
        for r in g.sort_values("buffer_bytes").itertuples():
            ok = r.ok_throughput and r.ok_goodput and r.ok_loss
            misses = [n for n, v in [("thr", r.ok_throughput), ("gp", r.ok_goodput), ("loss", r.ok_loss)] if not v]
            table.add_row(f"{r.buffer_bytes // 1000:g} KB", f"{r.aggregate_mbps_ns2:.1f}", f"{r.aggregate_mbps_pacesim:.1f}",
                          f"{r.goodput_kbps_mean_ns2:.1f}", f"{r.goodput_kbps_mean_pacesim:.1f}",
                          f"{100 * r.core_loss_ns2:.2f}", f"{100 * r.core_loss_pacesim:.2f}",
                          "[green]yes" if ok else f"[red]no ({', '.join(misses)})")
        console.print(table)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flows", type=int, action="append", help="only these flow counts (repeatable)")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--csv", type=Path, help="also write the comparison table here")
    args = ap.parse_args()
    ns2 = load_reference()
    if args.flows:
        ns2 = ns2[ns2.flows.isin(args.flows)]
    t = compare(ns2, args.workers)
    console = Console()
    show(t, console)
    if args.csv:
        t.to_csv(args.csv, index=False)
    bad = t[~(t.ok_throughput & t.ok_goodput & t.ok_loss)]
    console.print(f"{len(t) - len(bad)}/{len(t)} points agree "
                  f"(throughput ±{TOL_THROUGHPUT:.0%} of link rate, loss ±{TOL_LOSS:.0%} where ns-2 > "
                  f"{LOSS_FLOOR:.1%}, goodput ±{TOL_GOODPUT:.0%})")
    return 1 if len(bad) else 0


if __name__ == "__main__":
    sys.exit(main())
