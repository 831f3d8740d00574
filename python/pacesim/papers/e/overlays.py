"""Paper E's model beside its simulations: `e-fig10` (paper E Sec. 4, eq. 4, against its Fig. 11
simulations): the points CSV of `pacesim reproduce E-fig11 [--quick]`, mean goodput per flow against d,
divided by its value at d = 0, the smallest buffer as the light load and the largest as the heavy one; the
load the run measured, 1 - P(core empty) at d = 0, is reported beside the model's λ.
"""

from __future__ import annotations

import pandas as pd

from ...analysis.overlays import Overlay, Params, finished, seeds
from ...units import parse_size, parse_time


def e_fig10(points: pd.DataFrame, p: Params) -> Overlay:
    """E-fig11's goodput against d, over its value at d = 0, as `T_light` (smallest
    buffer) and `T_heavy` (largest)."""
    df = finished(points, "E-fig11", ["core.buffer", "pacing.delay", "goodput_kbps_mean", "core_empty_prob"])
    df = df.assign(buffer_kb=[parse_size(b) / 1000 for b in df["core.buffer"]],
                   d_ms=[parse_time(d) / 1e6 for d in df["pacing.delay"]])
    mean = df.groupby(["buffer_kb", "d_ms"])[["goodput_kbps_mean", "core_empty_prob"]].mean().reset_index()
    buffers = sorted(mean["buffer_kb"].unique())
    if len(buffers) < 2:
        raise ValueError("E-fig11 CSV: need a small and a large buffer")
    facts, table = {}, None
    for name, buf in (("light", buffers[0]), ("heavy", buffers[-1])):
        b = mean[mean["buffer_kb"] == buf].set_index("d_ms")
        if 0.0 not in b.index:
            raise ValueError(f"E-fig11 CSV: no d = 0 point at {buf:g} KB to normalise by")
        t = (b["goodput_kbps_mean"] / b.loc[0.0, "goodput_kbps_mean"]).rename(f"T_{name}")
        table = t.to_frame() if table is None else table.join(t, how="outer")
        facts[f"simulated {name} load ({buf:g} KB)"] = (
            f"1 - P(empty) = {1 - b.loc[0.0, 'core_empty_prob']:.3f} at d = 0 (model λ = {float(p[f'{name}_load']):g}); "
            f"goodput {b.loc[0.0, 'goodput_kbps_mean']:.1f} Kb/s at d = 0")
    return Overlay([table.reset_index()], f"simulated (E-fig11, goodput / goodput at d = 0, {seeds(df)})", facts)
