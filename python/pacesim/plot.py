"""Plots of sweep points: a metric against an axis, one line per value of others;
distributions over the rows of a run table (flows, transfers) as CDFs; and a
run's time series (`[series]`) against time, one line per entity.

Points are averaged over seeds; error bars are one standard deviation across
seeds (none with a single seed). Axis values written with units ("5KB",
"10ms", "8Mbps") are drawn on a numeric axis in KB, ms or Mb/s. Figures are
written as PNG and SVG, through matplotlib's object API (no pyplot state, so
no backend is chosen for the caller).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

import matplotlib
import pandas as pd
import numpy as np
from matplotlib.figure import Figure

from .units import parse_rate, parse_size, parse_time

METRICS = {
    "aggregate_mbps": "Aggregate throughput (Mb/s)",
    "tcp_throughput_mbps": "TCP throughput on the core (Mb/s)",
    "goodput_kbps_mean": "Average per-flow goodput (Kb/s)",
    "core_loss_rate": "Core loss rate",
    "core_empty_prob": "P(core buffer empty)",
    "core_udp_loss_rate": "UDP loss rate at the core",
    "core_ack_loss_rate": "ACKs at r0 (core)",
    "core_rev_ack_loss_rate": "ACKs at r1 (core.rev)",
    "tcp_goodput_mbps": "TCP goodput (Mb/s)",
    "core_utilisation": "Core utilisation",
    "goodput_kbps_paced": "Paced flows",
    "goodput_kbps_unpaced": "Unpaced flows",
    "pacer_delay_ms_mean": "Mean pacer delay (ms)",
    "pacer_delay_ms_max": "Largest pacer delay (ms)",
    "pacer_packets_mean": "Packets held per pacer",
    "delay_mean_ms": "mean",
    "delay_p99_ms": "99th percentile",
    "burstiness_cov": "CoV of bytes per bin",
    "wall_s": "Engine wall time (s)",
    "goodput_kbps_min": "Worst-flow goodput (Kb/s)",
    "retransmit_rate_paced": "Paced flows",
    "retransmit_rate_unpaced": "Unpaced flows",
    "goodput_kbps_max": "Best-flow goodput (Kb/s)",
    "transfer_goodput_kbps_mean": "Mean goodput per short transfer (Kb/s)",
    "fct_s_median": "Median transfer completion time (s)",
    "mean_cwnd_p05": "p5",
    "mean_cwnd_p50": "median",
    "mean_cwnd_p95": "p95",
}
AXES = {
    "core.buffer": "Core link buffer",
    "pacing.delay": "Pacer delay d",
    "pacing.fraction": "Fraction pacing",
    "pacing.scheme": "Pacing",
    "topology.access_rate": "Access link rate",
    "flows": "Flows",
    "variant": "Variant",
    "core.buffer_packets": "Core link buffer (packets)",
}
SHORT = {"pacing.delay": "d", "pacing.fraction": "fraction", "core.buffer": "buffer"}
_UNITS = [(parse_size, 1e3, "KB"), (parse_time, 1e6, "ms"), (parse_rate, 1e6, "Mb/s")]


def numeric(values: pd.Series) -> Tuple[Optional[pd.Series], str]:
    """The values as numbers and their unit ("KB", "ms", "Mb/s", "" for plain
    numbers), or (None, "") when they are categories."""
    if pd.api.types.is_numeric_dtype(values):
        return values.astype(float), ""
    for parse, scale, unit in _UNITS:
        try:
            return values.map(lambda v: parse(v) / scale), unit
        except ValueError:
            continue
    return None, ""


def matches(values: pd.Series, wanted: Sequence) -> pd.Series:
    """Which of `values` equal one of `wanted`, comparing numbers as numbers and
    unit strings by value ("5KB" == "5000B")."""
    def norm(v):
        if isinstance(v, str):
            for parse, _, unit in _UNITS:
                try:
                    return (unit, parse(v))
                except ValueError:
                    continue
            try:
                return float(v)
            except ValueError:
                return v
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v

    keep = {norm(w) for w in wanted}
    return values.map(lambda v: norm(v) in keep)


def label(key: str, value) -> str:
    """A legend entry for one line: "edge", "100 flows", "d=10ms"."""
    if key in ("pacing.scheme", "variant"):
        return str(value)
    if key == "flows":
        return f"{value} flows"
    return f"{SHORT.get(key, key.rsplit('.', 1)[-1])}={value}"


@dataclass(frozen=True)
class Panel:
    """One set of axes: `y` (a metric, or several drawn as one line each) against
    axis `x`, one line per combination of `by` (colour by the first, line style
    by the second), after keeping only rows whose axes match `where`."""

    x: str
    y: Union[str, List[str]]
    by: List[str] = field(default_factory=list)
    where: dict = field(default_factory=dict)
    title: str = ""
    ylabel: Optional[str] = None
    logy: bool = False
    xlabel: Optional[str] = None  # default: the axis's name (`AXES`)


@dataclass(frozen=True)
class Cdf:
    """One set of axes: the empirical CDF of `column` of run table `table`
    (seeds pooled), one line per combination of `by`, after keeping only
    rows whose axes match `where`."""

    table: str
    column: str
    by: List[str]
    xlabel: str
    where: dict = field(default_factory=dict)
    title: str = ""


@dataclass(frozen=True)
class Lines:
    """One set of axes: `y` against `x` of run table `table` (mean over seeds),
    one line per combination of `by`, after keeping only rows whose axes match
    `where` (e.g. beta(s) against the time scale from the `burstiness` table)."""

    table: str
    x: str
    y: str
    by: List[str]
    xlabel: str
    ylabel: str
    where: dict = field(default_factory=dict)
    title: str = ""
    logx: bool = True
    logy: bool = True


ROW_PANELS = (Cdf, Lines)
"""Panels drawn from run tables rather than from a sweep's points."""


