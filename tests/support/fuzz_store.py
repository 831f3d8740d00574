"""Hostile results stores and sweep files, generated with hypothesis, and the class of every outcome
(issue 33): what hostile.py, which drives scenarios and sweep files through the front end, does not reach.

Three kinds of case, each driven through what `pacesim sweep`, `results` and `plot` call (`Store`,
`run_sweep`, `Store.points`, `Store.table`, `load_sweep`) in a worker process whose memory is watched:

- damage: a copy of a stored tiny sweep (2 buffers x 2 seeds, every table recorded) damaged one to three
  times: bits flipped, a run of bytes zeroed, the file cut at any length, garbage appended, the file
  deleted or swapped with another run's, in a table file or in pacesim.sqlite; or a value changed in the
  database as SQL would (a metric's digit, an axis value, a table's name or path, a run's status, a
  checksum set NULL). The
  store is then read as `results` and `plot` read it (read only: every point and every finished run's
  tables), and its sweep run again as `pacesim sweep` does, and read again.
- disk: the tiny sweep run into a store on a disk that fills after a few hundred KB, or that turns
  read-only after k points were stored (a small tmpfs, mounted and remounted here when this process
  may; else a full or read-only disk mocked as the OSError a Parquet write meets); read as it stands;
  then the disk freed and the sweep run again.
- sweep: a sweep file with absurd contents: names with a path, a control character or 10,000
  characters; seeds past 2^63; axes, `set` items and variants setting the seed or a packet trace; axes
  whose product is 10^3 to 10^40 points; or the file replaced by /dev/zero or a sparse 10^9-byte file.
  Loaded, its first points made, and, if small, registered and run on an executor that fails every
  point at once (nothing simulated).

Classes (`CLASSES`): an error naming what is wrong, a store repaired by its rerun (every point and table
as the undamaged store's), damage that changed nothing read, a sweep accepted and sound; and the
defects: a traceback, silent damage (a read gave a value, an axis or a table unlike the undamaged
store's, without an error), a lost point (stored before a disk failure, gone or changed after it),
nonsense accepted (a sweep whose points do not run their own seed, trace to a file, whose name is not a
plain file name, or past `MAX_POINTS` points), a crash (the worker died), a hang (no answer in
`TIMEOUT_S` of the worker's CPU time, or no CPU time used for `fuzzing.BLOCKED_S`: a worker waiting for a
core on a loaded machine is no hang) and unbounded memory (the worker past `MEMORY_CAP`).

`fuzzing.fuzz(Harness(work), CASES, cases, seed)` generates the cases and counts their classes;
tests/test_fuzz_store.py runs a fixed budget of it, bench/fuzz/hostile_store.py (its command line) the runs
of bench/fuzz/README.md.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import traceback
import warnings
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pandas as pd
import psutil
import tomli_w
from hypothesis import strategies as st

from pacesim.report_tables import TABLES
from pacesim.scenario import ScenarioError
from pacesim.store import DamagedRun, Store, StoreError, plain_name
from pacesim.sweep import MAX_POINTS, Sweep, SweepError, load_sweep, run_sweep, simulate

from . import fuzzing

CLASSES = ["error names it", "repaired", "unharmed", "sound", "traceback", "silent damage", "lost", "nonsense",
           "crash", "hang", "memory"]
DEFECTS = CLASSES[4:]
"""Outcomes issue 33 allows none of."""

TIMEOUT_S = 120.0
"""A case reruns at most four points of well under a second each: no answer when the worker has used this
much CPU time (`fuzzing.Clock`) is a hang."""
MEMORY_CAP = 1536 * 2**20
"""A case holds a tiny store and at most one sweep's points: a worker past this holds what it should not."""
RUN_SWEEP_UP_TO = 2000
"""Sweep cases of at most this many points are registered and run (on an executor that fails each)."""

TINY = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=2s", "warmup=1s", 'traffic.start=["0s", "0.5s"]',
        "series.flows=[0]", 'series.links=["core"]', "series.interval=100ms"]
NAME = "tiny"
SAME = ["key", "seed", "core.buffer", "status", "error"]
"""The columns of `Store.points` that must read as stored (with every metric); wall time, host and the
time a run finished are the run's own."""


