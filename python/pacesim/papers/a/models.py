"""Paper A's analytical models: effective buffers for UDP (Sec. III: A-fig6, A-fig16; `effective_buffer`),
the M/M/1/B chain with bulk TCP arrivals (Sec. IV, VI, VII: A-fig10, A-fig18, A-fig19, A-fig22;
`bulk_chain`) and the M/D/1/B queue with bimodal sizes (Sec. IV-A: A-md1; `md1`), with the catalogue's
claims on their numbers and the rules across their parameters that keep a chain small."""

from __future__ import annotations

from math import gcd
from typing import List, Optional, Tuple

import numpy as np
import pandas as pd

from ...analysis.model_claims import monotone_steps
from ...analysis.models import Output, Params, grid, minimum_then_peak, model, states, tag, within_states
from ...panels import Curves, Series
from ...reproduce.claims import (ABOUT, LINEAR_R2, Claim, Verdict, anomalous_region, beats, inflection_at, nearly,
                                 severity)
from . import bulk_chain, effective_buffer, md1
from .overlays import a_fig10 as a_fig10_points, a_fig22 as a_fig22_points


def _check_a_fig6(o: Output) -> Verdict:
    t = o.tables["buffers"]
    peak = float(t["buffer_kb"].iloc[int(np.argmax(t["time_share_kb"]))])
    d = np.diff(t["effective_kb"].to_numpy())
    falls = bool((d < 0).any()) and d[0] > 0 and d[-1] > 0
    return 0 < peak < t["buffer_kb"].max() and falls, f"time share peaks at {peak:g} KB; total rises, falls over " \
        f"{int((d < 0).sum())} steps, rises again"


def _check_a_fig10(o: Output) -> Verdict:
    t = o.tables["chain"]
    low = t[(t["buffer_kb"] >= 1) & (t["buffer_kb"] <= 8)]["udp_loss"]
    high = t[(t["buffer_kb"] >= 9) & (t["buffer_kb"] <= 30)]["udp_loss"]
    return monotone_steps(low, False) and monotone_steps(high, True), \
        f"UDP loss {low.iloc[0]:.3g} at 1 KB -> {low.iloc[-1]:.3g} at 8 KB; {high.iloc[0]:.3g} at 9 KB -> {high.iloc[-1]:.3g} at 30 KB"


def _check_a_fig16(o: Output) -> Verdict:
    t = o.tables["f0.8"]
    r2 = float(np.corrcoef(t["buffer_kb"], t["effective_kb"])[0, 1] ** 2)
    return r2 >= LINEAR_R2, f"f = 0.8: R² of the total against B {r2:.4f} (linear: >= {LINEAR_R2})"


BSTARS = [1, 4, 7, 10, 14]


def _tcp_needs_more(o: Output) -> Verdict:
    """Sec VI: "as B* increases, TCP requires bigger buffers to attain saturation throughput, which is 0.94": the
    first buffer where each B*'s TCP throughput is nearly 0.94 (`claims.nearly`), larger for each larger B* (never
    within 1-50 KB: past 50 KB)."""
    t = o.tables["sweep"]
    sat = bulk_chain.TCP_SATURATION
    need = []
    for b in BSTARS:
        at = [x for x, y in zip(t["buffer_kb"], t[f"tcp_throughput_{b}"]) if nearly(y, sat)]
        need.append(float(at[0]) if at else float("inf"))
    return all(beats(b, a) for a, b in zip(need, need[1:])), f"buffer where TCP throughput is nearly {sat:g} " + \
        f"({(1 - ABOUT) * sat:.3f} to {sat:g}), B* " + "/".join(map(str, BSTARS)) + " KB: " + \
        ", ".join(f"{x:g}" if x < float("inf") else "past 50" for x in need) + " KB"


