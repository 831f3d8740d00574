"""pacesim with Wei's pacer against ns-2 2.35 built with Wei's pacing patch (bench/ns2/wei/build.sh), from
the committed ns-2 outputs in bench/ns2/wei/results/ (run_wei.py; ns-2 is not needed here). pacesim runs every
point with `pacing.host_pacer = "wei"` and `tcp.window_cut = "flight"` (`WEI`): the whole patched binary cuts
windows from packets in flight, its unpaced runs and flows too. E-base and W-s5 go through ns2_paced_host's
comparisons with `WEI` added; here are W-s6, W-s3, W-s4 (`compare_w_dumbbell`), W-s1 (`compare_ws1`), the
buffers that decide paper E's host-paced verdicts on their figures' setups (`compare_decide`), and the W
dumbbell without cross traffic that bench/ns2/wei/trace_wdumbbell.py traces (`trace_scenario`).

Each side is averaged over the seeds both ran and held to ns2_ebase's tolerances: throughput within 3 % of
the link rate, loss-like rates within 20 % (relative) where ns-2's exceeds 0.5 %, goodputs (and W-s1's
latencies, a goodput's inverse) within 5 %. bench/ns2/wei/compare_pacesim.py compares every row and prints
the tables; tests/test_fidelity_ns2_wei.py compares a few.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import pacesim
import pacesim.sweep

from . import ns2_paced_host as fidelity
from .ns2_paced_host import base

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "ns2" / "wei" / "results"

WEI = ("pacing.host_pacer=wei", "tcp.window_cut=flight")
"""pacesim as the patched binary: Wei's pacer, and window cuts from packets in flight in every agent."""
W_DUMBBELL = ROOT / "scenarios" / "w-dumbbell.toml"
W_S1 = ROOT / "scenarios" / "W-s1.toml"
WS1_PACKETS = 725  # paper W's 1 MB, in 1460 B segments
WS6_KEY = ["variant", "mode", "fraction", "flows", "rate_mbps", "core_delay_ms", "buffer_bytes", "packet_bytes",
           "duration_s", "warmup_s", "cross_mbps"]


NO_ROWS = pd.DataFrame({"ok": []})
"""The table of a grid ns-2 has not run yet."""


def load(name: str) -> pd.DataFrame:
    path = RESULTS / name
    return pd.read_csv(path) if path.exists() else pd.DataFrame()


def w_dumbbell_scenario(p: dict) -> pacesim.Scenario:
    """ws5.tcl's network as `p` sets it (W-s6, W-s3 or W-s4, with cross traffic where `cross_mbps` > 0): 5 Reno
    flows, the share `fraction` of them paced (default 1) if `mode` is not "none", as the patched ns-2 runs them."""
    pacing = (["pacing.scheme=none"] if p["mode"] == "none" else
              ["pacing.scheme=host", f"pacing.fraction={p.get('fraction', 1.0)}", f"pacing.host_mode={p['mode']}"])
    cross = ([f'traffic.udp=[{{kind = "onoff", rate = "{p["cross_mbps"]}Mbps", size = "210B", on = "500ms", '
              'off = "500ms", from = "x-src", to = "x-dst"}]'] if p["cross_mbps"] > 0 else [])
    return pacesim.apply_overrides(pacesim.load_scenario(W_DUMBBELL), [
        f"topology.flows={p['flows']}", f"core.rate={p['rate_mbps']}Mbps", f"core.delay={p['core_delay_ms']}ms",
        f"core.buffer={p['buffer_bytes']}B", f"tcp.segment_size={p['packet_bytes'] - 40}B", "tcp.window=100000",
        "tcp.variant=reno", f"duration={p['duration_s']}s", f"warmup={p['warmup_s']}s",
        'traffic.start=["0s", "120ms"]', f"seed={p['seed']}", *pacing, *WEI, *cross])


