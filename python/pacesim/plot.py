"""Drawing every figure pacesim draws (with matplotlib, loaded only here; what a figure is made of is
`panels`): sweep points against an axis (`Panel`), CDFs and
lines of run tables (`Cdf`, `Lines`) and the analytical models' curves
(`Curves`), side by side under a title that names the paper's figure; a
run's recorded time series (`[series]`) against time, one line per entity
(`series_figure`); and a scenario's network as the engine builds it
(`network_figure`).

Sweep points are the mean over seeds with a 95 % confidence interval,
Student t with n - 1 degrees of freedom (t_{0.975,n-1} s / sqrt(n)); one seed
draws no interval, and the legend gives n (in its title when every series has the same). Axis values written with
units ("5KB", "10ms", "8Mbps") are drawn on a numeric axis in KB, ms or Mb/s
(logarithmic when they span two decades or more); categories (variants,
schemes) as points at evenly spaced ticks, never joined by lines. Each series
has its own colour and marker (or line style, for CDFs); a second dimension
(a second `by` key, or several metrics) keeps the colour and changes marker
and line style. Loss rates (`LOSS`, fractions) are drawn in percent on a
logarithmic axis with ticks "1%", "0.1%"; a zero, which a logarithmic axis
cannot show, as an open triangle on the axis floor. Figures are written as
PNG and SVG through matplotlib's object API (no pyplot state, so no backend
is chosen for the caller).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, Locator, MaxNLocator, NullFormatter

from . import outfile
from .messages import printable
from .panels import (COLUMNS, LOSS, TIME_SERIES, Cdf, Curves, Lines, Panel, Series, as_written, axis_name,
                     label, metric_label, numeric, select, seeds_note, summarise, unaveraged, words)

COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442", "#999999",
           "#882255"]  # Okabe-Ito, then two more: tells series apart for colour-blind readers too
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">"]
STYLES = ["-", "--", ":", "-."]
DPI = 120
"""Pixels per inch of a PNG at screen size (a 5 x 4 inch panel: 600 x 480 pixels)."""

PRINT_DPI = 300
"""Pixels per inch of a PNG at a paper's size, print quality: a one-column figure 3.5 inches wide is 1,050
pixels (at DPI it was 420)."""


@dataclass(frozen=True)
class Size:
    """A figure's size for a paper's page: `width` inches, `row` inches per row of panels, text in `font`
    points, at most `columns` panels side by side."""

    width: float
    row: float
    font: float
    columns: int


SIZES: Dict[str, Optional[Size]] = {
    "screen": None,
    "one-column": Size(3.5, 2.6, 8.0, 1),
    "two-column": Size(7.16, 2.8, 8.0, 3),
}
"""Figure sizes: `screen` (5 x 4 inches a panel, 10-point text, PNG at DPI), and a paper's one column and two
columns (IEEE's 3.5 and 7.16 inches: 8-point text, the size it is printed at, PNG at PRINT_DPI)."""

FORMATS = ("png", "svg")
"""The formats a figure is written in unless asked for others (`save`)."""

VECTOR_TEXT = {"pdf.fonttype": 42, "ps.fonttype": 42}
"""PDF and PostScript embed their fonts whole (TrueType), so that text stays text when a page is scaled or
edited, as publishers ask (matplotlib's default, Type 3, draws glyphs as procedures)."""


LITERAL_TEXT = {"text.usetex": False}
"""pacesim draws what a user wrote as written (`as_written`): a matplotlibrc asking for `text.usetex` (LaTeX,
which reads '$', '_' and '%' as TeX and needs a LaTeX install: without one every figure was a traceback) is
set aside for pacesim's own figures, and only for them."""


def _text(size: Optional[Size]) -> dict:
    """matplotlib settings for the text of a figure of `size` (none: matplotlib's own size), literal."""
    if size is None:
        return dict(LITERAL_TEXT)
    return {**LITERAL_TEXT, "font.size": size.font, "axes.titlesize": size.font, "axes.labelsize": size.font,
            "xtick.labelsize": size.font - 1, "ytick.labelsize": size.font - 1, "legend.fontsize": size.font - 1,
            "legend.title_fontsize": size.font - 1, "figure.titlesize": size.font + 1, "lines.markersize": 4}


def size_of(name: str) -> Optional[Size]:
    """The size named `name` (a key of `SIZES`); a ValueError listing them otherwise."""
    if name not in SIZES:
        raise ValueError(f"no figure size {name!r}; sizes: {', '.join(SIZES)}")
    return SIZES[name]


def dpi_of(name: str) -> int:
    """A PNG's pixels per inch at the size named `name`: a paper's sizes print (PRINT_DPI), the screen's DPI."""
    return DPI if size_of(name) is None else PRINT_DPI


class Styles:
    """Colours, markers and line styles of a figure's series. The first
    dimension of a series (its first `by` key, else its metric) picks the
    colour, the same for a value of a key in every panel; the rest pick marker
    and line style, else the marker follows the colour. Every series of a
    panel gets its own (colour, marker) pair while there are at most ten of each."""

    def __init__(self):
        self.index: Dict[tuple, int] = {}

    def _of(self, name: str, value) -> int:
        return self.index.setdefault((name, value), sum(1 for n, _ in self.index if n == name))

    def __call__(self, names: tuple, key: tuple) -> Tuple[str, str, str]:
        c = self._of(names[0], key[0])
        if len(key) < 2:
            return COLOURS[c % len(COLOURS)], MARKERS[c % len(MARKERS)], "-"
        r = self._of(names[1:], tuple(key[1:]))
        return COLOURS[c % len(COLOURS)], MARKERS[r % len(MARKERS)], STYLES[r % len(STYLES)]


PLAIN = (1e-4, 1e4)
"""The tick values written as plain decimals (0.0001 to 10,000); beyond, as powers of ten."""


def _plain_range(v: float) -> bool:
    return PLAIN[0] * (1 - 1e-9) <= v < PLAIN[1] * (1 + 1e-9)


def _number(v: float) -> str:
    """A tick value as plain decimals in the `PLAIN` range, as a power of ten beyond."""
    if _plain_range(v):
        return f"{v:.3g}" if v < 1000 else f"{v:,.0f}"
    return _power(v)


def _power(v: float) -> str:
    """A tick value as a power of ten (mathtext): 1e-5 -> 10^-5, 2e-5 -> 2x10^-5."""
    e = int(np.floor(np.log10(v) + 1e-9))
    m = v / 10.0 ** e
    return f"$10^{{{e}}}$" if abs(m - 1) < 1e-6 else f"${m:.2g}\\times10^{{{e}}}$"


class _Labels(Formatter):
    """Tick labels written together (`format_ticks`), each read alone the same way; in percent for fractions."""

    def __init__(self, percent: bool):
        self.scale, self.suffix = (100.0, "%") if percent else (1.0, "")

    def __call__(self, v: float, pos=None) -> str:
        return self.format_ticks([v])[0]


class _DecadeLabels(_Labels):
    """A logarithmic axis's labels, all in one form: plain decimals when every tick in view is in the
    `PLAIN` range, else every one a power of ten (review of issue 34: over 1e-7 to 1 the lowest decade read
    "10^-5 %" in mathtext under "0.0001%")."""

    def format_ticks(self, values) -> List[str]:
        shown = [v * self.scale for v in values]
        lo, hi = sorted(self.axis.get_view_interval()) if self.axis is not None else (0.0, np.inf)
        seen = [x for v, x in zip(values, shown) if x > 0 and lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9)]
        form = _number if all(map(_plain_range, seen)) else _power
        return [form(x) + self.suffix if x > 0 else "" for x in shown]


