"""Paper W Sec. III: synchronisation throughput loss (W-fig8) and convergence epochs (W-conv)."""

import numpy as np
import pytest

from pacesim.papers.w import sync_loss as sl

CD = float(sl.FIG8_BDP_PACKETS)


def _paper_steps(b, cd):
    """W's own quantities for Reno: T = w_max/2, T1 = (cd - B)/2,
    P1 = ((w_max/2 + cd)/2)·T1 (trapezoid), P2 = ((cd + w_max)/2)·(T - T1)."""
    w_max = cd + b
    t, t1 = w_max / 2, (cd - b) / 2
    p1 = (w_max / 2 + cd) / 2 * t1
    p2 = (cd + w_max) / 2 * (t - t1)
    return t1, p1, p2


def test_reno_is_25_percent_at_zero_buffer():
    assert sl.reno_loss(0.0, CD) == pytest.approx(0.25)
    assert sl.reno_loss_printed(0.0, CD) == pytest.approx(0.25)
    assert sl.sync_loss("reno", [0.0], CD)[0] == pytest.approx(0.25, abs=1e-3)


def test_reno_closed_form_follows_the_papers_steps():
    for b in np.linspace(0, CD, 9):
        t1, p1, p2 = _paper_steps(b, CD)
        assert 1 - (p1 + p2) / (CD * t1 + p2) == pytest.approx(float(sl.reno_loss(b, CD)), abs=1e-12)
        assert p2 == pytest.approx(CD * b + b * b / 2)  # W's P2, as printed


def test_printed_p1_and_formula_are_an_erratum():
    """W prints P1 = B²/8 + 3(cd)²/8 - cdB/4; the trapezoid gives -B²/8, and the
    printed loss stays at 1/12 with a buffer of one BDP, where Reno never
    under-uses the link."""
    b = 2000.0
    _, p1, _ = _paper_steps(b, CD)
    assert p1 == pytest.approx(3 * CD**2 / 8 - CD * b / 4 - b**2 / 8)
    assert p1 != pytest.approx(b**2 / 8 + 3 * CD**2 / 8 - CD * b / 4)
    assert sl.reno_loss_printed(CD, CD) == pytest.approx(1 / 12)
    assert sl.reno_loss(CD, CD) == 0.0
    assert sl.sync_loss("reno", [CD], CD)[0] == 0.0


def test_epoch_method_matches_reno_closed_form():
    b = np.linspace(0, CD, 21)
    assert sl.sync_loss("reno", b, CD) == pytest.approx(sl.reno_loss(b, CD), abs=1e-3)


def test_scalable_hand_value_at_zero_buffer():
    """w grows 1% per round from 0.875 cd: T1 = ln(8/7)/ln(1.01) rounds at mean
    0.125/ln(8/7) cd, then one loss round at cd."""
    t1 = np.log(8 / 7) / np.log(1.01)
    mean = 0.125 / np.log(8 / 7)
    approx = (1 - mean) * t1 / (t1 + 1)
    assert sl.sync_loss("scalable", [0.0], CD)[0] == pytest.approx(approx, abs=0.005)


def test_new_protocols_lose_far_less_than_reno():
    b = np.linspace(0, CD, 41)
    reno = sl.sync_loss("reno", b, CD)
    for name in ("scalable", "bic", "fast"):
        loss = sl.sync_loss(name, b, CD)
        assert np.all(loss >= 0) and np.all(loss <= 0.25 + 1e-12)
        assert np.all((loss[1:] < reno[1:] / 2) | (loss[1:] == 0)), name
    for name in ("reno", "scalable", "bic"):
        assert np.all(np.diff(sl.sync_loss(name, b, CD)) <= 1e-12)


def test_mimd_and_bic_stop_losing_once_the_decrease_stays_above_the_pipe():
    # (1 - 0.125)(cd + B) ≥ cd  ⇔  B ≥ cd/7
    edge = CD / 7
    for name in ("scalable", "bic"):
        assert sl.sync_loss(name, [edge * 0.9], CD)[0] > 0
        assert sl.sync_loss(name, [edge * 1.01], CD)[0] == 0


def test_fast_loses_only_when_the_buffer_cannot_hold_alpha():
    loss = sl.sync_loss("fast", [0.0, 150.0, 200.0, 5000.0], CD)
    assert loss[0] > 0.2 and loss[1] > 0
    assert loss[2] == loss[3] == 0.0
    assert sl.epoch_windows("fast", CD, 200.0) is None
    with pytest.raises(ValueError):
        sl.epoch_windows("vegas", CD, 0.0)


def _brute_force_epochs(r, cd=1000.0, b=0.0):
    fair = cd + b
    w, k = fair / (2 - r), 0
    while w < 0.95 * fair - 1e-9:
        w = w / 2 + fair / 2  # synchronised loss halves, then the window grows back
        k += 1
    return k


def test_convergence_epochs_eq5_matches_iterating_eq3():
    r = np.linspace(0, 1, 401)
    k = sl.convergence_epochs(r)
    assert list(k) == [_brute_force_epochs(x) for x in r]
    assert k.min() == 0 and k.max() == 4 and k[0] == 4
    w = sl.window_after(np.arange(6), 0.25, 1000.0, 0.0)
    assert w[0] == pytest.approx(1000 / 1.75)
    assert np.all(np.diff(w) > 0) and w[-1] < 1000


def test_convergence_time_example_from_the_paper():
    """W: c = 100 Mb/s, d = 120 ms, one flow out of slow start an RTT early:
    more than 2000 RTTs."""
    cd = sl.bdp_packets(100e6, 0.120)
    assert cd == pytest.approx(1000.0)
    assert sl.convergence_rtts(1 / 16, cd, 0.0) == pytest.approx(2000.0)
    assert sl.convergence_rtts(1 / 16, cd, 100.0) > 2000.0
