"""Paper Q's Theorem 2 beside a packet-level run (`q-thm2 --simulate`): see `paced_onoff`."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...analysis.overlays import Overlay, Params
from ...fields import ScenarioError
from . import paced_onoff


SIMULATED = {"duration": "sim_seconds", "traffic": "peak_mbps, on_ms, off_ms, sim_packet_bytes",
             "core": "mu_max_mbps", "pacing": "mu_max_mbps, mu_min_mbps, q_max_pkts"}
"""The scenario keys of the simulated run (`paced_onoff.PacedOnOff.scenario`) -> the parameters that set them."""


def q_thm2(p: Params, curves: Sequence[tuple]) -> Overlay:
    """Run the unpaced source and one QLBP run per (Qmax in model packets,
    column) of `curves`, packets of `sim_packet_bytes` (see `paced_onoff`)."""
    base = paced_onoff.PacedOnOff(
        peak_mbps=float(p["peak_mbps"]), on_s=float(p["on_ms"]) / 1e3, off_s=float(p["off_ms"]) / 1e3,
        mu_max_mbps=float(p["mu_max_mbps"]), mu_min_mbps=float(p["mu_min_mbps"]),
        packet_bytes=int(p["sim_packet_bytes"]), seconds=float(p["sim_seconds"]), seed=int(p["sim_seed"]))
    step = float(p["sim_lag_step_ms"]) / 1e3
    lags = np.arange(step, float(p["max_lag_s"]) + step / 2, step)
    shortest = max(lags[-1], 2 * float(p["bin_ms"]) / 1e3)  # an auto-covariance at every lag, a CoV of 2 bins
    if base.seconds <= shortest:  # review-hostile33k M3: 1 ms ended in numpy's "zero-size array" naming nothing
        raise ValueError(f"q-thm2: sim_seconds: {base.seconds:g} s measures too little; the simulated comparison "
                         f"needs more than {shortest:g} s (max_lag_s, and two bins of bin_ms)")
    pkt = int(p["packet_bytes"])
    try:
        tables = paced_onoff.simulate(base, [q * pkt for q, _ in curves], [c for _, c in curves], lags,
                                      float(p["bin_ms"]) / 1e3)
    except ScenarioError as e:  # a key of the run's scenario, which the user never wrote: named by the parameters
        given = SIMULATED.get(e.field.split(".")[0] if e.field else "", "the sim_* parameters")  # that set it (M2)
        raise ValueError(f"q-thm2 --simulate: {given}: the simulated run's {e}") from None
    ratio = tables["cov_ratio"].assign(q_max_pkts=lambda t: t["q_max_bytes"] / pkt)
    facts = {
        f"simulated Qmax {q:.4g}": f"α = {r.alpha:.4g}/s: auto-covariance within {r.max_abs_z:.2f} Bartlett SE "
                                   f"(at most {100 * r.max_err_of_var:.1f} % of C_μμ(0)) of eq. 6 at lags {1e3 * step:g}-{1e3 * lags[-1]:g} ms; "
                                   f"mean {r.mean_mbps:.4f} Mb/s"
        for q, r in zip(ratio["q_max_pkts"], ratio.itertuples())
    }
    label = (f"simulated ({base.packet_bytes} B packets, {base.seconds:g} s, seed {base.seed}; "
             f"lags from {1e3 * step:g} ms)")
    return Overlay([tables["autocov"], ratio], label, facts)
