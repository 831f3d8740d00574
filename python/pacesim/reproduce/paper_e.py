"""Paper E's packet-level figures (edge vs host pacing): panels and claims.

Every sweep starts from E-base (the `Scenario` defaults: 1000 flows, 400 s,
measured over [100, 400] s, d = 10 ms), full size with seed 1; the quick
versions scale flows and every link rate by 0.1 (100 flows on a 10 Mb/s
core, so each flow keeps its 100 Kb/s share), run 100 s measured over
[30, 100] s, with seeds 1-3. Buffers are the nine of our ns-2 reference
(2-50 KB). The sweeps are `scenarios/E-fig*.toml`.
"""

from __future__ import annotations

from typing import Sequence

from ..plot import Panel
from .claims import APPROX, Claim, Points, Verdict, first_reaching, loss_dips_then_rises, near, spearman
from .figure import GOODPUT, THROUGHPUT, UDP_LOSS, Figure, kb, ms

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
        base = p.at("throughput_pct", scheme="none", buffer=b)
        for s in ["host", "edge"]:
            gain = p.at("throughput_pct", scheme=s, buffer=b) / base - 1
            ok &= gain <= 0.03
            parts.append(f"{s} {b}: {100 * gain:+.1f} %")
    return ok, "throughput vs unpaced: " + ", ".join(parts)


def _edge_best(buffers: Sequence[str]):
    def check(p: Points) -> Verdict:
        parts, ok = [], True
        for b in buffers:
            for metric, unit in [("throughput_pct", "% of core"), (GOODPUT, "Kb/s")]:
                edge = p.at(metric, scheme="edge", buffer=b)
                other = max(p.at(metric, scheme=s, buffer=b) for s in ["none", "host"])
                ok &= edge > other
                parts.append(f"{b} edge {edge:.1f} vs {other:.1f} {unit}")
        return ok, "edge vs best of none and host: " + ", ".join(parts)
    return check


def _near(metric: str, scheme: str, buffer: str, target: float, unit: str, rel: float = APPROX):
    def check(p: Points) -> Verdict:
        v = p.at(metric, scheme=scheme, buffer=buffer)
        return near(v, target, rel), f"{scheme} at {buffer}: {v:.1f} {unit} (paper {target:g})"
    return check


def _edge_gain_over_host(p: Points) -> Verdict:
    edge, host = p.at(GOODPUT, scheme="edge", buffer="5KB"), p.at(GOODPUT, scheme="host", buffer="5KB")
    gain = edge / host - 1
    return gain >= 0.10, f"edge {edge:.1f} / host {host:.1f} Kb/s = {100 * gain:+.1f} %"


def _saturated(p: Points) -> Verdict:
    thr = _at(["30KB", "50KB"], SCHEMES, p, "throughput_pct")
    spread = max(max(thr[s, b] for s in SCHEMES) - min(thr[s, b] for s in SCHEMES) for b in ["30KB", "50KB"])
    ok = min(thr.values()) >= 97 and spread <= 2
    return ok, f"utilisation {min(thr.values()):.1f}-{max(thr.values()):.1f} %, largest spread between schemes {spread:.1f} points"


def _first_buffer(scheme: str, quoted: str, allowed: Sequence[str], metric: str = GOODPUT, level: float = 90.0,
                  level_text: str = "90 Kb/s", buffers: Sequence[str] = BUFFERS):
    """The first buffer at which `scheme`'s `metric` reaches `level` must be one of `allowed`."""
    def check(p: Points) -> Verdict:
        ys = [p.at(metric, scheme=scheme, buffer=b) for b in buffers]
        first, cross = first_reaching([kb(b) for b in buffers], ys, level)
        where = "never" if first is None else f"first at {first:g} KB (interpolated {cross:.1f} KB)"
        return first is not None and f"{first:g}KB" in allowed, f"{scheme} reaches {level_text} {where}; paper {quoted}"
    return check