class _EvenTicks(_Labels):
    """Evenly spaced ticks (`MaxNLocator`'s) as plain decimals, all with the fewest decimal places that write
    each exactly, so that ticks a narrow axis puts close together read apart (5.0100 %, 5.0104 %, ... where
    three significant figures wrote "5.01%" six times)."""

    def format_ticks(self, values) -> List[str]:
        shown = [v * self.scale for v in values]
        places = next((d for d in range(11) if all(abs(round(x, d) - x) <= 1e-9 * abs(x) for x in shown)), 10)
        return [f"{x:,.{places}f}{self.suffix}" if x > 0 else "" for x in shown]


class _Decades(Locator):
    """The major ticks of a logarithmic axis: `subs` times every power of ten in view, each decade labelled
    (matplotlib's `LogLocator` labels every other decade on a short axis); with ticks at powers of ten only,
    the part-decade below the first one in view, when the axis shows it, labelled at 2 or else 5 times its
    power (review of issue 34: 0.002-0.01 % was left bare below "0.01%"), unless that label would run into
    the next (a 5 a third of a decade below it, on an axis of many decades)."""

    def __init__(self, subs: Tuple[float, ...]):
        self.subs = subs

    def __call__(self):
        lo, hi = sorted(self.axis.get_view_interval())
        ticks = self.tick_values(lo, hi)
        if self.subs == (1.0,) and len(ticks) > 1 and hi > lo > 0:
            ax = self.axis.axes
            vertical = self.axis is ax.yaxis
            length_px = ax.bbox.height if vertical else ax.bbox.width
            font_px = self.axis.get_major_ticks(1)[0].label1.get_fontsize() * ax.figure.dpi / 72
            needed = font_px * (1.2 if vertical else 4.0)  # a line's height; a label's width ("0.005%")
            if np.log10(ticks[1] / ticks[0]) * length_px / np.log10(hi / lo) < needed:
                ticks = ticks[1:]
        return ticks

    def tick_values(self, vmin: float, vmax: float):
        lo, hi = sorted((vmin, vmax))
        if not lo > 0:
            return []
        decades = 10.0 ** np.arange(np.floor(np.log10(lo)), np.ceil(np.log10(hi)) + 1)
        ticks = list(np.outer(decades, self.subs).ravel())
        if self.subs == (1.0,):
            first = 10.0 ** np.ceil(np.log10(lo) - 1e-9)  # the first power of ten in view
            ticks += [next((m * first / 10 for m in (2.0, 5.0) if m * first / 10 >= lo * (1 - 1e-9)), first)]
        return sorted(t for t in set(ticks) if lo * (1 - 1e-9) <= t <= hi * (1 + 1e-9))


