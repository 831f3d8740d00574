"""X-scale (issue 38): E-fig3 at 1k, 10k, 100k and 1M flows. Its scaling of rates and buffers against values
computed by hand from E-base (paper E Sec 3.1), and its quick run drawn with one panel per scale."""

from __future__ import annotations

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from pacesim.papers import FIGURES
from pacesim.papers.x.figures import BUFFER_PACKETS, BUFFERS, FULL_FLOWS, SCALES
from pacesim.plot import render
from pacesim.reproduce.runner import reproduce
from pacesim.store import Store
from pacesim.sweep import executor

FIG = FIGURES["X-scale"]

# E-base by hand: 10 edges x 100 hosts, access U[8, 12] Mb/s, edges and core 100 Mb/s; each flow's share of the
# core 100 Mb/s / 1000 = 100 Kb/s; a data packet on the wire 1000 + 40 B.
HAND = {
    # variant: hosts per edge, core = edge rate (b/s), access range (b/s), buffer (B), packet limit, run, warm-up (s)
    "1k flows, 5KB (5KB x 1)": (100, 100e6, (8e6, 12e6), 5_000, None, 400, 100),
    "10k flows, 5 packets": (1_000, 1e9, (80e6, 120e6), 100_000_000, 5, 100, 30),
    "10k flows, 200KB (20KB x 10)": (1_000, 1e9, (80e6, 120e6), 200_000, None, 100, 30),
    "100k flows, 50 packets": (10_000, 10e9, (800e6, 1.2e9), 100_000_000, 50, 30, 15),
    "100k flows, 300KB (3KB x 100)": (10_000, 10e9, (800e6, 1.2e9), 300_000, None, 30, 15),
    "1M flows, 2MB (2KB x 1000)": (100_000, 100e9, (8e9, 12e9), 2_000_000, None, 20, 12),
    "1M flows, 50MB (50KB x 1000)": (100_000, 100e9, (8e9, 12e9), 50_000_000, None, 20, 12),
}
# The paper's buffers drain at 100 Mb/s in KB x 8 / 100 Mb/s: 2 KB 0.16 ms, 3 KB 0.24, 5 KB 0.4, 10 KB 0.8,
# 20 KB 1.6, 50 KB 4 ms; scaled with the rate, the same at every scale.
DRAIN_MS = {"2KB": 0.16, "3KB": 0.24, "5KB": 0.4, "10KB": 0.8, "20KB": 1.6, "50KB": 4.0}


def _engine(sweep, variant):
    point = next(p for p in sweep.points() if p.axes["variant"] == variant and p.axes["pacing.scheme"] == "none")
    return point.scenario.to_engine()


def test_each_scale_multiplies_hosts_and_every_rate_and_keeps_e_bases_delays():
    sweep = FIG.sweep(False)
    for variant, (hosts, rate, access, buffer, packets, run_s, warm_s) in HAND.items():
        e = _engine(sweep, variant)
        t = e["topology"]
        assert (t["edges"], t["hosts_per_edge"]) == (10, hosts), variant
        assert e["core"]["rate"] == rate and t["edge_rate"] == [rate, rate] and t["access_rate"] == list(access)
        assert (e["core"]["buffer"], e["core"].get("buffer_packets")) == (buffer, packets), variant
        assert (e["duration"], e["warmup"]) == (run_s * 10**9, warm_s * 10**9), variant
        # RTTs as E-base's: the core's 100 ms, edges U[5, 15] ms, access U[1, 5] ms
        assert (e["core"]["delay"], t["edge_delay"], t["access_delay"]) == (100e6, [5e6, 15e6], [1e6, 5e6])
        assert e["pacing"]["host_pacer"] == "wei" and e["tcp"]["window_cut"] == "flight-if-host-paced"  # E-fig3's


def test_every_point_keeps_a_flows_share_and_a_scaled_buffer_its_drain_time():
    sweep = FIG.sweep(False)
    assert sweep.size == 4 * 10 * 3 * 3  # scales x buffers x schemes x seeds
    for point in sweep.points():
        e = point.scenario.to_engine()
        flows = e["topology"]["edges"] * e["topology"]["hosts_per_edge"]
        assert e["core"]["rate"] / flows == 100e3, point.axes
        scaled = point.axes["variant"].split("(")[-1].split(" x ")[0] if "(" in point.axes["variant"] else None
        if scaled is not None:
            assert e["core"]["buffer"] * 8 / e["core"]["rate"] * 1e3 == pytest.approx(DRAIN_MS[scaled]), point.axes
        else:
            assert 5 <= e["core"]["buffer_packets"] <= 50 and e["core"]["buffer"] == 100_000_000


def test_a_variant_stands_for_its_flows_and_its_buffer_in_packets():
    parts = FIG.parts(FIG.sweep(False))
    assert parts["10k flows, 100KB (10KB x 10)"] == {FULL_FLOWS: 10_000, BUFFER_PACKETS: pytest.approx(100_000 / 1040),
                                                     BUFFERS: "KB x k"}
    assert parts["1M flows, 20 packets"] == {FULL_FLOWS: 1_000_000, BUFFER_PACKETS: 20.0, BUFFERS: "packets"}
    assert sorted({p[FULL_FLOWS] for p in parts.values()}) == [flows for flows, _ in SCALES]


def test_the_quick_run_takes_its_own_run_length_and_draws_a_panel_per_scale(tmp_path):
    quick = FIG.sweep(True)
    lengths = {(p.scenario.duration, p.scenario.warmup) for p in quick.points()}
    assert lengths == {(2 * 10**9, 10**9)}  # [quick]'s, not the variants' 400/100/30/20 s
    assert sorted({p.scenario.topology.hosts_per_edge * 10 for p in quick.points()}) == [10, 100, 1_000, 10_000]
    with executor(workers=1) as pool:
        done = reproduce(FIG.id, tmp_path / "results", tmp_path / "out", quick=True, pool=pool, progress=False)
    with Store(tmp_path / "results") as store:
        points = store.points(quick.name, written=True)
    assert len(points) == 120 and (points["status"] == "ok").all()
    shown, axes = FIG.split(points, quick)
    assert "variant" not in axes and {FULL_FLOWS, BUFFER_PACKETS, BUFFERS} <= set(axes)
    drawn = render(shown, FIG.panels, "", axes=axes)
    FigureCanvasAgg(drawn).draw()
    panels = [ax for ax in drawn.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == [f"({c}) {flows:,} flows, {rate} core"
                                                 for c, (flows, rate) in zip("abcd", SCALES)]
    for ax in panels:  # a series per scheme and way of sizing, each with its 4 or 6 buffers
        assert sorted(len(bars.lines[0].get_xdata()) for bars in ax.containers) == [4, 4, 4, 6, 6, 6]
    assert {p.name for p in done.plots} == {"X-scale.png", "X-scale.svg"}
    report = done.report.read_text()
    assert report.count("### (") == 4 and "quick: flows and every link rate x0.01" in report
