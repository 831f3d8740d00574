#!/usr/bin/env python3
"""Sensitivity runs (issue 17 Sec 3): do paper E's missed claims appear under another reading of its setup?

Paper E (Sec 3.1) gives 1000 B packets, buffers in KB, TCP Reno and nothing
more. pacesim's E-base reads that as ns-2 2.35 would run it: 1040 B on the
wire (packetSize_ 1000 plus 40 B of headers), 1 KB = 1000 B, an advertised
window (1000 packets) that never limits, no delayed ACKs, Reno. Each reading
below changes one of those, and the claims the paper-size store misses are
judged again under it with the claims' own checks (python/pacesim/reproduce/
paper_e.py), on the grid points that decide them, one seed:

- pacesim readings (`READINGS`): 1000 B on the wire (ns-2's useHeaders_
  false, goodput counting the same 1000 B per packet; pacesim takes no
  0 B header, so 999 B segments with a 1 B header);
  1 KB = 1024 B (every buffer in KiB); ns-2's default advertised window
  (window_ 20); delayed ACKs (ns-2 TCPSink/DelAck, interval 100 ms);
- ns-2 readings (`NS2_READINGS`, `ebase_open.tcl` around bench/ns2's
  E-base scripts, 200 s over [50, 200] s as bench/ns2/results/ebase.csv):
  what pacesim does not model, ns-2's default Agent/TCP (Tahoe) and its
  overhead_ (a random U[0, overhead_] delay before every send, against
  phase effects), on unpaced points; and the stated setup (or window_ 20)
  at the points that decide a claim, with host pacing (tcp-paced.cc) or the
  edge pacer (Queue/EdgePacer) of bench/ns2/paced where the claim is paced.

The "paper" reading is the paper-size store itself (`--base`, read only).
Outputs under results/: points-<figure>.csv (every point: reading, axes,
metrics), claims.csv (claim, reading, outcome, numbers), ns2.csv, and
results.md generated from them.

    PYTHONPATH=python python bench/sensitivity/run.py [--only READING ...] [--ns2] [--report]
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

import pandas as pd

from pacesim.reproduce.claims import Points, Verdict, beats, first_reaching
from pacesim.reproduce.figure import GOODPUT, TCP_PCT, scenarios_dir
from pacesim.papers import FIGURES
from pacesim.papers.e.figures import _first_buffer
from pacesim.store import Store
from pacesim.sweep import Sweep, executor, load_sweep, run_sweep

HERE = Path(__file__).resolve().parent
OUT = HERE / "results"
NS2_TCL = HERE / "ebase_open.tcl"
METRICS = ["core_loss_rate", "tcp_utilisation", "goodput_kbps_mean", "aggregate_mbps", "wall_s"]


@dataclass(frozen=True)
class Reading:
    """One reading of what the paper leaves open: scenario overrides, and buffers in KiB or not."""

    name: str
    what: str
    overrides: Tuple[str, ...] = ()
    kib: bool = False
    # Figures run under this reading, each with axes narrowed (key -> values; {} keeps the experiment's).
    figures: Dict[str, Dict[str, list]] | None = None


PAPER = Reading("paper", "pacesim's E-base (ns-2's setup: 1040 B on the wire, 1 KB = 1000 B, window 1000, "
                "no delayed ACKs, Reno); the paper-size store")
READINGS = [
    # pacesim needs a header of at least 1 B: 999 + 1 B is 1000 B on the wire, goodput counting 999 B of each.
    Reading("wire1000", "1000 B on the wire, goodput counting (almost) all of it (ns-2 useHeaders_ false; "
            "pacesim: 999 B segments + 1 B header)", ("tcp.segment_size=999B", "tcp.header_size=1B")),
    Reading("delack", "delayed ACKs (ns-2 TCPSink/DelAck, 100 ms)", ("tcp.delayed_ack=100ms",)),
    Reading("win20", "advertised window 20 packets (ns-2's default window_)", ("tcp.window=20",),
            figures={"E-fig3": {}, "E-fig4": {}}),
    # A byte-limited drop-tail queue of B bytes holds ceil(B / 1040) - 1 waiting 1040 B packets: the same
    # number for B = b KB and b KiB at every b of 2-20, so only one point is run to show it.
    Reading("kib", "1 KB = 1024 B (every buffer in KiB)", kib=True,
            figures={"E-fig3": {"core.buffer": ["3KB"], "pacing.scheme": ["none", "edge"]}}),
]


def _edge_over_host(variants: Sequence[str], buffers: Sequence[str]) -> Callable[[Points], Verdict]:
    """E-fig7.1's test on the variants run: edge beats host in throughput and goodput at every buffer."""
    def check(p: Points) -> Verdict:
        losing = [f"{v} {m.split('_')[0]} {b}" for v in variants for m in (TCP_PCT, GOODPUT) for b in buffers
                  if not beats(p.at(m, tcp=v, scheme="edge", buffer=b), p.at(m, tcp=v, scheme="host", buffer=b))]
        return not losing, "host at or above edge at " + ", ".join(losing) if losing else "edge above host at all"
    return check


