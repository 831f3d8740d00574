"""Short-lived TCP (closed-loop users) through the Python layer: scenario keys,
the transfers table, the CLI and the results store."""

import pytest
from typer.testing import CliRunner

import pacesim
from pacesim import ScenarioError
from pacesim.cli import app
from pacesim.store import Store
from pacesim.sweep import Sweep, executor, run_sweep

USERS = {
    "duration": "40s",
    "warmup": "10s",
    "topology": {"edges": 2, "hosts_per_edge": 5},
    "core": {"rate": "10Mbps", "buffer": "10KB"},
    "traffic": {"short": {"fraction": 0.5, "mean_size": "100KB", "shape": 1.5}},
}


@pytest.fixture(scope="module")
def users() -> pacesim.Result:
    return pacesim.run(USERS)


def test_defaults_are_paper_e_and_keys_round_trip():
    s = pacesim.parse_scenario({"traffic": {"short": {}}})
    short = s.traffic.short
    assert (short.fraction, short.mean_size, short.shape, short.mean_think) == (1.0, 100_000, 1.2, 1_000_000_000)
    assert pacesim.parse_scenario(USERS).to_toml().count("[traffic.short]") == 1


@pytest.mark.parametrize("short, field", [
    ({"shape": 1.0}, "traffic.short.shape"),
    ({"fraction": 2}, "traffic.short.fraction"),
    ({"mean_size": "-5KB"}, "traffic.short.mean_size"),
    ({"think": "1s"}, "traffic.short.think"),
])
def test_bad_keys_name_the_field(short, field):
    with pytest.raises(ScenarioError) as e:
        pacesim.parse_scenario({"traffic": {"short": short}})
    assert e.value.field == field


def test_transfers_are_the_users_and_within_the_window(users):
    t = users.transfers
    flows = users.flows
    assert list(flows.index[flows["short"]]) == [1, 3, 5, 7, 9]
    assert len(t) == users.summary["transfers"] > 0
    assert set(t["flow"]) <= {1, 3, 5, 7, 9}
    assert (t["start_s"] >= 10).all() and (t["start_s"] + t["fct_s"] <= 40).all()
    # Pareto sizes never fall below the scale 100 KB x (1.5 - 1) / 1.5.
    assert t["bytes"].min() >= 100_000 / 3
    assert users.summary["transfer_goodput_kbps_mean"] == pytest.approx(t["goodput_kbps"].mean())


def test_cli_prints_the_transfers(tmp_path):
    path = tmp_path / "users.toml"
    path.write_text(pacesim.parse_scenario(USERS).to_toml())
    r = CliRunner().invoke(app, ["run", str(path)])
    assert r.exit_code == 0, r.output
    assert "short transfers finished in the window" in r.output and "completion, s" in r.output


def test_the_store_keeps_the_transfers_of_every_point(tmp_path):
    sets = [f"{k}={v}" for k, v in [("duration", "30s"), ("warmup", "10s"), ("topology.hosts_per_edge", 5),
                                    ("topology.edges", 2), ("core.rate", "10Mbps"), ("traffic.short.shape", 1.5)]]
    sweep = Sweep(name="users", axes={"core.buffer": ["5KB", "20KB"]}, seeds=[1], set=sets)
    with Store(tmp_path) as store, executor(workers=1) as pool:
        run_sweep(sweep, store, pool, progress=False)
        rows = store.rows("users", "transfers")
        assert set(rows["core.buffer"]) == {5000.0, 20000.0}  # bytes
        for buffer, group in rows.groupby("core.buffer"):
            stored = store.points("users").set_index("core.buffer").loc[buffer, "transfers"]
            assert len(group) == stored > 0


def test_a_persistent_user_keeps_its_connection_after_the_first_file():
    # One user on an idle path (RTT 2 x (1 + 5 + 100 + 5 + 1) ms = 224 ms, a buffer that never fills). Its
    # files are the same either way (the sizes' stream is the user's own); the first goes as a new connection
    # in both runs. Every later file skips the SYN's round trip on the kept connection and starts with the
    # window the last one left instead of slow start: at least one RTT sooner, never later.
    one = {"duration": "60s", "warmup": "0s", "tcp": {"window": 1000},
           "topology": {"edges": 1, "hosts_per_edge": 1, "access_rate": "10Mbps", "access_delay": "1ms",
                        "edge_delay": "5ms"},
           "core": {"buffer": "1MB"}, "traffic": {"start": ["0s", "0s"], "short": {"shape": 1.5}}}
    fresh = pacesim.run(one).transfers
    kept = pacesim.run({**one, "traffic": {**one["traffic"], "short": {"shape": 1.5, "persistent": True}}}).transfers
    n = min(len(fresh), len(kept))
    assert n >= 10
    assert list(kept["bytes"][:n]) == list(fresh["bytes"][:n])
    assert kept["fct_s"].iloc[0] == fresh["fct_s"].iloc[0]
    assert (kept["fct_s"][1:n] <= fresh["fct_s"][1:n] - 0.224).all(), (kept["fct_s"][:n], fresh["fct_s"][:n])
    assert len(kept) >= len(fresh)
