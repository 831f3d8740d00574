"""What the reproduction site shows of a results store, per catalogue id.

Every catalogue id (`pacesim.papers.CATALOGUE`) becomes an `Entry`: how it was
judged and its claims (from `reproduce.paper_tables.judge_all`, so the site and
the per-paper markdown tables cannot disagree), its ns-2 references
(`references.toml`), and for each of its figures with a full-size sweep in
the store a `Run`: points by status, seeds, engine time, the engine and code
versions and hosts that ran them, the files `pacesim reproduce` wrote
under `<store>/reproduce/<figure id>/`, and the ns-2 rows its figure draws
(`reproduce.ns2`) each beside pacesim's mean at the same point. The store's other sweeps (the user's own,
quick demos) are `OwnSweep`s, with their flows' FlowMonitor-style statistics (`FlowStats`); a paper-size
figure's run has none here (hundreds of 1000-flow points: `Store.rows` gives them).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

import pandas as pd

from .. import ENGINE_VERSION
from ..panels import axis_name, file_name, metric_label
from ..papers import CATALOGUE, FIGURES
from ..reproduce import ns2
from ..reproduce.catalogue import figures_of
from ..reproduce.runner import length_s
from ..reproduce.full_size import differs
from ..reproduce.paper_tables import judge_all, references
from ..reproduce.verdicts import (INCONCLUSIVE, KINDS, NOT_EVALUATED, ORDER, QUICK_MISS, REPRODUCED, UNKNOWN, UNSETTLED,
                                  Judged, paper_of)
from ..report_tables import FLOW_STATS, figures
from ..store import Store, StoreError, held

VERDICTS = [v for v in ORDER if v != QUICK_MISS]
"""The verdicts a full-size record can hold, in `ORDER` (quick demos are never judged here)."""

CSS_CLASS = {REPRODUCED: "reproduced", UNKNOWN: "unknown", NOT_EVALUATED: "not-evaluated", INCONCLUSIVE: "inconclusive",
             UNSETTLED: "inconclusive", **{words: kind for kind, words in KINDS.items()}}
"""Verdict -> the CSS class that colours it."""

FIGURE_FILES = (".png", ".svg", ".csv")
"""What `pacesim reproduce` writes per figure and the site copies: the drawing, its vector form, every point."""


class RecordError(ValueError):
    """A results store the site cannot be built from; the message says why."""


@dataclass(frozen=True)
class Ns2Table:
    """The ns-2 rows drawn on one panel of a figure, each beside pacesim's mean at its point."""

    title: str  # the panel, the metric and the pacesim curve
    x: str  # the x axis, with its unit
    rows: List[Tuple[str, int, str, str, str]]  # x, seed, ns-2's run (length, warm-up), ns-2's value, pacesim's


@dataclass(frozen=True)
class Run:
    """One figure's full-size sweep in the store and the files drawn from it."""

    figure: str
    points: int
    ok: int
    failed: int
    pending: int
    seeds: List[int]
    engine_s: float  # engine wall time summed over the finished points
    engine_versions: List[str]
    code_versions: List[str]
    hosts: List[str]
    finished: Tuple[str, str]  # first and last point finished, UTC ISO 8601 ("" when none has)
    files: List[Path]  # under <store>/reproduce/<figure>/, in FIGURE_FILES order
    drawn_from: Optional[int]  # points in the figure's CSV: the store's count when it was drawn
    length_s: Optional[float]  # pacesim's run length
    ns2: List[Ns2Table]  # empty when the figure has no ns-2 rows, or the package ships none
    flows: int = 0  # TCP flows over its finished points, each a row of its flows table


@dataclass(frozen=True)
class Entry:
    """One catalogue id: what it is, how it was judged, its claims, runs and ns-2 references."""

    id: str
    what: str
    setups: List[Tuple[str, str]]  # (figure id, its setup in words) of each figure that runs this id
    how: str
    claims: List[Judged]
    runs: List[Run]
    references: List[str]
    shown_under: Optional[str]  # the catalogue id whose run also shows this one (Q-fig19 under Q-tab3)

    @property
    def paper(self) -> str:
        return paper_of(self.id)

    def tally(self) -> Dict[str, int]:
        """Claims per verdict, every verdict of `VERDICTS` present (0 if none)."""
        found = Counter(j.verdict for j in self.claims)
        return {v: found[v] for v in VERDICTS}


FLOWS_SHOWN = 5
"""Of a sweep's flows the site lists this many one by one: the first (the first point's first flows) and the
worst (least goodput); every flow counts in the quantiles."""

QUANTILES = (("min", 0.0), ("p10", 0.1), ("median", 0.5), ("p90", 0.9), ("max", 1.0))