def _edge_gain_10(variants: Sequence[str], buffers: Sequence[str]) -> Callable[[Points], Verdict]:
    """E-fig7.2's test on the variants run: edge > +10 % over host at most points, throughput and goodput each."""
    def check(p: Points) -> Verdict:
        ok, parts = True, []
        for m in (TCP_PCT, GOODPUT):
            gains = {(v, b): p.at(m, tcp=v, scheme="edge", buffer=b) / p.at(m, tcp=v, scheme="host", buffer=b) - 1
                     for v in variants for b in buffers}
            over = sum(g > 0.10 for g in gains.values())
            ok &= over * 2 > len(gains)
            parts.append(f"{m.split('_')[0]}: {over} of {len(gains)} above +10 % (" +
                         ", ".join(f"{v} {b} {100 * g:+.1f} %" for (v, b), g in gains.items()) + ")")
        return ok, "; ".join(parts)
    return check


@dataclass(frozen=True)
class Experiment:
    """The grid points of one figure that decide its missed claims, and those claims' checks."""

    fig: str
    axes: Dict[str, list]
    # claim id -> check; None: the figure's own claim, unchanged.
    checks: Dict[str, Callable[[Points], Verdict] | None] = field(default_factory=dict)
    # Several experiments on one figure need their own names (sweeps, CSVs).
    part: str = ""

    @property
    def name(self) -> str:
        return self.fig + self.part


MID = ["5KB", "8KB", "10KB", "15KB"]
E5_BUFFERS = ["5KB", "8KB", "10KB", "15KB", "20KB", "30KB"]
E9_BUFFERS = ["3KB", "4KB", "5KB", "6KB", "8KB", "10KB", "15KB"]
EXPERIMENTS = [
    Experiment("E-fig3", {"core.buffer": ["2KB", "3KB", *MID], "pacing.scheme": ["none", "host", "edge"]},
               {f"E-fig3.{i}": None for i in range(1, 8)}),
    Experiment("E-fig5", {"core.buffer": E5_BUFFERS, "pacing.scheme": ["none", "host"]},
               {"E-fig5.1": None, "E-fig5.2": None,
                "E-fig5.4": _first_buffer("none", 20, buffers=E5_BUFFERS),
                "E-fig5.5": _first_buffer("host", 10, buffers=E5_BUFFERS)}),
    Experiment("E-fig9", {"core.buffer": E9_BUFFERS, "pacing.scheme": ["host", "edge"]},
               {"E-fig9.1": _first_buffer("edge", 4, TCP_PCT, 99.0, "99 Mb/s", E9_BUFFERS),
                "E-fig9.2": _first_buffer("host", 10, TCP_PCT, 99.0, "99 Mb/s", E9_BUFFERS),
                "E-fig9.4": None, "E-fig9.5": None}),
    Experiment("E-fig7", {"tcp.variant": ["newreno"], "core.buffer": MID, "pacing.scheme": ["host", "edge"]},
               {"E-fig7.1": _edge_over_host(["newreno"], MID), "E-fig7.2": _edge_gain_10(["newreno"], MID)}),
    Experiment("E-fig4", {"flows": [100], "core.buffer": ["10KB", "15KB", "20KB", "30KB"],
                          "pacing.scheme": ["host", "edge"]}, {"E-fig4.2": None}),
    Experiment("E-fig12", {"core.buffer": ["2KB", "3KB", "5KB"], "pacing.delay": ["1ms", "10ms"]},
               {"E-fig12.1": None}, part="a"),
    Experiment("E-fig12", {"core.buffer": ["30KB", "50KB"], "pacing.delay": ["10ms", "100ms", "200ms"]},
               {"E-fig12.2": None}, part="b"),
]


