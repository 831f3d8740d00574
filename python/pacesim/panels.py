"""The vocabulary of pacesim's figures, without drawing them: metrics' and axes' names and units
(`COLUMNS`, `axis_name`, `LOSS`), the papers' figure names (`paper_ref`), row selection (`matches`, `select`),
seed statistics (`summarise`, `ci95`), the panel declarations a figure is made of (`Panel`, `Cdf`, `Lines`,
`Curves`, `Series`), time-series names and windows, and file names. Judging a claim needs only this;
`plot` draws (matplotlib is loaded there only).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd
from scipy.special import stdtrit  # the t quantile scipy.stats.t.ppf gives, without scipy.stats (1.5 s to import)

from . import schema
from .messages import printable
from .metric_names import METRICS
from .units import parse_rate, parse_size, parse_time

COLUMNS = {**METRICS, "wall_s": "Engine wall time (s)"}
"""The text of each column a figure may draw: every stored metric's (`metric_names`) and a run's wall time."""
# Metrics that are fractions lost (packets, or loss events per round trip): percent on a log axis.
LOSS = {"core_loss_rate", "core_udp_loss_rate", "core_ack_loss_rate", "core_rev_ack_loss_rate",
        "retransmit_rate_paced", "retransmit_rate_unpaced", "loss_event_rate_paced", "loss_event_rate_unpaced"}
AXES = {"flows": "Flows", "variant": "Variant"}
"""The names of the axes that are no key of the scenario: a sweep's flows (`sweep.FLOWS`) and a figure's
variants (`variant`); a scenario key's is its `title` in the engine's schema (`axis_name`)."""


def axis_name(key: str) -> str:
    """An axis's name: the scenario key's short name in the engine's schema ("Core link buffer"), the name of
    an axis that is no key (`AXES`), or the key's words."""
    return schema.title(key) or AXES.get(key) or words(key)


SHORT = {"pacing.delay": "d", "pacing.fraction": "fraction", "core.buffer": "buffer", "topology.pacers": "pacers",
         "traffic.udp[0].size": "UDP size"}
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


_BASE = {"KB": 1, "ms": 10**9, "Mb/s": 1}
"""A plain number against an axis of `_UNITS`: its parser's units (bytes, ns, bit/s) per the base unit in which
`Store.points` gives the axis (bytes, seconds, bit/s)."""


def matches(values: pd.Series, wanted: Sequence) -> pd.Series:
    """Which of `values` equal one of `wanted`, comparing numbers as numbers and
    unit strings by value ("5KB" == "5000B"); a plain number wanted of an axis
    written in one kind of unit is in its base unit, as `Store.points` gives it
    (3000 == "3KB": bytes; 0.005 == "5ms": seconds; bit/s)."""
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

    try:  # each distinct value read once: a run table repeats its point's axis values on every row
        seen = {v: norm(v) for v in values.unique()}
    except TypeError:  # an unhashable value (a list)
        seen = None
    have = list(seen.values()) if seen is not None else list(values.map(norm))
    kinds = {v[0] for v in have if isinstance(v, tuple)}
    keep = {norm(w) for w in wanted}
    if len(kinds) == 1 and all(isinstance(v, tuple) for v in have):
        (unit,) = kinds
        keep |= {(unit, round(w * _BASE[unit])) for w in keep if isinstance(w, float)}
    if seen is None:
        return values.map(lambda v: norm(v) in keep)
    return values.map({v: n in keep for v, n in seen.items()}).fillna(False).astype(bool)


def words(name: str) -> str:
    """A column or key name as label text: underscores become spaces."""
    return name.replace("_", " ")


def as_written(text: str) -> str:
    """What a user wrote (a title, an axis's value, a flow's or link's name) as a figure's text that
    matplotlib draws as written: `printable`, each `$` escaped as `\\$`. Unescaped, what lies between two `$`
    was typeset as mathtext ("cost $5 or $6"), and an unknown command there (`$\\foo$`) was a traceback."""
    return printable(text).replace("$", "\\$")


