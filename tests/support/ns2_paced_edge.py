"""pacesim's edge pacer and QLBP against ns-2 2.35 with the project's
C++ pacers (bench/ns2/paced: edge_pacer.cc, qlbp.cc), from the committed
ns-2 outputs (bench/ns2/paced/results/edge-ebase.csv, qlbp-qdumbbell.csv,
made by run_ns2.py; ns-2 is not needed here); and, on the same Q-dumbbell,
host pacing (tcp-paced.cc, results/host-qdumbbell.csv), Q-fig18's "TCP
pacing".

Reruns pacesim on the committed points given (same scenario, pacer parameters
and seed), averages both simulators over seeds and holds them to the engine
issue's tolerances (support.ns2_ebase's): aggregate core throughput
within 3 % of the core rate, core loss within 20 % relative where ns-2's
exceeds 0.5 %, mean goodput within 5 % (and, with part of the edges paced,
the paced and the unpaced flows' mean goodput within 5 % each). Pacer
delays (packet-weighted mean over all pacers, and the largest) are shown
side by side by bench/ns2/paced/compare.py, which compares every point;
tests/test_fidelity_ns2_paced_edge.py compares a few.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

import pacesim

from .ns2_ebase import LOSS_FLOOR, TOL_GOODPUT, TOL_LOSS, TOL_THROUGHPUT

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "ns2" / "paced" / "results"
CORE_BPS = 100e6  # both scenarios' core rate

EDGE_KEY = ["edges", "hosts_per_edge", "buffer_bytes", "duration_s", "warmup_s", "delay_ms", "paced_edges"]
QLBP_KEY = ["buffer_packets", "duration_s", "warmup_s", "q_max"]
HOST_KEY = QLBP_KEY[:-1]
KEYS = {"edge": EDGE_KEY, "qlbp": QLBP_KEY, "host": HOST_KEY}
FILES = {"edge": "edge-ebase.csv", "qlbp": "qlbp-qdumbbell.csv", "host": "host-qdumbbell.csv"}
METRICS = ["aggregate_mbps", "goodput_kbps_mean", "core_loss", "goodput_kbps_paced", "goodput_kbps_unpaced",
           "pacer_delay_ms_mean", "pacer_delay_ms_max"]


def load(kind: str) -> pd.DataFrame:
    """The committed ns-2 rows: kind "edge" (E-base), "qlbp" or "host" (Q-dumbbell)."""
    rows = pd.read_csv(RESULTS / FILES[kind])
    # ns-2 is deterministic: a point run twice (by runs split over processes) counts once.
    return rows.drop_duplicates(KEYS[kind] + ["seed"])


def overrides(kind: str, p: dict) -> tuple[Path, list[str]]:
    """The pacesim scenario file and overrides of one ns-2 row."""
    common = [f"duration={p['duration_s']}s", f"warmup={p['warmup_s']}s", f"seed={p['seed']}"]
    if kind == "edge":
        # ebase_edge.tcl's window_ 1000, not paper E's reading (ns-2's default 20).
        return ROOT / "scenarios" / "e-base.toml", common + ["tcp.window=1000",
            f"topology.edges={p['edges']}", f"topology.hosts_per_edge={p['hosts_per_edge']}",
            f"core.buffer={p['buffer_bytes']}B", "pacing.scheme=edge", f"pacing.delay={p['delay_ms']}ms",
            f"pacing.fraction={p['paced_edges'] / p['edges']}"]
    pacing = (["pacing.scheme=host"] if kind == "host" else
              [f"pacing.scheme=qlbp", f"pacing.q_max={p['q_max']}"] if p["q_max"] else ["pacing.scheme=none"])
    return ROOT / "scenarios" / "q-dumbbell.toml", common + [f"core.buffer_packets={p['buffer_packets']}", *pacing]


def simulate(kind: str, p: dict) -> dict:
    """One pacesim run of an ns-2 row's scenario; the compared metrics."""
    path, sets = overrides(kind, p)
    m = pacesim.run(pacesim.apply_overrides(pacesim.load_scenario(path), sets)).metrics
    out = {**p, "aggregate_mbps": m["aggregate_mbps"], "goodput_kbps_mean": m["goodput_kbps_mean"],
           "core_loss": m["core_loss_rate"], "pacer_delay_ms_mean": m["pacer_delay_ms_mean"],
           "pacer_delay_ms_max": m["pacer_delay_ms_max"]}
    if kind == "edge":
        out.update(goodput_kbps_paced=m["goodput_kbps_paced"], goodput_kbps_unpaced=m["goodput_kbps_unpaced"])
    return out


def compare(kind: str, ns2: pd.DataFrame, workers: int | None = None) -> pd.DataFrame:
    """Both simulators' seed means per point of `ns2`, and whether each metric agrees."""
    key = KEYS[kind]
    points = ns2[key + ["seed"]].to_dict("records")
    with ProcessPoolExecutor(workers) as pool:
        ours = pd.DataFrame(list(pool.map(simulate, [kind] * len(points), points)))
    cols = [c for c in METRICS if c in ns2.columns]
    a = ns2.groupby(key)[cols].mean()
    b = ours.groupby(key)[cols].mean()
    t = a.merge(b, left_index=True, right_index=True, suffixes=("_ns2", "_pacesim")).reset_index()
    t["seeds"] = ns2.groupby(key)["seed"].count().values
    t["ok_throughput"] = (t.aggregate_mbps_pacesim - t.aggregate_mbps_ns2).abs() <= TOL_THROUGHPUT * CORE_BPS / 1e6
    t["ok_loss"] = (t.core_loss_ns2 <= LOSS_FLOOR) | ((t.core_loss_pacesim / t.core_loss_ns2 - 1).abs() <= TOL_LOSS)
    ok_gp = (t.goodput_kbps_mean_pacesim / t.goodput_kbps_mean_ns2 - 1).abs() <= TOL_GOODPUT
    if kind == "edge":  # with part of the edges paced, each group's goodput too
        for g in ("paced", "unpaced"):
            ns, ps = t[f"goodput_kbps_{g}_ns2"], t[f"goodput_kbps_{g}_pacesim"]
            ok_gp &= ns.isna() | ((ps / ns - 1).abs() <= TOL_GOODPUT)
    t["ok_goodput"] = ok_gp
    t["ok"] = t.ok_throughput & t.ok_loss & t.ok_goodput
    return t