def _kib(buffer: str) -> str:
    return buffer.replace("KB", "KiB")


def sweep_of(exp: Experiment, reading: Reading) -> Sweep:
    """The figure's sweep (its base, fixed overrides and seeds) on `exp`'s axes under `reading`."""
    fig = load_sweep(scenarios_dir() / f"{exp.fig}.toml")
    axes = {**exp.axes, **(reading.figures or {}).get(exp.name, {})}
    if reading.kib:
        axes["core.buffer"] = [_kib(b) for b in axes["core.buffer"]]
    return Sweep(name=f"{exp.name}@{reading.name}", base=fig.base, axes=axes, seeds=fig.seeds,
                 set=fig.set + list(reading.overrides), root=fig.root)


def base_points(exp: Experiment, base: Path) -> pd.DataFrame:
    """`exp`'s grid points from the paper-size store (the sweep named after the figure)."""
    with Store(base) as store:
        if exp.fig not in set(store.sweeps()["sweep"]):
            return pd.DataFrame()
        df = store.points(exp.fig, written=True)
    for key, values in exp.axes.items():
        df = df[df[key].isin(values)]
    return df


def run_points(exp: Experiment, reading: Reading, results: Path, workers: int) -> pd.DataFrame:
    """Run (or reuse) `exp` under `reading` in the store at `results`; buffers relabelled in KB for the checks."""
    sweep = sweep_of(exp, reading)
    with Store(results) as store, executor(workers) as pool:
        run_sweep(sweep, store, pool, progress=False)
        df = store.points(sweep.name, written=True)
    if reading.kib:
        df["core.buffer"] = df["core.buffer"].str.replace("KiB", "KB")
    return df


def judge(exp: Experiment, df: pd.DataFrame) -> List[Tuple[str, str, str, str]]:
    """(claim id, words, outcome, numbers) of each of `exp`'s claims on the points `df`."""
    fig = FIGURES[exp.fig]
    p = Points(df)
    out = []
    for cid, check in exp.checks.items():
        claim = fig.claims[int(cid.split(".")[1]) - 1]
        if check is not None:
            claim = type(claim)(claim.expect, claim.test, check)
        out.append((cid, claim.expect, *claim.evaluate(p)))
    return out


def _append(path: Path, rows: List[dict]) -> None:
    """Rows appended to CSV `path` (header written when new)."""
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        if new:
            w.writeheader()
        w.writerows(rows)


def _replace(path: Path, key: Callable[[dict], bool], rows: List[dict]) -> None:
    """CSV `path` with the rows matching `key` replaced by `rows`."""
    kept = []
    if path.exists():
        with path.open() as f:
            kept = [r for r in csv.DictReader(f) if not key(r)]
    path.unlink(missing_ok=True)
    if kept + rows:
        _append(path, kept + rows)


def pacesim_grid(readings: Sequence[Reading], experiments: Sequence[Experiment], results: Path, base: Path,
                 workers: int) -> None:
    """Every experiment under every reading: points.csv and claims.csv updated as each finishes."""
    for exp in experiments:
        for reading in [r for r in readings if r.figures is None or exp.name in r.figures]:
            df = base_points(exp, base) if reading is PAPER else run_points(exp, reading, results, workers)
            if not (df.get("status", pd.Series(dtype=str)) == "ok").any():
                errors = set(df["error"].dropna()) if "error" in df else set()
                print(f"{exp.name} @ {reading.name}: no successful point {sorted(errors)[:1]}", file=sys.stderr)
                continue
            axes = list(exp.axes)
            pts = [{"figure": exp.fig, "reading": reading.name, **{a: r[a] for a in axes},
                    **{m: r.get(m) for m in METRICS}} for _, r in df.iterrows()]
            same = lambda r: r["figure"] == exp.fig and r["reading"] == reading.name  # noqa: E731
            _replace(OUT / f"points-{exp.name}.csv", same, pts)
            judged = [{"claim": cid, "expect": words, "reading": reading.name, "outcome": outcome, "numbers": numbers}
                      for cid, words, outcome, numbers in judge(exp, df)]
            _replace(OUT / "claims.csv", lambda r: r["reading"] == reading.name and r["claim"] in exp.checks, judged)
            for j in judged:
                print(f"{j['claim']} @ {reading.name}: {j['outcome']}: {j['numbers']}", flush=True)


