"""Every analytical model of the papers, by experiment id (docs/experiments.md).

`MODELS[id].build(params)` computes the numbers (pandas tables), the curves
to draw (`plot.Curves`) and a few headline facts; `render` writes them as `<id>.csv` (one
file per table, `<id>-<table>.csv` when there are several), `<id>.png` and
`<id>.svg`, with simulated points as markers where given (`overlays`: a CSV,
a reproduction's points CSV, or a packet-level run with `simulate`) and how
far they lie from the model among the facts. Parameters default to the papers' values; `--set key=value` on
the command line overrides them (lists as comma-separated numbers).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from math import gcd
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from .. import plot
from ..fields import ScenarioError, read_bounded
from ..plot import Curves, Series, draw_points
from . import bulk_chain, effective_buffer, md1, overlays, pacer, qlbp, sync_loss

Params = Dict[str, object]


@dataclass
class Output:
    """What a model computes: named tables, the panels drawn from them, headline facts."""

    tables: Dict[str, pd.DataFrame]
    panels: List[Curves]
    facts: Dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Model:
    """An experiment id with its paper reference, default parameters and builder."""

    id: str
    title: str
    source: str
    defaults: Params
    build: Callable[[Params], Output]


MODELS: Dict[str, Model] = {}


def _model(id: str, title: str, source: str, **defaults):
    def register(fn: Callable[[Params], Output]) -> Callable[[Params], Output]:
        MODELS[id] = Model(id, title, source, defaults, fn)
        return fn

    return register


MAX_POINTS = 10_000
"""The most points a model's grid may have (the papers' grids have at most 401): past it a parameter asks for
work no figure needs."""


def _grid(lo: float, hi: float, step: float, names: str = "") -> np.ndarray:
    """lo, lo + step, ..., hi (rounded to 10 decimals); a ValueError naming `names`, the parameters that set
    the grid (none for a fixed grid), when it has fewer than two points or more than `MAX_POINTS`."""
    n = (hi - lo) / step + 1
    if not n >= 2:
        raise ValueError(f"{names}: the grid would end at {hi:g}, less than a step ({step:g}) past its start {lo:g}")
    if n > MAX_POINTS:
        raise ValueError(f"{names}: {n:,.0f} grid points from {lo:g} to {hi:g} in steps of {step:g}; "
                         f"at most {MAX_POINTS:,}")
    return np.round(np.arange(lo, hi + step / 2, step), 10)


def _tag(v: float) -> str:
    return f"{v:g}"


def _trend(x: np.ndarray, y: np.ndarray) -> str:
    dy = np.diff(y)
    if np.all(dy > 0):
        return "rising"
    if np.all(dy < 0):
        return "falling"
    i = int(np.argmin(y))
    return f"falls to a minimum at {x[i]:g}, then rises" if 0 < i < len(y) - 1 else "non-monotone"


def _minimum_then_peak(x: np.ndarray, y: np.ndarray, window: Tuple[float, float]) -> str:
    """Where y is lowest within `window`, and the highest point after it (anywhere)."""
    inside = (x >= window[0]) & (x <= window[1])
    i = np.flatnonzero(inside)[int(np.argmin(y[inside]))]
    if i == np.flatnonzero(inside)[-1]:
        return f"no minimum inside {window[0]:g}-{window[1]:g} KB: lowest at its end, {y[i]:.3g} at {x[i]:g} KB"
    j = i + int(np.argmax(y[i:]))
    return f"minimum {y[i]:.3g} at {x[i]:g} KB, rising to {y[j]:.3g} at {x[j]:g} KB ({y[j] / y[i]:.2f}x)"


# ---------------------------------------------------------------- paper E


@_model(
    "e-model",
    "Edge pacer analysis: burstiness, loss bound, load model, throughput",
    "E Sec. 4, eqs. (1)-(4); load model from A eq. (1)",
    loads=(0.5, 0.9, 0.99),
    slot_ms=1.0,
    rtt0_ms=200.0,
    d_max_ms=100.0,
    bstar_kb=float(5.0 / np.log(10.0)),
    bstars_kb=(2.0, 5.0, 7.0, 10.0),
    buffers_kb=(5.0, 10.0, 50.0),
    empty_csv="",
)
def _e_model(p: Params) -> Output:
    """E-model. The default B* = 5/ln 10 ≈ 2.17 KB is the one for which
    ρ(5 KB) = 0.9, the load E Sec. 4 quotes for a 5 KB buffer; `empty_csv`
    (columns buffer_kb, empty_prob, e.g. from a sweep of the engine's
    summary.core_empty_prob) replaces it by a least-squares fit."""
    facts: Dict[str, str] = {}
    bstar = float(p["bstar_kb"])
    if p["empty_csv"]:
        sim = read_csv(Path(str(p["empty_csv"])), "empty_csv")
        fit = pacer.fit_bstar(sim["buffer_kb"], sim["empty_prob"])
        bstar = fit.bstar
        facts["B* fit"] = f"{fit.bstar:.3g} KB from {p['empty_csv']} (intercept {fit.intercept:.3g}, R² {fit.r_squared:.4f})"
    else:
        facts["B*"] = f"{bstar:.4g} KB, ρ(5 KB) = {float(pacer.load_from_buffer(5.0, bstar)):.4g}"
    slot, rtt0 = float(p["slot_ms"]), float(p["rtt0_ms"])
    d = _grid(0.0, float(p["d_max_ms"]), 0.5, "d_max_ms")
    dpos = d[1:]
    pace = pd.DataFrame({"d_ms": dpos})
    for lam in p["loads"]:
        pace[f"beta_{_tag(lam)}"] = pacer.burstiness(lam, dpos, slot)
        pace[f"loss_bound_{_tag(lam)}"] = pacer.loss_bound(lam, dpos, slot)
    b = _grid(0.0, 50.0, 0.25)
    load = pd.DataFrame({"buffer_kb": b})
    bstars = tuple(dict.fromkeys(tuple(p["bstars_kb"]) + (bstar,)))
    for bs in bstars:
        load[f"rho_{_tag(bs)}"] = pacer.load_from_buffer(b, bs)
    thr = pd.DataFrame({"d_ms": d})
    for buf in p["buffers_kb"]:
        rho = float(pacer.load_from_buffer(buf, bstar))
        t = pacer.throughput_measure(d, rho, rtt0, slot)
        thr[f"T_{_tag(buf)}kb"] = t / t[0]
        facts[f"T(d) at {buf:g} KB"] = f"ρ = {rho:.6f}: {_trend(d, t)}, T(d_max)/T(0) = {t[-1] / t[0]:.3g}"
    for name, s in (("ms", 1.0), ("packet times (0.08 ms)", 0.08), ("seconds", 1000.0)):
        r = pacer.load_regimes(rtt0, float(p["d_max_ms"]), s)
        facts[f"eq. 4 with d in {name}"] = f"rises for ρ ≤ {r.rising_below:.4g}, falls for ρ ≥ {r.falling_above:.4g}"
    loads = tuple(p["loads"])
    panels = [
        Curves("pacer", "d_ms", "pacer delay bound d (ms)", "burstiness β = 1/√(2λd)",
              tuple(Series(f"beta_{_tag(l)}", f"λ = {l:g}") for l in loads), "(a) burstiness, eq. 2", logy=True, logx=True),
        Curves("pacer", "d_ms", "pacer delay bound d (ms)", "loss bound (λe^(1-λ))^(2d)",
              tuple(Series(f"loss_bound_{_tag(l)}", f"λ = {l:g}") for l in loads), "(b) loss bound, eq. 3", loss=True),
        Curves("load", "buffer_kb", "bottleneck buffer B (KB)", "offered load ρ = 1 - e^(-B/B*)",
              tuple(Series(f"rho_{_tag(bs)}", f"B* = {bs:.3g} KB", "-" if bs == bstar else "--")
                    for bs in bstars), "(c) load model"),
        Curves("throughput", "d_ms", "pacer delay bound d (ms)", "T(d)/T(0), eq. 4",
              tuple(Series(f"T_{_tag(bf)}kb", f"B = {bf:g} KB") for bf in p["buffers_kb"]),
              f"(d) throughput, RTT0 = {rtt0:g} ms, B* = {bstar:.3g} KB"),
    ]
    return Output({"pacer": pace, "load": load, "throughput": thr}, panels, facts)


@_model(
    "e-fig10",
    "Throughput measure against pacer delay: light and heavy load",
    "E Sec. 4, eq. (4), Fig. 10",
    light_load=0.9,
    heavy_load=0.999,
    rtt0_ms=200.0,
    d_max_ms=100.0,
    slot_ms=1.0,
)
def _e_fig10(p: Params) -> Output:
    """E-fig10: eq. 4 at the loads E Sec. 4 quotes for 5 KB (ρ ≈ 0.9) and 50 KB
    (ρ ≈ 0.999) buffers, d and RTT0 in ms (see `pacer` on the units)."""
    d = _grid(0.0, float(p["d_max_ms"]), 0.5, "d_max_ms")
    rtt0, slot = float(p["rtt0_ms"]), float(p["slot_ms"])
    table = pd.DataFrame({"d_ms": d})
    facts = {}
    for name in ("light", "heavy"):
        lam = float(p[f"{name}_load"])
        t = pacer.throughput_measure(d, lam, rtt0, slot)
        table[f"T_{name}"] = t / t[0]
        facts[f"{name} load λ = {lam:g}"] = f"{_trend(d, t)}, T(d_max)/T(0) = {t[-1] / t[0]:.4g}"
    r = pacer.load_regimes(rtt0, float(p["d_max_ms"]), slot)
    facts["regimes"] = f"rising over the whole range for λ ≤ {r.rising_below:.4g}, falling for λ ≥ {r.falling_above:.4g}"
    facts["units"] = f"d and RTT0 in ms; the exponent counts d in units of {slot:g} ms"
    panels = [
        Curves("curve", "d_ms", "pacer delay d (ms)", "throughput measure T(d)/T(0)",
              (Series("T_light", f"λ = {float(p['light_load']):g}"),), "(a) low load (small buffer)"),
        Curves("curve", "d_ms", "pacer delay d (ms)", "throughput measure T(d)/T(0)",
              (Series("T_heavy", f"λ = {float(p['heavy_load']):g}"),), "(b) high load (large buffer)"),
    ]
    return Output({"curve": table}, panels, facts)


# ---------------------------------------------------------------- paper A


def _effective(f: float, bstar: float, b: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({
        "buffer_kb": b,
        "fair_share_kb": effective_buffer.fair_share(b, f),
        "time_share_kb": effective_buffer.time_share(b, f, bstar),
        "effective_kb": effective_buffer.effective_buffer(b, f, bstar),
    })


def _effective_panel(table: str, f: float, title: str) -> Curves:
    return Curves(table, "buffer_kb", "buffer size B (KB)", "effective buffer for UDP (KB)",
                 (Series("effective_kb", r"total $B_{udp}$"), Series("fair_share_kb", "fair share fB", "--"),
                  Series("time_share_kb", "time share (1-f)Be^(-B/B*)", ":")), title)


def _region_fact(f: float, bstar: float) -> str:
    reg = effective_buffer.anomalous_region(f, bstar)
    if reg is None:
        return f"none: B_udp rises monotonically (f ≥ {effective_buffer.anomaly_threshold():.4f})"
    return f"B_udp falls from {reg[0]:.2f} KB (local max) to {reg[1]:.2f} KB (local min)"


@_model("a-fig6", "Effective buffers for UDP", "A Sec. III, eq. (2), Fig. 6", f=0.05, bstar_kb=7.0, max_kb=50.0)
def _a_fig6(p: Params) -> Output:
    f, bstar = float(p["f"]), float(p["bstar_kb"])
    t = _effective(f, bstar, _grid(0.0, float(p["max_kb"]), 0.1, "max_kb"))
    facts = {
        "time share peak": f"at B = B* = {bstar:g} KB",
        "anomalous region": _region_fact(f, bstar),
    }
    return Output({"buffers": t}, [_effective_panel("buffers", f, f"f = {f:g}, B* = {bstar:g} KB")], facts)


@_model("a-fig16", "Effective buffers at low and high UDP share", "A Sec. V-B, eq. (2), Fig. 16",
        fractions=(0.1, 0.8), bstar_kb=7.0, max_kb=50.0)
def _a_fig16(p: Params) -> Output:
    bstar = float(p["bstar_kb"])
    b = _grid(0.0, float(p["max_kb"]), 0.1, "max_kb")
    tables, panels, facts = {}, [], {}
    for i, f in enumerate(p["fractions"]):
        name = f"f{_tag(f)}"
        tables[name] = _effective(f, bstar, b)
        panels.append(_effective_panel(name, f, f"({chr(97 + i)}) f = {f:g} ({f:.0%} UDP)"))
        facts[f"f = {f:g}"] = _region_fact(f, bstar)
        straight = np.polyfit(b, tables[name]["effective_kb"], 1)
        resid = tables[name]["effective_kb"] - np.polyval(straight, b)
        facts[f"f = {f:g} straightness"] = f"max deviation from a line {np.abs(resid).max():.3g} KB"
    facts["threshold"] = f"an anomalous region exists iff f < 1/(1+e²) = {effective_buffer.anomaly_threshold():.4f}"
    return Output(tables, panels, facts)


def _chain_table(buffers: np.ndarray, bstar: float, udp_size: int, tcp_size: int, lam_udp: float) -> pd.DataFrame:
    res = bulk_chain.sweep(buffers, bstar, udp_size, tcp_size, lam_udp)
    return pd.DataFrame({
        "buffer_kb": buffers,
        "udp_loss": [r.udp_loss for r in res],
        "tcp_offered": [r.tcp_offered for r in res],
        "tcp_throughput": [r.tcp_throughput for r in res],
    })


@_model("a-fig10", "M/M/1/B chain with bulk TCP arrivals: UDP loss and TCP rate",
        "A Sec. IV, eqs. (3)-(9), Fig. 10", bstar_kb=7.0, udp_size=200, tcp_size=1000,
        lam_udp=bulk_chain.LAMBDA_UDP, max_kb=50.0, step_kb=1.0)
def _a_fig10(p: Params) -> Output:
    b = _grid(1.0, float(p["max_kb"]), float(p["step_kb"]), "max_kb, step_kb")
    t = _chain_table(b, float(p["bstar_kb"]), int(p["udp_size"]), int(p["tcp_size"]), float(p["lam_udp"]))
    facts = {
        "UDP loss": _minimum_then_peak(b, t["udp_loss"].to_numpy(), (1.0, 30.0)),
        "TCP": f"carried {t['tcp_throughput'].iloc[-1]:.4f} of the link at {b[-1]:g} KB (offered {t['tcp_offered'].iloc[-1]:.4f})",
    }
    panels = [
        Curves("chain", "buffer_kb", "buffer size (KB)", "UDP packet loss",
              (Series("udp_loss", "UDP loss (M/M/1/B)"),), "(a) UDP loss", loss=True),
        Curves("chain", "buffer_kb", "buffer size (KB)", "TCP rate (fraction of link)",
              (Series("tcp_offered", "offered, eq. 3 × bulk", "--"), Series("tcp_throughput", "carried by the chain")),
              "(b) TCP"),
    ]
    return Output({"chain": t}, panels, facts)


def _bstar_sweep(p: Params) -> pd.DataFrame:
    b = _grid(1.0, float(p["max_kb"]), float(p["step_kb"]), "max_kb, step_kb")
    t = pd.DataFrame({"buffer_kb": b})
    for bs in p["bstars_kb"]:
        c = _chain_table(b, bs, 200, 1000, bulk_chain.LAMBDA_UDP)
        t[f"tcp_throughput_{_tag(bs)}"] = c["tcp_throughput"]
        t[f"udp_loss_{_tag(bs)}"] = c["udp_loss"]
    return t


@_model("a-fig18", "M/M/1/B: TCP throughput for B* from 1 to 14 KB", "A Sec. VI, eq. (3), Fig. 18",
        bstars_kb=(1.0, 4.0, 7.0, 10.0, 14.0), max_kb=50.0, step_kb=1.0)
def _a_fig18(p: Params) -> Output:
    t = _bstar_sweep(p)
    facts = {}
    sat = bulk_chain.TCP_SATURATION
    for bs in p["bstars_kb"]:
        y = t[f"tcp_throughput_{_tag(bs)}"].to_numpy()
        reach = t["buffer_kb"][y >= 0.95 * sat]
        facts[f"B* = {bs:g} KB"] = (f"95% of saturation ({0.95 * sat:.3f}) from {reach.iloc[0]:g} KB"
                                   if len(reach) else "never reaches 95% of saturation")
    panel = Curves("sweep", "buffer_kb", "buffer size (KB)", "TCP throughput (fraction of link)",
                  tuple(Series(f"tcp_throughput_{_tag(bs)}", f"B* = {bs:g} KB") for bs in p["bstars_kb"]),
                  "TCP throughput from the M/M/1/B chain")
    return Output({"sweep": t}, [panel], facts)


@_model("a-fig19", "M/M/1/B: UDP loss for B* from 1 to 14 KB", "A Sec. VI, eqs. (3)-(9), Fig. 19",
        bstars_kb=(1.0, 4.0, 7.0, 10.0, 14.0), max_kb=50.0, step_kb=1.0)
def _a_fig19(p: Params) -> Output:
    t = _bstar_sweep(p)
    b = t["buffer_kb"].to_numpy()
    facts = {f"B* = {bs:g} KB": _minimum_then_peak(b, t[f"udp_loss_{_tag(bs)}"].to_numpy(), (1.0, 30.0))
             for bs in p["bstars_kb"]}
    panel = Curves("sweep", "buffer_kb", "buffer size (KB)", "UDP packet loss",
                  tuple(Series(f"udp_loss_{_tag(bs)}", f"B* = {bs:g} KB") for bs in p["bstars_kb"]),
                  "UDP loss from the M/M/1/B chain", loss=True)
    return Output({"sweep": t}, [panel], facts)


@_model("a-fig22", "M/M/1/B with bulk size = TCP/UDP packet size ratio", "A Sec. VII, Fig. 22",
        ratios=(25, 10, 5, 2, 1), tcp_size=1000, bstar_kb=7.0, max_kb=50.0)
def _a_fig22(p: Params) -> Output:
    b = _grid(1.0, float(p["max_kb"]), 1.0, "max_kb")
    t = pd.DataFrame({"buffer_kb": b})
    facts = {}
    tcp = int(p["tcp_size"])
    for k in p["ratios"]:
        k = int(k)
        c = _chain_table(b, float(p["bstar_kb"]), tcp // k, tcp, bulk_chain.LAMBDA_UDP)
        t[f"udp_loss_ratio{k}"] = c["udp_loss"]
        facts[f"ratio {k} (UDP {tcp // k} B)"] = _minimum_then_peak(b, c["udp_loss"].to_numpy(), (1.0, 30.0))
    panel = Curves("sweep", "buffer_kb", "buffer size (KB)", "UDP packet loss",
                  tuple(Series(f"udp_loss_ratio{int(k)}", f"ratio {int(k)} (UDP {tcp // int(k)} B)") for k in p["ratios"]),
                  "UDP loss, bulk size = TCP/UDP size ratio", loss=True)
    return Output({"sweep": t}, [panel], facts)


@_model("a-md1", "M/D/1/B with bimodal packet sizes (1000 B TCP, 200 B UDP)", "A Sec. IV-A (derived here)",
        bstar_kb=7.0, udp_size=200, tcp_size=1000, max_kb=40.0, step_kb=1.0, grid=32, erlang_phases=(1, 4))
def _a_md1(p: Params) -> Output:
    b = _grid(1.0, float(p["max_kb"]), float(p["step_kb"]), "max_kb, step_kb")
    udp, tcp, bstar = int(p["udp_size"]), int(p["tcp_size"]), float(p["bstar_kb"])
    res = md1.sweep(b, bstar, udp, tcp, grid=int(p["grid"]))
    t = pd.DataFrame({
        "buffer_kb": b,
        "udp_loss_md1": [r.udp_loss for r in res],
        "tcp_throughput_md1": [r.tcp_throughput for r in res],
    })
    facts = {"M/D/1/B UDP loss": _minimum_then_peak(b, t["udp_loss_md1"].to_numpy(), (1.0, 30.0))}
    series = [Series("udp_loss_md1", "M/D/1/B (deterministic service)")]
    for m in p["erlang_phases"]:
        m = int(m)
        col = f"udp_loss_erlang{m}"
        t[col] = [md1.erlang_losses(int(round(x * 1000)), bulk_chain.LAMBDA_UDP, float(md1.tcp_load(x, bstar)), m, udp, tcp)[0]
                  for x in b]
        label = "M/M/1/B chain (Erlang 1)" if m == 1 else f"Erlang-{m} service per 200 B"
        series.append(Series(col, label, "--"))
        facts[f"Erlang {m} UDP loss"] = _minimum_then_peak(b, t[col].to_numpy(), (1.0, 30.0))
    panels = [
        Curves("sweep", "buffer_kb", "buffer size (KB)", "UDP packet loss", tuple(series),
              "(a) UDP loss: exponential to deterministic service", loss=True),
        Curves("sweep", "buffer_kb", "buffer size (KB)", "TCP throughput (fraction of link)",
              (Series("tcp_throughput_md1", "M/D/1/B"),), "(b) TCP carried"),
    ]
    return Output({"sweep": t}, panels, facts)


# ---------------------------------------------------------------- paper Q


@_model("q-thm1", "QLBP steady-state pacing delay against input rate", "Q Sec. III-A, Theorem 1, App. A",
        mu_max_mbps=10.0, mu_min_mbps=2.0, q_max_pkts=10.0, link_mbps=15.0, packet_bytes=1000, max_rate_mbps=16.0)
def _q_thm1(p: Params) -> Output:
    pkt_mb = int(p["packet_bytes"]) * 8e-6
    mu_max, mu_min, link = float(p["mu_max_mbps"]), float(p["mu_min_mbps"]), float(p["link_mbps"])
    q_max = float(p["q_max_pkts"]) * pkt_mb
    lam = _grid(0.0, float(p["max_rate_mbps"]), 0.05, "max_rate_mbps")
    queue = qlbp.steady_queue(lam, mu_max, mu_min, q_max, link) / pkt_mb
    t = pd.DataFrame({
        "rate_mbps": lam,
        "delay_ms": qlbp.pacing_delay(lam, mu_max, mu_min, q_max, link) * 1000.0,
        "queue_pkts": np.where(np.isfinite(queue), queue, np.nan),  # above C the queue fills to Qlim
    })
    bound = qlbp.delay_bound(mu_max, q_max) * 1000.0
    i = int(np.argmax(t["delay_ms"]))
    facts = {
        "bound Qmax/μmax": f"{bound:.4g} ms",
        "largest delay": f"{t['delay_ms'][i]:.4g} ms at λ = {lam[i]:g} Mb/s",
        "α": f"{qlbp.response_constant(mu_max, mu_min, q_max):.4g} 1/s",
    }
    panels = [
        Curves("delay", "rate_mbps", "input rate λ (Mb/s)", "pacing delay (ms)",
              (Series("delay_ms", "steady-state pacing delay"),), "(a) delay", hlines=((bound, "bound Qmax/μmax"),)),
        Curves("delay", "rate_mbps", "input rate λ (Mb/s)", "pacing queue (packets)",
              (Series("queue_pkts", "steady-state queue"),), "(b) queue"),
    ]
    return Output({"delay": t}, panels, facts)


def _q_thm2_curves(p: Params) -> List[Tuple[float, str]]:
    """Q-thm2's paced curves: (Qmax in packets, column), the α = r1 + r2 one last."""
    r2, r1 = 1000.0 / float(p["on_ms"]), 1000.0 / float(p["off_ms"])
    critical_q = (float(p["mu_max_mbps"]) - float(p["mu_min_mbps"])) / (r1 + r2) / (int(p["packet_bytes"]) * 8e-6)
    return [(q, f"cov_paced_q{q:.4g}") for q in tuple(p["q_max_pkts"]) + (critical_q,)]


