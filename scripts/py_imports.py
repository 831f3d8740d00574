#!/usr/bin/env python3
"""The Python front's import graph: which module of `python/pacesim` imports which, its circles, the arrows
that run up its floors, and the imports hidden inside functions.

Every `import` and `from ... import` of a pacesim module counts, at module level or inside a function (one
inside a function is still a dependency; it only moves the import to the first call). `from . import x`
names the module `x` when there is one, and a name the package loads on first use (`from . import run`, `pacesim.run`)
the module it comes from; a literal `importlib.import_module("pacesim.x")` or `__import__` counts too. An import by a
computed name (`importlib.import_module(f".{name}")`: the package's names loaded on first use, the papers' discovery)
is not read: it names no module in the source. Floors, bottom to top, are the prefixes in `FLOORS`; an arrow from a
lower floor to a higher one runs up. The package's `__init__` (its names, loaded on first use) is the bottom floor.

    python scripts/py_imports.py            # counts, circles, upward arrows
    python scripts/py_imports.py --check    # exit 1 on a circle or an upward arrow
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from imports import circles, report  # noqa: E402  (the engine's check's circles (Tarjan) and printout)

SRC = Path(__file__).resolve().parents[1] / "python" / "pacesim"

# Module prefixes (dotted, below `pacesim`), bottom to top; prefixes on one line share a floor. A module
# takes the floor of its longest listed prefix; `papers.*` is every module below `papers` (each paper's
# package, found by discovery: no paper is named here), `papers` the discovery itself.
FLOORS = [
    ["", "_core", "units", "fields", "messages", "outfile", "terminal", "scenario", "scenario_reference", "schema",
     "topology", "memory", "scenario_tables", "tmix"],  # the engine binding and the scenario
    # results: a run (`engine.run`), its report, the store, and their vocabulary (`metric_names`, `panels`)
    ["engine", "result", "report_tables", "metrics", "metric_names", "store", "ns2trace", "pcap", "trace_diff",
     "panels"],
    ["reproduce.claims", "reproduce.verdicts"],  # claims and their rules
    ["sweep", "pool", "plot", "analysis", "reproduce"],  # experiments: sweeps, figures, the models' frame
    ["papers.*"],  # the papers, one package each
    ["papers", "reproduce.catalogue", "reproduce.runner", "reproduce.full_size", "reproduce.paper_tables"],  # every paper: the catalogue
    ["cli", "experiment_commands", "trace_commands", "tmix_commands", "completion", "site"],  # the command line, the site
]
FLOOR = {m: i for i, ms in enumerate(FLOORS) for m in ms}


EXTENSIONS = ["_core"]
"""Modules of the package without Python source: the engine's compiled binding (crates/pacesim-py), which
imports nothing of the front."""


def modules(src: Path = SRC) -> dict[str, Path]:
    """Dotted name below `pacesim` ('' for the package itself) -> its file (None for an `EXTENSIONS` module)."""
    out: dict = {name: None for name in EXTENSIONS}
    for f in sorted(src.rglob("*.py")):
        parts = f.relative_to(src).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def lazy_names(src: Path = SRC) -> dict[str, str]:
    """The package's names loaded on first use (`__init__`'s `NAMES` and `SUBMODULES`, PEP 562) -> the module
    each comes from: `from . import run` or `pacesim.run` imports `engine`, not the package's `__init__`."""
    tree = ast.parse((src / "__init__.py").read_text())
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if getattr(target, "id", None) == "SUBMODULES":
            names.update((e.value, e.value) for e in node.value.elts)
        elif getattr(target, "id", None) == "NAMES":  # {name: "module" for name in (...)}
            names.update((e.value, node.value.value.value) for e in node.value.generators[0].iter.elts)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "update" \
                and getattr(node.func.value, "id", None) == "NAMES":
            names.update((k.arg, k.value.value) for k in node.keywords)
    return names


