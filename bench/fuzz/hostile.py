"""Hostile input for pacesim's front end, generated with hypothesis, and the
class of every outcome (issue 20): the harness's command line.

    python bench/fuzz/hostile.py --cases 10000 --seed 1 [--out counts.jsonl]
    python bench/fuzz/hostile.py --total counts.jsonl

prints (and appends to --out) one JSON record: the counts per class, per
kind of case, and up to 20 examples of each defect; --total sums the
records of a file. A case's time budget, in every harness here, is the CPU
time its worker uses (tests/support/fuzzing.py `Clock`), not wall time: a
worker starved on a loaded machine (nice 19) is no hang; one using no CPU
time at all for `BLOCKED_S` of wall time is. The harness (its six kinds of
case, its classes, the worker that runs a case) is tests/support/fuzz_input.py, which
tests/test_fuzz.py runs a fixed budget of; bench/fuzz/README.md gives the
long runs. `command_line` (with `arguments`, `print_total` and
`print_record`) is every harness's command line here (cli_args.py,
hostile_store.py, split_graphs.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from support.fuzz_input import CASES, CLASSES, Harness  # noqa: E402
from support.fuzzing import fuzz  # noqa: E402


def arguments(doc: str, cases: int) -> argparse.Namespace:
    """A harness's command line: --cases, --seed, --out, --total."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=cases)
    ap.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: derandomized)")
    ap.add_argument("--out", type=Path, default=None, help="append one JSON line of counts per run here")
    ap.add_argument("--total", type=Path, default=None, help="only print the counts summed over the runs in this file")
    return ap.parse_args()


def print_total(path: Path, classes: List[str]) -> None:
    """Print the counts per class summed over the runs recorded in JSON-lines file `path`."""
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    total = {c: sum(r["counts"].get(c, 0) for r in records) for c in classes}  # older records lack newer classes
    print(json.dumps({"runs": len(records), "seeds": [r["seed"] for r in records], "cases": sum(total.values()),
                      "wall_s": round(sum(r["wall_s"] for r in records)), "counts": total}, indent=1))


def command_line(doc: str, cases: int, harness: Callable[[Path], Any], strategy: Any, classes: List[str],
                 tallies: Callable[[Any], dict], prefix: str, in_memory: bool = True) -> None:
    """A harness's command line (`arguments`): with --total, the sums of a file's records (`print_total`); else
    --cases cases of `strategy` through `harness(scratch directory)`, a temporary one (in /dev/shm with
    `in_memory`, where cases are written and read back thousands of times), and the run's record
    (`print_record`): its counts per class, the harness's `tallies(harness)` and its examples of each defect."""
    args = arguments(doc, cases)
    if args.total is not None:
        print_total(args.total, classes)
        return
    t0 = time.perf_counter()
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix=prefix, dir=shm if in_memory and shm.is_dir() else None) as tmp:
        h = harness(Path(tmp))
        try:
            fuzz(h, strategy, args.cases, args.seed)
        finally:
            h.close()
    record = {"cases": sum(h.counts.values()), "seed": args.seed, "wall_s": round(time.perf_counter() - t0, 1),
              "counts": {c: h.counts[c] for c in classes}, **tallies(h), "examples": h.examples}
    print_record(record, args.out)


def print_record(record: dict, out: Optional[Path]) -> None:
    """Print one run's record, and append it as a JSON line to `out` when given."""
    print(json.dumps(record, indent=1, ensure_ascii=False))
    if out is not None:
        with open(out, "a") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")


def by_kind(h) -> dict:
    """A harness's counts per kind of case and class."""
    return {"by_kind": {k: dict(v) for k, v in h.by_kind.items()}}


if __name__ == "__main__":
    command_line(__doc__, 10_000, Harness, CASES, CLASSES, by_kind, "pacesim-fuzz-")
