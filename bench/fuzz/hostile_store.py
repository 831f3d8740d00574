"""Hostile results stores and sweep files, generated with hypothesis, and the class of every outcome
(issue 33): the harness's command line.

    python bench/fuzz/hostile_store.py --cases 1000 --seed 1 [--out counts.jsonl]
    python bench/fuzz/hostile_store.py --total counts.jsonl

prints (and appends to --out) one JSON record: the counts per class and per kind, and up to 20 examples
of each defect. The harness (its three kinds of case, classes and worker) is tests/support/fuzz_store.py,
which tests/test_fuzz_store.py runs a fixed budget of; bench/fuzz/README.md gives the runs.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile import arguments, print_record, print_total  # noqa: E402  (the harnesses' command line and records)
from support.fuzz_store import CLASSES, Harness, fuzz  # noqa: E402  (hostile.py put tests/ on the path)


def main() -> None:
    args = arguments(__doc__, 1000)
    if args.total is not None:
        print_total(args.total, CLASSES)
        return
    t0 = time.perf_counter()
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix="pacesim-store-fuzz-", dir=shm if shm.is_dir() else None) as tmp:
        h = Harness(Path(tmp))
        try:
            fuzz(h, args.cases, args.seed)
        finally:
            h.worker.close()
    record = {"cases": sum(h.counts.values()), "seed": args.seed, "wall_s": round(time.perf_counter() - t0, 1),
              "tmpfs": h.can_mount, "counts": {c: h.counts[c] for c in CLASSES},
              "by_kind": {k: dict(v) for k, v in h.by_kind.items()}, "examples": h.examples}
    print_record(record, args.out)


if __name__ == "__main__":
    main()
