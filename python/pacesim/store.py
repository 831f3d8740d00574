"""The results store: every run of every sweep, on disk, safe to kill.

Layout under a results directory:

    pacesim.sqlite              runs, sweeps, sweep membership, per-run tables
    tables/<name>/<kk>/<key>.parquet   one Parquet file per run and table

SQLite (not DuckDB) because the store is written one small row at a time by
a single process while a sweep runs, and must survive `kill -9` at any
instant: SQLite's journal makes each commit atomic and durable, ships with
Python, and any number of readers can look while a sweep writes (WAL mode).
Bulk analysis happens on the pandas frames this module returns (and DuckDB or
pyarrow can read the Parquet files directly).

A run is keyed by `run_key`: a hash of the normalised scenario (SI units,
sorted keys, seed included) and the engine version, so equal points in
different sweeps share one run and a rerun skips it. A run's Parquet files
are written first (to `<key>.parquet.<pid>.tmp`, then renamed) and its row
committed after: a kill before the commit leaves a file no row points at,
which the point's rerun overwrites (and removes the dead writer's temporary
file); never a row pointing at nothing. A run whose table file was deleted
later counts as not finished, so a rerun of its sweep runs it again. Several sweeps may write one store at
once: each writes its own temporary files, and waits its turn for the
database, retrying while another holds the lock. A reader (`read_only`)
writes nothing, so a store it may not write is still readable (with its
last commits, if a writer killed mid-sweep left them in the WAL file). The `run_tables` table names
each run's tables (`TABLES`: `flows`, one row per TCP flow; `transfers`,
one row per finished short-lived transfer; `burstiness`, beta at each time
scale, `progress`, every flow's bytes at each sample time, and `delay`, the
CDF of one-way packet delays, when the run measured them; `series`, the
time series in long form, only for runs that recorded them).

The store only stores and loads: what it saves of a run is its `Result`'s
(the tables' rows and the metrics, `report_tables` and `metrics`), and what it
loads back is the same frames a live run's `Result` gives.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Optional, Union

import pandas as pd

from .metrics import tcp_metrics_of_old
from .report_tables import TABLES, flat, links, view

if TYPE_CHECKING:
    from .result import Result

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    key            TEXT PRIMARY KEY,   -- run_key(): scenario + seed + engine version
    status         TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error          TEXT,               -- why a failed run failed
    scenario       TEXT NOT NULL,      -- JSON, human units (for a failed override: the sweep's base)
    seed           INTEGER NOT NULL,
    engine_version TEXT NOT NULL,
    code_version   TEXT NOT NULL,      -- package version + git commit of the code that ran it
    metrics        TEXT,               -- JSON: Result.metrics (metrics.run_metrics)
    report         TEXT,               -- JSON: the engine report without its per-flow table
    wall_s         REAL,               -- engine wall time
    events         INTEGER,
    packet_hops    INTEGER,
    host           TEXT,               -- machine that ran it
    finished_at    TEXT NOT NULL       -- UTC, ISO 8601
);
CREATE TABLE IF NOT EXISTS sweeps (
    name       TEXT PRIMARY KEY,
    spec       TEXT NOT NULL,          -- JSON: base scenario, axes, seeds, fixed overrides
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sweep_points (
    sweep TEXT NOT NULL REFERENCES sweeps(name),
    axes  TEXT NOT NULL,               -- JSON: {axis: value as written in the sweep}
    seed  INTEGER NOT NULL,
    key   TEXT NOT NULL,               -- the run (several points may share one)
    PRIMARY KEY (sweep, axes, seed)
);
CREATE TABLE IF NOT EXISTS run_tables (
    key  TEXT NOT NULL REFERENCES runs(key),
    name TEXT NOT NULL,                -- one of TABLES
    path TEXT NOT NULL,                -- relative to the results directory
    rows INTEGER NOT NULL,
    PRIMARY KEY (key, name)
);
"""

