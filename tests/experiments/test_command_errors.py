"""The experiment commands on a user's mistakes and questions (issue 21): a bad axis value, a failed point, an
unreachable scheduler, an unknown id or metric, the cost of each catalogue id, a wide table into a file."""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

from pacesim.cli import app
from pacesim.papers import CATALOGUE
from pacesim.reproduce.catalogue import ids_of
from pacesim.reproduce.figure import scenarios_dir
from pacesim.papers import FIGURES
from pacesim.scenario import read_toml
from pacesim.store import Store
from pacesim.sweep import load_sweep, run_sweep

from .conftest import TINY

runner = CliRunner()


def sweep_file(tmp_path, axes: str, name: str = "s"):
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\nset = {TINY!r}\n'.replace("'", '"') + f"[axes]\n{axes}\n")
    return path


def test_a_bad_axis_value_fails_the_sweep_at_once_naming_axis_and_value(tmp_path):
    path = sweep_file(tmp_path, '"core.buffer" = ["5KB", "3kb"]')
    out = runner.invoke(app, ["sweep", str(path), "--results", str(tmp_path / "r"), "--quiet", "--workers", "1"])
    assert out.exit_code == 2, out.output
    assert "core.buffer='3kb'" in out.output and "nothing was run" in out.output and "Traceback" not in out.output
    with Store(tmp_path / "r", read_only=True) as store:
        assert store.sweeps().empty  # not even the valid point ran


def test_a_sweep_with_a_failed_point_exits_1(tmp_path):
    # A series of a flow the topology lacks is met only when the point runs (the sweep's check builds the
    # network, not the flows' senders).
    path = sweep_file(tmp_path, '"series.flows" = [[0], [99]]')
    path.write_text(path.read_text().replace('warmup=5s"]', 'warmup=5s", "series.flows=[0]", "series.interval=1s"]'))
    out = runner.invoke(app, ["sweep", str(path), "--results", str(tmp_path / "r"), "--quiet", "--workers", "1"])
    assert out.exit_code == 1, out.output
    assert "2 points, 0 already done, 2 run, 1 failed" in out.output and "no flow 99" in out.output


@pytest.mark.parametrize("command", ["sweep", "reproduce"])
def test_an_unreachable_scheduler_is_a_short_error(tmp_path, command):
    what = str(sweep_file(tmp_path, '"core.buffer" = ["5KB"]')) if command == "sweep" else "Q-tab2"
    out = runner.invoke(app, [command, what, "--results", str(tmp_path / "r"), "--scheduler", "tcp://127.0.0.1:1"])
    assert out.exit_code == 2
    assert "--scheduler tcp://127.0.0.1:1: cannot connect" in out.output and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) <= 2


def test_an_unknown_id_is_not_an_experiment_id_and_the_close_ones_are_named(monkeypatch):
    # Issue 34's outside review: `reproduce NOPE` said "'NOPE' cannot run yet", as if the id waited for a sweep.
    out = runner.invoke(app, ["reproduce", "NOPE"])
    said = " ".join(out.output.split())
    assert out.exit_code == 2 and said.startswith("error: 'NOPE' is not an experiment id; runnable: "), out.output
    listed = said.split("runnable: ")[1].split(" (see --list)")[0].split(", ")
    expect = [i for cid, _ in CATALOGUE for i in ids_of(cid) if i in FIGURES]
    assert listed == expect and sorted(listed) == sorted(FIGURES)
    for typed, close in (("E-fig99", "E-fig9"), ("efig3", "E-fig3")):
        out = runner.invoke(app, ["reproduce", typed])
        said = " ".join(out.output.split())
        assert out.exit_code == 2 and f"error: {typed!r} is not an experiment id; did you mean {close}" in said, said
        assert "cannot run yet" not in said and "runnable:" not in said
    # a catalogue id a figure of another id runs: that figure named
    out = runner.invoke(app, ["reproduce", "Q-fig19"])
    assert out.exit_code == 2 and "Q-fig19 is shown by another figure's runs: pacesim reproduce Q-tab3" in out.output
    # "cannot run yet" is for a catalogue id that nothing runs (none today: one made up)
    from pacesim.reproduce import catalogue

    rows = catalogue.status()
    monkeypatch.setattr(catalogue, "status", lambda: rows + [("E-fig98", "?", "does not run: no figure or model "
                                                                               "defines it")])
    out = runner.invoke(app, ["reproduce", "E-fig98"])
    said = " ".join(out.output.split())
    assert out.exit_code == 2 and said.startswith("error: 'E-fig98' cannot run yet: no figure or model defines it; "
                                                  "runnable: E-fig3, "), said


