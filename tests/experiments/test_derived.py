"""Tables figures derive from runs' progress samples (paper W): latency to an
amount, slowest and fastest flow per window; checked on hand-made samples,
and the progress table of a real run."""

import pandas as pd
import pytest

import pacesim
from pacesim.papers.w.figures import extremes, latency_to


def _progress() -> pd.DataFrame:
    """Two runs (scheme none / host); flow 0 at 1 MB/s, flow 1 at 2 MB/s (host: 3), sampled every 0.5 s."""
    rows = []
    for scheme, fast in (("none", 2), ("host", 3)):
        for flow, rate in ((0, 1), (1, fast)):
            for k in range(7):
                rows.append({"pacing.scheme": scheme, "seed": 1, "t_s": k * 0.5, "flow": flow,
                             "bytes": int(k * 0.5 * rate * 1e6)})
    return pd.DataFrame(rows)


def test_latency_is_the_first_sample_at_the_amount():
    t = latency_to(1_500_000)({"progress": _progress()}).set_index(["pacing.scheme", "flow"])["latency_s"]
    assert t[("none", 0)] == 1.5 and t[("none", 1)] == 1.0 and t[("host", 1)] == 0.5


def test_extremes_per_window():
    ex = extremes(1.0)({"progress": _progress()})
    none = ex[ex["pacing.scheme"] == "none"].pivot(index="t_s", columns="which", values="throughput_mbps")
    assert list(none.index) == [1.0, 2.0, 3.0]
    assert none["slowest"].tolist() == pytest.approx([8.0] * 3) and none["fastest"].tolist() == pytest.approx([16.0] * 3)


def test_a_run_reports_progress_when_asked():
    r = pacesim.run({"duration": "6s", "warmup": "1s", "topology": {"edges": 1, "hosts_per_edge": 3},
                     "traffic": {"start": ["0s", "1s"]}, "progress": {"interval": "1s"}})
    p = r.progress
    assert sorted(p["t_s"].unique()) == [0, 1, 2, 3, 4, 5] and set(p["flow"]) == {0, 1, 2}
    assert (p.groupby("flow")["bytes"].diff().dropna() >= 0).all()
    assert pacesim.run({"duration": "2s", "warmup": "1s", "traffic": {"start": ["0s", "1s"]},
                        "topology": {"edges": 1, "hosts_per_edge": 1}}).progress is None