def label(key: str, value) -> str:
    """A legend entry for one value of an axis, drawn as written (`as_written`): "edge", "100 flows", "d=10ms"."""
    if key in ("pacing.scheme", "variant", "tcp.variant", "which"):
        return as_written(str(value))
    if key in ("flows", "topology.tcp_hosts"):
        return as_written(f"{value} flows")
    return as_written(f"{SHORT.get(key, words(key.rsplit('.', 1)[-1]))}={value}")


UNIT_WORDS = {"mbps": "Mb/s", "kbps": "Kb/s", "ms": "ms", "s": "s", "packets": "packets", "cwnd": "packets"}
"""A metric's unit as its name says it, the engine report's convention (report.rs: `aggregate_mbps`,
`fct_s_median`, `delay_p99_ms`; a congestion window is in packets): the first word of the name, split at
`_`, that names one."""


def metric_unit(metric: str) -> str:
    """The unit of a stored metric, from its name (`UNIT_WORDS`): "Mb/s" for aggregate_mbps, "ms" for
    delay_p99_ms; "1" (dimensionless) for a name with none: a fraction (a loss rate, a utilisation, a
    probability), a count (flows, transfers) or a ratio (hurst, burstiness_cov). The figures' labels in
    `COLUMNS` carry the same units (tests/experiments/test_xarray.py checks them); a loss rate is drawn in
    percent."""
    return next((UNIT_WORDS[w] for w in metric.split("_") if w in UNIT_WORDS), "1")


def metric_label(metric: str) -> str:
    """The axis or legend text for a metric, "(%)" added for loss rates."""
    text = COLUMNS.get(metric, words(metric))
    return f"{text} (%)" if metric in LOSS else text


_REF = re.compile(r"^([A-Z])-(fig|tab|s|thm)(\d+)$", re.I)
_ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]


QUICK_RUN = " (quick run: a demo)"
"""What the title of a quick run's figure ends with (a sweep file's [quick] version, `<id>-quick`)."""


BEYOND = "X"
"""The letter of the catalogue's ids beyond the papers (docs/experiments.md, "Beyond the papers")."""


def paper_ref(*ids: str) -> str:
    """Which paper figures catalogue ids stand for: "Paper E, Fig. 3",
    "Paper Q, Table II", "Paper W, scenarios 6 and 7", "Paper Q, Theorem 1";
    an id of another kind by its name ("Paper E, model"); one beyond the
    papers by its id ("Beyond the papers, X-aqm")."""
    kinds, numbers = [], []
    for i in ids:
        m = _REF.match(i)
        kind = m.group(2).lower() if m else words(i.split("-", 1)[-1])
        n = int(m.group(3)) if m else None
        kinds.append(kind)
        numbers.append("" if n is None else _ROMAN[n] if kind == "tab" and n < len(_ROMAN) else str(n))
    names = {"fig": ("Fig.", "Figs."), "tab": ("Table", "Tables"), "s": ("scenario", "scenarios"),
             "thm": ("Theorem", "Theorems")}
    if len(set(kinds)) == 1 and all(numbers):
        one, many = names[kinds[0]]
        what = f"{many if len(ids) > 1 else one} {' and '.join(numbers)}"
    else:
        what = " and ".join(f"{names.get(k, (k,))[0]} {n}".strip() for k, n in zip(kinds, numbers))
    if ids[0][0].upper() == BEYOND:
        return f"Beyond the papers, {' and '.join(ids)}"
    return f"Paper {ids[0][0].upper()}, {what}"