# --- stock ns-2: Tahoe and overhead_ on unpaced E-base points ---

@dataclass(frozen=True)
class Ns2Reading:
    """An ns-2 run of E-base: TCP class, overhead_, access rate (None: U[8, 12] Mb/s), the buffers run; with
    `host_paced` every sender paces (ns-2 with bench/ns2/paced's tcp-paced.cc, "original" RTT/cwnd pacing as
    paper E's Wei patch) behind the core queue `queue`."""

    name: str
    what: str
    variant: str
    overhead_s: float
    access_mbps: int | None = None
    buffers_kb: Tuple[int, ...] = (2, 3)
    host_paced: bool = False
    queue: str = "DropTail"
    # Edge pacing instead (bench/ns2/paced's Queue/EdgePacer, d = 10 ms on every ingress edge link).
    edge_paced: bool = False
    hosts_per_edge: int = 100
    window: int | None = None

    def command(self, buffer_bytes: int, seed: int, duration: int, warmup: int, flows_csv: Path) -> List[str]:
        common = [10, self.hosts_per_edge, buffer_bytes, seed, duration, warmup, flows_csv, self.variant]
        if self.edge_paced:
            return [PACED_EDGE_NS, NS2_TCL, self.overhead_s, 10, 10, *common[:-1]]
        if self.host_paced:
            return [PACED_NS, NS2_TCL, self.overhead_s, "original", 1.0, *common, "", self.queue]
        return ["ns", NS2_TCL, self.overhead_s, *common]

    def env(self) -> Dict[str, str]:
        """ebase_open.tcl's settings: the access rate, and host pacing's script."""
        return {**os.environ, **({"ACCESS_MBPS": str(self.access_mbps)} if self.access_mbps else {}),
                **({"WINDOW": str(self.window)} if self.window else {}),
                **({"EBASE_TCL": PACED_HOST_TCL} if self.host_paced else {}),
                **({"EBASE_TCL": PACED_EDGE_TCL} if self.edge_paced else {})}


