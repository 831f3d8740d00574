"""Paper E's packet-level figures (edge vs host pacing): panels and claims.

Every sweep starts from E-base (the `Scenario` defaults: 1000 flows, 400 s,
measured over [100, 400] s, d = 10 ms), full size with seed 1; the quick
versions scale flows and every link rate by 0.1 (100 flows on a 10 Mb/s
core, so each flow keeps its 100 Kb/s share), run 100 s measured over
[30, 100] s, with seeds 1-3. Buffers are the nine of our ns-2 reference
(2-50 KB). The sweeps are `scenarios/E-fig*.toml`. "Throughput" is the
TCP data alone on the core (`TCP_PCT`: % of its rate, Mb/s at 100 Mb/s),
never the core's total with UDP. The rules for "about", "over", "nearly",
orderings, monotone curves, orders of magnitude and locations read from a
plot are `claims.py`'s; each claim quotes the paper's sentence it reads.
"""

from __future__ import annotations

from typing import Sequence

from ...panels import Panel
from ...reproduce.claims import (ABOUT, Claim, Points, Verdict, about, about_check, beats, decades, dips_then_rises,
                     first_reaching, gain_check, located, loss_non_monotonic, monotone, over, spacing, under)
from ...reproduce.figure import GOODPUT, TCP_PCT, TCP_THROUGHPUT, THROUGHPUT, UDP_LOSS, Figure, kb, ms

BUFFERS = ["2KB", "3KB", "5KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]
SCHEMES = ["none", "host", "edge"]
FULL = 100.0
"""The ceiling of TCP throughput as a percentage of the core (`TCP_PCT`), for the ordering rule near it."""
GOODPUT_CEILING = 100.0 * 1000 / 1040
"""The ceiling of E-base's per-flow goodput, Kb/s: the 100 Mb/s core shared by 1000 flows, 1000 B of payload in
every 1040 B packet."""


def _at(buffers: Sequence[str], schemes: Sequence[str], p: Points, metric: str) -> dict:
    return {(s, b): p.at(metric, scheme=s, buffer=b) for s in schemes for b in buffers}


# --- E-fig3 and E-fig5: throughput and goodput against the core buffer ---

def _loss_over_15(p: Points) -> Verdict:
    loss = _at(["2KB", "3KB"], SCHEMES, p, "core_loss_rate")
    return all(over(v, 0.15) for v in loss.values()), ", ".join(f"{s} {b}: {100 * v:.1f} %" for (s, b), v in loss.items())


def _no_help_when_tiny(p: Points) -> Verdict:
    parts, ok = [], True
    for b in ["2KB", "3KB"]:
        base = p.at(TCP_PCT, scheme="none", buffer=b)
        for s in ["host", "edge"]:
            paced = p.at(TCP_PCT, scheme=s, buffer=b)
            ok &= not beats(paced, base)
            parts.append(f"{s} {b}: {100 * (paced / base - 1):+.1f} %")
    return ok, "throughput vs unpaced: " + ", ".join(parts)


METRICS = [(TCP_PCT, "% of core", FULL), (GOODPUT, "Kb/s", GOODPUT_CEILING)]
"""E-base's two measures, their units and ceilings (`beats` near a ceiling)."""


def _edge_beats(buffers: Sequence[str], others: Sequence[str], metrics=METRICS, **where):
    """Edge beats each of `others` in each of `metrics` (TCP throughput and goodput) at every buffer of `buffers`
    (the ordering rule; where the other is within the margin of the ceiling, not beaten)."""
    def check(p: Points) -> Verdict:
        parts, ok = [], True
        for b in buffers:
            for metric, unit, ceiling in metrics:
                edge = p.at(metric, scheme="edge", buffer=b, **where)
                other = max(p.at(metric, scheme=s, buffer=b, **where) for s in others)
                ok &= beats(edge, other, ceiling)
                parts.append(f"{b} edge {edge:.1f} vs {other:.1f} {unit}")
        return ok, f"edge vs best of {' and '.join(others)}: " + ", ".join(parts) + " (within 1 % of the ceiling, " + \
            " and ".join(f"{c:.4g} {u}" for _, u, c in metrics) + ": not beaten)"
    return check


def _near(metric: str, scheme: str, buffer: str, target: float, unit: str, **where):
    """The paper's "`scheme` at `buffer`: about `target`"."""
    def check(p: Points) -> Verdict:
        return about_check(p.at(metric, scheme=scheme, buffer=buffer, **where), target, f"{scheme} at {buffer}, {unit}")
    return check


def _scheme(metric: str, scheme: str, buffer: str):
    return lambda p: p.at(metric, scheme=scheme, buffer=buffer)


def _saturated(p: Points) -> Verdict:
    thr = _at(["30KB", "50KB"], SCHEMES, p, TCP_PCT)
    ok = all(about(v, 100) for v in thr.values()) and not any(
        beats(thr[a, b], thr[c, b]) for a in SCHEMES for c in SCHEMES for b in ["30KB", "50KB"])
    return ok, "TCP throughput (% of core) at 30 and 50 KB: " + ", ".join(f"{s} {b} {v:.1f}" for (s, b), v in thr.items()) \
        + " (about 100, no scheme beating another)"


def _first_buffer(scheme: str, quoted_kb: float, metric: str = GOODPUT, level: float = 90.0,
                  level_text: str = "90 Kb/s", buffers: Sequence[str] = BUFFERS, below: bool = False):
    """The first grid buffer at which `scheme`'s `metric` reaches `level` is `located` at `quoted_kb` (a
    location read from the paper's plot: within the grid's spacing), with `below` at or under it (the curve
    reaches the level by `quoted_kb`, so it crosses it under)."""
    def check(p: Points) -> Verdict:
        grid = [kb(b) for b in buffers]
        ys = [p.at(metric, scheme=scheme, buffer=b) for b in buffers]
        first = first_reaching(grid, ys, level)
        if first is None:
            return False, f"{scheme} never reaches {level_text}; paper {'under ' if below else ''}{quoted_kb:g} KB"
        ok = located(grid, first, quoted_kb) and (first <= quoted_kb or not below)
        return ok, f"{scheme} first reaches {level_text} at {first:g} KB of the grid; paper " \
                   f"{'under ' if below else ''}{quoted_kb:g} KB (grid spacing there {spacing(grid, quoted_kb, first):g} KB): " \
                   + ", ".join(f"{b} {y:.4g}" for b, y in zip(buffers, ys))
    return check


E31_TINY = ('Paper E Sec 3.1: "When buffers are very small (i.e. 2-3 KB), packet loss rates at the core link were '
            'found to be in excess of 15% for the three scenarios shown in the figure. The benefit of pacing packets (at '
            'the host or the edge) is thus outweighed by the high loss rates, and the aggregate TCP throughput is no '
            'better than when all flows are unpaced."')
E31_AT_5 = ('Paper E Sec 3.1: "At 5 KB worth of buffering, the per-flow goodput for host and unpaced flows is ≈ 82 Kbps, '
            'while edge pacing achieves 93 Kbps."')

FIG3 = Figure(
    id="E-fig3",
    caption="TCP performance with small buffer link as the bottleneck",
    setup="E-base; pacing none, host, edge (d = 10 ms); core buffer 2-50 KB",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], title="(a) Aggregate TCP throughput"),
            Panel("core.buffer", GOODPUT, ["pacing.scheme"], title="(b) Average per-flow goodput")],
    claims=[
        Claim("2-3 KB: loss >15%", "core loss over 15 % for none, host and edge at 2 and 3 KB", _loss_over_15,
              sentence=E31_TINY),
        Claim("2-3 KB: pacing no help", "neither host nor edge beats unpaced TCP throughput at 2 and 3 KB",
              _no_help_when_tiny, sentence=E31_TINY),
        Claim("5-15 KB: edge best", "edge beats none and host in TCP throughput and goodput at 5, 8, 10, 15 KB "
              "(within 1 % of the ceiling: not beaten)",
              _edge_beats(["5KB", "8KB", "10KB", "15KB"], ["none", "host"]),
              sentence='Paper E Sec 3.1: "On the other hand, the efficacy of pacing packets at the edges is '
                       'pronounced in the small buffer regime (i.e. 5-15 KB), reflected in the aggregate TCP '
                       'throughput shown in Fig. 3(a) as well as the average per-flow goodput in Fig. 3(b)."'),
        Claim("At 5 KB goodput none≈82 Kb/s", "about", _near(GOODPUT, "none", "5KB", 82, "Kb/s"), sentence=E31_AT_5),
        Claim("At 5 KB goodput host≈82 Kb/s", "about", _near(GOODPUT, "host", "5KB", 82, "Kb/s"), sentence=E31_AT_5),
        Claim("At 5 KB goodput edge≈93", "about", _near(GOODPUT, "edge", "5KB", 93, "Kb/s"), sentence=E31_AT_5),
        Claim("At 5 KB edge +13% (over host)", "edge's goodput gain over host's over 13 % (a bound)",
              gain_check(_scheme(GOODPUT, "host", "5KB"), _scheme(GOODPUT, "edge", "5KB"), 0.13, "edge over host",
                         "over"),
              sentence='Paper E Sec 3.1: "Edge pacing therefore outperforms host pacing by over 13%."'),
        Claim(">20 KB: ~100% utilisation, no room to improve",
              "at 30 and 50 KB every scheme's TCP throughput about 100 % of the core rate, none beating another",
              _saturated,
              sentence='Paper E Sec 3.1: "As core buffers get larger (i.e. > 20 KB), the utilisation of the link '
                       'C_0 - C_1 is near-100%, and therefore there is no room for pacing to improve TCP '
                       'performance"'),
    ],
)

