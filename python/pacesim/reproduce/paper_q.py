"""Paper Q's packet-level figures (QLBP): panels and claims (sweeps in `scenarios/Q-*.toml`)."""

from __future__ import annotations

from typing import Sequence

from ..plot import Cdf, Panel
from .claims import Claim, Points, Verdict
from .figure import THROUGHPUT, Figure

# --- Q-fig18: QLBP at the access routers of paper Q's dumbbell ---

Q_PACKETS = [1, 2, 5, 10, 20, 30, 50, 75, 100]


def _utilisation(p: Points, variant: str, packets: int) -> float:
    return p.at("core_utilisation", variant=variant, packets=packets)


def _qlbp10_doubles_at_5(p: Points) -> Verdict:
    none, q10 = _utilisation(p, "no pacing", 5), _utilisation(p, "QLBP 10", 5)
    return q10 / none >= 1.7, f"at 5 packets: no pacing {100 * none:.1f} %, QLBP 10 {100 * q10:.1f} % (x{q10 / none:.2f})"


def _qlbp_beats_tcp_pacing(q: int, buffers: Sequence[int]):
    def check(p: Points) -> Verdict:
        pairs = {b: (_utilisation(p, f"QLBP {q}", b), _utilisation(p, "TCP pacing", b)) for b in buffers}
        return all(a > h for a, h in pairs.values()), ", ".join(
            f"{b} pkts: {100 * a:.1f} vs {100 * h:.1f} %" for b, (a, h) in pairs.items())
    return check


QFIG18 = Figure(
    id="Q-fig18",
    caption="Link utilization vs. various buffer sizes",
    setup="q-dumbbell (paper Q Sec IV-D): 40 TCP Reno flows, max cwnd 32, starts U[0, 100] s, 1000 s measured from "
          "200 s; no pacing, TCP (host) pacing, or QLBP on each access link (mu_max 100 Mb/s, mu_min 1 Mb/s, "
          "Q_max 10-160 packets); core buffer 1-100 packets",
    panels=[Panel("core.buffer_packets", "core_utilisation", ["variant"], title="Link utilization vs. buffer size",
                  ylabel="Normalised throughput of C0-C1")],
    claims=[
        Claim("at 5 pkts QLBP(10) nearly doubles utilisation", "QLBP 10 at least 1.7 x no pacing at 5 packets",
              _qlbp10_doubles_at_5),
        Claim("QLBP(80) beats TCP pacing beyond 30 pkts", "QLBP 80 above TCP pacing at 50, 75, 100 packets",
              _qlbp_beats_tcp_pacing(80, [50, 75, 100])),
        Claim("QLBP(160) beats it everywhere", "QLBP 160 above TCP pacing at every buffer",
              _qlbp_beats_tcp_pacing(160, Q_PACKETS)),
    ],
)


# --- Q-tab2: one QLBP node fed CBR ---

# Paper Q Table II: CBR rate (Mb/s) -> steady queue (packets) and pacing delay (ms).
Q_TAB2 = {1: (0, 0), 2: (0, 0), 4: (2, 4), 6: (4, 5.33), 8: (7, 7), 10: (9, 7.2), 12: (10, 6.67), 15: (10, 5.3)}


def _table_within(metric: str, column: int, tolerance: float, unit: str):
    def check(p: Points) -> Verdict:
        got = {r: p.at(metric, variant=f"{r}Mbps") for r in Q_TAB2}
        ok = all(abs(got[r] - Q_TAB2[r][column]) <= tolerance for r in Q_TAB2)
        return ok, ", ".join(f"{r} Mb/s {got[r]:.2f} ({Q_TAB2[r][column]:g})" for r in Q_TAB2) + f" {unit} (paper)"
    return check


def _never_above_bound(p: Points) -> Verdict:
    worst = max(p.at("pacer_delay_ms_max", variant=f"{r}Mbps") for r in Q_TAB2)
    return worst <= 8, f"largest delay of any packet {worst:.2f} ms; Q_max / mu_max = 10 x 1000 B / 10 Mb/s = 8 ms"


