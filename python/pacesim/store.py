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
file); never a row pointing at nothing. SQLite keeps no checksum of a row,
nor Parquet of a file, so the store keeps its own, committed with what they
cover: a run's (`runs.sha256`: its row and its tables' rows), each table
file's (`run_tables.sha256`) and a sweep's (`sweeps.sha256`: its name, spec
and points). A run whose row or file was later changed by a single bit,
cut short or deleted counts as not finished (`Store.check` names what), so
a rerun of its sweep runs it again, and as damaged, not ok, in `sweeps` and
`points(..., damaged=True)` (`pacesim results`); reading it, or a sweep
changed so, raises a StoreError naming it. SQLite's integrity check runs at each open: a
key changed in its row but not in its index (a lookup then misses the run) has
the indexes rebuilt by a writer, with a warning, and is a StoreError for a
reader. (A store written before checksums were kept has none for its old
runs: the first writer to open it reads each through once and records the
checksums of those that read whole, then marks the store's format
(`FORMAT`); from then on a checksum missing is damage, as one that differs.)
Several sweeps may write one store at
once: each writes its own temporary files, and waits its turn for the
database, retrying while another holds the lock. A reader (`read_only`)
writes nothing, so a store it may not write is still readable (with its
last commits, if a writer killed mid-sweep left them in the WAL file). The `run_tables` table names
each run's tables (`TABLES`: `flows`, one row per TCP flow; `transfers`,
one row per finished short-lived transfer; `burstiness`, beta at each time
scale, `progress`, every flow's bytes at each sample time, and `delay`, the
CDF of one-way packet delays, when the run measured them; `series`, the
time series in long form, only for runs that recorded them).

Every failure of the store itself (a directory that is a file, a database
that is not one or is damaged, a FIFO, device or directory in place of the
database or a file SQLite keeps beside it, refused before SQLite opens it, a
disk full or read-only while a sweep writes) raises a `StoreError` naming
the file, and what was committed before it is kept.

The store only stores and loads: what it saves of a run is its `Result`'s
(the tables' rows and the metrics, `report_tables` and `metrics`), and what it
loads back is the same frames a live run's `Result` gives.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import tempfile
import time
import warnings
from collections import Counter
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, Optional, Union

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from . import outfile, schema
from .fields import MAX_SEED, special, unresolved
from .messages import printable, shown
from .metrics import OVER_NONE, tcp_metrics_of_old
from .metrics import measured as measured_only
from .report_tables import TABLES, flat, links, numeric_axes, report_number, unmeasured_as_nan, view

if TYPE_CHECKING:
    import xarray

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
    finished_at    TEXT NOT NULL,      -- UTC, ISO 8601
    sha256         TEXT                -- of the row and its tables' rows as committed (`_run_sum`; NULL: before)
);
CREATE TABLE IF NOT EXISTS sweeps (
    name       TEXT PRIMARY KEY,
    spec       TEXT NOT NULL,          -- JSON: base scenario, axes, seeds, fixed overrides; who registered it
                                       -- (origin: 'reproduce', 'sweep FILE'; none before origins were kept)
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    sha256     TEXT                    -- of its name, spec and points as committed (`_sweep_sum`)
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
    sha256 TEXT,                       -- of the file as committed (NULL: written before checksums were kept)
    PRIMARY KEY (key, name)
);
"""


def _schema_columns() -> dict[str, list[str]]:
    """Each table's columns in order, as `SCHEMA` makes them."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        return {t: [row[1] for row in db.execute(f"PRAGMA table_info({t})")]
                for t in ("runs", "sweeps", "sweep_points", "run_tables")}
    finally:
        db.close()


_COLUMNS = _schema_columns()
FORMAT = 1
"""The store's format, in SQLite's `user_version`: 0 for a store no writer of this code has opened, whose
rows may lack checksums (written before checksums were kept, or by code that recorded them only as it read
old rows through); from 1 on, every row and file has had its checksum since it was committed, or since the
writer that marked the store read it through whole."""
ORIGIN = "origin"
"""The key of a stored sweep definition naming who registered it: "reproduce" (a figure's packaged definition)
or "sweep FILE" (a user's file run with `pacesim sweep`, its absolute path); a sweep registered before origins
were kept has none."""
SIDE_FILES = ("-journal", "-wal", "-shm")
"""The endings of the files SQLite keeps beside a database of that name: its rollback journal, its write-ahead
log and the log's shared-memory index."""
_BEFORE_CHECKSUMS = [set(), {"runs", "run_tables", "sweeps"}, {"sweeps"}]
"""The tables without their `sha256` column in a store whole as written: none, all (before checksums), or
`sweeps` (written between the runs' checksums and the sweeps')."""


class StoreError(ValueError):
    """The results store cannot be opened, read or written; the message names the file and why."""

    def __init__(self, message: str):
        super().__init__(printable(message))


class StoreFailed(StoreError):
    """The file system failed a store's work (a full disk, an I/O error): not the caller's input, which a
    command tells apart by its exit status (1 here, 2 for a store given wrongly: a file, a damaged database)."""


class ReadOnlyStore(StoreError):
    """A store that cannot be written here (a read-only file system, or no permission): a sweep whose
    every point it holds has nothing to write (`Store.registered`, sweep.pending)."""


class DamagedRun(UserWarning):
    """A stored run whose row or table file is missing or no longer the one committed: it runs again."""


NAME = re.compile(r"\w[\w.+-]*")
NAME_BYTES = 120
"""A sweep's name is a plain file name (it names files under the results directory, `plots/NAME-...`):
letters, digits, `_`, `.`, `+` and `-`, not starting with `.` or `-`, at most this many bytes in UTF-8."""


