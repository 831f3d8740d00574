"""Paper E's packet-level figures (edge vs host pacing): panels and claims.

Every sweep starts from E-base (the `Scenario` defaults: 1000 flows, 400 s,
measured over [100, 400] s, d = 10 ms), full size with seed 1; the quick
versions scale flows and every link rate by 0.1 (100 flows on a 10 Mb/s
core, so each flow keeps its 100 Kb/s share), run 100 s measured over
[30, 100] s, with seeds 1-3. Buffers are the nine of our ns-2 reference
(2-50 KB). The sweeps are `scenarios/E-fig*.toml`. "Throughput" is the
TCP data alone on the core (`TCP_PCT`: % of its rate, Mb/s at 100 Mb/s),
never the core's total with UDP. The rules for "about", orderings and "up
to" are `claims.py`'s.
"""

from __future__ import annotations

from typing import Sequence

from ..plot import Panel
from .claims import (ABOUT, Claim, Points, Verdict, about, about_check, beats, dips_then_rises, first_reaching,
                     gain_about, loss_non_monotonic, spearman, up_to)
from .figure import GOODPUT, TCP_PCT, TCP_THROUGHPUT, THROUGHPUT, UDP_LOSS, Figure, kb, ms

BUFFERS = ["2KB", "3KB", "5KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]
SCHEMES = ["none", "host", "edge"]


def _at(buffers: Sequence[str], schemes: Sequence[str], p: Points, metric: str) -> dict:
    return {(s, b): p.at(metric, scheme=s, buffer=b) for s in schemes for b in buffers}


# --- E-fig3 and E-fig5: throughput and goodput against the core buffer ---

def _loss_over_15(p: Points) -> Verdict:
    loss = _at(["2KB", "3KB"], SCHEMES, p, "core_loss_rate")
    return all(v > 0.15 for v in loss.values()), ", ".join(f"{s} {b}: {100 * v:.1f} %" for (s, b), v in loss.items())


def _no_help_when_tiny(p: Points) -> Verdict:
    parts, ok = [], True
    for b in ["2KB", "3KB"]:
        base = p.at(TCP_PCT, scheme="none", buffer=b)
        for s in ["host", "edge"]:
            paced = p.at(TCP_PCT, scheme=s, buffer=b)
            ok &= not beats(paced, base)
            parts.append(f"{s} {b}: {100 * (paced / base - 1):+.1f} %")
    return ok, "throughput vs unpaced: " + ", ".join(parts)


def _edge_best(buffers: Sequence[str]):
    def check(p: Points) -> Verdict:
        parts, ok = [], True
        for b in buffers:
            for metric, unit in [(TCP_PCT, "% of core"), (GOODPUT, "Kb/s")]:
                edge = p.at(metric, scheme="edge", buffer=b)
                other = max(p.at(metric, scheme=s, buffer=b) for s in ["none", "host"])
                ok &= beats(edge, other)
                parts.append(f"{b} edge {edge:.1f} vs {other:.1f} {unit}")
        return ok, "edge vs best of none and host: " + ", ".join(parts)
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
    """The buffer at which `scheme`'s `metric` first reaches `level` (interpolated between grid points) is
    about `quoted_kb`, or with `below` under it."""
    def check(p: Points) -> Verdict:
        ys = [p.at(metric, scheme=scheme, buffer=b) for b in buffers]
        first, cross = first_reaching([kb(b) for b in buffers], ys, level)
        if first is None:
            return False, f"{scheme} never reaches {level_text}; paper {quoted_kb:g} KB"
        ok = cross < quoted_kb if below else about(cross, quoted_kb)
        return ok, f"{scheme} reaches {level_text} at {cross:.1f} KB interpolated (first grid point {first:g} KB); " \
                   f"paper {'under ' if below else ''}{quoted_kb:g} KB"
    return check


FIG3 = Figure(
    id="E-fig3",
    caption="TCP performance with small buffer link as the bottleneck",
    setup="E-base; pacing none, host, edge (d = 10 ms); core buffer 2-50 KB",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], title="(a) Aggregate TCP throughput"),
            Panel("core.buffer", GOODPUT, ["pacing.scheme"], title="(b) Average per-flow goodput")],
    claims=[
        Claim("2-3 KB: loss >15%", "core loss above 15 % for none, host and edge at 2 and 3 KB", _loss_over_15),
        Claim("2-3 KB: pacing no help", "neither host nor edge beats unpaced TCP throughput at 2 and 3 KB",
              _no_help_when_tiny),
        Claim("5-15 KB: edge best", "edge beats none and host in TCP throughput and goodput at 5, 8, 10, 15 KB",
              _edge_best(["5KB", "8KB", "10KB", "15KB"])),
        Claim("At 5 KB goodput none≈82 Kb/s", "about", _near(GOODPUT, "none", "5KB", 82, "Kb/s")),
        Claim("At 5 KB goodput host≈82 Kb/s", "about", _near(GOODPUT, "host", "5KB", 82, "Kb/s")),
        Claim("At 5 KB goodput edge≈93", "about", _near(GOODPUT, "edge", "5KB", 93, "Kb/s")),
        Claim("At 5 KB edge +13% (over host)", "edge's goodput gain over host's about 13 %",
              gain_about(_scheme(GOODPUT, "host", "5KB"), _scheme(GOODPUT, "edge", "5KB"), 0.13, "edge over host")),
        Claim(">20 KB: ~100% utilisation, no room to improve",
              "at 30 and 50 KB every scheme's TCP throughput about 100 % of the core rate, none beating another",
              _saturated),
    ],
)

