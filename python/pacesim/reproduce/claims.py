"""Claims: the catalogue's "expect" statements as predicates on a run's points.

Each claim quotes the catalogue (docs/experiments.md) and, beside its
check, the paper's own sentence (`Claim.sentence`); it states the test
applied and returns whether the numbers reproduce it, with those numbers. A
claim whose points are missing (failed runs) is "not evaluated". One rule per
kind of wording, fixed here and used by every paper module, turns the
papers' words into tests, exactly as strict as the words and no stricter:

- "about N" (≈ N, "N Mb/s", a number quoted as what was measured): within
  `ABOUT` = 5 % of N, relative. The papers quote their numbers in prose to
  two digits; 5 % is a little over the rounding of a two-digit number. A
  number printed in a table is also met within its own rounding (half a
  unit of its last printed digit, `printed`) where that is wider: a table's
  "10" packets stands for 9.5 to 10.5.
- "about" on a gain or ratio read from a plot ("30 % more", "nearly doubles",
  "≈2x"): the 5 % rule on the ratio of the two values (1 + the gain), the
  quantity the plot shows, not on the gain: "30 % more" is a ratio of 1.235
  to 1.365, a gain of 23.5 to 36.5 %.
- "over N" / "under N" ("by over 13 %", "more than 20 KB", "just under
  5 KB"): a bound, one-sided and strict: the value is past N, with no
  tolerance (`over`, `under`).
- "nearly N": within 5 % of N on its near side and not past it
  (N (1 - 5 %) <= value <= N, `nearly`).
- "slightly more (less)": the ordering holds and by less than `SLIGHTLY` =
  10 % (paper Q's own "slightly larger delay", Table III, is +6.9 %).
- "an order of magnitude" (on a log plot): a ratio whose base-10 logarithm
  rounds to 1 (10^0.5 = 3.16 to 10^1.5 = 31.6); "orders of magnitude":
  rounds to 2 or more (`decades`).
- orderings ("A beats B", "A above B", "lower"): A exceeds B by more than
  `MARGIN` = 1 % of B; a tie within it is no win, and "same or lower" is
  "not beaten". On a quantity with a ceiling (a utilisation at most 100 %),
  where B is within 1 % of the ceiling no 1 % win is possible: there "A
  beats B" asks only that B does not beat A (`beats` with `ceiling`).
- monotone ("rises with", "falls monotonically", "rises gradually"): no step
  against the direction beats the point before it (the ordering rule), and
  the last point beats the first in the direction (a total change beyond
  the margin) (`monotone`).
- a location read from a plot ("lowest at 11 KB", "saturates at 6 KB",
  "needs 20 KB", "inflection ≈10 KB"): the grid point where the run shows
  it (never an interpolation between grid points) lies within the grid's
  spacing of the paper's location, the spacing being that of the grid
  interval holding the paper's location (toward the measured point when the
  paper's location is a grid point) (`located`).
- "up to N": the largest value over the range the paper names is about N.

Two shapes recur: "dips then rises" (non-monotone: the lowest point is inner
and non-zero and a later point is more than `RISE` = 20 % above it, so that
sampling noise on loss rates cannot fake it) and "non-monotonic" (somewhere
it rises by more than 20 % and somewhere it falls by more than 20 %).
"Linear" is a straight-line fit with R² >= `LINEAR_R2` = 0.95. Rank
correlations are computed on exact ranks (`spearman`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Dict, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ..panels import matches
from ..units import parse_size

ABOUT = 0.05
"""Relative tolerance of "about N": |x - N| <= 5 % of |N|."""
MARGIN = 0.01
"""An ordering "A beats B" holds when A > B + 1 % of |B|."""
SLIGHTLY = 0.10
""""Slightly more": the ordering holds, by less than 10 %."""
MUCH = 0.5
""""Much smaller", "much less", "much smoother": at most half the other (a factor 2 at least)."""
RISE = 0.20
"""A curve "rises" (or "falls") when a later point is more than 20 % above (below) an earlier one."""
LINEAR_R2 = 0.95
"""A curve is "linear" when a least-squares line explains at least 95 % of its variance (R²)."""
RULES = (f'"about N" within {100 * ABOUT:g} % of N (a table\'s number also within its rounding; a gain read from a '
         f'plot by its ratio), "over/under N" strictly past N, "nearly N" within {100 * ABOUT:g} % below N and not '
         f'past it, "A beats B" by more than {100 * MARGIN:g} % of B (at a ceiling: not beaten), "slightly" by less '
         f'than {100 * SLIGHTLY:g} %, "much smaller" at most {MUCH:g} of the other, monotone: no step against beating '
         'and a total change beyond the margin, '
         '"an order of magnitude" a ratio of 10^0.5 to 10^1.5, a location read from a plot within the grid\'s '
         f'spacing, "up to N" a largest value about N, a curve rises or falls by more than {100 * RISE:g} %, '
         'paper A\'s anomaly a region of the grid over which loss so rises with no step falling, its inflection '
         'where the region begins, its severity the rise')
"""The rules in words, for reports and tables."""

ALIASES = {"buffer": "core.buffer", "scheme": "pacing.scheme", "delay": "pacing.delay",
           "fraction": "pacing.fraction", "flows": "flows", "packets": "core.buffer_packets",
           "tcp": "tcp.variant"}


class Missing(LookupError):
    """No successful point where a claim needs one."""


def _select(rows: pd.DataFrame, where: dict) -> pd.DataFrame:
    """The rows at the given axis values (short names allowed, see `ALIASES`); none when an axis is not a
    column (a sweep with no successful point yet has no columns)."""
    for key, value in where.items():
        column = ALIASES.get(key, key)
        if column not in rows:
            return rows.iloc[0:0]
        rows = rows[matches(rows[column], [value])]
    return rows


class Points:
    """The successful points of a sweep, with means over seeds at chosen axis values.

    Axis names may be short (`buffer`, `scheme`, `delay`, `fraction`, `flows`, `tcp` for the TCP variant).
    `throughput_pct` is all traffic leaving the core as a percentage of its rate (utilisation);
    `tcp_throughput_pct` the TCP data alone (`tcp_utilisation`, see `pacesim.metrics.run_metrics`):
    Mb/s at a 100 Mb/s core whatever the scale of the run.
    """

    def __init__(self, df: pd.DataFrame, tables: Optional[Dict[str, pd.DataFrame]] = None):
        ok = df[df["status"] == "ok"].copy()
        if len(ok):
            ok["throughput_pct"] = 100 * ok["core_utilisation"]
            if "tcp_utilisation" in ok:
                ok["tcp_throughput_pct"] = 100 * ok["tcp_utilisation"]
        self.df = ok
        self.tables = tables or {}

    def rows(self, table: str, **where) -> pd.DataFrame:
        """The rows of run table `table` (every point's, with its axes and seed) at the given axis values."""
        if table not in self.tables:
            raise Missing(f"no {table!r} table loaded")
        rows = _select(self.tables[table], where)
        if rows.empty:
            raise Missing(f"no {table!r} rows at {where}")
        return rows

    def seeds(self) -> list:
        """The seeds of the successful points, in order."""
        return sorted(self.df["seed"].unique()) if "seed" in self.df else []

    def of_seed(self, seed) -> "Points":
        """These points and run tables restricted to one seed (a table without a seed column stays whole)."""
        return Points(self.df[self.df["seed"] == seed],
                      {name: t[t["seed"] == seed] if "seed" in t else t for name, t in self.tables.items()})

    def at(self, metric: str, **where) -> float:
        """Mean of `metric` over seeds at the given axis values."""
        rows = _select(self.df, where)
        values = rows[metric].dropna() if metric in rows else pd.Series(dtype=float)
        if values.empty:
            raise Missing(f"no successful point with {metric} at {where}")
        return float(values.mean())


Verdict = Tuple[bool, str]


@dataclass(frozen=True)
class Claim:
    """One expectation: the catalogue's words, the test applied, the test itself, and the paper's sentence
    it reads (quoted exactly, with its section)."""

    expect: str
    test: str
    check: Callable[[Points], Verdict]
    sentence: str = ""

    def evaluate(self, points) -> Tuple[str, str]:
        """("reproduced" | "not reproduced" | "not evaluated", the numbers)."""
        try:
            ok, numbers = self.check(points)
        except Missing as e:
            return "not evaluated", str(e)
        return ("reproduced" if ok else "not reproduced"), numbers

    def per_seed(self, points: Points) -> Dict[int, Tuple[str, str]]:
        """The outcome and the numbers on each seed's points alone: the seed-to-seed spread of the claim's
        margin (its numbers beside the paper's) and of its verdict."""
        return {int(s): self.evaluate(points.of_seed(s)) for s in points.seeds()}

    def by_seed(self, points: Points) -> Dict[int, str]:
        """The outcome on each seed's points alone (the seed-to-seed spread of the claim's verdict)."""
        return {s: outcome for s, (outcome, _) in self.per_seed(points).items()}


# --- the rules ---

def about(value: float, target: float, rel: float = ABOUT, rounding: float = 0.0) -> bool:
    """The paper's "about `target`": within `rel` of it, relative, or within `rounding` (a table's own
    rounding, `printed`) where that is wider."""
    return abs(value - target) <= max(rel * abs(target), rounding)


def printed(text: str) -> Tuple[float, float]:
    """A number as a table prints it: its value and half a unit of its last printed digit ("5.33" ->
    (5.33, 0.005); "10" -> (10.0, 0.5)), the rounding the table's reader cannot see past."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return float(text), 0.5 * 10.0 ** -decimals


def over(value: float, bound: float) -> bool:
    """The paper's "over `bound`" ("by over 13 %", "more than 20 KB"): strictly above it."""
    return value > bound


def under(value: float, bound: float) -> bool:
    """The paper's "under `bound`": strictly below it."""
    return value < bound


def nearly(value: float, target: float) -> bool:
    """The paper's "nearly `target`": about it (within `ABOUT`) on its near side, and not past it."""
    low, high = sorted((target * (1 - ABOUT), target))
    return low <= value <= high


def beats(a: float, b: float, ceiling: Optional[float] = None) -> bool:
    """The ordering "a beats b" (a higher): a above b by more than `MARGIN` of |b|. With a `ceiling` (the
    quantity's largest possible value) and b within `MARGIN` of it, no such win can be shown: then only b must
    not beat a."""
    if ceiling is not None and ceiling - b <= MARGIN * abs(ceiling):
        return not beats(b, a)
    return a > b + MARGIN * abs(b)


def much_smaller(a: float, b: float) -> bool:
    """The paper's "a much smaller than b": at most `MUCH` of it."""
    return a <= MUCH * b


def slightly_beats(a: float, b: float) -> bool:
    """"a slightly above b": a beats b, by less than `SLIGHTLY` of |b|."""
    return beats(a, b) and a < b + SLIGHTLY * abs(b)


def monotone(ys: Sequence[float], rising: bool) -> bool:
    """Monotone by the ordering rule: no step against the direction beats the point before it, and the last
    point beats the first in the direction (a total rise or fall beyond the margin)."""
    pairs = list(zip(ys, ys[1:]))
    if rising:
        return not any(beats(a, b) for a, b in pairs) and beats(ys[-1], ys[0])
    return not any(beats(b, a) for a, b in pairs) and beats(ys[0], ys[-1])


def decades(ratio: float) -> float:
    """How many orders of magnitude a ratio is, as read off a log plot: log10 of it, rounded to the nearest
    whole decade (an infinite ratio, against zero, is infinitely many)."""
    if ratio <= 0:
        return float("-inf")
    return float(round(np.log10(ratio))) if np.isfinite(ratio) else float("inf")


def spacing(grid: Sequence[float], at: float, toward: float) -> float:
    """The grid's spacing at `at`: the width of the grid interval that holds it; at a grid point, the step
    from it toward `toward` (at either end, the one step there is)."""
    g = sorted(grid)
    below, above = [x for x in g if x < at], [x for x in g if x > at]
    if not below or not above:
        return (g[1] - g[0]) if not below else (g[-1] - g[-2])
    if at in g:
        return above[0] - at if toward >= at else at - below[-1]
    return above[0] - below[-1]


def located(grid: Sequence[float], measured: float, at: float) -> bool:
    """A location read from a plot: the grid point where the run shows it (`measured`) lies within the grid's
    spacing (`spacing`) of the paper's location `at`."""
    return abs(measured - at) <= spacing(grid, at, measured) * (1 + 1e-9)


def up_to(values: Sequence[float], target: float) -> bool:
    """The paper's "up to `target`": the largest of `values` is about `target`."""
    return about(max(values), target)


def about_check(value: float, target: float, what: str, rounding: float = 0.0) -> Verdict:
    """`about` with its numbers: "what: value (paper target, about: lo-hi)"."""
    tol = max(ABOUT * abs(target), rounding)
    return about(value, target, rounding=rounding), \
        f"{what}: {value:.4g} (paper {target:g}; about: {target - tol:.4g} to {target + tol:.4g})"


# --- shapes ---

def kb(buffer: str) -> float:
    """A buffer written as the sweeps write it ("11KB"), in KB (1000 B)."""
    return parse_size(buffer) / 1e3


def lowest(xs: Sequence, ys: Sequence[float]) -> int:
    """Index of the smallest y (the first of equals)."""
    return min(range(len(ys)), key=ys.__getitem__)


def lowest_at(xs: Sequence[str], ys: Sequence[float], at: float, position: Callable[[str], float] = kb) -> Verdict:
    """The paper's "lowest at `at`" (a location read from its plot, in the units of `position`): the smallest
    value over the grid `xs` is non-zero and `located` at `at`."""
    low = lowest(xs, ys)
    grid = [position(x) for x in xs]
    ok = located(grid, grid[low], at) and ys[low] > 0
    return ok, f"lowest {ys[low]:.4g} at {xs[low]} (paper: at {at:g}, within the grid's spacing " \
               f"{spacing(grid, at, grid[low]):g})" + ("; zero: no loss measured" if ys[low] == 0 else "")


def dips_then_rises(ys: Sequence[float]) -> bool:
    """Non-monotone: the lowest point is inner and non-zero, and a later point is more than `RISE` above it."""
    low = lowest(range(len(ys)), ys)
    return 0 < low < len(ys) - 1 and ys[low] > 0 and max(ys[low + 1:]) > (1 + RISE) * ys[low]


def anomalous_region(ys: Sequence[float]) -> Optional[Tuple[int, int]]:
    """Paper A's anomaly (Sec I): "a certain continuous region of buffer sizes [...] wherein [...] packet loss
    for real-time traffic *increases* as the buffer size *increases*". Over a grid: a run of consecutive
    points, no step of it falling (by the ordering rule), from a non-zero point to one more than `RISE` above
    it; of such runs, the one rising most, as (first, last) indices (`last` its highest point); None if there
    is none. Its first point is the inflection point (Sec VI: "the point at which UDP packet loss begins to
    increase"), its rise ys[last] / ys[first] the anomaly's severity; one reading for every claim of the
    anomaly, its inflection or its severity."""
    best, rise = None, 1 + RISE
    for i, a in enumerate(ys):
        if a <= 0:
            continue
        j = i
        while j + 1 < len(ys) and not beats(ys[j], ys[j + 1]):
            j += 1
            if ys[j] > rise * a:
                best, rise = (i, j), ys[j] / a
    return best


def severity(ys: Sequence[float]) -> float:
    """The anomaly's severity (`anomalous_region`): its rise, a ratio; 1 where the curve has no anomaly."""
    region = anomalous_region(ys)
    return ys[region[1]] / ys[region[0]] if region else 1.0


def inflection_at(xs: Sequence[str], ys: Sequence[float], at: float,
                  position: Callable[[str], float] = kb) -> Verdict:
    """The paper's "the inflection point [...] at `at`" (read from its plot, in the units of `position`): the
    curve has an anomaly (`anomalous_region`) and the point where it begins is `located` at `at`."""
    region = anomalous_region(ys)
    grid = [position(x) for x in xs]
    if region is None:
        return False, f"no inflection: no region rising by more than {100 * RISE:g} % (paper: at {at:g})"
    first, last = region
    return located(grid, grid[first], at), (
        f"inflection at {xs[first]} ({ys[first]:.4g}, rising to {ys[last]:.4g} at {xs[last]}, "
        f"x{ys[last] / ys[first]:.2f}; paper: at {at:g}, within the grid's spacing {spacing(grid, at, grid[first]):g})")


def non_monotonic(ys: Sequence[float]) -> bool:
    """The words "non-monotonic": somewhere the curve rises (a later point more than `RISE` above an
    earlier one) and somewhere it falls (a later point more than `RISE` below an earlier one)."""
    pairs = [(a, b) for i, a in enumerate(ys) for b in ys[i + 1:]]
    return any(b > (1 + RISE) * a for a, b in pairs) and any(a > (1 + RISE) * b for a, b in pairs)


def ranks(values: Sequence[float]) -> list:
    """Ranks from 1, exact (`Fraction`s); equal values share their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [Fraction(0)] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in order[i:j + 1]:
            out[k] = Fraction(i + j + 2, 2)
        i = j + 1
    return out


def spearman(xs, ys) -> float:
    """Rank correlation of two sequences (ties get their mean rank), computed exactly and rounded once: with
    4 points it is a multiple of 0.2, and -0.8 is -0.8, not -0.7999999999999999."""
    rx, ry = ranks(list(xs)), ranks(list(ys))
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx, syy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    if not sxx or not syy:
        return float("nan")
    if sxx == syy:  # no ties in either (or the same ties): the ratio is exact
        return float(sxy / sxx)
    return float(sxy) / math.sqrt(sxx * syy)


def first_reaching(xs: Sequence[float], ys: Sequence[float], level: float) -> Optional[float]:
    """The first grid x (in order) whose y reaches `level` (a location read from the plot, not interpolated
    between grid points); None if none does."""
    return next((x for x, y in zip(xs, ys) if y >= level), None)


def loss_dips_then_rises(buffers: Sequence[str], where: dict, metric: str = "core_udp_loss_rate"):
    """UDP loss at its lowest at an inner buffer, non-zero, and more than `RISE` higher again after it."""
    def check(p: Points) -> Verdict:
        loss = [p.at(metric, buffer=b, **where) for b in buffers]
        low = lowest(buffers, loss)
        return dips_then_rises(loss), f"lowest {100 * loss[low]:.4f} % at {buffers[low]}; then up to " \
            f"{100 * max(loss[low + 1:] or [0]):.4f} %: " + ", ".join(f"{b} {100 * v:.4f}" for b, v in zip(buffers, loss))
    return check


def loss_non_monotonic(buffers: Sequence[str], where: dict, metric: str = "core_udp_loss_rate"):
    """UDP loss over the buffer grid both rises and falls somewhere (`non_monotonic`)."""
    def check(p: Points) -> Verdict:
        loss = [p.at(metric, buffer=b, **where) for b in buffers]
        ok = non_monotonic(loss)
        return ok, f"{'non-monotonic' if ok else 'monotonic within 20 %'}: " + ", ".join(f"{b} {100 * v:.4f}" for b, v in zip(buffers, loss))
    return check


def loss_anomaly(buffers: Sequence[str], where: dict, metric: str = "core_udp_loss_rate"):
    """UDP loss has the anomaly over the buffer grid (`anomalous_region`)."""
    def check(p: Points) -> Verdict:
        loss = [p.at(metric, buffer=b, **where) for b in buffers]
        region = anomalous_region(loss)
        said = (f"rises {100 * loss[region[0]]:.4f} % at {buffers[region[0]]} to {100 * loss[region[1]]:.4f} % at "
                f"{buffers[region[1]]}" if region else f"no region rising by more than {100 * RISE:g} %")
        return region is not None, said + ": " + ", ".join(f"{b} {100 * v:.4f}" for b, v in zip(buffers, loss))
    return check


def loss_lowest_at(buffers: Sequence[str], at_kb: float, where: dict, metric: str = "core_udp_loss_rate"):
    """UDP loss lowest (and non-zero) at a buffer of the grid `buffers` `located` at `at_kb`."""
    def check(p: Points) -> Verdict:
        loss = [p.at(metric, buffer=b, **where) for b in buffers]
        ok, text = lowest_at(buffers, loss, at_kb)
        return ok, text + ": " + ", ".join(f"{b} {100 * v:.4f} %" for b, v in zip(buffers, loss))
    return check


GAIN_WORDS = ("about", "nearly", "over")


def gain_check(low: Callable[[Points], float], high: Callable[[Points], float], gain: float, what: str,
               word: str = "about"):
    """The paper's "`high` `word` `gain` above `low`" (gain 0.5 = 50 % higher). "about" and "nearly" a gain
    read from a plot: the rule on the ratio high / low against 1 + gain; "over": the gain itself strictly
    above `gain` (a bound)."""
    if word not in GAIN_WORDS:
        raise ValueError(f"gain word {word!r} is not one of {', '.join(GAIN_WORDS)}")

    def check(p: Points) -> Verdict:
        a, b = low(p), high(p)
        ratio = b / a if a > 0 else float("inf")
        if word == "over":
            ok, rule = over(ratio - 1, gain), f"over {100 * gain:g} %"
        else:
            ok = about(ratio, 1 + gain) if word == "about" else nearly(ratio, 1 + gain)
            lo = (1 + gain) * (1 - ABOUT)
            hi = (1 + gain) * (1 + ABOUT) if word == "about" else 1 + gain
            rule = f"{word} {100 * gain:g} %: {100 * (lo - 1):.4g} to {100 * (hi - 1):.4g} %"
        return ok, f"{what} gain %: {100 * (ratio - 1):.4g} (paper {rule}) ({b:.4g} / {a:.4g})"
    return check