@_model("q-thm2", "Auto-covariance of a paced Markov ON-OFF source", "Q Sec. III-B, Theorem 2, eq. (6)",
        peak_mbps=2.0, on_ms=100.0, off_ms=200.0, mu_max_mbps=10.0, mu_min_mbps=0.01,
        q_max_pkts=(10.0, 20.0, 40.0, 80.0, 160.0), packet_bytes=1000, bin_ms=50.0, max_lag_s=0.5,
        sim_packet_bytes=25, sim_seconds=1800.0, sim_seed=1, sim_lag_step_ms=20.0)
def _q_thm2(p: Params) -> Output:
    """Q-thm2. The `sim_*` parameters are for `--simulate` (see `paced_onoff`)."""
    h = float(p["peak_mbps"])
    r2, r1 = 1000.0 / float(p["on_ms"]), 1000.0 / float(p["off_ms"])
    mu_max, mu_min = float(p["mu_max_mbps"]), float(p["mu_min_mbps"])
    pkt_mb = int(p["packet_bytes"]) * 8e-6

    def alpha(q: float) -> float:
        return qlbp.response_constant(mu_max, mu_min, q * pkt_mb)

    tau = _grid(0.0, float(p["max_lag_s"]), 0.002, "max_lag_s")
    cov = pd.DataFrame({"lag_s": tau, "cov_input": qlbp.onoff_autocov(tau, h, r1, r2)})
    series = [Series("cov_input", r"input $C_{\lambda\lambda}(\tau)$")]
    curves = _q_thm2_curves(p)
    critical_q = curves[-1][0]
    for q, col in curves:
        cov[col] = qlbp.paced_autocov(tau, h, r1, r2, alpha(q))
        series.append(Series(col, f"Qmax = {q:.4g} pkts" + (" (α = r1+r2)" if q == critical_q else ""),
                             ":" if q == critical_q else "-"))
    width = float(p["bin_ms"]) / 1000.0
    var_in = qlbp.binned_variance(lambda s: qlbp.onoff_autocov(s, h, r1, r2), width)
    if not var_in > 0:  # ON and OFF periods so short against the bin that its integral underflows
        raise ValueError(f"q-thm2: peak_mbps, on_ms, off_ms, bin_ms: the input's variance over {p['bin_ms']:g} ms bins is 0 to "
                         f"double precision; take longer ON/OFF periods or shorter bins")

    def cov_ratio(q: float) -> float:
        return float(np.sqrt(qlbp.binned_variance(lambda s: qlbp.paced_autocov(s, h, r1, r2, alpha(q)), width) / var_in))

    qs = _grid(5.0, 200.0, 5.0)
    ratio = pd.DataFrame({
        "q_max_pkts": qs,
        "cov_ratio": [cov_ratio(q) for q in qs],
        "std_ratio_instant": [np.sqrt(alpha(q) / (alpha(q) + r1 + r2)) for q in qs],
    })
    facts = {
        "input": f"mean {qlbp.onoff_mean(h, r1, r2):.4g} Mb/s, r1 = {r1:g}/s, r2 = {r2:g}/s, "
                 f"variance {h * h * r1 * r2 / (r1 + r2) ** 2:.4g} (Mb/s)²",
        "α = r1 + r2 at": f"Qmax = {critical_q:.4g} packets",
        f"CoV ratio, {p['bin_ms']:g} ms bins": ", ".join(f"Qmax {q:g}: {cov_ratio(q):.3f}" for q in p["q_max_pkts"]),
    }
    panels = [
        Curves("autocov", "lag_s", "lag τ (s)", "auto-covariance ((Mb/s)²)", tuple(series),
              "(a) input and paced auto-covariance, eq. 6"),
        Curves("cov_ratio", "q_max_pkts", "Qmax (packets)", "output / input",
              (Series("cov_ratio", f"CoV ratio, {p['bin_ms']:g} ms bins"),
               Series("std_ratio_instant", "std ratio, instantaneous rate", "--")),
              "(b) burstiness reduction (one pacer)"),
    ]
    return Output({"autocov": cov, "cov_ratio": ratio}, panels, facts)