FIG5 = Figure(
    id="E-fig5",
    caption="TCP performance with high-speed access links",
    setup="E-base with 100 Mb/s access links; pacing none, host, edge; core buffer 2-50 KB",
    panels=FIG3.panels,
    claims=[
        Claim("at 5 KB: none 77 Mb/s", "TCP throughput about 77 (% of the core rate)",
              _near(TCP_PCT, "none", "5KB", 77, "Mb/s per 100 Mb/s")),
        Claim("at 5 KB: host 90", "about", _near(TCP_PCT, "host", "5KB", 90, "Mb/s per 100 Mb/s")),
        Claim("at 5 KB: edge 98", "about", _near(TCP_PCT, "edge", "5KB", 98, "Mb/s per 100 Mb/s")),
        Claim("90 Kb/s goodput needs 20 KB none", "buffer where goodput reaches 90 Kb/s (interpolated) about 20 KB",
              _first_buffer("none", 20)),
        Claim("90 Kb/s goodput needs 10 KB host", "buffer where goodput reaches 90 Kb/s (interpolated) about 10 KB",
              _first_buffer("host", 10)),
        Claim("90 Kb/s goodput needs <5 KB edge", "buffer where goodput reaches 90 Kb/s (interpolated) under 5 KB",
              _first_buffer("edge", 5, below=True)),
    ],
)


# --- E-fig7: TCP variants; E-fig9: RED at the core ---

VARIANTS = ["newreno", "sack", "fack"]
VARIANT_NAMES = {"newreno": "NewReno", "sack": "SACK", "fack": "FACK"}
MID = ["5KB", "8KB", "10KB", "15KB"]


def _edge_over_host_each_variant(p: Points) -> Verdict:
    parts, ok = [], True
    for v in VARIANTS:
        for metric, unit in [(TCP_PCT, "%"), (GOODPUT, "Kb/s")]:
            losing = [b for b in MID if not beats(p.at(metric, tcp=v, scheme="edge", buffer=b),
                                                  p.at(metric, tcp=v, scheme="host", buffer=b))]
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