E33_AT_5 = ('Paper E Sec 3.3: "The bottom curve in Fig. 5(a) shows that at 5 KB of buffering, unpaced flows obtain an '
            'aggregate throughput of 77 Mbps, host pacing (middle curve) increases the throughput to 90 Mbps (better '
            'by 17%), and edge pacing (top curve) further pushes the throughput to 98 Mbps"')
E33_90 = ('Paper E Sec 3.3: "To obtain 90 Kbps goodput (90% of 0.1 Mbps, the ideal goodput) the bottom curve indicates '
          'that unpaced flows require 20 KB of buffering. Pacing flows at the host (middle curve) halves the buffering '
          'requirements to 10 KB, while edge pacing (top curve) achieves 90 Kbps with just under 5 KB buffers"')


FIG5 = Figure(
    id="E-fig5",
    caption="TCP performance with high-speed access links",
    setup="E-base with 100 Mb/s access links; pacing none, host, edge; core buffer 2-50 KB",
    panels=FIG3.panels,
    claims=[
        Claim("at 5 KB: none 77 Mb/s", "TCP throughput about 77 (% of the core rate)",
              _near(TCP_PCT, "none", "5KB", 77, "Mb/s per 100 Mb/s"), sentence=E33_AT_5),
        Claim("at 5 KB: host 90", "about", _near(TCP_PCT, "host", "5KB", 90, "Mb/s per 100 Mb/s"), sentence=E33_AT_5),
        Claim("at 5 KB: edge 98", "about", _near(TCP_PCT, "edge", "5KB", 98, "Mb/s per 100 Mb/s"), sentence=E33_AT_5),
        Claim("90 Kb/s goodput needs 20 KB none", "the first grid buffer where goodput reaches 90 Kb/s within the "
              "grid's spacing of 20 KB", _first_buffer("none", 20), sentence=E33_90),
        Claim("90 Kb/s goodput needs 10 KB host", "the first grid buffer where goodput reaches 90 Kb/s within the "
              "grid's spacing of 10 KB", _first_buffer("host", 10), sentence=E33_90),
        Claim("90 Kb/s goodput needs <5 KB edge", "the first grid buffer where goodput reaches 90 Kb/s at most 5 KB "
              "and within the grid's spacing of it", _first_buffer("edge", 5, below=True), sentence=E33_90),
        Claim("edge above host in TCP throughput at 5-15 KB", "edge beats host in TCP throughput at 5, 8, 10, 15 KB "
              "(within 1 % of the ceiling: not beaten)", _edge_beats(["5KB", "8KB", "10KB", "15KB"], ["host"], METRICS[:1]),
              sentence='Paper E Sec 3.3: "Edge pacing obtains higher TCP throughput than host pacing in the small '
                       'buffer regime (5-15 KB)."'),
    ],
)


# --- E-fig7: TCP variants; E-fig9: RED at the core ---

VARIANTS = ["newreno", "sack", "fack"]
VARIANT_NAMES = {"newreno": "NewReno", "sack": "SACK", "fack": "FACK"}
MID = ["5KB", "8KB", "10KB", "15KB"]


def _edge_over_host_each_variant(p: Points) -> Verdict:
    parts, ok = [], True
    for v in VARIANTS:
        for metric, _, ceiling in METRICS:
            losing = [b for b in MID if not beats(p.at(metric, tcp=v, scheme="edge", buffer=b),
                                                  p.at(metric, tcp=v, scheme="host", buffer=b), ceiling)]
            ok &= not losing
            parts.append(f"{v} {metric.split('_')[0]}: " + ("edge above host at all" if not losing
                                                              else "host at or above edge at " + ", ".join(losing)))
    return ok, "; ".join(parts)