def run_key(engine_scenario: dict, engine_version: str) -> str:
    """The hash identifying a run: normalised scenario (its seed included) and engine version."""
    text = json.dumps({"scenario": engine_scenario, "engine": engine_version}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@lru_cache(maxsize=1)
def code_version() -> str:
    """This package's version, plus the git commit (and `.dirty`) when run from a checkout."""
    try:
        text = version("pacesim")
    except PackageNotFoundError:
        text = "unknown"
    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return text
    return f"{text}+g{commit}{'.dirty' if dirty else ''}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


LOCK_WAIT_S = 60
"""How long a writer waits in all for a database another process holds locked."""


def _when_unlocked(step):
    """`step()`, retried with growing pauses while SQLite reports the database
    locked or busy (another writer), for up to `LOCK_WAIT_S`."""
    deadline = time.monotonic() + LOCK_WAIT_S
    pause = 0.01
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            text = str(e)
            if ("locked" not in text and "busy" not in text) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, 1.0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Store:
    """A results directory: its SQLite database and Parquet tables; with
    `read_only`, an existing one opened for reading only."""

    def __init__(self, root: Union[str, Path], read_only: bool = False):
        self.root = Path(root)
        self._copy: Optional[tempfile.TemporaryDirectory] = None  # a read-only store's database, copied with its WAL
        path = self.root / "pacesim.sqlite"
        if read_only:
            if not path.exists():
                raise FileNotFoundError(f"no results store in {self.root}")
            self.db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=LOCK_WAIT_S,
                                      isolation_level=None)
            try:
                self.db.execute("SELECT 1 FROM runs LIMIT 1").fetchall()
            except sqlite3.OperationalError:
                # A WAL database in a directory this process may not write (no
                # shared-memory file to make): read it as it stands on disk,
                # or, if its last commits are still in its WAL file (which an
                # immutable reader ignores), from a copy of both.
                self.db.close()
                wal = path.with_name(path.name + "-wal")
                if wal.exists() and wal.stat().st_size > 0:
                    self._copy = tempfile.TemporaryDirectory(prefix="pacesim-store-")
                    for f in (path, wal):
                        shutil.copyfile(f, Path(self._copy.name) / f.name)
                    self.db = sqlite3.connect(Path(self._copy.name) / path.name, isolation_level=None)
                else:
                    self.db = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True,
                                              isolation_level=None)
            return
        self.root.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, timeout=LOCK_WAIT_S, isolation_level=None)
        _when_unlocked(lambda: self.db.execute("PRAGMA journal_mode=WAL"))
        self.db.execute("PRAGMA synchronous=FULL")
        _when_unlocked(lambda: self.db.executescript(SCHEMA))

    def close(self) -> None:
        self.db.close()
        if self._copy is not None:
            self._copy.cleanup()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- writing (one process: the one running the sweep) ---

    def register_sweep(self, name: str, spec: dict, points: Iterable[tuple[dict, int, str]]) -> None:
        """Record (or redefine) sweep `name` with its points as (axes, seed, run key)."""
        now = _now()
        with self._transaction():
            self.db.execute(
                "INSERT INTO sweeps VALUES (?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET spec = excluded.spec, "
                "updated_at = excluded.updated_at",
                (name, json.dumps(spec), now, now),
            )
            self.db.execute("DELETE FROM sweep_points WHERE sweep = ?", (name,))
            self.db.executemany(
                "INSERT OR REPLACE INTO sweep_points VALUES (?, ?, ?, ?)",
                [(name, json.dumps(axes, sort_keys=True), seed, key) for axes, seed, key in points],
            )

    def finished(self, keys: Iterable[str]) -> set[str]:
        """Those of `keys` that already have a successful run whose every table
        file is still there (a point whose Parquet file was deleted is run again)."""
        keys = list(keys)
        found: set[str] = set()
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            rows = self.db.execute(
                f"SELECT r.key, t.path FROM runs r LEFT JOIN run_tables t ON t.key = r.key "
                f"WHERE r.status = 'ok' AND r.key IN ({','.join('?' * len(chunk))})", chunk
            ).fetchall()
            found.update(key for key, _ in rows)
            found.difference_update(key for key, path in rows if path is not None and not (self.root / path).is_file())
        return found

    def save_ok(self, key: str, result: Result, host: str) -> None:
        """Store a successful run: its tables' rows (`Result.rows`) to Parquet, then its row with its
        metrics (`Result.metrics`) and the rest of its report, atomically."""
        report = result.report
        tables = {name: self._write_table(key, name, result.rows(name)) for name in TABLES
                  if name != "series" or report.get("series") is not None}
        rest = {k: v for k, v in report.items() if k not in TABLES}
        with self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO runs VALUES (?, 'ok', NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, json.dumps(result.human_scenario), result.seed, result.engine_version, code_version(),
                 json.dumps(result.metrics), json.dumps(rest), result.wall_s,
                 report["work"]["events"], report["work"]["packet_hops"], host, _now()),
            )
            self.db.executemany("INSERT OR REPLACE INTO run_tables VALUES (?, ?, ?, ?)",
                                [(key, name, str(rel), rows) for name, (rel, rows) in tables.items()])

    def _write_table(self, key: str, name: str, frame: pd.DataFrame) -> tuple[Path, int]:
        """Write one table durably; its path relative to the root, and its rows."""
        rel = Path("tables") / name / key[:2] / f"{key}.parquet"
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # this process's own
        try:
            frame.to_parquet(tmp, index=False)
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
        except BaseException:  # Ctrl-C or an error: nothing half-written stays
            tmp.unlink(missing_ok=True)
            raise
        os.replace(tmp, path)
        for left in path.parent.glob(f"{path.name}.*.tmp"):  # by a writer killed mid-write
            pid = left.name.split(".")[-2]
            if pid.isdigit() and not _alive(int(pid)):
                left.unlink(missing_ok=True)
        return rel, len(frame)

    def save_failed(self, key: str, scenario: dict, seed: int, engine_version: str, error: str,
                    host: Optional[str] = None) -> None:
        """Store a failed run with its error; a later successful run replaces it."""
        with self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO runs (key, status, error, scenario, seed, engine_version, code_version, "
                "host, finished_at) VALUES (?, 'failed', ?, ?, ?, ?, ?, ?, ?)",
                (key, error, json.dumps(scenario), seed, engine_version, code_version(), host, _now()),
            )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE (once no other writer holds the database) ... COMMIT,
        or ROLLBACK if the body raises."""
        _when_unlocked(lambda: self.db.execute("BEGIN IMMEDIATE"))
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # --- reading ---

    def sweeps(self) -> pd.DataFrame:
        """One row per sweep: points, ok, failed, pending, total engine seconds, last update."""
        return pd.read_sql_query(
            """SELECT s.name AS sweep, COUNT(p.key) AS points,
                      COALESCE(SUM(r.status = 'ok'), 0) AS ok,
                      COALESCE(SUM(r.status = 'failed'), 0) AS failed,
                      COUNT(p.key) - COUNT(r.key) AS pending,
                      COALESCE(SUM(r.wall_s), 0.0) AS engine_s,
                      s.updated_at
               FROM sweeps s LEFT JOIN sweep_points p ON p.sweep = s.name
               LEFT JOIN runs r ON r.key = p.key
               GROUP BY s.name ORDER BY s.updated_at""",
            self.db,
        )

    def spec(self, sweep: str) -> dict:
        row = self.db.execute("SELECT spec FROM sweeps WHERE name = ?", (sweep,)).fetchone()
        if row is None:
            raise KeyError(f"no sweep named {sweep!r} in {self.root}")
        return json.loads(row[0])

    def points(self, sweep: str) -> pd.DataFrame:
        """One row per point of `sweep`: its axes (one column each, values as written in
        the sweep), seed, key, status ('ok', 'failed' or 'pending'), error, every metric,
        wall time and code version."""
        axes = list(self.spec(sweep)["axes"])
        rows = self.db.execute(
            """SELECT p.key, p.axes, p.seed, COALESCE(r.status, 'pending'), r.error, r.metrics, r.wall_s,
                      r.code_version, r.finished_at
               FROM sweep_points p LEFT JOIN runs r ON r.key = p.key WHERE p.sweep = ? ORDER BY p.rowid""",
            (sweep,),
        ).fetchall()
        records = []
        for key, values, seed, status, error, mets, wall_s, code, finished in rows:
            point = json.loads(values)
            found = json.loads(mets) if mets else {}
            if found and "tcp_utilisation" not in found:
                found.update(tcp_metrics_of_old(self.report(key), found))
            rec = {a: point[a] for a in axes}
            rec.update(seed=seed, key=key, status=status, error=error)
            # An axis named like a metric (E-fig4's `flows`, scaled down in quick runs) keeps the value
            # the sweep wrote.
            rec.update({k: v for k, v in found.items() if k not in rec})
            rec.update(wall_s=wall_s, code_version=code, finished_at=finished)
            records.append(rec)
        return pd.DataFrame.from_records(records)

    def provenance(self, sweep: str) -> dict:
        """What ran `sweep`'s finished points: the distinct engine versions, code versions and hosts, each sorted."""
        rows = self.db.execute(
            """SELECT DISTINCT r.engine_version, r.code_version, r.host FROM sweep_points p
               JOIN runs r ON r.key = p.key WHERE p.sweep = ?""", (sweep,)).fetchall()
        return {name: sorted({r[i] for r in rows if r[i]}) for i, name in
                enumerate(["engine_version", "code_version", "host"])}

    def report(self, key: str) -> dict:
        """A run's stored engine report (without its tables) and its scenario."""
        row = self.db.execute("SELECT scenario, report FROM runs WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(f"no run {key}")
        return {"scenario": json.loads(row[0]), **(json.loads(row[1]) if row[1] else {})}

    def table(self, key: str, name: str = "flows") -> pd.DataFrame:
        """One run's table (one of `TABLES`), the same frame as the run's `Result` gives
        (`report_tables.view`; an unmeasured table is empty here, None there)."""
        row = self.db.execute("SELECT path FROM run_tables WHERE key = ? AND name = ?", (key, name)).fetchone()
        if row is None:
            raise KeyError(f"run {key} has no {name!r} table")
        return view(name, pd.read_parquet(self.root / row[0]))

    def links(self, key: str) -> pd.DataFrame:
        """One run's links, kept in its report (`Result.links`)."""
        return links(self.report(key))

    def rows(self, sweep: str, name: str = "flows") -> pd.DataFrame:
        """Table `name` of every successful point of `sweep` (every flow, or
        every transfer), with the point's axes and seed."""
        pts = self.points(sweep)
        ok = pts[pts["status"] == "ok"]
        axes = list(self.spec(sweep)["axes"])
        frames = [flat(name, self.table(row["key"], name)).assign(**{a: row[a] for a in axes}, seed=row["seed"])
                  for row in ok.to_dict("records")]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