FIG7 = Figure(
    id="E-fig7",
    caption="TCP performance with NewReno, SACK and FACK",
    setup="E-base (E-fig3) with TCP NewReno, SACK (ns-2 Sack1) and FACK; pacing none, host, edge; core buffer 2-50 KB",
    panels=[Panel("core.buffer", metric, ["pacing.scheme"], where={"tcp.variant": v}, title=f"{what}, {VARIANT_NAMES[v]}")
            for metric, what in [(THROUGHPUT, "(a) Throughput"), (GOODPUT, "(b) Goodput")] for v in VARIANTS],
    claims=[
        Claim("edge > host in 5-15 KB, throughput and goodput",
              "edge above host in throughput and goodput at 5, 8, 10, 15 KB for each variant", _edge_over_host_each_variant),
        Claim("typically by >10% in 5-15 KB", "edge more than 10 % above host at most (variant, buffer) points in 5-15 KB, "
              "in TCP throughput and in goodput",
              _edge_gain_typically_10),
    ],
)

RED_BUFFERS = ["2KB", "3KB", "4KB", "5KB", "6KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]


def _first_at_99(scheme: str, quoted_kb: float):
    return _first_buffer(scheme, quoted_kb, TCP_PCT, 99.0, "99 Mb/s", RED_BUFFERS)


FIG9 = Figure(
    id="E-fig9",
    caption="TCP performance with RED at the core",
    setup="E-base (E-fig3) with RED at the core: max_th = buffer, min_th = 40 % of it, max_p 0.1, w_q 0.002 "
          "(ns-2 defaults otherwise: gentle, byte mode); pacing none, host, edge; core buffer 2-50 KB",
    panels=FIG3.panels,
    claims=[
        Claim("edge reaches 99 Mb/s with 4 KB", "buffer where TCP throughput reaches 99 % of the core (interpolated) "
              "about 4 KB", _first_at_99("edge", 4)),
        Claim("host needs 10 KB", "buffer where TCP throughput reaches 99 % of the core (interpolated) about 10 KB",
              _first_at_99("host", 10)),
        Claim("At 6 KB goodput none 89", "about", _near(GOODPUT, "none", "6KB", 89, "Kb/s")),
        Claim("At 6 KB goodput host 94", "about", _near(GOODPUT, "host", "6KB", 94, "Kb/s")),
        Claim("At 6 KB goodput edge 97", "about", _near(GOODPUT, "edge", "6KB", 97, "Kb/s")),
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
              _500_follows_1000),
        Claim("With 100 flows and 10-30 KB, host beats edge", "100 flows: host goodput beats edge at 10, 15, 20, 30 KB",
              _host_beats_edge_100),
    ],
)


# --- E-fig11 and E-fig12: the pacer delay ---

FIG11_DELAYS = ["0ms", "1ms", "2ms", "5ms", "10ms", "15ms", "20ms", "30ms", "50ms", "75ms", "100ms"]
# Paper E Sec 4: "We set the core link buffers to 5 KB, and plot in Fig. 11(a) the per-flow TCP throughput. [...]
# We find that in this case TCP throughput falls with pacing delay". Throughput, not goodput: the mean per-flow TCP
# throughput, the TCP data leaving the core over its 1000 flows, which in Kb/s is TCP_PCT (Mb/s at a 100 Mb/s core).
PER_FLOW_TCP = TCP_PCT


def _trend(buffer: str, rising: bool):
    def check(p: Points) -> Verdict:
        ys = [p.at(PER_FLOW_TCP, buffer=buffer, delay=d) for d in FIG11_DELAYS]
        rho = spearman([ms(d) for d in FIG11_DELAYS], ys)
        ok = rho >= 0.7 if rising else rho <= -0.7
        return ok, f"rank correlation {rho:+.2f}; per-flow TCP throughput {ys[0]:.1f} Kb/s at d = 0, {max(ys):.1f} " \
                   f"max, {ys[-1]:.1f} at 100 ms"
    return check