# ns-2 Reno without jitter is bench/ns2/results/ebase.csv (seed 1, 200 s): the reference rows, not rerun.
NS2_REFERENCE = Path(__file__).resolve().parents[1] / "ns2" / "results" / "ebase.csv"
NS2_READINGS = [
    Ns2Reading("ns2-tahoe", "ns-2's default Agent/TCP (Tahoe)", "Tahoe", 0.0),
    # 3 KB decides E-fig3.1 (every reading is above 15 % at 2 KB).
    Ns2Reading("ns2-reno-overhead1ms", "ns-2 Reno with overhead_ 1 ms (send delayed U[0, 1] ms)", "Reno", 0.001,
               buffers_kb=(3,)),
    # E-fig5's unpaced curve as the paper states it (100 Mb/s access, Reno, 1040 B on the wire) around 20 KB.
    Ns2Reading("ns2-reno-access100", "ns-2 Reno with 100 Mb/s access links (paper E Fig. 5's setup)", "Reno", 0.0,
               100, (20, 30)),
    # Host pacing at 15 KB (E-fig3.3, E-fig7.1): at or above 99.01 % of the core, edge cannot beat it by 1 %.
    Ns2Reading("ns2-host-reno", "ns-2 Reno, every host paced (tcp-paced.cc, original)", "Reno", 0.0,
               buffers_kb=(15,), host_paced=True),
    Ns2Reading("ns2-host-newreno", "ns-2 NewReno, every host paced (tcp-paced.cc, original)", "Newreno", 0.0,
               buffers_kb=(15,), host_paced=True),
    # E-fig9's host curve (RED as bench/ns2/ebase.tcl's): below 99 % at 11 KB, it cannot reach 99 % by about 10 KB.
    Ns2Reading("ns2-host-reno-red", "ns-2 Reno, every host paced, RED at the core (paper E Fig. 9)", "Reno", 0.0,
               buffers_kb=(11,), host_paced=True, queue="RED"),
    # E-fig4.2 at 30 KB, 100 flows: host and edge pacing, with ebase.tcl's window 1000 and ns-2's default 20.
    *[Ns2Reading(f"ns2-{how}-100flows{'-win20' if w else ''}",
                 f"ns-2 Reno, 100 flows, every {how} paced" + (", window_ 20" if w else ""), "Reno", 0.0,
                 buffers_kb=(30,), host_paced=how == "host", edge_paced=how == "edge", hosts_per_edge=10, window=w)
      for w in (None, 20) for how in ("host", "edge")],
    # E-fig5's host curve as the paper states it, around 10 KB.
    Ns2Reading("ns2-host-reno-access100", "ns-2 Reno, every host paced, 100 Mb/s access links (paper E Fig. 5)",
               "Reno", 0.0, 100, (10, 15), host_paced=True),
]
# ns-2 2.35 built with host pacing by bench/ns2/paced/build.sh, and its E-base script; the same with the edge pacer.
PACED_EDGE_NS = os.environ.get("PACED_EDGE_NS", "/work/ns2-edge/ns-2.35/ns")
PACED_EDGE_TCL = os.environ.get("PACED_EDGE_TCL", str(next(
    (p for p in [HERE.parent / "ns2" / "paced" / "ebase_edge.tcl",
                 Path("/work/wt/ns2edge/bench/ns2/paced/ebase_edge.tcl")] if p.exists()),
    HERE.parent / "ns2" / "paced" / "ebase_edge.tcl")))
PACED_NS = os.environ.get("PACED_NS", "/work/ns2/ns-2.35/ns")
PACED_HOST_TCL = os.environ.get("PACED_HOST_TCL", str(next(
    (p for p in [HERE.parent / "ns2" / "paced" / "ebase_host.tcl",
                 Path("/work/wt/ns2host/bench/ns2/paced/ebase_host.tcl")] if p.exists()),
    HERE.parent / "ns2" / "paced" / "ebase_host.tcl")))
NS2_COLUMNS = ["reading", "buffer_bytes", "seed", "duration_s", "warmup_s", "aggregate_mbps", "goodput_kbps_mean",
               "core_loss", "core_arrivals", "core_drops", "wall_s"]


def _ns2_done(path: Path) -> set:
    """(reading, buffer bytes) of the rows in ns2.csv, read afresh (other runners may have added some)."""
    if not path.exists():
        return set()
    with path.open() as f:
        return {(r["reading"], int(r["buffer_bytes"])) for r in csv.DictReader(f)}


def ns2_grid(readings: Sequence[Ns2Reading], buffers_kb: Sequence[int] = (), seed: int = 1, duration: int = 200,
             warmup: int = 50) -> None:
    """E-base, 1000 flows, under each ns-2 reading at each buffer; rows already in ns2.csv are skipped."""
    path = OUT / "ns2.csv"
    for r in readings:
        for kb in r.buffers_kb:
            if (r.name, kb * 1000) in _ns2_done(path) or (buffers_kb and kb not in buffers_kb):
                continue
            with tempfile.TemporaryDirectory() as tmp:
                cmd = r.command(kb * 1000, seed, duration, warmup, Path(tmp) / "flows.csv")
                out = subprocess.run(["/usr/bin/time", "-f", "WALL %e", *map(str, cmd)],
                                     capture_output=True, text=True, check=True, env=r.env())
            m = dict(re.findall(r"(\w+)=([-\d.e]+)", out.stdout.split("RESULT", 1)[1]))
            wall = re.search(r"WALL ([\d.]+)", out.stderr).group(1)
            row = {"reading": r.name, "buffer_bytes": kb * 1000, "seed": seed, "duration_s": duration,
                   "warmup_s": warmup, **{k: m[k] for k in NS2_COLUMNS[5:10]}, "wall_s": wall}
            _append(path, [row])
            print(f"{r.name} {kb} KB: loss {100 * float(m['core_loss']):.2f} %, {m['aggregate_mbps']} Mb/s, "
                  f"{m['goodput_kbps_mean']} Kb/s ({wall} s)", flush=True)


