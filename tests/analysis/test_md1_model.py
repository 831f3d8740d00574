"""Paper A Sec. IV-A: M/D/1/B with bimodal packet sizes, derived by level crossing."""

import numpy as np
import pytest
from scipy.stats import poisson

from pacesim.papers.a import bulk_chain, md1


def _md1k_loss(rho, k):
    """Textbook M/D/1/K blocking from the embedded chain at departures:
    a_j = P(j Poisson arrivals in one service); p_K = 1 - 1/(π0 + ρ)."""
    a = poisson.pmf(np.arange(k + 1), rho)
    p = np.zeros((k, k))
    for i in range(k):
        base = max(i - 1, 0)
        for j in range(base, k - 1):
            p[i, j] = a[j - base]
        p[i, k - 1] = 1 - a[: k - 1 - base].sum()
    m = p.T - np.eye(k)
    m[0, :] = 1.0
    rhs = np.zeros(k)
    rhs[0] = 1.0
    pi = np.linalg.solve(m, rhs)
    return 1 - 1 / (pi[0] + rho)


@pytest.mark.parametrize("rho,k", [(0.3, 5), (0.6, 10), (0.9, 10), (0.99, 30), (1.2, 10), (0.9, 1)])
def test_single_class_is_the_textbook_md1k(rho, k):
    res = md1.solve(k * 200, rho, 0.0)
    assert res.udp_loss == pytest.approx(_md1k_loss(rho, k), rel=1e-4)


def test_grid_convergence_is_fourth_order():
    exact = _md1k_loss(0.9, 10)
    err = [abs(md1.solve(2000, 0.9, 0.0, grid=g).udp_loss - exact) for g in (4, 8, 16)]
    assert err[0] / err[1] > 12 and err[1] / err[2] > 12


def test_erlang_one_is_paper_a_chain():
    lt = float(md1.tcp_load(8.0, 7.0))
    udp, tcp = md1.erlang_losses(8000, 0.05, lt, phases=1)
    ref = bulk_chain.solve(8000, 200, 1000, 0.05, lt / 5)
    assert udp == pytest.approx(ref.udp_loss, rel=1e-12)
    assert tcp == pytest.approx(ref.tcp_blocking, rel=1e-12)


@pytest.mark.parametrize("buffer_kb", [2.0, 8.0, 20.0])
def test_erlang_chains_converge_to_the_two_class_md1(buffer_kb):
    """Erlang(m) service → deterministic: extrapolating m = 16, 32 (error ∝ 1/m)
    lands on the level-crossing solution."""
    lt = float(md1.tcp_load(buffer_kb, 7.0))
    b = int(buffer_kb * 1000)
    exact = md1.solve(b, 0.05, lt)
    e16 = md1.erlang_losses(b, 0.05, lt, 16)
    e32 = md1.erlang_losses(b, 0.05, lt, 32)
    assert 2 * e32[0] - e16[0] == pytest.approx(exact.udp_loss, rel=0.01)
    assert 2 * e32[1] - e16[1] == pytest.approx(exact.tcp_blocking, rel=0.01)
    assert e16[0] > e32[0] > exact.udp_loss  # service variability only adds loss


def test_empty_probability_is_one_minus_carried_load():
    x, cdf = md1.workload_cdf(40, [(0.05, 1), (0.7 / 5, 5)])
    assert cdf[-1] == pytest.approx(1.0) and np.all(np.diff(cdf) >= -1e-15)
    res = md1.solve(8000, 0.05, 0.7)
    carried = 0.05 * (1 - res.udp_loss) + res.tcp_throughput
    assert cdf[0] == pytest.approx(1 - carried, rel=1e-7)


def test_inflection_at_8kb_like_the_mm1b_chain():
    b = np.arange(1.0, 31.0)
    det = np.array([r.udp_loss for r in md1.sweep(b)])
    exp = np.array([r.udp_loss for r in bulk_chain.sweep(b)])
    assert b[np.argmin(det)] == b[np.argmin(exp)] == 8.0
    assert np.all(np.diff(det[:8]) < 0) and np.all(np.diff(det[7:]) > 0)
    assert np.all(det < exp)