def plain_name(name: object) -> Optional[str]:
    """Why `name` is not a plain sweep name (`NAME`), or None if it is."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        return (f"{shown(name)} is not a plain name: letters, digits, '_', '.', '+' and '-' only, not starting "
                "with '.' or '-' (it names files under the results directory)")
    if len(name.encode()) > NAME_BYTES:
        return f"{shown(name)} is longer than {NAME_BYTES} bytes (it names files under the results directory)"
    return None


def _failure(e: BaseException, what: Path) -> StoreError:
    """A StoreError for an OSError or SQLite error met reading or writing `what`, saying which of the
    usual causes it is (a full disk, a file system this process may not write, a damaged database)."""
    text = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
    errno_ = getattr(e, "errno", None)
    if errno_ in (errno.ENOSPC, errno.EDQUOT) or "disk is full" in text or "No space left" in text:
        return StoreFailed(f"{what}: the disk is full ({text})")
    elif errno_ in (errno.EROFS, errno.EACCES, errno.EPERM) or "readonly" in text or "unable to open" in text:
        return ReadOnlyStore(f"{what}: it cannot be written here (a read-only file system, or no permission) ({text})")
    elif isinstance(e, sqlite3.DatabaseError) and not isinstance(e, sqlite3.OperationalError):
        why = "the file is not a results store's database, or is damaged"
    elif isinstance(e, sqlite3.OperationalError) and text.startswith(("no such table", "no such column")):
        # A database without the store's tables (an empty file: SQLite reads it as an empty database) is
        # input given wrongly, as a damaged one is: status 2, not a failure of the file system (1).
        why = "the database is not a results store's (its tables are missing), or is damaged"
    elif isinstance(e, UnicodeDecodeError):  # SQLite's message quoted a damaged name: not UTF-8 text
        why, text = "the file is not a results store's database, or is damaged", f"SQLite's message is not text: {e}"
    elif isinstance(e, OSError) and errno_ not in (None, errno.EIO):  # the place: a file for a directory, ...
        return StoreError(f"{what}: it cannot be used ({text})")
    else:
        return StoreFailed(f"{what}: it failed ({text})")
    return StoreError(f"{what}: {why} ({text})")


def _guarded(method):
    """`method` of a Store with the file system's and SQLite's errors made a StoreError naming the file."""
    @functools.wraps(method)
    def guarded(self: Store, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except OSError as e:  # a file's (a Parquet write names none: the results directory then)
            raise _failure(e, Path(e.filename) if e.filename else self.root) from None
        except sqlite3.Error as e:
            raise _failure(e, self.root / "pacesim.sqlite") from None

    return guarded


def _json(text: str, what: str) -> Any:
    """JSON `text` read back from the database; a StoreError naming `what` if it is no longer JSON."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        raise StoreError(f"{what} cannot be read (its JSON is cut or changed)") from None


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


ROW = ("key", "status", "error", "scenario", "seed", "engine_version", "code_version", "metrics", "report", "wall_s",
       "events", "packet_hops", "host", "finished_at")
"""A run's columns, in the order its checksum (`_run_sum`) takes them."""


def _run_sum(row: Iterable, tables: Iterable[tuple]) -> str:
    """The SHA-256 of a run as stored: its row's `ROW` values in order and its tables' (name, path, rows),
    sorted (each table file has its own checksum)."""
    return hashlib.sha256(json.dumps([list(row), sorted(list(t) for t in tables)]).encode()).hexdigest()


def _typed(row: list, tables: list) -> bool:
    """Whether a run's values are of the types it was stored with: text, numbers or NULL in its row, and
    (text, text, integer) for each table. A bit flipped in a record's header turns text into a blob, which
    SQLite returns as bytes."""
    def plain(v: object) -> bool:
        return v is None or type(v) in (str, int, float)

    return all(map(plain, row)) and all([type(v) for v in t] == [str, str, int] for t in tables)


MISSING = "is not the one committed (its checksum is missing)"
"""A row or file without a checksum in a store of format 1 or later: every one had its checksum committed
with it, so only a later edit (an SQL UPDATE setting it NULL) or damage took it away."""


def _run_damage(row: list, tables: list, digest: Optional[str], legacy: bool) -> Optional[str]:
    """What is wrong with a run as stored, its `ROW` values and its tables' (name, path, rows) (None:
    nothing; "": nothing, but it has no checksum yet, and its JSON reads: only in a `legacy` store, of
    format 0; in any other a checksum missing is damage)."""
    if not _typed(row, tables):
        return "is not the one committed (a value of it is no longer of its type)"
    if digest is not None:
        return None if _run_sum(row, tables) == digest else "is not the one committed (its checksum differs)"
    if not legacy:
        return MISSING
    try:
        for text in (row[ROW.index("scenario")], row[ROW.index("metrics")], row[ROW.index("report")]):
            if text is not None:
                json.loads(text)
    except (TypeError, ValueError):
        return "cannot be read (its JSON is cut or changed)"
    return ""


def _sweep_sum(name: str, spec: str, points: Iterable[tuple]) -> str:
    """The SHA-256 of a sweep as stored: its name, its spec's JSON text and its points' (axes, seed, run
    key), in the order they were written."""
    h = hashlib.sha256(json.dumps([name, spec], default=repr).encode())
    for point in points:  # a value SQLite returns as bytes (text flipped into a blob) sums as its repr
        h.update(json.dumps(list(point), default=repr).encode())
    return h.hexdigest()


def run_key(engine_scenario: dict, engine_version: str) -> str:
    """The hash identifying a run: what its key covers of the engine's scenario (`key_form`: its seed
    included) and the engine version."""
    return keyed_run({k: _compact(v) for k, v in key_form(engine_scenario).items()}, engine_version)


def keyed_run(parts: Dict[str, str], engine_version: str) -> str:
    """`run_key` from what its key covers of each top-level key of the scenario, as compact sorted JSON
    (`key_part`): the hash of `{"engine": VERSION, "scenario": {...}}` as compact JSON with sorted keys, so a
    sweep's check makes a point's key from the parts its axes leave as they were."""
    scenario = ",".join(f"{_name(k)}:{parts[k]}" for k in sorted(parts))
    text = f'{{"engine":{json.dumps(engine_version)},"scenario":{{{scenario}}}}}'
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def key_part(name: str, value: Any) -> Optional[str]:
    """What a run's key covers of top-level key `name` of an engine scenario at `value` (`key_form`'s entry
    for it, which depends on that key and value alone) as compact sorted JSON; None if the key leaves it out."""
    form = key_form({name: value})
    return _compact(form[name]) if name in form else None


@functools.lru_cache(maxsize=1024)
def _name(key: str) -> str:
    """A key as JSON writes it."""
    return json.dumps(key)


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


KEYED: dict = json.loads((Path(__file__).parent / "keyed.json").read_text())
"""The keys a run's key has always covered: every key of the engine's scenario at engine 0.3.0 (when this rule
came) but those added after runs were stored, by table (its dotted path, `[]` for a list's items, `@kind=...` for
a topology's kind), each with the value that form gave it by default (`[]`: none, the key is required)."""