def _saturates_at_10(p: Points) -> Verdict:
    ys = {d: p.at(PER_FLOW_TCP, buffer="5KB", delay=d) for d in FIG11_DELAYS}
    rise = max(ys.values()) - ys["0ms"]
    share = (ys["10ms"] - ys["0ms"]) / rise if rise > 0 else float("nan")
    return rise > 0 and share >= 0.8, f"d = 10 ms reaches {100 * share:.0f} % of the rise in per-flow TCP " \
        f"throughput from d = 0 ({ys['0ms']:.1f}) to the best ({max(ys.values()):.1f} Kb/s)"


FIG11 = Figure(
    id="E-fig11",
    caption="Throughput measure as a function of pacer delay from simulations for (a) Low load (small buffer), and (b) High load (large buffer)",
    setup="E-base, edge pacing; core buffer 5 KB and 50 KB; pacer delay d 0-100 ms (d = 0 is no pacer)",
    panels=[Panel("pacing.delay", TCP_THROUGHPUT, where={"core.buffer": "5KB"}, title="(a) Low load: 5 KB buffer",
                  ylabel="TCP throughput (Mb/s; per flow, Kb/s x 1000)"),
            Panel("pacing.delay", TCP_THROUGHPUT, where={"core.buffer": "50KB"}, title="(b) High load: 50 KB buffer",
                  ylabel="TCP throughput (Mb/s; per flow, Kb/s x 1000)")],
    claims=[
        Claim("5 KB: rises", "rank correlation of per-flow TCP throughput with d at least +0.7", _trend("5KB", True)),
        Claim("5 KB: saturates near d = 10 ms (concave)", "d = 10 ms reaches at least 80 % of the largest rise in "
              "per-flow TCP throughput over d = 0", _saturates_at_10),
        Claim("50 KB: falls with d", "rank correlation of per-flow TCP throughput with d at most -0.7",
              _trend("50KB", False)),
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


FIG12 = Figure(
    id="E-fig12",
    caption="Per-flow TCP goodput for various pacing delay values",
    setup="E-base, edge pacing with d = 1, 10, 100, 200 ms; core buffer 2-50 KB",
    panels=[Panel("core.buffer", GOODPUT, ["pacing.delay"], title="Per-flow TCP goodput")],
    claims=[
        Claim("d = 1 ms weak at small buffers", "d = 10 ms beats d = 1 ms in goodput at 2, 3, 5 KB",
              _worse_than_10(["1ms"], ["2KB", "3KB", "5KB"])),
        Claim("100/200 ms hurt at large buffers", "d = 10 ms beats d = 100 and 200 ms in goodput at 30 and 50 KB",
              _worse_than_10(["100ms", "200ms"], ["30KB", "50KB"])),
        Claim("10 ms good everywhere", "d = 10 ms's goodput about the best d's at every buffer", _ten_good_everywhere),
    ],
)


# --- E-fig16 and E-fig17: partial deployment ---

FRACTIONS = [0.0, 0.3, 0.5, 1.0]


def _rises_with_fraction(p: Points) -> Verdict:
    parts, ok = [], True
    for s in ["host", "edge"]:
        means = [sum(p.at(TCP_PCT, scheme=s, fraction=f, buffer=b) for b in BUFFERS) / len(BUFFERS) for f in FRACTIONS]
        ok &= all(beats(b, a) for a, b in zip(means, means[1:]))
        parts.append(f"{s}: " + " < ".join(f"{m:.2f}" for m in means))
    return ok, "throughput (% of core) averaged over buffers, fractions 0/0.3/0.5/1: " + "; ".join(parts)


FIG16 = Figure(
    id="E-fig16",
    caption="Aggregate bottleneck link throughput versus buffer size for varying fractions of pacing deployment at (a) Hosts and (b) Edge nodes",
    setup="E-base; host or edge pacing on 0, 30, 50, 100 % of hosts or edge nodes; core buffer 2-50 KB",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.fraction"], where={"pacing.scheme": "host"}, title="(a) Hosts"),
            Panel("core.buffer", THROUGHPUT, ["pacing.fraction"], where={"pacing.scheme": "edge"}, title="(b) Edge nodes")],
    claims=[Claim("throughput rises with the fraction, for both",
                  "TCP throughput averaged over the buffers: each fraction of 0, 0.3, 0.5, 1 beats the one before, for host "
                  "and for edge",
                  _rises_with_fraction)],
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
    rel = [p.at("goodput_kbps_paced", scheme="host", buffer=b) / p.at("goodput_kbps_unpaced", scheme="host", buffer=b) - 1
           for b in BUFFERS]
    return up_to([-100 * r for r in rel], 10), f"largest deficit of host-paced flows {-100 * min(rel):.1f} % " \
                                              f"(paper: up to 10 %, about: {100 * (1 - ABOUT):g} to {100 * (1 + ABOUT):g} % of it)"


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
              _paced_vs_unpaced("host", False)),
        Claim("host-paced flows get up to 10% LESS", "largest deficit over the buffers about 10 %", _host_deficit_up_to_10),
        Claim("edge-paced flows get MORE", "edge-paced beat unpaced at every buffer", _paced_vs_unpaced("edge", True)),
    ],
)

