"""ns-2 2.35's points beside pacesim's: which committed ns-2 rows stand beside which figure's curve.

Each `Reference` names a CSV of ns-2 runs under bench/ns2/results/ (written by
bench/ns2/run_ebase.py and run_refs.py, explained in bench/ns2/README.md and
REFERENCES.md), the rows of it that ran the network of one of a figure's
sweeps (`run`: the full-size one or its [quick] version), and which of its
columns is which metric of the figure's panels, on which series (values of the
panel's `by` keys) and which panels (`where`). A reference never mixes
networks: ns-2 rows at a tenth of the flows and rates stand beside the
[quick] run that has that tenth, never beside the full size. The run length
may differ (ns-2's E-base rows are 200 s, the figures' runs 400 s): every
metric compared is a rate or a mean over the measured window, and the
legend and the site's table give ns-2's length whenever it differs.

The rows are shipped inside the package (`POINTS`, long format: one row per
ns-2 run and metric), so that `pacesim reproduce` and `pacesim report` find
them in an installed wheel; `build(results)` makes that file from the
repository's bench/ns2/results/ (`python -m pacesim.reproduce.ns2 bench/ns2/results`
rewrites it; tests/test_ns2_points.py checks it is current).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pandas as pd

from ..panels import Panel, matches, numeric, select

POINTS = Path(__file__).resolve().parent / "ns2_points.csv"
"""The packaged ns-2 rows: figure, run, source, panel metric, series, where, x, value, seed, duration_s, warmup_s."""

LEGEND = "ns-2 2.35"

KB = 1e-3  # bytes -> KB, the unit a `core.buffer` axis is drawn in
UNIT = 1.0


@dataclass(frozen=True)
class Reference:
    """Rows of one ns-2 CSV beside one figure's curves."""

    figure: str  # catalogue figure id
    run: str  # "full" or "quick": the sweep whose network ns-2 ran
    source: str  # CSV under bench/ns2/results/
    rows: Dict[str, object]  # CSV column -> value: the rows kept
    x: str  # CSV column of the panels' x axis
    x_scale: float  # CSV unit -> the axis's drawn unit (bytes -> KB)
    metrics: Dict[str, Tuple[str, float]]  # CSV column -> (the panels' metric, factor to its unit)
    series: Dict[str, str] = field(default_factory=dict)  # the pacesim curve: `by` key -> value
    where: Dict[str, str] = field(default_factory=dict)  # only panels whose `where` holds these


E_METRICS = {"aggregate_mbps": ("aggregate_mbps", UNIT), "goodput_kbps_mean": ("goodput_kbps_mean", UNIT)}
UNPACED = {"pacing.scheme": "none"}
E_FULL = {"flows": 1000, "duration_s": 200}

REFERENCES: List[Reference] = [
    # E-base: 1000 Reno flows, 100 Mb/s core (ebase.tcl); the figures run 400 s, these 200 s.
    Reference("E-fig3", "full", "ebase.csv", E_FULL, "buffer_bytes", KB, E_METRICS, UNPACED),
    Reference("E-fig9", "full", "ebase-red.csv", E_FULL, "buffer_bytes", KB, E_METRICS, UNPACED),
    *[Reference("E-fig7", "full", f"ebase-{name}.csv", E_FULL, "buffer_bytes", KB, E_METRICS, UNPACED,
                {"tcp.variant": variant})
      for variant, name in [("newreno", "newreno"), ("sack", "sack1"), ("fack", "fack")]],
    # E-base with closed-loop users of short transfers (ebase-short): full size, and the tenth the quick run has.
    *[Reference("E-fig6", run, "refs/ebase-short.csv", {"scale": scale}, "buffer_bytes", KB,
                {"transfer_goodput_kbps_mean": ("transfer_goodput_kbps_mean", UNIT),
                 "core_mbps": ("aggregate_mbps", UNIT)}, UNPACED)
      for run, scale in [("full", 1), ("quick", 0.1)]],
    # A-base with Poisson UDP: 200 s at full size, 100 s at the tenth the quick run has.
    *[Reference("A-fig11", run, "refs/abase-poisson.csv", {"scale": scale}, "buffer_bytes", KB,
                {"udp_loss": ("core_udp_loss_rate", UNIT), "tcp_mbps": ("tcp_throughput_mbps", UNIT)},
                {"variant": "UDP + TCP"})
      for run, scale in [("full", 1), ("quick", 0.1)]],
    # A-base two-way TCP: the ACK loss at r0 (core) and r1 (core.rev).
    *[Reference("A-fig23", run, "refs/twoway.csv", {"scale": scale}, "buffer_bytes", KB,
                {"ack_loss": ("core_ack_loss_rate", UNIT), "rev_ack_loss": ("core_rev_ack_loss_rate", UNIT)})
      for run, scale in [("full", 1), ("quick", 0.1)]],
    # Q's dumbbell unpaced, 300 s from 120 s (the quick run's length; the full one runs 1000 s); core 100 Mb/s.
    *[Reference("Q-fig18", run, "refs/qdumbbell.csv", {}, "buffer_packets", UNIT,
                {"core_mbps": ("core_utilisation", 1 / 100)}, {"variant": "no pacing"})
      for run in ("full", "quick")],
]