# --- results.md ---

def report() -> str:
    """results.md from claims.csv, the points CSVs and ns2.csv."""
    claims = pd.read_csv(OUT / "claims.csv") if (OUT / "claims.csv").exists() else pd.DataFrame()
    lines = ["# Sensitivity of paper E's missed claims to what the paper leaves open", "",
             "Generated by `bench/sensitivity/run.py --report` from `results/*.csv`; do not edit. "
             "Issue 17 Sec 3. One seed (1), paper size (1000 flows, 400 s over [100, 400] s), the grid points "
             "that decide each claim; each claim judged by its own check in python/pacesim/papers/e/figures.py "
             "(E-fig5, E-fig9: the first-reaching buffer interpolated on the grid run; E-fig7: NewReno only; E-fig4: 100 "
             "flows, 10-30 KB; E-fig12: 1 and 10 ms at 2-5 KB, 10-200 ms at 30-50 KB).", "",
             "Readings:", ""]
    lines += [f"- `{r.name}`: {r.what}" for r in [PAPER, *READINGS]]
    lines += [f"- `{r.name}`: {r.what}" for r in NS2_READINGS]
    if len(claims):
        claims = claims[claims.outcome != "not evaluated"]
        order = [r.name for r in [PAPER, *READINGS] if r.name in set(claims.reading)]
        lines += ["", "## Claims under each reading", "",
                  "Outcome per reading (R reproduced, x not, - not evaluated); the numbers follow.", "",
                  "| claim | expect | " + " | ".join(order) + " |", "|---|---|" + "---|" * len(order)]
        mark = {"reproduced": "R", "not reproduced": "x", "not evaluated": "-"}
        for cid, g in claims.groupby("claim", sort=False):
            by = dict(zip(g["reading"], g["outcome"]))
            lines.append(f"| {cid} | {g['expect'].iloc[0]} | " +
                         " | ".join(mark.get(by.get(r, ""), "") for r in order) + " |")
        lines += ["", "### Numbers", ""]
        for cid, g in claims.groupby("claim", sort=False):
            lines.append(f"- **{cid}** {g['expect'].iloc[0]}")
            lines += [f"  - `{r['reading']}` ({r['outcome']}): {r['numbers']}" for _, r in g.iterrows()]
    lines += _kib_identity() + _kib_crossings()
    ns2 = OUT / "ns2.csv"
    if ns2.exists():
        ref = pd.read_csv(NS2_REFERENCE)
        ref = ref[(ref.flows == 1000) & (ref.seed == 1) & (ref.duration_s == 200) & (ref.warmup_s == 50)
                  & ref.buffer_bytes.isin([2000, 3000])].assign(reading="ns2-reno (bench/ns2/results/ebase.csv)")
        df = pd.concat([ref, pd.read_csv(ns2)], ignore_index=True)
        lines += ["", "## ns-2 2.35 (E-base, 1000 flows unless the reading says 100, seed 1, 200 s over [50, 200] s; "
                  "host and edge pacing with bench/ns2/paced's tcp-paced.cc and Queue/EdgePacer)",
                  "", "| reading | buffer KB | core loss % | aggregate Mb/s | goodput Kb/s |", "|---|---|---|---|---|"]
        lines += [f"| {r.reading} | {r.buffer_bytes / 1000:g} | {100 * r.core_loss:.2f} | {r.aggregate_mbps:.2f} | "
                  f"{r.goodput_kbps_mean:.2f} |" for r in df.itertuples()]
    return "\n".join(lines) + "\n"


# (claim, figure, scheme, metric, level): the first-reaching claims, whose KiB reading follows from the KB one.
CROSSINGS = [("E-fig5.4", "E-fig5", "none", GOODPUT, 90.0, 20), ("E-fig5.5", "E-fig5", "host", GOODPUT, 90.0, 10),
             ("E-fig9.1", "E-fig9", "edge", TCP_PCT, 99.0, 4), ("E-fig9.2", "E-fig9", "host", TCP_PCT, 99.0, 10)]


