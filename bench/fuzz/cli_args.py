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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile import command_line  # noqa: E402  (the harnesses' command line and records)
from support.fuzz_cli import CASES, CLASSES, Harness  # noqa: E402  (hostile.py put tests/ on the path)


def by_command(h: Harness) -> dict:
    """The harness's counts per subcommand and class."""
    return {"by_command": {k: dict(v) for k, v in sorted(h.by_kind.items())}}


if __name__ == "__main__":
    command_line(__doc__, 2000, Harness, CASES, CLASSES, by_command, "pacesim-cli-fuzz-", in_memory=False)