def _edge_gain_typically_10(p: Points) -> Verdict:
    """"Typically": at most (variant, buffer) points, for throughput and for goodput each."""
    ok, parts = True, []
    for metric in [TCP_PCT, GOODPUT]:
        gains = {(v, b): p.at(metric, tcp=v, scheme="edge", buffer=b) / p.at(metric, tcp=v, scheme="host", buffer=b) - 1
                 for v in VARIANTS for b in MID}
        over = sum(g > 0.10 for g in gains.values())
        ok &= over * 2 > len(gains)
        parts.append(f"{metric}: {over} of {len(gains)} points above +10 % (" + ", ".join(
            f"{v} {b} {100 * g:+.1f} %" for (v, b), g in gains.items()) + ")")
    return ok, "; ".join(parts)


E35 = ('Paper E Sec 3.5: "Overall, we observed that for all the above variants of TCP, edge pacing offers better '
       'performance than host pacing (typically by more than 10% in the region 5-15 KB) in terms of aggregate '
       'throughput as well as average per-flow goodput, as depicted in Fig. 7."')

FIG7 = Figure(
    id="E-fig7",
    caption="TCP performance with NewReno, SACK and FACK",
    setup="E-base (E-fig3) with TCP NewReno, SACK (ns-2 Sack1) and FACK; pacing none, host, edge; core buffer 2-50 KB",
    panels=[Panel("core.buffer", metric, ["pacing.scheme"], where={"tcp.variant": v}, title=f"{what}, {VARIANT_NAMES[v]}")
            for metric, what in [(THROUGHPUT, "(a) Throughput"), (GOODPUT, "(b) Goodput")] for v in VARIANTS],
    claims=[
        Claim("edge > host in 5-15 KB, throughput and goodput",
              "edge beats host in throughput and goodput at 5, 8, 10, 15 KB for each variant (within 1 % of the "
              "ceiling: not beaten)", _edge_over_host_each_variant, sentence=E35),
        Claim("typically by >10% in 5-15 KB", "edge more than 10 % above host at most (variant, buffer) points in 5-15 KB, "
              "in TCP throughput and in goodput",
              _edge_gain_typically_10, sentence=E35),
    ],
)

RED_BUFFERS = ["2KB", "3KB", "4KB", "5KB", "6KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]


def _first_at_99(scheme: str, quoted_kb: float):
    return _first_buffer(scheme, quoted_kb, TCP_PCT, 99.0, "99 Mb/s", RED_BUFFERS)


def _edge_not_below_host(p: Points) -> Verdict:
    """Host beats edge at no buffer, in TCP throughput or in goodput ("as well or better": the ordering rule's
    "not beaten")."""
    parts, ok = [], True
    for metric, unit, _ in METRICS:
        pairs = {b: (p.at(metric, scheme="edge", buffer=b), p.at(metric, scheme="host", buffer=b)) for b in RED_BUFFERS}
        above = [b for b, (e, h) in pairs.items() if beats(h, e)]
        ok &= not above
        parts.append(f"{unit}: " + ", ".join(f"{b} {e:.1f} vs {h:.1f}" for b, (e, h) in pairs.items()))
    return ok, "edge vs host: " + "; ".join(parts)


E37_99 = ('Paper E Sec 3.7: "We observe from Fig. 9(a) that edge pacing requires only 4 KB of buffering to realize 99 '
          'Mbps of aggregate throughput (i.e. to achieve 99% of link capacity), which is less than half of the '
          'buffering required when TCP flows are paced at the end-hosts (10 KB)."')
E37_AT_6 = ('Paper E Sec 3.7: "Fig. 9(b) shows that at 6 KB of buffering, unpaced flows obtain 89 Kbps of goodput on '
            'average, host pacing improves this by 5% (to 94 Kbps), while edge pacing achieves 97 Kbps (9% improvement '
            'compared to no pacing)."')


FIG9 = Figure(
    id="E-fig9",
    caption="TCP performance with RED at the core",
    setup="E-base (E-fig3) with RED at the core: max_th = buffer, min_th = 40 % of it, max_p 0.1, w_q 0.002 "
          "(ns-2 defaults otherwise: gentle, byte mode); pacing none, host, edge; core buffer 2-50 KB",
    panels=FIG3.panels,
    claims=[
        Claim("edge reaches 99 Mb/s with 4 KB", "the first grid buffer where TCP throughput reaches 99 % of the "
              "core within the grid's spacing of 4 KB", _first_at_99("edge", 4), sentence=E37_99),
        Claim("host needs 10 KB", "the first grid buffer where TCP throughput reaches 99 % of the core within the "
              "grid's spacing of 10 KB", _first_at_99("host", 10), sentence=E37_99),
        Claim("At 6 KB goodput none 89", "about", _near(GOODPUT, "none", "6KB", 89, "Kb/s"), sentence=E37_AT_6),
        Claim("At 6 KB goodput host 94", "about", _near(GOODPUT, "host", "6KB", 94, "Kb/s"), sentence=E37_AT_6),
        Claim("At 6 KB goodput edge 97", "about", _near(GOODPUT, "edge", "6KB", 97, "Kb/s"), sentence=E37_AT_6),
        Claim("edge as well or better than host", "host beats edge at no buffer, in TCP throughput or in goodput",
              _edge_not_below_host,
              sentence='Paper E Sec 3.7: "Fig. 9 shows that edge pacing performs as well or better than host pacing '
                       'in terms of both aggregate throughput and average per-flow goodput."'),
    ],
)


# --- E-fig4: number of flows ---

def _500_follows_1000(p: Points) -> Verdict:
    pairs = {(s, b): (p.at(TCP_PCT, flows=500, scheme=s, buffer=b), p.at(TCP_PCT, flows=1000, scheme=s, buffer=b))
             for s in SCHEMES for b in BUFFERS}
    (s, b), (a, c) = max(pairs.items(), key=lambda kv: abs(kv[1][0] / kv[1][1] - 1))
    ok = all(about(x, y) for x, y in pairs.values())
    return ok, f"largest gap in TCP throughput, 500 vs 1000 flows: {a:.1f} vs {c:.1f} % of the core ({s}, {b}); " \
               "about at every (scheme, buffer)"


def _host_beats_edge_100(p: Points) -> Verdict:
    bufs = ["10KB", "15KB", "20KB", "30KB"]
    pairs = {b: (p.at(GOODPUT, flows=100, scheme="host", buffer=b), p.at(GOODPUT, flows=100, scheme="edge", buffer=b))
             for b in bufs}
    return all(beats(h, e) for h, e in pairs.values()), ", ".join(f"{b}: host {h:.0f} vs edge {e:.0f} Kb/s" for b, (h, e) in pairs.items())


E32 = ('Paper E Sec 3.2: "In contrast to the previous case of 1000 flows where edge pacing consistently outperformed '
       'host pacing over the entire buffer size range, when the number of flows is small (100) and buffer sizes are in '
       'a certain region (10-30 KB), we find that host pacing gives better performance than edge pacing."')

FIG4 = Figure(
    id="E-fig4",
    caption="TCP performance with 100 and 1000 flows",
    setup="E-base with 10, 50, 100 access links per edge (100, 500, 1000 flows); pacing none, host, edge; buffer 2-50 KB "
          "(500 flows run but, as in the paper, not drawn)",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.scheme", "flows"], where={"flows": [100, 1000]},
                  title="(a) Aggregate TCP throughput"),
            Panel("core.buffer", GOODPUT, ["pacing.scheme", "flows"], where={"flows": [100, 1000]},
                  title="(b) Average per-flow goodput", logy=True)],
    claims=[
        Claim("500 follows 1000", "TCP throughput with 500 flows about that with 1000, every scheme and buffer",
              _500_follows_1000,
              sentence='Paper E Sec 3.2: "(plots corresponding to 500 flows closely follow that of 1000 flows, not '
                       'plotted for the sake of clarity)"'),
        Claim("With 100 flows and 10-30 KB, host beats edge", "100 flows: host goodput beats edge at 10, 15, 20, 30 KB",
              _host_beats_edge_100, sentence=E32),
        Claim("1000 flows: edge beats host over the whole buffer range", "1000 flows: edge beats host in TCP throughput "
              "and goodput at every buffer, 2-50 KB (within 1 % of the ceiling: not beaten)",
              _edge_beats(BUFFERS, ["host"], flows=1000), sentence=E32),
    ],
)


