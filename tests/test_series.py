"""Time series (`[series]`) from Python: the long table on `Result`, the store's Parquet copy, `pacesim plot
--series`, and errors naming the field. (The engine's own tests check the points against slow start worked by
hand and against the links' counters: crates/pacesim-core/tests/series.rs.)"""

from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

import pacesim
from pacesim.cli import app
from pacesim.scenario import ScenarioError
from pacesim.store import Store, key_form, run_key
from pacesim.sweep import Sweep, executor, run_sweep

# An advertised window that never binds (not paper E's 20), so that 10 flows fill the 5 KB core and it drops.
TINY = ["topology.edges=2", "topology.hosts_per_edge=5", "duration=20s", "warmup=5s", "core.buffer=5KB", "tcp.window=1000"]
SERIES = ["series.flows=[0, 7]", 'series.links=["core"]']


def test_the_series_table_is_long_and_agrees_with_the_links_counters():
    r = pacesim.run("e-base", set=TINY + SERIES, threads=1)
    s = r.series
    assert list(s.columns) == ["time_s", "entity", "series", "value"]
    assert s["time_s"].is_monotonic_increasing
    tracks = set(s[["entity", "series"]].drop_duplicates().itertuples(index=False, name=None))
    assert tracks == {(f"flow.{f}", q) for f in (0, 7) for q in ("cwnd", "ssthresh", "srtt_ms", "rto_ms")} | {
        ("core", q) for q in ("queue_bytes", "queue_packets", "drops", "arrivals")}
    # Drops in the window sum to the core's drop counter; cwnd starts at 1 (the SYN's window).
    start, end = r.report["window_s"]
    drops = s[(s["series"] == "drops") & (s["time_s"] >= start) & (s["time_s"] < end)]["value"].sum()
    assert drops == r.links.loc["core", "drops"] > 0
    arrivals = s[(s["series"] == "arrivals") & (s["time_s"] >= start) & (s["time_s"] < end)]["value"].sum()
    assert arrivals == r.links.loc["core", "arrivals"] > drops
    cwnd = s[(s["entity"] == "flow.0") & (s["series"] == "cwnd")]
    assert cwnd["value"].iloc[0] == 1.0 and cwnd["value"].max() > 2
    # The same on two threads; absent, no series at all and no key for it in what a run's store key covers.
    assert pacesim.run("e-base", set=TINY + SERIES, threads=2).series.equals(s)
    plain = pacesim.run("e-base", set=TINY, threads=2)
    assert plain.series is None and "series" not in plain.report
    assert "series" not in key_form(pacesim.apply_overrides(pacesim.Scenario(), TINY).to_engine())


def test_a_sweep_stores_the_series_as_parquet_and_plot_draws_them(tmp_path):
    sweep = Sweep(name="ts", axes={"core.buffer": ["5KB"]}, seeds=[1], set=TINY + SERIES + ["series.interval=100ms"])
    with Store(tmp_path) as store, executor(workers=1) as pool:
        assert run_sweep(sweep, store, pool, progress=False).ran == 1
        key = store.points("ts")["key"].iloc[0]
        stored = store.table(key, "series")
    single = pacesim.run("e-base", set=TINY + SERIES + ["series.interval=100ms"], threads=1).series
    pd.testing.assert_frame_equal(stored, single)
    assert len(stored[(stored["entity"] == "core") & (stored["series"] == "queue_bytes")]) == 201  # 0, 0.1, ... 20 s
    out = CliRunner().invoke(app, ["plot", "ts", "--series", "cwnd", "--series", "queue", "--flows", "0",
                                   "--links", "core", "--results", str(tmp_path), "--out", str(tmp_path / "p")])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "p.png").stat().st_size > 1000 and (tmp_path / "p.svg").is_file()
    bad = CliRunner().invoke(app, ["plot", "ts", "--series", "backlog", "--results", str(tmp_path)])
    assert bad.exit_code == 2 and "recorded no backlog_packets" in bad.output
    bad = CliRunner().invoke(app, ["plot", "ts", "--series", "wnd", "--results", str(tmp_path)])
    assert bad.exit_code == 2 and "no series 'wnd'" in bad.output


def test_a_run_without_series_keeps_its_store_key_and_has_no_series_table(tmp_path):
    scenario = pacesim.apply_overrides(pacesim.Scenario(), TINY)
    engine = scenario.to_engine()
    assert run_key(engine, "x") == run_key(json.loads(json.dumps(engine)), "x")
    with Store(tmp_path) as store, executor(workers=1) as pool:
        run_sweep(Sweep(name="plain", axes={"core.buffer": ["5KB"]}, seeds=[1], set=TINY), store, pool, progress=False)
        key = store.points("plain")["key"].iloc[0]
        with pytest.raises(KeyError, match="no 'series' table"):
            store.table(key, "series")
    out = CliRunner().invoke(app, ["plot", "plain", "--series", "cwnd", "--results", str(tmp_path)])
    assert out.exit_code == 2 and "recorded no series" in out.output