FIG3 = Figure(
    id="E-fig3",
    caption="TCP performance with small buffer link as the bottleneck",
    setup="E-base; pacing none, host, edge (d = 10 ms); core buffer 2-50 KB",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], title="(a) Aggregate TCP throughput"),
            Panel("core.buffer", GOODPUT, ["pacing.scheme"], title="(b) Average per-flow goodput")],
    claims=[
        Claim("2-3 KB: loss >15%", "core loss above 15 % for none, host and edge at 2 and 3 KB", _loss_over_15),
        Claim("2-3 KB: pacing no help", "host and edge throughput at most 3 % above unpaced at 2 and 3 KB",
              _no_help_when_tiny),
        Claim("5-15 KB: edge best", "edge above none and host in throughput and goodput at 5, 8, 10, 15 KB",
              _edge_best(["5KB", "8KB", "10KB", "15KB"])),
        Claim("At 5 KB goodput none≈82 Kb/s", "within 5 %", _near(GOODPUT, "none", "5KB", 82, "Kb/s")),
        Claim("At 5 KB goodput host≈82 Kb/s", "within 5 %", _near(GOODPUT, "host", "5KB", 82, "Kb/s")),
        Claim("At 5 KB goodput edge≈93", "within 5 %", _near(GOODPUT, "edge", "5KB", 93, "Kb/s")),
        Claim("At 5 KB edge +13% (over host)", "edge goodput at least 10 % above host (13 % less 3 points)",
              _edge_gain_over_host),
        Claim(">20 KB: ~100% utilisation, no room to improve",
              "at 30 and 50 KB every scheme at >= 97 % of the core rate, schemes within 2 points", _saturated),
    ],
)

FIG5 = Figure(
    id="E-fig5",
    caption="TCP performance with high-speed access links",
    setup="E-base with 100 Mb/s access links; pacing none, host, edge; core buffer 2-50 KB",
    panels=FIG3.panels,
    claims=[
        Claim("at 5 KB: none 77 Mb/s", "within 5 % (throughput as % of the core rate)",
              _near("throughput_pct", "none", "5KB", 77, "Mb/s per 100 Mb/s")),
        Claim("at 5 KB: host 90", "within 5 %", _near("throughput_pct", "host", "5KB", 90, "Mb/s per 100 Mb/s")),
        Claim("at 5 KB: edge 98", "within 5 %", _near("throughput_pct", "edge", "5KB", 98, "Mb/s per 100 Mb/s")),
        Claim("90 Kb/s goodput needs 20 KB none", "first buffer reaching 90 Kb/s within one grid step of 20 KB",
              _first_buffer("none", "20 KB", ["15KB", "20KB", "30KB"])),
        Claim("90 Kb/s goodput needs 10 KB host", "first buffer reaching 90 Kb/s within one grid step of 10 KB",
              _first_buffer("host", "10 KB", ["8KB", "10KB", "15KB"])),
        Claim("90 Kb/s goodput needs <5 KB edge", "first buffer reaching 90 Kb/s at 5 KB or below",
              _first_buffer("edge", "just under 5 KB", ["2KB", "3KB", "5KB"])),
    ],
)


# --- E-fig7: TCP variants; E-fig9: RED at the core ---

VARIANTS = ["newreno", "sack", "fack"]
MID = ["5KB", "8KB", "10KB", "15KB"]


def _edge_over_host_each_variant(p: Points) -> Verdict:
    parts, ok = [], True
    for v in VARIANTS:
        for metric, unit in [("throughput_pct", "%"), (GOODPUT, "Kb/s")]:
            losing = [b for b in MID if p.at(metric, tcp=v, scheme="edge", buffer=b)
                      <= p.at(metric, tcp=v, scheme="host", buffer=b)]
            ok &= not losing
            parts.append(f"{v} {metric.split('_')[0]}: " + ("edge above host at all" if not losing
                                                              else "host at or above edge at " + ", ".join(losing)))
    return ok, "; ".join(parts)


def _edge_gain_typically_10(p: Points) -> Verdict:
    gains = {(v, b): p.at(GOODPUT, tcp=v, scheme="edge", buffer=b) / p.at(GOODPUT, tcp=v, scheme="host", buffer=b) - 1
             for v in VARIANTS for b in MID}
    over = sum(g > 0.10 for g in gains.values())
    return over * 2 > len(gains), f"{over} of {len(gains)} points above +10 %: " + ", ".join(
        f"{v} {b} {100 * g:+.1f} %" for (v, b), g in gains.items())


