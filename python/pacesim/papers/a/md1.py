"""Paper A, Section IV-A: the M/D/1/B queue with bimodal packet sizes.

Paper A only states the result (the derivation is in its ref. [39]): with
deterministic service, TCP packets of 1000 B and UDP packets of 200 B, the
M/D/1/B model is qualitatively like the M/M/1/B chain and also puts the
inflection point of UDP loss at about 8 KB. This module derives it.

Model. Poisson UDP and TCP packet arrivals at the loads of A Sec. IV (UDP 5%
of the link, TCP (1 - e^(-B/B*)) × 94%, A eq. 3); a packet of s bytes needs
exactly s/C seconds of service; FIFO; drop-tail in bytes: an arrival is
admitted iff the unfinished work in the system (the rest of the packet in
service plus the queued packets) plus its own size is at most B. With one
class of packets of size s this is the textbook M/D/1/K, K = B/s places
(the packet in service included).

Derivation (exact stationary workload, by level crossing). Measure work in
units of u = gcd(UDP, TCP size) bytes and time in transmission times of u, so
class c has size s_c units and packet rate λ_c = load_c / s_c, and the buffer
holds N = floor(B/u) units. The unfinished work V(t) is a Markov process on
[0, N]: it drains at rate 1 while positive and jumps by s_c at a class-c
arrival if V + s_c ≤ N. Its stationary law has an atom π0 = P(V = 0) and a
density f on (0, N]. In steady state level x is crossed downwards (rate
f(x)) as often as upwards, which happens when an admitted arrival finds
V = y < x ≤ y + s_c:

    f(x) = Σ_c λ_c [ π0·1{x ≤ s_c} + ∫_{max(0, x-s_c)}^{min(x, N-s_c)} f(y) dy ]   (0 < x < N),

summing over the classes with s_c ≤ N. With F(x) = ∫_0^x f this is the
linear delay equation

    F'(x) = a(x) F(x) + Σ_c λ_c [ π0·1{x ≤ s_c} + F(N - s_c)·1{x > N - s_c} - F(x - s_c)·1{x > s_c} ],
    a(x) = Σ_c λ_c 1{x ≤ N - s_c},

whose coefficients are constant on each unit interval (k, k+1). Set π0 = 1
and march k = 0, 1, ..., N-1: on (k, k+1) everything but F(x) is already
known, so F(k + t) = e^(a t) [F(k) + ∫_0^t e^(-a τ) b(k + τ) dτ], the integral
by cumulative Simpson on `grid` points per unit. Normalise by 1 + F(N). By
PASTA class c is lost with probability P(V > N - s_c) = (F(N) - F(N - s_c)) / (1 + F(N)).

Bridge to the Markov chain. Splitting every unit of work into m exponential
phases of rate m gives Erlang(s·m) service (mean s, variance s/m): a
continuous-time chain on the phase count, the bulk-arrival generator of
`bulk_chain` with bulk sizes s_c·m and service rate m (`erlang_losses`).
m = 1 with u = 200 B is paper A's M/M/1/B chain (its TCP bulk of five
exponential customers is Erlang(5) service); as m → ∞ the chain tends to
this M/D/1/B model, which the tests check.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Sequence, Tuple

import numpy as np
from scipy.integrate import cumulative_simpson

from .bulk_chain import LAMBDA_UDP, TCP_SATURATION, blocking, generator, stationary


def workload_cdf(capacity: int, classes: Sequence[Tuple[float, int]], grid: int = 32):
    """Stationary workload of the M/D/1 queue with bounded work.

    `classes` are (packet rate, size in units) pairs, `capacity` the most
    work (units) the system holds. Returns (x, cdf): cdf[j] = P(V ≤ x[j]) on
    x = 0, 1/grid, ..., capacity (cdf[0] = P(V = 0))."""
    if grid < 2 or grid % 2:
        raise ValueError(f"grid must be an even number ≥ 2, got {grid}")
    if capacity < 1:
        raise ValueError(f"capacity must be ≥ 1 unit, got {capacity}")
    admitted = [(float(lam), int(s)) for lam, s in classes if 1 <= s <= capacity]
    n = capacity * grid
    big_f = np.zeros(n + 1)  # F(x) = ∫_0^x f, with π0 = 1
    t = np.linspace(0.0, 1.0, grid + 1)
    for k in range(capacity):
        a = sum(lam for lam, s in admitted if k + 1 <= capacity - s)
        b = np.zeros(grid + 1)
        for lam, s in admitted:
            if k + 1 <= s:
                b += lam  # π0 = 1
            if k >= capacity - s:
                b += lam * big_f[(capacity - s) * grid]
            if k >= s:
                j0 = (k - s) * grid
                b -= lam * big_f[j0 : j0 + grid + 1]
        integral = cumulative_simpson(np.exp(-a * t) * b, x=t, initial=0.0)
        j0 = k * grid
        big_f[j0 : j0 + grid + 1] = np.exp(a * t) * (big_f[j0] + integral)
    x = np.arange(n + 1) / grid
    return x, (1.0 + big_f) / (1.0 + big_f[-1])


@dataclass(frozen=True)
class MD1Result:
    """Losses of the two packet classes under deterministic service."""

    buffer_bytes: int
    udp_load: float
    tcp_load: float
    udp_loss: float
    tcp_blocking: float

    @property
    def tcp_throughput(self) -> float:
        """TCP load carried, fraction of the link."""
        return self.tcp_load * (1.0 - self.tcp_blocking)


def _units(buffer_bytes: int, udp_size: int, tcp_size: int):
    unit = gcd(udp_size, tcp_size)
    return buffer_bytes // unit, udp_size // unit, tcp_size // unit


def solve(
    buffer_bytes: int,
    udp_load: float,
    tcp_load: float,
    udp_size: int = 200,
    tcp_size: int = 1000,
    grid: int = 32,
) -> MD1Result:
    """M/D/1/B losses from the exact stationary workload (see module doc)."""
    capacity, a, b = _units(buffer_bytes, udp_size, tcp_size)
    _, cdf = workload_cdf(capacity, [(udp_load / a, a), (tcp_load / b, b)], grid)

    def lost(size: int) -> float:
        return 1.0 if size > capacity else float(1.0 - cdf[(capacity - size) * grid])

    return MD1Result(buffer_bytes, udp_load, tcp_load, lost(a), lost(b))


def erlang_losses(buffer_bytes: int, udp_load: float, tcp_load: float, phases: int, udp_size: int = 200, tcp_size: int = 1000):
    """(UDP loss, TCP blocking) of the chain with Erlang service, `phases`
    exponential phases per unit of work (1 = paper A's M/M/1/B)."""
    capacity, a, b = _units(buffer_bytes, udp_size, tcp_size)
    q = generator(capacity * phases, [(udp_load / a, a * phases), (tcp_load / b, b * phases)], float(phases))
    p = stationary(q)
    return blocking(p, a * phases), blocking(p, b * phases)


def tcp_load(buffer_kb, bstar_kb: float, saturation: float = TCP_SATURATION) -> np.ndarray:
    """A eq. 3 as a load: (1 - e^(-B/B*)) × saturation, fraction of the link."""
    return -np.expm1(-np.asarray(buffer_kb, dtype=float) / bstar_kb) * saturation


def sweep(
    buffers_kb: Sequence[float],
    bstar_kb: float = 7.0,
    udp_size: int = 200,
    tcp_size: int = 1000,
    udp_load: float = LAMBDA_UDP,
    saturation: float = TCP_SATURATION,
    grid: int = 32,
) -> list:
    """Paper A's loads over buffer sizes in KB (1000 B)."""
    return [
        solve(int(round(b * 1000)), udp_load, float(tcp_load(b, bstar_kb, saturation)), udp_size, tcp_size, grid)
        for b in buffers_kb
    ]
