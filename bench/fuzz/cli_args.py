"""Hostile command lines for every `pacesim` subcommand, generated with hypothesis, and the class of every
outcome (issue 33): the harness's command line.

    python bench/fuzz/cli_args.py --cases 2000 --seed 1 [--out counts.jsonl]
    python bench/fuzz/cli_args.py --total counts.jsonl

prints (and appends to --out) one JSON record: counts per class and per subcommand, and up to 20 examples
of each defect. The harness (its cases, classes and worker) is tests/support/fuzz_cli.py, which
tests/test_fuzz_cli.py runs a fixed budget of; bench/fuzz/README.md ("Command lines") gives the runs.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile import arguments, print_record, print_total  # noqa: E402  (the harnesses' command line and records)
from support.fuzz_cli import CLASSES, Tally, Worker, fuzz, prepare  # noqa: E402  (hostile.py put tests/ on the path)


def main() -> None:
    args = arguments(__doc__, 2000)
    if args.total is not None:
        print_total(args.total, CLASSES)
        return
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pacesim-cli-fuzz-") as tmp:
        prepare(Path(tmp))
        worker, tally = Worker(Path(tmp)), Tally()
        try:
            fuzz(worker, tally, args.cases, args.seed)
        finally:
            worker.close()
    record = {"cases": sum(tally.counts.values()), "seed": args.seed, "wall_s": round(time.perf_counter() - t0, 1),
              "counts": {c: tally.counts[c] for c in CLASSES},
              "by_command": {k: dict(v) for k, v in sorted(tally.by_command.items())}, "examples": tally.examples}
    print_record(record, args.out)


if __name__ == "__main__":
    main()