QTAB2 = Figure(
    id="Q-tab2",
    caption="Pacing delay and queue length of one QLBP node against the CBR input rate",
    setup="q-line (paper Q Sec IV-B): links 15 Mb/s, 10 ms; QLBP on the middle link, mu_max 10 Mb/s, mu_min 2 Mb/s, "
          "Q_max 10 packets, Q_lim 1000; CBR of 1000 B packets at 1-15 Mb/s; the queue by Little's law",
    panels=[Panel("variant", "pacer_delay_ms_mean", [], title="Mean pacing delay", ylabel="Delay (ms)",
                  xlabel="CBR rate"),
            Panel("variant", "pacer_packets_mean", [], title="Mean queue", ylabel="Packets in the pacer",
                  xlabel="CBR rate")],
    claims=[Claim("delay 0,0,4,5.33,7,7.2,6.67,5.3 ms", "each within 1 ms", _table_within("pacer_delay_ms_mean", 1, 1.0, "ms")),
            Claim("queue 0,0,2,4,7,9,10,10 pkts", "each within 1 packet",
                  _table_within("pacer_packets_mean", 0, 1.0, "packets")),
            Claim("never above Qmax/μmax = 8 ms", "no packet delayed more than 8 ms at any rate", _never_above_bound)],
)

# --- Q-fig15: an ON-OFF source through 1-3 tandem QLBP pacers ---

Q15_MAX = [10, 20, 40, 80, 160]
Q15_PACERS = [1, 2, 3]


def _cov(p: Points, pacers: int, variant: str) -> float:
    return p.at("burstiness_cov", variant=variant, **{"topology.pacers": pacers})


def _cov_falls(p: Points) -> Verdict:
    parts, ok = [], True
    for k in Q15_PACERS:
        ratios = [_cov(p, k, f"QLBP {q}") / _cov(p, k, "unpaced") for q in Q15_MAX]
        ok &= all(a > b for a, b in zip(ratios, ratios[1:]))
        parts.append(f"{k} pacer(s): " + " ".join(f"{r:.3f}" for r in ratios))
    for q in Q15_MAX:
        ok &= all(_cov(p, a, f"QLBP {q}") > _cov(p, b, f"QLBP {q}") for a, b in zip(Q15_PACERS, Q15_PACERS[1:]))
    return ok, "CoV ratio for Q_max " + "/".join(map(str, Q15_MAX)) + ": " + "; ".join(parts)


def _mean_unchanged(p: Points) -> Verdict:
    rates = {(k, v): p.at(THROUGHPUT, variant=v, **{"topology.pacers": k})
             for k in Q15_PACERS for v in ["unpaced"] + [f"QLBP {q}" for q in Q15_MAX]}
    base = rates[1, "unpaced"]
    worst = max(abs(r / base - 1) for r in rates.values())
    return worst <= 0.01, f"mean rate at the last link {base:.4f} Mb/s unpaced; largest change {100 * worst:.2f} %"


QFIG15 = Figure(
    id="Q-fig15",
    caption="Coefficient of variation of an ON-OFF source after 1, 2 and 3 tandem QLBP pacers",
    setup="q-tandem (paper Q Sec IV-C): links 10 Mb/s, 2 ms; QLBP at every pacer node, mu_max 10 Mb/s, mu_min 10 "
          "kb/s, Q_max 10-160 packets; Markov ON-OFF source, peak 2 Mb/s, mean ON 100 ms, OFF 200 ms, 1000 B "
          "packets; CoV of bytes per 50 ms at the last link over [100, 1900] s, 10 runs",
    panels=[Panel("variant", "burstiness_cov", ["topology.pacers"], title="CoV per 50 ms at the last link",
                  xlabel="Pacing")],
    claims=[Claim("CoV ratio falls with Qmax and with more pacers",
                  "paced / unpaced CoV falls with Q_max for 1, 2 and 3 pacers, and with the number of pacers at each "
                  "Q_max", _cov_falls),
            Claim("mean rate unchanged", "throughput at the last link within 1 % of the unpaced source's",
                  _mean_unchanged)],
)

