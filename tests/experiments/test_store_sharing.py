"""A results store shared: read by a process that writes nothing, and
written by two sweeps at once (real processes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pacesim.store import Store, StoreError
from pacesim.sweep import run_sweep

from .conftest import tiny_sweep

SWEEP = """name = "{name}"
seeds = [1, 2, 3]
set = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=3s", "warmup=1s", "traffic.start=[\\"0s\\", \\"1s\\"]"]
[axes]
"core.buffer" = ["2KB", "3KB", "5KB", "10KB"]
"""


def _files(root):
    """Every file's size and time, but SQLite's WAL side files, which a reader
    of a WAL database makes where it may (and does without where it may not)."""
    return {p.relative_to(root): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")
            if p.is_file() and not p.name.endswith(("-wal", "-shm"))}


def test_a_reader_writes_nothing(tmp_path, pool):
    with Store(tmp_path) as store:
        run_sweep(tiny_sweep("read"), store, pool, progress=False)
    before = _files(tmp_path)
    with Store(tmp_path, read_only=True) as store:
        points = store.points("read")
        assert len(points) == 8 and (points["status"] == "ok").all()
        assert len(store.table(points["key"][0])) == 10
        with pytest.raises(StoreError, match="cannot be written .* readonly"):
            store.save_failed("k", {}, 1, "v", "no")
    assert _files(tmp_path) == before
    with pytest.raises(FileNotFoundError):
        Store(tmp_path / "nothing", read_only=True)
    assert not (tmp_path / "nothing").exists()


def _read_only_mount(root) -> list[str]:
    """A command prefix that runs its command where `root` is a read-only
    file system (a bind mount in a user and mount namespace: no privilege
    needed, and root's writes fail too, as chmod would not make them)."""
    prefix = ["unshare", "-rm", "sh", "-c", 'mount -o bind,ro "$0" "$0" && exec "$@"', str(root)]
    try:
        probe = subprocess.run(prefix + ["touch", str(root / "probe")], capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        pytest.skip("no unshare(1) here")
    if "Read-only file system" not in probe.stderr:
        pytest.skip(f"cannot mount read-only here: {probe.stderr.strip()}")
    return prefix


def test_a_store_on_a_read_only_file_system_is_listed_by_a_real_process(tmp_path, pool):
    # Once not even readable: the reader set WAL and ran the schema (issue 20).
    with Store(tmp_path) as store:
        run_sweep(tiny_sweep("ro"), store, pool, progress=False)
    before = _files(tmp_path)
    cli = [sys.executable, "-c", "from pacesim.cli import app; app()", "results", "--results", str(tmp_path)]
    mount = _read_only_mount(tmp_path)
    listed = subprocess.run(mount + cli, capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0, listed.stderr
    assert "Read-only" not in listed.stderr and "Traceback" not in listed.stderr
    line = next(row for row in listed.stdout.splitlines() if " ro " in row)
    assert [c.strip() for c in line.split("│")[2:5]] == ["8", "8", "0"], listed.stdout  # points, ok, failed
    points = subprocess.run(mount + cli + ["ro"], capture_output=True, text=True, timeout=300)
    assert points.returncode == 0 and points.stdout.count(" ok ") == 8, points.stdout + points.stderr
    assert _files(tmp_path) == before
    # A writer killed with its last commit in the WAL file, the store then
    # copied without its shared-memory file: an immutable reader would not
    # see that commit (once "no such table: runs" for a new store).
    killed = ("import os, signal; from pacesim.store import Store; s = Store(%r); "
              "s.register_sweep('late', {}, [({}, 1, 'k')]); os.kill(os.getpid(), signal.SIGKILL)" % str(tmp_path))
    assert subprocess.run([sys.executable, "-c", killed], timeout=120).returncode == -9
    (tmp_path / "pacesim.sqlite-shm").unlink()
    assert (tmp_path / "pacesim.sqlite-wal").stat().st_size > 0
    listed = subprocess.run(mount + cli, capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0 and " late " in listed.stdout and " ro " in listed.stdout, listed.stdout + listed.stderr


def test_two_sweeps_write_one_store_at_once(tmp_path):
    # The same points in both: the same tables written at the same time.
    for name in ("one", "two"):
        (tmp_path / f"{name}.toml").write_text(SWEEP.format(name=name))
    results = tmp_path / "results"
    cmd = [sys.executable, "-c", "from pacesim.cli import app; app()", "sweep", "--results", str(results),
           "--workers", "1", "--quiet"]
    procs = [subprocess.Popen(cmd + [str(tmp_path / f"{name}.toml")], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for name in ("one", "two")]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert "0 failed" in out, out + err
    with Store(results, read_only=True) as store:
        for name in ("one", "two"):
            points = store.points(name)
            assert len(points) == 12 and (points["status"] == "ok").all()
    assert not list(results.rglob("*.tmp"))


def test_a_sweep_on_a_read_only_file_system_is_a_store_error_naming_it(tmp_path, pool):
    # Once an sqlite3.OperationalError traceback ("unable to open database file").
    with Store(tmp_path) as store:
        run_sweep(tiny_sweep("ro"), store, pool, progress=False)
    before = _files(tmp_path)
    code = ("from pacesim.store import Store, StoreError\n"
            "try:\n    Store(%r)\nexcept StoreError as e:\n    print(e)\n" % str(tmp_path))
    out = subprocess.run(_read_only_mount(tmp_path) + [sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and not out.stderr, out.stderr
    assert out.stdout.startswith(f"{tmp_path}/pacesim.sqlite: it cannot be written here (a read-only file system, "
                                 "or no permission)"), out.stdout
    assert _files(tmp_path) == before