@dataclass(frozen=True)
class FlowStats:
    """The per-flow statistics (`report_tables.FLOW_STATS`, ns-3 FlowMonitor's) of a sweep's finished points,
    numbers written out: each statistic's quantiles across every flow of every point (linear interpolation,
    as `pacesim run` prints them), and `FLOWS_SHOWN` flows' rows twice, the first and the worst served."""

    flows: int
    points: int
    quantiles: List[Tuple[str, List[str]]]  # (statistic, its values at QUANTILES)
    headers: List[str]  # of a flow's row: its point, seed, flow, then each statistic
    first: List[List[str]]
    worst: List[List[str]]


def flow_stats(rows: pd.DataFrame, axes: List[str]) -> Optional[FlowStats]:
    """`FlowStats` of a sweep's flows (`Store.rows(name, "flows", written=True)`: its axes as written); None
    when no point finished."""
    if rows.empty:
        return None
    stats = [(c, label, header, k) for c, label, header, k in FLOW_STATS if c in rows and rows[c].notna().any()]
    quantiles = [(label, [figures(v) for v in (rows[c] * k).quantile([q for _, q in QUANTILES])])
                 for c, label, _, k in stats]

    def row(r) -> List[str]:
        point = ", ".join(f"{a}={r[a]}" for a in axes)
        return [point, str(r["seed"]), str(r["flow"])] + ["-" if pd.isna(r[c]) else figures(r[c] * k)
                                                          for c, _, _, k in stats]

    points = rows[axes + ["seed"]].drop_duplicates() if axes else rows[["seed"]].drop_duplicates()
    worst = rows.sort_values("goodput_kbps", kind="stable").head(FLOWS_SHOWN)
    return FlowStats(len(rows), len(points), quantiles, ["point", "seed", "flow"] + [h for _, _, h, _ in stats],
                     [row(r) for r in rows.head(FLOWS_SHOWN).to_dict("records")],
                     [row(r) for r in worst.to_dict("records")])


@dataclass(frozen=True)
class OwnSweep:
    """A sweep of the store that is no full-size catalogue figure: the user's own, or a quick demo (which
    carries no verdict). Its points by status, its axes with their values, and the PNG figures `pacesim
    plot` drew of it (`<store>/plots/<name>-*.png`)."""

    name: str
    points: int
    ok: int
    failed: int
    pending: int
    engine_s: float
    updated: str
    axes: List[Tuple[str, str]]  # (axis, its values written out)
    seeds: str
    plots: List[Path]
    flows: Optional[FlowStats] = None


@dataclass(frozen=True)
class Record:
    """The whole catalogue as one store holds it, and the store's other sweeps."""

    results: Path
    entries: List[Entry]
    engine_version: str  # of the package that built the record (each run names its own in `Run`)
    built_at: str
    ns2_shipped: bool  # whether this installation holds the ns-2 rows (`reproduce.ns2.POINTS`)
    sweeps: List[OwnSweep] = field(default_factory=list)

    def of(self, paper: str) -> List[Entry]:
        return [e for e in self.entries if e.paper == paper]

    @staticmethod
    def tally_of(entries: List[Entry]) -> Dict[str, int]:
        """Claims per verdict over `entries`."""
        return {v: sum(e.tally()[v] for e in entries) for v in VERDICTS}


def _run(store: Store, results: Path, figure: str) -> Run:
    points = store.points(figure)
    status = points["status"].value_counts()
    done = points["finished_at"].dropna().sort_values()
    made = results / "reproduce" / figure
    files = [made / f"{figure}{ext}" for ext in FIGURE_FILES if (made / f"{figure}{ext}").is_file()]
    csv = made / f"{figure}.csv"
    who = store.provenance(figure)
    return Run(figure, len(points), int(status.get("ok", 0)), int(status.get("failed", 0)),
               int(status.get("pending", 0)), sorted(int(s) for s in points["seed"].unique()),
               float(points["wall_s"].fillna(0).sum()), who["engine_version"], who["code_version"], who["host"],
               (done.iloc[0], done.iloc[-1]) if len(done) else ("", ""), files,
               len(pd.read_csv(csv)) if csv.is_file() else None, length_s(FIGURES[figure].sweep(False)),
               ns2_tables(figure, points), int(points.loc[points["status"] == "ok", "flows"].fillna(0).sum())
               if "flows" in points else 0)


def _value(v: float) -> str:
    return "-" if pd.isna(v) else f"{v:.4g}"


