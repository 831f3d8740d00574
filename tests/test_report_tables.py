"""One view of each table and one set of derived numbers: a run's `Result` and
the results store's copy of it give equal frames and equal metrics, a
transfer's goodput is its bytes over its completion time, and the one Hurst
fit in Python (`metrics.hurst_from`) is the engine's least-squares slope."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import pacesim
from pacesim.metrics import hurst_from
from pacesim.report_tables import TABLES, goodput_kbps, rows, view
from pacesim.store import Store, run_key

# Short flows (transfers), progress, delay, burstiness (1 ms bins: 12 scales to 2 s) and series in one run.
EVERYTHING = ["topology.edges=2", "topology.hosts_per_edge=5", "duration=20s", "warmup=5s", "core.buffer=5KB",
              "traffic.short.fraction=0.5", "traffic.short.mean_size=50KB", "progress.interval=1s",
              'delay.class="data"', "burstiness.bin=1ms", "burstiness.scales=12", "series.flows=[0, 1]",
              'series.links=["core"]']


@pytest.fixture(scope="module")
def run() -> pacesim.Result:
    return pacesim.run("e-base", set=EVERYTHING, threads=1)


def test_every_table_is_measured(run):
    assert len(run.transfers) > 0 and len(run.flows) == 10
    for name in TABLES:
        assert len(getattr(run, name)) > 0, name


def test_the_store_loads_back_the_results_frames_and_metrics(run, tmp_path):
    key = run_key(run.scenario.to_engine(), run.engine_version)
    with Store(tmp_path) as store:
        store.register_sweep("one", {"axes": {"core.buffer": ["5KB"]}}, [({"core.buffer": "5KB"}, run.seed, key)])
        store.save_ok(key, run, "here")
    with Store(tmp_path, read_only=True) as store:
        for name in TABLES:
            pd.testing.assert_frame_equal(store.table(key, name), getattr(run, name), obj=name)
        pd.testing.assert_frame_equal(store.links(key), run.links)
        point = store.points("one").iloc[0]
        # JSON's floats round-trip exactly: every stored metric is the live run's, one it did not measure NaN.
        metrics = json.loads(json.dumps(run.metrics))
        measured = {k: v for k, v in metrics.items() if v is not None}
        assert {k: point[k] for k in measured} == measured and len(measured) < len(metrics)
        assert all(pd.isna(point[k]) and isinstance(point[k], float) for k in metrics.keys() - measured)
        # A sweep's rows stack the same views, the index back as a column.
        stacked = store.rows("one", "flows")
        expected = run.flows.reset_index().assign(**{"core.buffer": 5000.0, "core.buffer_written": "5KB",
                                                      "seed": run.seed})
        pd.testing.assert_frame_equal(stacked, expected)
        assert stacked.attrs["units"] == {"core.buffer": "B"}


def test_an_unmeasured_table_is_none_live_and_empty_with_its_columns_as_rows():
    report = {"burstiness": None, "delay": None}
    assert list(rows(report, "burstiness").columns) == ["scale_us", "beta"]
    assert list(rows(report, "delay").columns) == ["delay_ms", "fraction"]
    assert view("burstiness", rows(report, "burstiness")).index.name == "scale_us"


def test_transfer_goodput_is_bytes_over_completion_time():
    # 100 KB in 2 s: 800,000 bits / 2 s = 400 Kb/s; 25 KB in 0.5 s: 400 Kb/s too; 3 KB in 0.1 s: 240 Kb/s.
    t = view("transfers", pd.DataFrame({"flow": [1, 3, 5], "start_s": [10.0, 11.0, 12.0],
                                        "bytes": [100_000, 25_000, 3_000], "fct_s": [2.0, 0.5, 0.1]}))
    assert t["goodput_kbps"].tolist() == pytest.approx([400.0, 400.0, 240.0])
    assert goodput_kbps(100_000, 2.0) == pytest.approx(400.0)


def test_the_python_fit_over_every_scale_is_the_engines_hurst(run):
    b = run.report["burstiness"]
    assert hurst_from(b, 0.0) == pytest.approx(b["hurst"], abs=1e-9)
    # From 1 ms on: the stored hurst_1ms, over the 12 scales 1 ms to 2 s.
    assert run.metrics["hurst_1ms"] == hurst_from(b, 1000.0)
    assert 0 < run.metrics["hurst_1ms"] < 1.5


def test_the_hurst_fit_by_hand():
    # beta = s^(H-1) exactly, H = 0.8: the slope of log beta on log s is -0.2.
    scales = [1000, 2000, 4000, 8000, 16000]
    b = {"scale_us": [1, 10, 100] + scales, "beta": [9.0, 5.0, 2.0] + [s ** -0.2 for s in scales]}
    assert hurst_from(b, 1000.0) == pytest.approx(0.8, abs=1e-12)
    assert hurst_from(b, 8000.0) is None  # two scales only


def test_axes_written_in_units_get_numeric_columns_that_sort_as_numbers():
    """Issue 34: axis values are stored as written, so pandas sorted 10KB, 20KB, 3KB. In a CSV (no column
    metadata) such an axis is a number whose column names its unit, as written beside it in `_written`, and
    no column of the bare name holds text (review of issue 34: `core.buffer` still sorted as text)."""
    import pandas as pd

    from pacesim.report_tables import axis_numbers

    points = pd.DataFrame({"core.buffer": ["10KB", "20KB", "3KB", "64KiB"], "pacing.delay": ["1ms", "10ms", "2s", "0s"],
                           "topology.access_rate": ["8Mbps", "1Gbps", "100Kbps", "10Mbps"],
                           "pacing.scheme": ["none", "edge", "host", "qlbp"], "topology.tcp_hosts": [10, 20, 3, 1],
                           "mixed": ["5KB", "1ms", "x", "2s"], "seed": [1, 1, 1, 1]})
    assert list(points.sort_values("core.buffer")["core.buffer"]) == ["10KB", "20KB", "3KB", "64KiB"]  # as text
    f = axis_numbers(points, ["core.buffer", "pacing.delay", "topology.access_rate", "pacing.scheme",
                              "topology.tcp_hosts", "mixed"])
    assert list(f.sort_values("core.buffer_bytes")["core.buffer_written"]) == ["3KB", "10KB", "20KB", "64KiB"]
    assert list(f["core.buffer_bytes"]) == [10_000, 20_000, 3_000, 65_536]
    assert list(f["pacing.delay_s"]) == [0.001, 0.01, 2.0, 0.0]
    assert list(f["topology.access_rate_bps"]) == [8e6, 1e9, 1e5, 1e7]
    assert f.attrs["units"] == {"core.buffer_bytes": "B", "pacing.delay_s": "s", "topology.access_rate_bps": "bit/s"}
    assert list(f.columns) == ["core.buffer_bytes", "core.buffer_written", "pacing.delay_s", "pacing.delay_written",
                               "topology.access_rate_bps", "topology.access_rate_written", "pacing.scheme",
                               "topology.tcp_hosts", "mixed", "seed"]  # in its axis's place; none for the rest