def build(results: Path) -> pd.DataFrame:
    """The rows of every reference from the ns-2 CSVs under `results` (bench/ns2/results/), long format."""
    frames = []
    for ref in REFERENCES:
        csv = pd.read_csv(results / ref.source)
        for column, wanted in ref.rows.items():
            csv = csv[csv[column] == wanted]
        for column, (metric, factor) in ref.metrics.items():
            frames.append(pd.DataFrame({
                "figure": ref.figure, "run": ref.run, "source": ref.source, "metric": metric,
                "x": csv[ref.x] * ref.x_scale, "value": csv[column] * factor, "seed": csv["seed"],
                "duration_s": csv["duration_s"], "warmup_s": csv["warmup_s"]}))
    return pd.concat(frames, ignore_index=True)


def load() -> Optional[pd.DataFrame]:
    """The packaged rows (`POINTS`), or None when the package holds none."""
    return pd.read_csv(POINTS) if POINTS.is_file() else None


@dataclass(frozen=True)
class Beside:
    """The ns-2 rows drawn on one panel of a figure: on `fig.panels[panel]`, beside `metric`'s `series` curve."""

    panel: int
    metric: str
    series: Dict[str, str]
    unit: str  # of x as drawn: "KB", or "" for counts
    rows: pd.DataFrame  # x (the axis's drawn unit), value (the metric's unit), seed, duration_s, warmup_s, source


def _fits(panel, ref: Reference, metric: str) -> bool:
    if not isinstance(panel, Panel) or metric not in (panel.y if isinstance(panel.y, list) else [panel.y]):
        return False
    if set(ref.series) != set(panel.by):
        return False
    for key, value in ref.where.items():
        held = panel.where.get(key)
        held = held if isinstance(held, list) else [held]
        if held == [None] or not matches(pd.Series(held), [value]).all():
            return False
    return True


def beside(figure, quick: bool, table: Optional[pd.DataFrame] = None) -> List[Beside]:
    """Every panel of `figure` (a `reproduce.figure.Figure`) with ns-2 rows for its full-size run (or its
    [quick] run), from `table` (default: the packaged rows; none when the package holds none)."""
    table = load() if table is None else table
    if table is None:
        return []
    run = "quick" if quick else "full"
    out = []
    for ref in REFERENCES:
        if ref.figure != figure.id or ref.run != run:
            continue
        mine = table[(table["figure"] == ref.figure) & (table["run"] == run) & (table["source"] == ref.source)]
        for metric, _ in ref.metrics.values():
            rows = mine[mine["metric"] == metric].drop(columns=["figure", "run", "metric"]).reset_index(drop=True)
            out += [Beside(i, metric, ref.series, "KB" if ref.x_scale == KB else "", rows) for i, panel in enumerate(figure.panels)
                    if len(rows) and _fits(panel, ref, metric)]
    return out


def legend(b: Beside, duration_s: Optional[float]) -> str:
    """`LEGEND`, the pacesim curve it stands beside, and ns-2's run length when it differs from pacesim's
    (`duration_s`, None if unknown): "ns-2 2.35, none (200 s runs)"."""
    lengths = sorted(set(b.rows["duration_s"]))
    text = ", ".join([LEGEND, *map(str, b.series.values())])
    if duration_s is not None and lengths == [duration_s]:
        return text
    return f"{text} ({', '.join(f'{d:g}' for d in lengths)} s runs)"


def pacesim_means(points: pd.DataFrame, panel, b: Beside) -> pd.DataFrame:
    """pacesim's mean (and seeds) of `b.metric` on `b.series` of `panel` at each x of the ns-2 rows:
    columns x, pacesim, n (0 and NaN where the store has no point there)."""
    ok = select(points[points["status"] == "ok"] if "status" in points else points, panel.where)
    for key, value in b.series.items():
        ok = select(ok, {key: value})
    xs = numeric(ok[panel.x])[0] if len(ok) else pd.Series(dtype=float)
    out = []
    for x in dict.fromkeys(b.rows["x"]):
        at = ok[(xs - x).abs() <= 1e-9 * max(1.0, abs(x))][b.metric] if len(ok) else pd.Series(dtype=float)
        out.append({"x": x, "pacesim": at.mean() if len(at) else float("nan"), "n": len(at)})
    return pd.DataFrame(out)


if __name__ == "__main__":  # python -m pacesim.reproduce.ns2 bench/ns2/results: rewrite the packaged rows
    build(Path(sys.argv[1])).to_csv(POINTS, index=False)
