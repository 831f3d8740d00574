"""The catalogue's claims on the analytical models, beside the models (`models.MODELS`).

Each claim quotes docs/experiments.md for a model id and checks the
model's own numbers (its tables at the papers' parameters) by the rules of
`pacesim.reproduce.claims` ("about", orderings, "linear"). `pacesim model
ID` prints them; the per-paper reproduction tables take them from here, so
every catalogue id has its verdicts in one place.
"""

from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np

from ..reproduce.claims import LINEAR_R2, Claim, Verdict, about, beats
from ..reproduce.verdicts import Judged, claim_ids, judge
from .models import MODELS, Output


def _argmin(o: Output, table: str, column: str, lo: float = 0.0, hi: float = np.inf) -> float:
    t = o.tables[table]
    t = t[(t["buffer_kb"] >= lo) & (t["buffer_kb"] <= hi)]
    return float(t["buffer_kb"].iloc[int(np.argmin(t[column].to_numpy()))])


def _monotone(ys, rising: bool) -> bool:
    """Every step in the direction (exact model numbers: no margin)."""
    d = np.diff(np.asarray(ys, dtype=float))
    return bool(np.all(d > 0) if rising else np.all(d < 0))


def _e_fig10_shapes(o: Output) -> Verdict:
    t = o.tables["curve"]
    ok = _monotone(t["T_light"], True) and _monotone(t["T_heavy"], False)
    return ok, f"T(d)/T(0) at d = {t['d_ms'].iloc[-1]:g} ms: light {t['T_light'].iloc[-1] / t['T_light'].iloc[0]:.3f}, " \
               f"heavy {t['T_heavy'].iloc[-1] / t['T_heavy'].iloc[0]:.3f}"


def _e_model_pacer(o: Output) -> Verdict:
    t = o.tables["pacer"].iloc[1:]  # d > 0
    cols = [c for c in t.columns if c != "d_ms"]
    ok = all(_monotone(t[c], False) for c in cols)
    return ok, "burstiness β and the loss bound fall with d at every load: " + ", ".join(
        f"{c} {t[c].iloc[0]:.3g} -> {t[c].iloc[-1]:.3g}" for c in cols)


def _a_fig6(o: Output) -> Verdict:
    t = o.tables["buffers"]
    peak = float(t["buffer_kb"].iloc[int(np.argmax(t["time_share_kb"]))])
    d = np.diff(t["effective_kb"].to_numpy())
    falls = bool((d < 0).any()) and d[0] > 0 and d[-1] > 0
    return 0 < peak < t["buffer_kb"].max() and falls, f"time share peaks at {peak:g} KB; total rises, falls over " \
        f"{int((d < 0).sum())} steps, rises again"


def _a_fig10(o: Output) -> Verdict:
    t = o.tables["chain"]
    low = t[(t["buffer_kb"] >= 1) & (t["buffer_kb"] <= 8)]["udp_loss"]
    high = t[(t["buffer_kb"] >= 9) & (t["buffer_kb"] <= 30)]["udp_loss"]
    return _monotone(low, False) and _monotone(high, True), \
        f"UDP loss {low.iloc[0]:.3g} at 1 KB -> {low.iloc[-1]:.3g} at 8 KB; {high.iloc[0]:.3g} at 9 KB -> {high.iloc[-1]:.3g} at 30 KB"


def _a_fig16(o: Output) -> Verdict:
    t = o.tables["f0.8"]
    r2 = float(np.corrcoef(t["buffer_kb"], t["effective_kb"])[0, 1] ** 2)
    return r2 >= LINEAR_R2, f"f = 0.8: R² of the total against B {r2:.4f} (linear: >= {LINEAR_R2})"


BSTARS = [1, 4, 7, 10, 14]


def _tcp_needs_more(o: Output) -> Verdict:
    t = o.tables["sweep"]
    need = []
    for b in BSTARS:
        y = t[f"tcp_throughput_{b}"].to_numpy()
        need.append(float(t["buffer_kb"].iloc[int(np.argmax(y >= 0.95 * y.max()))]))
    return all(beats(b, a) for a, b in zip(need, need[1:])), "buffer to 95 % of the largest TCP throughput, B* " + \
        "/".join(map(str, BSTARS)) + " KB: " + ", ".join(f"{x:g}" for x in need) + " KB"


def _anomaly_grows(o: Output) -> Verdict:
    """Among the B* whose UDP loss dips then rises within 1-50 KB: the minimum moves right and the rise grows."""
    t = o.tables["sweep"]
    found = []
    for b in BSTARS:
        y = t[f"udp_loss_{b}"].to_numpy()
        i = int(np.argmin(y))
        if 0 < i < len(y) - 1:
            found.append((b, float(t["buffer_kb"].iloc[i]), float(y[i:].max() / y[i])))
    ok = len(found) >= 2 and all(b[1] >= a[1] and beats(b[2], a[2]) for a, b in zip(found, found[1:]))
    return ok, "; ".join(f"B* {b} KB: lowest at {x:g} KB, rising x{r:.2f}" for b, x, r in found) + \
        f" (no inner minimum for B* {', '.join(str(b) for b in BSTARS if b not in [f[0] for f in found])})"


RATIOS = [25, 10, 5, 2, 1]


def _a_fig22_order(o: Output) -> Verdict:
    t = o.tables["sweep"]
    cols = [f"udp_loss_ratio{r}" for r in RATIOS]
    ok = all(beats(t[b].iloc[i], t[a].iloc[i]) for i in range(len(t)) for a, b in zip(cols, cols[1:]))
    return ok, "UDP loss at every buffer rises from ratio 25 (40 B) to 1 (1000 B): at 10 KB " + ", ".join(
        f"{r}: {t[c].iloc[int(np.argmin(abs(t['buffer_kb'] - 10)))]:.3g}" for r, c in zip(RATIOS, cols))


