"""Paper Q's packet-level figures (QLBP): panels and claims (sweeps in `scenarios/Q-*.toml`).

The rules that read the papers' words are `claims.py`'s (a table's numbers are met within 5 % or their own
rounding, `claims.printed`); each claim quotes the paper's sentence it reads.
"""

from __future__ import annotations

import math
from typing import Dict, List, Sequence, Tuple

import numpy as np
import pandas as pd

from ...panels import Cdf, Lines, Panel
from ...reproduce.claims import (MARGIN, Claim, Missing, Points, Verdict, about, beats, gain_check, much_smaller, nearly,
                     printed, slightly_beats)
from ...reproduce.figure import THROUGHPUT, Figure

# --- Q-fig18: QLBP at the access routers of paper Q's dumbbell ---

Q_PACKETS = [1, 2, 5, 10, 20, 30, 50, 75, 100]


def _utilisation(p: Points, variant: str, packets: int) -> float:
    return p.at("core_utilisation", variant=variant, packets=packets)


def _qlbp_beats_tcp_pacing(q: int, buffers: Sequence[int]):
    def check(p: Points) -> Verdict:
        pairs = {b: (_utilisation(p, f"QLBP {q}", b), _utilisation(p, "TCP pacing", b)) for b in buffers}
        return all(beats(a, h) for a, h in pairs.values()), ", ".join(
            f"{b} pkts: {100 * a:.1f} vs {100 * h:.1f} %" for b, (a, h) in pairs.items())
    return check


Q4D = ('Paper Q Sec IV-D: "For a small buffer of 5 packets, QLBP with Qmax of 10 packets can improve link utilization '
       'by nearly 100%. QLBP with Qmax of 80 packets outperforms TCP pacing when the buffer size grows beyond 30 '
       'packets. QLBP with Qmax of 160 packets outperforms TCP pacing over the whole range of buffer size."')

QFIG18 = Figure(
    id="Q-fig18",
    caption="Link utilization vs. various buffer sizes",
    setup="q-dumbbell (paper Q Sec IV-D): 40 TCP Reno flows, max cwnd 32, starts U[0, 100] s, 1000 s measured from "
          "200 s; no pacing, TCP (host) pacing, or QLBP on each access link (mu_max 100 Mb/s, mu_min 1 Mb/s, "
          "Q_max 10-160 packets); core buffer 1-100 packets",
    panels=[Panel("core.buffer_packets", "core_utilisation", ["variant"], title="Link utilization vs. buffer size",
                  ylabel="Normalised throughput of C0-C1")],
    claims=[
        Claim("at 5 pkts QLBP(10) nearly doubles utilisation", "QLBP 10's utilisation gain over no pacing at 5 "
              "packets nearly 100 % (the ratio nearly 2: 1.9 to 2)",
              gain_check(lambda p: _utilisation(p, "no pacing", 5), lambda p: _utilisation(p, "QLBP 10", 5), 1.0,
                         "at 5 packets, QLBP 10 over no pacing: utilisation", "nearly"), sentence=Q4D),
        Claim("QLBP(80) beats TCP pacing beyond 30 pkts", "QLBP 80 beats TCP pacing at 50, 75, 100 packets",
              _qlbp_beats_tcp_pacing(80, [50, 75, 100]), sentence=Q4D),
        Claim("QLBP(160) beats it everywhere", "QLBP 160 beats TCP pacing at every buffer",
              _qlbp_beats_tcp_pacing(160, Q_PACKETS), sentence=Q4D),
    ],
)


# --- Q-tab2: one QLBP node fed CBR ---

# Paper Q Table II as printed: CBR rate (Mb/s) -> steady queue (packets) and pacing delay (ms).
Q_TAB2_PRINTED = {1: ("0", "0"), 2: ("0", "0"), 4: ("2", "4"), 6: ("4", "5.33"), 8: ("7", "7"), 10: ("9", "7.2"),
                  12: ("10", "6.67"), 15: ("10", "5.3")}
Q_TAB2 = {r: tuple(printed(x)[0] for x in row) for r, row in Q_TAB2_PRINTED.items()}


def _table_about(metric: str, column: int, unit: str):
    """Each rate's `metric` about Table II's `column` (`claims.about`: within 5 %, or the table's own rounding,
    half a unit of its last printed digit, where wider: a printed "0" or "10" is met within 0.5)."""
    def check(p: Points) -> Verdict:
        got = {r: p.at(metric, variant=f"{r}Mbps") for r in Q_TAB2}
        table = {r: printed(row[column]) for r, row in Q_TAB2_PRINTED.items()}
        misses = [r for r in Q_TAB2 if not about(got[r], table[r][0], rounding=table[r][1])]
        return not misses, ", ".join(f"{r} Mb/s {got[r]:.2f} ({Q_TAB2_PRINTED[r][column]})" for r in Q_TAB2) + \
            f" {unit} (paper); outside 5 % and the table's rounding at: " + (", ".join(f"{r} Mb/s" for r in misses)
                                                                           or "none")
    return check


def _never_above_bound(p: Points) -> Verdict:
    worst = max(p.at("pacer_delay_ms_max", variant=f"{r}Mbps") for r in Q_TAB2)
    return worst <= 8, f"largest delay of any packet {worst:.2f} ms; Q_max / mu_max = 10 x 1000 B / 10 Mb/s = 8 ms"