def _log_axis(ax, which: str, percent: bool) -> None:
    """A logarithmic `which` axis ("x" or "y") with plain ticks, in percent for fractions: 1, 2 and 5 per
    decade when it spans less than three decades (y) or two (x, whose tick labels are wider), else 1; an
    axis narrower than a decade (5-14 %), or whose decades would label fewer than three ticks (y; two for x),
    gets evenly spaced ones (6, 8, 10, 12, 14 %), each written exactly (`_EvenTicks`); else every decade is
    labelled (`_Decades`)."""
    axis = ax.yaxis if which == "y" else ax.xaxis
    (ax.set_yscale if which == "y" else ax.set_xscale)("log")
    lo, hi = (ax.get_ylim() if which == "y" else ax.get_xlim())
    if percent and hi > 1 >= (ax.dataLim.y1 if which == "y" else ax.dataLim.x1):
        # a fraction's axis ends at 100 %: the margin above (to 224 % over seven decades) was no value's, and
        # unlabelled (review of issue 34); a point at 100 % is drawn whole on the edge (`draw`: unclipped)
        hi = 1.0
        (ax.set_ylim if which == "y" else ax.set_xlim)(lo, hi)
    decades = 10.0 ** np.arange(np.floor(np.log10(lo)), np.ceil(np.log10(hi)) + 1)
    subs = (1.0, 2.0, 5.0) if hi / lo < (1000 if which == "y" else 100) else (1.0,)
    ticks = np.outer(decades, subs).ravel()
    labelled = np.sum((ticks >= lo * (1 - 1e-9)) & (ticks <= hi * (1 + 1e-9)))
    even = hi / lo < 10 or labelled < (3 if which == "y" else 2)
    axis.set_major_locator(MaxNLocator(nbins=5) if even else _Decades(subs))
    axis.set_major_formatter(_EvenTicks(percent) if even else _DecadeLabels(percent))
    axis.set_minor_formatter(NullFormatter())