# ---------------------------------------------------------------- paper W


@_model("w-fig8", "Synchronisation throughput loss against buffer size", "W Sec. III-C.1, Fig. 8",
        bdp_pkts=float(sync_loss.FIG8_BDP_PACKETS), points=41)
def _w_fig8(p: Params) -> Output:
    cd = float(p["bdp_pkts"])
    b = np.linspace(0.0, cd, int(p["points"]))
    t = pd.DataFrame({"buffer_pkts": b})
    t["reno_printed"] = 100 * sync_loss.reno_loss_printed(b, cd)
    t["reno_closed"] = 100 * sync_loss.reno_loss(b, cd)
    for a in sync_loss.ALGORITHMS:
        t[a] = 100 * sync_loss.sync_loss(a, b, cd)
    facts = {a: f"{t[a][0]:.2f}% at B = 0, {t[a][len(b) // 4]:.2f}% at B = {b[len(b) // 4]:.0f} pkts"
             for a in ("reno", "scalable", "bic", "fast")}
    facts["reno as printed"] = f"{t['reno_printed'][0]:.2f}% at B = 0, {t['reno_printed'].iloc[-1]:.2f}% at B = BDP (derivation gives 0)"
    panel = Curves("loss", "buffer_pkts", "buffer size (packets)", "throughput loss (%)",
                  (Series("reno", "Reno"), Series("reno_printed", "Reno, W's printed formula", "--"),
                   Series("scalable", "Scalable TCP"), Series("bic", "BIC-TCP"), Series("fast", "FAST")),
                  f"synchronised flows, BDP = {cd:g} packets")
    return Output({"loss": t}, [panel], facts)