STYLES = ["-", "--", ":", "-."]


def _styles(df: pd.DataFrame, by: Sequence[str]) -> Tuple[list, dict, dict]:
    """Colours, and the index of each value of the first `by` key (its colour)
    and of the second (its line style), in the order they appear."""
    colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    first = {v: i for i, v in enumerate(dict.fromkeys(df[by[0]]))} if by else {}
    second = {v: i for i, v in enumerate(dict.fromkeys(df[by[1]]))} if len(by) > 1 else {}
    return colours, first, second


def _where(df: pd.DataFrame, where: dict) -> pd.DataFrame:
    for key, wanted in where.items():
        df = df[matches(df[key], wanted if isinstance(wanted, list) else [wanted])]
    return df


def draw_cdf(ax, rows: pd.DataFrame, panel: Cdf) -> None:
    """Draw `panel` from the table rows `rows` on matplotlib axes `ax`."""
    rows = _where(rows, panel.where)
    for values, g in rows.groupby(panel.by, sort=False):
        values = values if isinstance(values, tuple) else (values,)
        x = np.sort(g[panel.column].dropna().to_numpy(dtype=float))
        ax.step(x, np.arange(1, len(x) + 1) / len(x), where="post",
                label=", ".join(label(k, v) for k, v in zip(panel.by, values)))
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel("CDF")
    _finish(ax, panel.title)


def draw_lines(ax, rows: pd.DataFrame, panel: Lines) -> None:
    """Draw `panel` from the table rows `rows` on matplotlib axes `ax`."""
    rows = _where(rows, panel.where)
    mean = rows.groupby(panel.by + [panel.x], sort=False)[panel.y].mean().reset_index()
    colours, first, second = _styles(mean, panel.by)
    for values, g in mean.groupby(panel.by, sort=False):
        values = values if isinstance(values, tuple) else (values,)
        style = STYLES[second.get(values[1], 0) % len(STYLES)] if len(values) > 1 else "-"
        ax.plot(g[panel.x], g[panel.y], "o" + style, ms=3, color=colours[first.get(values[0], 0) % len(colours)],
                label=", ".join(label(k, v) for k, v in zip(panel.by, values)))
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel(panel.ylabel)
    if panel.logx:
        ax.set_xscale("log")
    if panel.logy:
        ax.set_yscale("log")
    _finish(ax, panel.title)


def _finish(ax, title: str) -> None:
    """Title, grid and a legend if any line is labelled."""
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small")


def summarise(df: pd.DataFrame, x: str, y: str, by: Sequence[str]) -> pd.DataFrame:
    """Mean, standard deviation and count of `y` over seeds for each (by..., x), in
    the order the values first appear."""
    ok = df[df["status"] == "ok"] if "status" in df else df
    keys = list(by) + [x]
    return ok.groupby(keys, sort=False)[y].agg(["mean", "std", "count"]).reset_index()


