"""Paper Q's analytical models (Sec. III): QLBP's steady-state delay bound (Theorem 1, Q-thm1) and the
auto-covariance of a paced ON-OFF source (Theorem 2, Q-thm2; closed forms in `qlbp`, the packet-level
check in `paced_onoff`), with the catalogue's claims on their numbers."""

from __future__ import annotations

from typing import List, Tuple

import numpy as np
import pandas as pd

from ...analysis.model_claims import monotone_steps
from ...analysis.models import Output, Params, grid, model
from ...panels import Curves, Series
from ...reproduce.claims import Claim, Verdict
from . import qlbp
from .overlays import q_thm2 as q_thm2_simulated


def _check_q_thm1(o: Output) -> Verdict:
    worst = float(o.tables["delay"]["delay_ms"].max())
    return worst <= 8 + 1e-9, f"largest steady-state delay {worst:.3f} ms; Q_max / mu_max = 8 ms"


def _check_q_thm2(o: Output) -> Verdict:
    r = o.tables["cov_ratio"]["cov_ratio"].to_numpy()
    return monotone_steps(r, False), "CoV ratio for Q_max " + ", ".join(
        f"{q:g}: {v:.3f}" for q, v in zip(o.tables["cov_ratio"]["q_max_pkts"], r))


@model("q-thm1", "QLBP steady-state pacing delay against input rate", "Q Sec. III-A, Theorem 1, App. A",
        mu_max_mbps=10.0, mu_min_mbps=2.0, q_max_pkts=10.0, link_mbps=15.0, packet_bytes=1000, max_rate_mbps=16.0,
        claims=[Claim("pacing delay ≤ Qmax/μmax in steady state", "largest delay at most 8 ms", _check_q_thm1,
                      sentence='Paper Q Sec III-A: "Theorem 1: Given parameters μmax, μmin and Qmax, for an input '
                               'traffic with rate λ, the pacing delay d in steady state depends on λ and is upper '
                               'bounded by a constant Qmax/μmax." and Sec IV-B (the parameters here): "The delay bound '
                               'in this case is 8ms (10pkts * 8000 bits per packet / 10Mbps)."')])
def _q_thm1(p: Params) -> Output:
    pkt_mb = int(p["packet_bytes"]) * 8e-6
    mu_max, mu_min, link = float(p["mu_max_mbps"]), float(p["mu_min_mbps"]), float(p["link_mbps"])
    q_max = float(p["q_max_pkts"]) * pkt_mb
    lam = grid(0.0, float(p["max_rate_mbps"]), 0.05, "max_rate_mbps")
    queue = qlbp.steady_queue(lam, mu_max, mu_min, q_max, link) / pkt_mb
    t = pd.DataFrame({
        "rate_mbps": lam,
        "delay_ms": qlbp.pacing_delay(lam, mu_max, mu_min, q_max, link) * 1000.0,
        "queue_pkts": np.where(np.isfinite(queue), queue, np.nan),  # above C the queue fills to Qlim
    })
    bound = qlbp.delay_bound(mu_max, q_max) * 1000.0
    i = int(np.argmax(t["delay_ms"]))
    facts = {
        "bound Qmax/μmax": f"{bound:.4g} ms",
        "largest delay": f"{t['delay_ms'][i]:.4g} ms at λ = {lam[i]:g} Mb/s",
        "α": f"{qlbp.response_constant(mu_max, mu_min, q_max):.4g} 1/s",
    }
    panels = [
        Curves("delay", "rate_mbps", "input rate λ (Mb/s)", "pacing delay (ms)",
              (Series("delay_ms", "steady-state pacing delay"),), "(a) delay", hlines=((bound, "bound Qmax/μmax"),)),
        Curves("delay", "rate_mbps", "input rate λ (Mb/s)", "pacing queue (packets)",
              (Series("queue_pkts", "steady-state queue"),), "(b) queue"),
    ]
    return Output({"delay": t}, panels, facts)


def _q_thm2_curves(p: Params) -> List[Tuple[float, str]]:
    """Q-thm2's paced curves: (Qmax in packets, column), the α = r1 + r2 one last."""
    r2, r1 = 1000.0 / float(p["on_ms"]), 1000.0 / float(p["off_ms"])
    critical_q = (float(p["mu_max_mbps"]) - float(p["mu_min_mbps"])) / (r1 + r2) / (int(p["packet_bytes"]) * 8e-6)
    return [(q, f"cov_paced_q{q:.4g}") for q in tuple(p["q_max_pkts"]) + (critical_q,)]