@_model("w-conv", "Reno's convergence to fairness after unequal slow-start exits", "W Sec. III-B.1, eqs. (1)-(5)",
        capacity_mbps=100.0, rtt_ms=120.0, packet_bytes=1500, buffer_pkts=0.0, early=(0.1, 0.5, 0.9))
def _w_conv(p: Params) -> Output:
    r = _grid(0.0, 1.0, 0.0025)
    cd = sync_loss.bdp_packets(float(p["capacity_mbps"]) * 1e6, float(p["rtt_ms"]) / 1000.0, int(p["packet_bytes"]))
    buf = float(p["buffer_pkts"])
    epochs = pd.DataFrame({"early_fraction": r, "epochs": sync_loss.convergence_epochs(r),
                           "rtts": sync_loss.convergence_rtts(r, cd, buf)})
    k = np.arange(0, 7)
    win = pd.DataFrame({"epoch": k})
    for e in p["early"]:
        win[f"share_{_tag(e)}"] = sync_loss.window_after(k, e, cd, buf) / (cd + buf)
    facts = {
        "K range": f"{epochs['epochs'].min()}-{epochs['epochs'].max()} epochs",
        "one early flow of 16": f"K = {int(sync_loss.convergence_epochs(1 / 16))}, "
                                f"{float(sync_loss.convergence_rtts(1 / 16, cd, buf)):.0f} RTTs (cd = {cd:g} packets)",
    }
    panels = [
        Curves("epochs", "early_fraction", "fraction r of flows leaving slow start early", "epochs K to 95% of fair share",
              (Series("epochs", "K, eq. 5", "-"),), "(a) convergence epochs"),
        Curves("windows", "epoch", "congestion epoch k", "early flow's window / fair share",
              tuple(Series(f"share_{_tag(e)}", f"r = {e:g}", "-") for e in p["early"]), "(b) eq. 3",
              hlines=((0.95, "95% of fair share"),)),
    ]
    return Output({"epochs": epochs, "windows": win}, panels, facts)


