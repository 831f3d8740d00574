"""`Store.to_xarray` (issue 34): a sweep as a Dataset whose dimensions are its axes and the seed, an axis
written in units as its number in that unit, each variable the stored metric of its point; `Store.points`
and `Store.rows` give the axes in the same form (numbers, the unit in the frame's metadata)."""

import re

import numpy as np
import pytest


def test_points_and_rows_give_an_axis_in_units_as_numbers_that_sort_as_numbers(tiny_store):
    """Issue 34: axis values came back as written, so pandas sorted "10KB" before "3KB"."""
    store, _ = tiny_store
    points = store.points("tiny")
    ordered = points.sort_values("core.buffer", kind="stable")
    assert list(ordered["core.buffer"].unique()) == [3000.0, 10000.0]  # numbers: 3 KB first
    assert list(ordered["core.buffer_written"].unique()) == ["3KB", "10KB"]
    assert points.attrs["units"] == {"core.buffer": "B"}
    assert set(points["pacing.scheme"]) == {"none", "edge"}  # a category keeps its values, no `_written`
    assert "pacing.scheme_written" not in points
    written = store.points("tiny", written=True)
    assert list(written["core.buffer"]) == list(points["core.buffer_written"]) and "core.buffer_written" not in written
    flows = store.rows("tiny")
    assert set(flows["core.buffer"]) == {3000.0, 10000.0} and flows.attrs["units"] == {"core.buffer": "B"}
    # Each flow carries its point's axes: the number and the text agree row by row.
    assert (flows["core.buffer"] == flows["core.buffer_written"].map({"3KB": 3000.0, "10KB": 10000.0})).all()
    assert set(store.rows("tiny", written=True)["core.buffer"]) == {"3KB", "10KB"}


def test_a_metric_or_column_no_point_has_is_float_nan_not_object(tiny_store):
    """Issue 34 review: a metric no point measured (long flows only: no fct_s_median; no Hurst fit) and a
    flow column no flow has (unpaced flows' mean_delay_ms) came back as object columns of None."""
    store, _ = tiny_store
    points = store.points("tiny")
    text = {"key", "status", "error", "code_version", "finished_at", "pacing.scheme", "core.buffer_written"}
    empty = [c for c in points if points[c].isna().all()]
    assert {"fct_s_median", "hurst"} <= set(empty) and "error" in empty
    for column in set(points) - text:
        assert points[column].dtype.kind in "fiub", (column, points[column].dtype)
    assert points["error"].dtype == object  # text, kept as it is
    flows = store.rows("tiny")
    assert flows["mean_delay_ms"].isna().any()  # the unpaced points' flows
    for column in set(flows) - text:
        assert flows[column].dtype.kind in "fiub", (column, flows[column].dtype)
    unpaced = store.table(points.loc[points["pacing.scheme"] == "none", "key"].iloc[0])
    assert unpaced["mean_delay_ms"].isna().all() and unpaced["mean_delay_ms"].dtype == float


def test_a_sweep_is_a_dataset_over_its_axes_and_seeds(tiny_store):
    pytest.importorskip("xarray")
    store, _ = tiny_store
    data = store.to_xarray("tiny")
    assert dict(data.sizes) == {"core.buffer": 2, "pacing.scheme": 2, "seed": 2}
    # "3KB" and "10KB" in bytes, in numeric order (as text, "10KB" sorts first), their written form kept.
    assert list(data["core.buffer"].values) == [3000.0, 10000.0]
    assert data["core.buffer"].attrs["units"] == "B"
    assert list(data["core.buffer_written"].values) == ["3KB", "10KB"]
    points = store.points("tiny")
    for row in points.to_dict("records"):
        at = data.sel({"core.buffer": row["core.buffer"], "pacing.scheme": row["pacing.scheme"], "seed": row["seed"]})
        assert at["goodput_kbps_mean"].item() == row["goodput_kbps_mean"]
        assert at["core_loss_rate"].item() == row["core_loss_rate"]
    # Each variable carries its unit (review of issue 34: none had one), as the metric's name says it.
    units = {name: v.attrs.get("units") for name, v in data.data_vars.items()}
    assert units["goodput_kbps_mean"] == "Kb/s" and units["aggregate_mbps"] == "Mb/s"
    assert units["delay_p99_ms"] == "ms" and units["fct_s_median"] == "s" and units["mean_cwnd_p50"] == "packets"
    assert units["core_loss_rate"] == units["flows"] == units["hurst_1ms"] == "1"  # a fraction, a count, a ratio
    assert None not in units.values(), units
    # Means over seeds are one call away, as xarray users expect.
    mean = data["goodput_kbps_mean"].mean("seed").sel({"core.buffer": 3000.0, "pacing.scheme": "edge"}).item()
    edge = points[(points["core.buffer"] == 3000.0) & (points["pacing.scheme"] == "edge")]
    assert np.isclose(mean, edge["goodput_kbps_mean"].mean())


