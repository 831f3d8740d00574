"""pacesim's host pacing against ns-2 2.35 with tcp-paced.cc (bench/ns2/paced),
from the committed ns-2 outputs (bench/ns2/paced/results/ebase-host.csv,
ws5.csv, made by run_paced.py; ns-2 is not needed here). Reruns pacesim on
the rows given, averages both over seeds and checks ns2_ebase's tolerances:

- aggregate core throughput within 3 % of the core link rate;
- core loss within 20 % (relative) where ns-2's exceeds 0.5 %;
- mean goodput within 5 % (relative): over all flows, and over the paced
  and the unpaced flows separately where a run has both.

W-s5 also compares, per half, retransmissions per data packet sent and loss
events (fast retransmits + timeouts) per flow per 100 ms, under the loss
tolerance (20 % where ns-2's exceeds 0.5 %, in the same units as the core
loss: per packet, and per RTT).

bench/ns2/paced/fidelity.py compares every row and prints the tables;
tests/test_fidelity_ns2_paced_host.py compares a few. bench/ns2/wei's
comparison with Wei's patched ns-2 (ns2_wei) runs the same with Wei's pacer.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import pandas as pd

import pacesim

from . import ns2_ebase as base

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "ns2" / "paced" / "results"

EBASE = ROOT / "scenarios" / "e-base.toml"
W_DUMBBELL = ROOT / "scenarios" / "w-dumbbell.toml"
WS5_RTT_S = 0.1  # as run_paced.py counts loss events
EBASE_KEY = ["flows", "edges", "hosts_per_edge", "buffer_bytes", "duration_s", "warmup_s", "mode", "fraction"]
WS5_KEY = ["variant", "mode", "flows", "rate_mbps", "core_delay_ms", "buffer_bytes", "packet_bytes", "duration_s",
           "warmup_s"]
# ns-2 agent -> pacesim tcp.variant
VARIANTS = {"Reno": "reno", "Newreno": "newreno", "Sack1": "sack"}


def _groups(flows: pd.DataFrame) -> dict:
    """Mean goodput of the paced and of the unpaced flows (None if a group is empty)."""
    paced = flows[flows.paced.astype(bool)].goodput_kbps
    unpaced = flows[~flows.paced.astype(bool)].goodput_kbps
    return {"goodput_kbps_paced": paced.mean() if len(paced) else None,
            "goodput_kbps_unpaced": unpaced.mean() if len(unpaced) else None}


def simulate_ebase(p: dict, extra: tuple = ()) -> dict:
    """E-base at row `p` (mode "none": unpaced), with the overrides `extra` on top."""
    pacing = (["pacing.scheme=none"] if p["mode"] == "none" else
              ["pacing.scheme=host", f"pacing.fraction={p['fraction']}", f"pacing.host_mode={p['mode']}"])
    s = pacesim.apply_overrides(pacesim.load_scenario(EBASE), [
        f"topology.edges={p['edges']}", f"topology.hosts_per_edge={p['hosts_per_edge']}",
        f"core.buffer={p['buffer_bytes']}B", f"duration={p['duration_s']}s", f"warmup={p['warmup_s']}s",
        f"seed={p['seed']}", "tcp.window=1000", *pacing, *extra])  # ebase_host.tcl's window_ 1000
    r = pacesim.run(s)
    m = r.summary
    return {**p, "aggregate_mbps": m["aggregate_mbps"], "goodput_kbps_mean": m["goodput_kbps_mean"],
            "core_loss": m["core_loss_rate"], **_groups(r.flows)}


def simulate_ws5(p: dict, extra: tuple = ()) -> dict:
    """W-s5 as scenarios/W-s5.toml sets it, at ns-2's packet size, with the overrides `extra` on top."""
    s = pacesim.apply_overrides(pacesim.load_scenario(W_DUMBBELL), [
        f"topology.flows={p['flows']}", f"core.rate={p['rate_mbps']}Mbps", f"core.delay={p['core_delay_ms']}ms",
        f"core.buffer={p['buffer_bytes']}B", f"tcp.segment_size={p['packet_bytes'] - 40}B", "tcp.window=100000",
        "pacing.scheme=host", "pacing.fraction=0.5", f"pacing.host_mode={p['mode']}",
        f"tcp.variant={VARIANTS[p['variant']]}", f"duration={p['duration_s']}s", f"warmup={p['warmup_s']}s",
        'traffic.start=["0s", "100ms"]', f"seed={p['seed']}", *extra])
    r = pacesim.run(s)
    f = r.flows
    out = {**p, "aggregate_mbps": r.summary["aggregate_mbps"], "core_loss": r.summary["core_loss_rate"], **_groups(f)}
    span = p["duration_s"] - p["warmup_s"]
    for name, g in (("paced", f[f.paced.astype(bool)]), ("unpaced", f[~f.paced.astype(bool)])):
        out[f"retransmit_rate_{name}"] = g.retransmits.sum() / g.data_packets_sent.sum()
        out[f"loss_events_per_rtt_{name}"] = (g.fast_retransmits.sum() + g.timeouts.sum()) / (len(g) * span / WS5_RTT_S)
    return out