@dataclass(frozen=True)
class Panel:
    """One set of axes: `y` (a metric, or several drawn as one series each)
    against axis `x` of a sweep's points, one series per combination of `by`,
    after keeping only rows whose axes match `where`. Every other axis of the
    sweep must have one value left (`unaveraged`)."""

    x: str
    y: Union[str, List[str]]
    by: List[str] = field(default_factory=list)
    where: dict = field(default_factory=dict)
    title: str = ""
    ylabel: Optional[str] = None
    logy: bool = False
    xlabel: Optional[str] = None  # default: the axis's name (`axis_name`)


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


@dataclass(frozen=True)
class Series:
    """One model curve: a table column and its legend entry; `style` a
    matplotlib line style ("-", "--", ":", "-.")."""

    column: str
    label: str
    style: str = "-"


@dataclass(frozen=True)
class Curves:
    """One set of axes of an analytical model: curves of one of its tables
    against its column `x`; `loss` draws fractions in percent on a log axis."""

    table: str
    x: str
    xlabel: str
    ylabel: str
    series: Tuple[Series, ...]
    title: str = ""
    logy: bool = False
    logx: bool = False
    loss: bool = False
    hlines: Tuple[Tuple[float, str], ...] = ()


ROW_PANELS = (Cdf, Lines, Curves)
"""Panels drawn from tables by name rather than from a sweep's points."""


def ci95(std: pd.Series, n: pd.Series) -> pd.Series:
    """Half-width of the 95 % confidence interval of a mean of n samples with
    sample standard deviation `std`: t_{0.975,n-1} std / sqrt(n); NaN for n < 2."""
    n = n.astype(float)
    half = stdtrit(n.where(n > 1) - 1, 0.975) * std / np.sqrt(n)
    return half.where(n > 1)


def summarise(df: pd.DataFrame, x: str, y: str, by: Sequence[str]) -> pd.DataFrame:
    """Mean, standard deviation, count and 95 % CI half-width (`ci95`) of `y`
    over seeds for each (by..., x), ordered by `by` then `x`: numbers and unit strings ("3KB") ascending by
    value, categories in the order they first appear. Lines join a series' points in this order."""
    ok = df[df["status"] == "ok"] if "status" in df else df
    keys = list(by) + [x]
    s = ok.groupby(keys, sort=False)[y].agg(["mean", "std", "count"]).reset_index()
    s["ci"] = ci95(s["std"], s["count"])
    order = pd.DataFrame({i: _rank(s[k]) for i, k in enumerate(keys)})
    return s.loc[order.sort_values(list(order.columns), kind="stable").index].reset_index(drop=True)


def _rank(values: pd.Series) -> pd.Series:
    """Sort keys of an axis's values: their numbers (`numeric`), or for categories their first appearance."""
    xs, _ = numeric(values)
    if xs is not None:
        return xs
    first = {v: i for i, v in enumerate(dict.fromkeys(values))}
    return values.map(first)


def ascending(values) -> list:
    """An axis's distinct values as a refusal lists them: numbers and unit strings ascending by value (3KB,
    10KB, 20KB), other text alphabetically, never in the sweep file's order."""
    distinct = pd.Series(list(dict.fromkeys(values)), dtype=object)
    xs, _ = numeric(distinct)
    key = xs if xs is not None else distinct.astype(str)
    return list(distinct[key.sort_values(kind="stable").index])


def seeds_note(counts: pd.Series) -> str:
    """Legend text for how many seeds a series averages, `counts` the seeds with a value at each of its points
    (`summarise`' count: a metric over nothing has none): "n=3 seeds, 95% CI", "n=2-3 seeds, 95% CI",
    "n=1 seed, no CI", "n=0-1 seeds, no CI", and "no value, n=0" for a series with none at any point, or no point
    (a panel whose selection the store's points do not hold)."""
    if counts.empty:
        return "no value, n=0"
    lo, hi = int(counts.min()), int(counts.max())
    if hi == 0:
        return "no value, n=0"
    seeds = f"n={lo}-{hi} seeds" if lo != hi else "n=1 seed" if lo == 1 else f"n={lo} seeds"
    return f"{seeds}, {'95% CI' if hi > 1 else 'no CI'}"


