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
import os
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


def test_a_trace_file_is_keyed_by_its_content_not_its_name(tmp_path):
    # The same trace at two paths (a package installed elsewhere) is one run; an edited trace is another.
    frames = "0 0.00 I 12000\n1 0.04 P 3000\n"
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "trace.txt").write_text(frames)

    def key(directory):
        udp = {"kind": "trace", "size": "200B", "trace": {"file": str(tmp_path / directory / "trace.txt"),
                                                         "columns": ["frame", "time_s", "type", "bytes"]}}
        return run_key(parse_scenario({"duration": "20s", "warmup": "0s", "traffic": {"udp": [udp]}}).to_engine(), "0.3.0")

    assert key("a") == key("b")
    (tmp_path / "b" / "trace.txt").write_text(frames.replace("3000", "3001"))
    assert key("a") != key("b")
    # Digests are remembered by size and modification time: an edit of the same size within the file system's
    # clock tick is still seen (a file modified in the last 2 s is hashed again); an old one keys as before.
    (tmp_path / "b" / "trace.txt").write_text(frames.replace("3000", "3002"))
    edited = key("b")
    assert edited != key("a") and edited == key("b")
    os.utime(tmp_path / "b" / "trace.txt", ns=(10**18, 10**18))
    assert key("b") == edited and key("b") == edited
