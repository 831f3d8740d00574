"""`pacesim model`: every experiment id builds, and the command writes CSV, PNG and SVG."""

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from pacesim.papers.a import effective_buffer
from pacesim.papers import MODELS
from pacesim.cli import app

IDS = ["e-model", "e-fig10", "a-fig6", "a-fig16", "a-fig10", "a-fig18", "a-fig19", "a-fig22", "a-md1",
       "q-thm1", "q-thm2", "w-fig8", "w-conv"]

runner = CliRunner()


def test_every_catalogue_id_is_a_model():
    assert sorted(MODELS) == sorted(IDS)
    listing = runner.invoke(app, ["model", "--list"], terminal_width=200)
    assert listing.exit_code == 0
    for mid in IDS:
        assert mid in listing.output


@pytest.mark.parametrize("mid", IDS)
def test_model_builds_consistent_panels(mid):
    m = MODELS[mid]
    out = m.build(dict(m.defaults))
    assert out.facts
    for panel in out.panels:
        table = out.tables[panel.table]
        assert len(table) > 1
        assert panel.x in table.columns
        for s in panel.series:
            y = table[s.column].to_numpy(dtype=float)
            assert np.isfinite(y).sum() > 1, (mid, s.column)


def test_cli_writes_csv_png_svg_and_overlays(tmp_path):
    sim = tmp_path / "sim.csv"
    pd.DataFrame({"buffer_kb": [5.0, 10.0, 20.0], "udp_loss": [3e-4, 2e-4, 5e-4]}).to_csv(sim, index=False)
    out = tmp_path / "a10"
    r = runner.invoke(app, ["model", "a-fig10", "--out", str(out), "--overlay", str(sim)], terminal_width=200)
    assert r.exit_code == 0, r.output
    assert "minimum" in r.output
    table = pd.read_csv(out / "a-fig10.csv")
    assert list(table.columns) == ["buffer_kb", "udp_loss", "tcp_offered", "tcp_throughput"]
    assert (out / "a-fig10.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (out / "a-fig10.svg").read_bytes()[:2000]
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"buffer_kb": [5.0], "nothing": [1.0]}).to_csv(bad, index=False)
    r = runner.invoke(app, ["model", "a-fig10", "--out", str(out), "--overlay", str(bad)])
    assert r.exit_code == 2


def test_cli_set_overrides_a_parameter(tmp_path):
    r = runner.invoke(app, ["model", "a-fig6", "--out", str(tmp_path), "--set", "f=0.8"])
    assert r.exit_code == 0, r.output
    t = pd.read_csv(tmp_path / "a-fig6.csv")
    assert t["effective_kb"].to_numpy() == pytest.approx(effective_buffer.effective_buffer(t["buffer_kb"], 0.8, 7.0))
    assert "none" in r.output  # no anomalous region at 80% UDP


def test_cli_fits_bstar_from_an_empty_buffer_csv(tmp_path):
    curve = tmp_path / "empty.csv"
    b = np.arange(5.0, 51.0, 5.0)
    pd.DataFrame({"buffer_kb": b, "empty_prob": 0.9 * np.exp(-b / 4.0)}).to_csv(curve, index=False)
    r = runner.invoke(app, ["model", "e-model", "--out", str(tmp_path), "--set", f"empty_csv={curve}"],
                      terminal_width=200)
    assert r.exit_code == 0, r.output
    assert "B* fit" in r.output and " 4 KB" in r.output
    load = pd.read_csv(tmp_path / "e-model-load.csv")
    assert load["rho_4"].to_numpy() == pytest.approx(1 - np.exp(-load["buffer_kb"] / 4.0))


@pytest.mark.parametrize("args", [["model", "nope"], ["model", "a-fig6", "--set", "zz=1"],
                                  ["model", "a-fig6", "--set", "f=abc"], ["model"]])
def test_cli_refuses_bad_requests(args, tmp_path):
    r = runner.invoke(app, args + ["--out", str(tmp_path)])
    assert r.exit_code == 2
