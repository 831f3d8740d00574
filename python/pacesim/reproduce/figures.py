"""Paper E's packet-level figures: what each sweeps, how it is drawn, what it must show.

Every figure starts from E-base (the `Scenario` defaults: 1000 flows, 400 s,
measured over [100, 400] s, d = 10 ms). The full version uses the paper's
sizes and seed 1; `--quick` scales flows and every link rate by 0.1 (100 flows
on a 10 Mb/s core, so each flow keeps its 100 Kb/s share), runs 100 s measured
over [30, 100] s, and uses seeds 1-3. Buffers are the nine of our ns-2
reference (2-50 KB). Claims quote ../shared/EXPERIMENTS.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Union

from ..plot import Cdf, Panel
from ..sweep import Sweep
from ..units import parse_size, parse_time
import numpy as np

from .claims import APPROX, Claim, Points, Verdict, first_reaching, near, spearman

BUFFERS = ["2KB", "3KB", "5KB", "8KB", "10KB", "15KB", "20KB", "30KB", "50KB"]
SCHEMES = ["none", "host", "edge"]
QUICK_SCALE = 0.1
QUICK_SET = ["duration=100s", "warmup=30s"]
QUICK_SEEDS = [1, 2, 3]
FULL_SEEDS = [1]
THROUGHPUT = "aggregate_mbps"
GOODPUT = "goodput_kbps_mean"


@dataclass(frozen=True)
class Figure:
    """One reproducible figure: its sweep axes and fixed overrides over E-base, the
    panels drawn (like the paper's), and the claims checked."""

    id: str
    caption: str
    setup: str
    axes: Dict[str, list]
    panels: List[Union[Panel, Cdf]]
    claims: List[Claim]
    set: List[str] = field(default_factory=list)
    variants: Dict[str, List[str]] = field(default_factory=dict)
    # Overrides that make the quick version, for figures whose topology is
    # not E-base (whose quick version scales flows and rates instead).
    quick: Optional[List[str]] = None

    def sweep(self, quick: bool, seeds: Optional[Sequence[int]] = None) -> Sweep:
        """The sweep to run: full size, or reduced with `quick`."""
        if quick:
            reduce = dict(set=self.set + self.quick) if self.quick is not None else dict(set=self.set + QUICK_SET, scale=QUICK_SCALE)
            return Sweep(name=f"{self.id}-quick", axes=self.axes, seeds=list(seeds or QUICK_SEEDS),
                         variants=self.variants, **reduce)
        return Sweep(name=self.id, axes=self.axes, set=list(self.set), seeds=list(seeds or FULL_SEEDS),
                     variants=self.variants)


def kb(buffer: str) -> float:
    return parse_size(buffer) / 1e3


def ms(delay: str) -> float:
    return parse_time(delay) / 1e6


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
    axes={"core.buffer": BUFFERS, "pacing.scheme": SCHEMES},
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
    axes={"core.buffer": BUFFERS, "pacing.scheme": SCHEMES},
    set=["topology.access_rate=100Mbps"],
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
    axes={"tcp.variant": VARIANTS, "core.buffer": BUFFERS, "pacing.scheme": SCHEMES},
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
    axes={"core.buffer": RED_BUFFERS, "pacing.scheme": SCHEMES},
    set=["core.queue=red"],
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
    axes={"flows": [100, 500, 1000], "core.buffer": BUFFERS, "pacing.scheme": SCHEMES},
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
    axes={"core.buffer": ["5KB", "50KB"], "pacing.delay": FIG11_DELAYS},
    set=["pacing.scheme=edge"],
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
    axes={"core.buffer": BUFFERS, "pacing.delay": FIG12_DELAYS},
    set=["pacing.scheme=edge"],
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
    axes={"pacing.scheme": ["host", "edge"], "pacing.fraction": FRACTIONS, "core.buffer": BUFFERS},
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
    axes={"pacing.scheme": ["host", "edge"], "core.buffer": BUFFERS},
    set=["pacing.fraction=0.3"],
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

# --- Q-fig18: QLBP at the access routers of paper Q's dumbbell ---

Q_PACKETS = [1, 2, 5, 10, 20, 30, 50, 75, 100]
Q_MAX = [10, 20, 40, 80, 160]
Q_VARIANTS = {"no pacing": ["pacing.scheme=none"], "TCP pacing": ["pacing.scheme=host"],
              **{f"QLBP {q}": ["pacing.scheme=qlbp", f"pacing.q_max={q}"] for q in Q_MAX}}


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
    axes={"core.buffer_packets": Q_PACKETS, "variant": list(Q_VARIANTS)},
    variants=Q_VARIANTS,
    set=["topology.kind=q-dumbbell", "duration=1000s", "warmup=200s", "tcp.window=32", 'traffic.start=["0s", "100s"]'],
    quick=["duration=300s", "warmup=120s"],
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

# --- UDP with TCP: paper E's E-fig13 and paper A's A-fig11 ---

UDP_LOSS = "core_udp_loss_rate"
# Paper E Sec 5: one aggregate 5.5 Mb/s Poisson source, U[100, 300] B, on its own 100 Mb/s edge.
E_UDP = ["topology.udp={}", 'traffic.udp=[{kind = "poisson", rate = "5.5Mbps", size = ["100B", "300B"]}]']


def _loss_dips_then_rises(buffers: Sequence[str], where: dict):
    """UDP loss at its lowest at an inner buffer and higher again after it."""
    def check(p: Points) -> Verdict:
        loss = [p.at(UDP_LOSS, buffer=b, **where) for b in buffers]
        low = min(range(len(loss)), key=loss.__getitem__)
        ok = 0 < low < len(loss) - 1 and max(loss[low + 1:]) > 1.2 * loss[low]
        return ok, f"lowest {100 * loss[low]:.3f} % at {buffers[low]}; then up to {100 * max(loss[low + 1:] or [0]):.3f} %: " + \
            ", ".join(f"{b} {100 * v:.3f}" for b, v in zip(buffers, loss))
    return check


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
    axes={"pacing.scheme": SCHEMES, "core.buffer": E_UDP_BUFFERS},
    set=E_UDP,
    panels=[Panel("core.buffer", THROUGHPUT, ["pacing.scheme"], title="(a) Aggregate throughput"),
            Panel("core.buffer", GOODPUT, ["pacing.scheme"], title="(b) Per-flow TCP goodput"),
            Panel("core.buffer", UDP_LOSS, ["pacing.scheme"], title="(c) UDP loss", logy=True)],
    claims=[
        Claim("At 6 KB goodput edge 91, host 85, none 82 Kb/s", "edge > host >= none at 6 KB", _goodput_order_at("6KB")),
        Claim("UDP loss non-monotonic in buffer", "unpaced UDP loss lowest at an inner buffer and 20 % higher after it",
              _loss_dips_then_rises(E_UDP_BUFFERS, {"scheme": "none"})),
        Claim("edge lower, by orders of magnitude in 5-15 and 20-30 KB", "edge below none at 6-15 and 20-30 KB",
              _edge_lower_udp_loss(["6KB", "8KB", "10KB", "15KB", "20KB", "30KB"])),
    ],
)

