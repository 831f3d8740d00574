"""The engine reads a scenario once (issue 36): `_core.validate_json` returns the scenario it read and checked,
which `describe_json` and `run_json` take in place of its JSON; a scenario made by the front is described and
run as the engine read it then, and a sweep has the engine read each combination once before it runs any."""

from __future__ import annotations

import json

import pytest

import pacesim
from pacesim import Scenario, _core, apply_overrides, schema, sweep, topology
from pacesim.sweep.check import check_points
from pacesim.sweep.progress import bar

TINY = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=3s", "warmup=1s", 'traffic.start=["0s", "1s"]']


@pytest.fixture
def reads(monkeypatch):
    """Every scenario the engine reads from JSON, as (function, JSON text), in order."""
    seen = []
    for name in ("validate_json", "describe_json", "run_json"):
        def read(scenario, *args, _f=getattr(_core, name), _name=name, **kwargs):
            if isinstance(scenario, str):
                seen.append((_name, scenario))
            return _f(scenario, *args, **kwargs)
        monkeypatch.setattr(_core, name, read)
    monkeypatch.setattr(schema, "_checked", {})
    return seen


def test_what_the_engine_read_runs_and_describes_as_its_json_does():
    text = json.dumps(apply_overrides(Scenario(), TINY).to_engine())
    checked = _core.validate_json(text)
    assert isinstance(checked, _core.Checked)
    assert _core.run_json(checked) == _core.run_json(text)
    assert _core.describe_json(checked, 2) == _core.describe_json(text, 2)


def test_a_scenario_is_read_once_to_be_made_described_and_run(reads):
    base = Scenario()
    del reads[:]
    scenario = apply_overrides(base, TINY)
    assert reads == [("validate_json", json.dumps(scenario.to_engine()))]
    topology.describe(scenario, 1)
    pacesim.run(scenario, threads=1)
    assert len(reads) == 1
    # Changed after it was made (another seed): read again, once, to run.
    pacesim.run(scenario.model_copy(update={"seed": 2}), threads=1)
    assert [name for name, _ in reads] == ["validate_json", "validate_json"]


def test_an_invalid_scenario_handed_past_the_front_is_still_refused_by_the_run(reads):
    scenario = apply_overrides(Scenario(), TINY).model_copy(update={"warmup": 4_000_000_000})
    with pytest.raises(pacesim.ScenarioError) as e:
        pacesim.run(scenario, threads=1)
    assert (e.value.field, e.value.message) == ("warmup", "4s must be before the end of the run (duration 3s)")


def test_a_sweep_has_the_engine_read_each_combination_once_before_running(tmp_path, reads):
    base = tmp_path / "tiny.toml"
    base.write_text(apply_overrides(Scenario(), TINY).to_toml())
    (tmp_path / "s.toml").write_text(
        'scenario = "tiny.toml"\nseeds = [1, 2]\n[axes]\n"core.buffer" = ["5KB", "10KB", "20KB"]\n'
        '"pacing.scheme" = ["none", "host"]\n')
    s = sweep.load_sweep(tmp_path / "s.toml")
    made = len(reads)  # the base, `set` and each axis value alone, as the sweep is made
    keys = check_points(s, bar(False))
    assert len(keys) == 16 * s.size
    # Six combinations, each read once (as its JSON, or its network built). The first and the last are made
    # whole too, to compare, as the same JSON text: not read again (review36 D7: read twice, the network built
    # twice).
    assert len(reads) - made == 6
    assert len({text for _, text in reads[made:]}) == 6
    # A point to run is made without the engine: the worker's run reads it.
    before = len(reads)
    for i in range(s.size):
        s.point(i, engine=False)
    assert len(reads) == before
