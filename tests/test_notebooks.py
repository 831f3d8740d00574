"""The documentation's notebooks (docs/notebooks/) run from top to bottom on the current code: each is
executed afresh in a Python kernel (nbclient), and a cell that raises, its own checks among them, fails the
test. The committed copies keep the outputs the site shows."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "docs" / "notebooks").glob("*.ipynb"))


def test_there_are_the_two_notebooks():
    assert [p.name for p in NOTEBOOKS] == ["cwnd_queue.ipynb", "sweep_ci.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
