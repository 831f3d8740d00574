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


def test_the_topology_registry_is_read_as_arrows_to_its_builders():
    # review36 D1: `named_topologies!` named each builder by its module alone, which the check could not read,
    # so a builder's `use super::Topology` (a circle) went unreported; each line now writes out its spec's path.
    edges = imports().graph()
    builders = {("topology", p.stem) for p in (SCRIPT.parents[1] / "crates/pacesim-core/src/topology").glob("*.rs")}
    builders -= {("topology", m) for m in ("graph", "names", "network", "route", "routes")}
    assert builders and builders <= edges[("topology",)], sorted(builders - edges[("topology",)])


def tree(root: Path, files: dict[str, str]) -> Path:
    """A crate's `src/` holding `files` (path: text)."""
    for path, text in files.items():
        (root / "src" / path).parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / path).write_text(text)
    return root / "src"


def test_the_check_sees_an_upward_arrow_and_a_circle(tmp_path):
    m = imports()
    src = tree(
        tmp_path,
        {
            "sim.rs": "pub mod time;\n",
            "sim/time.rs": "use crate::net::Link;\n#[cfg(test)]\nmod tests { use crate::engine::X; }\n",
            "net.rs": "pub use link::Link;\npub mod link;\n",
            "net/link.rs": "use super::queue::Q;\n",
            "net/queue.rs": "use crate::net::Link;\nuse crate::made_by_a_macro;\n",
            # review-house36f D2: an item lib.rs defines and a name no file has were both no arrow, which hid
            # engine/assemble.rs -> lib.rs (`crate::ENGINE_VERSION`), an arrow into the top layer.
            "lib.rs": "pub mod engine;\npub mod net;\npub mod sim;\npub const VERSION: &str = \"1\";\n",
            "engine.rs": "pub fn f() -> &'static str { crate::VERSION }\n",
        },
    )
    edges = m.graph(src)
    assert edges[("sim", "time")] == {("net", "link")}, "test items are left out, re-exports followed"
    assert edges[("net", "queue")] == {("net", "link")}, "a name no file defines is no arrow"
    assert m.upward(edges) == [(("engine",), ()), (("sim", "time"), ("net", "link"))]
    assert m.circles(edges) == [[("net", "link"), ("net", "queue")]]


def test_the_check_sees_grouped_and_nested_use_trees(tmp_path):
    # `use super::{a, b}` was invisible to the check and hid a circle in the engine
    # (engine/world/forward.rs <-> traced.rs); nested groups and renames name their files too.
    m = imports()
    src = tree(
        tmp_path,
        {
            "net.rs": "pub mod link;\npub mod queue;\npub mod red;\n",
            "net/link.rs": "use super::{queue, red::{Red as R, Gentle}};\npub struct Link;\n",
            "net/queue.rs": "use super::{link::Link};\n",
            "net/red.rs": "pub struct Red;\npub struct Gentle;\n",
        },
    )
    edges = m.graph(src)
    assert edges[("net", "link")] == {("net", "queue"), ("net", "red")}
    assert m.circles(edges) == [[("net", "link"), ("net", "queue")]]
    assert m.use_paths("super::{a, b::{c, d as e}}") == [["super", "a"], ["super", "b", "c"], ["super", "b", "d"]]


def test_the_check_sees_self_and_child_paths(tmp_path):
    # A module naming its child without `crate::` or `super::` (`use hop::Hop`, `ebase::EBase::graph()`,
    # `self::route::Router`) was invisible: it hid the circles topology.rs <-> topology/graph.rs (through
    # every builder) and engine/world.rs <-> world/ahead.rs. A child re-exported (`pub use`) is no arrow.
    m = imports()
    src = tree(
        tmp_path,
        {
            "topology.rs": "pub mod ebase;\npub mod graph;\npub mod route;\npub use graph::Graph;\n"
            "use self::route::Router;\npub struct Network;\nfn f() { ebase::EBase::graph(); }\n",
            "topology/ebase.rs": "pub struct EBase;\n",
            "topology/graph.rs": "use super::Network;\npub struct Graph;\n",
            "topology/route.rs": "pub struct Router;\n",
        },
    )
    edges = m.graph(src)
    assert edges[("topology",)] == {("topology", "ebase"), ("topology", "route")}
    assert m.circles(edges) == []
    (src / "topology.rs").write_text("pub mod graph;\nuse graph::Graph;\npub struct Network;\n")
    assert m.circles(m.graph(src)) == [[("topology",), ("topology", "graph")]]

