"""A metric over nothing is missing, not 0 (review of issue 34): the engine's report gives a mean over no
flows, no short transfers or no arrivals as 0 ("0 if none", crates/pacesim-core/src/report.rs) and a sum
over no flows as -0.0; `metrics.measured` makes them None where Python reads them (a live run's `metrics`
and `summary`, a sweep's stored points, old runs included), so that `plot` draws no 0 Kb/s line and
`results` prints no "-0"."""

from __future__ import annotations

import json
import math

from typer.testing import CliRunner

from pacesim.cli import app
from pacesim.metrics import measured
from pacesim.store import Store
from pacesim.sweep import Sweep, load_sweep, run_sweep
from pacesim.scenario import PACKAGED

runner = CliRunner()


def cbr_only() -> Sweep:
    """One point of paper Q's Table II at its quick size: a CBR source through a QLBP pacer, no TCP flow."""
    q = load_sweep(PACKAGED / "Q-tab2.toml").reduced()
    return Sweep(name="cbr", base=q.base, axes={"variant": ["1Mbps"]}, variants={"1Mbps": q.variants["1Mbps"]},
                 seeds=[1], set=q.set)


def test_a_mean_over_none_is_none_and_minus_zero_is_zero():
    """Hand-made metrics: the set of each mean (flows, transfers, the core's arrivals by class, the delay
    class's packets, the pacers' packets) empty, or not."""
    links = {"core": {"arrivals": 5, "udp": {"arrivals": 0}, "ack": {"arrivals": 0}},
             "core.rev": {"ack": {"arrivals": 7}}}
    got = measured({"flows": 0, "goodput_kbps_mean": -0.0, "transfers": 0, "transfer_goodput_kbps_mean": 0.0,
                    "core_loss_rate": 0.0, "core_udp_loss_rate": 0.0, "core_ack_loss_rate": 0.0,
                    "core_rev_ack_loss_rate": 0.0, "tcp_goodput_mbps": -0.0, "delay_max_ms": 0.0,
                    "delay_mean_ms": 0.0, "pacer_delay_ms_max": 0.0},
                   {"links": links, "pacers": {"edge_in.0": {"packets": 0}}})
    assert {k for k, v in got.items() if v is None} == {
        "goodput_kbps_mean", "transfer_goodput_kbps_mean", "core_udp_loss_rate", "core_ack_loss_rate",
        "delay_max_ms", "delay_mean_ms", "pacer_delay_ms_max"}
    # measured: 5 arrivals at the core, 7 ACKs at core.rev; a sum over no flows is a plain 0
    assert got["core_loss_rate"] == 0 and got["core_rev_ack_loss_rate"] == 0
    assert math.copysign(1, got["tcp_goodput_mbps"]) == 1
    kept = measured({"flows": 3, "goodput_kbps_mean": 12.5, "transfers": 2, "transfer_goodput_kbps_mean": 0.0,
                     "delay_max_ms": 4.0, "delay_mean_ms": 2.0}, {"links": links})
    assert kept == {"flows": 3, "goodput_kbps_mean": 12.5, "transfers": 2, "transfer_goodput_kbps_mean": 0.0,
                    "delay_max_ms": 4.0, "delay_mean_ms": 2.0}


def test_a_sweep_without_transfers_has_no_transfer_goodput_to_plot(tiny_store):
    """The tiny sweep starts no short transfers: its transfer goodput is NaN at every point (it was 0.0), and
    `plot --y transfer_goodput_kbps_mean` is refused instead of drawing a 0 Kb/s line."""
    store, _ = tiny_store
    points = store.points("tiny")
    assert (points["transfers"] == 0).all() and points["transfer_goodput_kbps_mean"].isna().all()
    assert points["goodput_kbps_mean"].gt(0).all()  # measured where there are flows
    out = runner.invoke(app, ["plot", "tiny", "--results", str(store.root), "--by", "pacing.scheme", "--y",
                              "transfer_goodput_kbps_mean"])
    assert out.exit_code == 2 and "no point of tiny has a value of 'transfer_goodput_kbps_mean'" in out.output, out.output


def test_a_run_without_tcp_flows_has_no_mean_goodput_and_results_prints_no_minus_zero(tmp_path, pool):
    """Paper Q's Table II runs a CBR source alone: goodput_kbps_mean was -0.0 (the engine's sum over no
    flows) and `pacesim results` printed "-0". A run stored before `measured` (its metrics as the engine gave
    them) reads back the same, from its stored report's counts."""
    with Store(tmp_path / "new") as store:
        run_sweep(cbr_only(), store, pool, progress=False)
        (row,) = store.points("cbr").to_dict("records")
    assert row["status"] == "ok" and row["flows"] == 0 and math.isnan(row["goodput_kbps_mean"])
    assert math.isnan(row["core_ack_loss_rate"]) and row["core_udp_loss_rate"] >= 0  # no ACKs; UDP arrived
    assert row["aggregate_mbps"] > 0
    out = runner.invoke(app, ["results", "cbr", "--results", str(tmp_path / "new")])
    assert out.exit_code == 0 and "-0" not in out.output, out.output

    # the same run as a store before `measured` kept it: 0.0 and -0.0 in its metrics
    import pacesim

    scenario = cbr_only().points()[0].scenario
    r = pacesim.run(scenario)
    old = {**r.metrics, "goodput_kbps_mean": -0.0, "core_ack_loss_rate": 0.0,  # the engine's own -0.0
           "transfer_goodput_kbps_mean": 0.0}
    r.__dict__["metrics"] = old  # as `run_metrics` gave them then
    with Store(tmp_path / "old") as store:
        store.save_ok("a" * 64, r, "here")
        store.register_sweep("cbr", {"axes": {"variant": ["1Mbps"]}}, [({"variant": "1Mbps"}, 1, "a" * 64)])
        assert json.loads(store.db.execute("SELECT metrics FROM runs").fetchone()[0])["goodput_kbps_mean"] == 0
        (back,) = store.points("cbr").to_dict("records")
    assert all(math.isnan(back[k]) for k in ("goodput_kbps_mean", "core_ack_loss_rate", "transfer_goodput_kbps_mean"))
    assert back["aggregate_mbps"] == row["aggregate_mbps"]


