"""Paper W's packet-level figures (TCP pacing revisited): panels and claims.

The sweeps (`scenarios/W-*.toml`) run on w-dumbbell: flows with one RTT on
a 1 Gb/s core, host pacing original or modified (paper W eq. 7).
"""

from __future__ import annotations

from typing import Callable, Dict, List

import numpy as np
import pandas as pd

from ..plot import Cdf, Lines, Panel
from ..units import parse_size
from .claims import Claim, Points, Verdict
from .figure import GOODPUT, THROUGHPUT, Figure

# --- Paper W: worst flow and aggregate throughput on its 1 Gb/s dumbbell ---

W_BUFFERS = ["30KB", "100KB", "300KB", "1MB", "3MB", "15MB"]
# Paper W Sec III-B: Reno at RTT 12 ms, BIC and FAST at 120 ms (the variants "Reno, paced", ...).
W_TCP = ["Reno", "BIC", "FAST"]
# Paced: original pacing (scenarios 1-4 precede the modified one); half paced: modified (Sec IV, scenario 6).
W_PACE = ["unpaced", "paced", "half paced"]


W_SETUP = ("w-dumbbell, 5 flows on 1 Gb/s, Reno at RTT 12 ms, BIC and FAST at 120 ms, starts U(0, 120 ms), "
           "on-off cross traffic (100 Mb/s while on, exp. 0.5 s on and off); 200 s; host pacing (original) "
           "or none; core buffer 30 KB to 15 MB (one BDP at 120 ms)")


def _w(metric: str, tcp: str, pace: str, buffer: str, p: Points) -> float:
    return p.at(metric, variant=f"{tcp}, {pace}", buffer=buffer)


def _bic_worst_doubles(p: Points) -> Verdict:
    ratios = {b: _w("goodput_kbps_min", "BIC", "paced", b, p) / _w("goodput_kbps_min", "BIC", "unpaced", b, p)
              for b in W_BUFFERS}
    return sum(r >= 1.5 for r in ratios.values()) * 2 > len(ratios), "BIC worst flow paced / unpaced: " + ", ".join(
        f"{b} x{r:.2f}" for b, r in ratios.items())


def _reno_fair(p: Points) -> Verdict:
    fair = {b: _w("goodput_kbps_min", "Reno", "unpaced", b, p) / _w("goodput_kbps_max", "Reno", "unpaced", b, p)
            for b in W_BUFFERS}
    big = [b for b in W_BUFFERS if parse_size(b) >= 300_000]
    return all(fair[b] >= 0.8 for b in big), "unpaced Reno worst / best flow: " + ", ".join(
        f"{b} {r:.2f}" for b, r in fair.items())


WS3 = Figure(
    id="W-s3",
    caption="Worst-flow throughput among 5 Reno and 5 BIC-TCP flows against the buffer",
    setup=W_SETUP,
    panels=[Panel("core.buffer", "goodput_kbps_min", ["variant"], where={"variant": [f"{t}, unpaced", f"{t}, paced"]},
                  title=f"({c}) {t}") for c, t in zip("ab", ["Reno", "BIC"])],
    claims=[Claim("Reno converges to fairness (but at tiny buffers)",
                  "unpaced Reno's worst flow at least 0.8 of its best at 300 KB and above", _reno_fair),
            Claim("pacing roughly doubles BIC's worst flow", "paced / unpaced BIC worst flow at least 1.5 at most buffers",
                  _bic_worst_doubles)],
)


def _paced_better_tiny(p: Points) -> Verdict:
    pairs = {(t, b): (_w(THROUGHPUT, t, "paced", b, p), _w(THROUGHPUT, t, "unpaced", b, p))
             for t in W_TCP for b in W_BUFFERS[:2]}
    return all(a > u for a, u in pairs.values()), "paced vs unpaced aggregate: " + ", ".join(
        f"{t} {b} {a:.0f} vs {u:.0f}" for (t, b), (a, u) in pairs.items())


def _reno_within_bound(p: Points) -> Verdict:
    thr = {b: _w(THROUGHPUT, "Reno", "paced", b, p) for b in W_BUFFERS}
    return min(thr.values()) >= 750, "paced Reno aggregate (Mb/s of 1000, cross traffic included): " + ", ".join(
        f"{b} {v:.0f}" for b, v in thr.items())