Q4B = ('Paper Q Sec IV-B: "Table II shows different pacing queue lengths and pacing delays under different CBR '
       'rates." (Table II: "PACING DELAY VS. INPUT RATE")')

QTAB2 = Figure(
    id="Q-tab2",
    caption="Pacing delay and queue length of one QLBP node against the CBR input rate",
    setup="q-line (paper Q Sec IV-B): links 15 Mb/s, 10 ms; QLBP on the middle link, mu_max 10 Mb/s, mu_min 2 Mb/s, "
          "Q_max 10 packets, Q_lim 1000; CBR of 1000 B packets at 1-15 Mb/s; the queue by Little's law",
    panels=[Panel("variant", "pacer_delay_ms_mean", [], title="Mean pacing delay", ylabel="Delay (ms)",
                  xlabel="CBR rate"),
            Panel("variant", "pacer_packets_mean", [], title="Mean queue", ylabel="Packets in the pacer",
                  xlabel="CBR rate")],
    claims=[Claim("delay 0,0,4,5.33,7,7.2,6.67,5.3 ms", "each about the table's: within 5 %, or its rounding where "
                  "wider", _table_about("pacer_delay_ms_mean", 1, "ms"), sentence=Q4B),
            Claim("queue 0,0,2,4,7,9,10,10 pkts", "each about the table's: within 5 %, or its rounding (0.5 packet) "
                  "where wider", _table_about("pacer_packets_mean", 0, "packets"), sentence=Q4B),
            Claim("never above Qmax/μmax = 8 ms", "no packet delayed more than 8 ms at any rate", _never_above_bound,
                  sentence='Paper Q Sec IV-B: "The delay bound in this case is 8ms (10pkts * 8000 bits per packet / '
                           '10Mbps)."')],
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
        ok &= all(beats(a, b) for a, b in zip(ratios, ratios[1:]))
        parts.append(f"{k} pacer(s): " + " ".join(f"{r:.3f}" for r in ratios))
    for q in Q15_MAX:
        ok &= all(beats(_cov(p, a, f"QLBP {q}"), _cov(p, b, f"QLBP {q}")) for a, b in zip(Q15_PACERS, Q15_PACERS[1:]))
    return ok, "CoV ratio for Q_max " + "/".join(map(str, Q15_MAX)) + ": " + "; ".join(parts)


def _mean_unchanged(p: Points) -> Verdict:
    rates = {(k, v): p.at(THROUGHPUT, variant=v, **{"topology.pacers": k})
             for k in Q15_PACERS for v in ["unpaced"] + [f"QLBP {q}" for q in Q15_MAX]}
    base = rates[1, "unpaced"]
    worst = max(abs(r / base - 1) for r in rates.values())
    return worst <= MARGIN, f"mean rate at the last link {base:.4f} Mb/s unpaced; largest change {100 * worst:.2f} %"


QFIG15 = Figure(
    id="Q-fig15",
    caption="Coefficient of variation of an ON-OFF source after 1, 2 and 3 tandem QLBP pacers",
    setup="q-tandem (paper Q Sec IV-C): links 10 Mb/s, 2 ms; QLBP at every pacer node, mu_max 10 Mb/s, mu_min 10 "
          "kb/s, Q_max 10-160 packets; Markov ON-OFF source, peak 2 Mb/s, mean ON 100 ms, OFF 200 ms, 1000 B "
          "packets; CoV of bytes per 50 ms at the last link over [100, 1900] s, 10 runs",
    # Paper Q Sec IV-C: "We run a 1900 second long simulation with the same Qmax and the number of pacer nodes 10
    # times to obtain the average."
    seeds=10,
    panels=[Panel("variant", "burstiness_cov", ["topology.pacers"], title="CoV per 50 ms at the last link",
                  xlabel="Pacing")],
    claims=[Claim("CoV ratio falls with Qmax and with more pacers",
                  "paced / unpaced CoV falls with Q_max for 1, 2 and 3 pacers, and with the number of pacers at each "
                  "Q_max: each step beaten by the one before by the ordering margin (1 %)", _cov_falls,
                  sentence='Paper Q Sec IV-C: "It is observed that a larger Qmax results in a smaller coefficient of '
                           'variation, which is consistent with the analysis in Section III-B. Also, deploying multiple '
                           'pacers can further reduce the coefficient of variation."'),
            Claim("mean rate unchanged", "throughput at the last link within the ordering margin (1 %) of the unpaced "
                  "source's: neither beats the other",
                  _mean_unchanged,
                  sentence='Paper Q Sec IV-C: "Even though we do not plot it out, the average arrival rate of paced '
                           'traffic (i.e., E[X]) is the same for all cases no matter whether and how many pacers are '
                           'used, which implies that QLBP does not hurt the long-term throughput."')],
)

# --- Q-tab3 and Q-fig19: utilisation and one-way delay ---

# Paper Q Table III as printed: utilisation (%), and the flows' mean delay: average, minimum, maximum (ms).
Q_TAB3_PRINTED = {"no pacing": ("47.57", "56.9", "50.8", "63.4"), "QLBP 40": ("76.33", "51.9", "46.3", "57.5"),
                  "QLBP 160": ("98.48", "60.8", "55.2", "66.5")}
Q_TAB3 = {v: tuple(printed(x)[0] for x in row) for v, row in Q_TAB3_PRINTED.items()}
Q_TAB3_DELAY_ROUNDING = printed(Q_TAB3_PRINTED["no pacing"][1])[1]
"""Half a unit of the table's last printed digit of a delay, ms (0.05: every delay is printed to 0.1 ms)."""


def _tab3_at(p: Points, packets: int, column: int, value) -> dict:
    return {v: value(p, v, packets) for v in Q_TAB3}


def _one_buffer(what: str, column: int, value, unit: str):
    """Table III at one core buffer of Q-fig18's grid (the paper does not say which): the buffers at which
    every variant's `value` is about the table's column `column`."""
    def check(p: Points) -> Verdict:
        got = {b: _tab3_at(p, b, column, value) for b in Q_PACKETS}
        fits = [b for b in Q_PACKETS if all(about(got[b][v], Q_TAB3[v][column]) for v in Q_TAB3)]
        closest = min(Q_PACKETS, key=lambda b: max(abs(got[b][v] / Q_TAB3[v][column] - 1) for v in Q_TAB3))
        where = f"about the table's at {', '.join(map(str, fits))} packets" if fits else "about the table's at no buffer"
        return bool(fits), f"{what} {where}; closest at {closest} packets: " + \
            ", ".join(f"{v} {got[closest][v]:.1f} ({Q_TAB3[v][column]:g})" for v in Q_TAB3) + f" {unit}"
    return check


def _queueing_ms(p: Points, variant: str, packets: int) -> float:
    """The flows' mean delay less their propagation (half the base RTT), averaged over the flows that delivered
    anything, ms; NaN when none did (a 1-packet drop-tail buffer passes nothing, as ns-2's)."""
    f = p.rows("flows", variant=variant, packets=packets)
    return float((f["mean_delay_ms"].astype(float) - f["base_rtt_ms"].astype(float) / 2).mean())


def _ms(x: float) -> str:
    return "nothing delivered" if math.isnan(x) else f"{x:.2f}"


def _paper_queueing_ms(p: Points, variant: str, packets: int) -> float:
    """Table III's average delay less the same propagation (the paper states the links, Sec IV-D)."""
    f = p.rows("flows", variant=variant, packets=packets)
    return Q_TAB3[variant][1] - float(f["base_rtt_ms"].astype(float).mean() / 2)


def _tab3_queueing(p: Points) -> Verdict:
    """At one buffer of the grid, every variant's queueing part about the table's average less the same propagation:
    within 5 % of it, or the table's rounding (0.05 ms) where wider."""
    ok_at, parts = [], []
    for b in Q_PACKETS:
        pairs = {v: (_queueing_ms(p, v, b), _paper_queueing_ms(p, v, b)) for v in Q_TAB3}
        if all(about(a, t, rounding=Q_TAB3_DELAY_ROUNDING) for a, t in pairs.values()):
            ok_at.append(b)
        parts.append(f"{b} pkts: " + ", ".join(f"{v} {_ms(a)} ({t:.2f})" for v, (a, t) in pairs.items()))
    where = f"at {', '.join(map(str, ok_at))} packets" if ok_at else "at no buffer"
    return bool(ok_at), f"queueing part of the mean delay about the table's {where} (5 %, or the table's rounding " \
        f"{Q_TAB3_DELAY_ROUNDING:g} ms); ms, ours (table's less the same propagation): " + "; ".join(parts)


def _table_buffers(p: Points) -> list:
    """The core buffers of the grid at which no pacing's utilisation is about Table III's (47.57 %): the table's
    buffer, which the paper does not state, told by its one row that no pacer shapes."""
    return [b for b in Q_PACKETS if about(100 * _utilisation(p, "no pacing", b), Q_TAB3["no pacing"][0])]


def _mean_delay_ms(p: Points, variant: str, packets: int) -> float:
    """The flows' mean one-way delay, averaged over the flows that delivered anything, ms (Table III's "average")."""
    return float(p.rows("flows", variant=variant, packets=packets)["mean_delay_ms"].astype(float).mean())


def _qlbp160_slightly_later(p: Points) -> Verdict:
    """At Table III's buffer, QLBP 160 beats no pacing in utilisation, and its mean delay is slightly larger
    (`claims.slightly_beats`: by more than the margin, by less than 10 %; the table's own 60.8 against 56.9 ms is
    +6.9 %)."""
    at = _table_buffers(p)
    if not at:
        return False, "no buffer of the grid gives no pacing Table III's utilisation (about 47.57 %)"
    parts, ok = [], True
    for b in at:
        (u0, d0), (u160, d160) = ((_utilisation(p, v, b), _mean_delay_ms(p, v, b)) for v in ("no pacing", "QLBP 160"))
        ok &= beats(u160, u0) and slightly_beats(d160, d0)
        parts.append(f"{b} pkts: {100 * u160:.1f} vs {100 * u0:.1f} %, mean delay {_ms(d160)} vs {_ms(d0)} ms "
                     f"({100 * (d160 / d0 - 1):+.1f} %)")
    return ok, "QLBP 160 vs no pacing at Table III's buffer (no pacing about 47.57 %): " + "; ".join(parts)


def _qlbp40_both(p: Points) -> Verdict:
    parts, ok = [], True
    at = _table_buffers(p)
    for b in at:
        (u0, d0), (u40, d40) = ((_utilisation(p, v, b), _queueing_ms(p, v, b)) for v in ("no pacing", "QLBP 40"))
        ok &= beats(u40, u0) and beats(d0, d40)
        parts.append(f"{b} pkts: {100 * u40:.1f} vs {100 * u0:.1f} %, queueing {_ms(d40)} vs {_ms(d0)} ms")
    if not at:
        return False, "no buffer of the grid gives no pacing Table III's utilisation (about 47.57 %)"
    return ok, "QLBP 40 vs no pacing at Table III's buffer (no pacing about 47.57 %): " + "; ".join(parts)


TAIL_MS = 100.0
"""A one-way delay above 100 ms needs a retransmission on Q-fig18's network: propagation at most 60 ms, an access
queue at most its 10 flows' windows (320 packets of 1040 B, 26.6 ms at 100 Mb/s; a QLBP pacer's largest delay is
below 19 ms in ns-2 and pacesim, bench/ns2/paced/EDGE_QLBP.md), the core at most 100 packets (8.3 ms)."""


def _tail(p: Points, variant: str, packets: int) -> float:
    """Share of the packets delivered more than `TAIL_MS` after their first transmission (from the delay CDF);
    NaN when nothing was delivered (no CDF rows)."""
    try:
        rows = p.rows("delay", variant=variant, packets=packets)
    except Missing:
        return math.nan
    below = rows.loc[rows["delay_ms"] <= TAIL_MS, "fraction"]
    return 1.0 - (float(below.max()) if len(below) else 0.0)


def _tail_shrinks(p: Points) -> Verdict:
    parts, ok = [], True
    for b in Q_PACKETS:
        tails = [_tail(p, v, b) for v in Q_TAB3]
        if not tails[0] > 0:  # no pacing has no tail here (or delivered nothing): nothing to shrink
            continue
        ok &= all(beats(x, y) or x == y == 0 for x, y in zip(tails, tails[1:]))
        parts.append(f"{b} pkts: " + " > ".join(f"{100 * t:.3f}" for t in tails))
    return ok and bool(parts), f"share of packets delayed over {TAIL_MS:g} ms (%), " + " / ".join(Q_TAB3) + \
        ", at every buffer where no pacing has such a tail: " + "; ".join(parts)


Q4E_TABLE = ('Paper Q Sec IV-E: "Table III shows the corresponding link utilization and average, minimum, and maximum '
             'packet delays." (Table III: "LINK UTILIZATION AND DELAY FOR NON-PACING AND QLBP PACING")')
Q4E_BOTH = ('Paper Q Sec IV-E: "These results confirm that QLBP pacing meets the goals that we set in our work: we achieve '
            'better throughput performance (as indicated by higher link utilization) at the cost of a slightly larger '
            'delay (when comparing QLBP (Qmax=160) with no pacing). Interestingly, QLBP (Qmax=40) achieves both higher '
            'bandwidth and lower delay."')

QTAB3 = Figure(
    id="Q-tab3",
    caption="Link utilisation and delay for no pacing and QLBP (Table III), and the delay distribution (Fig. 19)",
    setup="q-dumbbell as Q-fig18, at each of its core buffers (1-100 packets: the paper does not say which one "
          "Table III used); no pacing, QLBP with Q_max 40 or 160; one-way delay of TCP data from a sequence number's "
          "first transmission to its delivery",
    also=("Q-fig19",),
    tables=("flows",),
    panels=[Cdf("delay", "delay_ms", ["variant"], "One-way delay (ms)", where={"core.buffer_packets": 20},
                title="Fig. 19: delay distribution, 20-packet buffer"),
            Panel("core.buffer_packets", "delay_p99_ms", ["variant"], title="99th percentile of the delay",
                  ylabel="Delay (ms)")],
    claims=[Claim("utilisation: none 47.57%, QLBP(40) 76.33%, QLBP(160) 98.48%",
                  "at one core buffer of the grid, every variant's utilisation about the table's",
                  _one_buffer("utilisation", 0, lambda p, v, b: 100 * _utilisation(p, v, b), "%"), sentence=Q4E_TABLE),
            Claim("mean delay 56.9 / 51.9 / 60.8 ms", "at one core buffer of the grid, every variant's queueing part "
                  "(mean delay less propagation) about the table's average less the same propagation (5 %, or the "
                  "table's rounding, 0.05 ms, where wider)", _tab3_queueing, sentence=Q4E_TABLE),
            Claim("QLBP(40) achieves both higher bandwidth and lower delay", "at Table III's buffer (where no pacing's "
                  "utilisation is about the table's) QLBP 40 beats no pacing in utilisation and in (lower) queueing "
                  "delay", _qlbp40_both, sentence=Q4E_BOTH),
            # Paper Q Sec IV-E: "the tail of the distribution decreases with more pacing"; "Long delays are caused by
            # retransmissions in transport layer" (Fig. 19): the tail is the retransmitted packets' delays.
            Claim("Q-fig19: tail shrinks with more pacing", f"at every buffer where no pacing has packets delayed over "
                  f"{TAIL_MS:g} ms (retransmitted), their share falls from no pacing to QLBP 40 to QLBP 160 (each by "
                  "more than the ordering margin, or both none)", _tail_shrinks,
                  sentence='Paper Q Sec IV-E: "As expected, the tail of the distribution decreases with more pacing."'),
            Claim("QLBP(160): better throughput at the cost of a slightly larger delay", "at Table III's buffer QLBP 160 "
                  "beats no pacing in utilisation, and its mean delay is slightly larger (by more than 1 %, less than "
                  "10 %)", _qlbp160_slightly_later, sentence=Q4E_BOTH)],
)

# --- Q-fig9/10 and Q-fig11/12: one flow through the prototype's QLBP pacer (Sec IV-A) ---

RTT_S = 0.100
"""Paper Q Sec IV-A: "The round-trip time (RTT) from the sender and the receiver is always 100ms"."""
HEAD_S = RTT_S / 5
"""The "very beginning" of an RTT: a fifth of it, 20 ms (evenly spread departures put 20 % there)."""
SHOWN_S = 0.5
"""The figures draw the first half second (five RTTs) of the steady state, packet by packet."""
PLACES = {"in": "arrival", "core": "departure"}
"""q-prototype's links whose arrivals are the pacer's: a packet entering `in` reaches the pacer (8.32 us later,
one 1040 B transmission at 1 Gb/s) and enters `core` as it leaves the pacer (at once without pacing)."""


def times_panel(where: dict, title: str) -> Lines:
    """Arrivals and departures of the runs at `where`, packet by packet (`shown`)."""
    return Lines("shown", "time_ms", "packet", ["place"], "Time from the steady state's start (ms)", "Packet",
                 where=where, title=title, logx=False, logy=False)


def steady_s() -> float:
    """The start of the steady state, s: q-prototype's warmup, which the Q-fig9 and Q-fig11 sweeps keep."""
    from ...scenario import load_scenario

    return load_scenario("q-prototype").warmup / 1e9


def packet_times(rows: Dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every packet's arrival at the pacer and departure from it over the steady state: one row per packet with
    its time_s, `place` ("arrival" or "departure"), `packet` (its number among its run's arrivals or departures
    from the steady state's start, from 1), and the run's axes and seed. From the `arrivals` series of links `in`
    and `core` (a count per instant: several packets of one instant are one point)."""
    s = rows["series"]
    s = s[(s["series"] == "arrivals") & s["entity"].isin(list(PLACES)) & (s["time_s"] >= steady_s())]
    s = s.iloc[np.repeat(np.arange(len(s)), s["value"].astype(int))]
    out = s.assign(place=s["entity"].astype(str).map(PLACES)).drop(columns=["entity", "series", "value"])
    keys = [c for c in out.columns if c != "time_s"]
    out = out.sort_values(keys + ["time_s"], kind="stable")
    return out.assign(packet=out.groupby(keys, sort=False).cumcount() + 1).reset_index(drop=True)


def shown(rows: Dict[str, pd.DataFrame]) -> pd.DataFrame:
    """`packet_times` of the first seed's runs over the first `SHOWN_S` of the steady state, time in ms from its
    start (packet by packet: the other seeds' runs differ only in their phase)."""
    t = packet_times(rows)
    t = t[(t["time_s"] < steady_s() + SHOWN_S) & (t["seed"] == t["seed"].min())]
    return t.assign(time_ms=1e3 * (t["time_s"] - steady_s()))


def densest_share(times: np.ndarray, start: float, end: float) -> List[float]:
    """Departure times (s, sorted) cut into RTTs from `start` (the last one, cut by `end`, left out): for each RTT
    with departures, the largest share of them within `HEAD_S` of each other, the RTT read as a circle (so a burst
    that straddles two RTTs counts as one): where an RTT's departures are densest, its "beginning"; evenly
    spread departures give 20 %, one burst of at most 20 ms 100 %."""
    out = []
    for a in np.arange(start, end - RTT_S + 1e-9, RTT_S):
        x = times[(times >= a) & (times < a + RTT_S)] - a
        if len(x):
            circle = np.concatenate([x, x + RTT_S])
            out.append(max(int(np.searchsorted(circle, t + HEAD_S, side="left")) - i for i, t in enumerate(x)) / len(x))
    return out


def head_share(p: Points, scheme: str) -> Tuple[float, int]:
    """The mean over the steady state's RTTs (of every seed's run) of `densest_share`, and the RTTs counted."""
    t = p.rows("times", scheme=scheme)
    shares = []
    for _, run in t[t["place"] == "departure"].groupby("seed"):
        times = np.sort(run["time_s"].to_numpy(dtype=float))
        shares += densest_share(times, steady_s(), float(times.max()))
    if not shares:
        raise Missing(f"no whole RTT of departures with pacing {scheme}")
    return float(np.mean(shares)), len(shares)


BURST = 0.5
"""Paper Q Sec IV-A: "a bunch of packets depart at the very beginning of each RTT period": most (more than half)
of an RTT's departures within a fifth of it (2.5 times an even spread's share)."""


def _burst_at_start(p: Points) -> Verdict:
    share, n = head_share(p, "none")
    return share > BURST, f"no pacing: {100 * share:.1f} % of an RTT's departures within its densest " \
                          f"{1e3 * HEAD_S:g} ms (mean of {n} RTTs; a bunch: more than {100 * BURST:g} %)"


def _much_smoother(p: Points) -> Verdict:
    unpaced, _ = head_share(p, "none")
    paced, n = head_share(p, "qlbp")
    return much_smaller(paced, unpaced), f"share of an RTT's departures within its densest {1e3 * HEAD_S:g} ms: QLBP " \
                                 f"{100 * paced:.1f} % ({n} RTTs), no pacing {100 * unpaced:.1f} % (much " \
                                 f"smoother: at most half; evenly spread: 20 %)"


def _prototype_figure(**fields) -> Figure:
    """A figure of the prototype's packet times (Figs. 9-12): arrivals at the pacer and departures from it."""
    return Figure(tables=("series",), derived={"times": packet_times, "shown": shown}, **fields)


QFIG9 = _prototype_figure(
    id="Q-fig9",
    also=("Q-fig10",),
    caption="Arrival and departure times of one TCP flow at the QLBP pacer",
    setup="q-prototype (paper Q Sec IV-A, Fig. 7): one TCP Reno flow (window 20, 1000 B) through router r1 "
          "(QLBP at its ingress: mu_max 200 Mb/s, mu_min 1.2 Mb/s, Q_max 100 packets) and a 10 Mb/s egress "
          "with a 16-packet buffer, RTT 100 ms; without pacing (Fig. 9) and with QLBP (Fig. 10); every packet's "
          "arrival at the pacer and departure from it over the steady state (after 10 s); with QLBP the two "
          "coincide there, the ACK clock having taken up the pacer's spacing. One run: nothing drawn decides "
          "anything here (no loss, no timer; every seed gives the same packet times). The paper (Linux hosts on "
          "the ONL) gives no window; 20 is ns-2's default, and the verdicts depend on it (an outside review, seeds "
          "1-2, 20 s): at 10 packets the burst holds but QLBP's share is 81.5 % of no pacing's 100 %; at 40 both "
          "hold (23.2 % against 62.9 %); at 64 or 200 neither (no pacing 39.4 % at 64: the window no longer fits "
          "in one burst ahead of the 10 Mb/s egress, which clocks it). The paper's Fig. 9, a burst per RTT, is "
          "that of a window-limited flow",
    seeds=1,
    panels=[times_panel({"pacing.scheme": "none"}, "Fig. 9: no pacing"),
            times_panel({"pacing.scheme": "qlbp"}, "Fig. 10: QLBP")],
    claims=[
        Claim("unpaced: each RTT's packets leave as a burst at its start",
              f"no pacing: on average more than {100 * BURST:g} % of an RTT's departures from the pacer's place "
              f"leave within {1e3 * HEAD_S:g} ms (a fifth of the RTT) of each other; the steady state cut into "
              "RTTs of 100 ms, each read as a circle", _burst_at_start,
              sentence='Paper Q Sec IV-A: "When using a TCP connection, Figure 9 shows that without pacing the packets '
                       'within one RTT window are sent as a burst, e.g., a bunch of packets depart at the very '
                       'beginning of each RTT period."'),
        Claim("QLBP: departures spread smoothly over the RTT",
              "the paper's words, \"much smoother\": QLBP's share of an RTT's departures within its densest "
              f"{1e3 * HEAD_S:g} ms at most half of no pacing's", _much_smoother,
              sentence='Paper Q Sec IV-A: "Whereas, Figure 10 indicates that the QLBP pacing plugin creates a packet '
                       'departure sequence that is much smoother."'),
    ],
)

SECOND_S = 1.0
"""The CBR rates are compared second by second over the steady state."""


Q4A_CBR = ('Paper Q Sec IV-A: "Figure 11 uses CBR traffic with a lower data rate of 200Kbps (< μmin) and Figure 12 '
           'uses a higher data rate of 3Mbps (> μmin). These figures show that QLBP pacing does not affect the data '
           'rate of CBR traffic in steady state."')


def _rate_kept(rate: str):
    """`Q4A_CBR`: in every second of the steady state, the packets leaving the pacer about (`about`, 5 %) the
    packets arriving at it."""
    def check(p: Points) -> Verdict:
        ok, parts = True, []
        for seed, t in p.rows("times", variant=rate).groupby("seed"):
            edges = np.arange(steady_s(), float(t["time_s"].max()) + 1e-9, SECOND_S)  # seconds [e_i, e_i+1)
            count = {w: np.diff(np.searchsorted(np.sort(t[t["place"] == w]["time_s"].to_numpy()), edges))
                     for w in ("arrival", "departure")}
            ratios = count["departure"] / count["arrival"]
            worst = int(np.argmax(np.abs(ratios - 1)))
            ok &= all(about(d, a) for d, a in zip(count["departure"], count["arrival"]))
            parts.append(f"seed {seed}: over {len(ratios)} s, {count['arrival'].sum()} packets arrived and "
                         f"{count['departure'].sum()} left, departures / arrivals per second {ratios.min():.3f} to "
                         f"{ratios.max():.3f} (worst at {edges[worst]:g} s: {count['departure'][worst]} / "
                         f"{count['arrival'][worst]})")
        return ok, f"{rate}: " + "; ".join(parts)
    return check


def _rate_claim(rate: str, what: str) -> Claim:
    return Claim(f"departure rate equals arrival rate in steady state ({what})",
                 f"in every {SECOND_S:g} s of the steady state, packets leaving the pacer about (within 5 %) those "
                 "arriving", _rate_kept(rate), sentence=Q4A_CBR)


QFIG11 = _prototype_figure(
    id="Q-fig11",
    also=("Q-fig12",),
    caption="Arrival and departure times of CBR traffic at the QLBP pacer",
    setup="q-prototype (paper Q Sec IV-A, Fig. 7) without the TCP flow: CBR of 1000 B packets at 200 kb/s (below "
          "mu_min, Fig. 11) and 3 Mb/s (above, Fig. 12) through QLBP (mu_max 200 Mb/s, mu_min 1.2 Mb/s, Q_max 100 "
          "packets) in front of the 10 Mb/s egress; every packet's arrival at the pacer and departure from it over "
          "the steady state (after 10 s). One run: CBR here draws nothing. The paper's claim is as weak as its "
          "words: a pacer that drops nothing and ends at the link rate (QLBP's mu is C from Q_max) keeps any CBR "
          "rate below its own; at 3 Mb/s mu with one packet queued (3.188 Mb/s) already exceeds it, so no packet "
          "waits",
    seeds=1,
    panels=[times_panel({"variant": "200kbps"}, "Fig. 11: 200 kb/s"),
            times_panel({"variant": "3Mbps"}, "Fig. 12: 3 Mb/s")],
    claims=[_rate_claim("200kbps", "200 kb/s, below mu_min"), _rate_claim("3Mbps", "3 Mb/s, above mu_min")],
)

# --- Q-fig16: QLBP on self-similar traffic replayed by Tmix ---

Q16_MAX = [5, 10, 20, 40, 80, 160, 320]
BIN_US = 5000
"""Paper Q Sec IV-C2: "The basic time resolution is 5ms"; CV(s) at s = 5 ms x 2^k, k = 0..10 (5.12 s)."""
SIGNIFICANT = 0.95
"""A "significant" reduction of CV: below 95 % of no pacing's, past the 5 % within which two values are "about"
the same (`claims.ABOUT`)."""
NOT_THE_PAPERS = ("on Tmix's sample vectors looped at 16 Mb/s: the paper's own, Weigle's vectors of the UNC trace, "
                  "were not available")
Q4C2 = 'Paper Q Sec IV-C2: '


def _cv(p: Points, variant: str) -> Dict[int, float]:
    """CV(s) of `variant`, mean over seeds, by the time scale in bins of 5 ms (1, 2, 4, ... 1024)."""
    rows = p.rows("burstiness", variant=variant)
    cv = rows.groupby("scale_us")["beta"].mean()
    return {int(round(us / BIN_US)): float(b) for us, b in cv.items()}


def _ratio(p: Points, q: int) -> Dict[int, float]:
    """CV(s) with QLBP of Q_max `q` over CV(s) without pacing, by scale."""
    paced, unpaced = _cv(p, f"QLBP {q}"), _cv(p, "no pacing")
    return {s: paced[s] / unpaced[s] for s in unpaced}


def _cut_at_5ms(p: Points) -> Verdict:
    cuts = {q: 1 - _ratio(p, q)[1] for q in (5, 10)}
    return all(nearly(c, 0.5) for c in cuts.values()), \
        "CV reduction at 5 ms: " + ", ".join(f"Q_max {q} {100 * c:.1f} %" for q, c in cuts.items()) + \
        f" (nearly 50 %: 47.5 to 50 %), {NOT_THE_PAPERS}"


def _fades(p: Points) -> Verdict:
    ratios = {q: _ratio(p, q) for q in (5, 10)}
    top = max(ratios[5])
    return all(about(r[top], 1) for r in ratios.values()), \
        f"CV paced / unpaced at {top * BIN_US / 1e6:g} s: " + ", ".join(f"Q_max {q} {r[top]:.3f}" for q, r in
                                                                       ratios.items()) + f" (about 1), {NOT_THE_PAPERS}"


def _reach(p: Points, q: int) -> int:
    """The largest scale (bins of 5 ms) at which QLBP of Q_max `q` cuts CV significantly; 0 if none."""
    return max([s for s, r in _ratio(p, q).items() if r < SIGNIFICANT], default=0)


def _wider(p: Points) -> Verdict:
    reach = [_reach(p, q) for q in Q16_MAX]
    ok = all(a <= b for a, b in zip(reach, reach[1:])) and reach[-1] > reach[0]
    return ok, "largest time scale with CV below 95 % of no pacing's, by Q_max " + \
        ", ".join(f"{q}: {s * BIN_US / 1e3:g} ms" if s else f"{q}: none" for q, s in zip(Q16_MAX, reach)) + \
        f" (never narrower, wider at 320 than at 5), {NOT_THE_PAPERS}"


def _large_scales(p: Points) -> Verdict:
    """The paper's "at large time scales (e.g., 2.5s (s = 512) or 5s (s = 1024))": each of Q_max 160 and 320 cuts
    CV significantly at 2.56 s or at 5.12 s (either)."""
    ratios = {q: _ratio(p, q) for q in (160, 320)}
    ok = all(any(r[s] < SIGNIFICANT for s in (512, 1024)) for r in ratios.values())
    return ok, "CV paced / unpaced at 2.56 s and 5.12 s: " + "; ".join(
        f"Q_max {q} {r[512]:.3f}, {r[1024]:.3f}" for q, r in ratios.items()) + \
        f" (significant: below {SIGNIFICANT:g} at either), {NOT_THE_PAPERS}"


def log2_cv(rows: Dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The `burstiness` rows on Fig. 16's axes: k = log2(s / 5 ms) and log2 CV(s)."""
    b = rows["burstiness"]
    if b.empty:  # no run finished (each failed, its error printed): no point to place
        return b.assign(k=pd.Series(dtype=int), log2_cv=pd.Series(dtype=float))
    return b.assign(k=np.log2(b["scale_us"] / BIN_US).round().astype(int), log2_cv=np.log2(b["beta"]))


QFIG16 = Figure(
    id="Q-fig16",
    caption="Coefficient of variation of the inbound traffic after a QLBP node against the time scale, Tmix replay",
    setup="q-tmix (paper Q Sec IV-C2, Fig. 14: the ns-2 manual's Tmix script, a QLBP node PN between its two "
          "DelayBox routers, all links 1 Gb/s): the paper's vectors (Weigle's, of the UNC trace) are not available; "
          "both clouds replay Tmix's sample vectors (ns-2's sample-alt.cvec.gz, 340 connections, 477 Mb of ADUs in "
          "1500 B packets starting over 2.09 s) looped: start times stretched x14.3 into a 29.8 s loop, repeated, so "
          "that each direction carries the paper's inbound mean of 16 Mb/s; one-way TCP NewReno, 1460 B; QLBP at PN "
          "(mu_min 11 Mb/s, mu_max 35 Mb/s, Q_max 5-320 packets) or none; CV of the bytes leaving PN per bin of "
          "s = 5 ms x 2^k over [100, 3700] s, drawn as the paper's: log2 CV(s) against log2(s / 5 ms). Seeds 1-3, the "
          "record's count where a paper gives none, but the seed moves little here: a lossless Tmix replay draws "
          "nothing but each TCP sender's clock phase (ns-2's boot_time_), which matters only where a retransmission "
          "timer fires, and ns-2's Tmix draws no more (its DelayBox's loss draw is unused when lossless; Tmix's "
          "set-run is read and never used). So the seeds carry the same packets without pacing and up to Q_max 40 "
          "(a spread of 0 there says the replay is deterministic, not that the traffic's CV is exact), and from "
          "Q_max 80, where the pacer's delay sets off a few spurious timeouts, CV at 5 ms differs within 2 % (0.276 "
          "to 0.281 at Q_max 80) and the ratios at 2.56 and 5.12 s to three digits",
    tables=("burstiness",),
    derived={"fig16": log2_cv},
    panels=[Lines("fig16", "k", "log2_cv", ["variant"], "log2(s / 5 ms)", "log2 CV(s)",
                  title="CV(s) of the inbound traffic after PN", logx=False, logy=False)],
    claims=[
        Claim("Q_max 5-10: CV cut by nearly 50 % at 5 ms", "Q_max 5 and 10 each cut CV at 5 ms by nearly 50 % (47.5 "
              f"to 50 %), {NOT_THE_PAPERS}", _cut_at_5ms,
              sentence=Q4C2 + '"Comparing the plots of log2(CV(s)) with no pacing, Qmax of 5pkts and 10pkts, we see '
                              'that QLBP with Qmax of 5pkts or 10pkts reduces the coefficient of variation by nearly '
                              '50% at time scale 5ms (s = 0)."'),
        Claim("Q_max 5-10: converging to unpaced at large s", "Q_max 5 and 10: CV at the largest scale (5.12 s) about "
              f"no pacing's (within 5 %), {NOT_THE_PAPERS}", _fades,
              sentence=Q4C2 + '"As s goes up, log2(CV(s)) with Qmax of 5 or 10 packets converts to that with no '
                              'pacing, indicating the fading impact of pacing."'),
        Claim("larger Q_max: wider range of time scales", "the largest scale at which QLBP cuts CV below 95 % of no "
              f"pacing's never shrinks as Q_max grows from 5 to 320, and is wider at 320 than at 5, {NOT_THE_PAPERS}",
              _wider,
              sentence=Q4C2 + '"Second, the larger Qmax, the wider the range of time scale in which QLBP has a '
                              'significant impact on burstiness."'),
        Claim("Q_max 160-320 reduce CV at 2.5-5 s", "Q_max 160 and 320 each cut CV below 95 % of no pacing's at 2.56 s "
              f"or at 5.12 s, {NOT_THE_PAPERS}", _large_scales,
              sentence=Q4C2 + '"A larger Qmax (e.g., 160pkts or 320pkts) results in a significant reduction at large '
                              'time scales (e.g., 2.5s (s = 512) or 5s (s = 1024))."'),
    ],
)
