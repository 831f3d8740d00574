"""The engine's import graph (scripts/imports.py): no circles, no arrow up
the layers, and the kernel (`sim/`) using nothing but itself."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "imports.py"


def imports():
    spec = importlib.util.spec_from_file_location("imports", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_kernel_imports_nothing_above_it_and_the_graph_has_no_circle():
    m = imports()
    edges = m.graph()
    assert ("sim", "world") not in edges and ("engine", "world") in edges, "the graph reads the real tree"
    kernel = {b for a, bs in edges.items() if a[:1] == ("sim",) for b in bs}
    assert all(b[:1] == ("sim",) for b in kernel), sorted(kernel)
    assert m.circles(edges) == []
    assert m.upward(edges) == []


def test_the_check_sees_an_upward_arrow_and_a_circle(tmp_path):
    m = imports()
    src = tmp_path / "src"
    (src / "sim").mkdir(parents=True)
    (src / "sim.rs").write_text("pub mod time;\n")
    (src / "sim" / "time.rs").write_text("use crate::net::Link;\n#[cfg(test)]\nmod tests { use crate::engine::X; }\n")
    (src / "net.rs").write_text("pub use link::Link;\npub mod link;\n")
    (src / "net").mkdir()
    (src / "net" / "link.rs").write_text("use super::queue::Q;\n")
    (src / "net" / "queue.rs").write_text("use crate::net::Link;\n")
    edges = m.graph(src)
    assert edges[("sim", "time")] == {("net", "link")}, "test items are left out, re-exports followed"
    assert m.upward(edges) == [(("sim", "time"), ("net", "link"))]
    assert m.circles(edges) == [[("net", "link"), ("net", "queue")]]