def _inflection_about(table: str, columns: List[str], target: float):
    def check(o: Output) -> Verdict:
        at = {c: _argmin(o, table, c, 1, 30) for c in columns}
        return all(about(x, target) for x in at.values()), "UDP loss lowest over 1-30 KB at " + ", ".join(
            f"{c} {x:g} KB" for c, x in at.items()) + f" (about {target:g})"
    return check


def _q_thm1(o: Output) -> Verdict:
    worst = float(o.tables["delay"]["delay_ms"].max())
    return worst <= 8 + 1e-9, f"largest steady-state delay {worst:.3f} ms; Q_max / mu_max = 8 ms"


def _q_thm2(o: Output) -> Verdict:
    r = o.tables["cov_ratio"]["cov_ratio"].to_numpy()
    return _monotone(r, False), "CoV ratio for Q_max " + ", ".join(
        f"{q:g}: {v:.3f}" for q, v in zip(o.tables["cov_ratio"]["q_max_pkts"], r))


def _w_fig8_reno(o: Output) -> Verdict:
    t = o.tables["loss"]
    return about(float(t["reno"].iloc[0]), 25), f"Reno at B = 0: {t['reno'].iloc[0]:.2f} % (paper 25 %)"


def _w_fig8_others(o: Output) -> Verdict:
    t = o.tables["loss"].iloc[1:]  # B > 0
    far = all(bool((t[c] <= t["reno"] / 2).all()) for c in ("bic", "scalable"))
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


def _w_conv(o: Output) -> Verdict:
    e = o.tables["epochs"]["epochs"]
    return int(e.min()) >= 0 and int(e.max()) <= 4, f"epochs {int(e.min())}-{int(e.max())} over the early fractions"


CLAIMS: Dict[str, List[Claim]] = {
    "e-model": [Claim("β = 1/sqrt(2λd); L ≤ (λe^(1-λ))^(2d)", "burstiness and loss bound fall with d at every load",
                      _e_model_pacer)],
    "e-fig10": [Claim("low load (small buffer): rising in d; high load (large buffer): falling",
                      "T(d) rising at every step for the light load, falling for the heavy", _e_fig10_shapes)],
    "a-fig6": [Claim("time-share part rises then falls; total has an anomalous region",
                     "time share peaks inside the range; the total rises, falls, rises", _a_fig6)],
    "a-fig10": [Claim("UDP loss falls over 1-8 KB, rises over 9-30 KB", "every step down over 1-8 KB, up over 9-30 KB",
                      _a_fig10)],
    "a-fig16": [Claim("total nearly linear at 0.8", f"R² of the total against B at least {LINEAR_R2}", _a_fig16)],
    "a-fig18": [Claim("larger B*: TCP needs more buffer", "buffer to 95 % of the largest TCP throughput: each larger "
                      "B* beats the smaller", _tcp_needs_more)],
    "a-fig19": [Claim("UDP loss (and the anomaly) more pronounced, inflection slightly right",
                      "among B* with an inner minimum, it does not move left and the rise after it beats the smaller "
                      "B*'s", _anomaly_grows)],
    "a-fig22": [Claim("matches A-fig21's order", "UDP loss at every buffer: each larger UDP packet beats the smaller",
                      _a_fig22_order),
                Claim("inflection ≈8 KB", "UDP loss lowest over 1-30 KB at about 8 KB, every ratio",
                      _inflection_about("sweep", [f"udp_loss_ratio{r}" for r in RATIOS], 8))],
    "a-md1": [Claim("inflection ≈8 KB, like the M/M/1/B chain", "UDP loss lowest over 1-30 KB at about 8 KB, M/D/1/B "
                    "and the Erlang-1 chain", _inflection_about("sweep", ["udp_loss_md1", "udp_loss_erlang1"], 8))],
    "q-thm1": [Claim("pacing delay ≤ Qmax/μmax in steady state", "largest delay at most 8 ms", _q_thm1)],
    "q-thm2": [Claim("closed form (paper eq. 6)", "CoV ratio of 50 ms bins falls with Q_max (the simulated "
                     "comparison: `pacesim model q-thm2 --simulate`)", _q_thm2)],
    "w-fig8": [Claim("25% at B = 0 for Reno", "about 25 %", _w_fig8_reno),
               Claim("far less for BIC, Scalable, FAST (FAST: zero except at extremely small buffers)",
                     "BIC and Scalable at most half Reno's at every B > 0; FAST zero at every B > 0 of the grid",
                     _w_fig8_others),
               Claim("the printed Reno formula contradicts P1 (a sign error)", "the corrected closed form equals the "
                     "epoch derivation; the printed one differs at B = BDP", _w_fig8_erratum)],
    "w-conv": [Claim("0-4 epochs", "epochs between 0 and 4", _w_conv)],
}


def model_of(catalogue_id: str) -> Optional[str]:
    """The model id of a single catalogue id ("A-fig18" -> "a-fig18"), None if no model has it."""
    return catalogue_id.lower() if catalogue_id.lower() in MODELS else None


def catalogue_id(model_id: str) -> str:
    """"a-fig18" -> "A-fig18", "e-model" -> "E-model"."""
    return model_id[0].upper() + model_id[1:]


def judge_model(model_id: str, output: Optional[Output] = None) -> List[Judged]:
    """Model `model_id`'s claims judged on its output (built at the papers' parameters unless given)."""
    model = MODELS[model_id]
    out = output if output is not None else model.build(dict(model.defaults))
    claims = CLAIMS.get(model_id, [])
    return [judge(cid, c.expect, c.test, *c.evaluate(out))
            for cid, c in zip(claim_ids(catalogue_id(model_id), claims), claims)]