def test_a_file_given_as_results_is_named_as_results(tmp_path):
    # Issue 34's outside review: reproduce ID --results FILE said "--out FILE/reproduce/ID: cannot make the
    # directory", and --all "--tables FILE/reproduction: ...": options the user had not typed.
    afile = tmp_path / "afile"
    afile.write_text("x")
    for args in (["E-fig3", "--quick"], ["Q-fig9"], ["--all"], ["--table"], ["--list"]):
        out = runner.invoke(app, ["reproduce", *args, "--results", str(afile)])
        said = " ".join(out.output.split())
        assert out.exit_code == 2 and said == f"error: --results {afile}: is a file, not a results directory", said
    assert afile.read_text() == "x"


def row_of(output: str, cid: str) -> list:
    line = next(line for line in output.splitlines() if line.startswith(f"│ {cid} "))
    return [cell.strip() for cell in line.split("│")[1:-1]]


def test_list_shows_points_and_time_from_the_store(tmp_path):
    # Each id's points on the seeds its claims are judged on: the sweep file's, then the next ones up to 3
    # (no paper gives a count for these two). Q-tab2 run at its full size on seeds 1-3 (24 points of a 20 s
    # line, cheap) into a store: its points' recorded wall times are the estimate.
    sweep = load_sweep(scenarios_dir() / "Q-tab2.toml")
    sweep.seeds = [1, 2, 3]
    with Store(tmp_path) as store:
        run_sweep(sweep, store, progress=False)
        walls = store.points("Q-tab2")["wall_s"]
    out = runner.invoke(app, ["reproduce", "--list", "--results", str(tmp_path)], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    spec = read_toml(scenarios_dir() / "E-fig3.toml")
    e_fig3 = math.prod(len(v) for v in spec["axes"].values()) * max(3, len(spec["seeds"]))
    # E-fig3 never ran here: the cost model's time, by hand: 100 Mb/s for 400 s in 1040 B packets, 10 hops
    # a round trip (access, edge, core, edge, sink; and back), 67 ns a packet-hop (no fBm), every point.
    by_hand = e_fig3 * 100e6 * 400 / (8 * 1040) * 10 * 67e-9
    assert row_of(out.output, "E-fig3")[3:] == [str(e_fig3), f"{by_hand / 60:.0f} min (model)"]
    total = walls.sum()
    assert row_of(out.output, "Q-tab2")[3:] == ["24", f"{total:.0f} s" if total >= 1 else "under 1 s"]
    assert row_of(out.output, "E-fig10")[3:] == ["", ""]  # a model: nothing to run
    assert "CPU time of one engine thread" in " ".join(out.output.split())


def test_plot_of_an_unknown_metric_lists_the_metrics(tiny_store):
    store, _ = tiny_store
    out = runner.invoke(app, ["plot", "tiny", "--results", str(store.root), "--y", "nosuch"], env={"COLUMNS": "300"})
    assert out.exit_code == 2
    listed = out.output.split("metrics with values: ")[1].replace("\n", "").split(", ")
    assert {"goodput_kbps_mean", "aggregate_mbps", "core_loss_rate"} <= set(listed)
    assert not {"core.buffer", "seed", "status", "wall_s"} & set(listed)


def test_results_prints_whole_headers_into_a_file(tiny_store):
    store, _ = tiny_store
    out = runner.invoke(app, ["results", "tiny", "--results", str(store.root)], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    header = next(line for line in out.output.splitlines() if line.startswith("┃"))
    cells = [c.strip() for c in header.split("┃")[1:-1]]
    assert cells == ["core.buffer", "pacing.scheme", "seed", "status", "aggregate_mbps", "goodput_kbps_mean",
                     "core_loss_rate", "wall s"]


def test_table_refuses_a_results_directory_without_a_store(tmp_path):
    # A typo in --results made a new, empty store and rewrote the record's tables as "no full-size run".
    tables = tmp_path / "tables"
    out = runner.invoke(app, ["reproduce", "--table", "--results", str(tmp_path / "typo"), "--tables", str(tables)])
    assert out.exit_code == 2 and "no results store there" in out.output, out.output
    assert not (tmp_path / "typo").exists() and not tables.exists()


def test_list_takes_no_run_options_and_a_model_id_points_at_its_command(tmp_path):
    out = runner.invoke(app, ["reproduce", "--list", "--quick", "--results", str(tmp_path)])
    assert out.exit_code == 2 and "--list takes no" in out.output, out.output
    out = runner.invoke(app, ["reproduce", "E-fig10", "--results", str(tmp_path)])
    assert out.exit_code == 2 and "analytical model" in out.output and "pacesim model e-fig10" in out.output, out.output
