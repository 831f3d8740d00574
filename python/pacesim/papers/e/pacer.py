"""Paper E, Section 4: the edge pacer's delay bound d against TCP throughput.

Assumptions (paper E, Sec. 4): the aggregate TCP traffic reaching the pacer
is Poisson with load λ (packets per packet-transmission time of the core
link, i.e. a dimensionless offered load, 0 < λ ≤ 1); a packet waits d/2 in
the pacer on average, so the mean RTT becomes RTT0 + d; TCP throughput obeys
T ∝ 1/(RTT·sqrt(L)) (eq. 1).

From paper [6] (Sivaraman et al.), for Poisson traffic of load λ paced with
delay bound d:

    β = 1/sqrt(2λd)              (E eq. 2: burstiness, std/mean of the output rate)
    L ≤ (λ e^(1-λ))^(2d)         (E eq. 3: Chernoff bound, bufferless fluid loss)

and together with eq. 1:

    T ∝ 1 / ((RTT0 + d) (λ e^(1-λ))^d)      (E eq. 4)

**Units of d.** Eqs. 2 and 3 are a window of 2d packet times: the pacer's
output rate is about N(2d)/(2d) with N(2d) ~ Poisson(2λd), so 1/sqrt(2λd) is
its coefficient of variation and the Chernoff bound on P(N(2d) ≥ 2d) is
(λe^(1-λ))^(2d). There d counts *packet transmission times* of the core link
(1000 B at 100 Mb/s = 0.08 ms). Paper E's Fig. 10 plots eq. 4 "for RTT0 = 200 ms
and d from 0 to 100 ms": the curves it describes (light load rising and
convex, heavy load falling) come out when d is put into eq. 4 in
milliseconds, the same unit as RTT0, with light load λ = 0.9 and heavy load
λ = 0.999 (the loads E quotes for 5 KB and 50 KB buffers). Every function
below therefore takes `slot`, the length of one exponent unit in the unit of
d: `slot = 1` (d in ms, exponent in ms) is the paper's reading; `slot = 0.08`
(ms) is the packet-time reading of [6]. `load_regimes` says for which loads
each reading rises or falls.

The load model (E Sec. 4, from paper A eq. 1): the empty-buffer probability
1 - ρ falls exponentially with the buffer, ρ = 1 - e^(-B/B*); B* is fitted
from a simulated empty-buffer curve by least squares of ln P(empty) on B
(`fit_bstar`; the engine reports `summary.core_empty_prob` per run).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

def _check_load(lam) -> np.ndarray:
    lam = np.asarray(lam, dtype=float)
    if np.any((lam <= 0) | (lam > 1)):
        raise ValueError(f"load λ must lie in (0, 1], got {lam}")
    return lam


def log_chernoff_base(lam) -> np.ndarray:
    """ln(λ e^(1-λ)) = ln λ + 1 - λ: < 0 for λ in (0, 1), 0 at full load
    (where pacing removes no loss)."""
    lam = _check_load(lam)
    return np.log(lam) + 1.0 - lam


def burstiness(lam, d, slot: float = 1.0) -> np.ndarray:
    """E eq. 2: β = 1/sqrt(2λd), with d counted in `slot`s (packet times in [6])."""
    lam = _check_load(lam)
    d = np.asarray(d, dtype=float)
    return 1.0 / np.sqrt(2.0 * lam * d / slot)


def loss_bound(lam, d, slot: float = 1.0) -> np.ndarray:
    """E eq. 3: L ≤ (λ e^(1-λ))^(2d), with d counted in `slot`s."""
    return np.exp(2.0 * np.asarray(d, dtype=float) / slot * log_chernoff_base(lam))


def throughput_measure(d, lam, rtt0: float, slot: float = 1.0) -> np.ndarray:
    """E eq. 4: T ∝ 1/((RTT0 + d)(λe^(1-λ))^d), d and RTT0 in one unit, the
    exponent counting d in `slot`s. Returned in 1/(unit of RTT0)."""
    d = np.asarray(d, dtype=float)
    return np.exp(-d / slot * log_chernoff_base(lam)) / (rtt0 + d)


@dataclass(frozen=True)
class LoadRegimes:
    """Loads at which eq. 4 changes shape over d in [0, d_max].

    ln T(d) = -ln(RTT0 + d) + c·d/slot with c = λ - 1 - ln λ > 0 is convex in d,
    so T rises over the whole range iff c/slot ≥ 1/RTT0 (λ ≤ `rising_below`),
    falls over the whole range iff c/slot ≤ 1/(RTT0 + d_max) (λ ≥
    `falling_above`), and in between falls to a minimum at d = slot/c - RTT0
    and rises after it.
    """

    rising_below: float
    falling_above: float


def load_regimes(rtt0: float, d_max: float, slot: float = 1.0) -> LoadRegimes:
    """Solve λ - 1 - ln λ = slot/RTT0 and = slot/(RTT0 + d_max) on (0, 1)."""

    def load_for(c: float) -> float:
        f = lambda x: x - 1.0 - np.log(x) - c  # noqa: E731  (falls from +inf at 0 to 0 at 1)
        # Past f's values at the ends of the bracket (c > 689.8: RTT0 under 1/690 slot; c < 5e-31) the root
        # lies outside it: 0 or 1 to double precision.
        if f(1e-300) <= 0:
            return 0.0
        return 1.0 if f(1.0 - 1e-15) >= 0 else brentq(f, 1e-300, 1.0 - 1e-15, xtol=1e-15)

    return LoadRegimes(load_for(slot / rtt0), load_for(slot / (rtt0 + d_max)))


def load_from_buffer(buffer, bstar) -> np.ndarray:
    """E Sec. 4 / A eq. 1: ρ = 1 - e^(-B/B*) (B and B* in one unit)."""
    return -np.expm1(-np.asarray(buffer, dtype=float) / bstar)


@dataclass(frozen=True)
class BstarFit:
    """ln P(empty) ≈ intercept - B/B*, fitted by least squares."""

    bstar: float
    intercept: float
    r_squared: float

    def empty_prob(self, buffer) -> np.ndarray:
        return np.exp(self.intercept - np.asarray(buffer, dtype=float) / self.bstar)


def fit_bstar(buffer, empty_prob, through_origin: bool = False) -> BstarFit:
    """Fit B* from an empty-buffer curve (paper A Sec. III: "the slope of the
    line [ln P1(B) against B] corresponds to -1/B*").

    Least squares of ln P(empty) on B, with a free intercept (the paper's
    straight line on a log plot) or, with `through_origin`, forcing P(0) = 1
    as A eq. 1 literally states. B* comes out in the unit of `buffer`.
    Points with P(empty) = 0 (never empty in the run) carry no information
    on the log scale and are refused.
    """
    b = np.asarray(buffer, dtype=float)
    p = np.asarray(empty_prob, dtype=float)
    if b.shape != p.shape or b.ndim != 1 or b.size < 2:
        raise ValueError("need two equal-length 1-D arrays with at least two points")
    if np.any((p <= 0) | (p > 1)):
        raise ValueError("empty-buffer probabilities must lie in (0, 1]")
    y = np.log(p)
    design = b[:, None] if through_origin else np.column_stack([np.ones_like(b), b])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    slope = coef[-1]
    intercept = 0.0 if through_origin else coef[0]
    if slope >= 0:
        raise ValueError("ln P(empty) does not fall with the buffer: no B* to fit")
    resid = y - design @ coef
    total = np.sum((y - y.mean()) ** 2)
    r2 = 1.0 - np.sum(resid**2) / total if total > 0 else 1.0
    return BstarFit(bstar=-1.0 / slope, intercept=float(intercept), r_squared=float(r2))
