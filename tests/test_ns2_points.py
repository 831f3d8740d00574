"""ns-2 2.35's points on the reproduction's figures and site (pacesim.reproduce.ns2).

The expectations are read straight from the ns-2 CSVs the bench committed
(bench/ns2/results/), not from the packaged copy the code draws from.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pacesim.reproduce import ns2, runner
from pacesim.papers import FIGURES
from pacesim.site.record import ns2_tables

RESULTS = Path(__file__).resolve().parents[1] / "bench" / "ns2" / "results"


def test_the_packaged_rows_are_the_benchs_current_ones():
    built = ns2.build(RESULTS)
    pd.testing.assert_frame_equal(ns2.load(), built, check_dtype=False)


@pytest.mark.parametrize("ref", ns2.REFERENCES, ids=lambda r: f"{r.figure}-{r.run}-{r.source}")
def test_every_reference_lands_on_a_panel_of_its_figure(ref):
    drawn = {b.metric for b in ns2.beside(FIGURES[ref.figure], ref.run == "quick") if b.series == ref.series}
    assert drawn == {metric for metric, _ in ref.metrics.values()}


def fake_points(fig_id: str, metric_values) -> pd.DataFrame:
    """One seed of every point of the figure's full-size sweep, each metric set by `metric_values(row)`."""
    sweep = FIGURES[fig_id].sweep(False)
    rows = [dict(p.axes, seed=1, status="ok") for p in sweep.points()]
    df = pd.DataFrame(rows)
    for metric, f in metric_values.items():
        df[metric] = [f(r) for r in rows]
    return df


def drawn(monkeypatch, tmp_path, fig_id: str, points: pd.DataFrame, quick: bool = False):
    """The matplotlib figure `runner.draw` saves for `points`."""
    saved = {}
    monkeypatch.setattr(runner, "save", lambda fig, stem: saved.setdefault("fig", fig) and [])
    fig = FIGURES[fig_id]
    runner.draw(fig, points, {}, tmp_path, quick, list(fig.sweep(quick).axes), 400.0)
    return saved["fig"]


def ns2_lines(ax):
    return [line for line in ax.get_lines() if line.get_label().startswith(ns2.LEGEND)]


def test_e_fig3_draws_every_ns2_row_at_its_buffer_and_value(monkeypatch, tmp_path):
    ebase = pd.read_csv(RESULTS / "ebase.csv")
    ebase = ebase[(ebase["flows"] == 1000) & (ebase["duration_s"] == 200)]
    assert len(ebase) == 18  # 9 buffers, 2 seeds
    points = fake_points("E-fig3", {"aggregate_mbps": lambda r: 90.0, "goodput_kbps_mean": lambda r: 80.0})
    fig = drawn(monkeypatch, tmp_path, "E-fig3", points)
    for ax, column in zip(fig.axes, ["aggregate_mbps", "goodput_kbps_mean"]):
        (line,) = ns2_lines(ax)
        assert line.get_label() == "ns-2 2.35, none (200 s runs)"  # beside the unpaced curve; pacesim's runs 400 s
        got = sorted(zip(line.get_xdata(), line.get_ydata()))
        want = sorted(zip(ebase["buffer_bytes"] / 1000, ebase[column]))
        assert np.allclose(got, want)
        assert line.get_marker() == "x"
        assert "ns-2 2.35, none (200 s runs)" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_e_fig7_puts_each_variants_rows_on_its_own_panels(monkeypatch, tmp_path):
    points = fake_points("E-fig7", {"aggregate_mbps": lambda r: 90.0, "goodput_kbps_mean": lambda r: 80.0})
    fig = drawn(monkeypatch, tmp_path, "E-fig7", points)
    panels = FIGURES["E-fig7"].panels
    sources = {"newreno": "ebase-newreno.csv", "sack": "ebase-sack1.csv", "fack": "ebase-fack.csv"}
    for ax, panel in zip(fig.axes, panels):
        csv = pd.read_csv(RESULTS / sources[panel.where["tcp.variant"]])
        csv = csv[(csv["flows"] == 1000) & (csv["duration_s"] == 200)]
        (line,) = ns2_lines(ax)
        assert sorted(line.get_ydata()) == pytest.approx(sorted(csv[panel.y]))