# --- E-fig11 and E-fig12: the pacer delay ---

FIG11_DELAYS = ["0ms", "1ms", "2ms", "5ms", "10ms", "15ms", "20ms", "30ms", "50ms", "75ms", "100ms"]
# Paper E Sec 4: "We set the core link buffers to 5 KB, and plot in Fig. 11(a) the per-flow TCP throughput. [...]
# We find that in this case TCP throughput falls with pacing delay". Throughput, not goodput: the mean per-flow TCP
# throughput, the TCP data leaving the core over its 1000 flows, which in Kb/s is TCP_PCT (Mb/s at a 100 Mb/s core).
PER_FLOW_TCP = TCP_PCT


def _trend(buffer: str, rising: bool):
    """Per-flow TCP throughput monotone in d (`claims.monotone`: no step against the direction beats the point
    before, and a total change beyond the margin)."""
    def check(p: Points) -> Verdict:
        ys = [p.at(PER_FLOW_TCP, buffer=buffer, delay=d) for d in FIG11_DELAYS]
        return monotone(ys, rising), f"per-flow TCP throughput (Kb/s) against d: " + ", ".join(
            f"{d} {y:.4g}" for d, y in zip(FIG11_DELAYS, ys))
    return check


def saturation(ys: Sequence[float]) -> int:
    """Index of the first point from which no later one beats it (the curve's saturation point)."""
    return next(i for i in range(len(ys)) if not any(beats(y, ys[i]) for y in ys[i + 1:]))


def _saturates_at_10(p: Points) -> Verdict:
    ys = [p.at(PER_FLOW_TCP, buffer="5KB", delay=d) for d in FIG11_DELAYS]
    grid = [ms(d) for d in FIG11_DELAYS]
    at = grid[saturation(ys)]
    return located(grid, at, 10), f"per-flow TCP throughput saturates at d = {at:g} ms (paper 10 ms, within the " \
        f"grid's spacing {spacing(grid, 10, at):g} ms): " + ", ".join(f"{d} {y:.4g}" for d, y in zip(FIG11_DELAYS, ys))


FIG11 = Figure(
    id="E-fig11",
    caption="Throughput measure as a function of pacer delay from simulations for (a) Low load (small buffer), and (b) High load (large buffer)",
    setup="E-base, edge pacing; core buffer 5 KB and 50 KB; pacer delay d 0-100 ms (d = 0 is no pacer)",
    panels=[Panel("pacing.delay", TCP_THROUGHPUT, where={"core.buffer": "5KB"}, title="(a) Low load: 5 KB buffer",
                  ylabel="TCP throughput (Mb/s; per flow, Kb/s x 1000)"),
            Panel("pacing.delay", TCP_THROUGHPUT, where={"core.buffer": "50KB"}, title="(b) High load: 50 KB buffer",
                  ylabel="TCP throughput (Mb/s; per flow, Kb/s x 1000)")],
    claims=[
        Claim("5 KB: rises", "per-flow TCP throughput monotone rising in d: no step down beating the point before, "
              "d = 100 ms beating d = 0", _trend("5KB", True),
              sentence='Paper E Sec 4: "It shows that TCP throughput increases with pacing delay, as predicted by our '
                       'analysis in Fig. 10(a)." and "though our analysis and simulation both show a monotonic rise in '
                       'TCP throughput with pacing delay for low load (small buffers)"'),
        Claim("5 KB: saturates near d = 10 ms (concave)", "per-flow TCP throughput's saturation point (the first d "
              "no larger one beats) within the grid's spacing of 10 ms", _saturates_at_10,
              sentence='Paper E Sec 4: "(it can be seen that the TCP throughput curve saturates in simulation when '
                       'the pacing delay reaches 10 ms)"'),
        Claim("50 KB: falls with d", "per-flow TCP throughput monotone falling in d: no step up beating the point "
              "before, d = 0 beating d = 100 ms", _trend("50KB", False),
              sentence='Paper E Sec 4: "We find that in this case TCP throughput falls with pacing delay, as predicted '
                       'by our analysis in Fig. 10(b)"'),
    ],
)

FIG12_DELAYS = ["1ms", "10ms", "100ms", "200ms"]


def _worse_than_10(delays: Sequence[str], buffers: Sequence[str]):
    def check(p: Points) -> Verdict:
        parts, ok = [], True
        for b in buffers:
            ref = p.at(GOODPUT, buffer=b, delay="10ms")
            for d in delays:
                got = p.at(GOODPUT, buffer=b, delay=d)
                rel = got / ref - 1
                ok &= beats(ref, got)
                parts.append(f"{b} d={d}: {100 * rel:+.1f} %")
        return ok, "goodput vs d = 10 ms: " + ", ".join(parts)
    return check


def _ten_good_everywhere(p: Points) -> Verdict:
    """Paper E Sec 4: "d = 10 ms was a good compromise that works well across the entire range of buffer sizes":
    a compromise need not be the best d anywhere, only about as good as the best at every buffer."""
    worst, where, ok = 0.0, "", True
    for b in BUFFERS:
        best = max(p.at(GOODPUT, buffer=b, delay=d) for d in FIG12_DELAYS)
        ten = p.at(GOODPUT, buffer=b, delay="10ms")
        ok &= about(ten, best)
        if ten / best - 1 < worst:
            worst, where = ten / best - 1, b
    return ok, f"d = 10 ms at most {100 * -worst:.1f} % below the best d" + (f" (at {where})" if where else "") + \
        f" (about: within {100 * ABOUT:g} %)"


