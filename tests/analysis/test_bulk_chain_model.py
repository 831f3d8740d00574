"""Paper A Sec. IV: the M/M/1/B chain with Poisson UDP and bulk TCP arrivals."""

import numpy as np
import pytest

from pacesim.papers.a import bulk_chain as bc


def _mm1k(rho, k):
    """Textbook M/M/1/K: p_n = (1-ρ)ρ^n/(1-ρ^(K+1)), uniform at ρ = 1."""
    n = np.arange(k + 1)
    if rho == 1.0:
        return np.full(k + 1, 1 / (k + 1))
    return (1 - rho) * rho**n / (1 - rho ** (k + 1))


def test_paper_3kb_example_against_hand_built_balance_equations():
    """A eqs. 4-9: B = 3 KB, 16 states; the dense system written out equation by equation."""
    lu, mu = 0.05, 1.0
    lt = 0.94 / 5 * (1 - np.exp(-3 / 7))
    a = np.zeros((16, 16))  # row i: coefficients of balance equation i (inflow - outflow = 0)
    a[0, 0], a[0, 1] = -(lu + lt), mu  # (5)
    for i in range(1, 5):  # (6)
        a[i, i], a[i, i - 1], a[i, i + 1] = -(lu + lt + mu), lu, mu
    for i in range(5, 11):  # (7)
        a[i, i], a[i, i - 1], a[i, i + 1], a[i, i - 5] = -(lu + lt + mu), lu, mu, lt
    for i in range(11, 15):  # (8)
        a[i, i], a[i, i - 1], a[i, i + 1], a[i, i - 5] = -(lu + mu), lu, mu, lt
    a[15, 15], a[15, 14], a[15, 10] = -mu, lu, lt  # (9)
    a[0, :] = 1.0  # one balance equation is redundant: replace it by Σp = 1
    rhs = np.zeros(16)
    rhs[0] = 1.0
    p_hand = np.linalg.solve(a, rhs)
    res = bc.solve(3000, 200, 1000, lu, lt)
    assert res.n_max + 1 == 16
    assert res.p == pytest.approx(p_hand, rel=1e-10, abs=1e-15)
    assert res.udp_loss == pytest.approx(p_hand[15])
    assert res.tcp_blocking == pytest.approx(p_hand[11:].sum())


def test_generator_rows_sum_to_zero_and_probabilities_to_one():
    q = bc.generator(40, [(0.05, 1), (0.15, 5)], 1.0)
    assert np.abs(np.asarray(q.sum(axis=1))).max() < 1e-14
    p = bc.stationary(q)
    assert p.sum() == pytest.approx(1.0) and np.all(p >= 0)
    assert np.abs(p @ q.toarray()).max() < 1e-14


@pytest.mark.parametrize("rho,k", [(0.3, 5), (0.9, 15), (1.0, 10), (1.7, 8)])
def test_without_tcp_it_is_the_textbook_mm1k(rho, k):
    res = bc.solve(k * 200, 200, 1000, rho, 0.0)
    assert res.p == pytest.approx(_mm1k(rho, k), rel=1e-10)
    assert res.udp_loss == pytest.approx(_mm1k(rho, k)[-1], rel=1e-10)


def test_bulk_size_one_is_single_arrivals():
    """UDP and TCP of equal size: an M/M/1/K at the summed rate."""
    res = bc.solve(12000, 1000, 1000, 0.05, 0.8)
    assert res.bulk == 1
    assert res.p == pytest.approx(_mm1k(0.85, 12), rel=1e-10)
    assert res.udp_loss == pytest.approx(res.tcp_blocking)


def test_loss_rises_as_the_buffer_shrinks_without_tcp():
    losses = [bc.solve(b, 200, 1000, 0.9, 0.0).udp_loss for b in range(200, 20001, 200)]
    assert np.all(np.diff(losses) < 0)


def test_sizes_must_divide():
    with pytest.raises(ValueError):
        bc.solve(3000, 300, 1000, 0.05, 0.1)


def test_fig10_udp_loss_falls_to_8kb_then_rises_to_30kb():
    b = np.arange(1.0, 31.0)
    loss = np.array([r.udp_loss for r in bc.sweep(b)])
    assert np.all(np.diff(loss[:8]) < 0)  # 1..8 KB
    assert np.all(np.diff(loss[7:]) > 0)  # 8..30 KB
    assert b[np.argmin(loss)] == 8.0


def test_fig10_tcp_rate_saturates_at_94_percent():
    res = bc.sweep([1.0, 7.0, 50.0])
    assert res[1].tcp_offered == pytest.approx(0.94 * (1 - np.exp(-1)))
    assert res[2].tcp_offered == pytest.approx(0.94, abs=0.001)
    for r in res:
        assert r.tcp_throughput <= r.tcp_offered
    assert res[2].tcp_throughput > 0.92


def test_fig18_larger_bstar_needs_more_buffer():
    b = np.arange(1.0, 51.0)
    need = []
    for bstar in (1.0, 4.0, 7.0, 10.0, 14.0):
        thr = np.array([r.tcp_throughput for r in bc.sweep(b, bstar)])
        need.append(b[np.argmax(thr >= 0.9 * 0.94)])
    assert np.all(np.diff(need) > 0)


def test_fig19_inflection_moves_right_and_anomaly_grows_with_bstar():
    b = np.arange(1.0, 51.0)
    mins, severity = [], []
    for bstar in (7.0, 10.0, 14.0):
        loss = np.array([r.udp_loss for r in bc.sweep(b, bstar)])
        i = int(np.argmin(loss[b <= 30]))
        mins.append(b[i])
        severity.append(loss[i:].max() / loss[i])
    assert mins == sorted(mins) and mins[0] < mins[-1]
    assert severity == sorted(severity)


def test_fig22_bigger_udp_packets_lose_more_and_inflection_near_8kb():
    b = np.arange(1.0, 51.0)
    curves = {}
    for k in (25, 10, 5, 2, 1):
        curves[k] = np.array([r.udp_loss for r in bc.sweep(b, 7.0, 1000 // k, 1000)])
    for small, big in ((25, 10), (10, 5), (5, 2), (2, 1)):
        assert np.all(curves[small][4:] < curves[big][4:])  # 5-50 KB
    for k in (25, 10, 5, 2, 1):
        assert 7.0 <= b[np.argmin(curves[k][b <= 30])] <= 8.0
    for k in (10, 5, 2, 1):  # "losses fall again beyond 30 kB"
        assert curves[k][-1] < curves[k][b == 30][0]
    # the anomaly is mildest for equal sizes and grows with the size ratio
    rise = [curves[k][b <= 30].max() / curves[k][b <= 30].min() for k in (1, 2, 5)]
    assert rise == sorted(rise)
