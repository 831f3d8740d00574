"""QLBP (paper Q Sec. III): Theorem 1's delay and Theorem 2's auto-covariance.

Theorem 2 is checked against a small discrete-time simulation written here:
a Markov ON-OFF source fed through the QLBP rate law, independently of the
closed form."""

import numpy as np
import pytest

from pacesim.papers.q import qlbp

# Q-tab2: links 15 Mb/s, μmax 10 Mb/s, μmin 2 Mb/s, Qmax 10 packets of 1000 B.
PKT_MB = 8e-3
TAB2 = dict(mu_max=10.0, mu_min=2.0, q_max=10 * PKT_MB, link_rate=15.0)
TAB2_RATES = np.array([1, 2, 4, 6, 8, 10, 12, 15], dtype=float)
TAB2_QUEUE_PKTS = np.array([0, 0, 2, 4, 7, 9, 10, 10], dtype=float)  # paper Q, Table II
TAB2_DELAY_MS = np.array([0, 0, 4, 5.33, 7, 7.2, 6.67, 5.3])


def test_rate_law_pieces():
    mu = qlbp.rate([0.0, 0.04, 0.079999, 0.08, 1.0], **TAB2)
    assert mu[0] == pytest.approx(2.0)
    assert mu[1] == pytest.approx(2.0 + 8.0 / 0.08 * 0.04)
    assert mu[2] == pytest.approx(10.0, rel=1e-4)
    assert mu[3] == mu[4] == 15.0
    assert qlbp.response_constant(10.0, 2.0, 0.08) == pytest.approx(100.0)


def test_theorem1_hand_values():
    d_ms = qlbp.pacing_delay(TAB2_RATES, **TAB2) * 1000
    # λ ≤ μmin: 0; μmin < λ ≤ μmax: Qmax(λ-μmin)/((μmax-μmin)λ); μmax < λ ≤ C: Qmax/λ
    expect = [0, 0, 80 * 2 / 8 / 4, 80 * 4 / 8 / 6, 80 * 6 / 8 / 8, 8.0, 80 / 12, 80 / 15]
    assert d_ms == pytest.approx(expect)
    assert qlbp.pacing_delay(16.0, **TAB2) == 0.0  # above C both queues overflow alike


def test_theorem1_bound_is_reached_at_mu_max_and_never_exceeded():
    bound = qlbp.delay_bound(10.0, 10 * PKT_MB)
    assert bound == pytest.approx(8e-3)
    lam = np.linspace(0.01, 20, 4001)
    d = qlbp.pacing_delay(lam, **TAB2)
    assert d.max() <= bound * (1 + 1e-12)
    assert lam[np.argmax(d)] == pytest.approx(10.0, abs=0.01)


def test_theorem1_against_paper_table2():
    """Q-tab2 (ns-2, packets): identical above μmax; below it the packet queue
    sits within one packet under the fluid q*; all delays under 8 ms."""
    q_fluid = qlbp.steady_queue(TAB2_RATES, **TAB2) / PKT_MB
    d_fluid = qlbp.pacing_delay(TAB2_RATES, **TAB2) * 1000
    above = TAB2_RATES > 10
    assert d_fluid[above] == pytest.approx(TAB2_DELAY_MS[above], abs=0.05)  # the table rounds 5.33 to 5.3
    assert q_fluid[above] == pytest.approx(TAB2_QUEUE_PKTS[above])
    gap = q_fluid - TAB2_QUEUE_PKTS
    assert np.all((gap >= 0) & (gap <= 1))
    assert np.all(TAB2_DELAY_MS <= 8.0)


H, R1, R2, LINK = 2.0, 5.0, 10.0, 10.0  # Q-fig15's source: peak 2 Mb/s, ON 100 ms, OFF 200 ms


def test_eq6_limits_and_cases():
    g = R1 + R2
    var_in = qlbp.onoff_autocov(0.0, H, R1, R2)
    assert var_in == pytest.approx(H**2 * R1 * R2 / g**2)
    for alpha in (5.0, 40.0, 300.0):
        # C_μμ(0) = α/(α + r1 + r2) C_λλ(0): the variance E[μ²] - E[μ]² of Q App. B
        assert qlbp.paced_autocov(0.0, H, R1, R2, alpha) == pytest.approx(alpha / (alpha + g) * var_in)
    tau = np.linspace(0, 1, 11)
    special = qlbp.paced_autocov(tau, H, R1, R2, g)
    assert special == pytest.approx(var_in / 2 * (1 + g * tau) * np.exp(-g * tau))
    for eps in (1e-4, -1e-4):  # the α = r1 + r2 case is the limit of the general one
        assert qlbp.paced_autocov(tau, H, R1, R2, g * (1 + eps)) == pytest.approx(special, rel=1e-3, abs=1e-9)
    # a very fast pacer (α → ∞) passes the input through
    assert qlbp.paced_autocov(tau, H, R1, R2, 1e7) == pytest.approx(qlbp.onoff_autocov(tau, H, R1, R2), rel=1e-4, abs=1e-9)


