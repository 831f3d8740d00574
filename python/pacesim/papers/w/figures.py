"""Paper W's packet-level figures (TCP pacing revisited): panels and claims.

The sweeps (`scenarios/W-*.toml`) run on w-dumbbell: flows with one RTT on
a 1 Gb/s core, host pacing original or modified (paper W eq. 7). The rules
that read the papers' words are `claims.py`'s; each claim quotes the
paper's sentence it reads.
"""

from __future__ import annotations

from typing import Callable, Dict, List

import numpy as np
import pandas as pd

from ...panels import Cdf, Lines, Panel
from ...reproduce.claims import Claim, Points, Verdict, about, about_check, beats, much_smaller, slightly_beats
from ...reproduce.figure import TCP_THROUGHPUT, Figure

# --- Paper W: worst flow and aggregate throughput on its 1 Gb/s dumbbell ---

W_BUFFERS = ["30KB", "100KB", "300KB", "1MB", "3MB", "15MB"]
# Reno's own grid in W-s3 (scenarios/W-s3.toml): BIC's scaled by Reno's RTT, 12 of 120 ms, so that it ends at Reno's
# bandwidth-delay product (1 Gb/s x 12 ms = 1.5 MB) as BIC's ends at its own (15 MB): paper W Sec II-B scenario 3
# is "the same scenario as in Scenario 2" (buffer one BDP) "with the change of bottleneck buffer sizes".
W_RENO_BUFFERS = ["3KB", "10KB", "30KB", "100KB", "300KB", "1.5MB"]
# Paper W Sec III-B: Reno at RTT 12 ms, BIC and FAST at 120 ms (the variants "Reno, paced", ...).
W_TCP = ["Reno", "BIC", "FAST"]
# Paced: original pacing (scenarios 1-4 precede the modified one); half paced: modified (Sec IV, scenario 6).
W_PACE = ["unpaced", "paced", "half paced"]


W_SETUP = ("w-dumbbell, 5 flows on 1 Gb/s, 1500 B packets, Reno at RTT 12 ms, BIC and FAST at 120 ms, starts "
           "U(0, 120 ms), on-off cross traffic (100 Mb/s while on, exp. 0.5 s on and off); 200 s; host pacing "
           "(original) or none; core buffer 30 KB to 15 MB (one BDP at 120 ms)")
W4_SETUP = W_SETUP.replace("on-off cross traffic (100 Mb/s while on, exp. 0.5 s on and off)", "no cross traffic")
SEGMENT = 1460
"""Paper W's payload per packet: 1500 B on the wire (MTU) less 40 B of header, as the W sweeps set."""


def _w(metric: str, tcp: str, pace: str, buffer: str, p: Points) -> float:
    return p.at(metric, variant=f"{tcp}, {pace}", buffer=buffer)


def _bic_worst_doubles(p: Points) -> Verdict:
    ratios = {b: _w("goodput_kbps_min", "BIC", "paced", b, p) / _w("goodput_kbps_min", "BIC", "unpaced", b, p)
              for b in W_BUFFERS}
    return sum(about(r, 2) for r in ratios.values()) * 2 > len(ratios), "BIC worst flow paced / unpaced: " + ", ".join(
        f"{b} x{r:.2f}" for b, r in ratios.items())


FAIR = 0.95
"""Paper W Sec II-B's convergence to fairness: a flow within 95 % of its fair share ("the time it takes for the
i-th flow to converge to 95% of its fair share")."""


def _reno_fair(p: Points) -> Verdict:
    """Unpaced Reno's worst flow at least `FAIR` of the flows' mean (their fair share) at every buffer of Reno's
    grid but its two smallest, 2 and 7 packets: "extremely small", the same shares of the BDP as the two that
    W-s4's "very small" names on BIC's grid."""
    fair = {b: _w("goodput_kbps_min", "Reno", "unpaced", b, p) / _w("goodput_kbps_mean", "Reno", "unpaced", b, p)
            for b in W_RENO_BUFFERS}
    return all(fair[b] >= FAIR for b in W_RENO_BUFFERS[2:]), "unpaced Reno worst flow / fair share (the mean): " + \
        ", ".join(f"{b} {r:.3f}" for b, r in fair.items()) + f" (at least {FAIR:g} from {W_RENO_BUFFERS[2]})"


