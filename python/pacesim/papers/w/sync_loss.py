"""Paper W, Section III: throughput lost to synchronisation, and convergence
epochs to fairness.

**Synchronisation loss** (W Sec. III-C.1). N flows fully synchronised on a
bottleneck of capacity cN and buffer BN behave like one flow on capacity c,
buffer B; cd is the per-flow bandwidth-delay product in packets. Over one
congestion epoch (loss to loss) let T1 be the rounds (RTTs) in which the
window is below cd (link under-used), P1 the packets sent in them and P2 the
packets of the remaining rounds. The link could have sent cd·T1 + P2, so

    throughput loss = 1 - (P1 + P2)/(cd·T1 + P2).

For Reno (window from w_max/2 to w_max = cd + B, +1 per round) the paper
gets T = w_max/2, T1 = (cd - B)/2, P2 = cdB + B²/2 and prints
P1 = B²/8 + 3(cd)²/8 - cdB/4 and the loss ¼((cd)² + cdB - B²)/((cd)² + cdB + B²)
(25% at B = 0). The trapezoid P1 = ((w_max/2 + cd)/2)·T1 is in fact
(3cd + B)(cd - B)/8 = 3(cd)²/8 - cdB/4 - B²/8, and with it the same steps give

    loss = ¼ (cd - B)² / ((cd)² + cdB + B²)      (0 ≤ B ≤ cd; 0 for B ≥ cd),

which is 25% at B = 0 too but, unlike the printed form, vanishes at B = cd,
where Reno's window never drops below the pipe (`reno_loss` vs
`reno_loss_printed`).

The paper applies "the same method" to Scalable TCP, BIC-TCP and FAST
without giving their trajectories; `epoch_windows` generates one
synchronised epoch round by round for each, from each protocol's published
per-RTT rules, and `epoch_loss` applies the formula above to it (rounds with
w < cd last d, rounds with w ≥ cd last w/c; the round that reaches
cd + B is the loss round and delivers cd + B):

- Reno: w ← w + 1; on loss w ← w/2.
- Scalable TCP (Kelly 2003): w ← w (1 + a) per round (a = 0.01 per ACK);
  on loss w ← (1 - b) w, b = 0.125.
- BIC-TCP (Xu, Harfoush, Rhee 2004): binary search towards w_max: each round
  w ← w + clip((w_max - w)/2, S_min, S_max), S_max = 32, S_min = 0.01; the
  round in which w reaches w_max overflows (max probing starts above it); on
  loss w ← (1 - β) w, β = 0.125.
- FAST (Jin, Wei, Low 2004): w ← min(2w, (1 - γ) w + γ (baseRTT/RTT · w + α)),
  γ = 0.5, α = 200 packets, RTT = d + max(0, w - cd)/c; FAST keeps α packets
  queued per flow, so with B ≥ α it never overflows and loses nothing; with
  B < α it overflows and halves like Reno.

**Convergence** (W Sec. III-B.1, eqs. 1-5). A fraction r of N Reno flows
leaves slow start one RTT earlier than the rest, with half their window;
with synchronised losses afterwards, w_k = cd + B + 2^(-k) (w_0 - cd - B) (W eq. 3)
with w_0 = (cd + B)/(2 - r) for the early flows. They reach 95% of the fair
share after

    K = ceil(log2(20 - 20/(2 - r))) ∈ [0, 4]      (W eq. 5)

epochs, i.e. K (cd + B)/2 RTTs.
"""

from __future__ import annotations

from typing import Callable, Dict, List

import numpy as np

#: W Fig. 8: 1 Gb/s, 120 ms, MTU 1500: "Bandwidth Delay Product = 10440 packets".
FIG8_BDP_PACKETS = 10440


def reno_loss(buffer, cd: float) -> np.ndarray:
    """Reno's synchronisation loss from the paper's method with the trapezoid
    P1 evaluated correctly: ¼ (cd - B)²/((cd)² + cdB + B²), 0 once B ≥ cd."""
    b = np.asarray(buffer, dtype=float)
    loss = 0.25 * (cd - b) ** 2 / (cd**2 + cd * b + b**2)
    return np.where(b < cd, loss, 0.0)


