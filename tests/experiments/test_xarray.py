"""`Store.to_xarray` (issue 34): a sweep as a Dataset whose dimensions are its axes and the seed, an axis
written in units as its number in that unit, each variable the stored metric of its point."""

import numpy as np
import pytest

pytest.importorskip("xarray")


def test_a_sweep_is_a_dataset_over_its_axes_and_seeds(tiny_store):
    store, _ = tiny_store
    data = store.to_xarray("tiny")
    assert dict(data.sizes) == {"core.buffer": 2, "pacing.scheme": 2, "seed": 2}
    # "3KB" and "10KB" in bytes, in numeric order (as text, "10KB" sorts first), their written form kept.
    assert list(data["core.buffer"].values) == [3000.0, 10000.0]
    assert data["core.buffer"].attrs["units"] == "B"
    assert list(data["core.buffer_written"].values) == ["3KB", "10KB"]
    points = store.points("tiny")
    for row in points.to_dict("records"):
        at = data.sel({"core.buffer": {"3KB": 3000.0, "10KB": 10000.0}[row["core.buffer"]],
                       "pacing.scheme": row["pacing.scheme"], "seed": row["seed"]})
        assert at["goodput_kbps_mean"].item() == row["goodput_kbps_mean"]
        assert at["core_loss_rate"].item() == row["core_loss_rate"]
    # Means over seeds are one call away, as xarray users expect.
    mean = data["goodput_kbps_mean"].mean("seed").sel({"core.buffer": 3000.0, "pacing.scheme": "edge"}).item()
    edge = points[(points["core.buffer"] == "3KB") & (points["pacing.scheme"] == "edge")]
    assert np.isclose(mean, edge["goodput_kbps_mean"].mean())


def test_an_unknown_metric_is_named(tiny_store):
    store, _ = tiny_store
    with pytest.raises(KeyError, match="no numeric metric 'goodput'"):
        store.to_xarray("tiny", ["goodput"])
