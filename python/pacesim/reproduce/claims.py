"""Claims: the catalogue's "expect" statements as predicates on a run's points.

Each claim quotes the catalogue (../shared/EXPERIMENTS.md), states the test
applied and returns whether the numbers reproduce it, with those numbers. A
claim whose points are missing (failed runs) is "not evaluated". Three rules,
fixed here and used by every paper module, turn the papers' words into tests:

- "about N" (≈ N, "N %" quoted as a gain, "Nx"): within `ABOUT` = 5 % of N,
  relative, on the quantity as the paper quotes it: a rate (≈ 93 Kb/s: 88.35
  to 97.65), a gain ("+13 %": 12.35 to 13.65 %) or a ratio ("≈ 2x": 1.9 to
  2.1). The papers quote these numbers in their prose, to two digits; 5 % is
  a little over the rounding of a two-digit number and no looser, so that a
  reader of the paper would call the match "about".
- orderings ("A beats B", "A above B", "lower"): A exceeds B by more than
  `MARGIN` = 1 % of B; a tie within it is no win. "Same" ("≈ equal") is about
  a ratio of 1.
- "up to N": the largest value over the range the paper names is about N.

Two shapes recur: a location ("lowest at 11 KB": the smallest value over the
grid is at that grid point, and it is non-zero, since a run that measured no
loss cannot locate a minimum) and "dips then rises" (non-monotone: the lowest
point is inner and non-zero and a later point is more than `RISE` = 20 %
above it, so that sampling noise on loss rates cannot fake it). "Linear"
is a straight-line fit with R² >= `LINEAR_R2` = 0.95.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ..plot import matches

ABOUT = 0.05
"""Relative tolerance of "about N": |x - N| <= 5 % of |N|."""
MARGIN = 0.01
"""An ordering "A beats B" holds when A > B + 1 % of |B|."""
RISE = 0.20
"""A curve "rises" (or "falls") when a later point is more than 20 % above (below) an earlier one."""
LINEAR_R2 = 0.95
"""A curve is "linear" when a least-squares line explains at least 95 % of its variance (R²)."""
RULES = (f'"about N" within {100 * ABOUT:g} % of N, "A beats B" by more than {100 * MARGIN:g} % of B, '
         f'"up to N" a largest value about N, a curve rises or falls by more than {100 * RISE:g} %')
"""The three rules in words, for reports and tables."""

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
    """One expectation: the catalogue's words, the test applied, and the test itself."""

    expect: str
    test: str
    check: Callable[[Points], Verdict]

    def evaluate(self, points) -> Tuple[str, str]:
        """("reproduced" | "not reproduced" | "not evaluated", the numbers)."""
        try:
            ok, numbers = self.check(points)
        except Missing as e:
            return "not evaluated", str(e)
        return ("reproduced" if ok else "not reproduced"), numbers


# --- the three rules ---

def about(value: float, target: float, rel: float = ABOUT) -> bool:
    """The paper's "about `target`": within `rel` of it, relative."""
    return abs(value - target) <= rel * abs(target)


def beats(a: float, b: float) -> bool:
    """The ordering "a beats b" (a higher): a above b by more than `MARGIN` of |b|."""
    return a > b + MARGIN * abs(b)


def up_to(values: Sequence[float], target: float) -> bool:
    """The paper's "up to `target`": the largest of `values` is about `target`."""
    return about(max(values), target)


def about_check(value: float, target: float, what: str) -> Verdict:
    """`about` with its numbers: "what: value (paper target, about: lo-hi)"."""
    lo, hi = sorted((target * (1 - ABOUT), target * (1 + ABOUT)))
    return about(value, target), f"{what}: {value:.4g} (paper {target:g}; about: {lo:.4g} to {hi:.4g})"


# --- shapes ---

def lowest(xs: Sequence[str], ys: Sequence[float]) -> int:
    """Index of the smallest y (the first of equals)."""
    return min(range(len(ys)), key=ys.__getitem__)


def lowest_at(xs: Sequence[str], ys: Sequence[float], at: str) -> Verdict:
    """The paper's "lowest at `at`": the smallest value over the grid is at grid point `at`, and non-zero."""
    low = lowest(xs, ys)
    ok = xs[low] == at and ys[low] > 0
    return ok, f"lowest {ys[low]:.4g} at {xs[low]} (paper: at {at})" + ("; zero: no loss measured" if ys[low] == 0 else "")


def dips_then_rises(ys: Sequence[float]) -> bool:
    """Non-monotone: the lowest point is inner and non-zero, and a later point is more than `RISE` above it."""
    low = lowest(range(len(ys)), ys)
    return 0 < low < len(ys) - 1 and ys[low] > 0 and max(ys[low + 1:]) > (1 + RISE) * ys[low]


def non_monotonic(ys: Sequence[float]) -> bool:
    """The words "non-monotonic": somewhere the curve rises (a later point more than `RISE` above an
    earlier one) and somewhere it falls (a later point more than `RISE` below an earlier one)."""
    pairs = [(a, b) for i, a in enumerate(ys) for b in ys[i + 1:]]
    return any(b > (1 + RISE) * a for a, b in pairs) and any(a > (1 + RISE) * b for a, b in pairs)


def spearman(xs, ys) -> float:
    """Rank correlation of two sequences (ties get their mean rank)."""
    rx = pd.Series(list(xs)).rank().to_numpy()
    ry = pd.Series(list(ys)).rank().to_numpy()
    return float(np.corrcoef(rx, ry)[0, 1])


def first_reaching(xs, ys, level: float):
    """The first x (in order) whose y reaches `level`, and the linearly interpolated
    crossing; (None, None) if none does."""
    prev = None
    for x, y in zip(xs, ys):
        if y >= level:
            cross = x if prev is None else prev[0] + (level - prev[1]) * (x - prev[0]) / (y - prev[1])
            return x, cross
        prev = (x, y)
    return None, None


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


def loss_lowest_at(buffers: Sequence[str], at: str, where: dict, metric: str = "core_udp_loss_rate"):
    """UDP loss lowest (and non-zero) at buffer `at` of the grid `buffers`."""
    def check(p: Points) -> Verdict:
        loss = [p.at(metric, buffer=b, **where) for b in buffers]
        ok, text = lowest_at(buffers, loss, at)
        return ok, text + ": " + ", ".join(f"{b} {100 * v:.4f} %" for b, v in zip(buffers, loss))
    return check


def gain_about(low: Callable[[Points], float], high: Callable[[Points], float], gain: float, what: str):
    """The paper's "`high` about `gain` above `low`" (gain 0.5 = 50 % higher), by the `about` rule on the gain."""
    def check(p: Points) -> Verdict:
        a, b = low(p), high(p)
        g = b / a - 1 if a > 0 else float("inf")
        ok, text = about_check(100 * g, 100 * gain, f"{what} gain %")
        return ok, f"{text} ({b:.4g} / {a:.4g})"
    return check