WS3 = Figure(
    id="W-s3",
    caption="Worst-flow throughput among 5 Reno and 5 BIC-TCP flows against the buffer",
    setup=W_SETUP + "; Reno on its own grid, 3 KB to 1.5 MB (its BDP at 12 ms)",
    panels=[Panel("core.buffer", "goodput_kbps_min", ["variant"],
                  where={"variant": [f"{t}, unpaced", f"{t}, paced"], "core.buffer": grid}, title=f"({c}) {t}")
            for c, t, grid in zip("ab", ["Reno", "BIC"], [W_RENO_BUFFERS, W_BUFFERS])],
    claims=[Claim("Reno converges to fairness (but at tiny buffers)",
                  f"on Reno's own grid (to its BDP, 1.5 MB), unpaced Reno's worst flow at least {FAIR:g} of the "
                  f"flows' mean (paper W's convergence) from {W_RENO_BUFFERS[2]} up", _reno_fair,
                  sentence='Paper W Sec II-B: "We can see that Reno converges to fairness after 200 seconds, except '
                           'when the buffer size is extremely small."'),
            Claim("pacing roughly doubles BIC's worst flow", "paced / unpaced BIC worst flow about 2 at most buffers",
                  _bic_worst_doubles,
                  sentence='Paper W Sec II-B: "BIC-TCP does not converge to fairness even after 200 seconds. And the '
                           'unfairness persists with different bottleneck buffer sizes. With pacing, BIC-TCP can double '
                           'its worst-flow throughput in most cases."')],
)


def _paced_better_tiny(p: Points) -> Verdict:
    pairs = {(t, b): (_w(TCP_THROUGHPUT, t, "paced", b, p), _w(TCP_THROUGHPUT, t, "unpaced", b, p))
             for t in W_TCP for b in W_BUFFERS[:2]}
    return all(beats(a, u) for a, u in pairs.values()), "paced vs unpaced TCP throughput: " + ", ".join(
        f"{t} {b} {a:.0f} vs {u:.0f}" for (t, b), (a, u) in pairs.items())


CAPACITY_MBPS = 1000.0
"""Paper W's bottleneck, 1 Gb/s."""


def _better_and_better(p: Points) -> Verdict:
    """Paced flows' throughput loss (1 - TCP throughput / capacity: Fig. 8's quantity), averaged over the buffers:
    Reno's beats BIC's, BIC's beats FAST's (each more by the ordering rule)."""
    loss = {t: sum(1 - _w(TCP_THROUGHPUT, t, "paced", b, p) / CAPACITY_MBPS for b in W_BUFFERS) / len(W_BUFFERS)
            for t in W_TCP}
    values = list(loss.values())
    return all(beats(a, b) for a, b in zip(values, values[1:])), "paced flows' throughput loss (of the 1 Gb/s), " \
        "averaged over the buffers: " + " > ".join(f"{t} {100 * x:.2f} %" for t, x in loss.items())


def _bic_at_bdp(p: Points) -> Verdict:
    a, u = _w(TCP_THROUGHPUT, "BIC", "paced", "15MB", p), _w(TCP_THROUGHPUT, "BIC", "unpaced", "15MB", p)
    return beats(a, u), f"BIC at 15 MB (one BDP): paced {a:.0f} vs unpaced {u:.0f} Mb/s"


def _reno_slightly_loses(p: Points) -> Verdict:
    """Unpaced Reno beats paced Reno at most buffers, slightly (`claims.slightly_beats`: by less than 10 %) at each
    of them, and by 10 % or more at none."""
    pairs = {b: (_w(TCP_THROUGHPUT, "Reno", "unpaced", b, p), _w(TCP_THROUGHPUT, "Reno", "paced", b, p)) for b in W_BUFFERS}
    loses = [b for b, (u, a) in pairs.items() if beats(u, a)]
    slight = all(slightly_beats(*pairs[b]) for b in loses)
    return 2 * len(loses) > len(pairs) and slight, "Reno TCP throughput, unpaced vs paced (Mb/s): " + ", ".join(
        f"{b} {u:.0f} vs {a:.0f} ({100 * (a / u - 1):+.1f} %)" for b, (u, a) in pairs.items()) + \
        f"; paced loses at {len(loses)} of {len(pairs)}"


