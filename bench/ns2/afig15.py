#!/usr/bin/env python3
"""A-fig15 (paper A Sec V-B: fBm UDP at 80 % of the core, no anomaly) at a
tenth of the size in stock ns-2 2.35 and in pacesim, side by side.

    PYTHONPATH=python python bench/ns2/afig15.py   # writes results/afig15.csv

The abase-fbm reference setup of refs.py (100 hosts, 10 Mb/s core, fBm UDP
of 200 B packets, Hurst 0.85, from a 10 Mb/s access link; 100 s over
[30, 100] s, seed 1) with the UDP rate at 8 Mb/s instead of 0.5: A-fig15's
"80 of 100 Mb/s" scaled as its quick run scales it. udp_loss is a fraction.
"""

import csv
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import refs  # noqa: E402
import run_refs  # noqa: E402
from run_ebase import run_ns_all  # noqa: E402
from support import ns2_refs  # noqa: E402  (refs.py put tests/ on the path)

UDP_SHARE = 0.8  # of the core's rate
# refs.py's traces read refs.udp_rate, pacesim's overrides (tests/support/ns2_refs.py) their own: both changed.
refs.udp_rate = ns2_refs.udp_rate = lambda point: UDP_SHARE * 100e6 * point["scale"]
BUFFERS = (1000, 11000, 50000)  # bytes: the smallest, the paper's inflection, the largest of A-fig15's grid
METRICS = ("udp_loss", "tcp_mbps", "core_loss")


def main():
    rows = []
    for b in BUFFERS:
        p = {"setup": "abase-fbm", "scale": 0.1, "buffer_bytes": b, "seed": 1, "duration_s": 100, "warmup_s": 30}
        with tempfile.TemporaryDirectory() as tmp:
            ns2 = run_ns_all(refs.ns2_args(p, Path(tmp)), f"afig15_{b}")
        ours = run_refs.simulate(p)
        rows.append({"buffer_bytes": b} | {f"ns2_{k}": float(ns2[k]) for k in METRICS}
                    | {f"pacesim_{k}": round(float(ours[k]), 6) for k in METRICS})
        print(rows[-1], flush=True)
    with (refs.HERE / "results" / "afig15.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