E4_FIG12 = ('Paper E Sec 4: "It is observed that a small pacing delay d = 1 ms is relatively ineffective at small buffer '
            'sizes, while a large pacing delay such as d = 100 or 200 ms is detrimental (i.e. reduced TCP goodput) as '
            'buffer sizes become larger."')

FIG12 = Figure(
    id="E-fig12",
    caption="Per-flow TCP goodput for various pacing delay values",
    setup="E-base, edge pacing with d = 1, 10, 100, 200 ms; core buffer 2-50 KB",
    panels=[Panel("core.buffer", GOODPUT, ["pacing.delay"], title="Per-flow TCP goodput")],
    claims=[
        Claim("d = 1 ms weak at small buffers", "d = 10 ms beats d = 1 ms in goodput at 5, 8, 10, 15 KB (paper E's "
              "\"small buffer regime (i.e. 5-15 KB)\", Sec 3.1; 2-3 KB it calls \"very small\")",
              _worse_than_10(["1ms"], ["5KB", "8KB", "10KB", "15KB"]), sentence=E4_FIG12),
        Claim("100/200 ms hurt at large buffers", "d = 10 ms beats d = 100 and 200 ms in goodput at 30 and 50 KB",
              _worse_than_10(["100ms", "200ms"], ["30KB", "50KB"]), sentence=E4_FIG12),
        Claim("10 ms good everywhere", "d = 10 ms's goodput about the best d's at every buffer", _ten_good_everywhere,
              sentence='Paper E Sec 4: "Throughout our simulations we found that d = 10 ms was a good compromise that '
                       'works well across the entire range of buffer sizes for all scenarios considered"'),
    ],
)


# --- E-fig16 and E-fig17: partial deployment ---

FRACTIONS = [0.0, 0.3, 0.5, 1.0]


def _rises_with_fraction(p: Points) -> Verdict:
    """Throughput averaged over the buffers, against the fraction: monotone rising (`claims.monotone`: no step
    down beats the point before; full deployment beats none)."""
    parts, ok = [], True
    for s in ["host", "edge"]:
        means = [sum(p.at(TCP_PCT, scheme=s, fraction=f, buffer=b) for b in BUFFERS) / len(BUFFERS) for f in FRACTIONS]
        ok &= monotone(means, True)
        parts.append(f"{s}: " + ", ".join(f"{m:.2f}" for m in means) + f" (total {100 * (means[-1] / means[0] - 1):+.2f} %)")
    return ok, "throughput (% of core) averaged over buffers, fractions 0/0.3/0.5/1: " + "; ".join(parts)


FIG16 = Figure(
    id="E-fig16",
    caption="Aggregate bottleneck link throughput versus buffer size for varying fractions of pacing deployment at (a) Hosts and (b) Edge nodes",
    setup="E-base; host or edge pacing on 0, 30, 50, 100 % of hosts or edge nodes; core buffer 2-50 KB",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.fraction"], where={"pacing.scheme": "host"}, title="(a) Hosts"),
            Panel("core.buffer", THROUGHPUT, ["pacing.fraction"], where={"pacing.scheme": "edge"}, title="(b) Edge nodes")],
    claims=[Claim("throughput rises with the fraction, for both",
                  "TCP throughput averaged over the buffers, monotone rising in the fraction 0, 0.3, 0.5, 1: no step "
                  "down beating the one before, fraction 1 beating 0, for host and for edge",
                  _rises_with_fraction,
                  sentence='Paper E Sec 6: "Comparing host pacing in Fig. 16(a) with edge pacing in Fig. 16(b), we note '
                           'that in both cases throughput rises gradually as the fraction of hosts/edges that perform '
                           'pacing increases"')],
)


def _paced_vs_unpaced(scheme: str, paced_better: bool):
    def check(p: Points) -> Verdict:
        pairs = {b: (p.at("goodput_kbps_paced", scheme=scheme, buffer=b), p.at("goodput_kbps_unpaced", scheme=scheme, buffer=b))
                 for b in BUFFERS}
        rel = {b: a / u - 1 for b, (a, u) in pairs.items()}
        ok = all(beats(a, u) if paced_better else beats(u, a) for a, u in pairs.values())
        return ok, "paced vs unpaced goodput: " + ", ".join(f"{b} {100 * r:+.1f} %" for b, r in rel.items())
    return check


def _host_deficit_up_to_10(p: Points) -> Verdict:
    """"As much as 10 %" worse: the largest deficit, a ratio read from the plot, about 0.9 (the rule on the ratio
    paced / unpaced)."""
    ratios = [p.at("goodput_kbps_paced", scheme="host", buffer=b) / p.at("goodput_kbps_unpaced", scheme="host", buffer=b)
              for b in BUFFERS]
    ok, text = about_check(min(ratios), 0.9, "smallest paced / unpaced goodput ratio of host-paced flows")
    return ok, f"{text}: a largest deficit of {100 * (1 - min(ratios)):.1f} % (paper: as much as 10 %)"


E6_HOST = ('Paper E Sec 6: "Fig. 17(a) shows that with host pacing, flows that pace their TCP traffic actually obtain '
           '*worse* goodput (by as much as 10%) than flows that do not pace their traffic."')

FIG17 = Figure(
    id="E-fig17",
    caption="Per-flow goodput versus bottleneck buffer size for paced and unpaced flows with fractional deployment of pacing at (a) Hosts and (b) Edge nodes",
    setup="E-base with 30 % deployment: 300 of 1000 hosts pace, or 3 of 10 edge nodes; core buffer 2-50 KB",
    panels=[Panel("core.buffer", ["goodput_kbps_paced", "goodput_kbps_unpaced"], where={"pacing.scheme": "host"},
                  title="(a) Hosts", ylabel="Average per-flow goodput (Kb/s)"),
            Panel("core.buffer", ["goodput_kbps_paced", "goodput_kbps_unpaced"], where={"pacing.scheme": "edge"},
                  title="(b) Edge nodes", ylabel="Average per-flow goodput (Kb/s)")],
    claims=[
        Claim("host-paced flows get ... LESS goodput than unpaced ones", "unpaced beat host-paced at every buffer",
              _paced_vs_unpaced("host", False), sentence=E6_HOST),
        Claim("host-paced flows get up to 10% LESS", "largest deficit over the buffers: the ratio paced / unpaced "
              "about 0.9", _host_deficit_up_to_10, sentence=E6_HOST),
        Claim("edge-paced flows get MORE", "edge-paced beat unpaced at every buffer", _paced_vs_unpaced("edge", True),
              sentence='Paper E Sec 6: "By contrast, Fig. 17(b) shows that with the same fraction of flows being paced '
                       'via edge pacing, this problem does not arise, and paced flows experience better performance '
                       'than unpaced ones."'),
    ],
)