def _reno_within_bound(p: Points) -> Verdict:
    thr = {b: _w(TCP_THROUGHPUT, "Reno", "paced", b, p) for b in W_BUFFERS}
    return min(thr.values()) >= 750, "paced Reno TCP throughput (Mb/s of 1000): " + ", ".join(
        f"{b} {v:.0f}" for b, v in thr.items())


W2C_RENO = ('Paper W Sec II-C: "Although paced Reno slightly loses to non-paced Reno due to synchronization, the '
            'performance loss is within the upper bound of 25% in our prediction."')

WS4 = Figure(
    id="W-s4",
    caption="Aggregate throughput of 5 paced and unpaced Reno, BIC and FAST flows against the buffer",
    setup=W4_SETUP,
    panels=[Panel("core.buffer", TCP_THROUGHPUT, ["variant"], where={"variant": [f"{t}, unpaced", f"{t}, paced"]},
                  title=f"({c}) {t}", ylabel="Aggregate TCP throughput (Mb/s)") for c, t in zip("abc", W_TCP)],
    claims=[Claim("paced better at tiny buffers", "paced TCP throughput beats unpaced at 30 and 100 KB for each TCP",
                  _paced_better_tiny,
                  sentence='Paper W Sec II-C: "Our results show that paced TCP flows has better performance than '
                           'non-paced flows when buffer size is very small, due to its advantages in lower level '
                           'control."'),
            Claim("from Reno to BIC to FAST paced gets better and better", "paced flows' throughput loss (of the "
                  "capacity, Fig. 8's quantity) averaged over the buffers: Reno's beats BIC's, BIC's beats FAST's",
                  _better_and_better,
                  sentence='Paper W Sec II-C: "From Reno to BIC-TCP to FAST, the throughput of paced TCP becomes better '
                           'and better, as predicted by our calculation."'),
            Claim("paced BIC better even at buffer = BDP", "paced BIC beats unpaced at 15 MB", _bic_at_bdp,
                  sentence='Paper W Sec II-C: "One interesting phenomenon is that pacing can improve the performance of '
                           'BIC-TCP even when the buffer size is equal to bandwidth delay product."'),
            Claim("paced Reno's TCP throughput loss within the 25% bound", "paced Reno's TCP throughput (no cross "
                  "traffic) at least 75 % of the capacity at every buffer", _reno_within_bound, sentence=W2C_RENO),
            Claim("paced Reno slightly loses to unpaced Reno", "unpaced Reno beats paced Reno in TCP throughput at most "
                  "buffers, by less than 10 % wherever it does", _reno_slightly_loses, sentence=W2C_RENO)],
)


W6_TCP = ["Reno", "BIC"]
"""Scenario 6's TCPs: its Figs. 15 and 16 are Reno's and BIC's; footnote 11 sets FAST aside ("Again, FAST has very
similar worst-flow throughput when it is paced or non-paced"), so FAST's points cannot show a paced flow winning."""


def _mix_beats_unpaced(p: Points) -> Verdict:
    """In most (TCP, buffer) cases of Reno and BIC, the slowest paced flow of the half-paced run beats the slowest
    flow of the all-unpaced run."""
    wins = {(t, b): beats(_w("goodput_kbps_min_paced", t, "half paced", b, p), _w("goodput_kbps_min", t, "unpaced", b, p))
            for t in W6_TCP for b in W_BUFFERS}
    n = sum(wins.values())
    return n * 2 > len(wins), f"worst flow: the mix's paced beats all-unpaced at {n} of {len(wins)} (TCP, buffer) " \
        "points (Reno and BIC; FAST set aside by footnote 11); not at " + (
            ", ".join(f"{t} {b}" for (t, b), w in wins.items() if not w) or "none")


