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

bench/ns2/fidelity.py compares every point and seed and prints the tables;
tests/test_fidelity_ns2.py a few.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd
from rich.progress import Progress

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