FIG7 = Figure(
    id="E-fig7",
    caption="TCP performance with NewReno, SACK and FACK",
    setup="E-base (E-fig3) with TCP NewReno, SACK (ns-2 Sack1) and FACK; pacing none, host, edge; core buffer 2-50 KB",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], where={"tcp.variant": v}, title=f"(a) Throughput, {v}")
            for v in VARIANTS] + [Panel("core.buffer", GOODPUT, ["pacing.scheme"], where={"tcp.variant": v},
                                        title=f"(b) Goodput, {v}") for v in VARIANTS],
    claims=[
        Claim("edge > host in 5-15 KB, throughput and goodput",
              "edge above host in throughput and goodput at 5, 8, 10, 15 KB for each variant", _edge_over_host_each_variant),
        Claim("typically by >10% in 5-15 KB", "edge goodput more than 10 % above host at most (variant, buffer) points in 5-15 KB",
              _edge_gain_typically_10),
    ],
)

RED_BUFFERS = ["2KB", "3KB", "4KB", "5KB", "6KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]


def _first_at_99(scheme: str, quoted: str, allowed: Sequence[str]):
    return _first_buffer(scheme, quoted, allowed, "throughput_pct", 98.5, "99 Mb/s (98.5 %)", RED_BUFFERS)


FIG9 = Figure(
    id="E-fig9",
    caption="TCP performance with RED at the core",
    setup="E-base (E-fig3) with RED at the core: max_th = buffer, min_th = 40 % of it, max_p 0.1, w_q 0.002 "
          "(ns-2 defaults otherwise: gentle, byte mode); pacing none, host, edge; core buffer 2-50 KB",
    panels=FIG3.panels,
    claims=[
        Claim("edge reaches 99 Mb/s with 4 KB", "first buffer at >= 98.5 % of the core rate within one grid step of 4 KB",
              _first_at_99("edge", "4 KB", ["3KB", "4KB", "5KB"])),
        Claim("host needs 10 KB", "first buffer at >= 98.5 % of the core rate within one grid step of 10 KB",
              _first_at_99("host", "10 KB", ["8KB", "10KB", "15KB"])),
        Claim("At 6 KB goodput none 89", "within 5 %", _near(GOODPUT, "none", "6KB", 89, "Kb/s")),
        Claim("At 6 KB goodput host 94", "within 5 %", _near(GOODPUT, "host", "6KB", 94, "Kb/s")),
        Claim("At 6 KB goodput edge 97", "within 5 %", _near(GOODPUT, "edge", "6KB", 97, "Kb/s")),
    ],
)


# --- E-fig4: number of flows ---

def _500_follows_1000(p: Points) -> Verdict:
    gaps = {(s, b): p.at("throughput_pct", flows=500, scheme=s, buffer=b) - p.at("throughput_pct", flows=1000, scheme=s, buffer=b)
            for s in SCHEMES for b in BUFFERS}
    (s, b), worst = max(gaps.items(), key=lambda kv: abs(kv[1]))
    return abs(worst) <= 3, f"largest throughput gap 500 vs 1000 flows: {worst:+.1f} points of the core rate ({s}, {b})"


def _host_beats_edge_100(p: Points) -> Verdict:
    bufs = ["10KB", "15KB", "20KB", "30KB"]
    pairs = {b: (p.at(GOODPUT, flows=100, scheme="host", buffer=b), p.at(GOODPUT, flows=100, scheme="edge", buffer=b))
             for b in bufs}
    return all(h > e for h, e in pairs.values()), ", ".join(f"{b}: host {h:.0f} vs edge {e:.0f} Kb/s" for b, (h, e) in pairs.items())


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
        Claim("500 follows 1000", "throughput with 500 flows within 3 points (% of core rate) of 1000 flows, every scheme and buffer",
              _500_follows_1000),
        Claim("With 100 flows and 10-30 KB, host beats edge", "100 flows: host goodput above edge at 10, 15, 20, 30 KB",
              _host_beats_edge_100),
    ],
)


# --- E-fig11 and E-fig12: the pacer delay ---

FIG11_DELAYS = ["0ms", "1ms", "2ms", "5ms", "10ms", "15ms", "20ms", "30ms", "50ms", "75ms", "100ms"]