WS4 = Figure(
    id="W-s4",
    caption="Aggregate throughput of 5 paced and unpaced Reno, BIC and FAST flows against the buffer",
    setup=W_SETUP,
    panels=[Panel("core.buffer", THROUGHPUT, ["variant"], where={"variant": [f"{t}, unpaced", f"{t}, paced"]},
                  title=f"({c}) {t}", ylabel="Aggregate throughput (Mb/s)") for c, t in zip("abc", W_TCP)],
    claims=[Claim("paced better at tiny buffers", "paced aggregate above unpaced at 30 and 100 KB for each TCP",
                  _paced_better_tiny),
            Claim("Reno paced within the 25% bound", "paced Reno at least 75 % of the capacity at every buffer",
                  _reno_within_bound)],
)


def _half_beats_unpaced(p: Points) -> Verdict:
    """Paced flows in the mix (their mean goodput) against flows in an all-unpaced run; aggregates alike."""
    wins = {}
    for t in W_TCP:
        for b in W_BUFFERS:
            wins["goodput", t, b] = _w("goodput_kbps_paced", t, "half paced", b, p) >= _w(GOODPUT, t, "unpaced", b, p)
            wins["aggregate", t, b] = _w(THROUGHPUT, t, "half paced", b, p) >= _w(THROUGHPUT, t, "unpaced", b, p)
    n = sum(wins.values())
    return n * 2 > len(wins), f"half paced at or above all unpaced at {n} of {len(wins)} (metric, TCP, buffer) points; " \
                              "below at " + ", ".join(f"{m} {t} {b}" for (m, t, b), w in wins.items() if not w)


WS6 = Figure(
    id="W-s6",
    caption="Half of the flows paced: worst-flow (W-s6) and aggregate (W-s7) throughput",
    setup=W_SETUP + "; none, half (every second flow, modified pacing) or all flows paced",
    panels=[Panel("core.buffer", metric, ["variant"], where={"variant": [f"{t}, {q}" for q in W_PACE]},
                  title=f"{t}: {what}") for metric, what in [("goodput_kbps_min", "worst flow"), (THROUGHPUT, "aggregate")]
            for t in W_TCP],
    claims=[Claim("paced in mix still beat all-unpaced in most cases",
                  "paced flows' mean goodput in the mix, and the mix's aggregate, at or above the all-unpaced run's "
                  "at most (TCP, buffer) points",
                  _half_beats_unpaced)],
)

W_MIX = [f"{t}, {m}" for t in ["Reno", "SACK"] for m in ["original", "modified"]]


def _w5(metric: str, variant: str, p: Points) -> float:
    return p.at(metric, variant=variant)


def _w5_gap(variant: str, p: Points) -> float:
    """How much less the paced half gets than the unpaced half, relative."""
    return 1 - _w5("goodput_kbps_paced", variant, p) / _w5("goodput_kbps_unpaced", variant, p)


def _w5_check(variant: str, low: float, high: float, quoted: str):
    def check(p: Points) -> Verdict:
        gap = _w5_gap(variant, p)
        return low <= gap <= high, f"{variant}: paced {_w5('goodput_kbps_paced', variant, p):.0f} vs unpaced " \
                                   f"{_w5('goodput_kbps_unpaced', variant, p):.0f} Kb/s, {100 * gap:+.1f} % less ({quoted})"
    return check


def _w5_loss(p: Points) -> Verdict:
    paced, unpaced = (_w5(f"retransmit_rate_{g}", "Reno, original", p) for g in ("paced", "unpaced"))
    return paced < unpaced, f"Reno, original: retransmissions per packet paced {100 * paced:.2f} %, unpaced " \
                            f"{100 * unpaced:.2f} % (paper's loss per packet 0.65 vs 0.87 %)"


def _w5_sack(p: Points) -> Verdict:
    original, modified = _w5_gap("SACK, original", p), _w5_gap("SACK, modified", p)
    return 0 < modified < original, f"SACK: paced get {100 * original:.1f} % less with original pacing, " \
                                    f"{100 * modified:.1f} % less with modified"


