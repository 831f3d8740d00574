"""No test loads code from bench/ (issue 36): what a test and a bench script share lives in tests/support/,
which the bench scripts import (tests/README.md), never the other way. A module under tests/ that puts a
bench/ directory on sys.path, or loads a file under bench/ by its path, is named here; running a bench script
as a command (a subprocess) is not loading it."""

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# Calls that make code importable or load it from a path: sys.path's own methods, importlib's and runpy's.
PATH_EDITS = {"insert", "append", "extend"}
LOADERS = {"spec_from_file_location", "SourceFileLoader", "SourcelessFileLoader", "run_path", "addsitedir"}
BENCH = re.compile(r"""["'/]bench(["'/]|$)""")  # a path part named bench, in the call's text


def _assigned(tree: ast.Module) -> dict:
    """Name -> the expressions assigned to it anywhere in the module (`ROOT = ...`, `SCRIPT = ROOT / ...`)."""
    out: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, []).append(node.value)
    return out


def _text(node: ast.AST, assigned: dict, depth: int = 0) -> str:
    """The node's source, followed by that of what every name in it was assigned (up to 5 names deep)."""
    parts = [ast.unparse(node)]
    if depth < 5:
        for name in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}:
            parts += [_text(value, assigned, depth + 1) for value in assigned.get(name, [])]
    return " ".join(parts)


def _path_call(call: ast.Call) -> bool:
    """Whether the call adds to sys.path or loads code from a path (an assignment to sys.path: `bench_loads`)."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if name in PATH_EDITS:
        return isinstance(f, ast.Attribute) and ast.unparse(f.value) == "sys.path"
    return name in LOADERS


def bench_loads(source: str) -> list:
    """`(line, call)` for every place the module's source puts bench/ on sys.path or loads a bench/ file."""
    tree = ast.parse(source)
    assigned = _assigned(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _path_call(node):
            args = [*node.args, *(k.value for k in node.keywords)]
            if any(BENCH.search(_text(a, assigned)) for a in args):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Assign) and any(ast.unparse(t).startswith("sys.path") for t in node.targets):
            if BENCH.search(_text(node.value, assigned)):
                found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_no_test_module_loads_code_from_bench():
    texts = {p.relative_to(TESTS): p.read_text() for p in sorted(TESTS.rglob("*.py"))}
    assert len(texts) > 50 and Path("support/__init__.py") in texts, "the walk reads tests/ and tests/support/"
    suspect = {p: t for p, t in texts.items() if "bench" in t and any(w in t for w in ("sys.path", *LOADERS))}
    found = {f"{p}:{line}": call for p, text in suspect.items() for line, call in bench_loads(text)}
    assert not found, found


def test_the_check_sees_bench_on_the_path_and_a_bench_file_loaded_by_path():
    assert [line for line, _ in bench_loads(
        "import sys\nfrom pathlib import Path\nROOT = Path(__file__).parents[1]\n"
        "sys.path.insert(0, str(ROOT / 'bench' / 'ns2'))\n"  # line 4
        "NS2 = ROOT / 'bench' / 'ns2'\nsys.path.append(str(NS2))\n"  # line 6: through a name
        "SCRIPT = NS2 / 'refs.py'\nspec = importlib.util.spec_from_file_location('refs', SCRIPT)\n"  # line 8
        "sys.path[:0] = ['bench/fuzz']\n"  # line 9
        "runpy.run_path(f'{ROOT}/bench/fuzz/hostile.py')\n")] == [4, 6, 8, 9, 10]
    # Loading a script outside bench/, running a bench script as a command, or naming bench/ in a string or
    # a comment is not loading its code.
    assert bench_loads(
        "import sys, subprocess\nROOT = Path(__file__).parents[1]\nTESTS = ROOT / 'tests'\n"
        "spec = importlib.util.spec_from_file_location('imports', ROOT / 'scripts' / 'imports.py')\n"
        "sys.path.insert(0, str(TESTS))\n"
        "subprocess.run([sys.executable, ROOT / 'bench' / 'wheel' / 'fresh_venv.py'])\n"
        "code = 'import sys; sys.path.insert(0, \"bench\")'  # bench/fuzz/hostile.py\n"
        "workbench = ROOT / 'workbench'\nsys.path.insert(0, str(workbench))\n") == []
