"""A reproduction's report.md (`pacesim reproduce ID [--quick]`): its run line names the sizes the sweep ran,
and its Numbers section is never an empty heading (issue 34 review)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pacesim.papers import figures
from pacesim.reproduce.runner import _report, _size
from pacesim.sweep import SweepRun


def test_the_run_line_names_every_size_the_sweep_ran():
    # A-fig8 sweeps topology.tcp_hosts over 100, 500, 1000 and 2000 (scenarios/A-fig8.toml); its quick
    # version runs 60 s after 10 s. The line named the first point's size alone: "a-base, 100 flows".
    sweep = figures()["A-fig8"].sweep(quick=True)
    assert _size(True, sweep).startswith("quick: a-base, 100-2000 flows, 60 s measured after 10 s; a demo")
    # One size: named once, as before.
    sweep.axes = {"topology.tcp_hosts": [500]}
    assert _size(False, sweep) == "full size: a-base, 500 flows, 60 s measured after 10 s"


def test_a_figure_drawn_from_run_tables_says_where_its_numbers_are_not_an_empty_section():
    fig = figures()["A-fig8"]  # every panel a beta(s) curve drawn from the runs' burstiness tables
    sweep = fig.sweep(quick=True)
    sweep.axes = {"topology.tcp_hosts": [100]}
    points = pd.DataFrame({"topology.tcp_hosts": [100], "seed": [1], "key": ["k"], "status": ["ok"],
                           "error": [None], "wall_s": [1.0]})
    report = _report(fig, True, sweep, points, SweepRun("A-fig8-quick", 1, 0, 1, 0, 1.0), 1.0, [],
                     Path("A-fig8.csv"), [])
    numbers = report.split("## Numbers")[1].split("\n## ")[0]
    assert "Every panel of A-fig8 is drawn from the runs' tables" in numbers and "`A-fig8.csv`" in numbers
