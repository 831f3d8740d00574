"""The command line: results, plot, and reproduce (--list and one --quick figure)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import pacesim
from pacesim.cli import app
from pacesim.papers import CATALOGUE
from pacesim.reproduce.claims import Points
from pacesim.reproduce.figure import scenarios_dir
from pacesim.papers import FIGURES
from pacesim.store import Store
from pacesim.sweep import load_sweep

CATALOGUE_FILE = Path(__file__).resolve().parents[2] / "docs" / "experiments.md"
runner = CliRunner()


def test_results_lists_sweeps_and_points(tiny_store, tmp_path):
    store, _ = tiny_store
    out = runner.invoke(app, ["results", "--results", str(store.root)])
    assert out.exit_code == 0, out.output
    assert "tiny" in out.output
    out = runner.invoke(app, ["results", "tiny", "--results", str(store.root), "--csv", str(tmp_path / "t.csv")])
    assert out.exit_code == 0, out.output
    df = pd.read_csv(tmp_path / "t.csv")
    assert len(df) == 8 and {"core.buffer_bytes", "pacing.scheme", "seed", "goodput_kbps_mean"} <= set(df.columns)
    assert df["core.buffer_bytes"].dtype == float and "core.buffer" not in df  # no axis column of text in units
    assert list(df.sort_values(["core.buffer_bytes", "seed"])["core.buffer_written"]) == ["3KB"] * 4 + ["10KB"] * 4


def test_plot_writes_png_and_svg(tiny_store, tmp_path):
    store, _ = tiny_store
    stem = tmp_path / "goodput"
    out = runner.invoke(app, ["plot", "tiny", "--results", str(store.root), "--x", "core.buffer", "--y",
                              "goodput_kbps_mean", "--by", "pacing.scheme", "--where", "pacing.scheme=none,edge",
                              "--out", str(stem)])
    assert out.exit_code == 0, out.output
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert "<svg" in svg.read_text() and "Core link buffer (KB)" in svg.read_text()
    bad = runner.invoke(app, ["plot", "tiny", "--results", str(store.root), "--by", "pacing.delay"])
    assert bad.exit_code == 2 and "not an axis" in bad.output


def test_reproduce_list_names_every_catalogue_id():
    out = runner.invoke(app, ["reproduce", "--list"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    for cid, _ in CATALOGUE:
        assert cid in out.output
    assert "runs: pacesim reproduce E-fig3" in out.output and "model: pacesim model e-fig10" in out.output
    ids = re.findall(r"^\| ([A-Z]-[\w/]+) \|", CATALOGUE_FILE.read_text(), flags=re.M)  # the repository's copy
    assert ids == [cid for cid, _ in CATALOGUE]


@pytest.mark.parametrize("fig_id", ["E-fig11"])
def test_reproduce_quick_writes_csv_plots_and_report(tmp_path, fig_id):
    out_dir = tmp_path / "out"
    out = runner.invoke(app, ["reproduce", fig_id, "--quick", "--seeds", "2", "--workers", "2",
                              "--results", str(tmp_path / "results"), "--out", str(out_dir)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    df = pd.read_csv(out_dir / f"{fig_id}.csv")
    assert len(df) == 2 * 11 * 2 and (df["status"] == "ok").all()
    # each axis written in units has its number beside it (issue 34: "10KB" sorted before "3KB")
    assert sorted(set(df["core.buffer_bytes"])) == [5000.0, 50000.0] and df["core.buffer_bytes"].dtype == float
    assert (out_dir / f"{fig_id}.png").stat().st_size > 10_000 and (out_dir / f"{fig_id}.svg").exists()
    report = (out_dir / "report.md").read_text()
    assert report.startswith(f"# {fig_id}:")
    # a quick run carries no verdict (issue 34: it printed "2 of 8 reproduced" and excused the rest): its claims
    # with their numbers, the rule said once, no verdict column
    assert "carries no verdict" in report and "reproduced" not in report.replace("pacesim reproduce", "")
    for expect in ["5 KB: rises", "5 KB: saturates near d = 10 ms (concave)", "50 KB: falls with d"]:
        assert re.search(rf"^\| {fig_id}\.\d+ \| {re.escape(expect)} \|[^\n]*\|$", report, flags=re.M)
    assert "verdict |" not in report and "claims reproduced" not in out.output
    # a second call reuses every stored point
    again = runner.invoke(app, ["reproduce", fig_id, "--quick", "--seeds", "2", "--results", str(tmp_path / "results"),
                                "--out", str(out_dir)], env={"COLUMNS": "200"})
    assert again.exit_code == 0 and "0 points run, 44 reused" in again.output


@pytest.mark.parametrize("quick", [False, True])
def test_every_figure_expands_to_valid_scenarios(quick):
    for fig in FIGURES.values():
        bad = [p.error for p in fig.sweep(quick).points() if p.scenario is None]
        assert not bad, f"{fig.id}: {bad[0]}"


def test_short_flow_figures_make_users_of_the_flows_they_name():
    mixes = {p.axes["variant"]: p.scenario for p in FIGURES["A-fig17"].sweep(False).points()}
    assert {v: s.traffic.short.fraction for v, s in mixes.items()} == {
        "all short": 1.0, "1/4 long": 0.75, "1/2 long": 0.5, "all long": 0.0}
    assert all(s.traffic.short.shape == 1.5 and s.topology.tcp_hosts == 2000 for s in mixes.values())
    e6 = FIGURES["E-fig6"].sweep(False).points()[0].scenario
    assert (e6.traffic.short.fraction, e6.traffic.short.shape) == (1.0, 1.2)


def test_every_figure_has_its_sweep_file_and_every_sweep_file_a_figure():
    files = {p.stem for p in scenarios_dir().glob("[A-Z]*.toml")}  # scenarios are lower case
    assert files == set(FIGURES)
    for fid in FIGURES:
        sweep = load_sweep(scenarios_dir() / f"{fid}.toml")
        assert sweep.name == fid and sweep.reduced().name == f"{fid}-quick"


def test_every_claim_finds_the_points_it_names():
    """Claims name axis values ("5KB", "BIC, paced"); on points with every metric
    set (random values), each must reach a verdict rather than miss a point."""
    names = list(pacesim.run({"duration": "5s", "warmup": "1s", "topology": {"edges": 1, "hosts_per_edge": 2},
                              "traffic": {"start": ["0s", "1s"]}}).metrics)
    rng = np.random.default_rng(1)
    for fid, fig in FIGURES.items():
        rows = [{**dict(zip(names, rng.uniform(0.1, 1.0, len(names)))), **p.axes, "seed": p.seed, "status": "ok"}
                for p in fig.sweep(False).points()]
        tables = {}
        if "progress" in fig.table_names():  # each flow at its own rate, every 0.1 s
            tables["progress"] = pd.DataFrame([
                {**p.axes, "seed": p.seed, "t_s": t / 10, "flow": f, "bytes": int(t * 1e5 * (f + 1) * rng.uniform(1, 2))}
                for p in fig.sweep(False).points() for f in range(4) for t in range(101)])
        if "flows" in fig.table_names():
            tables["flows"] = pd.DataFrame([{**p.axes, "seed": p.seed, "flow": f, "mean_delay_ms": rng.uniform(40, 80),
                                             "base_rtt_ms": rng.uniform(60, 120)}
                                            for p in fig.sweep(False).points() for f in range(4)])
        if "series" in fig.table_names():  # every recorded link's arrivals, a packet every 10 ms for 30 s
            tables["series"] = pd.DataFrame([
                {**p.axes, "seed": p.seed, "time_s": t / 100, "entity": link, "series": "arrivals", "value": 1.0}
                for p in fig.sweep(False).points() for link in ("in", "core") for t in range(3000)])
        if "burstiness" in fig.table_names():  # CV at 5 ms x 2^k
            tables["burstiness"] = pd.DataFrame([{**p.axes, "seed": p.seed, "scale_us": 5000 * 2 ** k,
                                                  "beta": rng.uniform(0.1, 1.0)}
                                                 for p in fig.sweep(False).points() for k in range(11)])
        points = Points(pd.DataFrame(rows), fig.with_derived(tables))
        for claim in fig.claims:
            verdict, numbers = claim.evaluate(points)
            assert verdict != "not evaluated", f"{fid}: {claim.expect}: {numbers}"


def test_sweep_quick_runs_the_files_reduced_version(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('name = "s"\nset = ["topology.edges=1", "topology.hosts_per_edge=2", "duration=5s", "warmup=1s", '
                    "'traffic.start=[\"0s\", \"1s\"]']\n"
                    '[axes]\n"core.buffer" = ["5KB"]\n[quick]\nset = ["duration=3s"]\nseeds = [4, 5]\n')
    out = runner.invoke(app, ["sweep", str(path), "--quick", "--results", str(tmp_path / "r"), "--quiet"])
    assert out.exit_code == 0, out.output
    assert "s-quick: 2 points" in out.output
    path.write_text(path.read_text().replace("seeds = [4, 5]", "seeds = [4]\nworkers = 2"))
    bad = runner.invoke(app, ["sweep", str(path), "--results", str(tmp_path / "r")])
    assert bad.exit_code == 2 and "workers" in bad.output


def test_a_sweep_defined_otherwise_under_a_stored_name_is_refused_unless_redefined(tmp_path):
    """Review of issue 34: a second file (or the file edited) under a name the store holds silently made the
    name stand for the new definition. Refused, saying what differs, and the store's definition kept; with
    --redefine it runs, the shared point not run again; the same file again is no redefinition."""
    path, results = tmp_path / "s.toml", str(tmp_path / "r")
    path.write_text('name = "s"\nset = ["topology.edges=1", "topology.hosts_per_edge=2", "duration=2s", "warmup=1s", '
                    "'traffic.start=[\"0s\", \"1s\"]']\n"
                    '[axes]\n"core.buffer" = ["5KB"]\n')
    sweep = ["sweep", str(path), "--results", results, "--quiet", "--workers", "1"]
    assert "s: 1 points, 0 already done, 1 run" in runner.invoke(app, sweep).output
    assert "s: 1 points, 1 already done, 0 run" in runner.invoke(app, sweep).output
    path.write_text(path.read_text().replace('["5KB"]', '["5KB", "6KB"]'))
    out = runner.invoke(app, sweep)
    assert out.exit_code == 2 and "holds a sweep s defined otherwise (axis core.buffer: ['5KB'] -> ['5KB', '6KB'])" \
        in " ".join(out.output.split()), out.output
    with Store(results, read_only=True) as store:
        assert store.spec("s")["axes"] == {"core.buffer": ["5KB"]} and len(store.points("s")) == 1
    out = runner.invoke(app, sweep + ["--redefine"])
    assert out.exit_code == 0 and "s: 2 points, 1 already done, 1 run" in out.output, out.output
