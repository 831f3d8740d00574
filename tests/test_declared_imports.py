"""Every module the package imports is the standard library's, pacesim's own, or a declared dependency's.

A fresh venv holds only what the wheel declares, while the test environment holds much more (the test
extra brings click with mkdocs and dask, for one), so an undeclared import passes every other test and
breaks `pacesim` for a new user: completion.py's `import click` did (issue 34's third review: the README's
first command died with ModuleNotFoundError from a fresh venv; typer no longer requires click). This reads
the source's imports and the installed wheel's declared requirements: a required dependency may be imported
anywhere (with what it brings), an extra's only where it is loaded lazily (inside a function, a try block or
`if TYPE_CHECKING:`), since the package must import without it; the test extra's tools count for neither."""

import ast
import re
import sys
from importlib.metadata import packages_distributions, requires
from pathlib import Path

import pacesim

PACKAGE = Path(pacesim.__file__).resolve().parent


def _norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _closure(requirements):
    """The distributions `requirements` (lines as `importlib.metadata.requires` gives them, with any
    `[extra]`) bring, their own requirements included: a dependency's dependency is always there with it
    (pydantic brings pydantic-core, jinja2 MarkupSafe, dask[distributed] distributed)."""
    seen, todo = set(), list(requirements)
    while todo:
        line = todo.pop()
        name = _norm(re.split(r"[\s<>=!~;\[(]", line, maxsplit=1)[0])
        wanted = set(re.findall(r"\[([^\]]+)\]", line.split(";")[0])[0].split(",")) if "[" in line.split(";")[0] else set()
        if (name, frozenset(wanted)) in seen:
            continue
        seen.add((name, frozenset(wanted)))
        try:
            own = requires(name) or []
        except Exception:  # not installed here: nothing more to follow
            own = []
        for sub in own:
            extra = re.search(r"extra\s*==\s*[\"']([^\"']+)", sub)
            if extra is None or _norm(extra.group(1)) in {_norm(w) for w in wanted}:
                todo.append(sub)
    return {name for name, _ in seen}


def _declared():
    """The distributions a wheel's install always brings, and those only its extras bring."""
    lines = requires("pacesim") or []
    required = _closure([line for line in lines if "extra ==" not in line])
    extras = _closure([line for line in lines if "extra ==" in line and not re.search(r"extra == [\"']test[\"']", line)])
    return required, extras - required


def _type_checking(node):
    """`if TYPE_CHECKING:`, whose imports never run."""
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree):
    """(top-level module, lazy) for every absolute import: lazy inside a function or a try block."""
    found = []

    def visit(node, lazy):
        for child in ast.iter_child_nodes(node):
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Try)) or _type_checking(child)
            if isinstance(child, ast.Import):
                found.extend((a.name.split(".")[0], lazy) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append((child.module.split(".")[0], lazy))
            visit(child, inner)

    visit(tree, False)
    return found


def test_the_package_imports_only_what_its_wheel_declares():
    required, extras = _declared()
    owners = packages_distributions()
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for module, lazy in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if module in sys.stdlib_module_names or module == "pacesim" or module == "__future__":
                continue
            dists = {_norm(d) for d in owners.get(module, [module])}
            if dists & required or (lazy and dists & extras):
                continue
            where = "an extra's, imported eagerly" if dists & extras else "not a declared dependency"
            wrong.append(f"{path.relative_to(PACKAGE)}: import {module} ({', '.join(sorted(dists))}: {where})")
    assert not wrong, "\n".join(wrong)


def test_an_undeclared_import_is_found():
    """The check itself: an eager import of an undeclared module, and of an extra's, are both caught."""
    required, extras = _declared()
    assert "typer" in required and "xarray" in extras
    assert "pydantic-core" in required and "distributed" in extras and "click" not in required and "pytest" not in extras
    tree = ast.parse("import click\ndef f():\n    import xarray\nimport xarray as x\nif TYPE_CHECKING:\n    import dask\n")
    assert _imports(tree) == [("click", False), ("xarray", True), ("xarray", False), ("dask", True)]
