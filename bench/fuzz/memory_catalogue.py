"""Estimate every point of every catalogue sweep at full size with the memory guard (`memory.estimate`), and list
the largest estimates against the bound a run gets by default, the machine's available memory (issue 33's
seventh review: a guard counting more must not refuse the figures' own runs).

    python bench/fuzz/memory_catalogue.py [--top 15] [--figures E-fig7 Q-fig16] [--csv out.csv]

Prints the largest estimates, their largest parts, and the points over the bound (exit status 1 if any).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from pacesim import memory
from pacesim.papers import figures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", type=int, default=15, help="how many of the largest estimates to print")
    ap.add_argument("--figures", nargs="*", help="only these figures (default: all)")
    ap.add_argument("--csv", help="write every point's estimate here (figure, point, total bytes, largest part)")
    args = ap.parse_args(argv)
    bound = memory.available_bytes()
    rows, started = [], time.perf_counter()
    for fid, fig in sorted(figures().items()):
        if args.figures and fid not in args.figures:
            continue
        for point in fig.sweep(quick=False).iter_points():
            if point.scenario is None:  # a point the sweep itself refuses: not the guard's
                continue
            e = memory.estimate(point.scenario, bound=bound)
            key = max(e.parts, key=e.parts.get) if e.parts else "-"
            rows.append((fid, point.named(), e.total, key, e.parts.get(key, 0)))
        print(f"{fid}: done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    rows.sort(key=lambda r: -r[2])
    print(f"{len(rows):,} points; bound (available memory now) {bound / 1e6:,.0f} MB")
    for fid, point, total, key, part in rows[:args.top]:
        print(f"{total / 1e6:10,.1f} MB  {fid:8} {point}  (largest part {key}: {part / 1e6:,.1f} MB)")
    over = [r for r in rows if r[2] > bound]
    print(f"{len(over):,} points over the bound")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            csv.writer(f).writerows([("figure", "point", "bytes", "largest_part", "part_bytes"), *rows])
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
