"""Paper Q, Theorem 2 (Sec. III-B, App. B) against the packet engine.

The theorem is about fluid: a Markov ON-OFF rate λ(t) (peak h, OFF→ON rate
r1, ON→OFF rate r2) through a QLBP pacer whose queue never empties, so that
its output obeys dμ/dt = α(λ - μ), α = (μmax - μmin)/Qmax (Q eq. 3), and
C_μμ(τ) is eq. 6 (`qlbp.paced_autocov`). The packet-level check (after Q
Sec. IV-C, Fig. 13 with one pacer): the engine's ON-OFF UDP source (CBR at h
while ON) sends from `src` through pacer node p1 to `dst` (topology
q-tandem, links 10 Mb/s and 2 ms, the core link p1 -> dst paced by QLBP with
μmax = C as Assumption 1 asks; μmin is paper Q's 10 kb/s, not the
assumption's 0, which the engine refuses: it only lets the fluid queue
empty once its rate has decayed to μmin). The bytes arriving at the core
queue are the pacer's output, counted per bin over the window
(`burstiness.series`).
The empirical auto-covariance of that rate is compared with eq. 6 at the
simulated α (Qmax is a whole number of packets).

**Packets against fluid.** Whole packets depart from the fluid in two ways
that fade as the packet size L falls. The count of packets per bin is
quantised (a variance of order (L/w)² at lag 0 and a negative covariance at
lag one bin), so lags start at 5 bins. And the measured C_μμ lies a little
above eq. 6 at lags of 5-20 ms: by 2.0 and 3.4 % (α = 15 and 31/s; mean of
20 seeds of 1800 s) with 50 B packets, by 0.6 and 1.4 % with 25 B (10
seeds), gone by 100 ms. (Probably the pacer's start rule: after each start
it waits L/μ(q) with q as it was, however many packets arrive meanwhile, so
from a nearly empty queue it answers an OFF→ON switch late, then steeply.)
Hence the default packets of 25 B: not a real packet, the fluid limit is the
point.

**Sampling error.** For n bins of a stationary series with auto-covariance
c_m, Bartlett's formula gives var ĉ_k ≈ (1/n) Σ_m (c_m² + c_(m+k) c_(m-k))
(to first order in 1/n, for a Gaussian process); `bartlett_se` evaluates it
with the model's c_m. Over 10 seeds the spread of ĉ_k in these units was
0.87-0.9 at lags up to 50 ms and 0.84-1.16 at 100-200 ms (each estimate
itself uncertain by about 20 %): a fair scale for a tolerance of 4.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Dict, Optional, Sequence

import numpy as np
import pandas as pd

from ...engine import run
from . import qlbp


@dataclass(frozen=True)
class PacedOnOff:
    """One packet-level run: source, pacer and measurement (rates in Mb/s, times in s)."""

    peak_mbps: float = 2.0
    on_s: float = 0.1
    off_s: float = 0.2
    mu_max_mbps: float = 10.0
    mu_min_mbps: float = 0.01
    q_max_pkts: int = 3330  # of 25 B: α = 15/s = r1 + r2
    packet_bytes: int = 25
    paced: bool = True
    seconds: float = 1800.0
    warmup_s: float = 100.0
    bin_s: float = 1e-3
    seed: int = 1

    @property
    def r1(self) -> float:
        """OFF→ON rate, 1/(mean OFF)."""
        return 1.0 / self.off_s

    @property
    def r2(self) -> float:
        """ON→OFF rate, 1/(mean ON)."""
        return 1.0 / self.on_s

    @property
    def alpha(self) -> float:
        """Q eq. 3 with Qmax in bits."""
        return qlbp.response_constant(self.mu_max_mbps, self.mu_min_mbps, self.q_max_pkts * self.packet_bytes * 8e-6)

    def model_autocov(self, tau) -> np.ndarray:
        """Theorem 2's C_μμ (paced) or C_λλ (unpaced), (Mb/s)²."""
        if self.paced:
            return qlbp.paced_autocov(tau, self.peak_mbps, self.r1, self.r2, self.alpha)
        return qlbp.onoff_autocov(tau, self.peak_mbps, self.r1, self.r2)

    def scenario(self) -> dict:
        """The run as a scenario dict, times in whole ns and rates in whole b/s (a `%g` form wrote 1e6 s as
        "1e+06s", which no unit reader takes: review-hostile33k M2)."""
        bps = lambda mbps: f"{round(mbps * 1e6)}bps"  # noqa: E731
        ns = lambda s: f"{round(s * 1e9)}ns"  # noqa: E731
        return {
            "seed": self.seed,
            "duration": ns(self.warmup_s + self.seconds),
            "warmup": ns(self.warmup_s),
            "topology": {"kind": "q-tandem", "pacers": 1},
            "core": {"rate": bps(self.mu_max_mbps)},
            "traffic": {"udp": [{
                "kind": "onoff", "rate": bps(self.peak_mbps), "size": f"{self.packet_bytes}B",
                "on": ns(self.on_s), "off": ns(self.off_s), "from": "src", "to": "dst",
            }]},
            "pacing": {"scheme": "qlbp" if self.paced else "none", "mu_max": bps(self.mu_max_mbps),
                       "mu_min": bps(self.mu_min_mbps), "q_max": self.q_max_pkts, "q_lim": 10**9},
            "burstiness": {"link": "core", "bin": ns(self.bin_s), "scales": 1, "series": True},
        }

    def rate(self) -> np.ndarray:
        """Run it: the rate arriving at the core queue per bin, Mb/s."""
        # One world: a split run's bin series once came out flat in CI (under investigation).
        series = run(self.scenario(), threads=1).bin_series
        return series.to_numpy(dtype=float) * 8e-6 / self.bin_s