def simulate_w_dumbbell(p: dict) -> dict:
    """`w_dumbbell_scenario(p)` run: the core's throughput (W-s4, no cross traffic: TCP's), the slowest and
    fastest flow's goodput (and the slowest paced one's), the sum of all."""
    s = w_dumbbell_scenario(p)
    r = pacesim.run(s)
    f = r.flows
    paced = f[f.paced.astype(bool)].goodput_kbps
    return {**p, "aggregate_mbps": r.summary["aggregate_mbps"], "core_loss": r.summary["core_loss_rate"],
            "goodput_kbps_min": f.goodput_kbps.min(),
            "goodput_kbps_max": f.goodput_kbps.max(), "goodput_kbps_min_paced": paced.min() if len(paced) else None,
            "goodput_mbps_sum": f.goodput_kbps.sum() / 1000}


def simulate_ws1(p: dict) -> dict:
    """W-s1 (scenarios/W-s1.toml) at seed `seed`, unpaced or every flow paced: each flow's latency to its
    first 725 packets, from its progress every millisecond."""
    sweep = pacesim.sweep.load_sweep(W_S1)
    scheme = "none" if p["mode"] == "none" else "host"
    s = pacesim.apply_overrides(sweep.base, [*sweep.set, f"pacing.scheme={scheme}", f"seed={p['seed']}",
                                             f"duration={p['duration_s']}s", *WEI], sweep.root)
    r = pacesim.run(s)
    prog = r.progress
    done = prog[prog.bytes >= WS1_PACKETS * 1460].groupby("flow").t_s.min().sort_values().to_list()
    return {**p, "latency_min_s": done[0], "latency_median_s": done[len(done) // 2], "latency_max_s": done[-1],
            "core_loss": r.summary["core_loss_rate"]}


def _agree_relative(t: pd.DataFrame, goodputs: list[str], rates: list[str]) -> pd.DataFrame:
    """Goodput-like columns within 5 % where ns-2 has one, loss-like ones within 20 % above the floor."""
    for m in goodputs:
        present = t[f"{m}_ns2"].notna()
        t[f"ok_{m}"] = ~present | ((t[f"{m}_pacesim"] / t[f"{m}_ns2"] - 1).abs() <= base.TOL_GOODPUT)
    for m in rates:
        rel = (t[f"{m}_pacesim"] / t[f"{m}_ns2"] - 1).abs()
        t[f"ok_{m}"] = (t[f"{m}_ns2"] <= base.LOSS_FLOOR) | (rel <= base.TOL_LOSS)
    t["ok"] = t[[c for c in t.columns if c.startswith("ok_")]].all(axis=1)
    return t


def compare_w_dumbbell(ns2: pd.DataFrame, workers: int | None) -> pd.DataFrame:
    """W-s6, W-s3 or W-s4 rows: goodputs within 5 %, the sum and the core's throughput within 3 % of the link,
    core loss."""
    if ns2.empty:
        return NO_ROWS
    key = [k for k in WS6_KEY if k in ns2.columns]
    ours = fidelity._run_all(simulate_w_dumbbell, ns2[key + ["seed"]].to_dict("records"), workers)
    goodputs = [c for c in ("goodput_kbps_min", "goodput_kbps_max", "goodput_kbps_min_paced") if c in ns2.columns]
    sums = [c for c in ("aggregate_mbps", "goodput_mbps_sum") if c in ns2.columns]
    t = fidelity._side_by_side(ns2, ours, key, [*goodputs, *sums, "core_loss"])
    for m in sums:
        t[f"ok_{m}"] = (t[f"{m}_pacesim"] - t[f"{m}_ns2"]).abs() <= base.TOL_THROUGHPUT * t.rate_mbps
    return _agree_relative(t, goodputs, ["core_loss"])


# run_wei.py's DECIDE_E on pacesim's side: claim -> its figure's sweep, whose `set` gives the figure's setup, and
# the window where ns-2's run sets window_ (the others run ebase_host.tcl's 1000, as simulate_ebase); the TCP is the
# row's ns-2 agent. WEI last: the patched binary cuts from flight.
DECIDE_E = {"E-fig3.3": ("E-fig3", ()), "E-fig5.7": ("E-fig5", ()), "E-fig7.1": ("E-fig7", ()),
            "E-fig8.1": ("E-fig8", ("tcp.window=20",)), "E-fig9.2": ("E-fig9", ())}


def compare_decide(ns2: pd.DataFrame, workers: int | None) -> pd.DataFrame:
    """results/decide-e.csv's rows (SACK's: sack1-paced/decide-e.csv), each claim's on its figure's setup."""
    parts = []
    for (claim, variant), rows in ns2.groupby(["claim", "variant"]):
        figure, window = DECIDE_E[claim]
        sweep = pacesim.sweep.load_sweep(ROOT / "scenarios" / f"{figure}.toml")
        extra = (*sweep.set, f"tcp.variant={fidelity.VARIANTS[variant]}", *window, *WEI)
        t = fidelity.compare_ebase(rows.drop(columns=["claim", "variant"]), workers, extra)
        parts.append(t.assign(claim=claim, variant=variant))
    return pd.concat(parts, ignore_index=True) if parts else NO_ROWS


WS1_LATENCIES = ["latency_min_s", "latency_median_s", "latency_max_s"]


def compare_ws1(ns2: pd.DataFrame, workers: int | None) -> pd.DataFrame:
    """W-s1 rows: the fastest, median and slowest flow's latency within 5 % (means over the seeds), core
    loss; and a last row with the slowest-flow ratio unpaced / paced (the claim W-s1.1)."""
    if ns2.empty:
        return NO_ROWS
    key = ["mode", "duration_s"]
    ours = fidelity._run_all(simulate_ws1, ns2[key + ["seed"]].to_dict("records"), workers)
    t = fidelity._side_by_side(ns2, ours, key, [*WS1_LATENCIES, "core_loss"])
    t = _agree_relative(t, WS1_LATENCIES, ["core_loss"])
    slowest = t.set_index("mode")
    ratio = {side: slowest.at["none", f"latency_max_s_{side}"] / slowest.at["original", f"latency_max_s_{side}"]
             for side in ("ns2", "pacesim")}
    row = {"mode": "unpaced / paced", "latency_max_s_ns2": ratio["ns2"], "latency_max_s_pacesim": ratio["pacesim"]}
    row["ok"] = abs(ratio["pacesim"] / ratio["ns2"] - 1) <= base.TOL_GOODPUT
    return pd.concat([t, pd.DataFrame([row])], ignore_index=True)


# bench/ns2/wei/trace_wdumbbell.py's setups, without cross traffic: flows, TCP (pacesim, ns-2 agent, ns-2
# sink), core delay, access delay (s), core buffer (B), the start-time range, the share of flows paced.
TRACE_SETUPS = {
    "ws6": (5, ("reno", "Reno", "Agent/TCPSink"), "4ms", 0.001, 30_000, '["0s", "120ms"]', 0.5),
    "ws1": (16, ("sack", "Sack1", "Agent/TCPSink/Sack1"), "1.05ms", 0.0001, 375_000, '["0s", "0.5ms"]', 1.0),
}


def trace_scenario(setup: str, mode: str, flows: int, duration: float, tick: str, buffer: int):
    """The w-dumbbell as `setup` without cross traffic: `flows` flows, its share paced with `mode`,
    `duration` s, `buffer` bytes at the core, Wei's pacer and cuts from flight (the patched build)."""
    _, (variant, _, _), core_delay, access_delay, _, starts, share = TRACE_SETUPS[setup]
    pacing = (["pacing.scheme=none"] if mode == "none" else
              ["pacing.scheme=host", f"pacing.fraction={share}", f"pacing.host_mode={mode}"])
    return pacesim.apply_overrides(pacesim.load_scenario(W_DUMBBELL), [
        f"topology.flows={flows}", f"topology.access_delay={access_delay * 1e3}ms", "core.rate=1000Mbps",
        f"core.delay={core_delay}", f"core.buffer={buffer}B", "tcp.segment_size=1460B", "tcp.window=100000",
        f"tcp.variant={variant}", f"tcp.tick={tick}", f"duration={duration}s", "warmup=0s",
        f"traffic.start={starts}", "seed=1", *pacing, "pacing.host_pacer=wei", "tcp.window_cut=flight"])
