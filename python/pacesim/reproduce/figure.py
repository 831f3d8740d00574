"""A reproducible figure: its sweep file, the panels drawn and the claims checked.

What a figure runs lives in `scenarios/<id>.toml`, a sweep file (see
`pacesim.sweep`) with a `[quick]` version; how it is drawn and which of the
catalogue's "expect" statements it must show live in one module per paper
(`paper_e`, `paper_a`, `paper_q`, `paper_w`). Claims quote
docs/experiments.md and name axis values of the sweep file.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

import pandas as pd

from ..panels import ROW_PANELS, Cdf, Lines, Panel
from ..scenario import PACKAGED
from ..sweep import VARIANT, Sweep, load_sweep
from ..units import parse_time
from .claims import Claim, Points, kb  # noqa: F401  (kb: the paper modules' buffers in KB)
from .verdicts import MIN_SEEDS, Judged, claim_ids, judge

THROUGHPUT = "aggregate_mbps"
TCP_THROUGHPUT = "tcp_throughput_mbps"
TCP_PCT = "tcp_throughput_pct"  # TCP data on the core, % of its rate (`claims.Points`)
GOODPUT = "goodput_kbps_mean"
UDP_LOSS = "core_udp_loss_rate"


def scenarios_dir() -> Path:
    """Where the sweep files are: $PACESIM_SCENARIOS, else the package's own
    (`pacesim/scenarios`, the repository's `scenarios/`)."""
    if "PACESIM_SCENARIOS" in os.environ:
        return Path(os.environ["PACESIM_SCENARIOS"])
    return PACKAGED


@dataclass(frozen=True)
class Figure:
    """One reproducible figure: the panels drawn (like the paper's) and the claims checked."""

    id: str
    caption: str
    setup: str
    panels: List[Union[Panel, Cdf, Lines]]
    claims: List[Claim]
    # Other catalogue ids this figure's run shows too (Q-tab3's run is also Q-fig19).
    also: Tuple[str, ...] = ()
    # Run tables the claims read (those the panels draw are loaded anyway).
    tables: Tuple[str, ...] = ()
    # Tables computed from the run tables, by name, for panels and claims.
    derived: Dict[str, Callable[[Dict[str, pd.DataFrame]], pd.DataFrame]] = field(default_factory=dict)
    # Seeds a verdict needs (`verdicts.settle`): the runs the paper averaged where it says, else `MIN_SEEDS`.
    seeds: int = MIN_SEEDS
    # Variants that each stand for values of several axes (X-scale's: a scale and a buffer): from the sweep, each
    # variant's name -> {axis: value}. The panels draw and select by those axes, which the points then hold in
    # place of `variant` (`split`).
    parts: Optional[Callable[[Sweep], Dict[str, Dict[str, Any]]]] = None
    # Whether its quick run's `set` ([quick]) wins over its variants' overrides of the same keys. A variant's
    # overrides come after `set`, so a variant setting its own run length (X-scale's, one per scale) would keep it
    # in the quick run, whose one `scale` cannot shrink points 1000x apart in size to seconds each.
    quick_set_wins: bool = False

    def table_names(self) -> Set[str]:
        """Every stored run table the panels draw, the claims read or the derived tables need."""
        wanted = set(self.tables) | {p.table for p in self.panels if isinstance(p, ROW_PANELS)}
        return wanted - set(self.derived)

    def with_derived(self, rows: Dict[str, pd.DataFrame]) -> Dict[str, pd.DataFrame]:
        """`rows` with the derived tables added."""
        return {**rows, **{name: derive(rows) for name, derive in self.derived.items()}}

    def split(self, points: pd.DataFrame, sweep: Sweep) -> Tuple[pd.DataFrame, List[str]]:
        """`points` of `sweep` (as written) with each variant's parts as columns, and the axes its panels see:
        `variant` replaced by the parts' axes. Unchanged for a figure without `parts`."""
        axes = list(sweep.axes)
        if self.parts is None or VARIANT not in axes:
            return points, axes
        parts = pd.DataFrame.from_dict(self.parts(sweep), orient="index")
        at = axes.index(VARIANT)
        return points.join(parts, on=VARIANT), axes[:at] + list(parts.columns) + axes[at + 1:]

    def sweep(self, quick: bool, seeds: Optional[Sequence[int]] = None, max_memory: Optional[int] = None) -> Sweep:
        """The sweep to run (`scenarios/<id>.toml`): full size, or its [quick] version (with `quick_set_wins`, its
        variants without the keys [quick] sets); its base scenario refused past `max_memory` bytes as `load_sweep`
        refuses it (a ScenarioError), before any point runs."""
        sweep = load_sweep(scenarios_dir() / f"{self.id}.toml", max_memory)
        if quick and self.quick_set_wins:
            key = lambda override: override.partition("=")[0].strip()  # noqa: E731
            ruled = {key(o) for o in (sweep.quick or {}).get("set", [])}
            sweep = dataclasses.replace(sweep, variants={name: [o for o in overrides if key(o) not in ruled]
                                                         for name, overrides in sweep.variants.items()})
        sweep = sweep.reduced() if quick else sweep
        if seeds:
            sweep.seeds = list(seeds)
        return sweep


def ms(delay: str) -> float:
    return parse_time(delay) / 1e6


def judge_figure(fig: Figure, points: pd.DataFrame, rows: dict, quick: bool) -> List[Judged]:
    """Every claim of `fig` judged on a sweep's points and run tables (derived ones included): on the mean over
    the seeds, settled by each seed's own outcome (`verdicts.settle`)."""
    p = Points(points, rows)
    judged = []
    for cid, c in zip(claim_ids(fig.id, fig.claims), fig.claims):
        each = c.per_seed(p)
        judged.append(judge(cid, c.expect, c.test, *c.evaluate(p), quick=quick, sentence=c.sentence,
                            by_seed={s: o for s, (o, _) in each.items()}, needed=fig.seeds,
                            seed_numbers={s: n for s, (_, n) in each.items()}))
    return judged