def test_an_unknown_metric_is_named(tiny_store):
    pytest.importorskip("xarray")
    store, _ = tiny_store
    with pytest.raises(KeyError, match="no numeric metric 'goodput'"):
        store.to_xarray("tiny", ["goodput"])


def test_the_figures_labels_carry_the_units_the_metrics_names_give():
    """A figure's label and a Dataset variable's `units` say one unit for a metric: each label of
    `COLUMNS` that names a unit in parentheses names `metric_unit`'s (a loss rate is drawn in percent)."""
    from pacesim.panels import COLUMNS, LOSS, metric_label, metric_unit

    named = 0
    for metric, text in COLUMNS.items():
        said = re.search(r" \(([^()]*)\)$", metric_label(metric))
        if metric in LOSS:
            assert said and said[1] == "%" and metric_unit(metric) == "1", metric
        elif said and said[1] != "core":  # "ACKs at r0 (core)" names a queue, not a unit
            assert said[1] == metric_unit(metric), (metric, text)
            named += 1
    assert named >= 10


def test_an_axis_of_lists_is_its_json_text_and_plots(tmp_path, pool):
    """Issue 34's third review: an axis whose values are lists (a range of access delays) made `to_xarray` and
    `pacesim plot` end in TypeError: unhashable type: 'list' (plot with a traceback). Each value is its JSON text."""
    from typer.testing import CliRunner

    from pacesim.cli import app
    from pacesim.store import Store
    from pacesim.sweep import run_sweep

    from .conftest import tiny_sweep

    delays = [["1ms", "25ms"], ["2ms", "30ms"]]
    with Store(tmp_path / "r") as store:
        run_sweep(tiny_sweep("lst", **{"topology.access_delay": delays}), store, pool, progress=False)
        points = store.points("lst")
        assert set(points["topology.access_delay"]) == {'["1ms", "25ms"]', '["2ms", "30ms"]'}
        data = store.to_xarray("lst", ["goodput_kbps_mean"])
        assert list(data["topology.access_delay"].values) == ['["1ms", "25ms"]', '["2ms", "30ms"]']
        assert data["goodput_kbps_mean"].shape == (2, 2) and np.isfinite(data["goodput_kbps_mean"]).all()
    out = CliRunner().invoke(app, ["plot", "lst", "--results", str(tmp_path / "r"), "--x", "topology.access_delay",
                                   "--y", "goodput_kbps_mean", "--out", str(tmp_path / "p")])
    assert out.exit_code == 0 and out.exception is None, out.output
    assert (tmp_path / "p.png").is_file(), out.output


def test_a_pending_or_failed_point_is_nan_in_its_place(tmp_path, pool):
    """Review of issue 34: the docstring said "NaN where a point failed or is pending", but only finished
    points were kept: a sweep stopped with its 10 KB points pending had no 10 KB coordinate at all."""
    pytest.importorskip("xarray")
    from pacesim.store import Store
    from pacesim.sweep import Sweep, run_sweep

    from .conftest import TINY

    with Store(tmp_path) as store:
        run_sweep(Sweep(name="part", axes={"core.buffer": ["3KB"]}, seeds=[1], set=TINY), store, pool, progress=False)
        done = store.points("part")["key"].iloc[0]
        store.save_failed("f" * 64, {}, 1, "0", "it failed")
        store.register_sweep("part", {"axes": {"core.buffer": ["3KB", "10KB", "20KB"]}, "seeds": [1]},
                             [({"core.buffer": "3KB"}, 1, done), ({"core.buffer": "10KB"}, 1, "p" * 64),
                              ({"core.buffer": "20KB"}, 1, "f" * 64)])
        assert list(store.points("part")["status"]) == ["ok", "pending", "failed"]
        data = store.to_xarray("part", ["goodput_kbps_mean", "flows"])
    assert list(data["core.buffer"].values) == [3000.0, 10000.0, 20000.0]
    assert list(data["core.buffer_written"].values) == ["3KB", "10KB", "20KB"]
    goodput = data["goodput_kbps_mean"].sel(seed=1).values
    assert goodput[0] > 0 and np.isnan(goodput[1:]).all()
    assert data["flows"].sel(seed=1).values[0] == 10 and np.isnan(data["flows"].sel(seed=1).values[1:]).all()