def key_form(engine_scenario: dict) -> dict:
    """What a run's key covers of its engine scenario (`run_key`): each key of `KEYED` at its value, or, if the
    scenario has no such key, at the value it had when left out; every other key only where its value differs
    from its default in the engine's schema. A key added to the engine with a default, or a knob moved between
    tables, thus leaves every stored run's key as it was."""
    return _keyed(engine_scenario, schema.SCHEMA, "")


def _keyed(value: Any, node: dict, table: str) -> Any:
    node = schema.resolve(node)
    if node.get("x-file") and isinstance(value, str):
        return _file_digest(value)
    if isinstance(value, list):
        items = node.get("items")
        return [_keyed(v, items, f"{table}[]") for v in value] if items else value
    if not isinstance(value, dict):
        return value
    if "oneOf" in node:  # a tagged table (a topology's kind) or a table of one of several shapes (a size)
        for branch in map(schema.resolve, node["oneOf"]):
            keys = branch.get("properties", {})
            tag = next(((k, p["const"]) for k, p in keys.items() if "const" in p), None)
            if tag and value.get(tag[0]) == tag[1]:
                return _keyed(value, branch, f"{table}@{tag[0]}={tag[1]}")
            if not tag and keys and set(value) <= set(keys):
                return _keyed(value, branch, f"{table}@{sorted(keys)[0]}")
        return value
    keyed, keys, out = KEYED.get(table, {}), node.get("properties", {}), {}
    defaults = _DEFAULTS.get(id(node))
    if defaults is None:  # each table's once: a sweep keys every point (140 keys each)
        defaults = _DEFAULTS[id(node)] = {k: p.get("default", None if _nullable(p) else _REQUIRED) for k, p in keys.items()}
    for key, inner in value.items():
        if key in keyed or inner != defaults.get(key, _REQUIRED):
            out[key] = _keyed(inner, keys.get(key, {}), f"{table}.{key}" if table else key)
    for key, was in keyed.items():
        if key not in value and was:
            out[key] = was[0]
    return out


def _regular_file_bytes(path: Path) -> Optional[bytes]:
    """The bytes of `path` if it is a regular file (a table the store wrote), None if it is anything else: a
    symbolic link (to /dev/zero, say, which would be read without end), a device, a pipe (whose open would wait
    for a writer)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ELOOP:  # O_NOFOLLOW met a link
            return None
        raise
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return f.read()


def _file_digest(path: str) -> str:
    """What a run's key covers of a file the scenario reads (a key marked `x-file`: a trace, connection
    vectors): its content's SHA-256, so the key is the same wherever the file lies (a package installed
    elsewhere, another user's cache) and changes when the file does; its name if it cannot be read (the
    run then fails, naming it). A sweep keys every point, each naming the same file: a file is read once while
    its size and modification time stay those it had (`_DIGESTS`), unless it was modified in the last
    `_RACY_NS` (a write within the file system's clock tick leaves both as they were: as git's "racily clean")."""
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            stamp = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
            if stamp in _DIGESTS:
                return _DIGESTS[stamp]
            digest = hashlib.sha256()
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return path
    found = "sha256:" + digest.hexdigest()
    if time.time_ns() - st.st_mtime_ns > _RACY_NS:
        _DIGESTS[stamp] = found
    return found


_DIGESTS: dict = {}
"""`_file_digest`'s memory: a file's digest by its device, inode, size and modification time (ns)."""
_RACY_NS = 2_000_000_000
"""A file modified less than this long ago (ns) is hashed again each time."""


_REQUIRED = object()
"""The default of a key that has none: no value equals it."""
_DEFAULTS: dict = {}
"""Each schema table's keys' defaults (`_REQUIRED` for none), by the table's node's id (the schema's nodes
live as long as the process)."""


def _axis_value(value: Any) -> Any:
    """A point's value of an axis as a frame holds it: a list or a table (a range such as `["1ms", "25ms"]`)
    as its JSON text, so that every axis value can be grouped, indexed and plotted; any other as it is."""
    return json.dumps(value) if isinstance(value, (list, dict)) else value


def _nullable(node: dict) -> bool:
    """Whether a key of schema `node` may be null (an `Option` in the engine): its default then is null."""
    types = node.get("type", [])
    return "null" in (types if isinstance(types, list) else [types]) or any(
        n.get("type") == "null" for n in node.get("anyOf", []))


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
    locked or busy (another writer), for up to `LOCK_WAIT_S`: for the statements that fail at once instead
    of waiting through SQLite's busy timeout (measured: switching the journal to WAL while another
    connection writes fails in 0.0 s; BEGIN IMMEDIATE waits the timeout)."""
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


def held(root: Path) -> bool:
    """Whether results directory `root` holds a store's database or something in its place, which opening a
    `Store` there names (a FIFO, a directory, a symbolic link that leads nowhere); False: no store there."""
    return os.path.lexists(root / "pacesim.sqlite") or bool(unresolved(root))


