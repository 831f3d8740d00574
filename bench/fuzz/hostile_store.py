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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile import by_kind, command_line  # noqa: E402  (the harnesses' command line and records)
from support.fuzz_store import CASES, CLASSES, Harness  # noqa: E402  (hostile.py put tests/ on the path)

if __name__ == "__main__":
    command_line(__doc__, 1000, Harness, CASES, CLASSES, lambda h: {"tmpfs": h.can_mount, **by_kind(h)},
                 "pacesim-store-fuzz-")