# --- Q-tab3 and Q-fig19: utilisation and one-way delay ---

# Paper Q Table III: utilisation (%), and the flows' mean delay: average, minimum, maximum (ms).
Q_TAB3 = {"no pacing": (47.57, 56.9, 50.8, 63.4), "QLBP 40": (76.33, 51.9, 46.3, 57.5),
          "QLBP 160": (98.48, 60.8, 55.2, 66.5)}


def _tab3_utilisation(p: Points) -> Verdict:
    got = {v: 100 * p.at("core_utilisation", variant=v) for v in Q_TAB3}
    ok = all(abs(got[v] - Q_TAB3[v][0]) <= 5 for v in Q_TAB3)
    return ok, ", ".join(f"{v} {got[v]:.1f} % ({Q_TAB3[v][0]:g})" for v in Q_TAB3)


def _flow_delays(p: Points, variant: str) -> tuple:
    """Mean, minimum and maximum over flows of each flow's mean delay (seeds pooled), ms."""
    d = p.rows("flows", variant=variant)["mean_delay_ms"].astype(float)
    return d.mean(), d.min(), d.max()


def _tab3_delay(p: Points) -> Verdict:
    got = {v: _flow_delays(p, v) for v in Q_TAB3}
    ok = all(abs(got[v][0] / Q_TAB3[v][1] - 1) <= 0.1 for v in Q_TAB3)
    return ok, "; ".join(f"{v} {a:.1f} ({Q_TAB3[v][1]:g}), min {lo:.1f} ({Q_TAB3[v][2]:g}), max {hi:.1f} "
                         f"({Q_TAB3[v][3]:g}) ms" for v, (a, lo, hi) in got.items())


def _qlbp40_both(p: Points) -> Verdict:
    (u0, d0), (u40, d40) = ((p.at("core_utilisation", variant=v), _flow_delays(p, v)[0]) for v in ("no pacing", "QLBP 40"))
    return u40 > u0 and d40 < d0, f"QLBP 40: utilisation {100 * u40:.1f} vs {100 * u0:.1f} %, mean delay {d40:.1f} " \
                                  f"vs {d0:.1f} ms (no pacing)"


def _tail_shrinks(p: Points) -> Verdict:
    tails = {v: p.at("delay_p99_ms", variant=v) for v in Q_TAB3}
    values = list(tails.values())
    return all(a > b for a, b in zip(values, values[1:])), "99th percentile of the delay: " + ", ".join(
        f"{v} {t:.1f} ms" for v, t in tails.items())


QTAB3 = Figure(
    id="Q-tab3",
    caption="Link utilisation and delay for no pacing and QLBP (Table III), and the delay distribution (Fig. 19)",
    setup="q-dumbbell as Q-fig18 with a 20-packet core buffer; no pacing, QLBP with Q_max 40 or 160; one-way delay "
          "of TCP data from a sequence number's first transmission to its delivery",
    also=("Q-fig19",),
    tables=("flows",),
    panels=[Cdf("delay", "delay_ms", ["variant"], "One-way delay (ms)", title="Fig. 19: delay distribution"),
            Panel("variant", ["delay_mean_ms", "delay_p99_ms"], [], title="Mean and 99th percentile",
                  ylabel="Delay (ms)", xlabel="Pacing")],
    claims=[Claim("utilisation: none 47.57%, QLBP(40) 76.33%, QLBP(160) 98.48%", "each within 5 points",
                  _tab3_utilisation),
            Claim("mean delay 56.9 / 51.9 / 60.8 ms", "the flows' mean delay within 10 % of each", _tab3_delay),
            Claim("QLBP(40) achieves both higher bandwidth and lower delay", "QLBP 40 above no pacing in utilisation, "
                  "below it in mean delay", _qlbp40_both),
            Claim("Q-fig19: tail shrinks with more pacing", "99th percentile falls from no pacing to QLBP 40 to QLBP 160",
                  _tail_shrinks)],
)
