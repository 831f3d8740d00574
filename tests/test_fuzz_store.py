"""A fixed-budget run of the store and sweep harness (tests/support/fuzz_store.py, run at length by
bench/fuzz/hostile_store.py; issue 33): damaged stores, full and read-only disks and absurd sweep files, the
same every time (hypothesis derandomized), must meet only errors naming what is wrong, stores repaired by
their rerun, damage that changed nothing, or sound sweeps; and the harness's classes are checked on outcomes
made to order."""

from __future__ import annotations

import json
import sqlite3

import pytest

from support import fuzz_store as hostile_store
from support.fuzzing import fuzz

CASES = 60


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    h = hostile_store.Harness(tmp_path_factory.mktemp("store-fuzz"))
    yield h
    h.close()


def test_hostile_stores_and_sweeps_meet_clean_errors_and_repairs_only(harness):
    fuzz(harness, hostile_store.CASES, CASES)
    assert sum(harness.counts.values()) == CASES
    defects = {c: harness.counts[c] for c in hostile_store.DEFECTS if harness.counts[c]}
    assert not defects, json.dumps(harness.examples, indent=1, ensure_ascii=False)
    assert set(harness.by_kind) == {"damage", "disk", "sweep"}
    assert harness.counts["repaired"] >= CASES // 10  # damage is done, found and repaired, not only refused


def _damage(harness, tmp_path, *edits) -> tuple:
    case = hostile_store.Case("damage", edits=list(edits))
    return hostile_store.damage_outcome(case, harness.pristine, tmp_path)


def test_an_sql_edit_after_a_flip_that_makes_sqlites_message_no_utf8(tmp_path):
    """A flipped bit in the schema's text can make SQLite's own error message bytes Python cannot decode
    (seed 7001 of hostile_store.py met it as the harness's own traceback): the SQL edit then changes nothing,
    and the case goes on to what pacesim makes of the store."""
    con = sqlite3.connect(tmp_path / "pacesim.sqlite")
    con.execute("CREATE TABLE runs (metrics TEXT)")
    con.execute("INSERT INTO runs VALUES ('{}')")
    con.execute("PRAGMA writable_schema = ON")  # the schema's text ends in a lone continuation byte
    con.execute("UPDATE sqlite_master SET sql = 'CREATE TABLE runs (metrics TEXT) x' || CAST(x'd5' AS TEXT)")
    con.commit()
    con.close()
    pick = hostile_store.SQL_EDITS.index(("runs", "metrics"))
    assert hostile_store._sql_edit(tmp_path, pick, 0.5) == "nothing to change: SQLite's message is not UTF-8"


def test_the_classes_are_told_apart(harness, tmp_path, monkeypatch):
    assert _damage(harness, tmp_path / "a", ("flip", "table", 3, 0.5, 1))[0] == "repaired"
    assert _damage(harness, tmp_path / "b", ("delete", "db", 0, 0.0, 1))[0] == "repaired"  # a new store, all rerun
    assert _damage(harness, tmp_path / "c", ("cut", "db", 0, 0.5, 1))[0] == "error names it"
    sweep = hostile_store.Case("sweep", sweep={"name": "../x", "set": hostile_store.TINY[:5]})
    (tmp_path / "d").mkdir()
    assert hostile_store.sweep_outcome(sweep, tmp_path / "d")[0] == "error names it"
    # With the checks the fixes added taken away, the harness sees what they prevent.
    monkeypatch.setattr("pacesim.sweep.definition.plain_name", lambda name: None)
    assert hostile_store.sweep_outcome(sweep, tmp_path / "d")[0] == "nonsense"
    # A run's checksum set NULL, then a digit of its metrics: taken for a row from before checksums, this
    # was summed again as it stood.
    null = hostile_store.SQL_EDITS.index(("runs", "sha256"))
    assert _damage(harness, tmp_path / "g", ("sql", "db", null, 0.5, 1), ("sql", "db", 0, 0.5, 1))[0] == "repaired"
    monkeypatch.setattr("pacesim.store._run_damage", lambda row, tables, digest, legacy: None)
    cls, detail = _damage(harness, tmp_path / "e", ("sql", "table", 0, 0.5, 1))  # a digit of a run's metrics
    assert cls == "silent damage" and "reads" in detail, detail


def test_a_disk_that_fills_mid_sweep_is_an_error_then_repaired(harness, tmp_path):
    (tmp_path / "f").mkdir()
    cls, detail = hostile_store.disk_outcome(hostile_store.Case("disk", disk=("full", 1)), harness.pristine,
                                             tmp_path / "f", can_mount=False)  # the mocked disk: after one run
    assert cls == "repaired" and "the disk is full" in detail, detail