def unaveraged(df: pd.DataFrame, axes: Sequence[str], panel: Panel) -> Dict[str, list]:
    """Axes of the sweep that `panel` would average over (neither x nor `by`, yet with several values left
    after `where`, which may keep several of one axis): axis -> its values."""
    df = select(df, panel.where)
    free = [a for a in axes if a != panel.x and a not in panel.by and a in df]
    return {a: ascending(df[a]) for a in free if df[a].nunique() > 1}


def select(df: pd.DataFrame, where: dict) -> pd.DataFrame:
    """The rows of `df` whose value of each key of `where` is the one given (or one of those listed), compared
    by `matches`."""
    for key, wanted in where.items():
        df = df[matches(df[key], wanted if isinstance(wanted, list) else [wanted])]
    return df


TIME_SERIES = {
    "cwnd": "Congestion window (packets)",
    "ssthresh": "Slow-start threshold (packets)",
    "srtt_ms": "Smoothed RTT (ms)",
    "rto_ms": "Retransmission timeout (ms)",
    "queue_bytes": "Queue (bytes)",
    "queue_packets": "Queue (packets)",
    "drops": "Drops (cumulative)",
    "arrivals": "Arrivals (cumulative)",
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
    if name not in TIME_SERIES:
        raise ValueError(f"no series {name!r}; series: {', '.join(TIME_SERIES)} (or {', '.join(SERIES_ALIASES)})")
    return name


def in_window(rows: pd.DataFrame, start: Optional[float], end: Optional[float]) -> pd.DataFrame:
    """The rows of a series table from `start` to `end` seconds (None: its first or last); a level's value at
    `start` (its last change before it, moved to `start`) kept, drops before it left out."""
    start = -np.inf if start is None else start
    end = np.inf if end is None else end
    inside = rows[(rows["time_s"] >= start) & (rows["time_s"] <= end)]
    before = rows[(rows["time_s"] < start) & (rows["series"] != "drops")]
    if not np.isfinite(start) or before.empty:
        return inside
    last = before.groupby(["entity", "series"], observed=True, sort=False).tail(1).assign(time_s=start)
    return pd.concat([last, inside], ignore_index=True)


_HASHED = re.compile(r"-[0-9a-f]{16}$")
"""The end of a name `file_name` changed: `-` and 16 hexadecimal digits of a hash."""


def file_name(text: str, words: Sequence[str] = ()) -> str:
    """`text` as one file name: characters other than letters, digits and `._,=+-` as `_`, no leading dot,
    at most 200 characters, so that it stays in its directory. A name changed so (a `/` made `_`, or cut),
    or one that ends as a changed one does (`_HASHED`), ends in a hash of the whole text: a name kept as
    typed never ends so, so two texts never share a file (`--where variant=a/b` and `--where variant=a_b`
    once wrote one, and a variant named `a_b-` and the first's hash the first's). `words`: the parts of
    `text` a user wrote (an axis's values), which `text` joins with `-` (between its parts) and `,` (between
    the values of one --where item); one holding either makes the name end in a hash too, of `text` and of
    `words` each apart, since `text` alone no longer tells them apart (`--where variant=a-logy` and `--where
    variant=a --logy` wrote one file, and so did the one value `a,b` and the two values `a` and `b`)."""
    name = re.sub(r"[^A-Za-z0-9._,=+-]", "_", text).lstrip(".") or "_"
    joined = any("-" in w or "," in w for w in words)
    if name == text and len(name) <= 200 and not _HASHED.search(name) and not joined:
        return name
    # a plot's text begins with a plain sweep name, never `[` as a list's JSON does
    hashed = json.dumps([text, list(words)]) if joined else text
    return f"{name[:183]}-{hashlib.sha256(hashed.encode()).hexdigest()[:16]}"
