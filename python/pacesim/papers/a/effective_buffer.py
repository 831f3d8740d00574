"""Paper A, Section III: the buffer space UDP effectively gets next to TCP.

Assumptions (A Sec. III): many TCP flows whose bandwidth-delay product
exceeds the buffer; TCP carries most of the traffic; the buffer is either
devoid of TCP traffic, with probability P1(B) ≈ e^(-B/B*) (A eq. 1), or shared.
A fraction f of the traffic is UDP. While TCP and UDP coexist, FIFO service
and Little's law give UDP its rate share of the buffer, fB ("fair share");
whenever no TCP packet is queued UDP may also use the rest, (1 - f)B, which
happens with probability P1(B) ("time share"). Hence (A eq. 2)

    B_udp = fB + (1 - f) B e^(-B/B*).

The time-share term peaks at B = B*. B_udp falls with B (the anomalous
region, where more buffer gives UDP less) where

    dB_udp/dB = f + (1 - f) e^(-x) (1 - x) < 0,   x = B/B*,

i.e. where e^(-x)(x - 1) > f/(1 - f). The left side peaks at e^(-2) (x = 2),
so the region exists iff f/(1 - f) < e^(-2), i.e. f < 1/(1 + e^2) ≈ 0.119, and
then runs between the two real roots x = 1 - W_k(-e·f/(1 - f)) on the
Lambert-W branches k = 0 and k = -1.
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
from scipy.special import lambertw


def fair_share(buffer, f: float) -> np.ndarray:
    """fB: UDP's rate share of the buffer."""
    return f * np.asarray(buffer, dtype=float)


def time_share(buffer, f: float, bstar: float) -> np.ndarray:
    """(1 - f) B e^(-B/B*): the rest of the buffer, when no TCP packet holds it."""
    b = np.asarray(buffer, dtype=float)
    return (1.0 - f) * b * np.exp(-b / bstar)


def effective_buffer(buffer, f: float, bstar: float) -> np.ndarray:
    """A eq. 2: B_udp = fB + (1 - f) B e^(-B/B*), in the unit of `buffer` and `bstar`."""
    return fair_share(buffer, f) + time_share(buffer, f, bstar)


def anomaly_threshold() -> float:
    """The UDP share below which B_udp has a falling region: 1/(1 + e^2)."""
    return 1.0 / (1.0 + np.e**2)


def anomalous_region(f: float, bstar: float) -> Optional[Tuple[float, float]]:
    """The buffers (lo, hi) between which B_udp falls with B, or None if it
    never does (f ≥ 1/(1 + e^2)). `lo` is the local maximum of B_udp, `hi` its
    local minimum."""
    if not 0.0 < f < 1.0:
        raise ValueError(f"UDP fraction f must lie in (0, 1), got {f}")
    c = f / (1.0 - f)
    if c >= np.exp(-2.0):
        return None
    z = -np.e * c
    lo = 1.0 - lambertw(z, 0).real
    hi = 1.0 - lambertw(z, -1).real
    return float(lo * bstar), float(hi * bstar)
