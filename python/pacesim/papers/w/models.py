"""Paper W's analytical models (Sec. III): synchronisation throughput loss (W-fig8) and Reno's convergence
epochs (W-conv), closed forms in `sync_loss`, with the catalogue's claims on their numbers."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
import pandas as pd

from ...analysis.models import Output, Params, grid, model, tag
from ...panels import Curves, Series
from ...reproduce.claims import Claim, Verdict, about, much_smaller
from . import sync_loss

MAX_ROUNDS = 10_000_000
"""The most round trips W-fig8 follows, buffers times the BDP in packets (W's 41 x 10,440: 428,040; 4.3
million took 9 s here)."""


def _rounds(p: Params) -> Optional[Tuple[str, str]]:
    """W-fig8 follows the flows round by round: at most `MAX_ROUNDS`; over at least two buffers, B = 0 and the
    BDP (its claims read B = 0 and every B > 0)."""
    if p["points"] < 2:
        return "points", f"{p['points']} buffer sizes: at least 2 (B = 0 and the BDP; the claims read B > 0)"
    if p["points"] * p["bdp_pkts"] > MAX_ROUNDS:
        return "points, bdp_pkts", (f"{p['points']} buffers of a {p['bdp_pkts']:g}-packet BDP are about "
                                    f"{p['points'] * p['bdp_pkts']:,.0f} rounds to follow; at most {MAX_ROUNDS:,}")
    return None


def _w_fig8_reno(o: Output) -> Verdict:
    t = o.tables["loss"]
    return about(float(t["reno"].iloc[0]), 25), f"Reno at B = 0: {t['reno'].iloc[0]:.2f} % (paper 25 %)"


def _w_fig8_others(o: Output) -> Verdict:
    t = o.tables["loss"].iloc[1:]  # B > 0
    far = all(much_smaller(x, r) for c in ("bic", "scalable") for x, r in zip(t[c], t["reno"]))
    small = t["buffer_pkts"].iloc[0]
    fast = bool((t["fast"] == 0).all())
    return far and fast, f"at every B > 0: BIC and Scalable at most half Reno's loss: {far}; FAST zero from " \
        f"{small:g} packets ({100 * small / 10440:.1f} % of the BDP) on: {fast} (at B = 0: {o.tables['loss']['fast'].iloc[0]:.2f} %)"


def _w_fig8_erratum(o: Output) -> Verdict:
    t = o.tables["loss"]
    derived = bool(np.allclose(t["reno_closed"], t["reno"], atol=0.01))
    bdp = t.iloc[-1]
    return derived and not about(bdp["reno_printed"], bdp["reno"] + 1e-9), \
        f"closed form from the corrected P1 matches the epoch derivation: {derived}; at B = BDP printed " \
        f"{bdp['reno_printed']:.2f} % vs derived {bdp['reno']:.2f} %: the printed formula is the erratum"


def _check_w_conv(o: Output) -> Verdict:
    e = o.tables["epochs"]["epochs"]
    return int(e.min()) >= 0 and int(e.max()) <= 4, f"epochs {int(e.min())}-{int(e.max())} over the early fractions"


W_FIG8 = ('Paper W Sec II-C: "We can see that all the new congestion control algorithms have much smaller throughput '
          'loss when the loss signals are synchronized." (Fig. 8: "Synchronization throughput loss of different '
          'congestion control algorithm (Bandwidth Delay Product = 10440 packets)")')


@model("w-fig8", "Synchronisation throughput loss against buffer size", "W Sec. III-C.1, Fig. 8",
        bdp_pkts=float(sync_loss.FIG8_BDP_PACKETS), points=41,
        claims=[Claim("25% at B = 0 for Reno", "about 25 %", _w_fig8_reno,
                      sentence='Paper W Sec II-C: "Hence, the throughput loss due to synchronization is 25%. This gives '
                               'an upper bound of throughput loss due to synchronization for Reno with infinitely small '
                               'buffer." and "When B = 0, we get the result of 25% as we get from [8]."'),
                Claim("far less for BIC, Scalable, FAST (FAST: zero except at extremely small buffers)",
                      "BIC and Scalable at most half Reno's at every B > 0; FAST zero at every B > 0 of the grid",
                      _w_fig8_others,
                      sentence=W_FIG8 + ' and footnote 8: "Note that FAST has zero throughput loss except a point '
                               'where buffer is extremely small."'),
                Claim("the printed Reno formula contradicts P1 (a sign error)", "the corrected closed form equals the "
                      "epoch derivation; the printed one differs at B = BDP", _w_fig8_erratum,
                      sentence='Paper W Sec II-C (its typeset fractions written out): "P1 = ((1/2)w_max + cd)/2 T1 = '
                               '(1/8)B^2 + (3/8)(cd)^2 - (1/4)cdB [...] Hence the throughput loss due to synchronization '
                               'is (1/4)((cd)^2 + cdB - B^2)/((cd)^2 + cdB + B^2). When B = 0, we get the result of 25% '
                               'as we get from [8]."')],
        across=_rounds)
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


@model("w-conv", "Reno's convergence to fairness after unequal slow-start exits", "W Sec. III-B.1, eqs. (1)-(5)",
        capacity_mbps=100.0, rtt_ms=120.0, packet_bytes=1500, buffer_pkts=0.0, early=(0.1, 0.5, 0.9),
        claims=[Claim("0-4 epochs", "epochs between 0 and 4", _check_w_conv,
                      sentence='Paper W Sec II-B (its typeset formula written out): "Solving the equations (3) and (4), '
                               'we have: K = ceil(log2(20 - 20/(2-r))) ∈ [0, 4] (5) (5) shows the number of congestion '
                               'epochs that Reno takes to converge to fairness."')])
def _w_conv(p: Params) -> Output:
    r = grid(0.0, 1.0, 0.0025)
    cd = sync_loss.bdp_packets(float(p["capacity_mbps"]) * 1e6, float(p["rtt_ms"]) / 1000.0, int(p["packet_bytes"]))
    buf = float(p["buffer_pkts"])
    epochs = pd.DataFrame({"early_fraction": r, "epochs": sync_loss.convergence_epochs(r),
                           "rtts": sync_loss.convergence_rtts(r, cd, buf)})
    k = np.arange(0, 7)
    win = pd.DataFrame({"epoch": k})
    for e in p["early"]:
        win[f"share_{tag(e)}"] = sync_loss.window_after(k, e, cd, buf) / (cd + buf)
    facts = {
        "K range": f"{epochs['epochs'].min()}-{epochs['epochs'].max()} epochs",
        "one early flow of 16": f"K = {int(sync_loss.convergence_epochs(1 / 16))}, "
                                f"{float(sync_loss.convergence_rtts(1 / 16, cd, buf)):.0f} RTTs (cd = {cd:g} packets)",
    }
    panels = [
        Curves("epochs", "early_fraction", "fraction r of flows leaving slow start early", "epochs K to 95% of fair share",
              (Series("epochs", "K, eq. 5", "-"),), "(a) convergence epochs"),
        Curves("windows", "epoch", "congestion epoch k", "early flow's window / fair share",
              tuple(Series(f"share_{tag(e)}", f"r = {e:g}", "-") for e in p["early"]), "(b) eq. 3",
              hlines=((0.95, "95% of fair share"),)),
    ]
    return Output({"epochs": epochs, "windows": win}, panels, facts)