# --- E-fig13 and E-fig14: TCP with Poisson and fBm UDP ---

E_UDP_BUFFERS = ["2KB", "3KB", "4KB", "6KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]


def _saturation_kb(p: Points, scheme: str) -> tuple:
    """(the buffer, KB, at which `scheme`'s TCP throughput saturates (`saturation`), the throughput there, and the
    curve)."""
    ys = [p.at(TCP_PCT, scheme=scheme, buffer=b) for b in E_UDP_BUFFERS]
    i = saturation(ys)
    return kb(E_UDP_BUFFERS[i]), ys[i], ys


def _saturates(quoted: dict):
    """Each scheme's TCP throughput saturates where the paper says ({scheme: (KB, more)}: a location read from
    its plot, `located` at KB, or with `more` over it), at about 95 Mb/s."""
    def check(p: Points) -> Verdict:
        ok, parts = True, []
        grid = [kb(b) for b in E_UDP_BUFFERS]
        for s, (at, more) in quoted.items():
            sat, level, _ = _saturation_kb(p, s)
            ok &= (over(sat, at) if more else located(grid, sat, at)) and about(level, 95)
            parts.append(f"{s} saturates at {sat:g} KB with {level:.1f} (paper {'more than ' if more else ''}{at:g} KB"
                         + ("" if more else f", grid spacing there {spacing(grid, at, sat):g} KB") + ")")
        return ok, "TCP throughput (Mb/s per 100): " + "; ".join(parts) + "; about 95"
    return check


def _udp_loss_ratio(p: Points, buffer: str) -> tuple:
    """(edge's UDP loss, the lower of host's and none's, and their ratio: infinite when edge lost nothing and
    the other did, 0 when neither did)."""
    e = p.at(UDP_LOSS, scheme="edge", buffer=buffer)
    other = min(p.at(UDP_LOSS, scheme=s, buffer=buffer) for s in ("none", "host"))
    return e, other, other / e if e > 0 else float("inf") if other > 0 else 0.0


def _edge_udp_not_above(p: Points) -> Verdict:
    """"Same or lower": neither host nor none beats edge in lowness at any buffer."""
    found = {b: _udp_loss_ratio(p, b) for b in E_UDP_BUFFERS}
    return all(not beats(e, other) for e, other, _ in found.values()), \
        "UDP loss, edge vs the lower of host and none: " + ", ".join(
            f"{b} {100 * e:.4f} vs {100 * other:.4f} %" for b, (e, other, _) in found.items())


def _edge_udp_orders_lower(buffers: Sequence[str]):
    """"Lower by multiple orders of magnitude": at each of `buffers`, the lower of host's and none's UDP loss over
    edge's is two decades or more as read off a log plot (`decades`; zero edge loss: infinitely many)."""
    def check(p: Points) -> Verdict:
        found = {b: _udp_loss_ratio(p, b) for b in buffers}
        return all(decades(r) >= 2 for _, _, r in found.values()), "UDP loss, edge vs the lower of host and none: " + \
            ", ".join(f"{b} {100 * e:.4f} vs {100 * other:.4f} % (x{r:.3g}, {decades(r):g} decades)"
                      for b, (e, other, r) in found.items())
    return check


def _goodput_at(buffer: str, quoted: dict):
    def check(p: Points) -> Verdict:
        g = {s: p.at(GOODPUT, scheme=s, buffer=buffer) for s in quoted}
        ok = all(about(g[s], q) for s, q in quoted.items())
        return ok, f"at {buffer}: " + ", ".join(f"{s} {g[s]:.1f} (paper {q:g})" for s, q in quoted.items()) + " Kb/s"
    return check


def _udp_non_monotonic(schemes: Sequence[str]):
    def check(p: Points) -> Verdict:
        parts, ok = [], True
        for s in schemes:
            ok_s, numbers = loss_non_monotonic(E_UDP_BUFFERS, {"scheme": s})(p)
            ok &= ok_s
            parts.append(f"{s}: {numbers}")
        return ok, "; ".join(parts)
    return check


E51_UDP = ('Paper E Sec 5.1: "The observation from the figure that is more pertinent to our study in this paper is that '
           'the UDP loss is same or lower with edge pacing than with host pacing or no pacing – indeed, in certain '
           'regimes (e.g. 5-15 KB and 20-30 KB buffers), UDP loss is lower by multiple orders of magnitude"')

FIG13 = Figure(
    id="E-fig13",
    caption="Mixed TCP and Poisson UDP: TCP throughput, per-flow goodput and UDP loss against the core buffer",
    setup="E-base with an aggregate 5.5 Mb/s Poisson UDP source (sizes U[100, 300] B) on its own 100 Mb/s edge "
          "link; the edge pacer paces TCP and UDP, host pacing TCP only; core buffer 2-50 KB",
    panels=[Panel("core.buffer", TCP_THROUGHPUT, ["pacing.scheme"], title="(a) TCP throughput"),
            Panel("core.buffer", GOODPUT, ["pacing.scheme"], title="(b) Per-flow TCP goodput"),
            Panel("core.buffer", UDP_LOSS, ["pacing.scheme"], title="(c) UDP loss", logy=True)],
    claims=[
        Claim("edge saturates ≈95 Mb/s (TCP) at 6 KB, host at 10 KB, none >20 KB",
              "TCP throughput's saturation point (first buffer no larger one beats) within the grid's spacing of 6 KB "
              "for edge and of 10 KB for host, over 20 KB for none, each at about 95 Mb/s",
              _saturates({"edge": (6, False), "host": (10, False), "none": (20, True)}),
              sentence='Paper E Sec 5.1: "The aggregate throughput plots in Fig. 13(a) show that edge-pacing '
                       'outperforms unpaced and host-paced flows, reaching a saturation throughput of roughly 95 Mbps '
                       'with only 6 KB of buffering; by contrast, host pacing requires more buffers at the bottleneck '
                       '(10 KB) to reach saturation throughput, while absence of pacing requires substantially more '
                       'buffers (more than 20 KB)."'),
        Claim("At 6 KB goodput edge 91, host 85, none 82 Kb/s", "each about", _goodput_at("6KB", {"edge": 91, "host": 85, "none": 82}),
              sentence='Paper E Sec 5.1: "at 6 KB of buffering, edge-pacing gives 91 Kbps to each TCP flow, whereas '
                       'host-pacing gives around 85 Kbps and no pacing only around 82 Kbps."'),
        Claim("UDP loss non-monotonic in buffer", "UDP loss rises and falls over the buffers (%) for none, host and edge",
              _udp_non_monotonic(SCHEMES),
              sentence='Paper E Sec 5.1: "Fig. 13(c) shows the UDP loss rate (on log scale) as the buffer size '
                       'varies. Our first observation is that the loss rate is non-monotonic in buffer size."'),
        Claim("edge's UDP loss same or lower than host's and none's everywhere",
              "neither host nor none beats edge in lower UDP loss at any buffer", _edge_udp_not_above, sentence=E51_UDP),
        Claim("lower by orders of magnitude in 5-15 and 20-30 KB",
              "the lower of host's and none's UDP loss two or more decades (log plot: a ratio of 10^1.5 = 31.6 or "
              "more) above edge's at 6, 8, 10, 15, 20, 30 KB",
              _edge_udp_orders_lower(["6KB", "8KB", "10KB", "15KB", "20KB", "30KB"]), sentence=E51_UDP),
    ],
)


def _edge_peak_by(at_kb: float):
    """Edge's saturation point (`saturation`), a location read from the plot, `located` at `at_kb`."""
    def check(p: Points) -> Verdict:
        grid = [kb(b) for b in E_UDP_BUFFERS]
        sat, _, ys = _saturation_kb(p, "edge")
        return located(grid, sat, at_kb), f"edge's TCP throughput saturates at {sat:g} KB (paper: peak for as low " \
            f"as {at_kb:g} KB, grid spacing there {spacing(grid, at_kb, sat):g} KB): " + ", ".join(
                f"{b} {v:.1f}" for b, v in zip(E_UDP_BUFFERS, ys))
    return check


def _edge_up_to_10x_lower(p: Points) -> Verdict:
    """"As much as an order of magnitude": the largest finite none / edge UDP loss ratio (a zero has no place on a
    log plot) is one decade as read off a log plot (`decades`: 3.16 to 31.6)."""
    ratios = {b: p.at(UDP_LOSS, scheme="none", buffer=b) / p.at(UDP_LOSS, scheme="edge", buffer=b)
              for b in E_UDP_BUFFERS if p.at(UDP_LOSS, scheme="edge", buffer=b) > 0}
    if not ratios:
        return False, "edge lost no UDP packet at any buffer: no finite ratio"
    best = max(ratios, key=ratios.get)
    return decades(ratios[best]) == 1, f"largest none / edge UDP loss ratio x{ratios[best]:.3g} at {best}, " \
        f"{decades(ratios[best]):g} decades (paper: as much as an order of magnitude, x3.16 to x31.6)"


E52_UDP = ('Paper E Sec 5.2: "The UDP loss rate is shown in Fig. 14(c), and once again shows similar qualitative '
           'behavior to what was observed for Poisson traffic before, namely that (a) loss is non-monotonic in buffer '
           'size, irrespective of whether traffic is paced or not (explained by our previous work [7]), and (b) '
           'edge-pacing reduces loss for UDP traffic, by as much as an order of magnitude in some regimes."')

FIG14 = Figure(
    id="E-fig14",
    caption="Mixed TCP and fBm UDP: TCP throughput, per-flow goodput and UDP loss against the core buffer",
    setup="E-fig13 with the UDP source fractional Brownian motion (paper A Sec V-A: Hurst 0.85, 1 us resolution, "
          "6 Mb/s mean; packets U[100, 300] B as paper E Sec 5 sets)",
    panels=FIG13.panels,
    claims=[
        Claim("edge reaches peak TCP throughput by 6 KB", "edge's TCP throughput saturation point (first buffer no "
              "larger one beats) within the grid's spacing of 6 KB", _edge_peak_by(6),
              sentence='Paper E Sec 5.2: "The aggregate and per-flow TCP throughputs in Fig. 14(a) and Fig. 14(b) show '
                       'that edge-pacing again outperforms host-pacing and no-pacing, achieving peak throughput for as '
                       'low as 6 KB buffers, much as in the case of Poisson UDP traffic."'),
        Claim("UDP loss non-monotonic for every scheme, paced or not", "UDP loss rises and falls over the buffers for none, host and edge",
              _udp_non_monotonic(SCHEMES), sentence=E52_UDP),
        Claim("edge up to 10x lower UDP loss", "largest finite none / edge UDP loss ratio over the buffers one decade "
              "on a log plot (x3.16 to x31.6)", _edge_up_to_10x_lower, sentence=E52_UDP),
    ],
)

# --- Short-lived TCP: paper E's E-fig6, paper A's A-fig17 and A-fig20; windows: A-fig4 ---

TRANSFER_GOODPUT = "transfer_goodput_kbps_mean"


def _edge_peak(p: Points) -> Verdict:
    """Edge's highest point `located` at 10 KB (a location read from the plot) and about 155 Kb/s."""
    g = {b: p.at(TRANSFER_GOODPUT, scheme="edge", buffer=b) for b in BUFFERS}
    peak = max(g, key=g.get)
    grid = [kb(b) for b in BUFFERS]
    ok = located(grid, kb(peak), 10) and about(g[peak], 155)
    return ok, f"edge highest {g[peak]:.1f} Kb/s at {peak} (paper 155 at 10 KB, grid spacing there " \
               f"{spacing(grid, 10, kb(peak)):g} KB): " + ", ".join(f"{b} {v:.1f}" for b, v in g.items())


E34 = ('Paper E Sec 3.4: "Fig. 6 shows that pacing TCP at the edge can improve the average per-flow goodput of '
       'short-lived flows substantially, peaking at 155 Kbps with 10 KB of buffering, which is nearly 17% larger than '
       'the goodput obtained by pacing TCP at the end-hosts (133 Kbps)."')



FIG6 = Figure(
    id="E-fig6",
    caption="Average per-flow goodput with short-lived TCP flows",
    setup="E-base hosts as 1000 closed-loop users (paper E Sec 3.4): Pareto file sizes (mean 100 KB, shape 1.2), "
          "exponential think time (mean 1 s), each file a new connection in slow start; pacing none, host, edge; "
          "core buffer 2-50 KB. Per-flow goodput: file bytes / completion time, averaged over the transfers that "
          "start in the window and finish by its end",
    panels=[Panel("core.buffer", TRANSFER_GOODPUT, ["pacing.scheme"], title="Average per-flow goodput, short flows",
                  ylabel="Mean goodput per transfer (Kb/s)"),
            Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], title="Aggregate throughput")],
    claims=[
        Claim("edge goodput peaks ≈155 Kb/s at 10 KB", "edge's highest point within the grid's spacing of 10 KB and "
              "about 155 Kb/s", _edge_peak, sentence=E34),
        Claim("≈17% above host", "edge's gain over host at 10 KB nearly 17 % (the ratio edge / host nearly 1.17)",
              gain_check(_scheme(TRANSFER_GOODPUT, "host", "10KB"), _scheme(TRANSFER_GOODPUT, "edge", "10KB"), 0.17,
                         "edge over host", "nearly"), sentence=E34),
        Claim("host ≈133", "host at 10 KB about 133 Kb/s", _near(TRANSFER_GOODPUT, "host", "10KB", 133, "Kb/s"),
              sentence=E34),
    ],
)


