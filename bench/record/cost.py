"""What the whole catalogue costs at the papers' sizes under the seed rule (issue 31 sec. 3).

    python bench/record/cost.py measure ID ...   # one full-size point per figure -> bench/record/cost.jsonl
    python bench/record/cost.py estimate         # the table in bench/record/COST.md

`measure` runs one point of each figure's full-size sweep (seed 1, one engine thread): the middle combination of
its axes, among the points of its first `variant` where it has one (so a figure with a "UDP alone" variant is
timed on a point with TCP, the costly kind). It records the CPU seconds of the run (the process's, so the
machine's load changes it little), its wall seconds, events and packet-hops, and the load average.

`estimate` multiplies each figure's CPU seconds per point by its points at the seeds a verdict needs (the
paper's count, else 3: `Figure.seeds`) and at the most seeds settling may take (10), and sums per paper: the
CPU cost of `pacesim reproduce --all` from an empty store, a lower bound (every claim decided on its first
seeds) and an upper bound (every figure taken to 10 seeds). Points of equal scenarios in two figures run once
in a shared store; the sums count them twice.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

LOG = Path(__file__).with_name("cost.jsonl")


def _timed_point(sweep):
    """The point `measure` times: the middle combination, of the first variant where the sweep has variants."""
    points = [p for p in sweep.iter_points() if p.scenario is not None]
    if "variant" in sweep.axes:
        first = sweep.axes["variant"][0]
        points = [p for p in points if p.axes["variant"] == first]
    return points[len(points) // 2]


def measure(ids) -> None:
    import pacesim
    from pacesim.papers import FIGURES

    for fid in ids:
        sweep = FIGURES[fid].sweep(False)
        sweep.seeds = [1]
        combos = sum(1 for p in sweep.iter_points() if p.scenario is not None)
        p = _timed_point(sweep)
        c0, t0 = time.process_time(), time.perf_counter()
        r = pacesim.run(p.scenario, threads=1)
        line = dict(id=fid, axes=p.axes, wall=round(time.perf_counter() - t0, 2), cpu=round(time.process_time() - c0, 2),
                    hops=r.work["packet_hops"], events=r.work["events"], combos=combos, load=round(os.getloadavg()[0], 1))
        with LOG.open("a") as f:
            f.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)


def estimate() -> None:
    from pacesim.papers import FIGURES
    from pacesim.reproduce.verdicts import MAX_SEEDS

    rows = {}
    for line in LOG.read_text().splitlines():
        d = json.loads(line)
        rows[d["id"]] = d  # the last measurement of an id counts
    papers = {}
    print("| id | combinations | CPU s per point | seeds needed | CPU h at those seeds | CPU h at 10 seeds |")
    print("|---|---|---|---|---|---|")
    for fid, fig in FIGURES.items():
        if fid not in rows:
            continue
        d = rows[fid]
        low, high = d["combos"] * fig.seeds * d["cpu"] / 3600, d["combos"] * MAX_SEEDS * d["cpu"] / 3600
        print(f"| {fid} | {d['combos']} | {d['cpu']:.2f} | {fig.seeds} | {low:.2f} | {high:.2f} |")
        s = papers.setdefault(fid[0], [0.0, 0.0, 0])
        s[0] += low
        s[1] += high
        s[2] += 1
    print()
    print("| paper | figures timed | CPU h at the seeds needed | CPU h at 10 seeds |")
    print("|---|---|---|---|")
    for p, (low, high, n) in papers.items():
        print(f"| {p} | {n} | {low:.1f} | {high:.1f} |")
    total = [sum(v[i] for v in papers.values()) for i in (0, 1)]
    print(f"| all | {sum(v[2] for v in papers.values())} | {total[0]:.1f} | {total[1]:.1f} |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["measure"]:
        measure(sys.argv[2:])
    elif sys.argv[1:2] == ["estimate"]:
        estimate()
    else:
        sys.exit(__doc__)
