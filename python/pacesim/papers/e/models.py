"""Paper E's analytical models (Sec. 4): the edge pacer's burstiness and loss bound, the load model, the
throughput measure against the pacer's delay (E-model, E-fig10; closed forms in `pacer`), with the
catalogue's claims on their numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Dict

import numpy as np
import pandas as pd

from ...analysis.model_claims import monotone_steps
from ...analysis.models import Output, Params, grid, model, read_csv, tag, trend
from ...panels import Curves, Series
from ...reproduce.claims import Claim, Verdict
from . import pacer
from .overlays import e_fig10 as e_fig10_points


def _e_fig10_shapes(o: Output) -> Verdict:
    t = o.tables["curve"]
    ok = monotone_steps(t["T_light"], True) and monotone_steps(t["T_heavy"], False)
    return ok, f"T(d)/T(0) at d = {t['d_ms'].iloc[-1]:g} ms: light {t['T_light'].iloc[-1] / t['T_light'].iloc[0]:.3f}, " \
               f"heavy {t['T_heavy'].iloc[-1] / t['T_heavy'].iloc[0]:.3f}"


def _e_model_pacer(o: Output) -> Verdict:
    t = o.tables["pacer"].iloc[1:]  # d > 0
    cols = [c for c in t.columns if c != "d_ms"]
    ok = all(monotone_steps(t[c], False) for c in cols)
    return ok, "burstiness β and the loss bound fall with d at every load: " + ", ".join(
        f"{c} {t[c].iloc[0]:.3g} -> {t[c].iloc[-1]:.3g}" for c in cols)


def _empty_points(path: Path) -> pd.DataFrame:
    """The numeric columns buffer_kb and empty_prob of CSV `path` (empty_csv), or a ValueError naming it."""
    sim = read_csv(path, "empty_csv", f"empty_csv {path}")
    missing = [c for c in ("buffer_kb", "empty_prob") if c not in sim.columns]
    if missing:
        raise ValueError(f"empty_csv {path}: no column {' or '.join(missing)} (it needs buffer_kb and empty_prob)")
    try:
        return sim[["buffer_kb", "empty_prob"]].astype(float)
    except ValueError:
        raise ValueError(f"empty_csv {path}: buffer_kb and empty_prob must hold numbers") from None


@model(
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
    claims=[Claim("β = 1/sqrt(2λd); L ≤ (λe^(1-λ))^(2d)", "burstiness and loss bound fall with d at every load",
                  _e_model_pacer,
                  sentence='Paper E Sec 4: "When Poisson traffic of rate λ is fed into an edge pacer with delay '
                           'parameter d, the egress traffic has burstiness (ratio of standard deviation to mean rate) '
                           'given by [6]: β = 1/√(2λd) (2) Further, the loss rate, derived using a bufferless fluid '
                           'approximation, is obtained from the Chernoff bound as [6]: L ≤ (λe^(1-λ))^(2d) (3) This '
                           'shows that loss falls monotonically as the pacer delay d is increased."')],
)
def _e_model(p: Params) -> Output:
    """E-model. The default B* = 5/ln 10 ≈ 2.17 KB is the one for which
    ρ(5 KB) = 0.9, the load E Sec. 4 quotes for a 5 KB buffer; `empty_csv`
    (columns buffer_kb, empty_prob, e.g. from a sweep of the engine's
    summary.core_empty_prob) replaces it by a least-squares fit."""
    facts: Dict[str, str] = {}
    bstar = float(p["bstar_kb"])
    if p["empty_csv"]:
        sim = _empty_points(Path(str(p["empty_csv"])))
        fit = pacer.fit_bstar(sim["buffer_kb"], sim["empty_prob"])
        bstar = fit.bstar
        facts["B* fit"] = f"{fit.bstar:.3g} KB from {p['empty_csv']} (intercept {fit.intercept:.3g}, R² {fit.r_squared:.4f})"
    else:
        facts["B*"] = f"{bstar:.4g} KB, ρ(5 KB) = {float(pacer.load_from_buffer(5.0, bstar)):.4g}"
    slot, rtt0 = float(p["slot_ms"]), float(p["rtt0_ms"])
    d = grid(0.0, float(p["d_max_ms"]), 0.5, "d_max_ms")
    dpos = d[1:]
    pace = pd.DataFrame({"d_ms": dpos})
    for lam in p["loads"]:
        pace[f"beta_{tag(lam)}"] = pacer.burstiness(lam, dpos, slot)
        pace[f"loss_bound_{tag(lam)}"] = pacer.loss_bound(lam, dpos, slot)
    b = grid(0.0, 50.0, 0.25)
    load = pd.DataFrame({"buffer_kb": b})
    bstars = tuple(dict.fromkeys(tuple(p["bstars_kb"]) + (bstar,)))
    for bs in bstars:
        load[f"rho_{tag(bs)}"] = pacer.load_from_buffer(b, bs)
    thr = pd.DataFrame({"d_ms": d})
    for buf in p["buffers_kb"]:
        rho = float(pacer.load_from_buffer(buf, bstar))
        t = pacer.throughput_measure(d, rho, rtt0, slot)
        thr[f"T_{tag(buf)}kb"] = t / t[0]
        facts[f"T(d) at {buf:g} KB"] = f"ρ = {rho:.6f}: {trend(d, t)}, T(d_max)/T(0) = {t[-1] / t[0]:.3g}"
    for name, s in (("ms", 1.0), ("packet times (0.08 ms)", 0.08), ("seconds", 1000.0)):
        r = pacer.load_regimes(rtt0, float(p["d_max_ms"]), s)
        facts[f"eq. 4 with d in {name}"] = f"rises for ρ ≤ {r.rising_below:.4g}, falls for ρ ≥ {r.falling_above:.4g}"
    loads = tuple(p["loads"])
    panels = [
        Curves("pacer", "d_ms", "pacer delay bound d (ms)", "burstiness β = 1/√(2λd)",
              tuple(Series(f"beta_{tag(l)}", f"λ = {l:g}") for l in loads), "(a) burstiness, eq. 2", logy=True, logx=True),
        Curves("pacer", "d_ms", "pacer delay bound d (ms)", "loss bound (λe^(1-λ))^(2d)",
              tuple(Series(f"loss_bound_{tag(l)}", f"λ = {l:g}") for l in loads), "(b) loss bound, eq. 3", loss=True),
        Curves("load", "buffer_kb", "bottleneck buffer B (KB)", "offered load ρ = 1 - e^(-B/B*)",
              tuple(Series(f"rho_{tag(bs)}", f"B* = {bs:.3g} KB", "-" if bs == bstar else "--")
                    for bs in bstars), "(c) load model"),
        Curves("throughput", "d_ms", "pacer delay bound d (ms)", "T(d)/T(0), eq. 4",
              tuple(Series(f"T_{tag(bf)}kb", f"B = {bf:g} KB") for bf in p["buffers_kb"]),
              f"(d) throughput, RTT0 = {rtt0:g} ms, B* = {bstar:.3g} KB"),
    ]
    return Output({"pacer": pace, "load": load, "throughput": thr}, panels, facts)


@model(
    "e-fig10",
    "Throughput measure against pacer delay: light and heavy load",
    "E Sec. 4, eq. (4), Fig. 10",
    light_load=0.9,
    heavy_load=0.999,
    rtt0_ms=200.0,
    d_max_ms=100.0,
    slot_ms=1.0,
    claims=[Claim("low load (small buffer): rising in d; high load (large buffer): falling",
                  "T(d) rising at every step for the light load (0.9), falling for the heavy (0.999): the loads Sec 4 "
                  "gives for a small and a large buffer", _e_fig10_shapes,
                  sentence='Paper E Sec 4: "Fig. 10(a) considers relatively light load [...]. We see that the curve is '
                           'monotonically increasing, suggesting that larger pacing delay values are preferable [...]. '
                           'In Fig. 10(b) we consider the case of heavy load [...]. In this case, we find that the '
                           'per-flow TCP throughput falls monotonically with pacing delay" (Figure 10: "Throughput '
                           'measure as a function of pacer delay from our analytical model for (a) Low load (small '
                           'buffer), and (b) High load (large buffer)") and "when buffer size is small (say 5 KB), the '
                           'offered load is lower ρ ≈ 90%, and as buffer size increases (to say 50 KB), offered load '
                           'increases to over ρ ≈ 99.9%."')],
    from_points=e_fig10_points,
)
def _e_fig10(p: Params) -> Output:
    """E-fig10: eq. 4 at the loads E Sec. 4 quotes for 5 KB (ρ ≈ 0.9) and 50 KB
    (ρ ≈ 0.999) buffers, d and RTT0 in ms (see `pacer` on the units)."""
    d = grid(0.0, float(p["d_max_ms"]), 0.5, "d_max_ms")
    rtt0, slot = float(p["rtt0_ms"]), float(p["slot_ms"])
    table = pd.DataFrame({"d_ms": d})
    facts = {}
    for name in ("light", "heavy"):
        lam = float(p[f"{name}_load"])
        t = pacer.throughput_measure(d, lam, rtt0, slot)
        table[f"T_{name}"] = t / t[0]
        facts[f"{name} load λ = {lam:g}"] = f"{trend(d, t)}, T(d_max)/T(0) = {t[-1] / t[0]:.4g}"
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
