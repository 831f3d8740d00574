"""Claims: the catalogue's "expect" statements as predicates on a run's points.

Each claim quotes the catalogue, states the test applied (with its tolerance)
and returns whether the numbers support it together with those numbers. The
tolerances are fixed here, beside the quoted paper number, never fitted to a
run. A claim whose points are missing (failed runs) is "not evaluated".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Sequence, Tuple

import numpy as np
import pandas as pd

from ..plot import matches

APPROX = 0.05
"""Relative tolerance for the paper's "≈ N": within 5 % of N."""

ALIASES = {"buffer": "core.buffer", "scheme": "pacing.scheme", "delay": "pacing.delay",
           "fraction": "pacing.fraction", "flows": "flows", "packets": "core.buffer_packets",
           "tcp": "tcp.variant"}


class Missing(LookupError):
    """No successful point where a claim needs one."""


def _select(rows: pd.DataFrame, where: dict) -> pd.DataFrame:
    """The rows at the given axis values (short names allowed, see `ALIASES`)."""
    for key, value in where.items():
        rows = rows[matches(rows[ALIASES.get(key, key)], [value])]
    return rows


class Points:
    """The successful points of a sweep, with means over seeds at chosen axis values.

    Axis names may be short (`buffer`, `scheme`, `delay`, `fraction`, `flows`, `tcp` for the TCP variant).
    `throughput_pct` is aggregate throughput as a percentage of the core rate:
    Mb/s at paper E's 100 Mb/s core whatever the scale of the run.
    """

    def __init__(self, df: pd.DataFrame, tables: Optional[Dict[str, pd.DataFrame]] = None):
        ok = df[df["status"] == "ok"].copy()
        if len(ok):
            ok["throughput_pct"] = 100 * ok["core_utilisation"]
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

    def evaluate(self, points: Points) -> Tuple[str, str]:
        """("supported" | "not supported" | "not evaluated", the numbers)."""
        try:
            ok, numbers = self.check(points)
        except Missing as e:
            return "not evaluated", str(e)
        return ("supported" if ok else "not supported"), numbers


def near(value: float, target: float, rel: float = APPROX) -> bool:
    return abs(value - target) <= rel * abs(target)


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


def loss_dips_then_rises(buffers: Sequence[str], where: dict):
    """UDP loss at its lowest at an inner buffer and higher again after it."""
    def check(p: Points) -> Verdict:
        loss = [p.at("core_udp_loss_rate", buffer=b, **where) for b in buffers]
        low = min(range(len(loss)), key=loss.__getitem__)
        ok = 0 < low < len(loss) - 1 and max(loss[low + 1:]) > 1.2 * loss[low]
        return ok, f"lowest {100 * loss[low]:.3f} % at {buffers[low]}; then up to {100 * max(loss[low + 1:] or [0]):.3f} %: " + \
            ", ".join(f"{b} {100 * v:.3f}" for b, v in zip(buffers, loss))
    return check