# --- E-fig8: a core that is not the bottleneck; E-fig15: UDP and the pacer's delay ---

E8_BUFFERS = ["2KB", "3KB", "5KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]


def _zero_loss_by_10(p: Points) -> Verdict:
    first = {}
    for s in SCHEMES:
        loss = [p.at("core_loss_rate", scheme=s, buffer=b) for b in E8_BUFFERS]
        first[s] = next((b for i, b in enumerate(E8_BUFFERS) if all(x == 0 for x in loss[i:])), None)
    ok = all(f is not None and kb(f) <= 10 for f in first.values())
    return ok, "no core loss from " + ", ".join(f"{s} {f or 'never'}" for s, f in first.items())


def _pacing_no_effect(p: Points) -> Verdict:
    gaps = {(s, b): p.at(TCP_PCT, scheme=s, buffer=b) / p.at(TCP_PCT, scheme="none", buffer=b) - 1
            for s in ("host", "edge") for b in E8_BUFFERS}
    worst = max(gaps, key=lambda k: abs(gaps[k]))
    return all(about(1 + g, 1) for g in gaps.values()), \
        f"largest change in TCP throughput vs unpaced {100 * gaps[worst]:+.2f} % ({worst[0]}, {worst[1]}); about equal"


FIG8 = Figure(
    id="E-fig8",
    caption="Core link not the bottleneck: core loss against its buffer",
    setup="E-base shape: 200 Mb/s core, 40 Mb/s edges, access U[1, 2] Mb/s, 10 x 10 = 100 flows; pacing none, host, "
          "edge; core buffer 2-50 KB",
    panels=[Panel("core.buffer", "core_loss_rate", ["pacing.scheme"], title="Core loss", logy=True),
            Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], title="Aggregate throughput")],
    claims=[Claim("core needs ≤10 KB for zero loss", "no core loss at any buffer from 10 KB up, every scheme",
                  _zero_loss_by_10,
                  sentence='Paper E Sec 3.6: "Since the access network is the bottleneck, and 10 edge links feed into '
                           'the core, it is evident that the core link does not require more than 10 KB of buffering '
                           'to guarantee zero packet loss."'),
            Claim("pacing ≈ no effect on throughput", "host's and edge's TCP throughput about unpaced's at every buffer",
                  _pacing_no_effect,
                  sentence='Paper E Sec 3.6: "The aggregate throughput curve in Fig. 8(a) shows that pacing (both host '
                           'and edge) achieves approximately the same performance as unpaced"')],
)

