#!/usr/bin/env python3
"""ns-2's Tmix against pacesim's, on the same vectors and topology (`tmix.tcl`: ns-2's Tmix test-suite
dumbbell, two clouds replaying one vectors file through their DelayBoxes, one-way TCP).

    python bench/ns2/tmix/compare.py            # pacesim against the committed ns-2 outputs
    python bench/ns2/tmix/compare.py --ns2      # run ns-2 first (Debian's /usr/bin/ns) and write them

The vectors are Tmix's samples from Debian's `ns2-examples` (`pacesim.tmix.SAMPLES`); their licence forbids
redistribution, so only outputs are committed, and connections are named by their place in the file
(`vector`, from 0), not by the file's ids. Per case, `results/<case>-ns2.csv` holds ns-2's connections
(cloud, vector, receipts: the ADUs its ends received, last_s: when the last arrived, from Tmix's debug
output) and `results/<case>-ns2-links.csv` the bytes each way across r1 - r2 over [0, END]; `results/
<case>.csv` sets pacesim's beside them and `results/README.md` sums the comparison up.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
# tests/ last on the path, after the installed pacesim (tests/support/ns2_tmix.py: never the checkout's python/).
sys.path.append(str(HERE.parents[2] / "tests"))
from support.ns2_tmix import CASES, END, RESULTS, SEED, compare, ids  # noqa: E402
from pacesim.tmix import vectors_path  # noqa: E402

NODE_CLOUD = {0: 0, 4: 0, 5: 1, 1: 1}
"""ns-2's node ids (created s1, s2, r1, r2, k1, k2) of each cloud's ends: cloud 0 at s1 and k1, cloud 1 at k2
and s2."""
RECV = re.compile(r"^(\S+) App \( \S+ / \d+ / (\d+) / (\d+)\.\d+ \)> recv ADU")


def run_ns2(case: str) -> None:
    """Run ns-2 on `case` and write its connections and link bytes."""
    sample, lossless = CASES[case]
    cvec = vectors_path(sample)
    out = subprocess.run(["ns", str(HERE / "tmix.tcl"), cvec, str(END), "0", str(int(lossless)), str(SEED)],
                         capture_output=True, text=True, check=True)
    place = ids(cvec)
    rows = {}
    for line in out.stderr.splitlines():
        m = RECV.match(line)
        if m:
            key = (NODE_CLOUD[int(m.group(3))], place[int(m.group(2))])
            n, _ = rows.get(key, (0, 0.0))
            rows[key] = (n + 1, float(m.group(1)))
    conns = pd.DataFrame([(c, v, n, t) for (c, v), (n, t) in sorted(rows.items())],
                         columns=["cloud", "vector", "receipts", "last_s"])
    conns.to_csv(RESULTS / f"{case}-ns2.csv", index=False)
    links = [line.split()[1:] for line in out.stdout.splitlines() if line.startswith("LINK ")]
    pd.DataFrame(links, columns=["link", "bytes"]).to_csv(RESULTS / f"{case}-ns2-links.csv", index=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ns2", action="store_true", help="Run ns-2 first and write its outputs.")
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    rows = []
    for case in args.cases:
        if args.ns2:
            run_ns2(case)
        rows.append(compare(case, write=True))
        print(rows[-1])
    pd.DataFrame(rows).to_csv(RESULTS / "summary.csv", index=False, float_format="%.6g")


if __name__ == "__main__":
    main()