A_BUFFERS = ["1KB", "2KB", "4KB", "6KB", "8KB", "11KB", "15KB", "20KB", "30KB", "40KB", "50KB"]
A_VARIANTS = {"UDP + TCP": [], "UDP alone": ["topology.tcp_hosts=0"]}


def _a_fig11_ratio(p: Points) -> Verdict:
    loss = {b: p.at(UDP_LOSS, variant="UDP + TCP", buffer=b) for b in A_BUFFERS}
    low = min(loss, key=loss.get)
    ratio = loss["30KB"] / loss["11KB"]
    return 1.2 <= ratio <= 2.0, f"30 KB / 11 KB = {ratio:.2f} (paper about 1.5); lowest at {low}"


def _alone_falls(p: Points) -> Verdict:
    loss = [p.at(UDP_LOSS, variant="UDP alone", buffer=b) for b in A_BUFFERS]
    rho = spearman(range(len(loss)), loss)
    return rho < -0.9 or max(loss[3:]) == 0, f"rank correlation with buffer {rho:.2f}: " + ", ".join(
        f"{b} {100 * v:.4f}" for b, v in zip(A_BUFFERS, loss))


def _tcp_by_11(p: Points) -> Verdict:
    u = p.at("throughput_pct", variant="UDP + TCP", buffer="11KB")
    return u >= 95, f"core at 11 KB {u:.1f} % busy (paper: TCP 93 + UDP 5)"


