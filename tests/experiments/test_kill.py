"""`kill -9` in the middle of a sweep loses no finished point and corrupts nothing; a worker killed (the
kernel's OOM killer, `kill -9`) fails the point it ran, and only that one."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pandas as pd
import psutil

from pacesim.store import Store
from pacesim.sweep import Sweep, executor, load_sweep, run_sweep

SWEEP = """name = "killed"
seeds = [1, 2]
set = ["topology.edges=2", "topology.hosts_per_edge=5", "duration=20s", "warmup=5s"]
[axes]
"core.buffer" = ["2KB", "3KB", "5KB", "10KB", "20KB"]
"pacing.scheme" = ["none", "edge"]
"""


def _ok_rows(db) -> pd.DataFrame:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as con:
        return pd.read_sql_query("SELECT key, finished_at, metrics FROM runs WHERE status = 'ok'", con)


def _count_ok(db) -> int:
    """Finished points so far; 0 while the sweep is still creating its database."""
    try:
        return len(_ok_rows(db)) if db.exists() else 0
    except (sqlite3.Error, pd.errors.DatabaseError):
        return 0


def test_kill_9_mid_sweep_then_resume(tmp_path, pool):
    (tmp_path / "s.toml").write_text(SWEEP)
    results = tmp_path / "results"
    db = results / "pacesim.sqlite"
    cmd = [sys.executable, "-c", "from pacesim.cli import app; app()", "sweep", str(tmp_path / "s.toml"),
           "--results", str(results), "--workers", "1", "--quiet"]
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if _count_ok(db) >= 3:
                break
            time.sleep(0.05)
        assert proc.poll() is None, f"the sweep ended before it could be killed: {proc.stderr.read().decode()}"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        try:  # the pool's worker, orphaned by the kill, is in the same session
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    before = _ok_rows(db)
    assert 3 <= len(before) < 20

    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with Store(results) as store:
        run = run_sweep(load_sweep(tmp_path / "s.toml"), store, pool, progress=False)
        assert run.skipped >= len(before) and run.skipped + run.ran == 20 and run.failed == 0
        after = _ok_rows(db).set_index("key")
        assert len(after) == 20
        # every row finished before the kill is still there, untouched
        pd.testing.assert_frame_equal(after.loc[before["key"]].reset_index(), before)
        points = store.points("killed")
        assert (points["status"] == "ok").all()
        for key, flows in zip(points["key"], points["flows"]):
            assert len(store.table(key)) == flows == 10
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not list(results.rglob("*.tmp"))  # a file being written at the kill is rewritten


def test_a_killed_worker_fails_only_the_point_it_ran(tmp_path):
    # Four points of about 0.1 s on two workers, one of them stopped (SIGSTOP) before the sweep: it takes a
    # point and holds it while the other runs the other three; then it is killed, as the OOM killer does.
    sweep = Sweep(name="oom", axes={"core.buffer": ["5KB", "10KB"]}, seeds=[1, 2],
                  set=["topology.edges=2", "topology.hosts_per_edge=2", "duration=2s", "warmup=1s",
                       'traffic.start=["0s", "0.5s"]'])
    me = psutil.Process()
    others = {c.pid for c in me.children()}
    with Store(tmp_path) as store, executor(workers=2) as pool:
        held, free = [c.pid for c in me.children() if c.pid not in others]
        os.kill(held, signal.SIGSTOP)

        def kill_once_three_are_done() -> None:
            deadline = time.monotonic() + 60
            while _count_ok(tmp_path / "pacesim.sqlite") < 3 and time.monotonic() < deadline:
                time.sleep(0.02)
            os.kill(held, signal.SIGKILL)

        killer = threading.Thread(target=kill_once_three_are_done)
        killer.start()
        first = run_sweep(sweep, store, pool, progress=False)
        killer.join()
        assert (first.ran, first.failed) == (4, 1)
        points = store.points("oom", written=True)
        lost = points[points["status"] == "failed"].iloc[0]
        assert lost["error"] == (f"point core.buffer={lost['core.buffer']!r}, seed {lost['seed']}: its worker "
                                 "process was killed by SIGKILL (signal 9) (the kernel's out-of-memory killer, or "
                                 "a kill -9); the sweep went on in a new worker, and a rerun runs this point again")
        assert psutil.pid_exists(free)  # the other worker was not disturbed
        again = run_sweep(sweep, store, pool, progress=False)  # on a new worker, or the other
        assert (again.skipped, again.ran, again.failed) == (3, 1, 0)
        assert (store.points("oom")["status"] == "ok").all()