# --- E-fig13 and E-fig14: TCP with Poisson and fBm UDP ---

E_UDP_BUFFERS = ["2KB", "3KB", "4KB", "6KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]


def saturation(buffers: Sequence[str], ys: Sequence[float]) -> int:
    """Index of the first buffer from which no larger one beats its value (the curve's saturation point)."""
    return next(i for i in range(len(ys)) if not any(beats(y, ys[i]) for y in ys[i + 1:]))


def _saturates(quoted: dict):
    """Each scheme's TCP throughput saturates where the paper says ({scheme: (buffer, after)}: at `buffer`, or
    with `after` beyond it), at about 95 Mb/s."""
    def check(p: Points) -> Verdict:
        ok, parts = True, []
        for s, (at, after) in quoted.items():
            ys = [p.at(TCP_PCT, scheme=s, buffer=b) for b in E_UDP_BUFFERS]
            i = saturation(E_UDP_BUFFERS, ys)
            where = kb(E_UDP_BUFFERS[i]) > kb(at) if after else E_UDP_BUFFERS[i] == at
            ok &= where and about(ys[i], 95)
            parts.append(f"{s} saturates at {E_UDP_BUFFERS[i]} with {ys[i]:.1f} (paper {'beyond ' if after else ''}{at})")
        return ok, "TCP throughput (Mb/s per 100): " + "; ".join(parts) + "; about 95"
    return check


def _edge_udp_loss(ratio: float, buffers: Sequence[str]):
    """Edge's UDP loss at most the others' (neither beats it in lowness); with `ratio` > 1, the others' at least
    `ratio` times edge's (zero edge loss counts as infinitely lower)."""
    def check(p: Points) -> Verdict:
        parts, ok = [], True
        for b in buffers:
            e, other = p.at(UDP_LOSS, scheme="edge", buffer=b), min(p.at(UDP_LOSS, scheme=s, buffer=b) for s in ("none", "host"))
            ok &= other >= ratio * e if ratio > 1 else not beats(e, other)
            parts.append(f"{b} {100 * e:.4f} vs {100 * other:.4f} %")
        return ok, "UDP loss, edge vs the lower of host and none: " + ", ".join(parts)
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
              "TCP throughput's saturation point (first buffer no larger one beats) at 6 KB for edge, 10 KB for host, "
              "beyond 20 KB for none, each at about 95 Mb/s",
              _saturates({"edge": ("6KB", False), "host": ("10KB", False), "none": ("20KB", True)})),
        Claim("At 6 KB goodput edge 91, host 85, none 82 Kb/s", "each about", _goodput_at("6KB", {"edge": 91, "host": 85, "none": 82})),
        Claim("UDP loss non-monotonic in buffer", "unpaced UDP loss rises and falls over the buffers (%)",
              _udp_non_monotonic(["none"])),
        Claim("edge's UDP loss same or lower than host's and none's everywhere",
              "neither host nor none beats edge in lower UDP loss at any buffer", _edge_udp_loss(1, E_UDP_BUFFERS)),
        Claim("lower by orders of magnitude in 5-15 and 20-30 KB",
              "host's and none's UDP loss at least 100 times edge's at 6, 8, 10, 15, 20, 30 KB",
              _edge_udp_loss(100, ["6KB", "8KB", "10KB", "15KB", "20KB", "30KB"])),
    ],
)