# ---------------------------------------------------------------- parameters and output


@dataclass(frozen=True)
class Domain:
    """Where a parameter's value (each element, for a list) may lie: from `lo` to `hi`, either end left out
    when open; `whole` for counts."""

    lo: float
    hi: float
    open_lo: bool = False
    open_hi: bool = False
    whole: bool = False

    def refuses(self, v: float) -> Optional[str]:
        """Why `v` is outside the domain ("must be > 0"), or None."""
        if not np.isfinite(v):
            return "must be a finite number"
        if self.whole and v != int(v):
            return "must be a whole number"
        if v < self.lo or (self.open_lo and v == self.lo):
            return f"must be {'>' if self.open_lo else '>='} {self.lo:g}"
        if v > self.hi or (self.open_hi and v == self.hi):
            return f"must be {'<' if self.open_hi else '<='} {self.hi:g}"
        return None


def _positive(hi: float) -> Domain:
    return Domain(0.0, hi, open_lo=True)


def _count(lo: int, hi: float) -> Domain:
    return Domain(lo, hi, whole=True)


LOAD = Domain(0.0, 1.0, open_lo=True)
FRACTION = Domain(0.0, 1.0, open_lo=True, open_hi=True)
DOMAINS: Dict[str, Domain] = {
    "bdp_pkts": Domain(1.0, 1e7), "bin_ms": Domain(1e-3, 1e6), "bstar_kb": _positive(1e4),
    "bstars_kb": _positive(1e4), "buffer_pkts": Domain(0.0, 1e7), "buffers_kb": _positive(1e4),
    "capacity_mbps": _positive(1e6), "d_max_ms": _positive(1e6), "early": FRACTION, "erlang_phases": _count(1, 16),
    "f": FRACTION, "fractions": FRACTION, "grid": _count(2, 1024), "heavy_load": LOAD, "light_load": LOAD,
    "loads": LOAD, "lam_udp": Domain(0.0, 100.0), "link_mbps": _positive(1e6), "max_kb": _positive(1e6),
    "max_lag_s": _positive(1e6), "max_rate_mbps": _positive(1e6), "mu_max_mbps": _positive(1e6),
    "mu_min_mbps": _positive(1e6), "off_ms": Domain(1e-3, 1e9), "on_ms": Domain(1e-3, 1e9),
    "packet_bytes": _count(1, 1e6), "peak_mbps": Domain(1e-6, 1e6), "points": _count(1, MAX_POINTS),
    "q_max_pkts": Domain(1e-3, 1e7), "ratios": _count(1, 1e6), "rtt0_ms": _positive(1e6), "rtt_ms": _positive(1e6),
    "sim_lag_step_ms": _positive(1e6), "sim_packet_bytes": _count(1, 65535), "sim_seconds": _positive(1e6),
    "sim_seed": _count(0, 2**63 - 1), "slot_ms": _positive(1e6), "step_kb": _positive(1e6),
    "tcp_size": _count(1, 1e6), "udp_size": _count(1, 1e6),
}
"""Every numeric parameter's domain, by name (a name means the same in every model): each bound the
models' formulas need (a load in (0, 1], a rate, time or size above 0), and upper bounds far past any
paper's values that keep a model's work small (a chain of at most `MAX_STATES` states)."""

