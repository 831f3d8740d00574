"""A reproducible figure: its sweep file, the panels drawn and the claims checked.

What a figure runs lives in `scenarios/<id>.toml`, a sweep file (see
`pacesim.sweep`) with a `[quick]` version; how it is drawn and which of the
catalogue's "expect" statements it must show live in one module per paper
(`paper_e`, `paper_a`, `paper_q`, `paper_w`). Claims quote
docs/experiments.md and name axis values of the sweep file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

import pandas as pd

from ..panels import ROW_PANELS, Cdf, Lines, Panel
from ..scenario import PACKAGED
from ..sweep import Sweep, load_sweep
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

    def table_names(self) -> Set[str]:
        """Every stored run table the panels draw, the claims read or the derived tables need."""
        wanted = set(self.tables) | {p.table for p in self.panels if isinstance(p, ROW_PANELS)}
        return wanted - set(self.derived)

    def with_derived(self, rows: Dict[str, pd.DataFrame]) -> Dict[str, pd.DataFrame]:
        """`rows` with the derived tables added."""
        return {**rows, **{name: derive(rows) for name, derive in self.derived.items()}}

    def sweep(self, quick: bool, seeds: Optional[Sequence[int]] = None, max_memory: Optional[int] = None) -> Sweep:
        """The sweep to run (`scenarios/<id>.toml`): full size, or its [quick] version; its base scenario refused
        past `max_memory` bytes as `load_sweep` refuses it (a ScenarioError), before any point runs."""
        sweep = load_sweep(scenarios_dir() / f"{self.id}.toml", max_memory)
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
