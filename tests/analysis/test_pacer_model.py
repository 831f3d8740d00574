"""Paper E Sec. 4: pacer burstiness, loss bound, throughput measure, load model, B* fit."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.stats import poisson

from pacesim.papers.e import pacer


def test_burstiness_hand_values():
    assert pacer.burstiness(0.5, 1.0) == pytest.approx(1.0)
    assert pacer.burstiness(0.9, 50.0) == pytest.approx(1 / np.sqrt(90))
    # the same delay counted in 0.08 ms packet times is 12.5 times as many slots
    assert pacer.burstiness(0.9, 1.0, slot=0.08) == pytest.approx(1 / np.sqrt(2 * 0.9 * 12.5))


@pytest.mark.parametrize("lam,d", [(0.5, 5), (0.9, 20), (0.99, 100), (0.3, 2)])
def test_loss_bound_is_the_chernoff_bound_on_poisson_arrivals(lam, d):
    """Eq. 3 is min over θ of E[e^(θN)] e^(-θk) for N ~ Poisson(2λd), k = 2d,
    and bounds P(N ≥ 2d)."""
    k, mean = 2 * d, 2 * lam * d
    best = minimize_scalar(lambda th: mean * np.expm1(th) - th * k, bounds=(0, 5), method="bounded",
                           options={"xatol": 1e-12})
    bound = pacer.loss_bound(lam, d)
    assert bound == pytest.approx(np.exp(best.fun), rel=1e-6)
    assert bound >= poisson.sf(k - 1, mean)


def test_loss_bound_falls_with_delay_and_is_one_without_pacing():
    d = np.linspace(0, 100, 201)
    lb = pacer.loss_bound(0.9, d)
    assert lb[0] == 1.0
    assert np.all(np.diff(lb) < 0)
    assert pacer.loss_bound(1.0, 50.0) == 1.0  # at full load pacing removes nothing
    for bad in (0.0, 1.2):
        with pytest.raises(ValueError):
            pacer.loss_bound(bad, 1.0)


def test_throughput_measure_hand_value():
    # λ = 0.9: -ln(λe^(1-λ)) = ln(1/0.9) - 0.1 = 0.00536052; T(100)/T(0) = e^0.536052 · 200/300
    t = pacer.throughput_measure(np.array([0.0, 100.0]), 0.9, 200.0)
    assert t[0] == pytest.approx(1 / 200)
    assert t[1] / t[0] == pytest.approx(np.exp(100 * (np.log(1 / 0.9) - 0.1)) * 200 / 300, rel=1e-12)
    assert t[1] / t[0] == pytest.approx(1.1395, abs=1e-4)


def test_fig10_shapes_with_d_in_ms():
    """E Fig. 10: light load rising and convex, heavy load falling."""
    d = np.linspace(0, 100, 101)
    light = pacer.throughput_measure(d, 0.9, 200.0)
    heavy = pacer.throughput_measure(d, 0.999, 200.0)
    assert np.all(np.diff(light) > 0) and np.all(np.diff(light, 2) > 0)
    assert np.all(np.diff(heavy) < 0)


def test_units_of_d_decide_the_shape():
    """With d in seconds (RTT0 = 0.2 s) the light-load curve falls: only a
    unit of about a millisecond or smaller reproduces Fig. 10(a)."""
    d_s = np.linspace(0, 0.1, 101)
    assert np.all(np.diff(pacer.throughput_measure(d_s, 0.9, 0.2)) < 0)
    d_ms = np.linspace(0, 100, 101)
    assert np.all(np.diff(pacer.throughput_measure(d_ms, 0.9, 200.0, slot=0.08)) > 0)


@pytest.mark.parametrize("slot", [1.0, 0.08])
def test_load_regimes_are_the_shape_boundaries(slot):
    r = pacer.load_regimes(200.0, 100.0, slot)
    assert 0 < r.rising_below < r.falling_above < 1
    d = np.linspace(0, 100, 2001)

    def slope0(lam):  # d ln T / dd at d = 0
        return -np.log(lam * np.exp(1 - lam)) / slot - 1 / 200.0

    assert slope0(r.rising_below) == pytest.approx(0, abs=1e-9)
    assert np.all(np.diff(pacer.throughput_measure(d, r.rising_below * 0.999, 200.0, slot)) > 0)
    assert np.all(np.diff(pacer.throughput_measure(d, r.falling_above * 1.0005, 200.0, slot)) < 0)
    mid = pacer.throughput_measure(d, (r.rising_below + r.falling_above) / 2, 200.0, slot)
    assert 0 < np.argmin(mid) < len(d) - 1


def test_load_model_matches_quoted_loads():
    """E Sec. 4: ρ ≈ 90% at 5 KB; over 99.9% at 50 KB for B* in 2-10 KB."""
    bstar = 5 / np.log(10)
    assert pacer.load_from_buffer(5.0, bstar) == pytest.approx(0.9)
    assert pacer.load_from_buffer(0.0, 7.0) == 0.0
    assert pacer.load_from_buffer(50.0, 7.0) > 0.999
    assert pacer.load_from_buffer(50.0, bstar) > 0.999


def test_fit_bstar_recovers_exact_exponential():
    b = np.arange(5.0, 51.0, 5.0)
    fit = pacer.fit_bstar(b, 0.8 * np.exp(-b / 7.0))
    assert fit.bstar == pytest.approx(7.0, rel=1e-12)
    assert fit.intercept == pytest.approx(np.log(0.8))
    assert fit.r_squared == pytest.approx(1.0)
    origin = pacer.fit_bstar(b, np.exp(-b / 4.0), through_origin=True)
    assert origin.bstar == pytest.approx(4.0, rel=1e-12) and origin.intercept == 0.0
    assert fit.empty_prob(10.0) == pytest.approx(0.8 * np.exp(-10 / 7))


def test_fit_bstar_on_noisy_synthetic_curve():
    rng = np.random.default_rng(3)
    b = np.arange(5.0, 51.0, 1.0)
    p = np.exp(-0.1 - b / 7.0) * np.exp(rng.normal(0, 0.1, b.size))
    fit = pacer.fit_bstar(b, p)
    assert fit.bstar == pytest.approx(7.0, rel=0.05)
    assert fit.r_squared > 0.99


def test_fit_bstar_refuses_bad_input():
    with pytest.raises(ValueError):
        pacer.fit_bstar([1.0, 2.0], [0.5, 0.0])
    with pytest.raises(ValueError):
        pacer.fit_bstar([1.0, 2.0], [0.2, 0.5])
    with pytest.raises(ValueError):
        pacer.fit_bstar([1.0], [0.5])