MAX_STATES = 500_000
"""The most chain states a model solves, summed over its buffers (each state of M/D/1's workload grid
counts as one): A-fig10's default 6,375, A-md1's 151,700 (2 s here), 125,000 took 3 s."""


MAX_ROUNDS = 10_000_000
"""The most round trips W-fig8 follows, buffers times the BDP in packets (W's 41 x 10,440: 428,040; 4.3
million took 9 s here)."""


def _states(lo: float, hi: float, step: float, per_kb: float) -> float:
    """States summed over the buffers lo, lo + step, ..., hi KB, `per_kb` states per KB of buffer."""
    n = np.floor((hi - lo) / step + 0.5) + 1
    return per_kb * (n * lo + step * n * (n - 1) / 2)


def _across(model_id: str, p: Params) -> Optional[Tuple[str, str]]:
    """The first rule across parameters of model `model_id` that `p` breaks, as (parameters, why), or None."""
    if "mu_min_mbps" in p and not p["mu_min_mbps"] < p["mu_max_mbps"]:
        return "mu_min_mbps", f"{p['mu_min_mbps']:g} must be below mu_max_mbps ({p['mu_max_mbps']:g})"
    states = None
    if model_id == "a-fig10":  # the bulk chain: a TCP packet is a bulk of UDP packets (bulk_chain.solve)
        if p["tcp_size"] % p["udp_size"]:
            return "udp_size", f"{p['udp_size']} B must divide tcp_size ({p['tcp_size']} B): a TCP packet is a bulk of UDP packets"
        names, states = "max_kb, step_kb, udp_size", _states(1.0, p["max_kb"], p["step_kb"], 1000 / p["udp_size"])
    if model_id == "a-fig22":
        for k in p["ratios"]:
            if p["tcp_size"] % k:
                return "ratios", f"{k:g} must divide tcp_size ({p['tcp_size']} B): the UDP size is tcp_size / ratio"
        names, states = "max_kb, ratios", sum(_states(1.0, p["max_kb"], 1.0, 1000 / (p["tcp_size"] // k)) for k in p["ratios"])
    if model_id in ("a-fig18", "a-fig19"):  # A's 200 B UDP and 1000 B TCP packets, a chain for each B*
        names = "max_kb, step_kb, bstars_kb"
        states = len(p["bstars_kb"]) * _states(1.0, p["max_kb"], p["step_kb"], 1000 / 200)
    if model_id == "w-fig8" and p["points"] * p["bdp_pkts"] > MAX_ROUNDS:
        return "points, bdp_pkts", (f"{p['points']} buffers of a {p['bdp_pkts']:g}-packet BDP are about "
                                    f"{p['points'] * p['bdp_pkts']:,.0f} rounds to follow; at most {MAX_ROUNDS:,}")
    if model_id == "a-md1" and p["grid"] % 2:
        return "grid", f"{p['grid']} must be even (Simpson's rule on each unit of work)"
    if model_id == "a-md1":  # units of gcd(UDP, TCP) bytes: the workload grid's points and the Erlang chains' phases
        per_kb = 1000 / gcd(p["udp_size"], p["tcp_size"]) * (p["grid"] + sum(p["erlang_phases"]))
        names, states = "max_kb, step_kb, udp_size, tcp_size, grid, erlang_phases", _states(1.0, p["max_kb"], p["step_kb"], per_kb)
    if states is not None and states > MAX_STATES:
        return names, f"{states:,.0f} chain states over the buffers; at most {MAX_STATES:,}"
    return None


def parse_overrides(model: Model, pairs: Sequence[str]) -> Params:
    """`key=value` strings to a full parameter set, typed after the defaults (lists as comma-separated
    numbers, at least one) and each within its `DOMAINS` and the rules across parameters; a ValueError
    naming the model and the parameter."""
    params = dict(model.defaults)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or key not in params:
            known = ", ".join(sorted(params))
            raise ValueError(f"{model.id}: unknown parameter {key!r} (parameters: {known})")
        default = params[key]
        try:
            if isinstance(default, tuple):
                params[key] = tuple(float(v) for v in value.split(",") if v.strip())
                if not params[key]:
                    raise ValueError
            elif isinstance(default, int):
                params[key] = int(value)
            elif isinstance(default, float):
                params[key] = float(value)
            else:
                params[key] = value
        except ValueError:
            kind = "list of numbers" if isinstance(default, tuple) else type(default).__name__
            raise ValueError(f"{model.id}: {key}={value!r} is not a {kind}") from None
    for key, value in params.items():
        domain = DOMAINS.get(key)
        for v in (value if isinstance(value, tuple) else (value,)) if domain else ():
            why = domain.refuses(float(v))
            if why:
                raise ValueError(f"{model.id}: {key}={v:g} {why}")
    broken = _across(model.id, params)
    if broken:
        raise ValueError(f"{model.id}: {broken[0]}: {broken[1]}")
    if params.get("empty_csv") and not Path(str(params["empty_csv"])).is_file():
        raise ValueError(f"{model.id}: empty_csv={params['empty_csv']!r}: no such file")
    return params


#: Models that `--simulate` can check against packet-level runs.
SIMULATIONS: Dict[str, Callable[[Params], overlays.Overlay]] = {
    "q-thm2": lambda p: overlays.q_thm2(p, _q_thm2_curves(p)),
}


MAX_CSV_BYTES = 64 * 10**6
"""The largest CSV of simulated points read (a reproduction's points CSV is a few hundred KB)."""


def read_csv(path: Path, what: str) -> pd.DataFrame:
    """A CSV file the user names (`what`: an overlay, empty_csv), read only if at most `MAX_CSV_BYTES`
    (a ScenarioError naming the file otherwise, /dev/zero included)."""
    return pd.read_csv(io.BytesIO(read_bounded(path, MAX_CSV_BYTES, f"{what} CSV")))


def load_overlay(model_id: str, path: Path, params: Params, xs: Sequence[str]) -> overlays.Overlay:
    """A CSV of simulated points: taken as it is when it has one of the model's
    x columns `xs`, else converted from a reproduction's points CSV where the
    model has a converter (`overlays.FROM_POINTS`)."""
    try:
        sim = read_csv(path, "an overlay")
    except ScenarioError:
        raise
    except (ValueError, OSError) as e:  # empty, not CSV, not text (pandas' errors are ValueErrors)
        raise ValueError(f"--overlay {path}: not a CSV of points ({e})") from None
    if model_id in overlays.FROM_POINTS and not set(xs) & set(sim.columns):
        try:
            return overlays.FROM_POINTS[model_id](sim, params)
        except ValueError as e:
            raise ValueError(f"--overlay {path}: {e}") from None
    return overlays.Overlay([sim], "simulated")


def _overlay(ax, panel: Curves, table: pd.DataFrame, sim: overlays.Overlay, facts: Dict[str, str]) -> int:
    """Draw the simulated points of `panel`'s curves (`plot.draw_points`) and
    add how far they lie from the model to `facts`; how many curves got points."""
    drawn = 0
    for frame in sim.tables:
        for s, pts in draw_points(ax, panel, frame, sim.label, first=drawn == 0):
            facts[f"{panel.title or panel.ylabel}, {s.label}"] = _agreement(panel, table, s.column, pts)
            drawn += 1
    return drawn


def _agreement(panel: Curves, table: pd.DataFrame, column: str, pts: pd.DataFrame) -> str:
    """Simulated against model at the simulated x: ratios on a log axis, differences otherwise."""
    model = np.interp(pts[panel.x], table[panel.x], table[column])
    sim = pts[column].to_numpy(dtype=float)
    where = f"over {len(sim)} points, {panel.x} {pts[panel.x].min():g}-{pts[panel.x].max():g}"
    if panel.logy or panel.loss:
        with np.errstate(divide="ignore", invalid="ignore"):
            r = sim / model
        return f"simulated/model {np.nanmin(r):.3g} to {np.nanmax(r):.3g}, median {np.nanmedian(r):.3g} {where}"
    d = sim - model
    return f"simulated - model {d.min():+.3g} to {d.max():+.3g}, mean {d.mean():+.3g} {where}"


def model_ref(model: Model) -> str:
    """The paper figure a model draws ("Paper A, Fig. 10"), else its paper and section ("Paper W, Sec. III-B.1")."""
    if re.match(r"^[eaqw]-(fig|tab|thm)\d+$", model.id):
        return plot.paper_ref(model.id)
    return f"Paper {model.source[0]}, {model.source[2:].split(',')[0]}"


def render(model_id: str, out_dir: Path, overrides: Sequence[str] = (), overlay: Optional[Path] = None,
           simulate: bool = False):
    """Build model `model_id` and write its CSV, PNG and SVG into `out_dir`.

    `overlay` is a CSV of simulated points (see `load_overlay`); `simulate`
    runs the model's packet-level check instead (`SIMULATIONS`) and writes its
    points as `<id>-simulated*.csv`. Points are drawn as markers on the panels
    whose x column and curve columns they have. Returns (written paths, facts, the model's output)."""
    model = MODELS[model_id]
    params = parse_overrides(model, overrides)
    out = model.build(params)
    if simulate and model_id not in SIMULATIONS:
        raise ValueError(f"{model_id} has no simulation to run (those that do: {', '.join(SIMULATIONS)})")
    xs = [panel.x for panel in out.panels]
    sim = SIMULATIONS[model_id](params) if simulate else load_overlay(model_id, overlay, params, xs) if overlay else None
    facts = dict(out.facts)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, table in out.tables.items():
        path = out_dir / (f"{model_id}.csv" if len(out.tables) == 1 else f"{model_id}-{name}.csv")
        table.to_csv(path, index=False)
        written.append(path)
    if simulate:
        for i, table in enumerate(sim.tables):
            path = out_dir / (f"{model_id}-simulated.csv" if len(sim.tables) == 1 else f"{model_id}-simulated-{i + 1}.csv")
            table.to_csv(path, index=False)
            written.append(path)
    fig = plot.render(None, out.panels, f"{model_ref(model)}: {model.title}\n(analytical model: {model.source})",
                      out.tables)
    if sim is not None:
        overlaid = sum(_overlay(ax, panel, out.tables[panel.table], sim, facts) for ax, panel in zip(fig.axes, out.panels))
        if overlaid == 0:
            raise ValueError(f"{overlay}: no column matches a plotted curve of {model_id}")
        facts.update(sim.facts)
    written += plot.save(fig, out_dir / model_id)
    return written, facts, out
