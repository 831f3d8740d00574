"""Paper A, Section IV: the M/M/1/B queue with Poisson UDP and bulk TCP arrivals.

Assumptions (A Sec. IV): TCP packet arrivals are Poisson (many unsynchronised
flows, small windows) and so are UDP arrivals; service is exponential. The
unit of work ("customer") is one UDP packet: the service rate is μ = 1 per
UDP packet size, a UDP arrival brings one customer and a TCP arrival brings
a bulk of k customers, k = TCP size / UDP size (5 for 1000 B / 200 B). A
buffer of B bytes holds n_max = B / (UDP size) customers (the one in
service included), so the chain has N = n_max + 1 states (A eq. 4:
N = 3000/200 + 1 = 16 for B = 3 KB). An arrival that does not fit entirely
is dropped entirely. TCP's arrival rate grows with the buffer (A eq. 3):

    λ_TCP = (1 - e^(-B/B*)) λ_TCP^sat,  λ_TCP^sat = 0.94/k,  λ_UDP = 0.05, μ = 1.

State j = customers in the system. The generator has j → j+1 at λ_UDP
(j + 1 ≤ n_max), j → j+k at λ_TCP (j + k ≤ n_max) and j → j-1 at μ (j ≥ 1);
its stationary vector solves the global balance equations, A eqs. 5-9 for
B = 3 KB:

    p0 (λU + λT)             = p1 μ                                      (5)
    pi (λU + λT + μ)         = p(i-1) λU + p(i+1) μ           1 ≤ i ≤ 4   (6)
    pi (λU + λT + μ)         = p(i-1) λU + p(i+1) μ + p(i-5) λT  5 ≤ i ≤ 10 (7)
    pi (λU + μ)              = p(i-1) λU + p(i+1) μ + p(i-5) λT  11 ≤ i ≤ 14 (8)
    p15 μ                    = p14 λU + p10 λT                             (9)

By PASTA an arrival of size s is lost with probability P(j > n_max - s):
UDP loss = p_(n_max), TCP blocking = Σ_(j > n_max - k) p_j. The chain is
built for any B as a sparse generator and solved with scipy.sparse.

The same generator with each customer split into m exponential phases of
rate m μ (Erlang service) is the route to the deterministic-service model,
see `md1.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Tuple

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

#: Paper A's normalised rates: UDP is 5% of the link, TCP saturates at 94%.
LAMBDA_UDP = 0.05
TCP_SATURATION = 0.94


def generator(capacity: int, arrivals: Sequence[Tuple[float, int]], service_rate: float) -> sp.csr_matrix:
    """Generator of a single-server queue on states 0..capacity (units of
    work in the system): each (rate, size) class adds `size` units at `rate`
    when they fit (state + size ≤ capacity), and the server removes one unit
    at `service_rate` from any non-empty state."""
    if capacity < 0:
        raise ValueError(f"capacity must be ≥ 0, got {capacity}")
    states = np.arange(capacity + 1)
    rows, cols, rates = [], [], []
    for rate, size in arrivals:
        if size < 1:
            raise ValueError(f"arrival size must be ≥ 1, got {size}")
        if rate < 0:
            raise ValueError(f"arrival rate must be ≥ 0, got {rate}")
        fits = states[states + size <= capacity]
        rows.append(fits)
        cols.append(fits + size)
        rates.append(np.full(fits.size, float(rate)))
    busy = states[1:]
    rows.append(busy)
    cols.append(busy - 1)
    rates.append(np.full(busy.size, float(service_rate)))
    n = capacity + 1
    off = sp.csr_matrix(
        (np.concatenate(rates), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)
    )
    return (off - sp.diags(np.asarray(off.sum(axis=1)).ravel())).tocsr()


def stationary(q: sp.spmatrix) -> np.ndarray:
    """Stationary distribution p of an irreducible generator: p Q = 0, Σp = 1.

    Solves Qᵀ pᵀ = 0 with the first balance equation replaced by the
    normalisation (the balance equations are linearly dependent)."""
    qt = sp.coo_matrix(q.T)
    keep = qt.row != 0
    n = q.shape[0]
    a = sp.csc_matrix(
        (
            np.concatenate([qt.data[keep], np.ones(n)]),
            (np.concatenate([qt.row[keep], np.zeros(n, dtype=int)]), np.concatenate([qt.col[keep], np.arange(n)])),
        ),
        shape=(n, n),
    )
    rhs = np.zeros(n)
    rhs[0] = 1.0
    p = np.atleast_1d(spsolve(a, rhs))
    p = np.clip(p, 0.0, None)
    return p / p.sum()


def blocking(p: np.ndarray, size: int) -> float:
    """PASTA: the probability that an arrival of `size` units does not fit."""
    capacity = p.size - 1
    return float(p[max(capacity - size + 1, 0):].sum())


def tcp_rate(buffer_kb, bstar_kb: float, bulk: int, saturation: float = TCP_SATURATION) -> np.ndarray:
    """A eq. 3: λ_TCP = (1 - e^(-B/B*)) λ_TCP^sat with λ_TCP^sat = saturation/bulk
    (TCP packets per UDP-packet service time)."""
    return -np.expm1(-np.asarray(buffer_kb, dtype=float) / bstar_kb) * saturation / bulk


@dataclass(frozen=True)
class BulkResult:
    """One solved chain. Rates are per UDP-packet service time; loads are
    fractions of the link."""

    buffer_bytes: int
    n_max: int
    lam_udp: float
    lam_tcp: float
    bulk: int
    p: np.ndarray
    udp_loss: float
    tcp_blocking: float

    @property
    def tcp_offered(self) -> float:
        """TCP load offered to the queue, fraction of the link (A eq. 3 × k)."""
        return self.lam_tcp * self.bulk

    @property
    def tcp_throughput(self) -> float:
        """TCP load carried (offered × (1 - blocking)), fraction of the link."""
        return self.tcp_offered * (1.0 - self.tcp_blocking)


def solve(buffer_bytes: int, udp_size: int, tcp_size: int, lam_udp: float, lam_tcp: float, mu: float = 1.0) -> BulkResult:
    """Solve the M/M/1/B bulk chain for a buffer of `buffer_bytes`.

    The bulk size k = tcp_size/udp_size must be a whole number (A Sec. VII:
    "a bulk arrival size equal to the TCP/UDP packet size ratio");
    n_max = floor(buffer_bytes/udp_size)."""
    bulk, rem = divmod(tcp_size, udp_size)
    if rem or bulk < 1:
        raise ValueError(f"TCP size {tcp_size} B is not a whole multiple of UDP size {udp_size} B")
    n_max = buffer_bytes // udp_size
    p = stationary(generator(n_max, [(lam_udp, 1), (lam_tcp, bulk)], mu))
    return BulkResult(
        buffer_bytes=buffer_bytes,
        n_max=n_max,
        lam_udp=lam_udp,
        lam_tcp=lam_tcp,
        bulk=bulk,
        p=p,
        udp_loss=blocking(p, 1),
        tcp_blocking=blocking(p, bulk),
    )


def sweep(
    buffers_kb: Sequence[float],
    bstar_kb: float = 7.0,
    udp_size: int = 200,
    tcp_size: int = 1000,
    lam_udp: float = LAMBDA_UDP,
    saturation: float = TCP_SATURATION,
) -> list:
    """Paper A's model over buffer sizes (KB = 1000 B), TCP rate from eq. 3."""
    bulk = tcp_size // udp_size
    out = []
    for b in buffers_kb:
        lam_tcp = float(tcp_rate(b, bstar_kb, bulk, saturation))
        out.append(solve(int(round(b * 1000)), udp_size, tcp_size, lam_udp, lam_tcp))
    return out
