"""Run one catalogue figure and write its CSV, plots and markdown report.

The figure's sweep goes through the results store like any other (named
after the id, `-quick` for the reduced one), so a second `reproduce` reuses
every finished point and an interrupted one resumes. With `settle` a
full-size run adds seeds until every claim's verdict holds over them
(`verdicts.settle`): first the paper's count (else 3), then two at a time
while some claim's seeds split, up to 10; seeds already in the store are
reused.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Sequence

import pandas as pd

from .. import ENGINE_VERSION, memory, outfile
from ..panels import QUICK_RUN, ROW_PANELS, label, matches, paper_ref, summarise
from ..papers import figures
from ..plot import draw_references, render, save
from ..report_tables import axis_numbers
from ..store import Store, code_version
from ..sweep import Sweep, SweepError, SweepRun, run_sweep
from . import ns2
from .claims import RULES
from .figure import Figure, judge_figure
from .full_size import REPRODUCE, ones_own
from .verdicts import MAX_SEEDS, MORE_SEEDS, SOURCE_PATHS, Judged, causes_markdown, counts, seeds_markdown


@dataclass(frozen=True)
class Reproduction:
    """What `reproduce` wrote and found."""

    id: str
    csv: Path
    plots: List[Path]
    report: Path
    claims: List[Judged]
    run: SweepRun


def more_seeds(have: Sequence[int], judged: Sequence[Judged], needed: int) -> List[int]:
    """The seeds to add so that the claims `judged` on seeds `have` settle: up to `needed` first; then, while some
    claim wants more (`verdicts.MORE_SEEDS`: its seeds split), two more, up to `MAX_SEEDS`; none when every claim is
    decided or inconclusive."""
    if not any(j.settled == MORE_SEEDS for j in judged) or len(have) >= MAX_SEEDS:
        return []
    target = needed if len(have) < needed else min(MAX_SEEDS, len(have) + 2)
    return list(range(max(have) + 1, max(have) + 1 + target - len(have)))


def reproduce(fig_id: str, results: Path, out: Path, quick: bool = False, seeds: Optional[Sequence[int]] = None,
              pool: Optional[Executor] = None, progress: bool = True, settle: bool = False,
              on_more: Optional[Callable[[List[int], List[Judged]], None]] = None,
              max_memory: Optional[int] = None) -> Reproduction:
    """Run figure `fig_id` (full size, or reduced with `quick`) into the store at
    `results` and write `<id>.csv`, `<id>.png`, `<id>.svg` and `report.md` to `out`;
    with `settle` (full size only), adding seeds until its verdicts hold (`more_seeds`),
    each time calling `on_more` with the seeds added and the claims judged before.
    `max_memory` is each point's, as `run_sweep` takes it, and the figure's sweep is refused past it before any
    point runs, as `pacesim sweep` refuses it (a ScenarioError naming max_memory)."""
    fig = figures()[fig_id]
    sweep = fig.sweep(quick, seeds, max_memory)
    t0 = time.perf_counter()
    with Store(results) as store:
        why = ones_own(store, fig, quick)
        if why:
            raise SweepError(why, 2)
        run = run_sweep(sweep, store, pool, progress, origin=REPRODUCE, max_memory=max_memory)
        points = store.points(sweep.name, written=True)
        if len(points) and (points["status"] == "failed").all():  # nothing to derive, draw or judge: say why, once
            errors = "; ".join(points["error"].dropna().unique()[:3])  # (a derived table read none: a KeyError)
            raise SweepError(f"{fig.id}: every point failed: {errors}", 1)
        rows = fig.with_derived({t: store.rows(sweep.name, t, written=True) for t in fig.table_names()})
        while settle and not quick and (added := more_seeds(sweep.seeds, judged := judge_figure(fig, points, rows,
                                                                                               quick), fig.seeds)):
            if on_more is not None:
                on_more(added, judged)
            sweep.seeds = list(sweep.seeds) + added
            more = run_sweep(sweep, store, pool, progress, origin=REPRODUCE, max_memory=max_memory)
            run = SweepRun(run.name, more.points, more.points - run.ran - more.ran, run.ran + more.ran,
                           run.failed + more.failed, run.wall_s + more.wall_s)
            points = store.points(sweep.name, written=True)
            rows = fig.with_derived({t: store.rows(sweep.name, t, written=True) for t in fig.table_names()})
    wall = time.perf_counter() - t0
    out.mkdir(parents=True, exist_ok=True)
    csv = out / f"{fig.id}.csv"
    shown, axes = fig.split(points, sweep)  # the axes the panels draw (a variant's parts in its place)
    with outfile.written(csv) as tmp:  # each file whole or as it was (a full disk, a FIFO)
        axis_numbers(shown, axes).to_csv(tmp, index=False)  # each axis a number named with its unit
    plots = draw(fig, shown, rows, out, quick, axes, length_s(sweep))
    claims = judge_figure(fig, points, rows, quick)
    report = out / "report.md"
    with outfile.written(report) as tmp:
        tmp.write_text(_report(fig, quick, sweep, shown, run, wall, claims, csv, plots), encoding="utf-8")
    return Reproduction(fig.id, csv, plots, report, claims, run)


def _first(sweep: Sweep):
    """The scenario of the sweep's first valid point (None when none is)."""
    return next((p.scenario for p in sweep.points() if p.scenario is not None), None)


