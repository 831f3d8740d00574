"""Simulated points on the model figures: reproductions' points CSVs turned
into model columns (A-fig10, E-fig10), the agreement facts, and the CLI's
--overlay and --simulate."""

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from pacesim.analysis import draw
from pacesim.papers import MODELS
from pacesim.papers.a.overlays import a_fig10, a_fig22
from pacesim.papers.e.overlays import e_fig10
from pacesim.cli import app
from pacesim.panels import Curves, Series

runner = CliRunner()
A10 = dict(MODELS["a-fig10"].defaults)
E10 = dict(MODELS["e-fig10"].defaults)


def _a_fig11_points() -> pd.DataFrame:
    """Two seeds of A-fig11's UDP + TCP curve with P(empty) = e^(-B/3 KB), the
    UDP-alone curve and a failed point (both to be ignored)."""
    rows = []
    for b in (2, 4, 8):
        for seed, loss in ((1, 0.01 * b), (2, 0.03 * b)):
            rows.append({"core.buffer": f"{b}KB", "variant": "UDP + TCP", "seed": seed, "status": "ok",
                         "core_udp_loss_rate": loss, "core_utilisation": 0.5 + 0.05 * b, "core_empty_prob": np.exp(-b / 3)})
        rows.append({"core.buffer": f"{b}KB", "variant": "UDP alone", "seed": 1, "status": "ok",
                     "core_udp_loss_rate": 0.9, "core_utilisation": 0.05, "core_empty_prob": 0.95})
    rows.append({"core.buffer": "8KB", "variant": "UDP + TCP", "seed": 3, "status": "failed",
                 "core_udp_loss_rate": 1.0, "core_utilisation": 0.0, "core_empty_prob": 1.0})
    return pd.DataFrame(rows)


def test_a_fig10_from_a_fig11_points():
    o = a_fig10(_a_fig11_points(), A10)
    (t,) = o.tables
    assert list(t["buffer_kb"]) == [2.0, 4.0, 8.0]
    loss = np.array([0.04, 0.08, 0.16])  # mean of 0.01 b and 0.03 b
    assert t["udp_loss"].to_numpy() == pytest.approx(loss)
    # TCP carried = utilisation - λ_UDP (1 - UDP loss)
    assert t["tcp_throughput"].to_numpy() == pytest.approx(0.5 + 0.05 * np.array([2, 4, 8]) - 0.05 * (1 - loss))
    assert o.facts["simulated B*"].startswith("3 KB") and "2 seeds" in o.label


def test_e_fig10_from_e_fig11_points():
    rows = [{"core.buffer": b, "pacing.delay": d, "seed": 1, "status": "ok", "goodput_kbps_mean": g,
             "core_empty_prob": e}
            for b, e, gs in (("5KB", 0.25, (80.0, 88.0, 84.0)), ("50KB", 0.004, (90.0, 90.0, 81.0)))
            for d, g in zip(("0ms", "10ms", "100ms"), gs)]
    o = e_fig10(pd.DataFrame(rows), E10)
    (t,) = o.tables
    assert list(t["d_ms"]) == [0.0, 10.0, 100.0]
    assert t["T_light"].to_numpy() == pytest.approx([1.0, 1.1, 1.05])
    assert t["T_heavy"].to_numpy() == pytest.approx([1.0, 1.0, 0.9])
    assert "1 - P(empty) = 0.750" in o.facts["simulated light load (5 KB)"]
    with pytest.raises(ValueError, match="no d = 0"):
        e_fig10(pd.DataFrame(rows[1:]), E10)


def test_a_points_csv_of_another_figure_is_refused():
    with pytest.raises(ValueError, match="no column pacing.delay"):
        e_fig10(_a_fig11_points(), E10)


def test_agreement_is_a_ratio_on_log_axes_and_a_difference_otherwise():
    table = pd.DataFrame({"x": [0.0, 1.0, 2.0], "y": [1.0, 2.0, 4.0]})
    pts = pd.DataFrame({"x": [0.5, 2.0], "y": [3.0, 2.0]})  # the model gives 1.5 and 4 there
    lin = Curves("t", "x", "", "", (Series("y", "y"),))
    assert draw._agreement(lin, table, "y", pts) == "simulated - model -2 to +1.5, mean -0.25 over 2 points, x 0.5-2"
    log = Curves("t", "x", "", "", (Series("y", "y"),), logy=True)
    assert draw._agreement(log, table, "y", pts).startswith("simulated/model 0.5 to 2, median 1.25")


def test_cli_overlays_a_reproduction_csv(tmp_path):
    """The CSV as `reproduce` writes it: core.buffer_bytes, and the text in core.buffer_written."""
    from pacesim.report_tables import axis_numbers

    points = tmp_path / "A-fig11.csv"
    axis_numbers(_a_fig11_points(), ["core.buffer", "variant"]).to_csv(points, index=False)
    assert "core.buffer" not in pd.read_csv(points)
    r = runner.invoke(app, ["model", "a-fig10", "--out", str(tmp_path), "--overlay", str(points)], terminal_width=250)
    assert r.exit_code == 0, r.output
    assert "simulated/model" in r.output and "simulated B*" in r.output
    assert (tmp_path / "a-fig10.png").stat().st_size > 10_000


def test_cli_simulates_q_thm2_and_refuses_models_without_a_simulation(tmp_path):
    r = runner.invoke(app, ["model", "q-thm2", "--simulate", "--out", str(tmp_path), "--set", "q_max_pkts=40",
                            "--set", "sim_seconds=300", "--set", "sim_lag_step_ms=50"], terminal_width=250)
    assert r.exit_code == 0, r.output
    cov, ratio = pd.read_csv(tmp_path / "q-thm2-simulated-1.csv"), pd.read_csv(tmp_path / "q-thm2-simulated-2.csv")
    assert list(cov.columns) == ["lag_s", "cov_input", "cov_paced_q40", "cov_paced_q83.25"]
    assert cov["lag_s"].to_numpy() == pytest.approx(np.arange(1, 11) * 0.05)
    assert list(ratio["q_max_pkts"]) == [40.0, 83.25] and ratio["alpha"].to_numpy() == pytest.approx([31.21875, 15.0])
    # 300 s: still within 4 SE, and pacing keeps the CoV ratio below 1 (Q Fig. 15).
    assert (ratio["max_abs_z"] < 4).all() and (ratio["cov_ratio"] < 1).all()
    assert "Bartlett SE" in r.output
    r = runner.invoke(app, ["model", "a-fig10", "--simulate", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "no simulation" in r.output


def test_a_fig22_from_a_fig21_points():
    """Each UDP size becomes the curve of its bulk ratio, 1000 B / size, averaged over seeds."""
    rows = [{"core.buffer": f"{b}KB", "traffic.udp[0].size": size, "seed": seed, "status": "ok",
             "core_udp_loss_rate": b * k * seed / 1000}
            for b in (2, 8) for size, k in (("40B", 25), ("200B", 5), ("1000B", 1)) for seed in (1, 2)]
    (t,) = a_fig22(pd.DataFrame(rows), dict(MODELS["a-fig22"].defaults)).tables
    assert list(t["buffer_kb"]) == [2.0, 8.0]
    for k in (25, 5, 1):
        assert t[f"udp_loss_ratio{k}"].to_numpy() == pytest.approx(np.array([2, 8]) * k * 1.5 / 1000)
    with pytest.raises(ValueError, match="A-fig21"):
        a_fig22(_a_fig11_points(), dict(MODELS["a-fig22"].defaults))