def tiny_sweep() -> Sweep:
    return Sweep(name=NAME, axes={"core.buffer": ["5KB", "10KB"]}, seeds=[1, 2], set=TINY)


class Inline(Executor):
    """Runs each point in this process when it is submitted (the harness's worker is the parallelism);
    `after(n)` is called with the count of points handed over so far, before each runs."""

    def __init__(self, after: Callable[[int], None] = lambda n: None) -> None:
        self.after, self.count = after, 0

    def submit(self, fn, *args, **kwargs) -> Future:
        self.count += 1
        self.after(self.count)
        f: Future = Future()
        f.set_result(fn(*args, **kwargs))
        return f


class Failing(Executor):
    """Fails every point at once, running nothing."""

    def submit(self, fn, *args, **kwargs) -> Future:
        f: Future = Future()
        f.set_result({"error": "not run here", "host": None} if fn is simulate else fn(*args, **kwargs))
        return f


@dataclass
class Pristine:
    """The tiny sweep's undamaged store, and what reading it gives."""

    root: Path
    points: pd.DataFrame
    tables: Dict[Tuple[str, str], pd.DataFrame]  # (run key, table) -> the table

    @classmethod
    def build(cls, root: Path) -> Pristine:
        with Store(root) as store:
            run_sweep(tiny_sweep(), store, Inline(), progress=False)
            points = store.points(NAME)
            tables = {(k, t): store.table(k, t) for k in points["key"] for t in TABLES}
        return cls(root, points, tables)


def _differs(store: Store, pristine: Pristine, whole: bool) -> Optional[str]:
    """How what `store` reads differs from the undamaged store (None: it does not): a point read as
    finished must be one the undamaged store has, with its axes, seed, every metric and every table;
    with `whole`, every point must be finished. A StoreError or a missing sweep propagate (a clean error)."""
    points = store.points(NAME)
    ours = pristine.points.set_index("key")
    for row in points.to_dict("records"):
        if row["status"] != "ok":
            if whole:
                return f"point {row['key']} is {row['status']} after the rerun"
            continue
        if row["key"] not in ours.index:
            return f"a finished point of a run the sweep never had: {row}"
        want = ours.loc[row["key"]]
        for column in [c for c in pristine.points.columns if c not in ("wall_s", "finished_at", "code_version", "key")]:
            got, expected = row.get(column), want[column]
            if not (got == expected or (pd.isna(got) and pd.isna(expected)) if not isinstance(got, list) else
                    list(got) == list(expected)):
                return f"point {row['key']}: {column} reads {got!r}, stored {expected!r}"
        for t in TABLES:
            frame = store.table(row["key"], t)
            if not frame.equals(pristine.tables[(row["key"], t)]):
                return f"point {row['key']}: its {t} table reads otherwise than stored"
    if whole and len(points) != len(pristine.points):
        return f"{len(points)} points after the rerun, {len(pristine.points)} stored"
    return None


# --- damage ---

EDITS = ["flip", "flip", "flip", "zero", "cut", "append", "delete", "swap", "sql", "sql"]


@dataclass
class Case:
    kind: str  # damage, disk, sweep
    edits: List[tuple] = field(default_factory=list)  # damage: (edit, target, pick, where, size)
    disk: Tuple[str, int] = ("full", 0)  # disk: ("full", KB) or ("readonly", points stored before)
    sweep: Dict[str, Any] = field(default_factory=dict)  # sweep: the file's contents ...
    replaced: str = ""  # ... or the file it is replaced by: "/dev/zero", "sparse"


damage_edit = st.tuples(st.sampled_from(EDITS), st.sampled_from(["table", "table", "db"]), st.integers(0, 10**9),
                        st.floats(0, 1), st.integers(1, 64))


@st.composite
def damage_case(draw) -> Case:
    return Case("damage", edits=draw(st.lists(damage_edit, min_size=1, max_size=3)))


