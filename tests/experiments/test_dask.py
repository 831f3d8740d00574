"""The same sweep on a Dask LocalCluster gives the local result, point for point."""

from __future__ import annotations

import pandas as pd

from pacesim.store import Store
from pacesim.sweep import executor, run_sweep

from .conftest import tiny_sweep


def test_dask_local_cluster_equals_local_pool(tiny_store, tmp_path):
    local, _ = tiny_store
    with Store(tmp_path) as store, executor(workers=2, dask=True) as pool:
        run = run_sweep(tiny_sweep(), store, pool, progress=False)
        assert (run.ran, run.failed) == (8, 0)
        remote = store.points("tiny")
        ours = local.points("tiny")
        metrics = ["core.buffer", "pacing.scheme", "seed", "key", "status", "aggregate_mbps", "goodput_kbps_mean",
                   "core_loss_rate", "core_empty_prob", "goodput_kbps_paced", "goodput_kbps_unpaced", "pacer_delay_ms_mean"]
        pd.testing.assert_frame_equal(remote[metrics], ours[metrics])
        for key in ours["key"]:
            pd.testing.assert_frame_equal(store.table(key), local.table(key))
            a, b = store.report(key), local.report(key)
            assert a["links"] == b["links"] and a["pacers"] == b["pacers"] and a["conservation"] == b["conservation"]


def test_without_dask_the_flags_name_the_extra(monkeypatch):
    # Dask is an extra (pacesim[dask]): without it, --dask and --scheduler are a SweepError naming it.
    import sys

    import pytest

    from pacesim.sweep import SweepError

    monkeypatch.setitem(sys.modules, "distributed", None)  # an import of it raises ImportError
    for kwargs, flag in (({"dask": True}, "--dask"), ({"scheduler": "tcp://127.0.0.1:1"}, "--scheduler")):
        with pytest.raises(SweepError, match=rf"{flag} needs Dask.*pacesim\[dask\]"):
            with executor(workers=1, **kwargs):
                pass


def test_a_refused_dask_leaves_no_store(monkeypatch, tmp_path):
    """Issue 34 review: `sweep --dask` without Dask named the extra but had already created the store."""
    import sys

    from typer.testing import CliRunner

    from pacesim.cli import app
    from pacesim.reproduce.figure import scenarios_dir

    monkeypatch.setitem(sys.modules, "distributed", None)
    (tmp_path / "s.toml").write_text(f'name = "s"\nscenario = "{scenarios_dir() / "e-base.toml"}"\nseeds = [1]\n')
    r = CliRunner().invoke(app, ["sweep", str(tmp_path / "s.toml"), "--results", str(tmp_path / "store"), "--dask"])
    assert r.exit_code == 2 and "pacesim[dask]" in r.output, r.output
    assert not (tmp_path / "store").exists()