def ns2_tables(figure: str, points: pd.DataFrame) -> List[Ns2Table]:
    """The ns-2 rows of `figure`'s full-size run (`ns2.beside`), one table per panel and metric, with
    pacesim's mean over the seeds of `points` at each row's point."""
    fig, out = FIGURES[figure], []
    for b in ns2.beside(fig, quick=False):
        panel = fig.panels[b.panel]
        ours = ns2.pacesim_means(points, panel, b).set_index("x")
        curve = ", ".join(f"{k} = {v}" for k, v in b.series.items())
        title = f"{panel.title or fig.id}: {metric_label(b.metric)}" + (f", beside {curve}" if curve else "")
        rows = [(f"{r.x:g}", int(r.seed), f"{r.duration_s:g} s from {r.warmup_s:g} s", _value(r.value),
                 _value(ours.at[r.x, "pacesim"]) + (f" (n={ours.at[r.x, 'n']})" if ours.at[r.x, "n"] else ""))
                for r in b.rows.itertuples()]
        name = panel.xlabel or axis_name(panel.x)
        out.append(Ns2Table(title, f"{name} ({b.unit})" if b.unit else name, rows))
    return out


def plots_of(plots: Path, names: Iterable[str]) -> Dict[str, List[Path]]:
    """The PNGs in `plots` that `pacesim plot` drew of each sweep of `names`, sorted. Each is named
    `<sweep>-<metric>-vs-<axis>...` or `<sweep>-<axis>=<value>...-seed<n>...`, so a file goes to the longest
    name it begins with, followed by `-`: `units-2-goodput...png` is sweep `units-2`'s, not `units`'."""
    stems = sorted(((f"{file_name(n)}-", n) for n in names), key=lambda s: -len(s[0]))
    found: Dict[str, List[Path]] = {n: [] for n in names}
    for png in sorted(plots.glob("*.png")):
        owner = next((n for stem, n in stems if png.name.startswith(stem)), None)
        if owner is not None:
            found[owner].append(png)
    return found


def _own(store: Store, name: str, row, plots: List[Path]) -> OwnSweep:
    spec = store.spec(name)
    return OwnSweep(name, int(row.points), int(row.ok), int(row.failed), int(row.pending), float(row.engine_s),
                    str(row.updated_at)[:19], [(a, ", ".join(map(str, v))) for a, v in spec["axes"].items()],
                    ", ".join(map(str, spec.get("seeds", []))), plots,
                    flow_stats(store.rows(name, "flows", written=True), list(spec["axes"])))


def collect(results: Path) -> Record:
    """The record of every catalogue id in the store at `results` (read only), and its other sweeps.

    Raises RecordError when there is no store there, the file there is not one, or
    it holds no sweep at all."""
    if not held(results):
        raise RecordError(f"no results store in {results} (no pacesim.sqlite there)")
    try:
        return _collect(results)
    except StoreError as e:  # not SQLite, damaged, or a table file damaged
        raise RecordError(str(e)) from None
    except sqlite3.DatabaseError as e:  # SQLite, but not a store's tables
        raise RecordError(f"{results / 'pacesim.sqlite'} is not a results store ({e})") from None


def _collect(results: Path) -> Record:
    with Store(results, read_only=True) as store:
        table = store.sweeps()
        sweeps = set(table["sweep"])
        figures = {f.id for cid, _ in CATALOGUE for f in figures_of(cid)[0]}
        if not sweeps:
            raise RecordError(f"{results} holds no sweep: no full-size run of a catalogue figure, nor one of your "
                              "own (`pacesim reproduce ID` or `pacesim sweep FILE` makes one)")
        # a figure's own sweep, whole or not yet; another sweep under a figure's name is one's own (`full_size`)
        ran = {f for f in sweeps & figures if differs(store.spec(f), FIGURES[f], store=store) is None}
        runs = {f: _run(store, results, f) for f in sorted(ran)}
        plots = plots_of(results / "plots", sweeps)
        own = [_own(store, r.sweep, r, plots[r.sweep]) for r in table.itertuples(index=False) if r.sweep not in ran]
    judged = judge_all(results)
    refs = references()
    home = {f.id: cid for cid, _ in CATALOGUE for f in figures_of(cid)[0]}  # figure -> its catalogue id
    entries = []
    for cid, what in CATALOGUE:
        direct, shown = figures_of(cid)
        how, claims = judged[cid]
        entries.append(Entry(cid, what, [(f.id, f.setup) for f in direct], how, claims, [runs[f.id] for f in direct if f.id in runs],
                             refs.get(cid, []), home[shown[0].id] if shown and not direct else None))
    return Record(results, entries, ENGINE_VERSION, datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                  ns2.POINTS.is_file(), own)

