"""The rules that turn the papers' words into tests (`pacesim.reproduce.claims`), each on hand-computed cases with
its edges: "about" (and a table's rounding, and a gain read from a plot), "over/under", "nearly", "slightly", "an
order of magnitude", orderings (and near a ceiling), monotone curves, a location read from a plot, exact ranks."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pacesim.reproduce.claims import (Points, about, anomalous_region, beats, decades, dips_then_rises, gain_check,
                                      inflection_at, located, lowest_at, monotone, much_smaller, nearly, non_monotonic,
                                      over, printed, severity, slightly_beats, spacing, spearman, under, up_to)


def test_much_smaller_is_at_most_half():
    assert much_smaller(13.25, 26.5) and not much_smaller(13.3, 26.5) and much_smaller(0.0, 1e-9)


def test_about_is_five_percent_relative():
    assert about(88.36, 93) and about(97.64, 93) and not about(88.34, 93) and not about(97.66, 93)
    assert about(0.124, 0.13) and not about(0.12, 0.13)  # a gain of 12 % is not "+13 %"


def test_a_tables_number_is_met_within_its_own_rounding_where_wider():
    assert printed("5.33") == (5.33, 0.005) and printed("10") == (10.0, 0.5) and printed("47.57") == (47.57, 0.005)
    value, rounding = printed("2")  # Table II's queue at 4 Mb/s: 2 packets stands for 1.5 to 2.5
    assert about(2.5, value, rounding=rounding) and about(1.5, value, rounding=rounding)
    assert not about(2.51, value, rounding=rounding) and not about(2.1, value)  # 5 % alone: 1.9 to 2.1
    value, rounding = printed("0")  # zero: only the rounding can give a tolerance
    assert about(0.5, value, rounding=rounding) and not about(0.51, value, rounding=rounding) and not about(0.01, 0.0)
    value, rounding = printed("6.67")  # 5 % (0.33) is wider than the rounding (0.005)
    assert about(6.34, value, rounding=rounding) and not about(6.03, value, rounding=rounding)


def test_over_and_under_are_strict_bounds_without_tolerance():
    assert over(13.01, 13) and not over(13, 13) and not over(12.98, 13)
    assert under(4.99, 5) and not under(5, 5) and not under(5.01, 5)


def test_nearly_is_the_about_band_below_n_and_never_past_it():
    assert nearly(95, 100) and nearly(100, 100) and nearly(97, 100)
    assert not nearly(94.99, 100) and not nearly(100.01, 100)
    assert nearly(88.35, 93) and not nearly(93.71, 93)  # "nearly 93 Mb/s": 93.71 is past it


def test_slightly_is_an_ordering_by_less_than_ten_percent():
    assert slightly_beats(60.8, 56.9)  # paper Q Table III's own "slightly larger delay": +6.9 %
    assert slightly_beats(101.01, 100) and slightly_beats(109.99, 100)
    assert not slightly_beats(101, 100)  # within the ordering margin: no ordering at all
    assert not slightly_beats(110, 100)  # 10 %: no longer slight


def test_beats_needs_more_than_one_percent():
    assert beats(102, 100) and beats(101.01, 100) and not beats(101, 100) and not beats(100, 100)


def test_beats_near_a_ceiling_asks_only_not_to_be_beaten():
    # 99.2 % of the core is within 1 % of 100 %: no 1 % win is possible, so a higher value wins, a tie too
    assert beats(99.6, 99.2, ceiling=100) and not beats(99.6, 99.2)
    assert beats(99.0, 99.5, ceiling=100)  # 0.5 % below: within the margin, not beaten
    assert not beats(98.4, 99.5, ceiling=100)  # beaten by more than 1 %
    assert beats(99.0, 99.0, ceiling=100)  # 99.0: exactly 1 % below the ceiling, saturated
    assert not beats(99.85, 98.9, ceiling=100) and beats(99.9, 98.9, ceiling=100)  # 98.9: room, the usual 1 %
    assert not beats(91.5, 91, ceiling=100) and beats(92, 91, ceiling=100)


def test_monotone_needs_no_step_against_it_and_a_total_change():
    assert monotone([1, 2, 3], True) and monotone([1, 2, 1.99, 3], True)  # a 0.5 % step down: within the margin
    assert not monotone([1, 2, 1.9, 3], True)  # a 5 % step down
    assert not monotone([100, 100.5, 100.9], True)  # every step up, but 0.9 % in all: no rise
    assert monotone([100, 100.5, 101.1], True)
    assert monotone([99.9, 100.0, 99.5, 98.1], False)  # a flat ceiling falling 1.8 % (E-fig11 at 50 KB)
    assert not monotone([99.9, 101.0, 98.1], False)  # a 1.1 % step up
    assert monotone([1e-2, 1e-3, 0.0, 0.0], False) and not monotone([0.0, 0.0], False)  # to zero; never any


def test_orders_of_magnitude_are_read_to_the_nearest_decade():
    assert decades(3.17) == 1 and decades(10) == 1 and decades(31.6) == 1
    assert decades(3.16) == 0 and decades(31.7) == 2 and decades(38.6) == 2 and decades(100) == 2
    assert decades(float("inf")) == float("inf") and decades(0.0) == float("-inf")


def test_a_location_read_from_a_plot_is_met_within_the_grids_spacing():
    a = [1, 2, 4, 6, 8, 11, 15, 20, 30, 40, 50]  # A-fig21's grid: no point near 10 KB
    assert spacing(a, 10, 8) == 3 and located(a, 8, 10) and located(a, 11, 10)
    assert not located(a, 6, 10) and not located(a, 15, 10)
    e = [2, 3, 5, 8, 10, 15, 20, 30, 50]  # at a grid point, the step toward the measured one
    assert spacing(e, 20, 30) == 10 and spacing(e, 20, 15) == 5
    assert located(e, 30, 20) and located(e, 15, 20) and not located(e, 50, 20) and not located(e, 10, 20)
    red = [2, 3, 4, 5, 6, 8, 10]
    assert located(red, 5, 4) and located(red, 3, 4) and not located(red, 6, 4) and not located(red, 10, 4)
    assert spacing(e, 2, 3) == 1 and located(e, 3, 2) and not located(e, 5, 2)  # at an end, the one step there


def test_lowest_at_is_a_location_and_refuses_zero():
    grid = ["4KB", "8KB", "11KB", "15KB", "20KB"]
    assert lowest_at(grid, [3e-3, 2e-3, 1e-3, 2e-3, 3e-3], 11)[0]
    assert lowest_at(grid, [3e-3, 1e-3, 2e-3, 2e-3, 3e-3], 11)[0]  # 8 KB: within 11 - 8 = 3 KB
    assert not lowest_at(grid, [1e-3, 2e-3, 2e-3, 2e-3, 3e-3], 11)[0]  # 4 KB: 7 KB away
    assert not lowest_at(grid, [3e-3, 2e-3, 0.0, 2e-3, 3e-3], 11)[0]


def test_rank_correlation_is_exact():
    flows, hurst = [100, 500, 1000, 2000], [0.73, 0.52, 0.31, 0.46]  # A-fig8's stored numbers
    ranks = [pd.Series(v).rank().to_numpy() for v in (flows, hurst)]
    assert float(np.corrcoef(*ranks)[0, 1]) > -0.8  # the float rounding the old check failed on
    assert spearman(flows, hurst) == -0.8 and spearman(flows, hurst) <= -0.8
    assert spearman([1, 2, 3], [3, 2, 1]) == -1.0 and spearman([1, 2, 3], [1, 1, 2]) == 1.5 / 3 ** 0.5
    assert np.isnan(spearman([1, 2, 3], [5, 5, 5]))


def test_up_to_is_a_largest_value_about_n():
    assert up_to([2, 9.5, 3], 10) and not up_to([2, 5, 3], 10) and not up_to([2, 12, 3], 10)


def _gain(ratio: float, gain: float, word: str) -> bool:
    p = Points(pd.DataFrame([{"status": "ok", "core_utilisation": 1.0, "x": 1.0}]))
    return gain_check(lambda _: 100.0, lambda _: 100.0 * ratio, gain, "g", word)(p)[0]


def test_a_gain_read_from_a_plot_is_about_by_its_ratio():
    # "30 % more": the ratio 1.3 within 5 %, 1.235 to 1.365 (the gain itself within 5 % was 28.5 to 31.5 %)
    assert _gain(1.236, 0.3, "about") and _gain(1.364, 0.3, "about") and _gain(1.25, 0.3, "about")
    assert not _gain(1.234, 0.3, "about") and not _gain(1.366, 0.3, "about")
    # "nearly 100 %": the ratio 1.9 to 2, never past 2
    assert _gain(1.9, 1.0, "nearly") and _gain(2.0, 1.0, "nearly") and _gain(1.92, 1.0, "nearly")
    assert not _gain(1.89, 1.0, "nearly") and not _gain(2.02, 1.0, "nearly")
    # "by over 13 %": the gain strictly past 13 %
    assert _gain(1.1301, 0.13, "over") and not _gain(1.1298, 0.13, "over")


def test_non_monotonic_needs_a_rise_and_a_fall_beyond_noise():
    # Paper E Sec 5.1: "the loss rate is non-monotonic in buffer size": either order counts.
    assert non_monotonic([1e-4, 2e-2, 1.6e-2])  # rises, then falls
    assert non_monotonic([3e-3, 1e-3, 2e-3])  # falls, then rises
    assert non_monotonic([0.0, 0.0, 1e-2, 5e-3])  # from zero
    assert not non_monotonic([1e-4, 1e-3, 2e-2])  # only rises
    assert not non_monotonic([1e-4, 2e-2, 1.8e-2])  # falls by 10 %: noise


def test_the_anomaly_is_a_region_where_no_step_falls_and_loss_gains_over_20_percent():
    # Paper A Sec I: "a certain continuous region of buffer sizes [...] wherein [...] packet loss [...] increases
    # as the buffer size increases".
    assert anomalous_region([63.5, 51.8, 52.0, 52.6, 54.9, 62.8, 50.3]) == (1, 5)  # +21 % from 51.8
    assert anomalous_region([10.0, 10.5, 10.4, 12.1]) == (0, 3)  # a step down by under 1 % is no fall
    assert anomalous_region([10.0, 11.5, 11.0, 12.1]) is None  # each run stays within 20 %
    assert anomalous_region([0.0, 1.0, 1.3]) == (1, 2)  # from zero nothing rises by a ratio
    assert anomalous_region([3.0, 2.0, 1.0]) is None
    # Of two regions, the one rising most: x2 from 1.0 before x3 from 0.5.
    assert anomalous_region([1.0, 2.0, 0.5, 1.5, 1.0]) == (2, 3)
    assert severity([1.0, 2.0, 0.5, 1.5, 1.0]) == 3.0 and severity([3.0, 2.0, 1.0]) == 1.0


def test_the_inflection_is_where_the_anomaly_begins_located_within_the_grids_spacing():
    # Paper A Sec VI: "the inflection point, i.e., the point at which UDP packet loss begins to increase".
    grid = ["1KB", "4KB", "8KB", "11KB", "15KB", "30KB"]
    assert inflection_at(grid, [5e-3, 2e-3, 1e-3, 2e-3, 3e-3, 3e-3], 10)[0]  # begins at 8 KB, the step 8 -> 11
    assert not inflection_at(grid, [5e-3, 1e-3, 2e-3, 2e-3, 3e-3, 3e-3], 10)[0]  # begins at 4 KB
    # Nil at the smallest buffers, then rising from the first loss (8 KB): the same region, not a minimum at 1 KB.
    assert inflection_at(grid, [0.0, 0.0, 1e-5, 1e-3, 2e-3, 2e-3], 10)[0]
    ok, said = inflection_at(grid, [3e-3, 2e-3, 1e-3, 1e-3, 1e-3, 1e-3], 10)
    assert not ok and said.startswith("no inflection")


def test_dips_then_rises_refuses_a_zero_loss_inner_point_and_monotone_curves():
    assert dips_then_rises([3e-3, 1e-3, 2e-3])
    assert not dips_then_rises([3e-3, 0.0, 2e-3])
    assert not dips_then_rises([3e-3, 2e-3, 1e-3])
    assert not dips_then_rises([3e-3, 1e-3, 1.1e-3])  # within 20 %: noise