def test_paced_covariance_lower_at_short_lags_higher_at_long():
    """Q's remark after Theorem 2: burstiness falls at short time scales; the
    price is a slower exponential decay."""
    alpha = 20.0
    short, long_ = np.array([0.0, 0.01, 0.05]), np.array([0.5, 1.0])
    assert np.all(qlbp.paced_autocov(short, H, R1, R2, alpha) < qlbp.onoff_autocov(short, H, R1, R2))
    assert np.all(qlbp.paced_autocov(long_, H, R1, R2, alpha) > qlbp.onoff_autocov(long_, H, R1, R2))


def _simulate(alphas, dt, steps, reps, seed):
    """ON-OFF (discrete-time Markov, switching probabilities 1 - e^(-r dt))
    through QLBP's rate law with μmin = 0, μmax = C (Assumption 1): per step
    q ← max(q + (λ - μ(q)) dt, 0); the output is what left the queue."""
    rng = np.random.default_rng(seed)
    cols = len(alphas) * reps
    q_max = np.repeat(LINK / np.asarray(alphas), reps)
    on = rng.random(reps) < R1 / (R1 + R2)
    q = qlbp.onoff_mean(H, R1, R2) / np.repeat(np.asarray(alphas), reps)
    p_on, p_off = -np.expm1(-R1 * dt), -np.expm1(-R2 * dt)
    lam_out = np.empty((steps, reps))
    mu_out = np.empty((steps, cols))
    for n in range(steps):
        lam = H * on
        lam_all = np.tile(lam, len(alphas))
        mu = np.where(q < q_max, LINK / q_max * q, LINK)
        q_next = np.maximum(q + (lam_all - mu) * dt, 0.0)
        mu_out[n] = lam_all + (q - q_next) / dt
        lam_out[n] = lam
        q = q_next
        u = rng.random(reps)
        on = np.where(on, u >= p_off, u < p_on)
    return lam_out, mu_out


def _autocov(x, mean, lags):
    x = x - mean
    return np.array([np.mean(x[: len(x) - k] * x[k:]) for k in lags])


def test_eq6_matches_simulated_onoff_through_qlbp():
    dt, warm = 5e-4, 4000
    alphas = (40.0, R1 + R2)  # the general case and the α = r1 + r2 case
    reps = 100
    lam, mu = _simulate(alphas, dt, 44000, reps, seed=7)
    lam, mu = lam[warm:], mu[warm:]
    mean = qlbp.onoff_mean(H, R1, R2)
    lags = np.array([0, 20, 60, 100, 200, 400])
    tau = lags * dt
    emp_in = _autocov(lam, mean, lags)
    th_in = qlbp.onoff_autocov(tau, H, R1, R2)
    assert np.abs(emp_in - th_in).max() < 0.04 * th_in[0]
    for i, alpha in enumerate(alphas):
        out = mu[:, i * reps : (i + 1) * reps]
        assert out.mean() == pytest.approx(mean, rel=0.03)  # pacing keeps the mean rate
        emp = _autocov(out, mean, lags)
        th = qlbp.paced_autocov(tau, H, R1, R2, alpha)
        assert np.abs(emp - th).max() < 0.04 * th[0], (alpha, emp, th)
        assert emp[0] / emp_in[0] == pytest.approx(alpha / (alpha + R1 + R2), rel=0.05)


def test_binned_variance_of_white_limit_and_of_exponential():
    """(2/T²)∫(T-τ)C: constant C gives C; e^(-aτ) gives 2(aT - 1 + e^(-aT))/(aT)²."""
    assert qlbp.binned_variance(lambda t: 3.0, 0.05) == pytest.approx(3.0)
    a, width = 15.0, 0.05
    x = a * width
    assert qlbp.binned_variance(lambda t: np.exp(-a * t), width) == pytest.approx(2 * (x - 1 + np.exp(-x)) / x**2)
