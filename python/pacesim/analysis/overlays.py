"""Simulated points beside the papers' models, where the papers compare them: an `Overlay` (tables whose
columns are named like the model's curves, a legend label and facts), made by a model's `from_points` (from
a reproduction's points CSV) or `simulate` (a packet-level run), in its paper's package
(`pacesim.papers.<x>.overlays`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Sequence

import pandas as pd

Params = Dict[str, object]


@dataclass
class Overlay:
    """Simulated points: tables named like model columns, their legend label, facts."""

    tables: List[pd.DataFrame]
    label: str
    facts: Dict[str, str] = field(default_factory=dict)


def finished(points: pd.DataFrame, figure: str, needed: Sequence[str]) -> pd.DataFrame:
    """The finished points of a points CSV of `pacesim reproduce <figure>`, which must have the columns `needed`;
    an axis in units is read as written, from `<axis>_written` (`report_tables.axis_numbers`: the CSV's number
    is `<axis>_bytes` beside it), or from a bare `<axis>` column (a CSV of an older pacesim)."""
    points = points.rename(columns={f"{c}_written": c for c in needed if c not in points.columns})
    missing = [c for c in needed if c not in points.columns]
    if missing:
        raise ValueError(f"not a points CSV of `pacesim reproduce {figure}`: no column {', '.join(missing)}")
    ok = points[points["status"] == "ok"] if "status" in points.columns else points
    if ok.empty:
        raise ValueError(f"no finished point in the {figure} CSV")
    return ok


def seeds(df: pd.DataFrame) -> str:
    """How many seeds the points average, for a legend."""
    n = df["seed"].nunique() if "seed" in df.columns else 1
    return f"mean of {n} seeds" if n > 1 else "one seed"
