"""Paper Q Theorem 2 (eq. 6) against the engine: a Markov ON-OFF UDP source
through one QLBP pacer (q-tandem), the rate at the pacer's output binned at
1 ms over 1800 s (Q Sec. IV-C's window), packets of 25 B (see `paced_onoff`
on why). Tolerance: 4 Bartlett standard errors at every lag (1 SE is about
1.3 % of C_μμ(0) here; over 10 seeds the largest |z| seen was 2.7, the
packet-level bias at most 1.2 SE; α off by 25 % is at least 6 SE off)."""

from dataclasses import replace

import numpy as np
import pytest

from pacesim import Scenario
from pacesim.papers.q import paced_onoff, qlbp

LAGS = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2]
BASE = paced_onoff.PacedOnOff()  # Q-fig15's source and pacer, Qmax 3330 x 25 B: α = 15/s = r1 + r2


def test_autocov_and_bartlett_by_hand():
    # x = 1..4: deviations -1.5 -0.5 0.5 1.5; lag 0: 5/4; lag 1: (0.75 - 0.25 + 0.75)/4.
    assert paced_onoff.autocov([1, 2, 3, 4], [0, 1]) == pytest.approx([1.25, 0.3125])
    # White noise of variance 1: var ĉ_0 = 2/n, var ĉ_k = 1/n.
    white = lambda m: np.where(m == 0, 1.0, 0.0)  # noqa: E731
    assert paced_onoff.bartlett_se(white, [0, 3], 100, 10) == pytest.approx([np.sqrt(0.02), 0.1])
    # 4 bins summed in twos: [3, 7] and [1, 1] -> means 1.5, 3.5 then 0.5, 0.5.
    assert paced_onoff.coarse_cov(np.array([1.0, 2.0, 3.0, 4.0]), 2) == pytest.approx(1.0 / 2.5)


def test_the_run_is_q_fig15_with_one_pacer_and_assumption_1():
    s = Scenario.model_validate(BASE.scenario())
    assert s.topology.kind == "q-tandem" and s.topology.pacers == 1
    assert s.pacing.mu_max == s.core_values().rate == 10_000_000  # μmax = C
    assert s.pacing.mu_min == 10_000 and s.pacing.q_max == 3330
    assert s.traffic.udp[0].on == 100_000_000 and s.traffic.udp[0].off == 200_000_000
    assert s.burstiness.series and s.burstiness.bin == 1_000_000
    assert BASE.alpha == pytest.approx(BASE.r1 + BASE.r2, rel=1e-12)


def _agrees(run: paced_onoff.PacedOnOff, rate: np.ndarray) -> paced_onoff.Check:
    c = paced_onoff.check(run, LAGS, rate)
    assert np.abs(c.z).max() < 4, (c.empirical, c.model, c.z)
    assert abs(c.mean_mbps - qlbp.onoff_mean(run.peak_mbps, run.r1, run.r2)) < 4 * paced_onoff.mean_se(run)
    return c


def _wrong_alpha_fails(run: paced_onoff.PacedOnOff, rate: np.ndarray, factor: float) -> None:
    """The same data against eq. 6 with α `factor` times larger or smaller misses by more than 4 SE."""
    for q in (run.q_max_pkts / factor, run.q_max_pkts * factor):
        wrong = paced_onoff.check(replace(run, q_max_pkts=q), LAGS, rate)
        assert np.abs(wrong.z).max() > 4, (q, wrong.z)


def test_eq6_alpha_equal_to_r1_plus_r2_against_the_engine():
    rate = BASE.rate()
    assert len(rate) == 1_800_000
    c = _agrees(BASE, rate)
    assert c.model == pytest.approx(BASE.model_autocov(np.asarray(LAGS)))
    assert c.model[0] == pytest.approx(qlbp.onoff_autocov(0.0, 2.0, 5.0, 10.0) / 2 * (1 + 15 * 0.005) * np.exp(-0.075))
    _wrong_alpha_fails(BASE, rate, 1.25)


def test_eq6_general_alpha_and_the_unpaced_input_against_the_engine():
    run = replace(BASE, q_max_pkts=1600)  # Qmax 40 KB: α = 31.2/s
    rate = run.rate()
    _agrees(run, rate)
    # eq. 6 changes more slowly with α above r1 + r2: over seeds 1-8 a 25 % error
    # in α is 3.2-5.6 SE off, a 50 % one at least 7.3 (the right α at most 2.6).
    _wrong_alpha_fails(run, rate, 1.5)
    # The source itself (same seed, no pacer) follows C_λλ, and pacing lowers the short-lag covariance.
    source = replace(run, paced=False)
    x = source.rate()
    c_in = _agrees(source, x)
    assert paced_onoff.autocov(rate, [5])[0] < c_in.empirical[0]


def test_a_run_of_a_million_seconds_or_a_terabit_is_written_in_units_the_reader_takes():
    # review-hostile33k M2: "%g" wrote 1e6 s as "1.0001e+06s" and 1e6 Mb/s as "1e+09kbps", refused as unknown units.
    from pacesim.scenario import parse_scenario

    s = parse_scenario(paced_onoff.PacedOnOff(seconds=999_000.0, peak_mbps=1e6).scenario(), engine=False)
    assert s.duration == 999_100 * 10**9 and s.traffic.udp[0].rate == 10**12


def test_a_simulated_comparison_too_short_to_measure_names_sim_seconds():
    # review-hostile33k M3: sim_seconds = 0.001 ended in numpy's "zero-size array to reduction operation".
    from pacesim.papers import models
    from pacesim.papers.q import overlays

    params = {**models()["q-thm2"].defaults, "sim_seconds": 0.001}
    with pytest.raises(ValueError, match="sim_seconds: 0.001 s measures too little"):
        overlays.q_thm2(params, [(10.0, "Qmax 10")])
