"""Per-flow statistics as ns-3's FlowMonitor gives them, through the front: the flows table's
throughput, losses and loss rate in every run, its transit delays and jitter with the scenario's
`[transit]`, and the results store keeping them. (Hand-worked cases of each definition are the
engine's: crates/pacesim-core/tests/run.rs and engine/world/forward.rs.)"""

import pandas as pd
import pytest

import pacesim
from pacesim.store import Store

TINY = {"duration": "20s", "warmup": "5s", "topology": {"edges": 2, "hosts_per_edge": 5},
        "core": {"buffer": "3KB"}}
TRANSIT = ["transit_mean_ms", "transit_p50_ms", "transit_p95_ms", "transit_p99_ms", "jitter_ms"]


@pytest.fixture(scope="module")
def runs():
    return pacesim.run(TINY, threads=1), pacesim.run({**TINY, "transit": {}}, threads=1)


def test_every_run_counts_each_flows_sends_and_losses(runs):
    plain, _ = runs
    f = plain.flows
    assert f["lost_packets"].sum() > 0, "a 3 KB core buffer drops"
    # Every drop of a data packet in the window is some flow's loss: the links' data drops.
    assert f["lost_packets"].sum() == plain.links["data_drops"].sum()
    assert (f["loss_rate"] == f["lost_packets"] / f["data_packets_sent"]).all()
    # Wire bytes sent over the 15 s window: 1040 B a data packet, 40 B a SYN (one at most per
    # long-lived flow, which all start in the first 10 s).
    kbps = lambda packets: packets * 8 / 15 / 1e3
    sent = f["data_packets_sent"]
    assert (f["throughput_kbps"] <= kbps(sent * 1040) + 1e-9).all()
    assert (f["throughput_kbps"] >= kbps(sent * 1040 - 1000) - 1e-9).all()
    assert not set(TRANSIT) & set(f.columns), "transit is measured only when asked for"


def test_transit_adds_its_columns_and_changes_nothing_else(runs):
    plain, measured = runs
    f = measured.flows
    assert f[TRANSIT].notna().all().all()
    assert ((f["transit_p50_ms"] <= f["transit_p95_ms"]) & (f["transit_p95_ms"] <= f["transit_p99_ms"])).all()
    # No data packet crosses faster than its path's propagation and its own serialisation at
    # each hop: more than half the base RTT (the same links both ways, an ACK of 40 B back).
    assert (f["transit_p50_ms"] > f["base_rtt_ms"] / 2).all()
    pd.testing.assert_frame_equal(f.drop(columns=TRANSIT), plain.flows)
    assert measured.summary == plain.summary


def test_the_store_keeps_the_flow_statistics(runs, tmp_path):
    _, measured = runs
    store = Store(tmp_path / "results")
    store.save_ok("k", measured, "here")
    pd.testing.assert_frame_equal(store.table("k", "flows"), measured.flows)


def test_transit_is_a_scenario_key_of_the_toml_file(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(pacesim.parse_scenario({**TINY, "transit": {}}).to_toml())
    assert "[transit]" in path.read_text()
    with pytest.raises(pacesim.ScenarioError, match="transit"):
        pacesim.parse_scenario({**TINY, "transit": {"quantiles": [0.5]}})


def _printed(tmp_path, scenario: dict) -> str:
    from typer.testing import CliRunner

    from pacesim.cli import app

    path = tmp_path / "s.toml"
    path.write_text(pacesim.parse_scenario(scenario).to_toml())
    out = CliRunner().invoke(app, ["run", str(path), "--threads", "1"], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    return out.output


def test_pacesim_run_prints_each_flows_row_up_to_ten_flows_then_their_spread(runs, tmp_path):
    # Issue 34: the run printed goodput alone. Ten flows: one row each, as Result.flows holds them, 80
    # columns wide; the values to three figures, a whole number from 1,000 (loss in %).
    _, measured = runs
    text = _printed(tmp_path, {**TINY, "transit": {}})
    rows = [line.split("│") for line in text.splitlines() if line.count("│") == 9]
    assert [cells[0].strip() for cells in rows] == ["flow", *map(str, range(10))]
    f = measured.flows
    for flow, cells in enumerate(rows[1:]):
        want = [f.loc[flow, c] * (100 if c == "loss_rate" else 1) for c in
                ["goodput_kbps", "throughput_kbps", "lost_packets", "loss_rate", *TRANSIT]]
        assert [float(c.replace(",", "")) for c in cells[1:]] == [float(v) if i == 2 else round(v) if v >= 999.5
                                                                   else float(f"{v:.3g}") for i, v in
                                                                   enumerate(want)]  # lost, and 1,000 up: whole
    # Eleven or more: each statistic's spread across the flows, never a row per flow.
    many = _printed(tmp_path, {**TINY, "topology": {"edges": 2, "hosts_per_edge": 6}})
    assert "Per-flow statistics across 12 flows" in many and "median" in many
    for label in ["goodput, Kb/s", "throughput, Kb/s", "lost packets", "loss %"]:
        assert label in many
    assert "transit" not in many and "│ flow" not in many


def test_jains_index_of_the_flows_goodputs():
    """Jain, Chiu and Hawe's index (sum x)^2 / (n sum x^2), worked by hand: equal shares 1, one flow with
    everything 1/n, 1, 2, 3 gives 36 / 42; none without a flow or without goodput."""
    from pacesim.metrics import jain

    assert jain(pd.Series([5.0, 5.0, 5.0, 5.0])) == 1.0
    assert jain(pd.Series([4.0, 0.0, 0.0, 0.0])) == 0.25
    assert jain(pd.Series([1.0, 2.0, 3.0])) == pytest.approx(36 / 42, rel=1e-15)
    assert jain(pd.Series([], dtype=float)) is None and jain(pd.Series([0.0, 0.0])) is None


def test_every_run_stores_jains_index_of_its_flows_goodputs(runs):
    plain, _ = runs
    x = plain.flows["goodput_kbps"]
    assert plain.metrics["goodput_jain"] == pytest.approx(x.sum() ** 2 / (len(x) * (x ** 2).sum()), rel=1e-12)
    assert 1 / len(x) < plain.metrics["goodput_jain"] < 1