def _edge_peak_by(buffer: str):
    def check(p: Points) -> Verdict:
        ys = [p.at(TCP_PCT, scheme="edge", buffer=b) for b in E_UDP_BUFFERS]
        i = saturation(E_UDP_BUFFERS, ys)
        return kb(E_UDP_BUFFERS[i]) <= kb(buffer), f"edge's TCP throughput saturates at {E_UDP_BUFFERS[i]} " \
            f"(paper: by {buffer}): " + ", ".join(f"{b} {v:.1f}" for b, v in zip(E_UDP_BUFFERS, ys))
    return check


def _edge_up_to_10x_lower(p: Points) -> Verdict:
    ratios = {b: p.at(UDP_LOSS, scheme="none", buffer=b) / p.at(UDP_LOSS, scheme="edge", buffer=b)
              for b in E_UDP_BUFFERS if p.at(UDP_LOSS, scheme="edge", buffer=b) > 0}
    if not ratios:
        return False, "edge lost no UDP packet at any buffer: no finite ratio"
    best = max(ratios, key=ratios.get)
    return up_to(list(ratios.values()), 10), f"largest none / edge UDP loss ratio x{ratios[best]:.1f} at {best} " \
                                             "(paper up to 10x; about: 9 to 11)"


FIG14 = Figure(
    id="E-fig14",
    caption="Mixed TCP and fBm UDP: TCP throughput, per-flow goodput and UDP loss against the core buffer",
    setup="E-fig13 with the UDP source fractional Brownian motion (paper A Sec V-A: Hurst 0.85, 1 us resolution, "
          "6 Mb/s mean; packets U[100, 300] B as paper E Sec 5 sets)",
    panels=FIG13.panels,
    claims=[
        Claim("edge reaches peak TCP throughput by 6 KB", "edge's TCP throughput saturation point at 6 KB or below",
              _edge_peak_by("6KB")),
        Claim("UDP loss non-monotonic for every scheme, paced or not", "UDP loss rises and falls over the buffers for none, host and edge",
              _udp_non_monotonic(SCHEMES)),
        Claim("edge up to 10x lower UDP loss", "largest none / edge UDP loss ratio over the buffers about 10",
              _edge_up_to_10x_lower),
    ],
)

# --- Short-lived TCP: paper E's E-fig6, paper A's A-fig17 and A-fig20; windows: A-fig4 ---

TRANSFER_GOODPUT = "transfer_goodput_kbps_mean"


def _edge_peak(p: Points) -> Verdict:
    g = {b: p.at(TRANSFER_GOODPUT, scheme="edge", buffer=b) for b in BUFFERS}
    peak = max(g, key=g.get)
    ok = peak == "10KB" and about(g[peak], 155)
    return ok, f"edge highest {g[peak]:.1f} Kb/s at {peak} (paper 155 at 10 KB): " + ", ".join(
        f"{b} {v:.1f}" for b, v in g.items())




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
        Claim("edge goodput peaks ≈155 Kb/s at 10 KB", "edge's highest point at 10 KB and about 155 Kb/s", _edge_peak),
        Claim("≈17% above host", "edge's gain over host at 10 KB about 17 %",
              gain_about(_scheme(TRANSFER_GOODPUT, "host", "10KB"), _scheme(TRANSFER_GOODPUT, "edge", "10KB"), 0.17,
                         "edge over host")),
        Claim("host ≈133", "host at 10 KB about 133 Kb/s", _near(TRANSFER_GOODPUT, "host", "10KB", 133, "Kb/s")),
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
                  _zero_loss_by_10),
            Claim("pacing ≈ no effect on throughput", "host's and edge's TCP throughput about unpaced's at every buffer",
                  _pacing_no_effect)],
)