def _floor_zeros(ax, zeros: List[Tuple[float, str]]) -> None:
    """Draw the zeros of a logarithmic y axis, which it cannot show, as open
    triangles on its floor, and say so in the legend."""
    if not zeros:
        return
    ax.set_ylim(ax.get_ylim())  # the triangles must not move the floor
    floor = ax.get_ylim()[0]
    for x, colour in zeros:
        ax.plot([x], [floor], "v", mfc="none", color=colour, ms=7, clip_on=False)
    ax.plot([], [], "v", mfc="none", color="grey", linestyle="none", label="zero (axis floor)")


def _finish(ax, title: str, legend_title: Optional[str] = None) -> None:
    """Title, grid and a legend if any line is labelled."""
    if title:
        ax.set_title(title, fontsize="medium")
    ax.grid(True, which="major", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", title=legend_title, title_fontsize="small")


def draw(ax, df: pd.DataFrame, panel: Panel, style: Optional[Styles] = None) -> None:
    """Draw `panel` from the points `df` on matplotlib axes `ax`, in `style` (the figure's)."""
    df = select(df, panel.where)
    metrics = panel.y if isinstance(panel.y, list) else [panel.y]
    loss = all(m in LOSS for m in metrics)
    log = loss or panel.logy
    xs_all, unit = numeric(df[panel.x])
    categories = list(dict.fromkeys(df[panel.x])) if xs_all is None else []
    series = [(m, values, g) for m in metrics
              for values, g in (summarise(df, panel.x, m, panel.by).groupby(panel.by, sort=False)
                                if panel.by else [((), summarise(df, panel.x, m, panel.by))])]
    style, zeros = style or Styles(), []
    notes = [seeds_note(g["count"]) for _, _, g in series]
    shared = notes[0] if len(set(notes)) == 1 and (panel.by or len(metrics) > 1) else None  # once, as legend title
    variable = ", ".join(axis_name(k) for k in panel.by)  # what the series are values of
    legend_title = " ".join(filter(None, [variable, f"({shared})" if variable and shared else shared])) or None
    for i, (metric, values, g) in enumerate(series):
        values = values if isinstance(values, tuple) else (values,)
        names = [label(k, v) for k, v in zip(panel.by, values)]
        # a metric is keyed by its label, so that "Paced flows" keeps its colour from panel to panel
        key = tuple(values) + ((COLUMNS.get(metric, words(metric)),) if len(metrics) > 1 or not panel.by else ())
        dims = tuple(panel.by) + (("metric",) if len(metrics) > 1 or not panel.by else ())
        if len(metrics) > 1:
            names.append(COLUMNS.get(metric, words(metric)))
        colour, marker, line = style(dims, key)
        if categories:  # evenly spaced categories, series side by side around each
            offset = (i - (len(series) - 1) / 2) * min(0.1, 0.6 / len(series))
            xs = g[panel.x].map(categories.index).astype(float) + offset
            line = "none"
        else:
            xs = numeric(g[panel.x])[0]
        y, err = g["mean"], g["ci"]
        if log:
            zeros += [(x, colour) for x, v in zip(xs, y) if v == 0]
            y, err = y.where(y > 0), err.where(y > 0)
        drawn = ax.errorbar(xs, y, yerr=err, fmt=marker, linestyle=line, color=colour, ms=5, capsize=3,
                            label=", ".join(names + ([] if shared else [notes[i]])))
        drawn.lines[0].set_clip_on(not loss)  # a loss of 100 % is on the axis's top edge (`_log_axis`): whole
    name = panel.xlabel or axis_name(panel.x)
    ax.set_xlabel(f"{name} ({unit})" if unit else name)
    ylabel = panel.ylabel or metric_label(metrics[0])
    ax.set_ylabel(f"{ylabel} (%)" if loss and "%" not in ylabel else ylabel)
    if categories:
        crowded = sum(len(str(c)) for c in categories) > 40  # slant the names rather than overlap them
        ax.set_xticks(range(len(categories)), [as_written(str(c)) for c in categories],
                      rotation=30 if crowded else 0, ha="right" if crowded else "center")
        ax.set_xlim(-0.5, len(categories) - 0.5)
    elif xs_all is not None and xs_all.min() > 0 and xs_all.max() / xs_all.min() >= 100:
        _log_axis(ax, "x", percent=False)
    if log:
        _log_axis(ax, "y", percent=loss)
        _floor_zeros(ax, zeros)
    _finish(ax, panel.title, legend_title)


def draw_cdf(ax, rows: pd.DataFrame, panel: Cdf, style: Optional[Styles] = None) -> None:
    """Draw `panel` from the table rows `rows` on matplotlib axes `ax`, in
    `style` (the figure's): a colour and a line style per series (a CDF has
    too many points for markers)."""
    rows = select(rows, panel.where)
    style = style or Styles()
    for values, g in rows.groupby(panel.by, sort=False):
        values = values if isinstance(values, tuple) else (values,)
        colour, marker, _ = style(tuple(panel.by), values)
        x = np.sort(g[panel.column].dropna().to_numpy(dtype=float))
        ax.step(x, np.arange(1, len(x) + 1) / len(x), where="post", color=colour,
                linestyle=STYLES[MARKERS.index(marker) % len(STYLES)],
                label=", ".join(label(k, v) for k, v in zip(panel.by, values)))
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel("CDF")
    _finish(ax, panel.title)


def draw_lines(ax, rows: pd.DataFrame, panel: Lines, style: Optional[Styles] = None) -> None:
    """Draw `panel` from the table rows `rows` on matplotlib axes `ax`, in `style` (the figure's)."""
    rows = select(rows, panel.where)
    mean = rows.groupby(panel.by + [panel.x], sort=False)[panel.y].mean().reset_index()
    groups = mean.groupby(panel.by, sort=False) if panel.by else [((), mean)]
    style = style or Styles()
    for values, g in groups:
        values = values if isinstance(values, tuple) else (values,)
        colour, marker, line = style(tuple(panel.by) or ("",), values or ("",))
        ax.plot(g[panel.x], g[panel.y], marker=marker, linestyle=line, ms=4, color=colour,
                markevery=max(1, len(g) // 12), label=", ".join(label(k, v) for k, v in zip(panel.by, values)) or None)
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel(panel.ylabel)
    if panel.logx:
        _log_axis(ax, "x", percent=False)
    if panel.logy:
        _log_axis(ax, "y", percent=False)
    _finish(ax, panel.title)


def draw_curves(ax, table: pd.DataFrame, panel: Curves) -> None:
    """Draw a model's `panel` from its table on matplotlib axes `ax`: each
    curve its own colour and marker (every few points), in its line style."""
    for i, s in enumerate(panel.series):
        ax.plot(table[panel.x], table[s.column], linestyle=s.style, marker=MARKERS[i % len(MARKERS)], ms=4,
                markevery=max(1, len(table) // 10), color=COLOURS[i % len(COLOURS)], label=s.label)
    for y, text in panel.hlines:
        ax.axhline(y, color="grey", linestyle="-.", linewidth=1, label=text)
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel(panel.ylabel + (" (%)" if panel.loss else ""))
    if panel.logx:
        _log_axis(ax, "x", percent=False)
    if panel.logy or panel.loss:
        _log_axis(ax, "y", percent=panel.loss)
    _finish(ax, panel.title)


def draw_points(ax, panel: Curves, frame: pd.DataFrame, text: str, first: bool = True) -> List[Tuple[Series, pd.DataFrame]]:
    """Draw the columns of `frame` named like `panel`'s curves as open markers
    in their curves' colours against its x column, with one legend entry
    `text` (when `first`); each curve drawn with its points."""
    if panel.x not in frame.columns:
        return []
    colours = {line.get_label(): line.get_color() for line in ax.get_lines()}
    drawn = []
    for s in panel.series:
        if s.column in frame.columns:
            pts = frame[[panel.x, s.column]].dropna()
            ax.plot(pts[panel.x], pts[s.column], "o", mfc="none", color=colours.get(s.label),
                    label=text if first and not drawn else None)
            drawn.append((s, pts))
    if drawn:
        ax.legend(fontsize="small")
    return drawn


def draw_references(ax, x: Sequence[float], y: Sequence[float], text: str) -> int:
    """Draw a second implementation's points (x in the axis's drawn unit, y in the metric's) on axes `ax`
    already drawn, as black crosses under one legend entry `text`. A logarithmic y axis is widened to hold
    every positive point, and a zero sits on its floor, as `_floor_zeros` draws pacesim's (zeros drawn
    before move down with the floor). The number of points drawn (every one of `x`)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    log = ax.get_yscale() == "log"
    if log:
        lo, hi = ax.get_ylim()
        pos = y[y > 0]
        floor = min(lo, pos.min() / 1.5) if len(pos) else lo
        if floor < lo:
            for line in ax.get_lines():  # zeros already on the floor: pacesim's triangles, earlier crosses
                if line.get_marker() in ("v", "x"):
                    line.set_ydata(np.where(np.asarray(line.get_ydata(), dtype=float) == lo, floor, line.get_ydata()))
        ax.set_ylim(floor, max(hi, pos.max() * 1.5) if len(pos) else hi)
        y = np.where(y > 0, y, floor)
    ax.plot(x, y, "x", color="black", ms=7, mew=1.5, linestyle="none", label=text, clip_on=not log, zorder=3)
    _finish(ax, "", ax.get_legend().get_title().get_text() or None if ax.get_legend() else None)
    return len(x)


def draw_series(ax, rows: pd.DataFrame, series: str, entities: Optional[Sequence[str]] = None) -> None:
    """Draw quantity `series` of a series table (time_s, entity, series, value) against time on `ax`, one
    step line per entity (those of `entities` that have it, in that order, or every entity that has it), each
    its own colour and line style; drops and arrivals as their running totals."""
    rows = rows[rows["series"] == series]
    present = list(dict.fromkeys(rows["entity"]))
    names = present if entities is None else [e for e in entities if e in present]
    for i, entity in enumerate(names):
        g = rows[rows["entity"] == entity]
        values = g["value"].cumsum() if series in ("drops", "arrivals") else g["value"]
        ax.step(g["time_s"], values, where="post", label=as_written(str(entity)), lw=0.8,
                color=COLOURS[i % len(COLOURS)], linestyle=STYLES[i % len(STYLES)])
    ax.set_xlabel("Time (s)")
    ax.set_ylabel(TIME_SERIES[series])
    ax.grid(True, which="major", alpha=0.3)
    if names:
        _legend_above(ax, len(names))


def _legend_above(ax, n: int) -> None:
    """`ax`'s legend of `n` entries above the panel, its right end at the panel's, never over a trace (a step
    line spans the whole time axis): in as many columns (at most 5) as the figure's width holds, measured."""
    room = ax.figure.bbox.width - 10 * ax.figure.dpi / 72  # the panel's right end is about this far in
    for cols in range(min(n, 5), 0, -1):
        legend = ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncols=cols, fontsize="small",
                           frameon=False, borderaxespad=0.2)
        if legend.get_window_extent().width <= room:
            return


def series_panels(rows: pd.DataFrame, series: Sequence[str], entities: Optional[Sequence[str]], title: str = "",
                  size: str = "screen") -> Figure:
    """Each quantity of `series` in a panel of its own, one above the other (see `draw_series`), at `size` (a
    key of `SIZES`): the panels share the time axis and each has its own labelled ticks."""
    page = size_of(size)
    with matplotlib.rc_context(_text(page)):
        width, row = (page.width, page.row) if page else (8.0, 2.8)
        fig = Figure(figsize=(width, row * len(series) + (0.4 if title else 0.0)), layout="constrained")
        axes = fig.subplots(len(series), 1, squeeze=False, sharex=True)
        for ax, name in zip(axes[:, 0], series):
            draw_series(ax, rows, name, entities)
            ax.tick_params(axis="x", labelbottom=True)  # a shared axis labels only the bottom panel's
        if title:
            _suptitle(fig, title, width, page)
    return fig


def series_figure(rows: pd.DataFrame, series: Sequence[str], entities: Optional[Sequence[str]],
                  stem: Union[str, Path], title: str = "", size: str = "screen",
                  formats: Sequence[str] = FORMATS) -> List[Path]:
    """`series_panels` saved at `stem` in `formats` (`save`)."""
    return save(series_panels(rows, series, entities, title, size), stem, formats, dpi_of(size))


@matplotlib.rc_context(LITERAL_TEXT)
def network_figure(description: dict, title: str = "") -> Figure:
    """A described network (`topology.describe`): routers as labelled boxes,
    hosts as dots, the core link thick (vermillion), paced halves dashed (blue).
    Hosts that hang off the same router (one link each) are drawn as one dot
    labelled with their count, so E-base's 2000 hosts read as 20 groups."""
    import networkx as nx

    degree: Dict[str, int] = {}
    for link in description["links"]:
        degree[link["from"]] = degree.get(link["from"], 0) + 1
    routers = set(description["routers"])
    group: Dict[str, str] = {}  # host -> the node it is drawn as
    members: Dict[str, int] = {}
    for link in description["links"]:  # each host's half leading away from it
        host, router = link["from"], link["to"]
        if host not in routers and degree.get(host) == 1 and router in routers:
            group[host] = f"{router}:hosts"
            members[group[host]] = members.get(group[host], 0) + 1
    g = nx.Graph()
    for link in description["links"]:
        a, b = group.get(link["from"], link["from"]), group.get(link["to"], link["to"])
        if a != b and not g.has_edge(a, b):
            g.add_edge(a, b, core=link["name"] == description["core"], paced=bool(link["pacer"]))
        elif g.has_edge(a, b):
            g.edges[a, b]["core"] |= link["name"] == description["core"]
            g.edges[a, b]["paced"] |= bool(link["pacer"])
    pos = nx.kamada_kawai_layout(g) if len(g) <= 400 else nx.spring_layout(g, seed=1)
    fig = Figure(figsize=(9, 6), layout="constrained")
    ax = fig.subplots()
    # Grey, blue and vermillion of the palette: plain, paced and core halves.
    for kind, style, width, colour in [("plain", "solid", 1.0, COLOURS[8]), ("paced", "dashed", 1.5, COLOURS[0]),
                                       ("core", "solid", 3.5, COLOURS[1])]:
        edges = [(a, b) for a, b, d in g.edges(data=True)
                 if kind == ("core" if d["core"] else "paced" if d["paced"] else "plain")]
        nx.draw_networkx_edges(g, pos, edgelist=edges, style=style, width=width, edge_color=colour, ax=ax)
    shown_routers = [n for n in g if n in routers]
    nx.draw_networkx_nodes(g, pos, nodelist=shown_routers, node_shape="s", node_color="white", edgecolors="black",
                           node_size=500, ax=ax)
    hosts = [n for n in g if n not in routers]
    nx.draw_networkx_nodes(g, pos, nodelist=hosts, node_color=COLOURS[2],
                           node_size=[40 + 8 * min(members.get(n, 1), 40) for n in hosts], ax=ax)
    labels = {n: as_written(str(n)) for n in shown_routers}  # the scenario's names, as written
    labels.update({n: f"{members[n]} hosts" if n in members else as_written(str(n)) for n in hosts})
    nx.draw_networkx_labels(g, pos, labels, font_size=7, ax=ax)
    ax.set_title(title or f"{len(routers):,} routers, {len(description['hosts']):,} hosts, {description['flows']:,} flows "
                 f"(thick: the core link; dashed: paced)")
    ax.axis("off")
    return fig


def render(df: Optional[pd.DataFrame], panels: Sequence[Union[Panel, Cdf, Lines, Curves]], title: str = "",
           rows: Optional[Dict[str, pd.DataFrame]] = None, axes: Sequence[str] = (), size: str = "screen") -> Figure:
    """`panels` on one figure (one row of up to three, else rows of two or
    three; for a paper's column, one above the other) under `title`, wrapped
    to the figure's width, at `size` (a key of `SIZES`). `Panel`s draw from
    the points `df`, and may leave none of the sweep's `axes` to be averaged
    over (ValueError naming it); `Cdf`, `Lines` and `Curves` from `rows`, the
    tables by name."""
    for panel in panels:
        if isinstance(panel, Panel) and axes and unaveraged(df, axes, panel):
            left = unaveraged(df, axes, panel)
            raise ValueError("; ".join(f"axis {a!r} has values {', '.join(map(str, v))}: plot one line each (by) "
                                       f"or keep one (where), else they are averaged together" for a, v in left.items()))
    page = size_of(size)
    n = len(panels)
    cols = n if n <= 3 else 2 if n == 4 else 3
    cols = min(cols, page.columns) if page else cols
    nrows = -(-n // cols)
    with matplotlib.rc_context(_text(page)):
        width, row = (page.width, page.row) if page else (5.0 * cols, 4.0)
        fig = Figure(figsize=(width, row * nrows + (0.6 if page is None else 0.45 if title else 0.0)),
                     layout="constrained")
        grid = fig.subplots(nrows, cols, squeeze=False)
        style = Styles()
        for ax, panel in zip(grid.flat, panels):
            if isinstance(panel, Cdf):
                draw_cdf(ax, rows[panel.table], panel, style)
            elif isinstance(panel, Lines):
                draw_lines(ax, rows[panel.table], panel, style)
            elif isinstance(panel, Curves):
                draw_curves(ax, rows[panel.table], panel)
            else:
                draw(ax, df, panel, style)
        for ax in list(grid.flat)[n:]:
            ax.set_visible(False)
        if title:
            _suptitle(fig, title, width, page)
    return fig


def _suptitle(fig: Figure, title: str, width: float, page: Optional[Size]) -> None:
    """`title` over the figure, each line wrapped to its `width` inches (about 10 characters an inch at 12
    points), then drawn as written (`as_written`): wrapped after, a word longer than a line could be cut
    between a `$` and the `\\` escaping it, and what followed typeset as mathtext again."""
    chars = int(width * 10 * 12 / (page.font + 1 if page else 12))
    lines = [part for line in title.split("\n") for part in textwrap.wrap(printable(line), chars) or [""]]
    fig.suptitle("\n".join(map(as_written, lines)), fontsize="large")


def check_image_path(path: Union[str, Path]) -> None:
    """A ValueError naming `path` unless its suffix is an image format matplotlib writes here (png, svg, pdf, ...;
    PGF only where its LaTeX, `pgf.texsystem`, is installed: matplotlib writes PGF through it)."""
    import shutil

    from matplotlib.backend_bases import FigureCanvasBase

    formats = dict(FigureCanvasBase.get_supported_filetypes())
    if shutil.which(matplotlib.rcParams["pgf.texsystem"]) is None:
        formats.pop("pgf", None)
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in formats:
        what = f"{'.' + suffix!r} is not an image format matplotlib writes" if suffix else "no suffix to name its format"
        raise ValueError(f"{path}: {what}; formats: {', '.join(sorted(formats))}")


def save(fig: Figure, stem: Union[str, Path], formats: Sequence[str] = FORMATS, dpi: int = DPI) -> List[Path]:
    """Write `fig` as `stem`.png and `stem`.svg, or in `formats` (the stem's own dots kept; PDF with its
    fonts embedded whole, `VECTOR_TEXT`; PNG at `dpi` pixels an inch); the paths written."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.parent / f"{stem.name}.{f}" for f in formats]
    with matplotlib.rc_context({**VECTOR_TEXT, **LITERAL_TEXT}):  # tick labels are made as the figure is drawn
        for path in paths:
            with outfile.written(path) as whole:  # no partial figure left by a full disk
                fig.savefig(whole, dpi=dpi)
    return paths


def figure(df: pd.DataFrame, panels: Sequence[Union[Panel, Cdf, Lines, Curves]], stem: Union[str, Path],
           title: str = "", rows: Optional[Dict[str, pd.DataFrame]] = None, axes: Sequence[str] = (),
           size: str = "screen", formats: Sequence[str] = FORMATS) -> List[Path]:
    """`render` the panels at `size` and `save` them at `stem` in `formats`."""
    return save(render(df, panels, title, rows, axes, size), stem, formats, dpi_of(size))