def test_a_zero_loss_on_a_log_axis_is_drawn_on_the_floor(monkeypatch, tmp_path):
    twoway = pd.read_csv(RESULTS / "refs" / "twoway.csv")
    twoway = twoway[twoway["scale"] == 0.1]
    zeros = int((twoway["ack_loss"] == 0).sum())
    assert zeros > 0  # at 4 KB ns-2 loses no ACK at r0 on the quick (tenth) network
    sweep = FIGURES["A-fig23"].sweep(True)
    points = pd.DataFrame([dict(p.axes, seed=1, status="ok") for p in sweep.points()])
    points = points.assign(core_ack_loss_rate=0.01, core_rev_ack_loss_rate=0.02, tcp_goodput_mbps=9.0)
    fig = drawn(monkeypatch, tmp_path, "A-fig23", points, quick=True)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    r0, r1 = ns2_lines(ax)  # one set of crosses per metric: ACKs at r0, then at r1
    assert r0.get_label() == "ns-2 2.35 (100 s runs)"  # drawn as if beside a 400 s run
    y = np.asarray(r0.get_ydata())
    assert len(y) == len(twoway) and len(r1.get_ydata()) == len(twoway)
    assert (y == ax.get_ylim()[0]).sum() == zeros
    assert sorted(y[y > ax.get_ylim()[0]]) == pytest.approx(sorted(twoway["ack_loss"][twoway["ack_loss"] > 0]))


def test_a_figure_without_references_gets_no_ns2_points(monkeypatch, tmp_path):
    fig = FIGURES["Q-tab2"]
    assert ns2.beside(fig, False) == [] and ns2.beside(fig, True) == []


def test_without_the_packaged_rows_nothing_is_drawn(monkeypatch, tmp_path):
    monkeypatch.setattr(ns2, "POINTS", tmp_path / "absent.csv")
    assert ns2.load() is None and ns2.beside(FIGURES["E-fig3"], False) == []


def test_the_site_table_puts_each_ns2_row_beside_pacesims_mean(monkeypatch):
    # pacesim: two seeds at every point, throughput 90 and 92 Mb/s unpaced (mean 91), 50 paced (never shown)
    one = fake_points("E-fig3", {"aggregate_mbps": lambda r: 90.0 if r["pacing.scheme"] == "none" else 50.0,
                                 "goodput_kbps_mean": lambda r: 1.0})
    two = one.assign(seed=2, aggregate_mbps=one["aggregate_mbps"] + 2 * (one["pacing.scheme"] == "none"))
    tables = ns2_tables("E-fig3", pd.concat([one, two]))
    ebase = pd.read_csv(RESULTS / "ebase.csv")
    ebase = ebase[(ebase["flows"] == 1000) & (ebase["duration_s"] == 200)]
    (throughput,) = [t for t in tables if "Aggregate throughput" in t.title]
    assert throughput.x == "Core link buffer (KB)" and throughput.title.endswith("beside pacing.scheme = none")
    assert len(throughput.rows) == len(ebase)
    for (x, seed, length, theirs, ours), (_, row) in zip(throughput.rows, ebase.iterrows()):
        assert (float(x), seed, length) == (row["buffer_bytes"] / 1000, row["seed"], "200 s from 50 s")
        assert float(theirs) == pytest.approx(row["aggregate_mbps"], rel=1e-3)
        assert ours == "91 (n=2)"


def _site(tmp_path, tables, shipped: bool) -> str:
    """The Paper E page of a record holding one E-fig3 run with `tables`."""
    from pacesim.site.pages import write_site
    from pacesim.site.record import Entry, Record, Run

    run = Run("E-fig3", 54, 54, 0, 0, [1, 2], 1.0, ["x"], ["y"], ["h"], ("", ""), [], None, 400.0, tables)
    entry = Entry("E-fig3", "E-base", [("E-fig3", "E-base")], "test", [], [run], [], None)
    write_site(Record(tmp_path, [entry], "x", "now", shipped), tmp_path / "site")
    return (tmp_path / "site" / "paper_e.html").read_text(encoding="utf-8")


def test_the_paper_page_shows_every_ns2_row_in_a_table_beside_the_figure(tmp_path):
    one = fake_points("E-fig3", {"aggregate_mbps": lambda r: 90.0, "goodput_kbps_mean": lambda r: 80.0})
    tables = ns2_tables("E-fig3", one)
    page = _site(tmp_path, tables, shipped=True)
    import re

    shown = re.findall(r'<table class="ns2">(.*?)</table>', page, re.S)
    assert len(shown) == len(tables) == 2  # throughput and goodput, each beside the unpaced curve
    for html, table in zip(shown, tables):
        assert html.count("<tr><td>") == len(table.rows) == 18
        assert "pacesim, mean over seeds (400 s runs)" in html
    assert "holds no ns-2 rows" not in page
    assert "holds no ns-2 rows" in _site(tmp_path, [], shipped=False)
