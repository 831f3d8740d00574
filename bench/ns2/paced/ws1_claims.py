#!/usr/bin/env python3
"""Paper W scenario 1's claims (W-s1) judged on ns-2's output, with pacesim's own checks.

Reads the committed ns-2 runs of ws1.tcl (run_paced.py ws1: results/ws1.csv
and, per run, results/flows/ws1_<mode>_s<seed>_t10.csv with each flow's
latency to 1 MB at 1 ms resolution, and ..._progress.csv with its
acknowledged packets every 100 ms) and evaluates the claims of
python/pacesim/papers/w/figures.py's W-s1 figure on them: the latency
table from the ns-2 latencies, the slowest and fastest flow per 100 ms
from the progress (1460 B of payload per packet). ns-2 is not needed here.

    PYTHONPATH=python python bench/ns2/paced/ws1_claims.py
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pacesim.reproduce.claims import Points
from pacesim.papers import FIGURES
from pacesim.papers.w.figures import SEGMENT

FLOWS = Path(__file__).resolve().parent / "results" / "flows"
SCHEME = {"none": "none", "original": "host"}  # ws1.tcl's MODE -> pacesim's pacing.scheme


def tables() -> dict:
    """The W-s1 run tables built from ns-2's output: progress (bytes), latency, and the derived extremes."""
    progress, latency = [], []
    for path in sorted(FLOWS.glob("ws1_*_progress.csv")):
        _, mode, seed, _t, _ = path.stem.split("_")
        axes = {"pacing.scheme": SCHEME[mode], "seed": int(seed[1:])}
        p = pd.read_csv(path)
        progress.append(p.assign(bytes=p["packets"] * SEGMENT, **axes).drop(columns="packets"))
        lat = pd.read_csv(path.with_name(path.name.replace("_progress", ""))).dropna()
        latency.append(lat.assign(**axes))
    rows = {"progress": pd.concat(progress, ignore_index=True)}
    return {**rows, "extremes": FIGURES["W-s1"].derived["extremes"](rows),
            "latency": pd.concat(latency, ignore_index=True)}


def spans(seeds) -> str:
    """Seed numbers as runs of consecutive ones: [1, 2, 3, 5] -> "1-3, 5"."""
    out: list[list[int]] = []
    for s in sorted(int(x) for x in seeds):
        if out and s == out[-1][1] + 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    return ", ".join(f"{a}-{b}" if a < b else f"{a}" for a, b in out)


def main() -> None:
    t = tables()
    runs = t["latency"][["pacing.scheme", "seed"]].drop_duplicates()
    p = Points(runs.assign(status="ok", core_utilisation=1.0), t)
    for n, claim in enumerate(FIGURES["W-s1"].claims, 1):
        outcome, numbers = claim.evaluate(p)
        print(f"W-s1.{n} {claim.expect} (ns-2, seeds {spans(runs.seed.unique())}): {outcome}: {numbers}")


if __name__ == "__main__":
    main()
