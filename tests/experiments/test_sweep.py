"""Sweeps run every point once, resume without rerunning, and record failures."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import pacesim
from pacesim.scenario import ScenarioError
from pacesim.store import DamagedRun, Store
from pacesim.sweep import Sweep, SweepError, load_sweep, run_sweep

from .conftest import TINY, tiny_sweep


def test_every_point_runs_and_matches_a_single_run(tiny_store):
    store, first = tiny_store
    assert (first.points, first.skipped, first.ran, first.failed) == (8, 0, 8, 0)
    df = store.points("tiny")
    assert list(df.columns[:4]) == ["core.buffer", "core.buffer_written", "pacing.scheme", "seed"]
    assert (df["status"] == "ok").all()
    row = df[(df["core.buffer"] == 10_000) & (df["pacing.scheme"] == "edge") & (df["seed"] == 2)].iloc[0]
    assert row["core.buffer_written"] == "10KB"
    single = pacesim.run(pacesim.apply_overrides(pacesim.Scenario(), TINY + ["core.buffer=10KB", "pacing.scheme=edge"]), seed=2)
    assert row["goodput_kbps_mean"] == single.summary["goodput_kbps_mean"]
    assert row["aggregate_mbps"] == single.summary["aggregate_mbps"]
    pd.testing.assert_frame_equal(store.table(row["key"]), single.flows)
    stored = store.report(row["key"])
    assert stored["scenario"]["core"]["buffer"] == "10KB" and stored["pacers"]


def test_rerun_skips_finished_points(tiny_store, pool):
    store, _ = tiny_store
    before = store.points("tiny")[["key", "finished_at"]]
    again = run_sweep(tiny_sweep(), store, pool, progress=False)
    assert (again.skipped, again.ran) == (8, 0)
    pd.testing.assert_frame_equal(store.points("tiny")[["key", "finished_at"]], before)
    # a wider sweep reuses the shared points and runs only the new ones
    wider = run_sweep(tiny_sweep("wider", **{"core.buffer": ["3KB", "10KB", "20KB"], "pacing.scheme": ["none", "edge"]}),
                      store, pool, progress=False)
    assert (wider.points, wider.skipped, wider.ran) == (12, 8, 4)
    assert set(store.sweeps()["sweep"]) >= {"tiny", "wider"}


def test_failed_points_are_recorded_and_the_sweep_goes_on(tiny_store, pool):
    # A series of a flow the topology does not have fails only when the point runs: the sweep's check builds
    # each network (as `pacesim run` does before it runs), not the flows' senders, where the run meets it.
    store, _ = tiny_store
    sweep = Sweep(name="failing", axes={"core.buffer": ["5KB"], "series.flows": [[0], [99]]},
                  seeds=[1, 2], set=TINY + ["series.flows=[0]", "series.interval=100ms"])
    run = run_sweep(sweep, store, pool, progress=False)
    df = store.points("failing")
    assert run.failed == 2 and (df["status"] == "failed").sum() == 2
    ok = df[df["status"] == "ok"]
    assert len(ok) == 2 and all(v == '[0]' for v in ok["series.flows"])  # a list axis: its JSON text
    assert df.loc[df["status"] == "failed", "error"].str.contains("no flow 99").all()
    assert store.sweeps().set_index("sweep").loc["failing", ["ok", "failed", "pending"]].tolist() == [2, 2, 0]


def test_an_invalid_point_stops_the_sweep_before_anything_runs(tiny_store, pool):
    store, _ = tiny_store
    sweep = Sweep(name="invalid", axes={"core.buffer": ["5KB", "-1KB"], "pacing.scheme": ["none", "edge"]},
                  seeds=[1, 2], set=TINY)
    with pytest.raises(SweepError) as e:
        run_sweep(sweep, store, pool, progress=False)
    # Named once per combination of axis values (not per seed), with the field and why.
    assert "2 combination(s)" in str(e.value)
    assert "core.buffer='-1KB', pacing.scheme='none': core.buffer" in str(e.value) and "negative" in str(e.value)
    assert "invalid" not in set(store.sweeps()["sweep"])


def test_flows_axis_and_scale():
    sweep = Sweep(name="f", axes={"flows": [20, 30]}, set=TINY, scale=0.5)
    a, b = sweep.points()
    assert a.scenario.topology.hosts_per_edge == 5 and a.scenario.core.rate == 50_000_000
    assert "hosts_per_edge: 15 x scale 0.5 is not a whole number" in b.error


def test_sweep_file(tmp_path):
    (tmp_path / "base.toml").write_text('duration = "20s"\nwarmup = "5s"\n[topology]\nedges = 2\nhosts_per_edge = 5\n')
    (tmp_path / "s.toml").write_text('name = "f"\nscenario = "base.toml"\nseeds = [3]\n[axes]\n"pacing.delay" = ["1ms", "5ms"]\n')
    sweep = load_sweep(tmp_path / "s.toml")
    assert [p.scenario.pacing.delay for p in sweep.points()] == [1_000_000, 5_000_000]
    assert {p.seed for p in sweep.points()} == {3}
    (tmp_path / "bad.toml").write_text('[axes]\n"core.bufer" = ["5KB"]\n')
    with pytest.raises(SweepError, match="core.bufer"):
        load_sweep(tmp_path / "bad.toml")
    assert json.dumps(sweep.spec())


def test_variants_are_named_override_sets_on_their_own_axis():
    variants = {"plain": ["pacing.scheme=none"], "qlbp-20": ["pacing.scheme=qlbp", "pacing.q_max=20"]}
    sweep = Sweep(name="v", axes={"variant": ["plain", "qlbp-20"], "core.buffer": ["3KB", "5KB"]},
                  variants=variants, set=TINY)
    points = sweep.points()
    assert [(p.axes["variant"], p.scenario.pacing.scheme, p.scenario.pacing.q_max) for p in points[::2]] == \
        [("plain", "none", 40), ("qlbp-20", "qlbp", 20)]
    assert points[1].scenario.core.buffer == 5000
    with pytest.raises(SweepError, match="not defined under"):
        Sweep(name="v", axes={"variant": ["plain", "nope"]}, variants=variants)
    with pytest.raises(SweepError, match=r"^variants.'bad': pacing.q_mx: unknown key 'q_mx'"):  # named (review33h D5)
        Sweep(name="v", axes={"variant": ["bad"]}, variants={"bad": ["pacing.q_mx=3"]})


def test_a_point_whose_table_file_was_deleted_is_run_again(tmp_path, pool):
    with Store(tmp_path) as store:
        sweep = tiny_sweep("deleted", **{"core.buffer": ["3KB", "10KB"]})
        assert run_sweep(sweep, store, pool, progress=False).ran == 4
        key = store.points("deleted")["key"].iloc[1]
        before = store.table(key)
        (tmp_path / store.db.execute("SELECT path FROM run_tables WHERE key = ? AND name = 'flows'",
                                     (key,)).fetchone()[0]).unlink()
        assert key not in store.finished(store.points("deleted")["key"])
        with pytest.warns(DamagedRun, match=f"seed 2: tables/flows/{key[:2]}/{key}.parquet is missing; running it again"):
            again = run_sweep(sweep, store, pool, progress=False)
        assert (again.skipped, again.ran, again.failed) == (3, 1, 0)
        pd.testing.assert_frame_equal(store.table(key), before)
        assert run_sweep(sweep, store, pool, progress=False).ran == 0


def _every_point_whole(sweep: Sweep) -> list:
    """Each combination of `sweep` made whole (`Sweep._keyed`): (why invalid or None, its run keys)."""
    out = []
    for c in range(sweep.size // len(sweep.seeds)):
        _, made, keys = sweep._keyed(c)
        out.append((str(made) if isinstance(made, ScenarioError) else None, keys))
    return out


def test_points_checked_from_their_axes_values_have_the_keys_and_verdicts_of_points_made_whole(monkeypatch):
    # Issue 33's fourth review: a 10^6-point sweep was checked at ~170 points/s, each combination made whole
    # (pydantic's validation of the whole scenario). Where each axis value assigns keys no other axis changes,
    # a combination is checked from its values' changes (sweep.check._Factors): same keys, same refusals.
    from pacesim.sweep import check
    from pacesim.sweep.progress import bar

    whole_made = []
    keyed = Sweep._keyed
    monkeypatch.setattr(Sweep, "_keyed", lambda self, c, engine=True: whole_made.append(c) or keyed(self, c, engine))
    sweep = Sweep(name="f", axes={"core.buffer": ["3KB", "5KB", "10KB"], "tcp.window": [20, 64],
                                  "variant": ["plain", "paced"]},
                  variants={"plain": ["pacing.scheme=none"], "paced": ["pacing.scheme=edge", "pacing.delay=2ms"]},
                  seeds=[1, 2], set=TINY)
    assert check._Factors.of(sweep) is not None
    keys = check.check_points(sweep, bar(False))
    assert whole_made == [0, 11]  # the first and the last combination made whole too, and compared
    assert [keys[16 * i:16 * i + 16].hex() for i in range(sweep.size)] == \
        [k for _, each in _every_point_whole(sweep) for k in each]
    # A table left out of the base made by an axis (burstiness), a key of the scenario's top (duration).
    tables = Sweep(name="t", axes={"core.buffer": ["3KB", "5KB"], "burstiness.link": ["core", "core.rev"],
                                   "duration": ["20s", "30s"]}, set=TINY)
    assert check._Factors.of(tables) is not None
    assert check.check_points(tables, bar(False)).hex() == \
        "".join(k for _, each in _every_point_whole(tables) for k in each)
    # A combination of values valid alone but not together (warmup past duration) is refused as when made whole.
    joint = Sweep(name="j", axes={"warmup": ["5s", "15s"], "duration": ["12s", "20s"]}, set=TINY)
    with pytest.raises(SweepError) as fast:
        check.check_points(joint, bar(False))
    assert "warmup='15s', duration='12s': warmup: " in str(fast.value) and "1 combination(s)" in str(fast.value)
    monkeypatch.setattr(check._Factors, "of", classmethod(lambda cls, sweep: None))
    with pytest.raises(SweepError) as whole:
        check.check_points(joint, bar(False))
    assert str(fast.value) == str(whole.value)


def test_points_whose_axes_interact_are_made_whole():
    from pacesim.sweep.check import _Factors

    assert _Factors.of(Sweep(name="a", axes={"flows": [4, 8]}, set=TINY)) is None  # hosts from flows and edges
    assert _Factors.of(Sweep(name="b", axes={"core.buffer": ["3KB", "5KB"]}, set=TINY, scale=0.5)) is None
    with pytest.raises(SweepError, match="axis 'core.buffer' and variants.'v' both set 'core.buffer'"):
        Sweep(name="c", axes={"core.buffer": ["3KB", "5KB"], "variant": ["v"]}, variants={"v": ["core.buffer=8KB"]},
              set=TINY)  # refused since review-hostile33k M4: the axis's value ran under the variant's name
    assert _Factors.of(Sweep(name="d", axes={"core.buffer": ["3KB"], "core.delay": ["1ms", "2ms"]}, set=TINY))
