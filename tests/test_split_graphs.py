"""The split as a property (issue 33): random graph topologies
(tests/support/fuzz_split_graphs.py: flows on either side of the core, on
both, crossing the cut several times, links of no delay and of more than
the run, paced and not) report the same as one world when split in two
halves, on two threads and in turn on one, whatever the machine's load. A
fixed budget, the same cases every run (hypothesis derandomized); the long
runs are in bench/fuzz/README.md."""

from __future__ import annotations

import json

from support import fuzz_split_graphs as split_graphs
from support.fuzzing import fuzz

CASES = 300


def test_random_graphs_split_in_two_report_what_one_world_does():
    h = split_graphs.Harness()
    fuzz(h, split_graphs.CASES, CASES)
    assert sum(h.counts.values()) == CASES
    defects = {c: h.counts[c] for c in split_graphs.DEFECTS if h.counts[c]}
    assert not defects, json.dumps(h.examples, indent=1)
    # The property is about split runs: most cases must split.
    assert h.counts["same"] >= CASES // 2, dict(h.counts)


def test_a_split_that_differs_is_told(monkeypatch):
    """The harness tells a split run whose report differs by a hair (made so here) from one that agrees."""
    real = split_graphs._core.run_json

    def tampered(request, progress, threads, force_split=False):
        report = json.loads(real(request, progress, threads, force_split=force_split))
        if force_split and threads == 1:
            report["summary"]["aggregate_mbps"] += 1e-9
        return json.dumps(report)

    s = {"seed": 1, "duration": 200_000_000, "warmup": 0,
         "topology": {"kind": "graph", "nodes": ["a", "b"], "hosts": ["h1", "h2"],
                      "links": [{"from": "h1", "to": "a", "rate": [10**7, 10**7], "delay": [3_000_000, 3_000_000]},
                                {"from": "a", "to": "b", "core": True},
                                {"from": "b", "to": "h2", "rate": [10**7, 10**7], "delay": [3_000_000, 3_000_000]}],
                      "flows": [{"from": "h1", "to": "h2"}]},
         "core": {"rate": 10**7, "delay": 10_000_000, "buffer": 10_000, "queue": "droptail"},
         "tcp": dict(split_graphs.TCP, variant="reno"), "traffic": {"start": [0, 0]}}
    assert split_graphs.outcome(s) == "same"
    monkeypatch.setattr(split_graphs._core, "run_json", tampered)
    assert split_graphs.outcome(s) == "differ"