def _damage(root: Path, edit: tuple) -> str:
    """Damage the store at `root` as `edit` says; what was done, in words."""
    how, target, pick, where, size = edit
    if how == "sql":
        return _sql_edit(root, pick, where)
    files = sorted(root.glob("tables/*/*/*.parquet")) if target == "table" else [root / "pacesim.sqlite"]
    files = [f for f in files if f.exists()]
    if not files:
        return "nothing to damage"
    path = files[pick % len(files)]
    data = bytearray(path.read_bytes())
    at = min(int(where * len(data)), max(len(data) - 1, 0))
    if how == "flip" and data:
        for i in range(min(size, 8)):
            data[(at + i * 4099) % len(data)] ^= 1 << ((pick >> i) % 8)
    elif how == "zero":
        data[at:at + size * 16] = bytes(len(data[at:at + size * 16]))
    elif how == "cut":
        del data[at:]
    elif how == "append":
        data += os.urandom(size)
    elif how == "delete":
        path.unlink()
        return f"deleted {path.relative_to(root)}"
    elif how == "swap" and len(files) > 1:
        other = files[(pick + 1 + size) % len(files)]
        if other != path:
            data = bytearray(other.read_bytes())
    path.write_bytes(bytes(data))
    return f"{how} {path.relative_to(root)} at {at} ({size})"


SQL_EDITS = [("runs", "metrics"), ("runs", "status"), ("runs", "key"), ("runs", "report"), ("runs", "scenario"),
             ("run_tables", "path"), ("run_tables", "name"), ("run_tables", "rows"), ("sweep_points", "axes"),
             ("sweep_points", "key"), ("sweep_points", "seed"), ("sweeps", "spec"), ("sweeps", "name"),
             ("runs", "sha256"), ("run_tables", "sha256"), ("sweeps", "sha256")]
"""What `_sql_edit` changes; a checksum (`sha256`) it sets NULL, as one removed to hide another edit."""


def _sql_edit(root: Path, pick: int, where: float) -> str:
    """Change one value in the database as SQL would (SQLite accepts it: its pages stay whole)."""
    table, column = SQL_EDITS[pick % len(SQL_EDITS)]
    con = sqlite3.connect(root / "pacesim.sqlite", isolation_level=None)
    try:
        try:
            rows = con.execute(f"SELECT rowid, {column} FROM {table}").fetchall()
        except sqlite3.DatabaseError:  # an earlier edit left no database SQLite reads
            return "nothing to change: the database does not read"
        except UnicodeDecodeError:  # an earlier flip in the schema's text: SQLite's error quotes its bytes
            return "nothing to change: SQLite's message is not UTF-8"
        if not rows:
            return "nothing to change"
        rowid, value = rows[int(where * len(rows)) % len(rows)]
        if column == "sha256":
            new: Any = None
        elif isinstance(value, int):
            new = value + 1 + pick % 7
        elif isinstance(value, float):
            new = value * 1.001
        else:
            text = str(value)
            i = int(where * 997) % max(len(text), 1)
            digit = next((j for j in range(i, len(text)) if text[j].isdigit()), None)
            if digit is not None:  # a digit changed: a metric, a size, a hex key
                i = digit
            new = text[:i] + ("7" if text[i:i + 1] != "7" else "3") + text[i + 1:]
        try:
            con.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (new, rowid))
        except sqlite3.IntegrityError:  # a CHECK or a key the table refuses: no change
            return "refused by SQLite"
        return f"{table}.{column} of row {rowid}: {str(value)[:40]!r} -> {str(new)[:40]!r}"
    finally:
        con.close()


def damage_outcome(case: Case, pristine: Pristine, work: Path) -> Tuple[str, str]:
    root = work / "store"
    shutil.copytree(pristine.root, root)
    done = [_damage(root, edit) for edit in case.edits]
    what = "; ".join(done)
    noticed = False
    try:  # read as `results` and `plot` do
        with Store(root, read_only=True) as store:
            silent = _differs(store, pristine, whole=False)
            if silent:
                return "silent damage", f"{what}: before the rerun, {silent}"
            noticed = any(status != "ok" for status in store.points(NAME)["status"])
    except (StoreError, KeyError, FileNotFoundError) as e:  # clean errors (no store, or a sweep renamed)
        noticed = True
        first = f"read: {type(e).__name__}: {e}"
    else:
        first = "read as stored"
    try:
        with warnings.catch_warnings(record=True) as warned, Store(root) as store:
            warnings.simplefilter("always", DamagedRun)
            run = run_sweep(tiny_sweep(), store, Inline(), progress=False)
            silent = _differs(store, pristine, whole=True)
    except (StoreError, SweepError) as e:
        return "error names it", f"{what}: {first}; rerun: {e}"
    if silent:
        return "silent damage", f"{what}: after the rerun, {silent}"
    if run.ran or noticed or warned:
        return "repaired", f"{what}: {first}; {run.ran} run again"
    return "unharmed", what


