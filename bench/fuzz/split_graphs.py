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

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile import arguments, print_record, print_total  # noqa: E402  (the harnesses' command line and records)
from support.fuzz_split_graphs import CASES, CLASSES, Harness  # noqa: E402  (hostile.py put tests/ on the path)
from support.fuzzing import fuzz  # noqa: E402


def main() -> None:
    args = arguments(__doc__, 2_000)
    if args.total is not None:
        print_total(args.total, CLASSES)
        return
    t0 = time.perf_counter()
    h = Harness()
    fuzz(h, CASES, args.cases, args.seed)
    print_record({"cases": sum(h.counts.values()), "seed": args.seed, "wall_s": round(time.perf_counter() - t0, 1),
                  "counts": {c: h.counts[c] for c in CLASSES}, "examples": h.examples}, args.out)


if __name__ == "__main__":
    main()