def test_a_live_runs_metrics_say_none_where_nothing_was_measured():
    """`Result.metrics` (what a sweep stores) has None; `Result.summary` is the engine's, as --json writes
    it, its -0.0 a plain 0."""
    import pacesim

    r = pacesim.run(cbr_only().points()[0].scenario)
    assert r.metrics["goodput_kbps_mean"] is None and r.metrics["transfer_goodput_kbps_mean"] is None
    assert r.metrics["aggregate_mbps"] == r.summary["aggregate_mbps"] == r.report["summary"]["aggregate_mbps"] > 0
    assert r.summary["goodput_kbps_mean"] == 0 and math.copysign(1, r.summary["goodput_kbps_mean"]) == 1


CBR_RUN = ["run", "e-base", "--set", "topology.kind=q-line", "--set", "duration=4s", "--set", "warmup=1s",
           "--set", 'traffic.start=["0s", "0s"]', "--set", "pacing.scheme=qlbp", "--set",
           'traffic.udp=[{kind = "cbr", rate = "1Mbps", size = "1000B", from = "n0", to = "n2"}]']
"""`pacesim run` of a CBR source alone through a QLBP pacer on paper Q's line (no TCP flow), as the re-review
ran it."""


def _minus_zeros(value) -> list:
    """The -0.0 anywhere in a JSON value, each by its path."""
    if isinstance(value, dict):
        return [f"{k}.{p}" for k, v in value.items() for p in _minus_zeros(v)]
    if isinstance(value, list):
        return [f"[{i}].{p}" for i, v in enumerate(value) for p in _minus_zeros(v)]
    return ["-0.0"] if isinstance(value, float) and value == 0 and math.copysign(1, value) < 0 else []


def test_no_output_of_a_run_writes_minus_zero(tmp_path):
    """Re-review of issue 34: `pacesim run --json` of a run without TCP flows still wrote "goodput_kbps_mean":
    -0.0 (the engine's sum over no flows): acd5aa7 made `Result.summary` 0.0, and --json writes the report
    itself. The report is read from the engine with -0.0 as 0.0 (`report_tables.report_number`): --json, to a file and to
    standard output, `Result.report` and the store's copy of the report hold none."""
    import pacesim

    out = runner.invoke(app, [*CBR_RUN, "--json", str(tmp_path / "q.json")])
    assert out.exit_code == 0, out.output
    written = json.loads((tmp_path / "q.json").read_text())
    assert written["summary"]["goodput_kbps_mean"] == 0 and written["summary"]["aggregate_mbps"] > 0
    assert _minus_zeros(written) == [] and "-0.0" not in (tmp_path / "q.json").read_text()
    out = runner.invoke(app, [*CBR_RUN, "--json", "-"])
    assert out.exit_code == 0 and '"goodput_kbps_mean": 0.0' in out.stdout and "-0.0" not in out.stdout, out.output

    r = pacesim.run(cbr_only().points()[0].scenario)
    assert r.metrics["flows"] == 0 and _minus_zeros(r.report) == []
    with Store(tmp_path / "store") as store:
        store.save_ok("b" * 64, r, "here")
        stored = store.db.execute("SELECT report FROM runs").fetchone()[0]
    assert "-0.0" not in stored and _minus_zeros(json.loads(stored)) == []


def test_a_report_stored_with_minus_zero_is_read_back_without_it(tmp_path):
    """Review of issue 34 (D7): a run stored before 8d14a17 kept the engine's -0.0 (a mean goodput over no
    TCP flow) in its report, and `Store.report` gave it back as -0.0 though `results --csv` and `points` did
    not. The store reads a report as `engine.run` reads the engine's (`report_tables.report_number`)."""
    import pacesim

    r = pacesim.run(cbr_only().points()[0].scenario)
    r.report["summary"]["goodput_kbps_mean"] = -0.0  # as the engine wrote it before 8d14a17
    with Store(tmp_path / "store") as store:
        store.save_ok("b" * 64, r, "here")
        assert '"goodput_kbps_mean": -0.0' in store.db.execute("SELECT report FROM runs").fetchone()[0]
        report = store.report("b" * 64)
    assert report["summary"]["goodput_kbps_mean"] == 0 and _minus_zeros(report) == []
