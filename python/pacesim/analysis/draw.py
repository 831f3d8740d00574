"""Drawing an analytical model (`pacesim model ID`): its tables as CSV, its curves as PNG and SVG, simulated
points beside them with how far they lie from the model."""

from __future__ import annotations

from pathlib import Path
from typing import Dict, Optional, Sequence

import numpy as np
import pandas as pd

from .. import outfile, plot
from ..panels import Curves
from .models import Model, load_overlay, model_ref, parse_overrides
from .overlays import Overlay


def _overlay(ax, panel: Curves, table: pd.DataFrame, sim: Overlay, facts: Dict[str, str]) -> int:
    """Draw the simulated points of `panel`'s curves (`plot.draw_points`) and
    add how far they lie from the model to `facts`; how many curves got points."""
    drawn = 0
    for frame in sim.tables:
        for s, pts in plot.draw_points(ax, panel, frame, sim.label, first=drawn == 0):
            facts[f"{panel.title or panel.ylabel}, {s.label}"] = _agreement(panel, table, s.column, pts)
            drawn += 1
    return drawn


def _agreement(panel: Curves, table: pd.DataFrame, column: str, pts: pd.DataFrame) -> str:
    """Simulated against model at the simulated x: ratios on a log axis, differences otherwise."""
    model = np.interp(pts[panel.x], table[panel.x], table[column])
    sim = pts[column].to_numpy(dtype=float)
    where = f"over {len(sim)} points, {panel.x} {pts[panel.x].min():g}-{pts[panel.x].max():g}"
    if panel.logy or panel.loss:
        with np.errstate(divide="ignore", invalid="ignore"):
            r = sim / model
        return f"simulated/model {np.nanmin(r):.3g} to {np.nanmax(r):.3g}, median {np.nanmedian(r):.3g} {where}"
    d = sim - model
    return f"simulated - model {d.min():+.3g} to {d.max():+.3g}, mean {d.mean():+.3g} {where}"


def render(model: Model, out_dir: Path, overrides: Sequence[str] = (), overlay: Optional[Path] = None,
           simulate: bool = False):
    """Build `model` and write its CSV, PNG and SVG into `out_dir`.

    `overlay` is a CSV of simulated points (see `load_overlay`); `simulate`
    runs the model's packet-level check instead (`Model.simulate`) and writes its
    points as `<id>-simulated*.csv`. Points are drawn as markers on the panels
    whose x column and curve columns they have. Nothing is written, `out_dir` not made, until the overlay
    is read and drawn. Returns (written paths, facts, the model's output)."""
    model_id = model.id
    params = parse_overrides(model, overrides)
    out = model.build(params)
    if simulate and model.simulate is None:
        raise ValueError(f"{model_id} has no simulation to run")
    xs = [panel.x for panel in out.panels]
    sim = model.simulate(params) if simulate else load_overlay(model, overlay, params, xs) if overlay else None
    facts = dict(out.facts)
    fig = plot.render(None, out.panels, f"{model_ref(model)}: {model.title}\n(analytical model: {model.source})",
                      out.tables)
    if sim is not None:
        overlaid = sum(_overlay(ax, panel, out.tables[panel.table], sim, facts) for ax, panel in zip(fig.axes, out.panels))
        if overlaid == 0:
            raise ValueError(f"{overlay}: no column matches a plotted curve of {model_id}")
        facts.update(sim.facts)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, table in out.tables.items():
        path = out_dir / (f"{model_id}.csv" if len(out.tables) == 1 else f"{model_id}-{name}.csv")
        with outfile.written(path) as whole:  # no partial CSV left by a full disk
            table.to_csv(whole, index=False)
        written.append(path)
    if simulate:
        for i, table in enumerate(sim.tables):
            path = out_dir / (f"{model_id}-simulated.csv" if len(sim.tables) == 1 else f"{model_id}-simulated-{i + 1}.csv")
            with outfile.written(path) as whole:
                table.to_csv(whole, index=False)
            written.append(path)
    written += plot.save(fig, out_dir / model_id)
    return written, facts, out