def test_every_change_series_stop_at_their_share_of_max_points_with_a_warning():
    whole = pacesim.run("e-base", set=TINY + SERIES, threads=1).series
    with pytest.warns(pacesim.RecordingStopped) as w:
        cut = pacesim.run("e-base", set=TINY + SERIES + ["series.max_points=1200"], threads=1)
    share = 1200 // 12  # two flows' 4 tracks and the core's 4
    stopped = 0
    for (entity, series), g in whole.groupby(["entity", "series"], sort=False):
        kept = cut.series[(cut.series["entity"] == entity) & (cut.series["series"] == series)]
        assert kept["time_s"].tolist() == g["time_s"].tolist()[:share], (entity, series)
        assert kept["value"].tolist() == g["value"].tolist()[:share]
        if len(g) > share:
            stopped += 1
            said = f"series: {entity} {series} stopped recording at {g['time_s'].iloc[share]} s, after {share} points"
            assert any(str(x.message).startswith(said) for x in w), said
    assert stopped == len(w) == len(cut.report["warnings"]) > 0


def test_the_cli_prints_a_stopped_series_as_a_warning():
    result = CliRunner().invoke(app, ["run", "e-base", "--threads", "1"] + [
        a for s in TINY + SERIES + ["series.max_points=1100"] for a in ("--set", s)])
    assert result.exit_code == 0, result.output
    assert "warning:" in result.output and "stopped recording at" in result.output


@pytest.mark.parametrize("sets, field", [
    (["series.flows=[0, 0]"], "series.flows[1]"),
    (["series.interval=0s", "series.flows=[0]"], "series.interval"),
    (['series.links=[]'], "series"),
    (["series.flows=[-1]"], "series.flows[0]"),
    (["series.flows=[10]"], "series.flows[0]"),  # 10 flows: 0 to 9 (the engine's check)
    (['series.links=["nowhere"]'], "series.links[0]"),
    (['series.pacers=["edge_in.0"]'], "series.pacers[0]"),  # nothing paces
    (["series.flows=[0]", "series.every=true"], "series.every"),
    (["series.flows=[0]", "series.max_points=0"], "series.max_points"),
    (["series.flows=[0]", f"series.max_points={2**26 + 1}"], "series.max_points"),
    (["series.flows=[0]", "series.max_points=true"], "series.max_points"),
    (["series.flows=[0]", "series.interval=1s", "series.max_points=20"], "series.interval"),  # 21 x 4 samples
])
def test_bad_series_name_the_field(sets, field):
    with pytest.raises(ScenarioError) as e:
        pacesim.run("e-base", set=TINY + sets, threads=1)
    assert e.value.field == field, str(e.value)


@pytest.mark.parametrize("size", ["screen", "one-column"])
def test_every_series_panel_labels_its_ticks_and_no_legend_covers_a_trace(size):
    """The tutorial's `plot --series` (review of issue 34): the upper panel had no tick labels (the shared time
    axis labelled only the bottom one) and the lower one's legend lay over its trace. Here each trace spans its
    whole panel (a queue from empty to full over the window), so only a legend clear of the data passes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from pacesim.plot import series_panels

    t = [30.0 + 0.01 * i for i in range(201)]
    flows = [f"flow.{f}" for f in range(7)]
    rows = pd.DataFrame(
        [{"time_s": x, "entity": e, "series": "cwnd", "value": 1 + (i * (f + 1)) % 40}
         for f, e in enumerate(flows) for i, x in enumerate(t)]
        + [{"time_s": x, "entity": "core", "series": "queue_bytes", "value": 1040.0 * (i % 3)} for i, x in enumerate(t)])
    fig = series_panels(rows, ["cwnd", "queue_bytes"], None, "a title", size)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()

    def labelled(axis, low_high) -> list:
        """The tick labels shown on `axis` within its view limits."""
        low, high = sorted(low_high)
        return [tick.label1.get_text() for tick in axis.get_major_ticks()
                if tick.label1.get_visible() and tick.label1.get_text() and low <= tick.get_loc() <= high]

    assert len(fig.axes) == 2
    for ax, names in zip(fig.axes, [flows, ["core"]]):
        assert len(labelled(ax.xaxis, ax.get_xlim())) >= 3 and len(labelled(ax.yaxis, ax.get_ylim())) >= 3, \
            (ax.get_ylabel(), labelled(ax.xaxis, ax.get_xlim()), labelled(ax.yaxis, ax.get_ylim()))
        assert [t.get_text() for t in ax.get_legend().get_texts()] == names
        legend = ax.get_legend().get_window_extent(renderer)
        for line in ax.get_lines():
            assert not legend.overlaps(line.get_window_extent(renderer)), (ax.get_ylabel(), line.get_label())
        assert fig.bbox.contains(legend.x0, legend.y0) and fig.bbox.contains(legend.x1, legend.y1)  # not cut off