# --- disk ---

disk_case = st.one_of(st.tuples(st.just("full"), st.integers(16, 1024)),
                      st.tuples(st.just("readonly"), st.integers(0, 4))).map(lambda d: Case("disk", disk=d))


def _mount(path: Path, options: str) -> bool:
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True)
    return done.returncode == 0


def _remount(path: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True, capture_output=True)


def _read_only(path: Path, made: List[Path]) -> None:
    """Make `path` read-only from now on: a read-only bind mount over it, noted in `made` (a file already
    open for writing, SQLite's database, stays writable through that descriptor)."""
    subprocess.run(["mount", "--bind", str(path), str(path)], check=True, capture_output=True)
    subprocess.run(["mount", "-o", "remount,bind,ro", str(path)], check=True, capture_output=True)
    made.append(path)


@dataclass
class MockedDisk:
    """A full or read-only disk as a Parquet write meets it, when no tmpfs can be mounted here."""

    errno_: int
    after: int  # table writes that succeed first
    writes: int = 0

    def __enter__(self) -> MockedDisk:
        real = self.real = pd.DataFrame.to_parquet
        disk = self

        def to_parquet(frame, path, *args, **kwargs):
            disk.writes += 1
            if disk.writes > disk.after:
                raise OSError(disk.errno_, os.strerror(disk.errno_), str(path))
            return real(frame, path, *args, **kwargs)

        pd.DataFrame.to_parquet = to_parquet
        return self

    def __exit__(self, *exc) -> None:
        pd.DataFrame.to_parquet = self.real


def disk_outcome(case: Case, pristine: Pristine, work: Path, can_mount: bool) -> Tuple[str, str]:
    mode, amount = case.disk
    root = work / "disk"
    root.mkdir()
    mounted = can_mount and _mount(root, f"size={amount}k" if mode == "full" else "size=64m")
    binds: List[Path] = []
    try:
        error = None
        store_dir = root / "results"
        if mounted:
            store_dir.mkdir()
            if mode == "readonly" and amount == 0:
                _read_only(root, binds)  # read-only from the start: the store cannot even be made
            after = (lambda n: _read_only(root, binds) if mode == "readonly" and n == amount + 1 else None)
            try:
                with Store(store_dir) as store:
                    run_sweep(tiny_sweep(), store, Inline(after), progress=False)
            except (StoreError, SweepError) as e:
                error = str(e)
        else:
            import errno

            tables = len(TABLES)
            with MockedDisk(errno.ENOSPC if mode == "full" else errno.EROFS, amount * tables + 2):
                try:
                    with Store(store_dir) as store:
                        run_sweep(tiny_sweep(), store, Inline(), progress=False)
                except (StoreError, SweepError) as e:
                    error = str(e)
        before: Dict[str, str] = {}
        if (store_dir / "pacesim.sqlite").exists():
            try:
                with Store(store_dir, read_only=True) as store:
                    silent = _differs(store, pristine, whole=False)
                    if silent:
                        return "silent damage", f"{mode} {amount}: after the failure, {silent}"
                    points = store.points(NAME)
                    before = dict(zip(points.loc[points["status"] == "ok", "key"],
                                      points.loc[points["status"] == "ok", "finished_at"]))
            except (StoreError, KeyError) as e:
                error = f"{error}; read: {e}"
        if mounted:
            if binds:
                subprocess.run(["umount", str(root)], check=True, capture_output=True)  # the bind, not the tmpfs
                binds.clear()
            else:
                _remount(root, "size=64m")
        try:
            with Store(store_dir) as store:
                run_sweep(tiny_sweep(), store, Inline(), progress=False)
                silent = _differs(store, pristine, whole=True)
                points = store.points(NAME).set_index("key")
        except (StoreError, SweepError) as e:
            return "error names it", f"{mode} {amount}: {error}; the rerun on a freed disk: {e}"
        if silent:
            return "silent damage", f"{mode} {amount}: after the rerun, {silent}"
        lost = [k for k, at in before.items() if points.loc[k, "finished_at"] != at]
        if lost:
            return "lost", f"{mode} {amount}: {len(lost)} points stored before the failure were run again: {error}"
        return ("repaired" if error else "unharmed"), f"{mode} {amount} ({'tmpfs' if mounted else 'mocked'}): {error}"
    finally:
        if mounted:
            while subprocess.run(["umount", "-l", str(root)], capture_output=True).returncode == 0:
                pass  # the bind (if any), then the tmpfs