def _trend(buffer: str, rising: bool):
    def check(p: Points) -> Verdict:
        ys = [p.at(GOODPUT, buffer=buffer, delay=d) for d in FIG11_DELAYS]
        rho = spearman([ms(d) for d in FIG11_DELAYS], ys)
        ok = rho >= 0.7 if rising else rho <= -0.7
        return ok, f"rank correlation {rho:+.2f}; goodput {ys[0]:.1f} Kb/s at d = 0, {max(ys):.1f} max, {ys[-1]:.1f} at 100 ms"
    return check


def _saturates_at_10(p: Points) -> Verdict:
    ys = {d: p.at(GOODPUT, buffer="5KB", delay=d) for d in FIG11_DELAYS}
    rise = max(ys.values()) - ys["0ms"]
    share = (ys["10ms"] - ys["0ms"]) / rise if rise > 0 else float("nan")
    return rise > 0 and share >= 0.8, f"d = 10 ms reaches {100 * share:.0f} % of the rise from d = 0 ({ys['0ms']:.1f}) to the best ({max(ys.values()):.1f} Kb/s)"


FIG11 = Figure(
    id="E-fig11",
    caption="Throughput measure as a function of pacer delay from simulations for (a) Low load (small buffer), and (b) High load (large buffer)",
    setup="E-base, edge pacing; core buffer 5 KB and 50 KB; pacer delay d 0-100 ms (d = 0 is no pacer)",
    panels=[Panel("pacing.delay", GOODPUT, where={"core.buffer": "5KB"}, title="(a) Low load: 5 KB buffer",
                  ylabel="Per-flow TCP goodput (Kb/s)"),
            Panel("pacing.delay", GOODPUT, where={"core.buffer": "50KB"}, title="(b) High load: 50 KB buffer",
                  ylabel="Per-flow TCP goodput (Kb/s)")],
    claims=[
        Claim("5 KB: rises", "rank correlation of goodput with d at least +0.7", _trend("5KB", True)),
        Claim("5 KB: saturates near d = 10 ms (concave)", "d = 10 ms reaches at least 80 % of the largest rise over d = 0",
              _saturates_at_10),
        Claim("50 KB: falls with d", "rank correlation of goodput with d at most -0.7", _trend("50KB", False)),
    ],
)

FIG12_DELAYS = ["1ms", "10ms", "100ms", "200ms"]


def _worse_than_10(delays: Sequence[str], buffers: Sequence[str], margin: float):
    def check(p: Points) -> Verdict:
        parts, ok = [], True
        for b in buffers:
            ref = p.at(GOODPUT, buffer=b, delay="10ms")
            for d in delays:
                rel = p.at(GOODPUT, buffer=b, delay=d) / ref - 1
                ok &= rel < -margin
                parts.append(f"{b} d={d}: {100 * rel:+.1f} %")
        return ok, "goodput vs d = 10 ms: " + ", ".join(parts)
    return check


def _ten_good_everywhere(p: Points) -> Verdict:
    worst, where = 0.0, ""
    for b in BUFFERS:
        best = max(p.at(GOODPUT, buffer=b, delay=d) for d in FIG12_DELAYS)
        short = p.at(GOODPUT, buffer=b, delay="10ms") / best - 1
        if short < worst:
            worst, where = short, b
    return worst >= -0.03, f"d = 10 ms at most {100 * -worst:.1f} % below the best d" + (f" (at {where})" if where else "")


FIG12 = Figure(
    id="E-fig12",
    caption="Per-flow TCP goodput for various pacing delay values",
    setup="E-base, edge pacing with d = 1, 10, 100, 200 ms; core buffer 2-50 KB",
    panels=[Panel("core.buffer", GOODPUT, ["pacing.delay"], title="Per-flow TCP goodput")],
    claims=[
        Claim("d = 1 ms weak at small buffers", "d = 1 ms more than 2 % below d = 10 ms at 2, 3, 5 KB",
              _worse_than_10(["1ms"], ["2KB", "3KB", "5KB"], 0.02)),
        Claim("100/200 ms hurt at large buffers", "d = 100 and 200 ms more than 1 % below d = 10 ms at 30 and 50 KB",
              _worse_than_10(["100ms", "200ms"], ["30KB", "50KB"], 0.01)),
        Claim("10 ms good everywhere", "d = 10 ms within 3 % of the best of the four at every buffer", _ten_good_everywhere),
    ],
)