@model("q-thm2", "Auto-covariance of a paced Markov ON-OFF source", "Q Sec. III-B, Theorem 2, eq. (6)",
        peak_mbps=2.0, on_ms=100.0, off_ms=200.0, mu_max_mbps=10.0, mu_min_mbps=0.01,
        q_max_pkts=(10.0, 20.0, 40.0, 80.0, 160.0), packet_bytes=1000, bin_ms=50.0, max_lag_s=0.5,
        sim_packet_bytes=25, sim_seconds=1800.0, sim_seed=1, sim_lag_step_ms=20.0,
        claims=[Claim("closed form (paper eq. 6)", "CoV ratio of 50 ms bins falls with Q_max (the simulated "
                      "comparison: `pacesim model q-thm2 --simulate`)", _check_q_thm2,
                      sentence='Paper Q Sec III-B: "Theorem 2: Under Assumption 1, for a QLBP system described by '
                               'Equation (4), the steady-state auto-covariances of the input and output processes are '
                               'given by [...]" and "Remark: Note that [...] for small τ, which means the short-term '
                               'burstiness is reduced [15], [16]." and Sec IV-C: "It is observed that a larger Qmax '
                               'results in a smaller coefficient of variation, which is consistent with the analysis in '
                               'Section III-B."')],
        simulate=lambda p: q_thm2_simulated(p, _q_thm2_curves(p)))
def _q_thm2(p: Params) -> Output:
    """Q-thm2. The `sim_*` parameters are for `--simulate` (see `paced_onoff`)."""
    h = float(p["peak_mbps"])
    r2, r1 = 1000.0 / float(p["on_ms"]), 1000.0 / float(p["off_ms"])
    mu_max, mu_min = float(p["mu_max_mbps"]), float(p["mu_min_mbps"])
    pkt_mb = int(p["packet_bytes"]) * 8e-6

    def alpha(q: float) -> float:
        return qlbp.response_constant(mu_max, mu_min, q * pkt_mb)

    tau = grid(0.0, float(p["max_lag_s"]), 0.002, "max_lag_s")
    cov = pd.DataFrame({"lag_s": tau, "cov_input": qlbp.onoff_autocov(tau, h, r1, r2)})
    series = [Series("cov_input", r"input $C_{\lambda\lambda}(\tau)$")]
    curves = _q_thm2_curves(p)
    critical_q = curves[-1][0]
    for q, col in curves:
        cov[col] = qlbp.paced_autocov(tau, h, r1, r2, alpha(q))
        series.append(Series(col, f"Qmax = {q:.4g} pkts" + (" (α = r1+r2)" if q == critical_q else ""),
                             ":" if q == critical_q else "-"))
    width = float(p["bin_ms"]) / 1000.0
    var_in = qlbp.binned_variance(lambda s: qlbp.onoff_autocov(s, h, r1, r2), width)
    if not var_in > 0:  # ON and OFF periods so short against the bin that its integral underflows
        raise ValueError(f"q-thm2: peak_mbps, on_ms, off_ms, bin_ms: the input's variance over {p['bin_ms']:g} ms bins is 0 to "
                         f"double precision; take longer ON/OFF periods or shorter bins")

    def cov_ratio(q: float) -> float:
        return float(np.sqrt(qlbp.binned_variance(lambda s: qlbp.paced_autocov(s, h, r1, r2, alpha(q)), width) / var_in))

    qs = grid(5.0, 200.0, 5.0)
    ratio = pd.DataFrame({
        "q_max_pkts": qs,
        "cov_ratio": [cov_ratio(q) for q in qs],
        "std_ratio_instant": [np.sqrt(alpha(q) / (alpha(q) + r1 + r2)) for q in qs],
    })
    facts = {
        "input": f"mean {qlbp.onoff_mean(h, r1, r2):.4g} Mb/s, r1 = {r1:g}/s, r2 = {r2:g}/s, "
                 f"variance {h * h * r1 * r2 / (r1 + r2) ** 2:.4g} (Mb/s)²",
        "α = r1 + r2 at": f"Qmax = {critical_q:.4g} packets",
        f"CoV ratio, {p['bin_ms']:g} ms bins": ", ".join(f"Qmax {q:g}: {cov_ratio(q):.3f}" for q in p["q_max_pkts"]),
    }
    panels = [
        Curves("autocov", "lag_s", "lag τ (s)", "auto-covariance ((Mb/s)²)", tuple(series),
              "(a) input and paced auto-covariance, eq. 6"),
        Curves("cov_ratio", "q_max_pkts", "Qmax (packets)", "output / input",
              (Series("cov_ratio", f"CoV ratio, {p['bin_ms']:g} ms bins"),
               Series("std_ratio_instant", "std ratio, instantaneous rate", "--")),
              "(b) burstiness reduction (one pacer)"),
    ]
    return Output({"autocov": cov, "cov_ratio": ratio}, panels, facts)
