"""Simulated points beside the papers' models, where the papers compare them.

- `a-fig10` (paper A Sec. IV against its ns-2 runs of Sec. V-A): the points
  CSV of `pacesim reproduce A-fig11 [--quick]`, its "UDP + TCP" curve. UDP
  loss is the core's UDP loss rate; the TCP load carried, as a fraction of
  the link, is the core's utilisation less the UDP carried, λ_UDP (1 - loss),
  λ_UDP being the model's UDP share (0.05, also the share in A-fig11). B*,
  the model's one free parameter, is fitted from the run's empty-buffer
  probabilities (A Sec. III, `pacer.fit_bstar`) and reported, so that the
  model can be redrawn with it (`--set bstar_kb=...`).
- `e-fig10` (paper E Sec. 4, eq. 4, against its Fig. 11 simulations): the
  points CSV of `pacesim reproduce E-fig11 [--quick]`, mean goodput per flow
  against d, divided by its value at d = 0, the smallest buffer as the light
  load and the largest as the heavy one; the load the run measured,
  1 - P(core empty) at d = 0, is reported beside the model's λ.
- `a-fig22` (paper A Sec. VII, bulk size = TCP / UDP packet size, against
  its Fig. 21): the points CSV of `pacesim reproduce A-fig21 [--quick]`,
  the UDP loss of each packet size as the curve of the ratio 1000 B / size.
- `q-thm2` (paper Q Theorem 2 against a packet-level run): simulated here,
  see `paced_onoff`.

Each function returns an `Overlay`: tables whose columns are named like the
model's curves, a legend label and facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Sequence

import numpy as np
import pandas as pd

from ..units import parse_size, parse_time
from . import paced_onoff, pacer

Params = Dict[str, object]


@dataclass
class Overlay:
    """Simulated points: tables named like model columns, their legend label, facts."""

    tables: List[pd.DataFrame]
    label: str
    facts: Dict[str, str] = field(default_factory=dict)


def _points(points: pd.DataFrame, figure: str, needed: Sequence[str]) -> pd.DataFrame:
    missing = [c for c in needed if c not in points.columns]
    if missing:
        raise ValueError(f"not a points CSV of `pacesim reproduce {figure}`: no column {', '.join(missing)}")
    ok = points[points["status"] == "ok"] if "status" in points.columns else points
    if ok.empty:
        raise ValueError(f"no finished point in the {figure} CSV")
    return ok


def _seeds(df: pd.DataFrame) -> str:
    n = df["seed"].nunique() if "seed" in df.columns else 1
    return f"mean of {n} seeds" if n > 1 else "one seed"


def a_fig10(points: pd.DataFrame, p: Params) -> Overlay:
    """A-fig11's UDP + TCP points as the chain's `udp_loss` and `tcp_throughput`."""
    df = _points(points, "A-fig11", ["core.buffer", "core_udp_loss_rate", "core_utilisation", "core_empty_prob"])
    if "variant" in df.columns:
        df = df[df["variant"] == "UDP + TCP"]
    df = df.assign(buffer_kb=[parse_size(b) / 1000 for b in df["core.buffer"]])
    mean = df.groupby("buffer_kb")[["core_udp_loss_rate", "core_utilisation", "core_empty_prob"]].mean().reset_index()
    udp = float(p["lam_udp"])
    table = pd.DataFrame({
        "buffer_kb": mean["buffer_kb"],
        "udp_loss": mean["core_udp_loss_rate"],
        "tcp_throughput": (mean["core_utilisation"] - udp * (1 - mean["core_udp_loss_rate"])).clip(lower=0.0),
    })
    facts = {}
    empty = mean[(mean["core_empty_prob"] > 0) & (mean["core_empty_prob"] < 1)]
    if len(empty) >= 2:
        fit = pacer.fit_bstar(empty["buffer_kb"], empty["core_empty_prob"])
        facts["simulated B*"] = (f"{fit.bstar:.3g} KB from P(core empty) at {empty['buffer_kb'].min():g}-"
                                 f"{empty['buffer_kb'].max():g} KB (R² {fit.r_squared:.3f}); the model uses {float(p['bstar_kb']):g}")
    return Overlay([table], f"simulated (A-fig11, UDP + TCP, {_seeds(df)})", facts)


def a_fig22(points: pd.DataFrame, p: Params) -> Overlay:
    """A-fig21's UDP loss per packet size as the chain's `udp_loss_ratio<k>`, k = TCP size / UDP size."""
    size = "traffic.udp[0].size"
    df = _points(points, "A-fig21", ["core.buffer", size, "core_udp_loss_rate"])
    df = df.assign(buffer_kb=[parse_size(b) / 1000 for b in df["core.buffer"]],
                   ratio=[int(p["tcp_size"]) // parse_size(s) for s in df[size]])
    mean = df.groupby(["buffer_kb", "ratio"])["core_udp_loss_rate"].mean().unstack("ratio")
    table = mean.rename(columns=lambda k: f"udp_loss_ratio{k}").reset_index()
    return Overlay([table], f"simulated (A-fig21, {_seeds(df)})")


def e_fig10(points: pd.DataFrame, p: Params) -> Overlay:
    """E-fig11's goodput against d, over its value at d = 0, as `T_light` (smallest
    buffer) and `T_heavy` (largest)."""
    df = _points(points, "E-fig11", ["core.buffer", "pacing.delay", "goodput_kbps_mean", "core_empty_prob"])
    df = df.assign(buffer_kb=[parse_size(b) / 1000 for b in df["core.buffer"]],
                   d_ms=[parse_time(d) / 1e6 for d in df["pacing.delay"]])
    mean = df.groupby(["buffer_kb", "d_ms"])[["goodput_kbps_mean", "core_empty_prob"]].mean().reset_index()
    buffers = sorted(mean["buffer_kb"].unique())
    if len(buffers) < 2:
        raise ValueError("E-fig11 CSV: need a small and a large buffer")
    facts, table = {}, None
    for name, buf in (("light", buffers[0]), ("heavy", buffers[-1])):
        b = mean[mean["buffer_kb"] == buf].set_index("d_ms")
        if 0.0 not in b.index:
            raise ValueError(f"E-fig11 CSV: no d = 0 point at {buf:g} KB to normalise by")
        t = (b["goodput_kbps_mean"] / b.loc[0.0, "goodput_kbps_mean"]).rename(f"T_{name}")
        table = t.to_frame() if table is None else table.join(t, how="outer")
        facts[f"simulated {name} load ({buf:g} KB)"] = (
            f"1 - P(empty) = {1 - b.loc[0.0, 'core_empty_prob']:.3f} at d = 0 (model λ = {float(p[f'{name}_load']):g}); "
            f"goodput {b.loc[0.0, 'goodput_kbps_mean']:.1f} Kb/s at d = 0")
    return Overlay([table.reset_index()], f"simulated (E-fig11, goodput / goodput at d = 0, {_seeds(df)})", facts)


def q_thm2(p: Params, curves: Sequence[tuple]) -> Overlay:
    """Run the unpaced source and one QLBP run per (Qmax in model packets,
    column) of `curves`, packets of `sim_packet_bytes` (see `paced_onoff`)."""
    base = paced_onoff.PacedOnOff(
        peak_mbps=float(p["peak_mbps"]), on_s=float(p["on_ms"]) / 1e3, off_s=float(p["off_ms"]) / 1e3,
        mu_max_mbps=float(p["mu_max_mbps"]), mu_min_mbps=float(p["mu_min_mbps"]),
        packet_bytes=int(p["sim_packet_bytes"]), seconds=float(p["sim_seconds"]), seed=int(p["sim_seed"]))
    step = float(p["sim_lag_step_ms"]) / 1e3
    lags = np.arange(step, float(p["max_lag_s"]) + step / 2, step)
    pkt = int(p["packet_bytes"])
    tables = paced_onoff.simulate(base, [q * pkt for q, _ in curves], [c for _, c in curves], lags,
                                  float(p["bin_ms"]) / 1e3)
    ratio = tables["cov_ratio"].assign(q_max_pkts=lambda t: t["q_max_bytes"] / pkt)
    facts = {
        f"simulated Qmax {q:.4g}": f"α = {r.alpha:.4g}/s: auto-covariance within {r.max_abs_z:.2f} Bartlett SE "
                                   f"(at most {100 * r.max_err_of_var:.1f} % of C_μμ(0)) of eq. 6 at lags {1e3 * step:g}-{1e3 * lags[-1]:g} ms; "
                                   f"mean {r.mean_mbps:.4f} Mb/s"
        for q, r in zip(ratio["q_max_pkts"], ratio.itertuples())
    }
    label = (f"simulated ({base.packet_bytes} B packets, {base.seconds:g} s, seed {base.seed}; "
             f"lags from {1e3 * step:g} ms)")
    return Overlay([tables["autocov"], ratio], label, facts)


#: Models whose overlay is read from a reproduction's points CSV.
FROM_POINTS: Dict[str, Callable[[pd.DataFrame, Params], Overlay]] = {
    "a-fig10": a_fig10, "a-fig22": a_fig22, "e-fig10": e_fig10}
