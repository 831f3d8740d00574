"""The results store's keys stay as they were.

A run's key hashes the engine's JSON of its scenario (`Scenario.to_engine`,
the flat `[tcp]` and `[pacing]` wire form the engine reads into its tagged
`TcpVariant` and `PacingScheme`) and the engine version. `data/store_keys.json`
holds one stored run of each kind (TCP variant, pacing scheme and host mode,
topology, queue, UDP, short flows: 51 kinds) from the paper-size store
(/work/res/full, 1,168 runs, keys written by main at a881c23), with its
scenario in human units as stored; each key must come out the same, or
every stored point would be run again."""

import json
from pathlib import Path

import pytest

from pacesim._core import run_json
from pacesim.scenario import parse_scenario
from pacesim.store import run_key

STORED = json.loads((Path(__file__).parent / "data" / "store_keys.json").read_text())


@pytest.mark.parametrize("run", STORED, ids=[r["key"][:8] for r in STORED])
def test_a_stored_runs_key_is_computed_again(run):
    engine = parse_scenario(run["scenario"]).to_engine()
    assert run_key(engine, run["engine_version"]) == run["key"]


def test_the_engine_reads_every_stored_kind_of_wire_form():
    # One of each TCP variant and pacing scheme, cut to a short run: the
    # flat form is accepted (no unknown or misplaced knob) and runs.
    kinds = {}
    for r in STORED:
        s = r["scenario"]
        kinds.setdefault((s["tcp"]["variant"], s["pacing"]["scheme"]), r)
    assert len(kinds) >= 8
    for r in kinds.values():
        s = dict(r["scenario"], duration="1s", warmup="0s")
        s["traffic"] = dict(s["traffic"], start=["0s", "0.5s"])
        engine = parse_scenario(s).to_engine()
        report = json.loads(run_json(json.dumps(engine), None, 1))
        assert report["conservation"]["created"] > 0