WS5 = Figure(
    id="W-s5",
    caption="Paced vs non-paced flows competing: 20 of each on 57 Mb/s",
    setup="w-dumbbell with 40 flows (every second one paced by its host) on a 57 Mb/s core, RTT 100 ms (2 x (1 + 48 "
          "+ 1) ms), buffer one BDP (712 KB; paper W leaves it to its reference [6]), no cross traffic, 200 s measured "
          "from 20 s; Reno or SACK, original or modified pacing",
    panels=[Panel("variant", ["goodput_kbps_paced", "goodput_kbps_unpaced"], title="Mean goodput per flow",
                  ylabel="Goodput (Kb/s)"),
            Panel("variant", ["retransmit_rate_paced", "retransmit_rate_unpaced"], title="Retransmissions per packet",
                  ylabel="Retransmissions / packets sent")],
    claims=[Claim("original pacing loses", "Reno, original: paced flows at least 5 % below unpaced",
                  _w5_check("Reno, original", 0.05, 1.0, "paper: paced lose out")),
            Claim("modified pacing ≈ equal", "Reno, modified: within 5 % of each other",
                  _w5_check("Reno, modified", -0.05, 0.05, "paper: the same")),
            Claim("loss per packet 0.65% paced vs 0.87% unpaced", "Reno, original: paced lower than unpaced", _w5_loss),
            Claim("with SACK, paced still lose a little", "SACK: paced below unpaced with modified pacing, less so than "
                  "with original", _w5_sack)],
)

# --- W-s1 and W-s2: each flow's progress over time ---

SAMPLE = ("t_s", "flow", "bytes")


def _run_keys(progress: pd.DataFrame) -> List[str]:
    """The columns naming a run: its axes and seed."""
    return [c for c in progress.columns if c not in SAMPLE]


def latency_to(amount: int) -> Callable[[Dict[str, pd.DataFrame]], pd.DataFrame]:
    """Per run and flow, the first sample time at which it had delivered `amount` bytes
    (paper W's latency of a transfer of that size; a flow that never did is left out)."""
    def derive(rows: Dict[str, pd.DataFrame]) -> pd.DataFrame:
        p = rows["progress"]
        done = p[p["bytes"] >= amount].groupby(_run_keys(p) + ["flow"], sort=False)["t_s"].min()
        return done.rename("latency_s").reset_index()
    return derive


def extremes(window_s: float) -> Callable[[Dict[str, pd.DataFrame]], pd.DataFrame]:
    """Per run and window of `window_s`, the slowest and the fastest flow's
    throughput over it, Mb/s (rows `which` = "slowest" | "fastest")."""
    def derive(rows: Dict[str, pd.DataFrame]) -> pd.DataFrame:
        p = rows["progress"]
        p = p[np.isclose(p["t_s"] / window_s, np.round(p["t_s"] / window_s))]
        keys = _run_keys(p)
        p = p.sort_values(keys + ["flow", "t_s"])
        rate = p.groupby(keys + ["flow"], sort=False)["bytes"].diff() * 8 / window_s / 1e6
        p = p.assign(throughput_mbps=rate).dropna(subset=["throughput_mbps"])
        g = p.groupby(keys + ["t_s"], sort=False)["throughput_mbps"]
        both = pd.concat([g.min().reset_index().assign(which="slowest"), g.max().reset_index().assign(which="fastest")])
        return both.reset_index(drop=True)
    return derive


def _slowest_latency(p: Points, scheme: str) -> float:
    """The slowest flow's latency to 1 MB, mean over seeds."""
    t = p.rows("latency", scheme=scheme)
    return float(t.groupby("seed")["latency_s"].max().mean())


def _slowest_twice(p: Points) -> Verdict:
    unpaced, paced = _slowest_latency(p, "none"), _slowest_latency(p, "host")
    ratio = unpaced / paced
    return 1.5 <= ratio <= 2.5, f"slowest flow to 1 MB: unpaced {1e3 * unpaced:.0f} ms, paced {1e3 * paced:.0f} ms " \
                                f"(x{ratio:.2f}; paper about 2)"