def draw(ax, df: pd.DataFrame, panel: Panel) -> None:
    """Draw `panel` from the points `df` on matplotlib axes `ax`."""
    df = _where(df, panel.where)
    metrics = panel.y if isinstance(panel.y, list) else [panel.y]
    colours, first, second = _styles(df, panel.by)
    styles = STYLES
    xs_all, unit = numeric(df[panel.x])
    for m_i, metric in enumerate(metrics):
        s = summarise(df, panel.x, metric, panel.by)
        groups = s.groupby(panel.by, sort=False) if panel.by else [((), s)]
        for g_i, (values, g) in enumerate(groups):
            values = values if isinstance(values, tuple) else (values,)
            names = [label(k, v) for k, v in zip(panel.by, values)]
            colour = colours[(first.get(values[0], g_i) if panel.by else m_i) % len(colours)]
            style = styles[second.get(values[1], 0) % len(styles)] if len(values) > 1 else "-"
            if len(metrics) > 1:
                names.insert(0, METRICS.get(metric, metric))
            xs = numeric(g[panel.x])[0] if xs_all is not None else g[panel.x].astype(str)
            err = g["std"].where(g["count"] > 1)
            ax.errorbar(xs, g["mean"], yerr=err, fmt="o" + style, color=colour, ms=4, capsize=3,
                        label=", ".join(names) or None)
    name = panel.xlabel or AXES.get(panel.x, panel.x)
    ax.set_xlabel(f"{name} ({unit})" if unit else name)
    ax.set_ylabel(panel.ylabel or METRICS.get(metrics[0], metrics[0]))
    if panel.logy:
        ax.set_yscale("log")
    _finish(ax, panel.title)


SERIES = {
    "cwnd": "Congestion window (packets)",
    "ssthresh": "Slow-start threshold (packets)",
    "srtt_ms": "Smoothed RTT (ms)",
    "rto_ms": "Retransmission timeout (ms)",
    "queue_bytes": "Queue (bytes)",
    "queue_packets": "Queue (packets)",
    "drops": "Drops (cumulative)",
    "backlog_packets": "Pacer backlog (packets)",
    "rate_mbps": "Pacer rate (Mb/s)",
}
"""The quantities of a series table (`Result.series`) and their axis labels."""

SERIES_ALIASES = {"queue": "queue_bytes", "srtt": "srtt_ms", "rto": "rto_ms", "backlog": "backlog_packets",
                  "rate": "rate_mbps"}
"""Short names `pacesim plot --series` also takes."""


def series_name(name: str) -> str:
    """A series' stored name from its name or alias (`queue` -> `queue_bytes`); ValueError if neither."""
    name = SERIES_ALIASES.get(name, name)
    if name not in SERIES:
        raise ValueError(f"no series {name!r}; series: {', '.join(SERIES)} (or {', '.join(SERIES_ALIASES)})")
    return name


def draw_series(ax, rows: pd.DataFrame, series: str, entities: Optional[Sequence[str]] = None) -> None:
    """Draw quantity `series` of a series table (time_s, entity, series, value) against time on `ax`, one
    step line per entity (those of `entities` that have it, in that order, or every entity that has it); drops
    as their running total."""
    rows = rows[rows["series"] == series]
    present = list(dict.fromkeys(rows["entity"]))
    names = present if entities is None else [e for e in entities if e in present]
    for entity in names:
        g = rows[rows["entity"] == entity]
        values = g["value"].cumsum() if series == "drops" else g["value"]
        ax.step(g["time_s"], values, where="post", label=entity, lw=0.8)
    ax.set_xlabel("Time (s)")
    ax.set_ylabel(SERIES[series])
    _finish(ax, "")


def series_figure(rows: pd.DataFrame, series: Sequence[str], entities: Optional[Sequence[str]],
                  stem: Union[str, Path], title: str = "") -> List[Path]:
    """Draw each quantity of `series` in a panel of its own, one above the other (see `draw_series`), and
    write `stem`.png and `stem`.svg; the paths written."""
    fig = Figure(figsize=(8, 2.8 * len(series)))
    axes = fig.subplots(len(series), 1, squeeze=False, sharex=True)
    for ax, name in zip(axes[:, 0], series):
        draw_series(ax, rows, name, entities)
    return _save(fig, stem, title)


def _save(fig: Figure, stem: Union[str, Path], title: str) -> List[Path]:
    """Title `fig`, lay it out and write it as `stem`.png and `stem`.svg; the paths written."""
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for path in paths:
        fig.savefig(path, dpi=120)
    return paths


def figure(df: pd.DataFrame, panels: Sequence[Union[Panel, Cdf, Lines]], stem: Union[str, Path], title: str = "",
           rows: Optional[Dict[str, pd.DataFrame]] = None) -> List[Path]:
    """Draw `panels` side by side and write `stem`.png and `stem`.svg; the paths
    written. `Cdf` and `Lines` panels draw from `rows`, the run tables by name."""
    fig = Figure(figsize=(5.2 * len(panels), 4.2))
    axes = fig.subplots(1, len(panels), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        if isinstance(panel, Cdf):
            draw_cdf(ax, rows[panel.table], panel)
        elif isinstance(panel, Lines):
            draw_lines(ax, rows[panel.table], panel)
        else:
            draw(ax, df, panel)
    return _save(fig, stem, title)
