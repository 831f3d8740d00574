"""A fixed budget of the command-line fuzzer (tests/support/fuzz_cli.py, run at length by
bench/fuzz/cli_args.py; issue 33): 120 generated command lines over every subcommand, the same every time
(hypothesis derandomized), must meet only successes and errors that name what they refuse: no traceback, no
error naming nothing, no control character printed raw, no hang; and the fuzzer's classes are checked on
answers made to order."""

from __future__ import annotations

import json

import pytest

from support import fuzz_cli as cli_args
from support.fuzzing import fuzz

CASES = 120  # hypothesis's first derandomized cases favour some subcommands: 100 of them reach no `sweep`


def test_hostile_command_lines_meet_successes_and_named_refusals_only(tmp_path):
    h = cli_args.Harness(tmp_path)
    try:
        fuzz(h, cli_args.CASES, CASES)
    finally:
        h.close()
    assert sum(h.counts.values()) == CASES
    defects = {c: h.counts[c] for c in cli_args.DEFECTS if h.counts[c]}
    assert not defects, json.dumps(h.examples, indent=1, ensure_ascii=False)
    assert {c.split()[0] for c in h.by_kind} == {"run", "model", "topology", "trace", "plot", "sweep",
                                                         "results", "reproduce", "report"}


@pytest.mark.parametrize("argv, answer, cls", [
    (["run", "x"], (2, "error: x: no such file", ""), "refused, naming it"),
    (["run", "x"], (2, "error: something went wrong", ""), "error naming nothing"),
    (["run", "--threads", "9"], (2, "Error: Invalid value for '--threads'", ""), "refused, naming it"),
    (["run", "a\x1b[31mb"], (2, "error: a\x1b[31mb: no such file", ""), "control characters"),
    (["run", "a\x1b[31mb"], (2, "error: a\\x1b[31mb: no such file", ""), "refused, naming it"),
    (["run", "a\nb\rc"], (2, "error: a\\nb\\rc: no such file", ""), "refused, naming it"),  # seed 2302 of session 11
    (["run", "a\nb\rc"], (2, "error: a\nb\\rc: no such file", ""), "error naming nothing"),  # a newline printed raw
    (["model"], (1, "", "Traceback (most recent call last):\n  ZeroDivisionError"), "traceback"),
    (["plot", "tiny"], (0, "wrote x.png", ""), "ok"),
    (["run", "tiny.toml"], (2, "error: tcp.window: must be >= 1", ""), "refused, naming it"),  # a key of the file
    (["plot"], ("hang", "no answer in 60 s"), "hang"),
    # An empty path argument is read as "."; writable names it after the argument (a campaign's case).
    (["trace", "pcap", "/", ""], (2, "error: OUT .: is a directory", ""), "refused, naming it"),
    (["trace", "pcap", "/", "x"], (2, "error: OUT .: is a directory", ""), "error naming nothing"),
])
def test_the_classes(argv, answer, cls):
    assert cli_args.classify(cli_args.Case(argv), answer)[0] == cls