class Store:
    """A results directory: its SQLite database and Parquet tables; with
    `read_only`, an existing one opened for reading only."""

    def __init__(self, root: Union[str, Path], read_only: bool = False):
        self.root = Path(root)
        self.read_only = read_only
        self._copy: Optional[tempfile.TemporaryDirectory] = None  # a read-only store's database, copied with its WAL
        path = self.root / "pacesim.sqlite"
        if unresolved(self.root):
            raise StoreError(f"{self.root}: is {unresolved(self.root)}; name another --results directory")
        if self.root.exists() and not self.root.is_dir():
            raise StoreError(f"{self.root}: is {special(self.root) or 'a file'}, not a results directory")
        # Asked before SQLite opens them: a FIFO as the database or its journal waits for a writer for ever
        # (issue 33: `results` and `plot` hung), as the shared-memory file fails as "disk I/O error"; a symbolic
        # link that leads nowhere read as no store, or (SQLite unable to open it) as a store not writable here.
        for file in (path, *(path.with_name(path.name + side) for side in SIDE_FILES)):
            kind, link = special(file), unresolved(file)
            if kind:
                what = "a store's database" if file == path else "a file SQLite keeps beside a store's database"
                raise StoreError(f"{file}: is {kind}, not {what}; move it away or name another --results directory")
            if link:
                raise StoreError(f"{file}: is {link}; mend or remove the link, or name another --results directory")
        try:
            self._open(path)
            self._columns(path)
            self._verify(path)
            if not read_only:
                self._mark()
        except StoreError:
            self.close()
            raise
        except (OSError, sqlite3.Error, UnicodeDecodeError) as e:  # the last: SQLite's message, damaged
            self.close()
            if isinstance(e, FileNotFoundError) and read_only:  # no store there: the caller's to say
                raise
            raise _failure(e, path if path.exists() else self.root) from None

    def _open(self, path: Path) -> None:
        if self.read_only:
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
                self.db.execute("SELECT 1 FROM runs LIMIT 1").fetchall()
            return
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # a place no directory can be made (under /proc, a parent that is a file)
            if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO):
                raise
            raise StoreError(f"{self.root}: cannot make the directory ({e.strerror or e})") from None
        # SQLite's journal, made in an append-only directory, could never be removed: refused before the
        # database is touched. (An immutable one is read-only: ReadOnlyStore, from SQLite's error.)
        sealed = [p for p in (self.root, path) if p.exists() and outfile.sealed(p) == "append-only"]
        if sealed:
            raise StoreError(f"{sealed[0]}: is append-only (chattr): a store must replace and remove its files; "
                             "name another --results directory")
        self.db = sqlite3.connect(path, timeout=LOCK_WAIT_S, isolation_level=None)
        # Another program's database (tables, none of a store's) is refused before the store's are added to it,
        # as a reader refuses it (issue 33's fifth review: `sweep` wrote its tables beside an `invoices` table).
        tables = {row[0] for row in _when_unlocked(
            lambda: self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall())}
        if tables and not tables & set(_COLUMNS):
            raise StoreError(f"{path}: is not a results store's database (it holds {len(tables)} other "
                             f"table{'s' if len(tables) > 1 else ''}); name another --results directory")
        _when_unlocked(lambda: self.db.execute("PRAGMA journal_mode=WAL"))
        self.db.execute("PRAGMA synchronous=FULL")
        _when_unlocked(lambda: self.db.executescript(SCHEMA))

    def _columns(self, path: Path) -> None:
        """Check the columns of each table against `SCHEMA`'s, and note in `_summed` which tables have their
        checksum column. A store from before checksums lacks `sha256` in all three tables, or (written between
        the runs' and the sweeps' checksums) in `sweeps` only: a writer adds the columns, whose rows are then
        read through once (`check`). Any other difference is damage to the schema's text (a bit flipped in a
        column's name: hostile_store.py seed 3407 renamed `runs.sha256`, and a writer that took the store for
        one from before checksums summed every run again as it stood, a run without its `series` table
        counted finished). A writer renames such columns back, with a DamagedRun warning naming them (the
        checksums under them then name what else changed, which runs again); a reader, or a difference no
        rename mends, gets a StoreError naming the file."""
        found = {table: [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")] for table in _COLUMNS}
        lower = {table: [c.lower() for c in names] for table, names in found.items()}  # SQLite's names ignore case
        before = {table for table in ("runs", "run_tables", "sweeps") if lower[table] == _COLUMNS[table][:-1]}
        self._legacy = self.db.execute("PRAGMA user_version").fetchone()[0] == 0
        if before and not self._legacy:  # no rename or flip of a name takes a column away: a copy's edit
            raise StoreError(f"{path}: the database's schema is damaged (a store of format {FORMAT} without the "
                             f"checksum column of {', '.join(sorted(before))}); restore it from a copy, or move "
                             "it away and run the sweeps again")
        if all(lower[t] == want or t in before for t, want in _COLUMNS.items()) and before in _BEFORE_CHECKSUMS:
            self._summed = {table: table not in before for table in _COLUMNS}
            if not self.read_only:  # its rows so far have none
                for table in before:
                    _when_unlocked(lambda: self.db.execute(f"ALTER TABLE {table} ADD COLUMN sha256 TEXT"))
                self._summed = dict.fromkeys(_COLUMNS, True)
            return
        renamed = [(table, have, want) for table, names in found.items() if len(names) == len(_COLUMNS[table])
                   for have, want in zip(names, _COLUMNS[table]) if have.lower() != want]
        unlike = [f"table {t} has {len(found[t])} columns, not {len(want)}" for t, want in _COLUMNS.items()
                  if len(found[t]) != len(want)]
        what = "; ".join([f"column {t}.{want} is named {shown(have)}" for t, have, want in renamed] + unlike)
        if self.read_only or unlike:
            fix = ("restore it from a copy, or move it away and run the sweeps again" if unlike else
                   "a sweep run into it (pacesim sweep, reproduce) renames its columns back and runs again what changed")
            raise StoreError(f"{path}: the database's schema is damaged ({what}); {fix}")
        with self._transaction():
            for table, have, want in renamed:
                quoted = have.replace('"', '""')
                self.db.execute(f'ALTER TABLE {table} RENAME COLUMN "{quoted}" TO {want}')
        self._summed = dict.fromkeys(_COLUMNS, True)
        warnings.warn(DamagedRun(f"{path}: the database's schema is damaged ({what}): renamed back; the runs whose "
                                 "checksums differ run again"), stacklevel=3)

    def _mark(self) -> None:
        """Bring a writer's store of format 0 to `FORMAT`: each run, table file and sweep without a checksum
        (written before checksums were kept, or after by code that recorded them only when it read such a
        row through) is read through once, and its checksum recorded if it reads whole (a row's JSON parses,
        a file reads as Parquet); one that does not keeps none, which from then on is damage: its point runs
        again when its sweep does, named. This is the last time a row without a checksum is taken as it
        stands; a store made by this code is marked when created. (A flipped bit that turns the mark back
        to 0 with a checksum also removed would go unseen: two faults, one in the header's four bytes.)"""
        if not self._legacy:
            return
        keys = [r[0] for r in self.db.execute("SELECT key FROM runs WHERE sha256 IS NULL UNION "
                                              "SELECT key FROM run_tables WHERE sha256 IS NULL")]
        runs_adopted, adopted = [], []
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            rows = self.db.execute(f"SELECT {', '.join(ROW)}, sha256 FROM runs WHERE key IN "
                                   f"({','.join('?' * len(chunk))})", chunk).fetchall()
            tables = self._tables(chunk)
            for *row, digest in rows:
                mine = tables.get(row[0], [])
                if _run_damage(row, [t[:3] for t in mine], digest, legacy=True):
                    continue
                if digest is None:
                    runs_adopted.append((_run_sum(row, [t[:3] for t in mine]), row[0]))
                adopted += [(_sha256(self.root / rel), row[0], name) for name, rel, _, file_sum in mine
                            if file_sum is None and self._damage(rel, None) == ""]
        sweeps = []
        for name, spec in self.db.execute("SELECT name, spec FROM sweeps WHERE sha256 IS NULL").fetchall():
            points = self.db.execute("SELECT axes, seed, key FROM sweep_points WHERE sweep = ? ORDER BY rowid", (name,))
            sweeps.append((_sweep_sum(name, spec, points), name))
        with self._transaction():
            self.db.executemany("UPDATE run_tables SET sha256 = ? WHERE key = ? AND name = ?", adopted)
            self.db.executemany("UPDATE runs SET sha256 = ? WHERE key = ?", runs_adopted)
            self.db.executemany("UPDATE sweeps SET sha256 = ? WHERE name = ?", sweeps)
            self.db.execute(f"PRAGMA user_version = {FORMAT}")
        self._legacy = False

    def _verify(self, path: Path) -> None:
        """SQLite's integrity check of the database (0.6 s for 20,000 runs, bench/fuzz/README.md): a bit
        flipped in a key leaves its row where no index finds it, so a lookup misses a finished run (its
        point stays pending) while the row stays. A writer rebuilds the indexes from the rows, whose
        checksums then name what changed (a DamagedRun warning; their points run again when their sweeps
        do); a reader, or damage no rebuild mends, gets a StoreError naming the file and SQLite's finding."""
        found = [row[0] for row in self.db.execute("PRAGMA integrity_check(5)")]
        if found == ["ok"]:
            return
        why = "; ".join(map(printable, found))[:400]
        if not self.read_only:
            try:
                _when_unlocked(lambda: self.db.execute("REINDEX"))
                mended = [row[0] for row in self.db.execute("PRAGMA integrity_check(1)")] == ["ok"]
            except sqlite3.IntegrityError:  # a changed key now equals another's
                mended = False
            if mended:
                warnings.warn(DamagedRun(f"{path}: its indexes no longer matched its rows ({why}): rebuilt from "
                                         f"the rows{self._changed_runs()}"), stacklevel=3)
                return
        fix = ("restore it from a copy, or move it away and run the sweeps again" if not self.read_only else
               "a sweep run into it (pacesim sweep, reproduce) rebuilds what it can and runs again what changed")
        raise StoreError(f"{path}: the database is damaged (SQLite's integrity check: {why}); {fix}")

    def _changed_runs(self) -> str:
        """The runs whose rows are no longer the ones committed, for the warning after a rebuild."""
        rows = self.db.execute(f"SELECT {', '.join(ROW)}, {self._sum('runs')} FROM runs").fetchall()
        tables = self._tables([r[0] for r in rows])
        changed = [shown(row[0]) for *row, digest in rows
                   if _run_damage(row, [t[:3] for t in tables.get(row[0], [])], digest, self._legacy)]
        if not changed:
            return ""
        return (f"; the rows of run{'s' if len(changed) > 1 else ''} {', '.join(changed[:5])}"
                f"{f' and {len(changed) - 5} more' if len(changed) > 5 else ''} are not the ones committed (their "
                "checksums differ): their points run again")

    def close(self) -> None:
        if hasattr(self, "db"):
            self.db.close()
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- writing (one process: the one running the sweep) ---

    @_guarded
    def register_sweep(self, name: str, spec: dict, points: Iterable[tuple[dict, int, str]],
                       origin: Optional[str] = None) -> None:
        """Record (or redefine) sweep `name` with its points as (axes, seed, run key); `points` may be a
        generator (a sweep's points are written as they are made, never held all at once). `origin`, who
        registers it ('reproduce': a figure's packaged definition; 'sweep FILE': a user's file run with
        `pacesim sweep`), is kept in its stored definition as `origin` (`ORIGIN`)."""
        why = plain_name(name)
        if why:
            raise StoreError(f"sweep name {why}")

        def rows() -> Iterator[tuple]:
            for axes, seed, key in points:
                if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
                    raise StoreError(f"sweep {name}: seed {shown(seed)} is not a whole number from 0 to 2^63 - 1, "
                                     "the seeds a store holds")
                yield name, json.dumps(axes, sort_keys=True), seed, key

        now, text = _now(), json.dumps({**spec, ORIGIN: origin} if origin is not None else spec)
        with self._transaction():
            self.db.execute(
                "INSERT INTO sweeps (name, spec, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(name) "
                "DO UPDATE SET spec = excluded.spec, updated_at = excluded.updated_at",
                (name, text, now, now),
            )
            self.db.execute("DELETE FROM sweep_points WHERE sweep = ?", (name,))
            self.db.executemany("INSERT OR REPLACE INTO sweep_points VALUES (?, ?, ?, ?)", rows())
            stored = self.db.execute("SELECT axes, seed, key FROM sweep_points WHERE sweep = ? ORDER BY rowid", (name,))
            self.db.execute("UPDATE sweeps SET sha256 = ? WHERE name = ?", (_sweep_sum(name, text, stored), name))

    @_guarded
    def registered(self, name: str, spec: dict, points: Iterable[tuple[dict, int, str]]) -> bool:
        """Whether sweep `name` is recorded whole with `spec` and exactly `points`, in order (as
        `register_sweep` takes them), whoever registered it: registering it again would write nothing but the
        time and its origin."""
        found = self.db.execute(f"SELECT spec, {self._sum('sweeps')} FROM sweeps WHERE name = ?", (name,)).fetchone()
        if found is None or not isinstance(found[0], str):
            return False
        try:
            stored = json.loads(found[0])
        except ValueError:
            return False
        if isinstance(stored, dict):
            stored.pop(ORIGIN, None)
        return json.dumps(stored) == json.dumps(spec) and found[1] == _sweep_sum(
            name, found[0], ((json.dumps(axes, sort_keys=True), seed, key) for axes, seed, key in points))

    def finished(self, keys: Iterable[str]) -> set[str]:
        """Those of `keys` that already have a successful run whose every table file is whole (`check`)."""
        return self.check(keys)[0]

    @_guarded
    def check(self, keys: Iterable[str]) -> tuple[set[str], dict[str, str]]:
        """(finished, damaged) of `keys`: those that have a successful run whose row is the one committed
        and whose every table file is there and is the file committed (each as its SHA-256 recorded),
        and, for the others that have a successful run, why not (its row changed, a file missing, cut
        short or changed: "tables/flows/ab/ab12...parquet is ..."). A damaged run counts as not finished,
        so its sweep runs it again, as does one without a checksum (`MISSING`). A row or table without one
        in a store of format 0 (read only: a writer marks the store at open, `_mark`) is read through
        instead."""
        found: set[str] = set()
        damaged: dict[str, str] = {}
        batch: list[str] = []

        def settle() -> None:
            marks = ",".join("?" * len(batch))
            runs = self.db.execute(f"SELECT {', '.join(ROW)}, {self._sum('runs')} FROM runs "
                                   f"WHERE status = 'ok' AND key IN ({marks})", batch).fetchall()
            tables = self._tables(batch)
            for *row, digest in runs:
                key = row[0]
                found.add(key)
                why = _run_damage(row, [t[:3] for t in tables.get(key, [])], digest, self._legacy)
                if why:
                    damaged[key] = f"its row in pacesim.sqlite {why}"
                    continue
                for name, rel, _, file_sum in tables.get(key, []):
                    trouble = self._damage(rel, file_sum)
                    if trouble:
                        damaged[key] = f"{rel} {trouble}"
            found.difference_update(damaged)
            batch.clear()

        for key in keys:
            batch.append(key)
            if len(batch) == 500:
                settle()
        if batch:
            settle()
        return found, damaged

    def _tables(self, keys: list) -> dict[str, list[tuple]]:
        """The rows of `keys`' tables, (name, path, rows, file checksum) by run key."""
        out: dict[str, list[tuple]] = {}
        for i in range(0, len(keys), 500):  # SQLite takes a bounded number of parameters
            chunk = keys[i:i + 500]
            for key, *table in self.db.execute(f"SELECT key, name, path, rows, {self._sum('run_tables')} FROM "
                                               f"run_tables WHERE key IN ({','.join('?' * len(chunk))})", chunk):
                out.setdefault(key, []).append(tuple(table))
        return out

    def _sum(self, table: str, alias: str = "") -> str:
        """The SQL for `table`'s checksum column (`alias.sha256`): NULL in a store from before checksums read
        only, which has none."""
        if not self._summed[table]:
            return "NULL"
        return f"{alias}.sha256" if alias else "sha256"

    def _damage(self, rel: str, digest: Optional[str]) -> Optional[str]:
        """What is wrong with table file `rel` (None: nothing; "": nothing, but it has no checksum yet, in a
        store of format 0)."""
        path = self.root / rel
        if not path.is_file():
            kind = special(path)
            return f"is {kind}, not the file committed" if kind else "is missing"
        if digest is not None:
            return None if _sha256(path) == digest else "is not the file committed (its checksum differs)"
        if not self._legacy:
            return "is not the file committed (its checksum is missing)"
        try:
            pq.read_table(path)
        except (OSError, ValueError, pa.ArrowException) as e:
            return f"cannot be read ({printable(str(e))[:200]})"
        return ""

    @_guarded
    def save_ok(self, key: str, result: Result, host: str) -> None:
        """Store a successful run: its tables' rows (`Result.rows`) to Parquet, then its row with its
        metrics (`Result.metrics`), the rest of its report and each table's checksum, atomically."""
        report = result.report
        tables = {name: self._write_table(key, name, result.rows(name)) for name in TABLES
                  if name != "series" or report.get("series") is not None}
        rest = {k: v for k, v in report.items() if k not in TABLES}
        with self._transaction():
            self._insert_run((key, "ok", None, json.dumps(result.human_scenario), result.seed, result.engine_version,
                              code_version(), json.dumps(result.metrics), json.dumps(rest), result.wall_s,
                              report["work"]["events"], report["work"]["packet_hops"], host, _now()),
                             [(name, str(rel), rows, digest) for name, (rel, rows, digest) in tables.items()])

    def _write_table(self, key: str, name: str, frame: pd.DataFrame) -> tuple[Path, int, str]:
        """Write one table durably; its path relative to the root, its rows and its file's SHA-256."""
        rel = Path("tables") / name / key[:2] / f"{key}.parquet"
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # this process's own
        try:
            frame.to_parquet(tmp, index=False)
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            digest = _sha256(tmp)  # of the bytes on disk, read back
        except BaseException:  # Ctrl-C or an error (a full disk): nothing half-written stays
            tmp.unlink(missing_ok=True)
            raise
        if path.is_dir() and not path.is_symlink():  # a damaged store's (`_damage`): no file replaces a directory
            try:
                path.rmdir()
            except OSError:
                tmp.unlink(missing_ok=True)
                raise StoreError(f"{path}: is a directory holding files, in place of a run's table; move it away "
                                 "and run the sweep again") from None
        os.replace(tmp, path)
        for left in path.parent.glob(f"{path.name}.*.tmp"):  # by a writer killed mid-write
            pid = left.name.split(".")[-2]
            if pid.isdigit() and not _alive(int(pid)):
                left.unlink(missing_ok=True)
        return rel, len(frame), digest

    @_guarded
    def save_failed(self, key: str, scenario: dict, seed: int, engine_version: str, error: str,
                    host: Optional[str] = None) -> None:
        """Store a failed run with its error (and no tables); a later successful run replaces it."""
        with self._transaction():
            self._insert_run((key, "failed", error, json.dumps(scenario), seed, engine_version, code_version(), None,
                              None, None, None, None, host, _now()), [])

    def _insert_run(self, row: tuple, tables: list[tuple]) -> None:
        """Insert (or replace) a run's row, its `ROW` values in order, and its tables' rows (name, path, rows,
        file checksum), with the run's checksum."""
        marks = ", ".join("?" * len(ROW))
        self.db.execute(f"INSERT OR REPLACE INTO runs ({', '.join(ROW)}, sha256) VALUES ({marks}, ?)",
                        (*row, _run_sum(row, [t[:3] for t in tables])))
        self.db.execute("DELETE FROM run_tables WHERE key = ?", (row[0],))
        self.db.executemany("INSERT INTO run_tables (key, name, path, rows, sha256) VALUES (?, ?, ?, ?, ?)",
                            [(row[0], *t) for t in tables])

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE (once no other writer holds the database: SQLite's busy timeout, `LOCK_WAIT_S`,
        waits for it) ... COMMIT, or ROLLBACK if the body raises."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # --- reading ---

    @_guarded
    def sweeps(self) -> pd.DataFrame:
        """One row per sweep: points, ok, damaged, failed, pending, total engine seconds, last update. A point
        is damaged, not ok, when its successful run's row or a table file is not the one committed (`check`:
        its sweep runs it again); its engine seconds are not counted, as what they made is not kept."""
        frame = pd.read_sql_query(
            """SELECT s.name AS sweep, COUNT(p.key) AS points,
                      COALESCE(SUM(r.status = 'ok'), 0) AS ok,
                      COALESCE(SUM(r.status = 'failed'), 0) AS failed,
                      COUNT(p.key) - COUNT(r.key) AS pending,
                      COALESCE(SUM(CASE WHEN r.status = 'ok' THEN 0.0 ELSE r.wall_s END), 0.0) AS engine_s,
                      s.updated_at
               FROM sweeps s LEFT JOIN sweep_points p ON p.sweep = s.name
               LEFT JOIN runs r ON r.key = p.key
               GROUP BY s.name ORDER BY s.updated_at""",
            self.db,
        )
        # The failed runs' engine seconds are summed above, the successful ones' here, but for the damaged.
        ok = self.db.execute("SELECT p.sweep, p.key, r.wall_s FROM sweep_points p JOIN runs r ON r.key = p.key "
                             "WHERE r.status = 'ok'").fetchall()
        damaged = self.check({key for _, key, _ in ok})[1]
        counts, kept = Counter(), Counter()
        for name, key, wall_s in ok:
            if key in damaged:
                counts[name] += 1
            else:  # a whole row: its wall time a number, or none
                kept[name] += wall_s or 0.0
        frame.insert(3, "damaged", [counts[name] for name in frame["sweep"]])
        frame["ok"] -= frame["damaged"]
        frame["engine_s"] += [kept[name] for name in frame["sweep"]]
        return frame

    @_guarded
    def spec(self, sweep: str) -> dict:
        """Sweep `sweep`'s stored definition, a table; a StoreError naming it if it is not the one committed
        (issue 33's fifth review: a definition set to `null` in the database ended `sweep` and `report` in
        tracebacks)."""
        found = self.db.execute(f"SELECT spec, {self._sum('sweeps')} FROM sweeps WHERE name = ?", (sweep,)).fetchone()
        if found is None:
            raise KeyError(f"no sweep named {sweep!r} in {self.root}")
        points = self.db.execute("SELECT axes, seed, key FROM sweep_points WHERE sweep = ? ORDER BY rowid", (sweep,))
        return self._committed(sweep, *found, points)

    def _committed(self, sweep: str, text: str, digest: Optional[str], points: Iterable[tuple]) -> dict:
        """Sweep `sweep`'s definition `text` read back, checked against its checksum `digest` over it and its
        `points` (axes, seed, key) as stored; a StoreError naming it if it is not the one committed."""
        where = f"sweep {sweep}: its definition in {self.root / 'pacesim.sqlite'}"
        spec = _json(text, where)
        if digest is None and not self._legacy:
            why = "its checksum is missing"
        elif digest is not None and _sweep_sum(sweep, text, points) != digest:
            why = "its checksum differs"
        elif not isinstance(spec, dict):
            why = "it is not a table"
        else:
            return spec
        raise StoreError(f"{where} is not the one committed ({why}); run the sweep again to write it again")

    @_guarded
    def points(self, sweep: str, written: bool = False, damaged: bool = False) -> pd.DataFrame:
        """One row per point of `sweep`: its axes (one column each), seed, key, status ('ok', 'failed' or
        'pending'), error, every metric (float NaN where no point has it), wall time and code version. An
        axis written in units ("3KB", "10ms", "8Mbps") is a number in the unit `frame.attrs["units"]` names
        ({"core.buffer": "B"}: bytes, seconds, bit/s), so that it sorts as numbers, with the values as
        written beside it in `<axis>_written` (`report_tables.numeric_axes`); with `written`, every axis as
        the sweep wrote it. An axis whose values are lists or tables is their JSON text (`_axis_value`).
        A StoreError names the sweep, or a run of it, if its rows in the database are not the ones
        committed (its rerun writes them again); with `damaged`, a point whose run's row or a table file is
        not the one committed (`check`, as a sweep finds it: its rerun runs it again) has status 'damaged',
        its error saying why, and nothing else of its run."""
        found = self.db.execute(f"SELECT spec, {self._sum('sweeps')} FROM sweeps WHERE name = ?", (sweep,)).fetchone()
        if found is None:
            raise KeyError(f"no sweep named {sweep!r} in {self.root}")
        rows = self.db.execute(
            f"""SELECT p.axes, p.seed, p.key, {', '.join(f'r.{c}' for c in ROW)}, {self._sum('runs', 'r')}
                FROM sweep_points p LEFT JOIN runs r ON r.key = p.key WHERE p.sweep = ? ORDER BY p.rowid""",
            (sweep,),
        ).fetchall()
        spec = self._committed(sweep, *found, (r[:3] for r in rows))
        axes = list(spec.get("axes", {}))
        tables = self._tables(sorted({r[2] for r in rows if r[3] is not None}))
        broken = self.check({r[2] for r in rows if r[3] is not None})[1] if damaged else {}
        records, measured = [], {}
        for values, seed, key, *row, run_sum in rows:
            run = dict(zip(ROW, row))
            if key in broken:
                run = dict.fromkeys(ROW, None) | {"key": key, "status": "damaged", "error": broken[key]}
            elif run["key"] is not None:
                self._whole(row, tables.get(key, []), run_sum, f"sweep {sweep}")
            point = _json(values, f"sweep {sweep}: a point's axes in {self.root / 'pacesim.sqlite'}")
            if not isinstance(point, dict):
                raise StoreError(f"sweep {sweep}: a point's axes in {self.root / 'pacesim.sqlite'} are not a table")
            metrics = json.loads(run["metrics"]) if run["metrics"] else {}
            if metrics and "tcp_utilisation" not in metrics:
                metrics.update(tcp_metrics_of_old(self.report(key), metrics))
            # A run stored before `measured` kept a mean over none as 0 (or -0.0): its report's counts say
            # which (read only then: most runs have none).
            zero = run["report"] and any(metrics.get(k) == 0 for k in OVER_NONE)
            metrics = measured_only(metrics, json.loads(run["report"], parse_float=report_number) if zero else {})
            rec = {a: _axis_value(point.get(a)) for a in axes}
            rec.update(seed=seed, key=key, status=run["status"] or "pending", error=run["error"])
            # An axis named like a metric (E-fig4's `flows`, scaled down in quick runs) keeps the value
            # the sweep wrote.
            rec.update({k: v for k, v in metrics.items() if k not in rec})
            measured.update(dict.fromkeys(k for k in metrics if k not in axes))
            rec.update(wall_s=run["wall_s"], code_version=run["code_version"], finished_at=run["finished_at"])
            records.append(rec)
        frame = unmeasured_as_nan(pd.DataFrame.from_records(records), list(measured))
        return frame if written else numeric_axes(frame, axes)

    def _whole(self, row: list, tables: list, digest: Optional[str], whose: str) -> None:
        """A StoreError unless the run of row `row` (its `ROW` values) and `tables` (their rows) is as committed."""
        why = _run_damage(row, [t[:3] for t in tables], digest, self._legacy)
        if why:
            raise StoreError(f"{whose}: the row of run {row[0]} in {self.root / 'pacesim.sqlite'} {why}; run the "
                             "sweep again to run the point again")

    @_guarded
    def provenance(self, sweep: str) -> dict:
        """What ran `sweep`'s finished points: the distinct engine versions, code versions and hosts, each sorted."""
        rows = self.db.execute(
            """SELECT DISTINCT r.engine_version, r.code_version, r.host FROM sweep_points p
               JOIN runs r ON r.key = p.key WHERE p.sweep = ?""", (sweep,)).fetchall()
        return {name: sorted({r[i] for r in rows if r[i]}) for i, name in
                enumerate(["engine_version", "code_version", "host"])}

    @_guarded
    def report(self, key: str) -> dict:
        """A run's stored engine report (without its tables) and its scenario."""
        found = self.db.execute(f"SELECT {', '.join(ROW)}, {self._sum('runs')} FROM runs WHERE key = ?",
                                (key,)).fetchone()
        if found is None:
            raise KeyError(f"no run {key}")
        *row, digest = found
        self._whole(row, self._tables([key]).get(key, []), digest, f"run {key}")
        run = dict(zip(ROW, row))
        report = json.loads(run["report"], parse_float=report_number) if run["report"] else {}  # as engine.run does
        return {"scenario": json.loads(run["scenario"]), **report}

    @_guarded
    def table(self, key: str, name: str = "flows") -> pd.DataFrame:
        """One run's table (one of `TABLES`), the same frame as the run's `Result` gives
        (`report_tables.view`; an unmeasured table is empty here, None there). A StoreError names
        its file if that is missing or not the file committed (its sweep's rerun runs the point again)."""
        row = self.db.execute(f"SELECT path, {self._sum('run_tables')} FROM run_tables "
                              "WHERE key = ? AND name = ?", (key, name)).fetchone()
        if row is None:
            raise KeyError(f"run {key} has no {name!r} table")
        rel, digest = row
        rerun = "run its sweep again to run the point again"
        if type(rel) is not str:  # text flipped into a blob
            raise StoreError(f"run {key}: the row of its {name} table in {self.root / 'pacesim.sqlite'} is not the one "
                             f"committed; {rerun}")
        try:
            data = _regular_file_bytes(self.root / rel)
        except FileNotFoundError:
            raise StoreError(f"{self.root / rel} is missing; {rerun}") from None
        if data is None:
            raise StoreError(f"{self.root / rel} is not a file the store wrote (a link, a device or a pipe); {rerun}")
        if digest is None and not self._legacy:
            raise StoreError(f"{self.root / rel} is not the file committed (its checksum is missing); {rerun}")
        if digest is not None and hashlib.sha256(data).hexdigest() != digest:
            raise StoreError(f"{self.root / rel} is not the file committed (its checksum differs); {rerun}")
        try:
            frame = pd.read_parquet(io.BytesIO(data))
        except (OSError, ValueError, pa.ArrowException) as e:
            raise StoreError(f"{self.root / rel} cannot be read ({e}); {rerun}") from None
        return view(name, frame)

    def links(self, key: str) -> pd.DataFrame:
        """One run's links, kept in its report (`Result.links`)."""
        return links(self.report(key))

    @_guarded
    def rows(self, sweep: str, name: str = "flows", written: bool = False) -> pd.DataFrame:
        """Table `name` of every successful point of `sweep` (every flow, or every transfer), with the
        point's axes (as in `points`, `written` as there) and seed."""
        pts = self.points(sweep, written)
        ok = pts[pts["status"] == "ok"]
        axes = list(self.spec(sweep)["axes"])
        axes += [f"{a}_written" for a in axes if f"{a}_written" in pts]
        frames = [flat(name, self.table(row["key"], name)).assign(**{a: row[a] for a in axes}, seed=row["seed"])
                  for row in ok.to_dict("records")]
        frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        frame.attrs["units"] = pts.attrs.get("units", {})
        return frame

    def to_xarray(self, sweep: str, metrics: Optional[Iterable[str]] = None) -> "xarray.Dataset":
        """`sweep`'s metrics as an xarray Dataset (needs the extra `pacesim[xarray]`): one dimension per axis
        and one for the seed, one variable per numeric metric (`metrics`, default all), NaN where a point
        failed or is pending. An axis written in units ("3KB", "10ms", "8Mbps") is its numeric value in
        the unit its `units` attribute names (bytes, seconds, bit/s), with the written values kept as the
        coordinate `<axis>_written`, as in `points`; any other axis keeps its values. Each variable's
        `units` attribute is its metric's unit, as its name says it (`panels.metric_unit`: "Kb/s" for
        goodput_kbps_mean, "1" for a fraction such as core_loss_rate)."""
        try:
            import xarray  # noqa: F401  (pandas' to_xarray needs it)
        except ImportError:
            raise ImportError("Store.to_xarray needs xarray, an optional extra: pip install 'pacesim[xarray]'") from None
        from .panels import metric_unit

        axes = list(self.spec(sweep)["axes"])
        pts = self.points(sweep)
        units = pts.attrs["units"]
        skip = {"seed", "key", "status", "error", "code_version", "finished_at", *axes, *(f"{a}_written" for a in units)}
        names = [m for m in (metrics if metrics is not None else pts.columns)
                 if m in pts and m not in skip and pd.api.types.is_numeric_dtype(pts[m])]
        unknown = sorted(set(metrics or ()) - set(names))
        if unknown:
            raise KeyError(f"sweep {sweep}: no numeric metric {', '.join(map(repr, unknown))}")
        # Every point keeps its place (its axis values and seed are coordinates), with NaN unless it finished.
        frame = pts.astype({n: float for n in names})
        frame.loc[frame["status"] != "ok", names] = float("nan")
        data = frame.set_index([*axes, "seed"])[names].to_xarray()
        for a in units:
            written = frame.drop_duplicates(a).set_index(a)[f"{a}_written"]
            data = data.assign_coords({f"{a}_written": (a, [written.get(v) for v in data[a].values])})
            data[a].attrs["units"] = units[a]
        for name in names:
            data[name].attrs["units"] = metric_unit(name)
        data.attrs.update(sweep=sweep)
        return data
