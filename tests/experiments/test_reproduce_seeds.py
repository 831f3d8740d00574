"""`pacesim reproduce ID` settles every verdict over seeds (issue 31, section 3), judged on results stored by hand.

The store is filled before the command runs with one point per seed whose metric is written by hand (the engine's
report of one tiny run, its stored numbers replaced), so each verdict is known before the command judges it: the
command must reuse those seeds, run none, add seeds where a claim's seeds split, and call a claim still split at
10 seeds inconclusive, printing each seed's numbers.
"""

from __future__ import annotations

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

import pytest
from typer.testing import CliRunner

import pacesim
from pacesim.cli import app
from pacesim.panels import Panel
from pacesim import papers
from pacesim.reproduce.claims import Claim, Points
from pacesim.reproduce.figure import Figure
from pacesim.store import Store
from pacesim.sweep import load_sweep

from .conftest import TINY

runner = CliRunner()
FID = "T-seeds"


def _over(metric: str, bound: float):
    def check(p: Points):
        value = p.at(metric)
        return value > bound, f"{metric} {value:g} (paper: over {bound:g})"
    return check


@pytest.fixture
def hand_store(tmp_path, monkeypatch):
    """A sweep file with one seed, a figure of two claims on hand-written metrics, and a function storing each
    seed's point with the metrics given."""
    (tmp_path / f"{FID}.toml").write_text(f'name = "{FID}"\nseeds = [1]\nset = [' + ", ".join(f'"{s}"' for s in TINY)
                                          + ']\n[axes]\n"core.buffer" = ["5KB"]\n', encoding="utf-8")
    monkeypatch.setenv("PACESIM_SCENARIOS", str(tmp_path))
    fig = Figure(id=FID, caption="hand-made", setup="tiny E-base", panels=[Panel("core.buffer", "steady", [])],
                 claims=[Claim("steady over 100", "steady > 100", _over("steady", 100)),
                         Claim("wobbly over 100", "wobbly > 100", _over("wobbly", 100))])
    monkeypatch.setitem(papers.FIGURES, FID, fig)
    first = pacesim.run(load_sweep(tmp_path / f"{FID}.toml").points()[0].scenario)
    report, metrics = first.report, first.metrics
    results = tmp_path / "results"

    def store(values: dict) -> None:
        """values: seed -> (steady, wobbly), each seed's point stored with those two metrics written in."""
        sweep = load_sweep(tmp_path / f"{FID}.toml")
        sweep.seeds = sorted(values)
        with Store(results) as s:
            s.register_sweep(sweep.name, sweep.spec(), ((*sweep.axes_at(i), p.key)
                                                         for i, p in enumerate(sweep.points())))
            for p in sweep.points():
                result = pacesim.Result(report, p.scenario, 0.5)
                result.__dict__["metrics"] = {**metrics, **dict(zip(("steady", "wobbly"), values[p.seed]))}
                s.save_ok(p.key, result, "hand")
    return store, results, tmp_path


def _reproduce(results, out):
    return runner.invoke(app, ["reproduce", FID, "--results", str(results), "--out", str(out), "--workers", "1"],
                         env={"COLUMNS": "250"})


def test_seeds_that_agree_decide_on_three_stored_seeds_and_run_none(hand_store):
    store, results, tmp = hand_store
    store({1: (150, 120), 2: (160, 130), 3: (170, 125), 4: (10, 10)})  # seed 4 is never needed
    out = _reproduce(results, tmp / "out")
    assert out.exit_code == 0, out.output
    assert "0 points run, 3 reused" in out.output  # seeds 2 and 3 added from the store, 4 not
    assert out.output.count("reproduced on 3 of 3 seeds (1, 2, 3)") == 2
    assert "seeds 2, 3 added (2 claim(s) judged on too few seeds)" in out.output
    report = (tmp / "out" / "report.md").read_text()
    assert "seed 2: reproduced; steady 160 (paper: over 100)" in report  # each seed's margin
    assert "steady 160 (paper: over 100)" in report and "inconclusive" not in report


def test_a_claim_split_over_ten_stored_seeds_is_inconclusive_with_its_numbers(hand_store):
    """Seeds 1-10 by hand: steady always over 100; wobbly over it on odd seeds only (mean 110 over 100)."""
    store, results, tmp = hand_store
    store({s: (150 + s, 150 if s % 2 else 70) for s in range(1, 11)})
    out = _reproduce(results, tmp / "out")
    assert out.exit_code == 0, out.output
    assert "0 points run, 10 reused" in out.output
    assert "seeds 4, 5 added (split on T-seeds.2)" in out.output and "seeds 10 added" in out.output
    assert "inconclusive: the seeds disagree" in out.output and "reproduced on 5 of 10 seeds" in out.output
    assert "wobbly 110 (paper: over 100)" in out.output  # the mean's margin, inside the seeds' spread
    assert "seed 2: not reproduced; wobbly 70 (paper: over 100)" in out.output
    assert "seed 9: reproduced; wobbly 150 (paper: over 100)" in out.output
    report = (tmp / "out" / "report.md").read_text()
    assert "1 of 2 reproduced; 1 inconclusive: the seeds disagree" in report
    assert "reproduced on 10 of 10 seeds" in report  # steady: decided, on every seed the run holds


def test_one_seed_against_the_mean_keeps_the_claim_split_to_ten_seeds(hand_store):
    """Seed 2 alone misses (90 against the mean's 135): the seeds added after it all agree with the mean, but the
    split stays, so at 10 seeds the claim is inconclusive (9 of 10), never the mean's verdict."""
    store, results, tmp = hand_store
    store({s: (150, 90 if s == 2 else 140) for s in range(1, 11)})
    out = _reproduce(results, tmp / "out")
    assert out.exit_code == 0, out.output
    assert "reproduced on 9 of 10 seeds" in out.output and "inconclusive: the seeds disagree" in out.output


def test_the_quick_help_names_the_seeds_the_sweep_files_give():
    """`reproduce --help` said every quick run had seeds 1-3 while Q-tab2's quick run has seed 1 (issue 34
    review): the ids it names as one-seed are those whose [quick] table (else whose file) sets seeds [1], and
    every other quick run has seeds 1-3, read from the sweep files themselves."""
    from pacesim.experiment_commands import QUICK_ONE_SEED
    from pacesim.reproduce.figure import scenarios_dir

    quick = {}
    for path in sorted(scenarios_dir().glob("*.toml")):
        sweep = tomllib.loads(path.read_text())
        if "quick" in sweep:
            quick[path.stem] = sweep["quick"].get("seeds", sweep.get("seeds"))
    assert len(quick) > 40
    one = {fid for fid, seeds in quick.items() if seeds == [1]}
    assert set(QUICK_ONE_SEED.replace(" and ", ", ").split(", ")) == one
    assert all(seeds == [1, 2, 3] for fid, seeds in quick.items() if fid not in one)
    text = " ".join(runner.invoke(app, ["reproduce", "--help"], terminal_width=200).output.split())
    assert f"1-3, but seed 1 for {QUICK_ONE_SEED}." in text