E15_DELAYS = ["0ms", "1ms", "2ms", "5ms", "10ms", "20ms", "30ms", "50ms", "75ms", "100ms"]


def _e15_trend(metric: str, buffer: str, sign: int, what: str):
    def check(p: Points) -> Verdict:
        ys = [p.at(metric, buffer=buffer, delay=d) for d in E15_DELAYS]
        rho = spearman([ms(d) for d in E15_DELAYS], ys)
        return sign * rho >= 0.7, f"{buffer}: rank correlation of {what} with d {rho:+.2f}: " + ", ".join(
            f"{d} {y:.4g}" for d, y in zip(E15_DELAYS, ys))
    return check


def monotone(ys: Sequence[float], rising: bool) -> bool:
    """Monotone by the ordering rule: no step against the direction beats the point before it."""
    return not any(beats(a, b) if rising else beats(b, a) for a, b in zip(ys, ys[1:]))


def _e15_monotone(metric: str, buffer: str, rising: bool, what: str):
    def check(p: Points) -> Verdict:
        ys = [p.at(metric, buffer=buffer, delay=d) for d in E15_DELAYS]
        return monotone(ys, rising), f"{buffer}: {what} against d: " + ", ".join(f"{d} {y:.4g}" for d, y in zip(E15_DELAYS, ys))
    return check


def _e15_udp_dip(p: Points) -> Verdict:
    ys = [p.at(UDP_LOSS, buffer="5KB", delay=d) for d in E15_DELAYS]
    low = min(range(len(ys)), key=ys.__getitem__)
    ok = dips_then_rises(ys) and ms(E15_DELAYS[low]) < 1 + 1e-9 and beats(ys[0], ys[low])
    return ok, f"5 KB: UDP loss lowest {100 * ys[low]:.3f} % at d = {E15_DELAYS[low]}: " + ", ".join(
        f"{d} {100 * y:.3f}" for d, y in zip(E15_DELAYS, ys))


FIG15 = Figure(
    id="E-fig15",
    caption="TCP throughput and UDP loss against the pacer delay, TCP mixed with Poisson UDP",
    setup="E-fig13's traffic (5.5 Mb/s Poisson UDP, paced at the edge with TCP); core buffer 5 and 50 KB; d 0-100 ms",
    panels=[Panel("pacing.delay", TCP_THROUGHPUT, ["core.buffer"], title="TCP throughput"),
            Panel("pacing.delay", UDP_LOSS, ["core.buffer"], title="UDP loss", logy=True)],
    claims=[Claim("5 KB: TCP rises monotonically with d", "TCP throughput monotone rising in d (no step down beats)",
                  _e15_monotone(TCP_PCT, "5KB", True, "TCP throughput (% of core)")),
            Claim("5 KB: UDP loss falls (sub-ms d) then rises", "UDP loss dips then rises, lowest at d <= 1 ms, d = 0 "
                  "beating the lowest", _e15_udp_dip),
            Claim("50 KB: TCP falls with d", "rank correlation of TCP throughput with d <= -0.7",
                  _e15_trend(TCP_PCT, "50KB", -1, "TCP throughput")),
            Claim("50 KB: UDP loss falls monotonically", "UDP loss monotone falling in d (no step up beats)",
                  _e15_monotone(UDP_LOSS, "50KB", False, "UDP loss"))],
)