WS6 = Figure(
    id="W-s6",
    caption="Half of the flows paced: worst-flow (W-s6) and aggregate (W-s7) throughput",
    setup=W_SETUP + "; none, half (every second flow, modified pacing) or all flows paced",
    panels=[Panel("core.buffer", metric, ["variant"], where={"variant": [f"{t}, {q}" for q in W_PACE]},
                  title=f"{t}: {what}") for metric, what in [("goodput_kbps_min", "worst flow"), (TCP_THROUGHPUT, "aggregate")]
            for t in W_TCP],
    also=("W-s7",),
    claims=[Claim("W-s6: worst-flow throughput of paced flows in the mix beats the worst flow of all-unpaced in most "
                  "cases", "the slowest paced flow of the half-paced run beats the slowest flow of the all-unpaced run "
                  "at most (TCP, buffer) points of Reno and BIC (footnote 11 sets FAST aside)",
                  _mix_beats_unpaced,
                  sentence='Paper W Sec III-C: "In most of the cases, paced flows in mixed environment are still '
                           'performing better than non-paced flows in isolation." and its footnote 11: "Again, FAST has '
                           'very similar worst-flow throughput when it is paced or non-paced."')],
)

W_MIX = [f"{t}, {m}" for t in ["Reno", "SACK"] for m in ["original", "modified"]]


def _w5(metric: str, variant: str, p: Points) -> float:
    return p.at(metric, variant=variant)


def _w5_gap(variant: str, p: Points) -> float:
    """How much less the paced half gets than the unpaced half, relative."""
    return 1 - _w5("goodput_kbps_paced", variant, p) / _w5("goodput_kbps_unpaced", variant, p)


def _w5_unpaced_win(variant: str):
    def check(p: Points) -> Verdict:
        a, u = _w5("goodput_kbps_paced", variant, p), _w5("goodput_kbps_unpaced", variant, p)
        gap = _w5_gap(variant, p)
        return beats(u, a), f"{variant}: paced {a:.0f} vs unpaced {u:.0f} Kb/s ({100 * abs(gap):.1f} % " \
            f"{'less' if gap >= 0 else 'more'})"
    return check


def _w5_equal(p: Points) -> Verdict:
    a, u = _w5("goodput_kbps_paced", "Reno, modified", p), _w5("goodput_kbps_unpaced", "Reno, modified", p)
    ok, text = about_check(a / u, 1, "Reno, modified: paced / unpaced goodput")
    return ok, f"{text} ({a:.0f} vs {u:.0f} Kb/s)"


def _w5_rates(metric: str, quoted: tuple, what: str):
    """Reno, original: paced and unpaced `metric` each about the paper's (Table I)."""
    def check(p: Points) -> Verdict:
        got = [_w5(f"{metric}_{g}", "Reno, original", p) for g in ("paced", "unpaced")]
        verdicts = [about_check(100 * v, q, f"{g} {what} %") for v, q, g in zip(got, quoted, ("paced", "unpaced"))]
        return all(ok for ok, _ in verdicts), "; ".join(text for _, text in verdicts)
    return check


def _w5_sack(p: Points) -> Verdict:
    original, modified = _w5_gap("SACK, original", p), _w5_gap("SACK, modified", p)
    a, u = _w5("goodput_kbps_paced", "SACK, modified", p), _w5("goodput_kbps_unpaced", "SACK, modified", p)
    return beats(u, a) and much_smaller(modified, original), f"SACK: paced get {100 * original:.1f} % less with original " \
        f"pacing, {100 * modified:.1f} % less with modified (at most half of it: 'by much less')"


W3B_TABLE = ('Paper W Sec III-B: "We measure the average per-packet loss rate and average loss event rate of the flows '
             'in Table I." (Table I: per-packet loss rate 0.6469% paced, 0.8663% non-paced; loss event rate 6.75% and '
             '8.75%)')