def _kib_identity() -> List[str]:
    """The KiB reading's points beside the same points in KB (drop-tail: the same capacity in packets)."""
    lines = []
    for path in sorted(OUT.glob("points-*.csv")):
        df = pd.read_csv(path)
        kib = df[df.reading == "kib"]
        if not len(kib):
            continue
        axes = [c for c in df.columns if c not in ("figure", "reading", *METRICS)]
        both = kib.merge(df[df.reading == PAPER.name], on=axes, suffixes=("_kib", "_kb"))
        lines += ["", f"## 1 KB = 1024 B on drop-tail ({path.name}: KiB run beside KB)", "",
                  "| point | loss % KiB / KB | TCP % of core KiB / KB | goodput Kb/s KiB / KB |", "|---|---|---|---|"]
        lines += [f"| {' '.join(str(r[a]) for a in axes)} | {100 * r.core_loss_rate_kib:.3f} / {100 * r.core_loss_rate_kb:.3f} "
                  f"| {100 * r.tcp_utilisation_kib:.3f} / {100 * r.tcp_utilisation_kb:.3f} "
                  f"| {r.goodput_kbps_mean_kib:.3f} / {r.goodput_kbps_mean_kb:.3f} |" for _, r in both.iterrows()]
    return lines


def _kib_crossings() -> List[str]:
    """The buffer at which a curve first reaches its level, in KiB: the paper reading's in KB / 1.024.

    Every result depends on the buffer only through its bytes, so the curve over b KiB is the curve over
    1.024 b KB; the interpolated crossing at x KB is at x / 1.024 KiB."""
    lines = ["", "## 1 KB = 1024 B on the first-reaching claims (from the paper reading: x KB is x / 1.024 KiB)", "",
             "| claim | scheme | level | paper reading, KB | as KiB | paper says |", "|---|---|---|---|---|---|"]
    for cid, fig, scheme, metric, level, quoted in CROSSINGS:
        path = OUT / f"points-{fig}.csv"
        if not path.exists():
            continue
        df = pd.read_csv(path)
        df = df[(df.reading == PAPER.name) & (df["pacing.scheme"] == scheme)]
        df = df.assign(kb=df["core.buffer"].str.replace("KB", "").astype(float)).sort_values("kb")
        ys = 100 * df["tcp_utilisation"] if metric == TCP_PCT else df[metric]
        _, cross = first_reaching(list(df.kb), list(ys), level)
        if cross is not None:
            lines.append(f"| {cid} | {scheme} | {level:g} | {cross:.1f} | {cross / 1.024:.1f} | {quoted} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", type=Path, default=Path("/work/res/sensitivity"), help="store for the readings' runs")
    ap.add_argument("--base", type=Path, default=Path("/work/res/full"), help="paper-size store (read only)")
    ap.add_argument("--only", nargs="*", help="readings to run (paper, wire1000, kib, win20, delack)")
    ap.add_argument("--figures", nargs="*", help="experiments to run (E-fig3, E-fig5, E-fig9, E-fig7)")
    ap.add_argument("--ns2", nargs="*", help="run the stock ns-2 readings (all, or those named)")
    ap.add_argument("--buffers", nargs="*", type=int, help="with --ns2: only these buffers (KB)")
    ap.add_argument("--workers", type=int, default=1, help="pacesim runs at once")
    ap.add_argument("--report", action="store_true", help="only rewrite results.md")
    a = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    if not a.report:
        if a.ns2 is not None:
            ns2_grid([r for r in NS2_READINGS if not a.ns2 or r.name in a.ns2], a.buffers or ())
        else:
            readings = [r for r in [PAPER, *READINGS] if not a.only or r.name in a.only]
            experiments = [e for e in EXPERIMENTS if not a.figures or e.fig in a.figures]
            pacesim_grid(readings, experiments, a.results, a.base, a.workers)
    (HERE / "results.md").write_text(report(), encoding="utf-8")


if __name__ == "__main__":
    main()
