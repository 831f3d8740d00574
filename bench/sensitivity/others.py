#!/usr/bin/env python3
"""Sensitivity runs for papers Q, W and A (issue 17 Sec 3): does a missed claim appear under another reading?

run.py does this for paper E; this driver uses its readings and sweep
machinery on the other papers' figures. Each experiment reruns a figure's
own sweep (paper size, its seeds) with a reading's overrides and judges the
figure's claims with their own checks (python/pacesim/papers/*/figures.py),
run tables included. Readings: run.py's `wire1000` and `delack` where the
paper leaves the header and ACK policy open, and the readings below.
Outputs: results/others-claims.csv (claim, reading, outcome, numbers) and
results/others.md generated from it.

    PYTHONPATH=python python bench/sensitivity/others.py [--only READING ...] [--figures ID ...] [--report]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Dict, Sequence, Tuple

import pandas as pd

from pacesim.papers import FIGURES
from pacesim.reproduce.figure import judge_figure
from pacesim.reproduce.figure import kb, scenarios_dir
from pacesim.store import Store
from pacesim.sweep import executor, load_sweep, run_sweep

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import OUT, READINGS, Experiment, Reading, _replace  # noqa: E402  (paper E's machinery)

CLAIMS = OUT / "others-claims.csv"
COMMON = {r.name: r for r in READINGS}
OTHER_READINGS = [
    Reading("seeds10", "the stated setup over seeds 1-10 (where the figure's own seeds leave a noisy statistic open)"),
    # Paper Q Table III's three mean delays all lie 3.5-4.2 ms below pacesim's at 20 packets with the stated
    # U[1, 10] ms host links (one-way propagation 51.4 ms for seed 1's draw): this reading takes 2 ms off the mean of
    # each of a flow's two host links, U[1, 6] ms (propagation 47.6 ms), and nothing else.
    Reading("qhost6", "paper Q's host links U[1, 6] ms instead of U[1, 10] ms (4 ms less one-way propagation)",
            ('topology.host_delay=["1ms", "6ms"]',)),
    # Paper A sizes its buffers in KB and does not say how ns-2 counted them; pacesim (as ns-2's byte mode) drops a
    # packet when the bytes queued plus its own reach the limit, so a 200 B UDP packet fits where no 1040 B TCP packet
    # does. This reading counts packets instead, of any size: B KB holds B packets (ns-2's packet mode: B - 1 waiting).
    Reading("packets", "paper A's buffer of B KB counted as B packets of any size (ns-2's packet-mode DropTail)",
            ("core.buffer=100MB",)),
    # Paper A Sec II: UDP "can be an aggregate of many individual UDP streams", on one 100 Mb/s access link, the core's
    # rate, so by itself it never queues at the core; this reading lets it arrive faster than the core serves it.
    Reading("udp10g", "paper A's UDP access link at 10 Gb/s instead of the core's 100 Mb/s (UDP can queue by itself)",
            ("topology.udp_access_rate=10Gbps",)),
    COMMON["wire1000"],
    COMMON["delack"],
]


def own_sweep(fid: str):
    return load_sweep(scenarios_dir() / f"{fid}.toml")


def whole(fid: str) -> Experiment:
    """Figure `fid`'s whole grid (its sweep file's axes)."""
    return Experiment(fid, dict(own_sweep(fid).axes))


# Figure -> the experiment and the readings it runs under (each reading's overrides must mean something there).
EXPERIMENTS: Dict[str, Tuple[Experiment, Sequence[str]]] = {
    "Q-fig18": (whole("Q-fig18"), ("qhost6", "wire1000", "delack")),
    "Q-tab3": (whole("Q-tab3"), ("qhost6", "wire1000", "delack")),
    "W-s1": (whole("W-s1"), ("seeds10",)),
    "A-fig11": (whole("A-fig11"), ("packets", "udp10g", "wire1000", "delack")),
}
SEEDS = {"seeds10": list(range(1, 11))}
"""Readings that change the seeds rather than the scenario."""


def run(exp: Experiment, reading: Reading, results: Path, workers: int) -> None:
    """`exp`'s figure run under `reading` (reusing the store at `results`), its claims judged into CLAIMS."""
    fig = FIGURES[exp.fig]
    own = own_sweep(exp.fig)  # its base, fixed overrides, variants and seeds; `exp`'s axes, `reading`'s overrides
    axes = exp.axes
    if reading.name == "packets":  # "B KB" run as B packets, labelled back for the claims' checks
        axes = {("core.buffer_packets" if k == "core.buffer" else k): ([int(kb(b)) for b in v]
                                                                       if k == "core.buffer" else v)
                for k, v in axes.items()}
    sweep = dataclasses.replace(own, name=f"{exp.name}@{reading.name}", axes=axes,
                                set=own.set + list(reading.overrides), seeds=SEEDS.get(reading.name, own.seeds))
    with Store(results) as store, executor(workers) as pool:
        run_sweep(sweep, store, pool, progress=False)
        points = store.points(sweep.name, written=True)
        rows = fig.with_derived({t: store.rows(sweep.name, t, written=True) for t in fig.table_names()})
    if reading.name == "packets":
        points["core.buffer"] = points["core.buffer_packets"].map(lambda n: f"{int(n)}KB")
    judged = [{"claim": j.id, "expect": j.expect, "reading": reading.name, "outcome": j.outcome, "numbers": j.numbers}
              for j in judge_figure(fig, points, rows, quick=False)]
    ids = {j["claim"] for j in judged}
    _replace(CLAIMS, lambda r: r["reading"] == reading.name and r["claim"] in ids, judged)
    for j in judged:
        print(f"{j['claim']} @ {reading.name}: {j['outcome']}: {j['numbers']}", flush=True)


