#!/usr/bin/env python3
"""The wheel without Rust (issue 21): build it, install it in a fresh venv, use it from /tmp.

1. `pip wheel . --no-deps` builds the maturin wheel (skipped with `--wheel FILE`);
2. `python -m venv` makes a fresh venv, and pip installs the wheel and its
   dependencies there with Rust out of reach: PYTHONPATH unset, PATH without
   every directory that holds `cargo` or `rustc`, CARGO_HOME and RUSTUP_HOME
   unset; the venv's Python checks that neither tool is found and that it
   imports pacesim from the venv;
3. from a fresh directory under /tmp, with the same environment:
   `pacesim --version`, `pacesim run e-base --set core.buffer=5KB` (cut to
   60 s, measured from 20 s, unless `--full`), `pacesim reproduce Q-tab2 --results DIR`,
   and notebook.py (pacesim.run with `set=[...]`, the store, a small sweep).

Each step is timed and must exit 0; its output's last lines are printed.
Building a release wheel from scratch costs minutes of CPU: bench/wheel/README.md
records one run.

`--reuse-deps` (what tests/test_wheel.py uses in CI) makes the venv with
`--system-site-packages` and, when this Python is itself a venv, a `.pth` file
reaching this venv's site-packages (see tests/support/wheel_venv.py's `make_venv`), so its dependencies are the
ones this Python has installed and nothing is downloaded: pip installs only the wheel itself (no
index, the venv's copy ahead of any installed pacesim), and every requirement
the wheel declares must be met by the installed versions.

    python bench/wheel/fresh_venv.py [--wheel FILE] [--venv DIR] [--full] [--reuse-deps]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from support.wheel_venv import RUST_TOOLS, make_venv, rustless_env, step  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = Path(__file__).resolve().parent / "notebook.py"
SHORT = ["--set", "duration=60s", "--set", "warmup=20s"]
"""E-base cut short for a quick check (its own warm-up is 100 s)."""
CHECK = ("import shutil, sys, pacesim; "
         "assert all(shutil.which(t) is None for t in sys.argv[1:]), 'Rust on PATH'; "
         "assert pacesim.__file__.startswith(sys.prefix), pacesim.__file__; "
         "print('no', *sys.argv[1:], 'on PATH; pacesim from', pacesim.__file__)")
REQUIREMENTS = ("from importlib.metadata import requires, version; from packaging.requirements import Requirement; "
                "reqs = [Requirement(r) for r in requires('pacesim')]; "
                "reqs = [r for r in reqs if r.marker is None or r.marker.evaluate({'extra': ''})]; "
                "bad = [f'{r} (installed {version(r.name)})' for r in reqs if version(r.name) not in r.specifier]; "
                "assert not bad, bad; print(len(reqs), 'requirements met by the installed versions')")
"""Every requirement of the installed wheel (extras aside) met by the version installed."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", type=Path, help="An already built wheel [default: build one with pip wheel].")
    ap.add_argument("--venv", type=Path, help="Where to make the venv [default: a temporary directory].")
    ap.add_argument("--full", action="store_true", help="Run the whole 400 s E-base.")
    ap.add_argument("--reuse-deps", action="store_true", help="Dependencies from this Python's site-packages "
                                                              "(no download): a venv with --system-site-packages.")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pacesim-wheel-"))
    wheel = args.wheel
    if wheel is None:
        step("pip wheel . --no-deps", [sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "-w", work / "dist"],
             ROOT, dict(os.environ))
        wheel = next((work / "dist").glob("pacesim-*.whl"))
    env = rustless_env()
    print(f"wheel {wheel.resolve()}\nPATH without Rust: {env['PATH']}")
    venv = args.venv or work / "venv"
    make_venv(venv, args.reuse_deps, work, env)
    bin_ = venv / "bin"
    env = {**env, "PATH": f"{bin_}{os.pathsep}{env['PATH']}", "VIRTUAL_ENV": str(venv)}
    only = ["--no-index", "--no-deps", "--force-reinstall"] if args.reuse_deps else []
    step("pip install the wheel (no Rust)", [bin_ / "python", "-m", "pip", "install", "-q", *only, wheel.resolve()],
         work, env)
    step("Rust is out of reach", [bin_ / "python", "-c", CHECK, *RUST_TOOLS], work, env)
    step("the wheel's requirements", [bin_ / "python", "-c", REQUIREMENTS], work, env)
    here = Path(tempfile.mkdtemp(prefix="pacesim-user-", dir="/tmp"))
    step("pacesim --version", [bin_ / "pacesim", "--version"], here, env)
    short = [] if args.full else SHORT
    step(f"pacesim run e-base --set core.buffer=5KB {' '.join(short)}".strip(),
         [bin_ / "pacesim", "run", "e-base", "--set", "core.buffer=5KB", *short], here, env, tail=10)
    step("pacesim reproduce Q-tab2", [bin_ / "pacesim", "reproduce", "Q-tab2", "--results", here / "results",
                                      "--workers", "1"], here, env, tail=8)
    step("notebook.py", [bin_ / "python", NOTEBOOK, here / "nb"], here, env, tail=10)
    print(f"all steps passed; venv {venv}, user directory {here}")


if __name__ == "__main__":
    main()
