"""A venv with Rust out of reach, for the wheel check (issue 21): bench/wheel/fresh_venv.py runs the whole
check with it, tests/test_wheel.py tests it.

Standard library only: tests/test_wheel.py imports it in a bare venv.
"""

from __future__ import annotations

import os
import site
import subprocess
import sys
import time
from pathlib import Path

RUST_TOOLS = ("cargo", "rustc")


def rustless_env() -> dict:
    """This environment with Rust out of reach and no PYTHONPATH leading to a source tree."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CARGO_HOME", "RUSTUP_HOME", "VIRTUAL_ENV")}
    dirs = [d for d in env.get("PATH", "").split(os.pathsep)
            if d and not any(os.access(os.path.join(d, t), os.X_OK) for t in RUST_TOOLS)]
    env["PATH"] = os.pathsep.join(dirs)
    return env


def make_venv(venv: Path, reuse_deps: bool, cwd: Path, env: dict) -> None:
    """A fresh venv at `venv`; with `reuse_deps`, one that sees this Python's packages after its own.

    `--system-site-packages` reaches only the base interpreter's site-packages. When this script runs
    inside a venv, the dependencies live in that venv's site-packages instead, so a `.pth` file in the
    new venv appends this interpreter's own site-packages directories (the new venv's come first, so
    the wheel installed there is the pacesim imported).
    """
    shared = ["--system-site-packages"] if reuse_deps else []
    step("python -m venv", [sys.executable, "-m", "venv", "--clear", *shared, venv], cwd, env)
    if reuse_deps:
        purelib = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                 env=env, capture_output=True, text=True, check=True).stdout.strip()
        outer = [p for p in (*site.getsitepackages(), site.getusersitepackages()) if os.path.isdir(p)]
        (Path(purelib) / "pacesim_outer_site.pth").write_text("".join(f"{p}\n" for p in outer))


def step(title: str, argv: list, cwd: Path, env: dict, tail: int = 6) -> float:
    """Run one step, print its wall time and last lines; stop the script if it fails."""
    t0 = time.perf_counter()
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    print(f"== {title}: exit {done.returncode}, {wall:.1f} s", flush=True)
    lines = (done.stdout + done.stderr).strip().splitlines()
    for line in lines[-tail:] if done.returncode == 0 else lines[-40:]:
        print(f"   {line}")
    if done.returncode != 0:
        sys.exit(f"step failed: {title}")
    return wall