def _anomaly_grows(o: Output) -> Verdict:
    """Among the B* whose UDP loss has paper A's anomaly (`claims.anomalous_region`) within 1-50 KB: its
    inflection does not move left, and moves right from the first such B* to the last ("shifts slightly to the
    right"), and its severity grows ("more pronounced")."""
    t = o.tables["sweep"]
    b = t["buffer_kb"].to_numpy()
    found = []
    for bs in BSTARS:
        y = t[f"udp_loss_{bs}"].to_numpy()
        region = anomalous_region(y)
        if region:
            found.append((bs, float(b[region[0]]), severity(y)))
    ok = len(found) >= 2 and found[-1][1] > found[0][1] and all(
        y[1] >= x[1] and beats(y[2], x[2]) for x, y in zip(found, found[1:]))
    return ok, "; ".join(f"B* {bs} KB: inflection at {x:g} KB, severity x{r:.2f}" for bs, x, r in found) + \
        f" (no anomaly for B* {', '.join(str(bs) for bs in BSTARS if bs not in [f[0] for f in found])})"


RATIOS = [25, 10, 5, 2, 1]


def _a_fig22_order(o: Output) -> Verdict:
    t = o.tables["sweep"]
    cols = [f"udp_loss_ratio{r}" for r in RATIOS]
    ok = all(beats(t[b].iloc[i], t[a].iloc[i]) for i in range(len(t)) for a, b in zip(cols, cols[1:]))
    return ok, "UDP loss at every buffer rises from ratio 25 (40 B) to 1 (1000 B): at 10 KB " + ", ".join(
        f"{r}: {t[c].iloc[int(np.argmin(abs(t['buffer_kb'] - 10)))]:.3g}" for r, c in zip(RATIOS, cols))


def _inflection_at(table: str, columns: List[str], target: float):
    """The paper's "inflection point [...] at around `target` kB", read off its plot of the chains: each curve's
    inflection over 1-30 KB (`claims.inflection_at`: where paper A's anomaly begins) within the grid's spacing
    of `target`."""
    def check(o: Output) -> Verdict:
        t = o.tables[table]
        t = t[(t["buffer_kb"] >= 1) & (t["buffer_kb"] <= 30)]
        xs = [f"{x:g}" for x in t["buffer_kb"]]
        found = {c: inflection_at(xs, list(t[c]), target, float) for c in columns}
        return all(ok for ok, _ in found.values()), "; ".join(f"{c}: {said}" for c, (_, said) in found.items())
    return check


# --- the rules across parameters: a TCP packet is a bulk of UDP packets, and a chain stays small


def _bulk(p: Params) -> Optional[Tuple[str, str]]:
    """A-fig10's chain (`bulk_chain.solve`): a TCP packet is a bulk of UDP packets."""
    if p["tcp_size"] % p["udp_size"]:
        return "udp_size", f"{p['udp_size']} B must divide tcp_size ({p['tcp_size']} B): a TCP packet is a bulk of UDP packets"
    return within_states("max_kb, step_kb, udp_size", states(1.0, p["max_kb"], p["step_kb"], 1000 / p["udp_size"]))