# --- sweep files ---

NAMES = st.one_of(st.sampled_from(["s", "E-fig3", "a.b+c_d", "d\u00e9bit", "../../x", "/tmp/x", "a/b", ".hidden", "-x",
                                   "", "a b", "x\x1b]0;title\x07", "\u202egnp", "C:\\x", "..", "nul\x00"]),
                  st.text(min_size=1, max_size=20), st.integers(100, 10_000).map(lambda n: "n" * n))
SEED_VALUES = [0, 1, 2, 3, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -1]
AXIS_KEYS = ["core.buffer", "pacing.fraction", "seed", " seed", "trace.file", "trace", "tcp.window", "duration"]
AXIS_VALUE = {"core.buffer": lambda i: f"{i + 1}KB", "pacing.fraction": lambda i: round((i + 1) / 10**4, 6),
              "tcp.window": lambda i: i + 1, "duration": lambda i: f"{i + 2}s", "trace.file": lambda i: f"/tmp/t{i}.tr",
              "trace": lambda i: {"file": f"/tmp/t{i}.tr"}}
SET_ITEMS = ["seed=5", 'trace.file="/tmp/a.tr"', "trace={}", "duration=2s", "core.buffer=5KB", " seed = 7",
             "pacing.scheme=edge"]
VARIANTS = [{}, {"a": ["seed=3"]}, {"t": ['trace.file="/tmp/x.tr"']}, {"ok": ["pacing.scheme=edge"]}]


@st.composite
def sweep_case(draw) -> Case:
    keys = draw(st.lists(st.sampled_from(AXIS_KEYS), unique=True, max_size=4))
    axes = {}
    for key in keys:
        n = draw(st.sampled_from([1, 2, 3, 10, 1000, 10**4]))
        axes[key] = [AXIS_VALUE.get(key.strip(), lambda i: i)(i) for i in range(n)]
    variants = draw(st.sampled_from(VARIANTS))
    if variants and draw(st.booleans()):
        axes["variant"] = list(variants)
    data: Dict[str, Any] = {"name": draw(NAMES), "set": TINY[:5] + draw(st.lists(st.sampled_from(SET_ITEMS), max_size=2)),
                            "axes": axes, "variants": variants}
    seeds = draw(st.one_of(st.lists(st.sampled_from(SEED_VALUES), max_size=4), st.lists(st.integers(0, 9), max_size=40)))
    if seeds or draw(st.booleans()):
        data["seeds"] = seeds
    if draw(st.integers(0, 9)) == 0:
        data["quick"] = {"seeds": draw(st.lists(st.sampled_from(SEED_VALUES), min_size=1, max_size=2))}
    replaced = draw(st.sampled_from([""] * 18 + ["/dev/zero", "sparse"]))
    return Case("sweep", sweep=data, replaced=replaced)


def _sweep_file(case: Case, work: Path) -> Path:
    if case.replaced == "/dev/zero":
        return Path("/dev/zero")
    path = work / "case-sweep.toml"
    if case.replaced == "sparse":
        with open(path, "wb") as f:
            f.truncate(10**9)
        return path
    try:
        path.write_text(tomli_w.dumps(case.sweep), encoding="utf-8", errors="surrogatepass")
    except (TypeError, ValueError):  # a value TOML cannot hold (an int past 64 bits): JSON-ish text instead
        path.write_text(json.dumps(case.sweep), encoding="utf-8", errors="surrogatepass")
    return path


def _unsound(sweep: Sweep) -> Optional[str]:
    """What a sweep accepted holds that it must not (None: nothing)."""
    why = plain_name(sweep.name)
    if why:
        return f"name {why}"
    if sweep.size > MAX_POINTS:
        return f"{sweep.size} points"
    if any(k.strip() == "seed" for k in sweep.axes):
        return "an axis sets the seed"
    for i, p in enumerate(sweep.iter_points()):
        if i >= 50:
            break
        if p.scenario is not None and (p.scenario.seed != p.seed or p.scenario.trace is not None):
            return f"point {p.axes} seed {p.seed}: runs seed {p.scenario.seed}, trace {p.scenario.trace}"
    return None


