"""Random graph topologies run on one thread and split in two halves, whose
reports must be byte-identical but for the work counters (issue 33): the
harness's command line.

    python bench/fuzz/split_graphs.py --cases 2000 --seed 1 [--out counts.jsonl]
    python bench/fuzz/split_graphs.py --total counts.jsonl

prints (and appends to --out) one JSON record: the counts per class and up
to 20 examples of each defect. The harness (the graphs, the classes) is
tests/support/fuzz_split_graphs.py, which tests/test_split_graphs.py runs a
fixed budget of; bench/fuzz/README.md has the long runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from support.fuzz_split_graphs import CLASSES, Harness, fuzz  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: derandomized)")
    ap.add_argument("--out", default=None, help="append one JSON line of counts per run here")
    ap.add_argument("--total", default=None, help="only print the counts summed over the runs in this file")
    args = ap.parse_args()
    if args.total is not None:
        with open(args.total) as f:
            records = [json.loads(line) for line in f if line.strip()]
        total = {c: sum(r["counts"][c] for r in records) for c in CLASSES}
        print(json.dumps({"runs": len(records), "seeds": [r["seed"] for r in records], "cases": sum(total.values()),
                          "wall_s": round(sum(r["wall_s"] for r in records)), "counts": total}, indent=1))
        return
    t0 = time.perf_counter()
    h = Harness()
    fuzz(h, args.cases, args.seed)
    record = {"cases": sum(h.counts.values()), "seed": args.seed, "wall_s": round(time.perf_counter() - t0, 1),
              "counts": {c: h.counts[c] for c in CLASSES}, "examples": h.examples}
    print(json.dumps(record, indent=1))
    if args.out is not None:
        with open(args.out, "a") as f:
            f.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