# The sweep's delays (scenarios/E-fig15.toml): the sub-millisecond ones because paper E Sec 5.3 places the fall of
# UDP loss there ("for small pacing delay (sub-millisecond), UDP traffic benefits from the smoothing").
E15_DELAYS = ["0ms", "0.1ms", "0.2ms", "0.5ms", "1ms", "2ms", "5ms", "10ms", "20ms", "30ms", "50ms", "75ms", "100ms"]


def _e15_monotone(metric: str, buffer: str, rising: bool, what: str):
    """`metric` at `buffer` monotone in d (`claims.monotone`)."""
    def check(p: Points) -> Verdict:
        ys = [p.at(metric, buffer=buffer, delay=d) for d in E15_DELAYS]
        return monotone(ys, rising), f"{buffer}: {what} against d: " + ", ".join(f"{d} {y:.4g}" for d, y in zip(E15_DELAYS, ys))
    return check


def _e15_udp_dip(p: Points) -> Verdict:
    """UDP loss dips then rises (`dips_then_rises`), its lowest at a sub-millisecond d (under 1 ms, over 0), and
    d = 0 beating the lowest (it first falls)."""
    ys = [p.at(UDP_LOSS, buffer="5KB", delay=d) for d in E15_DELAYS]
    low = min(range(len(ys)), key=ys.__getitem__)
    at = ms(E15_DELAYS[low])
    ok = dips_then_rises(ys) and over(at, 0) and under(at, 1) and beats(ys[0], ys[low])
    return ok, f"5 KB: UDP loss lowest {100 * ys[low]:.3f} % at d = {E15_DELAYS[low]}: " + ", ".join(
        f"{d} {100 * y:.3f}" for d, y in zip(E15_DELAYS, ys))


E53_50 = ('Paper E Sec 5.3: "When load is higher (due to larger buffers of 50 KB), we observe from Fig. 15(b) that TCP '
          'throughput decreases with pacing delay; [...] Correspondingly, we can see on the right axis that UDP loss '
          'falls monotonically"')

FIG15 = Figure(
    id="E-fig15",
    caption="TCP throughput and UDP loss against the pacer delay, TCP mixed with Poisson UDP",
    setup="E-fig13's traffic (5.5 Mb/s Poisson UDP, paced at the edge with TCP); core buffer 5 and 50 KB; d 0-100 ms",
    panels=[Panel("pacing.delay", TCP_THROUGHPUT, ["core.buffer"], title="TCP throughput"),
            Panel("pacing.delay", UDP_LOSS, ["core.buffer"], title="UDP loss", logy=True)],
    claims=[Claim("5 KB: TCP rises monotonically with d", "TCP throughput monotone rising in d: no step down beating "
                  "the point before, d = 100 ms beating d = 0",
                  _e15_monotone(TCP_PCT, "5KB", True, "TCP throughput (% of core)"),
                  sentence='Paper E Sec 5.3: "In Fig. 15(a) we set buffer size very small (5 KB), and observe that TCP '
                           'throughput rises monotonically with pacing delay, much as we had observed in Fig. 11 '
                           'earlier."'),
            Claim("5 KB: UDP loss falls (sub-ms d) then rises", "UDP loss dips then rises, lowest at a sub-millisecond "
                  "d (0 < d < 1 ms), d = 0 beating the lowest", _e15_udp_dip,
                  sentence='Paper E Sec 5.3: "Simultaneously, the right axis shows that UDP loss first falls with pacing '
                           'delay, and then grows. This can be explained as follows: for small pacing delay '
                           '(sub-millisecond), UDP traffic benefits from the smoothing and experiences reduced loss; '
                           'however, as pacing delays grow larger, TCP ramps up its throughput aggressively, leaving less '
                           'capacity to serve UDP traffic at the bottleneck link, thereby causing its loss to increase."'),
            Claim("50 KB: TCP falls with d", "TCP throughput monotone falling in d: no step up beating the point "
                  "before, d = 0 beating d = 100 ms", _e15_monotone(TCP_PCT, "50KB", False, "TCP throughput (% of core)"),
                  sentence=E53_50),
            Claim("50 KB: UDP loss falls monotonically", "UDP loss monotone falling in d: no step up beating the point "
                  "before, d = 0 beating d = 100 ms", _e15_monotone(UDP_LOSS, "50KB", False, "UDP loss"),
                  sentence=E53_50)],
)