def reno_loss_printed(buffer, cd: float) -> np.ndarray:
    """W's printed Reno result, ¼((cd)² + cdB - B²)/((cd)² + cdB + B²)."""
    b = np.asarray(buffer, dtype=float)
    return 0.25 * (cd**2 + cd * b - b**2) / (cd**2 + cd * b + b**2)


def _reno(cd: float, buffer: float) -> List[float]:
    w_max = cd + buffer
    w = w_max / 2.0
    out = []
    while w < w_max:
        out.append(w)
        w += 1.0
    return out + [w_max]


def _scalable(cd: float, buffer: float, a: float = 0.01, b: float = 0.125) -> List[float]:
    w_max = cd + buffer
    w = (1.0 - b) * w_max
    out = []
    while w < w_max:
        out.append(w)
        w *= 1.0 + a
    return out + [w_max]


def _bic(cd: float, buffer: float, beta: float = 0.125, s_max: float = 32.0, s_min: float = 0.01) -> List[float]:
    w_max = cd + buffer
    w = (1.0 - beta) * w_max
    out = []
    while w < w_max:
        out.append(w)
        w += min(max((w_max - w) / 2.0, s_min), s_max)
    return out + [w_max]


def _fast(cd: float, buffer: float, alpha: float = 200.0, gamma: float = 0.5):
    if buffer >= alpha:
        return None
    w_max = cd + buffer
    w = w_max / 2.0
    out = []
    while w < w_max:
        out.append(w)
        base_over_rtt = cd / max(w, cd)  # baseRTT/RTT with RTT = max(w, cd)/c
        w = min(2.0 * w, (1.0 - gamma) * w + gamma * (base_over_rtt * w + alpha))
    return out + [w_max]


ALGORITHMS: Dict[str, Callable] = {"reno": _reno, "scalable": _scalable, "bic": _bic, "fast": _fast}


def epoch_windows(algorithm: str, cd: float, buffer: float, **params):
    """Per-round windows (packets) of one synchronised congestion epoch, from
    the first round after a loss to the loss round; None if the protocol
    settles without overflowing the buffer (FAST with B ≥ α)."""
    try:
        fn = ALGORITHMS[algorithm]
    except KeyError:
        raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}") from None
    return fn(float(cd), float(buffer), **params)


def epoch_loss(windows, cd: float) -> float:
    """1 - (P1 + P2)/(cd·T1 + P2) for one epoch's per-round windows."""
    if windows is None:
        return 0.0
    w = np.asarray(windows, dtype=float)
    under = w < cd
    p1, t1, p2 = w[under].sum(), under.sum(), w[~under].sum()
    return float(1.0 - (p1 + p2) / (cd * t1 + p2))


def sync_loss(algorithm: str, buffers, cd: float, **params) -> np.ndarray:
    """Synchronisation throughput loss of `algorithm` for each buffer (packets)."""
    return np.array([epoch_loss(epoch_windows(algorithm, cd, b, **params), cd) for b in np.atleast_1d(buffers)])


def convergence_epochs(r) -> np.ndarray:
    """W eq. 5: K = ceil(log2(20 - 20/(2 - r))), floored at 0 (r = 1: all
    flows already equal)."""
    r = np.asarray(r, dtype=float)
    if np.any((r < 0) | (r > 1)):
        raise ValueError("the early fraction r must lie in [0, 1]")
    arg = 20.0 - 20.0 / (2.0 - r)
    with np.errstate(divide="ignore"):
        k = np.ceil(np.log2(arg))
    return np.maximum(k, 0.0).astype(int)


def window_after(k, r: float, cd: float, buffer: float) -> np.ndarray:
    """W eq. 3 for an early flow: w_k = cd + B + 2^(-k)(w_0 - cd - B),
    w_0 = (cd + B)/(2 - r)."""
    fair = cd + buffer
    w0 = fair / (2.0 - r)
    return fair + np.exp2(-np.asarray(k, dtype=float)) * (w0 - fair)


def convergence_rtts(r, cd: float, buffer: float) -> np.ndarray:
    """K epochs of (cd + B)/2 RTTs each."""
    return convergence_epochs(r) * (cd + buffer) / 2.0


def bdp_packets(capacity_bps: float, rtt_s: float, packet_bytes: int = 1500) -> float:
    """cd in packets."""
    return capacity_bps * rtt_s / (8.0 * packet_bytes)