def graph(src: Path = SRC) -> tuple[dict[str, set[str]], dict[str, int]]:
    """Module -> the pacesim modules it imports, and module -> how many of its imports sit in a function."""
    mods = modules(src)
    lazy = lazy_names(src)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    hidden = {m: 0 for m in mods}
    for name, path in mods.items():
        if path is None:
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(), str(path))
        in_function = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                in_function.update(id(n) for n in ast.walk(node) if n is not node)
        for node in ast.walk(tree):
            targets = _targets(node, package, mods, lazy)
            if targets and _runtime(node, tree):
                edges[name].update(t for t in targets if t != name)
                hidden[name] += id(node) in in_function
    return edges, hidden


def _targets(node: ast.AST, package: str, mods: dict, lazy: dict) -> list[str]:
    """The pacesim modules an import names: an import statement, a literal `importlib.import_module` or
    `__import__`, or a name the package loads on first use (`lazy`) taken from it (review-house36f D3)."""
    if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "pacesim" and node.attr in lazy:
        return [_known(lazy[node.attr], mods)]
    if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) == "import_module"
                                       or getattr(node.func, "id", None) == "__import__"):
        given = [a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if given and given[0].startswith("."):  # relative to the package given second (or this one)
            name = given[0].lstrip(".")
            return [_known(name, mods)] if len(given) < 2 or given[1] == "pacesim" else []
        if given and (given[0] == "pacesim" or given[0].startswith("pacesim.")):
            return [_known(given[0].partition(".")[2], mods)]
        return []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names if a.name == "pacesim" or a.name.startswith("pacesim.")]
        return [_known(n.partition(".")[2], mods) for n in names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = package.split(".") if package else []
        base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
        stem = ".".join([*base, *([node.module] if node.module else [])])
    elif node.module and (node.module == "pacesim" or node.module.startswith("pacesim.")):
        stem = node.module.partition(".")[2]
    else:
        return []
    out = []
    for a in node.names:
        child = f"{stem}.{a.name}" if stem else a.name
        out.append(child if child in mods else _known(lazy[a.name], mods) if not stem and a.name in lazy
                   else _known(stem, mods))
    return out


def _known(name: str, mods: dict) -> str:
    """`name`, or its longest prefix that is a module."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name


def _runtime(node: ast.AST, tree: ast.Module) -> bool:
    """False for an import under `if TYPE_CHECKING:` (a name for annotations, not a dependency at run time)."""
    for parent in ast.walk(tree):
        if isinstance(parent, ast.If) and getattr(parent.test, "id", None) == "TYPE_CHECKING":
            if any(n is node for n in ast.walk(parent)):
                return False
    return True


def floor(module: str) -> int:
    """The floor of `module`: that of its longest listed prefix (the package's own `""` only for itself);
    past the top for a module no prefix lists (`unlisted`)."""
    parts = module.split(".") if module else []
    if not parts:
        return FLOOR[""]
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if n < len(parts) and prefix + ".*" in FLOOR:  # below `prefix`: a wildcard's floor first
            return FLOOR[prefix + ".*"]
        if prefix in FLOOR:
            return FLOOR[prefix]
    return len(FLOORS)


def unlisted(edges: dict) -> list[str]:
    """Modules that no prefix of `FLOORS` places (a new module must be given its floor)."""
    return sorted(m for m in edges if floor(m) == len(FLOORS))


def upward(edges: dict) -> list[tuple[str, str]]:
    return sorted((a, b) for a, bs in edges.items() for b in bs if floor(b) > floor(a))


def name(m: str) -> str:
    return f"pacesim.{m}" if m else "pacesim"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 on a circle or an upward arrow")
    args = ap.parse_args()
    edges, hidden = graph()
    return report(edges, circles(edges), upward(edges), name, "modules", args.check,
                  f", {sum(hidden.values())} imports inside functions")

if __name__ == "__main__":
    sys.exit(main())
