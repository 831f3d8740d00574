"""The wheel without Rust (bench/wheel/fresh_venv.py).

The whole check (a fresh venv, the wheel installed with no Rust on PATH, the main commands from /tmp) runs
here when PACESIM_WHEEL names a built wheel (`pip wheel . --no-deps -w dist`, then
PACESIM_WHEEL=dist/pacesim-....whl), with the dependencies this Python has installed (`--reuse-deps`: no
download; the wheel's declared requirements must be met by them); bench/wheel/README.md records a run, and one
with every dependency installed afresh. What always runs: the environment the script installs in really
hides Rust.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import wheel_venv

TESTS = Path(__file__).resolve().parent
SCRIPT = TESTS.parent / "bench" / "wheel" / "fresh_venv.py"


def test_the_install_environment_hides_rust_and_source_trees(tmp_path, monkeypatch):
    rust, other = tmp_path / "rust", tmp_path / "other"
    for d, tool in [(rust, "cargo"), (other, "ls")]:
        d.mkdir()
        (d / tool).write_text("#!/bin/sh\n")
        (d / tool).chmod(0o755)
    monkeypatch.setenv("PATH", os.pathsep.join([str(rust), str(other)]))
    monkeypatch.setenv("PYTHONPATH", "/somewhere/python")
    monkeypatch.setenv("CARGO_HOME", "/root/.cargo")
    env = wheel_venv.rustless_env()
    assert env["PATH"] == str(other)
    assert not {"PYTHONPATH", "CARGO_HOME"} & set(env)


def test_a_reused_venv_made_from_a_venv_sees_that_venvs_packages(tmp_path):
    """Run from an activated venv, `--reuse-deps` must reach the venv's packages, not only the base
    interpreter's (issue 34: `PackageNotFoundError: typer` inside a venv)."""
    outer = tmp_path / "outer"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", outer], check=True)
    outer_site = subprocess.run([outer / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                capture_output=True, text=True, check=True).stdout.strip()
    (Path(outer_site) / "only_in_the_outer_venv.py").write_text("WHERE = 'outer'\n")
    make = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); from support import wheel_venv; "
            "wheel_venv.make_venv(Path(sys.argv[2]), True, Path(sys.argv[3]), wheel_venv.rustless_env())")
    subprocess.run([outer / "bin" / "python", "-c", make, TESTS, tmp_path / "inner", tmp_path], check=True,
                   capture_output=True)
    seen = subprocess.run([tmp_path / "inner" / "bin" / "python", "-c", "import only_in_the_outer_venv as m; print(m.WHERE)"],
                          capture_output=True, text=True)
    assert seen.stdout.strip() == "outer", seen.stderr


@pytest.mark.skipif(not os.environ.get("PACESIM_WHEEL"), reason="set PACESIM_WHEEL to a built wheel")
def test_the_wheel_installs_and_runs_without_rust(tmp_path):
    done = subprocess.run([sys.executable, SCRIPT, "--wheel", os.environ["PACESIM_WHEEL"], "--venv", tmp_path / "venv",
                           "--reuse-deps"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all steps passed" in done.stdout