def report() -> str:
    """others.md from CLAIMS."""
    claims = pd.read_csv(CLAIMS)
    lines = ["# Sensitivity of papers Q, W and A's missed claims to what the papers leave open", "",
             "Generated by `bench/sensitivity/others.py --report` from `results/others-claims.csv`; do not edit. "
             "Issue 17 Sec 3. Each figure's own sweep (paper size, its seeds) under each reading, every claim judged "
             "by its own check in python/pacesim/reproduce/; the stated setup's verdicts are in the per-paper tables "
             "(docs/reproduction/).", "", "Readings:", ""]
    lines += [f"- `{r.name}`: {r.what}" for r in OTHER_READINGS]
    order = [r.name for r in OTHER_READINGS if r.name in set(claims.reading)]
    lines += ["", "| claim | expect | " + " | ".join(order) + " |", "|---|---|" + "---|" * len(order)]
    mark = {"reproduced": "R", "not reproduced": "x", "not evaluated": "-"}
    for cid, g in claims.groupby("claim", sort=False):
        by = dict(zip(g["reading"], g["outcome"]))
        lines.append(f"| {cid} | {g['expect'].iloc[0]} | " + " | ".join(mark.get(by.get(r, ""), "") for r in order) + " |")
    lines += ["", "## Numbers", ""]
    for cid, g in claims.groupby("claim", sort=False):
        lines.append(f"- **{cid}** {g['expect'].iloc[0]}")
        lines += [f"  - `{r['reading']}` ({r['outcome']}): {r['numbers']}" for _, r in g.iterrows()]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", type=Path, default=Path("/work/res/causes"), help="store for the readings' runs")
    ap.add_argument("--only", nargs="*", help="readings to run (" + ", ".join(r.name for r in OTHER_READINGS) + ")")
    ap.add_argument("--figures", nargs="*", help="figures to run (" + ", ".join(EXPERIMENTS) + ")")
    ap.add_argument("--workers", type=int, default=1, help="pacesim runs at once")
    ap.add_argument("--report", action="store_true", help="only rewrite others.md")
    a = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    if not a.report:
        for fid, (exp, names) in EXPERIMENTS.items():
            if a.figures and fid not in a.figures:
                continue
            for reading in OTHER_READINGS:
                if reading.name in names and (not a.only or reading.name in a.only):
                    run(exp, reading, a.results, a.workers)
    (OUT.parent / "others.md").write_text(report(), encoding="utf-8")


if __name__ == "__main__":
    main()
