"""The ns-3 references (bench/ns3/): the dumbbells both simulators run, pacesim's side of a point and the
references' tolerance rule applied to a row of bench/ns3/results/*.csv. bench/ns3/compare.py runs the points;
tests/test_fidelity_ns3.py checks pacesim against the committed rows."""

import csv
from pathlib import Path
from typing import Optional

from .ns2_refs import agrees_at

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "ns3" / "results"

QUEUES = ("droptail", "codel", "fq_codel", "pie")
# DCTCP's switch (bench/ns3/dumbbell.py's `mark`: drop-tail marking from K, a third of the buffer in whole
# packets, as issue 37's X-transports sets it), which only `dctcp` runs; the rows' order after QUEUES.
MARK = "mark"
ORDER = QUEUES + (MARK,)
SEEDS = (1, 2)
COMMON = dict(duration_s=60, warmup_s=20, start_s=[0, 10], edge_rate="1Gbps", edge_delay="1ms")
SETUPS = {
    # Ten flows through a 10 Mb/s core; base RTT 48 ms, so one BDP is 60 KB: a quarter, one and four BDPs.
    "dumbbell10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                       core_delay="20ms", buffers=(15000, 60000, 240000)),
    # dumbbell10 with DCTCP through a marking queue (bench/ns3/results/dctcp10.csv).
    "dctcp10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                    core_delay="20ms", buffers=(15000, 60000, 240000)),
    # E-base's core (100 Mb/s, 100 ms) and buffers with 100 flows on 10 Mb/s access links, rates fixed.
    "ebase100": dict(COMMON, flows=100, access_rate="10Mbps", access_delay="3ms", core_rate="100Mbps",
                     core_delay="100ms", buffers=(5000, 10000, 50000)),
}
METRICS = ("aggregate_mbps", "goodput_kbps_mean", "core_loss_rate")
SIMS = ("ns3", "pacesim", "ns2")
FIELDS = ["tcp", "queue", "buffer_bytes", "seed"] + [f"{m}_{sim}" for m in METRICS for sim in SIMS] + [
    f"core_drops_{sim}" for sim in SIMS] + [f"core_{n}_{sim}" for n in ("marks", "arrivals") for sim in SIMS[:2]] + [
    "agree_ns3", "agree_ns2"]


def mark_packets(buffer_bytes: int) -> int:
    """K of the marking queue: a third of the buffer, in whole 1040 B packets."""
    return buffer_bytes // 3 // 1040


def pacesim_run(s: dict) -> dict:
    """pacesim on the same dumbbell: scenarios/e-base.toml with one edge, fixed rates, TCP `s["tcp"]`."""
    import pacesim

    sets = [f"duration={s['duration_s']}s", f"warmup={s['warmup_s']}s", "topology.edges=1",
            f"topology.hosts_per_edge={s['flows']}",
            f"topology.access_rate=[\"{s['access_rate']}\", \"{s['access_rate']}\"]",
            f"topology.access_delay=[\"{s['access_delay']}\", \"{s['access_delay']}\"]",
            f"topology.edge_rate={s['edge_rate']}",
            f"topology.edge_delay=[\"{s['edge_delay']}\", \"{s['edge_delay']}\"]",
            f"core.rate={s['core_rate']}", f"core.delay={s['core_delay']}", f"core.buffer={s['buffer_bytes']}B",
            f"tcp.variant={s['tcp']}", "tcp.window=100000",
            f"traffic.start=[\"{s['start_s'][0]}s\", \"{s['start_s'][1]}s\"]"]
    if s["queue"] == MARK:
        sets += ["core.queue=droptail", f"core.droptail.mark_packets={s['mark_packets']}"]
    else:
        sets.append(f"core.queue={s['queue']}")
    r = pacesim.run(str(ROOT / "scenarios" / "e-base.toml"), set=sets, seed=s["seed"])
    core = r.report["links"]["core"]
    return dict(aggregate_mbps=r.summary["aggregate_mbps"], goodput_kbps_mean=r.summary["goodput_kbps_mean"],
                core_loss_rate=r.summary["core_loss_rate"], core_drops=core["drops"],
                core_marks=core.get("marks", 0), core_arrivals=core["arrivals"])


def agree(row: dict, reference: str, core_rate_bps: float) -> Optional[bool]:
    """pacesim against `reference` (ns3 or ns2) on one row by the references' rule; None without that run."""
    if row.get(f"aggregate_mbps_{reference}") in (None, ""):
        return None
    names = {"aggregate_mbps": "aggregate_mbps", "goodput_kbps_mean": "goodput_kbps", "core_loss_rate": "core_loss"}
    return all(agrees_at(names[m], float(row[f"{m}_{reference}"]), float(row[f"{m}_pacesim"]), core_rate_bps)
               for m in METRICS)


def rows(setup: str) -> list:
    """The committed rows of a setup (bench/ns3/results/SETUP.csv), as written: every value a string."""
    with (RESULTS / f"{setup}.csv").open() as f:
        return list(csv.DictReader(f))


def point(setup: str, row: dict) -> dict:
    """The settings of a committed row's point, as `pacesim_run` and bench/ns3/dumbbell.py take them."""
    s = {k: v for k, v in SETUPS[setup].items() if k != "buffers"}
    buffer = int(row["buffer_bytes"])
    return dict(s, tcp=row["tcp"], queue=row["queue"], buffer_bytes=buffer, seed=int(row["seed"]),
                mark_packets=mark_packets(buffer))