# --- E-fig16 and E-fig17: partial deployment ---

FRACTIONS = [0.0, 0.3, 0.5, 1.0]


def _rises_with_fraction(p: Points) -> Verdict:
    parts, ok = [], True
    for s in ["host", "edge"]:
        means = [sum(p.at("throughput_pct", scheme=s, fraction=f, buffer=b) for b in BUFFERS) / len(BUFFERS) for f in FRACTIONS]
        ok &= all(b > a for a, b in zip(means, means[1:]))
        parts.append(f"{s}: " + " < ".join(f"{m:.2f}" for m in means))
    return ok, "throughput (% of core) averaged over buffers, fractions 0/0.3/0.5/1: " + "; ".join(parts)


FIG16 = Figure(
    id="E-fig16",
    caption="Aggregate bottleneck link throughput versus buffer size for varying fractions of pacing deployment at (a) Hosts and (b) Edge nodes",
    setup="E-base; host or edge pacing on 0, 30, 50, 100 % of hosts or edge nodes; core buffer 2-50 KB",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.fraction"], where={"pacing.scheme": "host"}, title="(a) Hosts"),
            Panel("core.buffer", THROUGHPUT, ["pacing.fraction"], where={"pacing.scheme": "edge"}, title="(b) Edge nodes")],
    claims=[Claim("throughput rises with the fraction, for both",
                  "throughput averaged over the buffers strictly increasing over fractions 0, 0.3, 0.5, 1, for host and for edge",
                  _rises_with_fraction)],
)


def _paced_vs_unpaced(scheme: str, paced_better: bool):
    def check(p: Points) -> Verdict:
        rel = {b: p.at("goodput_kbps_paced", scheme=scheme, buffer=b) / p.at("goodput_kbps_unpaced", scheme=scheme, buffer=b) - 1
               for b in BUFFERS}
        ok = all((r > 0) == paced_better for r in rel.values())
        return ok, "paced vs unpaced goodput: " + ", ".join(f"{b} {100 * r:+.1f} %" for b, r in rel.items())
    return check


def _host_deficit_up_to_10(p: Points) -> Verdict:
    rel = [p.at("goodput_kbps_paced", scheme="host", buffer=b) / p.at("goodput_kbps_unpaced", scheme="host", buffer=b) - 1
           for b in BUFFERS]
    worst = min(rel)
    return 0.05 <= -worst <= 0.15, f"largest deficit of host-paced flows {100 * -worst:.1f} % (paper: up to 10 %)"


FIG17 = Figure(
    id="E-fig17",
    caption="Per-flow goodput versus bottleneck buffer size for paced and unpaced flows with fractional deployment of pacing at (a) Hosts and (b) Edge nodes",
    setup="E-base with 30 % deployment: 300 of 1000 hosts pace, or 3 of 10 edge nodes; core buffer 2-50 KB",
    panels=[Panel("core.buffer", ["goodput_kbps_paced", "goodput_kbps_unpaced"], where={"pacing.scheme": "host"},
                  title="(a) Hosts", ylabel="Average per-flow goodput (Kb/s)"),
            Panel("core.buffer", ["goodput_kbps_paced", "goodput_kbps_unpaced"], where={"pacing.scheme": "edge"},
                  title="(b) Edge nodes", ylabel="Average per-flow goodput (Kb/s)")],
    claims=[
        Claim("host-paced flows get ... LESS goodput than unpaced ones", "host-paced below unpaced at every buffer",
              _paced_vs_unpaced("host", False)),
        Claim("host-paced flows get up to 10% LESS", "largest deficit between 5 and 15 %", _host_deficit_up_to_10),
        Claim("edge-paced flows get MORE", "edge-paced above unpaced at every buffer", _paced_vs_unpaced("edge", True)),
    ],
)

# --- E-fig13 and E-fig14: TCP with Poisson and fBm UDP ---



def _edge_lower_udp_loss(buffers: Sequence[str]):
    def check(p: Points) -> Verdict:
        pairs = {b: (p.at(UDP_LOSS, scheme="edge", buffer=b), p.at(UDP_LOSS, scheme="none", buffer=b)) for b in buffers}
        return all(e < n for e, n in pairs.values()), "UDP loss edge vs none: " + ", ".join(
            f"{b} {100 * e:.3f} vs {100 * n:.3f} %" for b, (e, n) in pairs.items())
    return check