def length_s(sweep: Sweep) -> Optional[float]:
    """The run length of the sweep's points in seconds (None when no point is valid)."""
    first = _first(sweep)
    return None if first is None else first.duration / 1e9


def draw(fig: Figure, points: pd.DataFrame, rows: dict, out: Path, quick: bool, axes: Sequence[str],
         duration_s: Optional[float] = None) -> List[Path]:
    """Write `fig`'s panels as `<id>.png` and `<id>.svg` to `out`, titled with
    the paper figures it stands for; `axes` are its sweep's (none averaged over).
    Panels with ns-2 rows for this run (`ns2.beside`) get them as crosses, the
    legend naming ns-2's run length when it differs from `duration_s`."""
    title = f"{paper_ref(fig.id, *fig.also)}: {fig.caption}{QUICK_RUN if quick else ''}"
    drawn = render(points, fig.panels, title, rows, axes)
    for b in ns2.beside(fig, quick):
        draw_references(drawn.axes[b.panel], b.rows["x"], b.rows["value"], ns2.legend(b, duration_s))
    return save(drawn, out / fig.id)


def _table(df: pd.DataFrame) -> str:
    """A pandas frame as a markdown table (index included)."""
    df = df.reset_index()
    cells = [[str(c) for c in df.columns]] + [[_cell(v) for v in row] for row in df.itertuples(index=False)]
    lines = ["| " + " | ".join(r) + " |" for r in cells]
    lines.insert(1, "|" + "---|" * len(df.columns))
    return "\n".join(lines)


def _cell(v) -> str:
    if isinstance(v, float):
        return "" if pd.isna(v) else f"{v:.4g}" if abs(v) < 1 else f"{v:.1f}"
    return str(v)


def _numbers(fig: Figure, points: pd.DataFrame) -> List[str]:
    """Markdown: each panel's curves as a table, mean over seeds (± the 95 % CI half-width when several)."""
    parts = []
    for panel in fig.panels:
        if isinstance(panel, ROW_PANELS):
            continue  # drawn from run tables; the figure's claims quote their numbers
        df = points
        for key, wanted in panel.where.items():
            df = df[matches(df[key], wanted if isinstance(wanted, list) else [wanted])]
        for metric in panel.y if isinstance(panel.y, list) else [panel.y]:
            s = summarise(df, panel.x, metric, panel.by)
            if s.empty:
                continue
            s["curve"] = s[panel.by].apply(lambda r: ", ".join(label(k, v) for k, v in r.items()), axis=1) if panel.by else metric
            s["value"] = [f"{m:.4g}" + (f" ± {c:.2g}" if n > 1 else "") for m, c, n in zip(s["mean"], s["ci"], s["count"])]
            wide = s.pivot(index=panel.x, columns="curve", values="value")
            wide = wide.loc[list(dict.fromkeys(s[panel.x])), list(dict.fromkeys(s["curve"]))]
            parts += [f"### {panel.title or fig.id}: `{metric}`", "", _table(wide), ""]
    return parts


def _span(values: list, unit: str = "") -> str:
    """Values as one ("100 flows"), or their range when the points differ ("100-2000 flows"); text
    values joined ("a-base/e-base")."""
    distinct = sorted(set(values))
    if isinstance(distinct[0], str):
        return "/".join(distinct) + unit
    shown = [f"{v:g}" for v in (distinct[0], distinct[-1])]
    return (shown[0] if len(distinct) == 1 else "-".join(shown)) + unit