def _ratios(p: Params) -> Optional[Tuple[str, str]]:
    """A-fig22's chains: each ratio divides the TCP size (the UDP size is tcp_size / ratio)."""
    for k in p["ratios"]:
        if p["tcp_size"] % k:
            return "ratios", f"{k:g} must divide tcp_size ({p['tcp_size']} B): the UDP size is tcp_size / ratio"
    return within_states("max_kb, ratios",
                         sum(states(1.0, p["max_kb"], 1.0, 1000 / (p["tcp_size"] // k)) for k in p["ratios"]))


def _bstars(p: Params) -> Optional[Tuple[str, str]]:
    """A-fig18 and A-fig19: A's 200 B UDP and 1000 B TCP packets, a chain for each B*."""
    return within_states("max_kb, step_kb, bstars_kb",
                         len(p["bstars_kb"]) * states(1.0, p["max_kb"], p["step_kb"], 1000 / 200))


def _workload(p: Params) -> Optional[Tuple[str, str]]:
    """A-md1: Simpson's rule on each unit of work; units of gcd(UDP, TCP) bytes, the workload grid's points
    and the Erlang chains' phases."""
    if p["grid"] % 2:
        return "grid", f"{p['grid']} must be even (Simpson's rule on each unit of work)"
    per_kb = 1000 / gcd(p["udp_size"], p["tcp_size"]) * (p["grid"] + sum(p["erlang_phases"]))
    return within_states("max_kb, step_kb, udp_size, tcp_size, grid, erlang_phases",
                         states(1.0, p["max_kb"], p["step_kb"], per_kb))


# --- the models


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


@model("a-fig6", "Effective buffers for UDP", "A Sec. III, eq. (2), Fig. 6", f=0.05, bstar_kb=7.0, max_kb=50.0,
        claims=[Claim("time-share part rises then falls; total has an anomalous region",
                      "time share peaks inside the range; the total rises, falls, rises", _check_a_fig6,
                      sentence='Paper A Sec III: "The fair-share component fB increases linearly with buffer size, '
                               'while the time-share component (1 - f)Be^(-B/B*) rises to a peak and then falls again '
                               '[...]. The total effective buffers for UDP, being the sum of the above two components, '
                               'can therefore show anomalous behavior, i.e., a region where larger real buffers can '
                               'yield smaller effective buffers for UDP."')])
def _a_fig6(p: Params) -> Output:
    f, bstar = float(p["f"]), float(p["bstar_kb"])
    t = _effective(f, bstar, grid(0.0, float(p["max_kb"]), 0.1, "max_kb"))
    facts = {
        "time share peak": f"at B = B* = {bstar:g} KB",
        "anomalous region": _region_fact(f, bstar),
    }
    return Output({"buffers": t}, [_effective_panel("buffers", f, f"f = {f:g}, B* = {bstar:g} KB")], facts)


@model("a-fig16", "Effective buffers at low and high UDP share", "A Sec. V-B, eq. (2), Fig. 16",
        fractions=(0.1, 0.8), bstar_kb=7.0, max_kb=50.0,
        claims=[Claim("total nearly linear at 0.8", f"R² of the total against B at least {LINEAR_R2}", _check_a_fig16,
                      sentence='Paper A Sec V-B: "The presence of the time-share component is less pronounced, while '
                               'that for effective buffers approaches a straight line at higher rates."')])
def _a_fig16(p: Params) -> Output:
    bstar = float(p["bstar_kb"])
    b = grid(0.0, float(p["max_kb"]), 0.1, "max_kb")
    tables, panels, facts = {}, [], {}
    for i, f in enumerate(p["fractions"]):
        name = f"f{tag(f)}"
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


@model("a-fig10", "M/M/1/B chain with bulk TCP arrivals: UDP loss and TCP rate",
        "A Sec. IV, eqs. (3)-(9), Fig. 10", bstar_kb=7.0, udp_size=200, tcp_size=1000,
        lam_udp=bulk_chain.LAMBDA_UDP, max_kb=50.0, step_kb=1.0,
        claims=[Claim("UDP loss falls over 1-8 KB, rises over 9-30 KB", "every step down over 1-8 KB, up over 9-30 KB",
                      _check_a_fig10,
                      sentence='Paper A Sec IV: "It can be observed that in the region of 1–8 kB of buffering, UDP loss '
                               'falls monotonically with buffer size. However, in the buffer size region between 9–30 kB, '
                               'UDP packet loss increases with increasing buffer size, showing that the model is able to '
                               'predict the anomaly found in simulations."')],
        across=_bulk, from_points=a_fig10_points)
def _a_fig10(p: Params) -> Output:
    b = grid(1.0, float(p["max_kb"]), float(p["step_kb"]), "max_kb, step_kb")
    t = _chain_table(b, float(p["bstar_kb"]), int(p["udp_size"]), int(p["tcp_size"]), float(p["lam_udp"]))
    facts = {
        "UDP loss": minimum_then_peak(b, t["udp_loss"].to_numpy(), (1.0, 30.0)),
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
    b = grid(1.0, float(p["max_kb"]), float(p["step_kb"]), "max_kb, step_kb")
    t = pd.DataFrame({"buffer_kb": b})
    for bs in p["bstars_kb"]:
        c = _chain_table(b, bs, 200, 1000, bulk_chain.LAMBDA_UDP)
        t[f"tcp_throughput_{tag(bs)}"] = c["tcp_throughput"]
        t[f"udp_loss_{tag(bs)}"] = c["udp_loss"]
    return t


@model("a-fig18", "M/M/1/B: TCP throughput for B* from 1 to 14 KB", "A Sec. VI, eq. (3), Fig. 18",
        bstars_kb=(1.0, 4.0, 7.0, 10.0, 14.0), max_kb=50.0, step_kb=1.0,
        claims=[Claim("larger B*: TCP needs more buffer", "buffer where TCP throughput is nearly the saturation 0.94 "
                      "(the 'nearly' rule): each larger B* beats the smaller", _tcp_needs_more,
                      sentence='Paper A Sec VI: "The key point to note from the figure is that as B* increases, TCP '
                               'requires bigger buffers to attain saturation throughput, which is 0.94 or 94% of the '
                               'core-link rate since this analysis plot considers the presence of 0.05 or 5% UDP '
                               'traffic."')],
        across=_bstars)
def _a_fig18(p: Params) -> Output:
    t = _bstar_sweep(p)
    facts = {}
    sat = bulk_chain.TCP_SATURATION
    for bs in p["bstars_kb"]:
        y = t[f"tcp_throughput_{tag(bs)}"].to_numpy()
        reach = t["buffer_kb"][y >= 0.95 * sat]
        facts[f"B* = {bs:g} KB"] = (f"95% of saturation ({0.95 * sat:.3f}) from {reach.iloc[0]:g} KB"
                                   if len(reach) else "never reaches 95% of saturation")
    panel = Curves("sweep", "buffer_kb", "buffer size (KB)", "TCP throughput (fraction of link)",
                  tuple(Series(f"tcp_throughput_{tag(bs)}", f"B* = {bs:g} KB") for bs in p["bstars_kb"]),
                  "TCP throughput from the M/M/1/B chain")
    return Output({"sweep": t}, [panel], facts)


@model("a-fig19", "M/M/1/B: UDP loss for B* from 1 to 14 KB", "A Sec. VI, eqs. (3)-(9), Fig. 19",
        bstars_kb=(1.0, 4.0, 7.0, 10.0, 14.0), max_kb=50.0, step_kb=1.0,
        claims=[Claim("UDP loss (and the anomaly) more pronounced, inflection slightly right",
                      "among B* with paper A's anomaly: its inflection does not move left and moves right overall, its "
                      "severity (the region's rise) beats the smaller B*'s", _anomaly_grows,
                      sentence='Paper A Sec VI: "We observe that the UDP packet loss (and hence the severity of the '
                               'anomaly) is more pronounced when B* is larger. Moreover, the inflection point, i.e., the '
                               'point at which UDP packet loss begins to increase, shifts slightly to the right as B* '
                               'increases."')],
        across=_bstars)
def _a_fig19(p: Params) -> Output:
    t = _bstar_sweep(p)
    b = t["buffer_kb"].to_numpy()
    facts = {f"B* = {bs:g} KB": minimum_then_peak(b, t[f"udp_loss_{tag(bs)}"].to_numpy(), (1.0, 30.0))
             for bs in p["bstars_kb"]}
    panel = Curves("sweep", "buffer_kb", "buffer size (KB)", "UDP packet loss",
                  tuple(Series(f"udp_loss_{tag(bs)}", f"B* = {bs:g} KB") for bs in p["bstars_kb"]),
                  "UDP loss from the M/M/1/B chain", loss=True)
    return Output({"sweep": t}, [panel], facts)


@model("a-fig22", "M/M/1/B with bulk size = TCP/UDP packet size ratio", "A Sec. VII, Fig. 22",
        ratios=(25, 10, 5, 2, 1), tcp_size=1000, bstar_kb=7.0, max_kb=50.0,
        claims=[Claim("matches A-fig21's order", "UDP loss at every buffer: each larger UDP packet beats the smaller",
                      _a_fig22_order,
                      sentence='Paper A Sec VII: "First, the analysis predicts correctly that as the TCP/UDP packet '
                               'size ratio gets larger, losses for UDP traffic become smaller."'),
                Claim("inflection ≈8 KB", "every ratio: UDP loss's inflection over 1-30 KB (where paper A's anomaly "
                      "begins) within the grid's spacing of 8 KB",
                      _inflection_at("sweep", [f"udp_loss_ratio{r}" for r in RATIOS], 8),
                      sentence='Paper A Sec VII: "Second, the analysis seems to be fairly accurate in predicting the '
                               'inflection point. While the simulations suggest that the inflection point occurs at 10 '
                               'kB, the analysis predicts it to happen at around 8 kB."')],
        across=_ratios, from_points=a_fig22_points)
def _a_fig22(p: Params) -> Output:
    b = grid(1.0, float(p["max_kb"]), 1.0, "max_kb")
    t = pd.DataFrame({"buffer_kb": b})
    facts = {}
    tcp = int(p["tcp_size"])
    for k in p["ratios"]:
        k = int(k)
        c = _chain_table(b, float(p["bstar_kb"]), tcp // k, tcp, bulk_chain.LAMBDA_UDP)
        t[f"udp_loss_ratio{k}"] = c["udp_loss"]
        facts[f"ratio {k} (UDP {tcp // k} B)"] = minimum_then_peak(b, c["udp_loss"].to_numpy(), (1.0, 30.0))
    panel = Curves("sweep", "buffer_kb", "buffer size (KB)", "UDP packet loss",
                  tuple(Series(f"udp_loss_ratio{int(k)}", f"ratio {int(k)} (UDP {tcp // int(k)} B)") for k in p["ratios"]),
                  "UDP loss, bulk size = TCP/UDP size ratio", loss=True)
    return Output({"sweep": t}, [panel], facts)


@model("a-md1", "M/D/1/B with bimodal packet sizes (1000 B TCP, 200 B UDP)", "A Sec. IV-A (derived here)",
        bstar_kb=7.0, udp_size=200, tcp_size=1000, max_kb=40.0, step_kb=1.0, grid=32, erlang_phases=(1, 4),
        claims=[Claim("inflection ≈8 KB, like the M/M/1/B chain", "M/D/1/B and the Erlang-1 chain: UDP loss's "
                      "inflection over 1-30 KB (where paper A's anomaly begins) within the grid's spacing of 8 KB",
                      _inflection_at("sweep", ["udp_loss_md1", "udp_loss_erlang1"], 8),
                      sentence='Paper A Sec IV-A: "It suffices to state here that the results from the M/D/1/B '
                               'analysis are qualitatively similar to the M/M/1/B results presented, and both chains '
                               'predict the inflection point to occur at around 8 kB."')],
        across=_workload)
def _a_md1(p: Params) -> Output:
    b = grid(1.0, float(p["max_kb"]), float(p["step_kb"]), "max_kb, step_kb")
    udp, tcp, bstar = int(p["udp_size"]), int(p["tcp_size"]), float(p["bstar_kb"])
    res = md1.sweep(b, bstar, udp, tcp, grid=int(p["grid"]))
    t = pd.DataFrame({
        "buffer_kb": b,
        "udp_loss_md1": [r.udp_loss for r in res],
        "tcp_throughput_md1": [r.tcp_throughput for r in res],
    })
    facts = {"M/D/1/B UDP loss": minimum_then_peak(b, t["udp_loss_md1"].to_numpy(), (1.0, 30.0))}
    series = [Series("udp_loss_md1", "M/D/1/B (deterministic service)")]
    for m in p["erlang_phases"]:
        m = int(m)
        col = f"udp_loss_erlang{m}"
        t[col] = [md1.erlang_losses(int(round(x * 1000)), bulk_chain.LAMBDA_UDP, float(md1.tcp_load(x, bstar)), m, udp, tcp)[0]
                  for x in b]
        label = "M/M/1/B chain (Erlang 1)" if m == 1 else f"Erlang-{m} service per 200 B"
        series.append(Series(col, label, "--"))
        facts[f"Erlang {m} UDP loss"] = minimum_then_peak(b, t[col].to_numpy(), (1.0, 30.0))
    panels = [
        Curves("sweep", "buffer_kb", "buffer size (KB)", "UDP packet loss", tuple(series),
              "(a) UDP loss: exponential to deterministic service", loss=True),
        Curves("sweep", "buffer_kb", "buffer size (KB)", "TCP throughput (fraction of link)",
              (Series("tcp_throughput_md1", "M/D/1/B"),), "(b) TCP carried"),
    ]
    return Output({"sweep": t}, panels, facts)