def _run_all(fn, points: list[dict], workers: int | None) -> pd.DataFrame:
    if workers == 1:
        return pd.DataFrame([fn(p) for p in points])
    with ProcessPoolExecutor(workers) as pool:
        return pd.DataFrame(list(pool.map(fn, points)))


def _agree(t: pd.DataFrame, link_mbps, rates: list[str], goodputs: list[str]) -> pd.DataFrame:
    """Flag each metric: throughput absolute against the link rate, rates
    (loss-like) relative where ns-2's exceeds the floor, goodputs relative."""
    t["ok_aggregate_mbps"] = (t.aggregate_mbps_pacesim - t.aggregate_mbps_ns2).abs() <= base.TOL_THROUGHPUT * link_mbps
    for m in rates:
        rel = (t[f"{m}_pacesim"] / t[f"{m}_ns2"] - 1).abs()
        t[f"ok_{m}"] = (t[f"{m}_ns2"] <= base.LOSS_FLOOR) | (rel <= base.TOL_LOSS)
    for m in goodputs:
        present = t[f"{m}_ns2"].notna()
        rel = (t[f"{m}_pacesim"] / t[f"{m}_ns2"] - 1).abs()
        t[f"ok_{m}"] = ~present | (rel <= base.TOL_GOODPUT)
    t["ok"] = t[[c for c in t.columns if c.startswith("ok_")]].all(axis=1)
    return t


def _side_by_side(ns2: pd.DataFrame, ours: pd.DataFrame, key: list[str], metrics: list[str]) -> pd.DataFrame:
    a = ns2.groupby(key)[metrics].mean()
    b = ours.groupby(key)[metrics].mean()
    t = a.merge(b, left_index=True, right_index=True, suffixes=("_ns2", "_pacesim")).reset_index()
    t["seeds"] = ns2.groupby(key)["seed"].count().values
    return t


EBASE_RATES = ["core_loss"]
EBASE_GOODPUTS = ["goodput_kbps_mean", "goodput_kbps_paced", "goodput_kbps_unpaced"]
WS5_RATES = ["core_loss", "retransmit_rate_paced", "retransmit_rate_unpaced", "loss_events_per_rtt_paced",
             "loss_events_per_rtt_unpaced"]
WS5_GOODPUTS = ["goodput_kbps_paced", "goodput_kbps_unpaced"]


def compare_ebase(ns2: pd.DataFrame, workers: int | None = None, extra: tuple = ()) -> pd.DataFrame:
    """ns-2's E-base rows against pacesim's, run with the overrides `extra`."""
    ours = _run_all(partial(simulate_ebase, extra=extra), ns2[EBASE_KEY + ["seed"]].to_dict("records"), workers)
    metrics = ["aggregate_mbps", *EBASE_RATES, *EBASE_GOODPUTS]
    return _agree(_side_by_side(ns2, ours, EBASE_KEY, metrics), base.CORE_MBPS, EBASE_RATES, EBASE_GOODPUTS)


def compare_ws5(ns2: pd.DataFrame, workers: int | None = None, extra: tuple = ()) -> pd.DataFrame:
    """ns-2's W-s5 rows against pacesim's, run with the overrides `extra`."""
    ours = _run_all(partial(simulate_ws5, extra=extra), ns2[WS5_KEY + ["seed"]].to_dict("records"), workers)
    metrics = ["aggregate_mbps", *WS5_RATES, *WS5_GOODPUTS]
    t = _side_by_side(ns2, ours, WS5_KEY, metrics)
    return _agree(t, t.rate_mbps, WS5_RATES, WS5_GOODPUTS)


def load(name: str) -> pd.DataFrame:
    return pd.read_csv(RESULTS / name)