def sweep_outcome(case: Case, work: Path) -> Tuple[str, str]:
    path = _sweep_file(case, work)
    try:
        sweeps = [load_sweep(path)]
        if sweeps[0].quick is not None:
            sweeps.append(sweeps[0].reduced())
    except (SweepError, ScenarioError) as e:
        return "error names it", str(e)[:300]
    for sweep in sweeps:
        bad = _unsound(sweep)
        if bad:
            return "nonsense", f"{sweep.name[:80]!r}: {bad}"
        if sweep.size <= RUN_SWEEP_UP_TO:
            try:
                with Store(work / "sweeps") as store:
                    run = run_sweep(sweep, store, Failing(), progress=False)
                    if len(store.points(sweep.name)) != run.points or run.points != sweep.size:
                        return "nonsense", f"{sweep.name[:80]!r}: {run.points} points run, {sweep.size} in the sweep"
            except SweepError as e:  # an invalid combination of axis values, found before any runs
                return "error names it", str(e)[:300]
    return "sound", f"{sweeps[0].size} points"


# --- the worker ---

def _serve(conn, pristine: Pristine, base: Path, can_mount: bool) -> None:
    import faulthandler

    faulthandler.disable()
    n = 0
    while True:
        case = conn.recv()
        n += 1
        work = base / f"case-{os.getpid()}-{n}"
        work.mkdir()
        try:
            if case.kind == "damage":
                out = damage_outcome(case, pristine, work)
            elif case.kind == "disk":
                out = disk_outcome(case, pristine, work, can_mount)
            else:
                out = sweep_outcome(case, work)
        except BaseException as e:  # noqa: BLE001  (classified, with its traceback, as a defect)
            out = ("traceback", f"{type(e).__name__}: {str(e)[:300]}\n{traceback.format_exc()[-1500:]}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
        conn.send(out)


class Worker(fuzzing.Worker):
    """A process taking one case at a time, restarted after a crash, a hang or unbounded memory."""

    def __init__(self, pristine: Pristine, base: Path, can_mount: bool) -> None:
        super().__init__(_serve, pristine, base, can_mount)

    def run(self, case: Case) -> Tuple[str, str]:
        self.start()
        clock = fuzzing.Clock(self.proc.pid)
        self.send(case)
        while not self.conn.poll(0.2):
            try:
                rss = psutil.Process(self.proc.pid).memory_info().rss
                used = clock.used()
            except psutil.NoSuchProcess:  # died: its end is read below
                break
            if rss > MEMORY_CAP or used > TIMEOUT_S or clock.blocked():
                self.close()
                return (("memory", f"{rss / 2**20:.0f} MB") if rss > MEMORY_CAP else
                        ("hang", f"{TIMEOUT_S:g} s of CPU time" if used > TIMEOUT_S else
                         f"no CPU time used in {fuzzing.BLOCKED_S:g} s"))
        return self.answer()


def may_mount(base: Path) -> bool:
    """Whether this process may mount a tmpfs (as root, where mounting is allowed)."""
    probe = base / "probe"
    probe.mkdir()
    if not _mount(probe, "size=64k"):
        return False
    subprocess.run(["umount", str(probe)], capture_output=True)
    return True


class Harness(fuzzing.Tally):
    """Builds the undamaged store, drives cases through a worker and counts their outcomes."""

    def __init__(self, base: Path) -> None:
        super().__init__(DEFECTS)
        self.base = base
        self.can_mount = may_mount(base)
        self.pristine = Pristine.build(base / "pristine")
        self.worker = Worker(self.pristine, base, self.can_mount)

    def close(self) -> None:
        self.worker.close()

    def record(self, case: Case) -> str:
        cls, detail = self.worker.run(case)
        self.count(cls, case.kind, lambda: f"[{case.kind}] {detail[:2000]}\n{repr(case)[:1500]}")
        return cls


CASES = st.one_of(damage_case(), damage_case(), disk_case, sweep_case())
