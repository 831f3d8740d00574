"""The Python front's import graph (scripts/py_imports.py): it sees every import form, and the front gains no
circle and no arrow up its floors beyond those measured when the check came (issue 36 sets both to 0, and
the imports hidden in functions, 71 then, with the front's move into floors)."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "py_imports.py"
spec = importlib.util.spec_from_file_location("py_imports", SCRIPT)
py_imports = importlib.util.module_from_spec(spec)
spec.loader.exec_module(py_imports)

MEASURED = {"circles": 1, "upward": 3}
"""2026-12-04: one circle through the package's `__init__` (pacesim, fields, memory, models, result, scenario,
schema, topology), `figures` above the papers it registers, `claims` drawing with `plot`, `__init__` above
`result` and `pcap`."""


def test_the_front_gains_no_circle_or_upward_arrow():
    edges, _ = py_imports.graph()
    assert "terminal" in edges["cli"], "the graph reads the real tree"
    assert len(py_imports.circles(edges)) <= MEASURED["circles"], py_imports.circles(edges)
    assert len(py_imports.upward(edges)) <= MEASURED["upward"], py_imports.upward(edges)


def test_the_check_sees_every_import_form(tmp_path):
    src = tmp_path / "pacesim"
    (src / "reproduce").mkdir(parents=True)
    files = {
        "__init__.py": "from .store import Store\n",
        "store.py": "import pacesim.units\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .cli import app\n",
        "units.py": "def f():\n    from . import store\n",
        "cli.py": "from pacesim.reproduce import claims\n",
        "reproduce/__init__.py": "",
        "reproduce/claims.py": "from ..cli import app\nfrom .. import units\n",
    }
    for path, text in files.items():
        (src / path).write_text(text)
    edges, hidden = py_imports.graph(src)
    assert edges["store"] == {"units"}, "an import for annotations only is no dependency"
    assert edges["units"] == {"store"} and hidden["units"] == 1, "an import in a function counts, and is counted"
    assert edges["reproduce.claims"] == {"cli", "units"} and edges["cli"] == {"reproduce.claims"}
    assert sorted(py_imports.circles(edges)) == [["cli", "reproduce.claims"], ["store", "units"]]
    assert ("reproduce.claims", "cli") in py_imports.upward(edges) and ("units", "store") in py_imports.upward(edges)
