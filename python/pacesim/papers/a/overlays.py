"""Paper A's models beside its simulations.

- `a-fig10` (paper A Sec. IV against its ns-2 runs of Sec. V-A): the points
  CSV of `pacesim reproduce A-fig11 [--quick]`, its "UDP + TCP" curve. UDP
  loss is the core's UDP loss rate; the TCP load carried, as a fraction of
  the link, is the core's utilisation less the UDP carried, λ_UDP (1 - loss),
  λ_UDP being the model's UDP share (0.05, also the share in A-fig11). B*,
  the model's one free parameter, is fitted from the run's empty-buffer
  probabilities (A Sec. III, `pacer.fit_bstar`) and reported, so that the
  model can be redrawn with it (`--set bstar_kb=...`).
- `a-fig22` (paper A Sec. VII, bulk size = TCP / UDP packet size, against
  its Fig. 21): the points CSV of `pacesim reproduce A-fig21 [--quick]`,
  the UDP loss of each packet size as the curve of the ratio 1000 B / size.
"""

from __future__ import annotations

import pandas as pd

from ...analysis.overlays import Overlay, Params, finished, seeds
from ...units import parse_size
from ..e import pacer


def a_fig10(points: pd.DataFrame, p: Params) -> Overlay:
    """A-fig11's UDP + TCP points as the chain's `udp_loss` and `tcp_throughput`."""
    df = finished(points, "A-fig11", ["core.buffer", "core_udp_loss_rate", "core_utilisation", "core_empty_prob"])
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
    return Overlay([table], f"simulated (A-fig11, UDP + TCP, {seeds(df)})", facts)


def a_fig22(points: pd.DataFrame, p: Params) -> Overlay:
    """A-fig21's UDP loss per packet size as the chain's `udp_loss_ratio<k>`, k = TCP size / UDP size."""
    size = "traffic.udp[0].size"
    df = finished(points, "A-fig21", ["core.buffer", size, "core_udp_loss_rate"])
    df = df.assign(buffer_kb=[parse_size(b) / 1000 for b in df["core.buffer"]],
                   ratio=[int(p["tcp_size"]) // parse_size(s) for s in df[size]])
    mean = df.groupby(["buffer_kb", "ratio"])["core_udp_loss_rate"].mean().unstack("ratio")
    table = mean.rename(columns=lambda k: f"udp_loss_ratio{k}").reset_index()
    return Overlay([table], f"simulated (A-fig21, {seeds(df)})")