def autocov(x: np.ndarray, lags: Sequence[int]) -> np.ndarray:
    """Sample auto-covariance at whole lags, mean removed, divided by n."""
    x = np.asarray(x, dtype=float) - np.mean(x)
    n = len(x)
    return np.array([np.dot(x[: n - k], x[k:]) / n for k in lags])


def bartlett_se(cov: Callable[[np.ndarray], np.ndarray], lags: Sequence[int], n: int, horizon: int) -> np.ndarray:
    """Bartlett's standard error of `autocov` at `lags` for n samples of a
    series with auto-covariance cov(m) (m in samples), summed over |m| ≤ horizon."""
    m = np.arange(-horizon, horizon + 1)
    c = lambda k: cov(np.abs(k))  # noqa: E731
    return np.array([np.sqrt(np.sum(c(m) ** 2 + c(m + k) * c(m - k)) / n) for k in lags])


def mean_se(run: PacedOnOff) -> float:
    """Standard error of the mean rate over the window: sqrt(S(0)/T), S(0) = ∫C_λλ = 2h²r1r2/(r1+r2)³
    (pacing keeps the spectrum at frequency 0)."""
    g = run.r1 + run.r2
    return float(np.sqrt(2 * run.peak_mbps**2 * run.r1 * run.r2 / g**3 / run.seconds))


@dataclass(frozen=True)
class Check:
    """Empirical against model auto-covariance at `lags_s`, with Bartlett's standard errors."""

    lags_s: np.ndarray
    empirical: np.ndarray
    model: np.ndarray
    se: np.ndarray
    mean_mbps: float

    @property
    def z(self) -> np.ndarray:
        """(empirical - model)/se per lag."""
        return (self.empirical - self.model) / self.se


def check(run: PacedOnOff, lags_s: Sequence[float], rate: Optional[np.ndarray] = None) -> Check:
    """Run `run` (or use its `rate` series) and compare with Theorem 2 at `lags_s`."""
    x = run.rate() if rate is None else rate
    lags = np.rint(np.asarray(lags_s) / run.bin_s).astype(int)
    horizon = int(np.ceil(20.0 / min(run.alpha, run.r1 + run.r2) / run.bin_s))
    se = bartlett_se(lambda k: run.model_autocov(k * run.bin_s), lags, len(x), horizon)
    return Check(lags * run.bin_s, autocov(x, lags), run.model_autocov(lags * run.bin_s), se, float(np.mean(x)))


def coarse_cov(x: np.ndarray, factor: int) -> float:
    """CoV of the series averaged over `factor` bins at a time (Q Sec. IV-C: 50 ms bins)."""
    n = len(x) // factor
    y = np.asarray(x[: n * factor]).reshape(n, factor).mean(axis=1)
    return float(np.std(y) / np.mean(y))


def simulate(base: PacedOnOff, q_max_bytes: Sequence[float], labels: Sequence[str], lags_s: Sequence[float],
             coarse_s: float) -> Dict[str, pd.DataFrame]:
    """The unpaced source and one paced run per Qmax (bytes, rounded to whole
    packets), all with `base`'s seed: the auto-covariances at `lags_s` in
    columns `cov_input` and `labels`; and per Qmax the CoV ratio over bins of
    `coarse_s` (paced / unpaced, Q Fig. 15), α, and the largest |z| and
    |error| (as a share of the model's variance C_μμ(0)) against eq. 6."""
    factor = int(round(coarse_s / base.bin_s))
    source = replace(base, paced=False)
    x_in = source.rate()
    cov = pd.DataFrame({"lag_s": np.asarray(lags_s, dtype=float)})
    cov["cov_input"] = check(source, lags_s, x_in).empirical
    rows, cov_in = [], coarse_cov(x_in, factor)
    for q_bytes, label in zip(q_max_bytes, labels):
        run = replace(base, q_max_pkts=int(round(q_bytes / base.packet_bytes)))
        x = run.rate()
        c = check(run, lags_s, x)
        cov[label] = c.empirical
        rows.append({"q_max_bytes": q_bytes, "cov_ratio": coarse_cov(x, factor) / cov_in, "alpha": run.alpha,
                     "max_abs_z": float(np.abs(c.z).max()),
                     "max_err_of_var": float(np.abs(c.empirical - c.model).max() / run.model_autocov(0.0)),
                     "mean_mbps": c.mean_mbps})
    return {"autocov": cov, "cov_ratio": pd.DataFrame(rows).sort_values("q_max_bytes", ignore_index=True)}
