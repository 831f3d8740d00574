"""Paper Q, Section III: QLBP's pacing delay (Theorem 1) and auto-covariance
reduction (Theorem 2).

Rate law (Q eq. 1): the pacer sends at

    μ(q) = (μmax - μmin)/Qmax · q + μmin   for 0 ≤ q < Qmax,
    μ(q) = C                              for q ≥ Qmax,

with q the pacing queue's length; response constant (Q eq. 3)
α = (μmax - μmin)/Qmax.

**Theorem 1** (fluid, constant input rate λ, Q App. A). The pacing delay is
d = d_pacer - d_FIFO (Definition 1); a FIFO has no delay below the link rate.
In steady state:

- λ ≤ μmin: no queue builds, d = 0;
- μmin < λ ≤ μmax: the queue settles where μ(q) = λ,
  q* = Qmax (λ - μmin)/(μmax - μmin) (Q Sec. II-D), and d = q*/λ (Little);
- μmax < λ ≤ C: the queue sits at Qmax (below it the pacer is slower than λ,
  at it faster), d = Qmax/λ;
- λ > C: pacer and FIFO both fill to Qlim and drain at C, d = 0.

d rises with λ up to λ = μmax, where it reaches its bound Qmax/μmax, and
falls beyond, so d ≤ Qmax/μmax always.

**Theorem 2** (Q Sec. III-B, App. B). Under Assumption 1 (μmin = 0, μmax = C,
Qmax = Qlim/a with a > 1, input below C) the queue, once non-empty, never
empties, and the fluid pacer output obeys dμ/dt = -α μ + α λ: a first-order
low-pass filter of the input. For a Markov ON-OFF input λ(t) = h x(t), with
OFF→ON rate r1 and ON→OFF rate r2 (mean ON 1/r2, mean OFF 1/r1),

    C_λλ(τ) = h² r1 r2/(r1 + r2)² e^(-(r1+r2)τ)

    C_μμ(τ) = A e^(-(r1+r2)τ) + B e^(-ατ)                   α ≠ r1 + r2   (Q eq. 6)
            = h² r1 r2 / (2 (r1+r2)²) (1 + ατ) e^(-ατ)       α = r1 + r2

    A = α² h² r1 r2 / ((r1+r2)² (α + r1 + r2)(α - r1 - r2))
    B = -α h² r1 r2 / ((r1+r2)(α + r1 + r2)(α - r1 - r2))

(The text of Q we have lost B's minus sign in extraction; the sign follows
from the filter's spectrum, S_μ(ω) = α²/(α² + ω²) · S_λ(ω), and is needed for
C_μμ(0) = α/(α + r1 + r2) · C_λλ(0), the variance the appendix's E[μ²] gives.)
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import quad


def response_constant(mu_max: float, mu_min: float, q_max: float) -> float:
    """Q eq. 3: α = (μmax - μmin)/Qmax (1/time when rates are work/time)."""
    return (mu_max - mu_min) / q_max


def rate(q, mu_max: float, mu_min: float, q_max: float, link_rate: float) -> np.ndarray:
    """Q eq. 1: the pacer's output rate at queue length q."""
    q = np.asarray(q, dtype=float)
    return np.where(q < q_max, (mu_max - mu_min) / q_max * q + mu_min, link_rate)


def steady_queue(lam, mu_max: float, mu_min: float, q_max: float, link_rate: float) -> np.ndarray:
    """Theorem 1's fluid steady-state pacing queue for a constant input rate λ
    up to the link rate (above it the queue fills to Qlim, returned as inf)."""
    lam = np.asarray(lam, dtype=float)
    linear = q_max * (lam - mu_min) / (mu_max - mu_min)
    return np.select(
        [lam <= mu_min, lam <= mu_max, lam <= link_rate],
        [0.0, linear, q_max],
        np.inf,
    )


def pacing_delay(lam, mu_max: float, mu_min: float, q_max: float, link_rate: float) -> np.ndarray:
    """Theorem 1: steady-state pacing delay d(λ) = d_pacer - d_FIFO (time unit
    of q_max / rates). 0 for λ ≤ μmin and for λ > C."""
    lam = np.asarray(lam, dtype=float)
    q = steady_queue(lam, mu_max, mu_min, q_max, link_rate)
    busy = (lam > mu_min) & (lam <= link_rate)
    return np.where(busy, np.divide(q, lam, out=np.zeros_like(lam), where=busy), 0.0)


def delay_bound(mu_max: float, q_max: float) -> float:
    """Theorem 1: d ≤ Qmax/μmax."""
    return q_max / mu_max


def onoff_mean(h: float, r1: float, r2: float) -> float:
    """E[λ] = h r1/(r1 + r2), also the pacer's mean output rate."""
    return h * r1 / (r1 + r2)


def onoff_autocov(tau, h: float, r1: float, r2: float) -> np.ndarray:
    """Theorem 2: C_λλ(τ) = h² r1 r2/(r1+r2)² e^(-(r1+r2)|τ|)."""
    g = r1 + r2
    return h**2 * r1 * r2 / g**2 * np.exp(-g * np.abs(np.asarray(tau, dtype=float)))


def paced_autocov(tau, h: float, r1: float, r2: float, alpha: float) -> np.ndarray:
    """Theorem 2, Q eq. 6: C_μμ(τ) of the paced ON-OFF source, both cases."""
    tau = np.abs(np.asarray(tau, dtype=float))
    g = r1 + r2
    s = h**2 * r1 * r2
    if np.isclose(alpha, g, rtol=1e-9, atol=0.0):
        return s / (2.0 * g**2) * (1.0 + alpha * tau) * np.exp(-alpha * tau)
    a_coef = alpha**2 * s / (g**2 * (alpha + g) * (alpha - g))
    b_coef = -alpha * s / (g * (alpha + g) * (alpha - g))
    return a_coef * np.exp(-g * tau) + b_coef * np.exp(-alpha * tau)


def binned_variance(autocov, width: float) -> float:
    """Variance of a stationary rate averaged over bins of length `width`:
    (2/T²) ∫_0^T (T - τ) C(τ) dτ (how Q Sec. IV measures CoV, 50 ms bins)."""
    val, _ = quad(lambda t: (width - t) * float(autocov(t)), 0.0, width, limit=200)
    return 2.0 * val / width**2
