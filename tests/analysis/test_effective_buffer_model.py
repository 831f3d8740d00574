"""Paper A Sec. III, eq. 2: effective buffers for UDP (A-fig6, A-fig16)."""

import numpy as np
import pytest

from pacesim.papers.a import effective_buffer as eb


def test_hand_value_and_components():
    # f = 0.05, B* = 7 KB, B = 7 KB: 0.35 + 0.95·7/e
    assert eb.effective_buffer(7.0, 0.05, 7.0) == pytest.approx(0.35 + 0.95 * 7 / np.e)
    b = np.linspace(0, 50, 501)
    assert eb.effective_buffer(b, 0.05, 7.0) == pytest.approx(eb.fair_share(b, 0.05) + eb.time_share(b, 0.05, 7.0))
    assert eb.effective_buffer(0.0, 0.05, 7.0) == 0.0


def test_time_share_peaks_at_bstar():
    b = np.linspace(0, 50, 5001)
    assert b[np.argmax(eb.time_share(b, 0.05, 7.0))] == pytest.approx(7.0, abs=0.01)


def test_fig6_anomalous_region_is_where_the_total_falls():
    lo, hi = eb.anomalous_region(0.05, 7.0)
    assert 7.0 < lo < 10.0 < 25.0 < hi < 35.0
    b = np.linspace(0.01, 50, 50000)
    falling = np.diff(eb.effective_buffer(b, 0.05, 7.0)) < 0
    mids = (b[1:] + b[:-1]) / 2
    assert mids[falling].min() == pytest.approx(lo, abs=0.01)
    assert mids[falling].max() == pytest.approx(hi, abs=0.01)
    assert np.all(falling[(mids > lo + 0.01) & (mids < hi - 0.01)])


def test_region_scales_with_bstar_and_needs_small_f():
    lo7, hi7 = eb.anomalous_region(0.05, 7.0)
    lo14, hi14 = eb.anomalous_region(0.05, 14.0)
    assert (lo14, hi14) == pytest.approx((2 * lo7, 2 * hi7))
    thr = eb.anomaly_threshold()
    assert thr == pytest.approx(1 / (1 + np.e**2))
    assert eb.anomalous_region(thr * 0.999, 7.0) is not None
    assert eb.anomalous_region(thr * 1.001, 7.0) is None
    with pytest.raises(ValueError):
        eb.anomalous_region(1.0, 7.0)


def test_fig16_high_udp_share_is_monotone_and_nearly_linear():
    b = np.linspace(0, 50, 501)
    high = eb.effective_buffer(b, 0.8, 7.0)
    low = eb.effective_buffer(b, 0.1, 7.0)
    assert np.all(np.diff(high) > 0)
    assert not np.all(np.diff(low) > 0)

    def curvature(y):  # worst deviation from a fitted line, relative to the range
        return np.abs(y - np.polyval(np.polyfit(b, y, 1), b)).max() / np.ptp(y)

    assert curvature(high) < 0.02 < curvature(low)