def _goodput_order_at(buffer: str):
    def check(p: Points) -> Verdict:
        g = {s: p.at(GOODPUT, scheme=s, buffer=buffer) for s in SCHEMES}
        return g["edge"] > g["host"] >= g["none"] * 0.99, f"at {buffer}: " + ", ".join(f"{s} {v:.1f}" for s, v in g.items()) + \
            " Kb/s (paper: edge 91, host 85, none 82)"
    return check


E_UDP_BUFFERS = ["2KB", "3KB", "4KB", "6KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]

FIG13 = Figure(
    id="E-fig13",
    caption="Mixed TCP and Poisson UDP: TCP throughput, per-flow goodput and UDP loss against the core buffer",
    setup="E-base with an aggregate 5.5 Mb/s Poisson UDP source (sizes U[100, 300] B) on its own 100 Mb/s edge "
          "link; the edge pacer paces TCP and UDP, host pacing TCP only; core buffer 2-50 KB",
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], title="(a) Aggregate throughput"),
            Panel("core.buffer", GOODPUT, ["pacing.scheme"], title="(b) Per-flow TCP goodput"),
            Panel("core.buffer", UDP_LOSS, ["pacing.scheme"], title="(c) UDP loss", logy=True)],
    claims=[
        Claim("At 6 KB goodput edge 91, host 85, none 82 Kb/s", "edge > host >= none at 6 KB", _goodput_order_at("6KB")),
        Claim("UDP loss non-monotonic in buffer", "unpaced UDP loss lowest at an inner buffer and 20 % higher after it",
              loss_dips_then_rises(E_UDP_BUFFERS, {"scheme": "none"})),
        Claim("edge lower, by orders of magnitude in 5-15 and 20-30 KB", "edge below none at 6-15 and 20-30 KB",
              _edge_lower_udp_loss(["6KB", "8KB", "10KB", "15KB", "20KB", "30KB"])),
    ],
)



def _edge_peak_at(buffer: str):
    def check(p: Points) -> Verdict:
        g = {b: p.at(THROUGHPUT, scheme="edge", buffer=b) for b in E_UDP_BUFFERS}
        first = next(b for b in E_UDP_BUFFERS if g[b] >= 0.99 * max(g.values()))
        return first == buffer, f"edge within 1 % of its best from {first} (paper: {buffer}): " + ", ".join(
            f"{b} {v:.1f}" for b, v in g.items())
    return check


def _edge_up_to_10x_lower(p: Points) -> Verdict:
    ratios = {b: p.at(UDP_LOSS, scheme="none", buffer=b) / max(p.at(UDP_LOSS, scheme="edge", buffer=b), 1e-9)
              for b in E_UDP_BUFFERS}
    best = max(ratios, key=ratios.get)
    return 5 <= ratios[best], f"largest none / edge UDP loss ratio x{ratios[best]:.1f} at {best} (paper up to 10x)"


FIG14 = Figure(
    id="E-fig14",
    caption="Mixed TCP and fBm UDP: TCP throughput, per-flow goodput and UDP loss against the core buffer",
    setup="E-fig13 with the UDP source fractional Brownian motion (paper A Sec V-A: Hurst 0.85, 1 us resolution, "
          "6 Mb/s mean, 200 B packets; paper E does not give the size)",
    panels=FIG13.panels,
    claims=[
        Claim("edge peaks at 6 KB", "edge throughput within 1 % of its best from 6 KB on", _edge_peak_at("6KB")),
        Claim("UDP loss non-monotonic", "unpaced UDP loss lowest at an inner buffer and 20 % higher after it",
              loss_dips_then_rises(E_UDP_BUFFERS, {"scheme": "none"})),
        Claim("edge up to 10x lower", "unpaced / edge UDP loss at least 5 at some buffer", _edge_up_to_10x_lower),
    ],
)

# --- Short-lived TCP: paper E's E-fig6, paper A's A-fig17 and A-fig20; windows: A-fig4 ---

TRANSFER_GOODPUT = "transfer_goodput_kbps_mean"


