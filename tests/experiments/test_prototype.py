"""Paper Q's prototype experiments (Q-fig9/10, Q-fig11/12): the packet times read from the links' arrival series,
the burst and rate checks on hand-made departures, and the runs themselves against times worked by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pacesim
from pacesim.papers.q import figures as q
from pacesim.reproduce.claims import Points

STEADY = q.steady_s()
OK = pd.DataFrame({"status": ["ok"], "core_utilisation": [1.0]})  # one successful point; the claims read tables


def series(counts) -> pd.DataFrame:
    """A series table of `arrivals` counts: (entity, time_s, count) triples, one run (pacing none, seed 1)."""
    return pd.DataFrame([{"time_s": t, "entity": e, "series": "arrivals", "value": float(n),
                          "pacing.scheme": "none", "seed": 1} for e, t, n in counts])


def test_packet_times_expand_counts_and_number_from_the_steady_state():
    rows = {"series": series([("in", STEADY - 1, 1), ("in", STEADY, 2), ("core", STEADY + 0.5, 1),
                              ("core", STEADY + 0.7, 2), ("other", STEADY, 5)])}
    t = q.packet_times(rows)
    # Before the steady state nothing; two packets of one instant are two rows; `other` is no pacer's link.
    assert list(zip(t["place"], t["packet"])) == [
        ("arrival", 1), ("arrival", 2), ("departure", 1), ("departure", 2), ("departure", 3)]
    assert t["time_s"].to_numpy() - STEADY == pytest.approx([0, 0, 0.5, 0.7, 0.7])


def test_densest_share_reads_each_rtt_as_a_circle():
    # RTT 1: 10 departures 1 ms apart from 95 ms: 5 before its end, 5 wrapped to its start: one burst, 100 %.
    # RTT 2: 9 departures 11 ms apart: any 20 ms holds 2 of them, across the RTT's end too: 2 / 9.
    burst = 0.095 + 0.001 * np.arange(10)
    burst = np.where(burst >= 0.1, burst - 0.1, burst)
    even = 0.1005 + 0.011 * np.arange(9)
    times = np.sort(np.concatenate([burst, even]))
    assert q.densest_share(times, 0.0, 0.3) == pytest.approx([1.0, 2 / 9])
    # The last RTT, cut by the end, is left out.
    assert q.densest_share(times, 0.0, 0.19) == pytest.approx([1.0])


def _departures(rtts, scheme):
    """Departures at the offsets (s) of every RTT of the steady state, 20 RTTs, as the `times` table."""
    t = [STEADY + k * q.RTT_S + o for k in range(20) for o in rtts]
    return pd.DataFrame({"time_s": t + [STEADY + 20 * q.RTT_S], "place": "departure", "pacing.scheme": scheme,
                         "seed": 1})


def test_a_burst_needs_most_of_an_rtt_within_a_fifth_and_smoother_needs_half_that():
    burst = [0.001 * i for i in range(12)] + [0.05 + 0.010 * i for i in range(4)]  # 12 in 12 ms, 4 spread
    assert q.densest_share(np.sort(_departures(burst, "none")["time_s"].to_numpy()), STEADY, STEADY + 2)[0] == 12 / 16
    spread = [0.0005 + 0.004 * i for i in range(20)]  # 5 of 20 in any 20 ms: 25 %
    half = [0.001 * i for i in range(8)] + [0.05 + 0.005 * i for i in range(8)]  # 8 of 16 in 20 ms: 50 %
    for paced, smoother in ((spread, "reproduced"), (half, "not reproduced")):  # 25 % and 50 % against 75 / 2 %
        p = Points(OK, {"times": pd.concat([_departures(burst, "none"), _departures(paced, "qlbp")])})
        assert q.QFIG9.claims[0].evaluate(p)[0] == "reproduced"  # 75 % > 50 %
        assert q.QFIG9.claims[1].evaluate(p)[0] == smoother
    p = Points(OK, {"times": _departures(half, "none")})
    assert q.QFIG9.claims[0].evaluate(p)[0] == "not reproduced"  # half is no bunch


def _cbr(per_second, lost_in=None):
    """Arrivals `per_second` evenly in each second of 10 s of steady state, departures 1 ms later, less one
    departure in second `lost_in`."""
    rows = []
    for k in range(10):
        for i in range(per_second):
            t = STEADY + k + i / per_second
            rows.append({"time_s": t, "place": "arrival", "variant": "200kbps", "seed": 1})
            if not (k == lost_in and i == 0):
                rows.append({"time_s": t + 0.001, "place": "departure", "variant": "200kbps", "seed": 1})
    return Points(OK, {"times": pd.DataFrame(rows)})


def test_the_cbr_rate_is_kept_second_by_second():
    ok, numbers = q.QFIG11.claims[0].check(_cbr(25))
    assert ok and "departures / arrivals per second 1.000 to 1.000" in numbers
    # 24 of 25 is 4 % off, within "about"; 19 of 20 is 5 %, still about; 18 of 20 (10 %) is not.
    assert q.QFIG11.claims[0].check(_cbr(25, lost_in=3))[0]
    assert not q.QFIG11.claims[0].check(_cbr(10, lost_in=3))[0]


def test_the_prototype_runs_pace_as_worked_by_hand():
    """QLBP with one packet waiting lets the next start 1040 B / mu(1) later, mu(1) = 1.2 + (200 - 1.2) / 100 =
    3.188 Mb/s: 2.6098 ms. TCP's window of 20 then leaves at that spacing (the ACKs come back so spaced), 8 of 20
    (0 to 18.27 ms) in 20 ms: 40 % of an RTT in its densest fifth. Without pacing the window leaves at the 10 Mb/s
    egress's ACK spacing, 832 us: all 20 in 15.8 ms, 100 %. A CBR source below mu(1) is never delayed."""
    runs = {s: pacesim.run("q-prototype", set=[f"pacing.scheme={s}", "duration=13s"], threads=1)
            for s in ("none", "qlbp")}
    rows = pd.concat([runs[s].series.assign(**{"pacing.scheme": s, "seed": 1}) for s in runs])
    p = Points(OK, {"times": q.packet_times({"series": rows})})
    times = p.rows("times", scheme="qlbp")
    gaps = np.diff(np.sort(times[times["place"] == "departure"]["time_s"].to_numpy()))
    assert np.isclose(gaps, 1040 * 8 / 3.188e6, atol=2e-6).mean() > 0.8  # within a window, 19 gaps of 20
    assert q.head_share(p, "qlbp")[0] == pytest.approx(0.4, abs=0.03)
    assert q.head_share(p, "none")[0] == pytest.approx(1.0)
    cbr = pacesim.run("q-prototype", set=["topology.flows=[]", "duration=13s", 'traffic.udp=[{kind = "cbr", '
                                          'rate = "3Mbps", size = "1000B", from = "snd", to = "rcv"}]'], threads=1)
    t = q.packet_times({"series": cbr.series.assign(seed=1)})
    arrive, leave = (t[t["place"] == w]["time_s"].to_numpy() for w in ("arrival", "departure"))
    n = min(len(arrive), len(leave))
    assert n > 1000 and np.allclose(leave[:n] - arrive[:n], 1000 * 8 / 1e9)  # one transmission at 1 Gb/s