def _no_numbers(fig: Figure, csv: Path) -> str:
    """Why the report has no table of numbers, in place of one."""
    if all(isinstance(panel, ROW_PANELS) for panel in fig.panels):
        return (f"Every panel of {fig.id} is drawn from the runs' tables (curves, distributions), not from one "
                f"number a point: the claims above quote their numbers, and `{csv.name}` holds every point's metrics.")
    return "No successful point: nothing to average."


def _size(quick: bool, sweep: Sweep) -> str:
    """What the runs were: topology, flows, length over every valid point (a range where the points
    differ); and how the quick one was reduced. Flows counted from the scenario (`memory.tcp_flows`, the
    count the engine builds): describing each point built its network, X-scale's million hosts 30 times."""
    sizes = [p.scenario for p in sweep.points() if p.scenario is not None and p.seed == sweep.seeds[0]]
    if not sizes:
        return "no valid point"
    what = (f"{_span([s.topology.kind for s in sizes])}, {_span([memory.tcp_flows(s) for s in sizes], ' flows')}, "
            f"{_span([s.duration / 1e9 for s in sizes], ' s')} measured after {_span([s.warmup / 1e9 for s in sizes], ' s')}")
    if not quick:
        return f"full size: {what}"
    scaled = f"flows and every link rate x{sweep.scale:g} (each flow keeps its share of the core), " if sweep.scale != 1 else ""
    return f"quick: {scaled}{what}; a demo: its numbers beside the full size's claims, no verdict"


QUICK_RULE = ("A quick run is a demo at a reduced size and carries no verdict, hit or miss: the papers' claims are "
              "about their sizes, where `pacesim reproduce ID` judges them. The claims' numbers at this size:")
"""What a quick run's report says in place of verdicts (the one rule: README, tutorial, `pacesim reproduce`)."""


def _report(fig: Figure, quick: bool, sweep: Sweep, points: pd.DataFrame, run: SweepRun, wall: float,
            claims: list, csv: Path, plots: List[Path]) -> str:
    size, seeds = _size(quick, sweep), sweep.seeds
    ok = int((points["status"] == "ok").sum())
    failed = points[points["status"] == "failed"]
    engine_s = float(points["wall_s"].sum()) if "wall_s" in points else 0.0
    lines = [
        f"# {fig.id}: {fig.caption}", "",
        f"Setup: {fig.setup}. Sweep: `scenarios/{fig.id}.toml`.", "",
        f"Run: {size}; seeds {', '.join(map(str, seeds))}; {len(points):,} points, {ok:,} ok, {len(failed):,} failed. "
        f"This invocation ran {run.ran:,} points and reused {run.skipped:,} from the store in {wall:.1f} s wall; "
        f"engine time of all points {engine_s:.1f} s. Engine {ENGINE_VERSION}, code {code_version()}.", "",
        "## Claims (docs/experiments.md)", "",
        f"Rules (python/pacesim/reproduce/claims.py): {RULES}. Causes of misses: "
        f"python/pacesim/papers/{fig.id[0].lower()}/causes.toml. {SOURCE_PATHS}", "",
        QUICK_RULE if quick else counts(claims) + ".", "",
        "| id | expect | the paper's words | test | numbers |" + ("" if quick else " verdict |"),
        "|---|---|---|---|---|" + ("" if quick else "---|"),
    ]
    lines += [f"| {j.id} | {j.expect} | {j.sentence or '-'} | {j.test} | {j.numbers}"
              + (f" Seeds: {j.seeds}." if j.seeds else "") + (" |" if quick else f" | **{j.verdict}** |") for j in claims]
    lines += causes_markdown(claims, "### Causes of the misses")
    lines += seeds_markdown(claims, "### Seed by seed")
    lines += ["", "## Numbers (mean over seeds ± 95 % confidence interval, Student t)", ""]
    lines += _numbers(fig, points) or [_no_numbers(fig, csv), ""]
    if len(failed):
        lines += ["## Failed points", ""] + [f"- {r['key']}: {r['error']}" for _, r in failed.iterrows()] + [""]
    lines += ["## Files", "", f"- `{csv.name}`: every point (axes, seed, status, metrics, wall time)"]
    if "flows" in points and points["flows"].fillna(0).sum():
        lines += [f"- each point's flows with ns-3 FlowMonitor's statistics, in the store: "
                  f"`Store(RESULTS).rows(\"{sweep.name}\", \"flows\")`"]
    lines += [f"- `{p.name}`" for p in plots]
    return "\n".join(lines) + "\n"