AFIG11 = Figure(
    id="A-fig11",
    caption="Poisson: UDP packet loss and TCP throughput from simulation",
    setup="a-base (paper A Sec V-A): 1000 TCP Reno flows on 10 Mb/s access links, a 5 Mb/s Poisson UDP source of "
          "200 B packets on its own 100 Mb/s link, 100 Mb/s core; 800 s measured from 200 s; core buffer 1-50 KB; "
          "and the UDP source alone",
    axes={"core.buffer": A_BUFFERS, "variant": list(A_VARIANTS)},
    variants=A_VARIANTS,
    set=["topology.kind=a-base", "duration=800s", "warmup=200s",
         'traffic.udp=[{kind = "poisson", rate = "5Mbps", size = "200B"}]'],
    # A tenth of the flows and of every rate (each flow keeps its 100 Kb/s share; UDP stays 5 %).
    quick=["topology.tcp_hosts=100", "core.rate=10Mbps", "topology.access_rate=1Mbps", "topology.udp_access_rate=10Mbps",
           'traffic.udp=[{kind = "poisson", rate = "0.5Mbps", size = "200B"}]', "duration=100s", "warmup=30s"],
    panels=[Panel("core.buffer", UDP_LOSS, ["variant"], title="UDP packet loss", logy=True),
            Panel("core.buffer", "tcp_goodput_mbps", ["variant"], title="TCP throughput", ylabel="TCP goodput (Mb/s)")],
    claims=[
        Claim("UDP loss lowest at 11 KB", "UDP loss with TCP lowest at an inner buffer, 20 % higher after it",
              _loss_dips_then_rises(A_BUFFERS, {"variant": "UDP + TCP"})),
        Claim("30 KB loss ≈50% above 11 KB", "loss at 30 KB between 1.2 and 2 times that at 11 KB", _a_fig11_ratio),
        Claim("TCP ≈93 Mb/s at 11 KB", "core at least 95 % busy at 11 KB", _tcp_by_11),
        Claim("without TCP, UDP loss falls with buffer", "UDP alone: loss falls with buffer (rank correlation < -0.9)",
              _alone_falls),
    ],
)

# fBm in place of Poisson (paper A Sec V-A, paper E Sec 5): same figures, same claims.
E_FBM = ["topology.udp={}", 'traffic.udp=[{kind = "fbm", rate = "6Mbps", size = "200B", hurst = 0.85}]']


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
    axes=FIG13.axes,
    set=E_FBM,
    panels=FIG13.panels,
    claims=[
        Claim("edge peaks at 6 KB", "edge throughput within 1 % of its best from 6 KB on", _edge_peak_at("6KB")),
        Claim("UDP loss non-monotonic", "unpaced UDP loss lowest at an inner buffer and 20 % higher after it",
              _loss_dips_then_rises(E_UDP_BUFFERS, {"scheme": "none"})),
        Claim("edge up to 10x lower", "unpaced / edge UDP loss at least 5 at some buffer", _edge_up_to_10x_lower),
    ],
)