def _advantage_lasts(p: Points) -> Verdict:
    ex = p.rows("extremes")
    slow = ex[ex["which"] == "slowest"].groupby(["pacing.scheme", "t_s"])["throughput_mbps"].mean().unstack(0)
    ahead = slow[slow["host"] > 1.1 * slow["none"]].index
    last = float(ahead.max()) if len(ahead) else 0.0
    return 2 <= last <= 6, f"the paced slowest flow is over 10 % ahead of the unpaced one until {last:g} s (paper about 4 s)"


WS1 = Figure(
    id="W-s1",
    caption="Latency of 16 parallel SACK flows in a LAN to their first 1 MB, paced and unpaced",
    setup="w-dumbbell: 16 SACK flows on 1 Gb/s, 3 ms (375 KB) buffer, RTT 2.5 ms, starts U(0, 0.5 ms), on-off cross "
          "traffic at 1 %; host pacing (original) or none; 10 s, 3 seeds; progress sampled every 1 ms",
    tables=("progress",),
    derived={"latency": latency_to(1_000_000), "extremes": extremes(0.1)},
    panels=[Cdf("latency", "latency_s", ["pacing.scheme"], "Time to the first 1 MB (s)", title="Latency per flow"),
            Lines("extremes", "t_s", "throughput_mbps", ["pacing.scheme", "which"], "time (s)",
                  "Throughput over 100 ms (Mb/s)", title="Slowest and fastest flow", logx=False, logy=False)],
    claims=[Claim("slowest unpaced flow ≈2x the paced latency", "slowest unpaced / slowest paced latency to 1 MB in "
                  "[1.5, 2.5]", _slowest_twice),
            Claim("advantage lasts ≈4 s", "the paced slowest flow over 10 % ahead of the unpaced one until a time in "
                  "[2, 6] s", _advantage_lasts)],
)


def _slowest_mean(p: Points, tcp: str, scheme: str) -> float:
    ex = p.rows("extremes", tcp=tcp, scheme=scheme)
    return float(ex[ex["which"] == "slowest"]["throughput_mbps"].mean())


def _bic_half(p: Points) -> Verdict:
    unpaced, paced = _slowest_mean(p, "bic", "none"), _slowest_mean(p, "bic", "host")
    return unpaced <= 0.65 * paced, f"BIC slowest flow, mean over the run: unpaced {unpaced:.1f}, paced {paced:.1f} " \
                                    f"Mb/s (x{unpaced / paced:.2f}; paper about 0.5)"


def _fast_small_gap(p: Points) -> Verdict:
    unpaced, paced = _slowest_mean(p, "fast", "none"), _slowest_mean(p, "fast", "host")
    return unpaced >= 0.8 * paced, f"FAST slowest flow: unpaced {unpaced:.1f}, paced {paced:.1f} Mb/s " \
                                   f"(x{unpaced / paced:.2f})"


WS2 = Figure(
    id="W-s2",
    caption="Slowest and fastest of 16 BIC-TCP and FAST flows in a WAN over time, paced and unpaced",
    setup="w-dumbbell: 16 flows on 1 Gb/s, buffer one BDP (15 MB), RTT 120 ms, starts U(0, 120 ms), on-off cross "
          "traffic at 10 %; BIC or FAST; host pacing (original) or none; 200 s; progress sampled every second",
    tables=("progress",),
    derived={"extremes": extremes(1.0)},
    panels=[Lines("extremes", "t_s", "throughput_mbps", ["pacing.scheme", "which"], "time (s)",
                  "Throughput over 1 s (Mb/s)", where={"tcp.variant": v}, title=f"({c}) {name}", logx=False,
                  logy=False) for c, v, name in [("a", "bic", "BIC-TCP"), ("b", "fast", "FAST")]],
    claims=[Claim("slowest unpaced BIC ≈ half the slowest paced", "BIC's slowest flow unpaced at most 0.65 of paced, "
                  "mean over the run", _bic_half),
            Claim("FAST gap small", "FAST's slowest flow unpaced at least 0.8 of paced", _fast_small_gap)],
)