WS5 = Figure(
    id="W-s5",
    caption="Paced vs non-paced flows competing: 20 of each on 57 Mb/s",
    setup="w-dumbbell with 40 flows (every second one paced by its host) of 1500 B packets on a 57 Mb/s core, RTT 100 ms (2 x (1 + 48 "
          "+ 1) ms), buffer one BDP (712 KB; paper W leaves it to its reference [6]), no cross traffic, 200 s measured "
          "from 20 s; Reno or SACK, original or modified pacing",
    panels=[Panel("variant", ["goodput_kbps_paced", "goodput_kbps_unpaced"], title="Mean goodput per flow",
                  ylabel="Goodput (Kb/s)"),
            Panel("variant", ["retransmit_rate_paced", "retransmit_rate_unpaced"], title="Retransmissions per packet",
                  ylabel="Retransmissions / packets sent"),
            Panel("variant", ["loss_event_rate_paced", "loss_event_rate_unpaced"], title="Loss events per round trip",
                  ylabel="Loss events / RTT (each flow's mean)")],
    claims=[Claim("original pacing loses", "Reno, original: unpaced flows beat paced in goodput",
                  _w5_unpaced_win("Reno, original"),
                  sentence='Paper W Sec III-B: "If we use the original pacing in Reno, we observe the same phenomenon '
                           'that paced flows loss out to non-paced flows, as shown by the blue curves in Figure 13."'),
            Claim("modified pacing ≈ equal", "Reno, modified: paced / unpaced goodput about 1", _w5_equal,
                  sentence='Paper W Sec III-B: "With the modified pacing algorithm, paced flows have the same aggregate '
                           'throughput as the non-paced flows, as shown by the red curves in Figure 13."'),
            Claim("loss per packet 0.65% paced vs 0.87% unpaced", "Reno, original: retransmissions per packet sent "
                  "(the sender's per-packet loss) about 0.65 % paced and 0.87 % unpaced",
                  _w5_rates("retransmit_rate", (0.6469, 0.8663), "per-packet loss"), sentence=W3B_TABLE),
            Claim("loss-event rate 6.75% vs 8.75%", "Reno, original: loss events (fast retransmits and timeouts: a round "
                  "trip with loss each) per round trip of the flow's life, a round trip its mean RTT (footnote 10), "
                  "about 6.75 % paced and 8.75 % unpaced",
                  _w5_rates("loss_event_rate", (6.75, 8.75), "loss-event rate"),
                  sentence=W3B_TABLE + ' and its footnote 10: "Loss event rate is calculated as the number of RTTs '
                                       'experiencing loss over the number of RTTs in the life of a flow. The average '
                                       'is taken over all the paced flows or non-paced flows"'),
            Claim("with SACK, modified-paced flows still lose, by much less than original", "SACK, modified: unpaced "
                  "beat paced, by at most half the original pacing's deficit", _w5_sack,
                  sentence='Paper W Sec III-B: "However, when working with SACK, the modified paced flows still lose out '
                           'to non-paced flows, though the difference is much smaller than the one with the original '
                           'pacing."')],
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
    return about(ratio, 2), f"slowest flow to 1 MB: unpaced {1e3 * unpaced:.0f} ms, paced {1e3 * paced:.0f} ms " \
                                f"(x{ratio:.2f}; paper about 2)"


def _advantage_lasts(p: Points) -> Verdict:
    """"such advantage of paced flows lasts for the first 4 seconds": the paced slowest flow beats the unpaced
    slowest (the ordering rule) in every 100 ms from the start, and first does not about 4 s in."""
    ex = p.rows("extremes")
    slow = ex[ex["which"] == "slowest"].groupby(["pacing.scheme", "t_s"])["throughput_mbps"].mean().unstack(0)
    behind = [t for t, paced, unpaced in zip(slow.index, slow["host"], slow["none"]) if not beats(paced, unpaced)]
    end = float(behind[0]) if behind else float(slow.index.max())
    return about(end, 4), (f"the paced slowest flow beats the unpaced one from the start until {end:g} s (paper "
                           f"about 4 s: 3.8 to 4.2)" + ("" if behind else ", the end of the run"))


WS1 = Figure(
    id="W-s1",
    caption="Latency of 16 parallel SACK flows in a LAN to their first 1 MB, paced and unpaced",
    setup="w-dumbbell: 16 SACK flows of 1500 B packets on 1 Gb/s, 3 ms (375 KB) buffer, RTT 2.5 ms, starts U(0, 0.5 ms), on-off cross "
          "traffic at 1 %; host pacing (original) or none; 10 s, 3 seeds; progress sampled every 1 ms",
    tables=("progress",),
    derived={"latency": latency_to(725 * SEGMENT), "extremes": extremes(0.1)},
    seeds=3,  # paper W Sec II-B scenario 1: "We ran the simulations three times"
    panels=[Cdf("latency", "latency_s", ["pacing.scheme"], "Time to the first 1 MB (s)", title="Latency per flow"),
            Lines("extremes", "t_s", "throughput_mbps", ["pacing.scheme", "which"], "time (s)",
                  "Throughput over 100 ms (Mb/s)", title="Slowest and fastest flow", logx=False, logy=False)],
    claims=[Claim("slowest unpaced flow ≈2x the paced latency", "slowest unpaced / slowest paced latency to 1 MB "
                  "(725 packets) about 2", _slowest_twice,
                  sentence='Paper W Sec II-B: "First, we measure the latency for each flow to transmit its first 1 '
                           'megabytes of data (725 standard packets). [...] From this figure, we can see that although '
                           'almost half of the non-paced TCP flows have smaller latency than the fastest paced TCP '
                           'flows, the slowest non-paced flow has a latency equal to two times of the paced flow\'s '
                           'latency."'),
            Claim("advantage lasts ≈4 s", "the paced slowest flow beats the unpaced one (by the ordering rule) in every "
                  "100 ms from the start, until about 4 s",
                  _advantage_lasts,
                  sentence='Paper W Sec II-B: "We run the same simulation for 10 seconds. The throughput of the fastest '
                           'flow and the throughput of the slowest flow are shown in Figure 3. We can see that such '
                           'advantage of paced flows lasts for the first 4 seconds of the simulation."')],
)


def _mean_of(p: Points, tcp: str, scheme: str, which: str) -> float:
    ex = p.rows("extremes", tcp=tcp, scheme=scheme)
    return float(ex[ex["which"] == which]["throughput_mbps"].mean())


def _bic_half(p: Points) -> Verdict:
    unpaced, paced = _mean_of(p, "bic", "none", "slowest"), _mean_of(p, "bic", "host", "slowest")
    return about(unpaced / paced, 0.5), f"BIC slowest flow, mean over the run: unpaced {unpaced:.1f}, paced {paced:.1f} " \
                                    f"Mb/s (x{unpaced / paced:.2f}; paper about 0.5)"


def _fast_gap(p: Points) -> Verdict:
    """Within each run: the fastest flow against the slowest, means over the run."""
    gap = {s: (_mean_of(p, "fast", s, "fastest"), _mean_of(p, "fast", s, "slowest")) for s in ("none", "host")}
    ok = beats(*gap["none"]) and about(gap["host"][0] / gap["host"][1], 1)
    return ok, "FAST fastest vs slowest flow, mean over the run: " + ", ".join(
        f"{'unpaced' if s == 'none' else 'paced'} {f:.1f} vs {w:.1f} Mb/s" for s, (f, w) in gap.items()) + \
        " (unpaced: fastest beats slowest; paced: about equal)"


WS2 = Figure(
    id="W-s2",
    caption="Slowest and fastest of 16 BIC-TCP and FAST flows in a WAN over time, paced and unpaced",
    setup="w-dumbbell: 16 flows of 1500 B packets on 1 Gb/s, buffer one BDP (15 MB), RTT 120 ms, starts U(0, 120 ms), on-off cross "
          "traffic at 10 %; BIC or FAST; host pacing (original) or none; 200 s; progress sampled every second",
    tables=("progress",),
    derived={"extremes": extremes(1.0)},
    panels=[Lines("extremes", "t_s", "throughput_mbps", ["pacing.scheme", "which"], "time (s)",
                  "Throughput over 1 s (Mb/s)", where={"tcp.variant": v}, title=f"({c}) {name}", logx=False,
                  logy=False) for c, v, name in [("a", "bic", "BIC-TCP"), ("b", "fast", "FAST")]],
    claims=[Claim("slowest unpaced BIC ≈ half the slowest paced", "BIC's slowest flow unpaced / paced about 0.5, "
                  "mean over the run", _bic_half,
                  sentence='Paper W Sec II-B: "Figure 4 shows the throughput of the slowest BIC-TCP flow and fastest '
                           'BIC-TCP flow over time. The slowest BIC-TCP flow without pacing is about half of the '
                           'throughput of the slowest paced flow."'),
            Claim("FAST: unpaced flows spread (fastest vs slowest), pacing removes that gap",
                  "unpaced: the fastest flow beats the slowest; paced: fastest / slowest about 1", _fast_gap,
                  sentence='Paper W Sec II-B: "However, we observe a constant small gap between the fastest flow and '
                           'the slowest flow in non-paced case. [...] With pacing, such effect is eliminated and the '
                           'fastest paced flow and slowest paced flow have the same throughput."')],
)