AFIG12 = Figure(
    id="A-fig12",
    caption="fBm: UDP packet loss and TCP throughput from simulation",
    setup="A-fig11 with the UDP source fBm (Hurst 0.85, 1 us resolution, rho_c dt / s = 1, 200 B packets, 5 Mb/s)",
    axes=AFIG11.axes,
    variants=AFIG11.variants,
    set=[x for x in AFIG11.set if not x.startswith("traffic.udp")]
        + ['traffic.udp=[{kind = "fbm", rate = "5Mbps", size = "200B", hurst = 0.85}]'],
    quick=[x for x in AFIG11.quick if not x.startswith("traffic.udp")]
          + ['traffic.udp=[{kind = "fbm", rate = "0.5Mbps", size = "200B", hurst = 0.85}]'],
    panels=AFIG11.panels,
    claims=[Claim("same shape as A-fig11: UDP loss lowest at an inner buffer",
                  "UDP loss with TCP lowest at an inner buffer, 20 % higher after it",
                  _loss_dips_then_rises(A_BUFFERS, {"variant": "UDP + TCP"})),
            Claim("without TCP, UDP loss falls with buffer", "UDP alone: rank correlation with buffer < -0.9",
                  _alone_falls)],
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
    axes={"core.buffer": BUFFERS, "pacing.scheme": SCHEMES},
    set=["traffic.short.fraction=1"],
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

A_CWND_BUFFERS = ["2KB", "5KB", "10KB", "20KB"]
A_CWND_VARIANTS = {"1000 flows": ["topology.tcp_hosts=1000"], "200 flows": ["topology.tcp_hosts=200"]}
# Paper A Sec III: "average congestion window size is 1.8-4 packets ..." (2 KB) and "2.1-5.6 ..." (20 KB).
A_CWND_RANGES = {("1000 flows", "2KB"): (1.8, 4), ("200 flows", "2KB"): (6, 9),
                 ("1000 flows", "20KB"): (2.1, 5.6), ("200 flows", "20KB"): (12, 20)}


def _cwnd_range(variant: str, buffer: str):
    lo, hi = A_CWND_RANGES[variant, buffer]

    def check(p: Points) -> Verdict:
        q = [p.at(f"mean_cwnd_p{k}", variant=variant, buffer=buffer) for k in ("05", "50", "95")]
        return lo <= q[1] <= hi, f"{variant} at {buffer}: 5/50/95th percentiles {q[0]:.2f} / {q[1]:.2f} / {q[2]:.2f} " \
                                 f"packets (paper's range {lo:g}-{hi:g})"
    return check


def _cwnd_growth(p: Points) -> Verdict:
    ratios = {v: p.at("mean_cwnd_p50", variant=v, buffer="20KB") / p.at("mean_cwnd_p50", variant=v, buffer="2KB")
              for v in A_CWND_VARIANTS}
    return all(1.2 <= r <= 2.0 for r in ratios.values()), "median 20 KB / 2 KB: " + ", ".join(
        f"{v} x{r:.2f}" for v, r in ratios.items())


A_SET = ["topology.kind=a-base", "duration=800s", "warmup=200s"]

AFIG4 = Figure(
    id="A-fig4",
    caption="CDF of average congestion window size for 1000 and 200 TCP flows",
    setup="a-base with a 200 Mb/s core, 1000 or 200 TCP Reno flows and 10 Mb/s (5 %) Poisson UDP of 200 B; core "
          "buffer 2-20 KB; each flow's cwnd averaged over the measurement window",
    axes={"core.buffer": A_CWND_BUFFERS, "variant": list(A_CWND_VARIANTS)},
    variants=A_CWND_VARIANTS,
    set=A_SET + ["core.rate=200Mbps", 'traffic.udp=[{kind = "poisson", rate = "10Mbps", size = "200B"}]'],
    quick=["duration=200s", "warmup=50s"],
    panels=[Cdf("flows", "mean_cwnd", ["core.buffer"], "Average cwnd (packets)", where={"variant": v}, title=f"({c}) {v}")
            for c, v in zip("ab", A_CWND_VARIANTS)]
           + [Panel("core.buffer", ["mean_cwnd_p05", "mean_cwnd_p50", "mean_cwnd_p95"], ["variant"],
                    title="5th, 50th, 95th percentiles", ylabel="Average cwnd (packets)")],
    claims=[Claim(f"{v}, {b}: cwnd {lo:g}-{hi:g}", "median flow's average cwnd within the paper's range",
                  _cwnd_range(v, b)) for (v, b), (lo, hi) in A_CWND_RANGES.items()]
           + [Claim("factor 1.2-2 increase from 2 to 20 KB", "median 20 KB / 2 KB in [1.2, 2] for both", _cwnd_growth)],
)

A_MIX_BUFFERS = ["2KB", "4KB", "8KB", "11KB", "15KB", "20KB", "30KB", "40KB", "50KB"]
# Long-lived share of paper A's 2000 flows; the rest closed-loop users with shape 1.5 files.
A_MIX = {"all short": ["traffic.short.fraction=1"], "1/4 long": ["traffic.short.fraction=0.75"],
         "1/2 long": ["traffic.short.fraction=0.5"], "all long": ["traffic.short.fraction=0"]}
A_MIX_SET = A_SET + ["core.rate=200Mbps", "topology.tcp_hosts=2000", "traffic.short.shape=1.5"]
# A tenth of the flows and of every rate, as for A-fig11.
A_MIX_QUICK = ["topology.tcp_hosts=200", "core.rate=20Mbps", "topology.access_rate=1Mbps",
               "topology.udp_access_rate=10Mbps", "duration=100s", "warmup=30s"]


def bstar_kb(p: Points, variant: str, buffers: Sequence[str]) -> float:
    """B* of paper A eq. (1), P(empty) ~ e^(-B/B*): minus the inverse slope of ln P(empty) against B in KB,
    over the buffers where the buffer was ever empty (NaN with fewer than three)."""
    empty = {kb(b): p.at("core_empty_prob", variant=variant, buffer=b) for b in buffers}
    xs = [x for x, e in empty.items() if e > 0]
    if len(xs) < 3:
        return float("nan")
    return -1.0 / np.polyfit(xs, [np.log(empty[x]) for x in xs], 1)[0]


def _bstar_falls(p: Points) -> Verdict:
    fit = [b for b in A_MIX_BUFFERS if 8 <= kb(b) <= 50]
    bstar = {v: bstar_kb(p, v, fit) for v in A_MIX}
    values = list(bstar.values())
    ok = all(a > b for a, b in zip(values, values[1:])) and near(values[0], 14, 0.3) and near(values[-1], 7, 0.3)
    return ok, "B* over 8-50 KB: " + ", ".join(f"{v} {x:.1f} KB" for v, x in bstar.items()) + " (paper 14 -> 7)"


def _more_long_more_udp_loss(p: Points) -> Verdict:
    region = ["8KB", "11KB", "15KB", "20KB", "30KB"]
    rhos = {b: spearman(range(len(A_MIX)), [p.at(UDP_LOSS, variant=v, buffer=b) for v in A_MIX]) for b in region}
    return all(r > 0 for r in rhos.values()), "rank correlation of UDP loss with the long share: " + ", ".join(
        f"{b} {r:+.2f}" for b, r in rhos.items())


AFIG17 = Figure(
    id="A-fig17",
    caption="Empty buffer probability with varying number of short- and long-lived TCP flows",
    setup="a-base with a 200 Mb/s core and 2000 TCP flows, of which all, 3/4, 1/2 or none are closed-loop users "
          "(Pareto files, mean 100 KB, shape 1.5; think time exp. 1 s), the rest long-lived; core buffer 2-50 KB",
    axes={"core.buffer": A_MIX_BUFFERS, "variant": list(A_MIX)},
    variants=A_MIX,
    set=A_MIX_SET,
    quick=A_MIX_QUICK,
    panels=[Panel("core.buffer", "core_empty_prob", ["variant"], title="P(core buffer empty)", logy=True)],
    claims=[Claim("B* from 14 KB (all short) to 7 KB (all long)",
                  "B* fitted over 8-50 KB falls with the long share; all short and all long within 30 % of 14 and 7 KB",
                  _bstar_falls)],
)

AFIG20 = Figure(
    id="A-fig20",
    caption="UDP packet loss with varying number of short- and long-lived TCP flows",
    setup="A-fig17's mixes with a 10 Mb/s Poisson UDP source of 200 B packets; core buffer 2-50 KB",
    axes={"core.buffer": A_MIX_BUFFERS, "variant": list(A_MIX)},
    variants=A_MIX,
    set=A_MIX_SET + ['traffic.udp=[{kind = "poisson", rate = "10Mbps", size = "200B"}]'],
    quick=A_MIX_QUICK + ['traffic.udp=[{kind = "poisson", rate = "1Mbps", size = "200B"}]'],
    panels=[Panel("core.buffer", UDP_LOSS, ["variant"], title="UDP packet loss", logy=True),
            Panel("core.buffer", "core_empty_prob", ["variant"], title="P(core buffer empty)", logy=True)],
    claims=[Claim("more long flows, more UDP loss", "UDP loss rises with the long share at 8-30 KB (rank correlation > 0)",
                  _more_long_more_udp_loss)],
)

FIGURES: Dict[str, Figure] = {f.id: f for f in [FIG3, FIG4, FIG5, FIG6, FIG7, FIG9, FIG11, FIG12, FIG13, FIG14, FIG16,
                                                 FIG17, QFIG18, AFIG4, AFIG11, AFIG12, AFIG17, AFIG20]}