def _edge_peak(p: Points) -> Verdict:
    g = {b: p.at(TRANSFER_GOODPUT, scheme="edge", buffer=b) for b in BUFFERS}
    peak = max(g, key=g.get)
    ok = peak in ("8KB", "10KB", "15KB") and near(g[peak], 155)
    return ok, f"edge highest {g[peak]:.1f} Kb/s at {peak} (paper 155 at 10 KB): " + ", ".join(
        f"{b} {v:.1f}" for b, v in g.items())


def _edge_over_host_short(p: Points) -> Verdict:
    edge, host = (p.at(TRANSFER_GOODPUT, scheme=s, buffer="10KB") for s in ("edge", "host"))
    gain = edge / host - 1
    return gain >= 0.14, f"at 10 KB edge {edge:.1f} / host {host:.1f} Kb/s = {100 * gain:+.1f} % (paper +17 %, host 133)"


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
        Claim("edge goodput peaks ≈155 Kb/s at 10 KB", "edge's highest point at 8-15 KB and within 5 % of 155 Kb/s",
              _edge_peak),
        Claim("≈17% above host (≈133)", "edge at least 14 % (17 % less 3 points) above host at 10 KB",
              _edge_over_host_short),
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
    gaps = {(s, b): p.at(THROUGHPUT, scheme=s, buffer=b) / p.at(THROUGHPUT, scheme="none", buffer=b) - 1
            for s in ("host", "edge") for b in E8_BUFFERS}
    worst = max(gaps, key=lambda k: abs(gaps[k]))
    return abs(gaps[worst]) <= 0.02, f"largest change vs unpaced {100 * gaps[worst]:+.2f} % ({worst[0]}, {worst[1]})"


FIG8 = Figure(
    id="E-fig8",
    caption="Core link not the bottleneck: core loss against its buffer",
    setup="E-base shape: 200 Mb/s core, 40 Mb/s edges, access U[1, 2] Mb/s, 10 x 10 = 100 flows; pacing none, host, "
          "edge; core buffer 2-50 KB",
    panels=[Panel("core.buffer", "core_loss_rate", ["pacing.scheme"], title="Core loss", logy=True),
            Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], title="Aggregate throughput")],
    claims=[Claim("core needs ≤10 KB for zero loss", "no core loss at any buffer from 10 KB up, every scheme",
                  _zero_loss_by_10),
            Claim("pacing ≈ no effect on throughput", "host and edge within 2 % of unpaced at every buffer",
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


def _e15_udp_dip(p: Points) -> Verdict:
    ys = [p.at(UDP_LOSS, buffer="5KB", delay=d) for d in E15_DELAYS]
    low = min(range(len(ys)), key=ys.__getitem__)
    ok = 0 < low < len(ys) - 1 and max(ys[low + 1:]) > 1.2 * ys[low] and ys[0] > 1.2 * ys[low]
    return ok, f"5 KB: UDP loss lowest {100 * ys[low]:.3f} % at d = {E15_DELAYS[low]}: " + ", ".join(
        f"{d} {100 * y:.3f}" for d, y in zip(E15_DELAYS, ys))


FIG15 = Figure(
    id="E-fig15",
    caption="TCP throughput and UDP loss against the pacer delay, TCP mixed with Poisson UDP",
    setup="E-fig13's traffic (5.5 Mb/s Poisson UDP, paced at the edge with TCP); core buffer 5 and 50 KB; d 0-100 ms",
    panels=[Panel("pacing.delay", THROUGHPUT, ["core.buffer"], title="Aggregate throughput"),
            Panel("pacing.delay", UDP_LOSS, ["core.buffer"], title="UDP loss", logy=True)],
    claims=[Claim("5 KB: TCP rises with d", "rank correlation of throughput with d >= 0.7",
                  _e15_trend(THROUGHPUT, "5KB", 1, "throughput")),
            Claim("5 KB: UDP loss falls then rises", "lowest at an inner d, 20 % higher before and after it",
                  _e15_udp_dip),
            Claim("50 KB: TCP falls with d", "rank correlation of throughput with d <= -0.7",
                  _e15_trend(THROUGHPUT, "50KB", -1, "throughput")),
            Claim("50 KB: UDP loss falls", "rank correlation of UDP loss with d <= -0.7",
                  _e15_trend(UDP_LOSS, "50KB", -1, "UDP loss"))],
)
