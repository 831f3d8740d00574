"""The command line's run path imports what it needs and no more (issue 21: 130 MB for a 36 MB run).

Memory and start-up time themselves are measured in bench/speed/cli_cost.py; these tests hold the property those
numbers rest on: `pacesim --version` reads no scenario models, and `pacesim run` prints its tables from the
report without pandas, the same numbers `Result`'s DataFrames give.
"""

import subprocess
import sys

import pytest

import pacesim
from pacesim.cli import _flows, _quantiles

CLI = "import sys; from pacesim.cli import app; sys.argv[0] = 'pacesim'\ntry: app()\nfinally: print(sorted(m for m in ('pandas', 'pydantic', 'numpy') if m in sys.modules))"
TINY = ["--set", "topology.edges=2", "--set", "topology.hosts_per_edge=6", "--set", "duration=20s",
        "--set", "warmup=5s", "--threads", "1"]


def cli(*args: str) -> list:
    """The output lines of `pacesim ARGS` in a fresh interpreter; the last names the heavy modules it loaded."""
    done = subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_version_reads_no_scenario_models():
    out = cli("--version")
    assert out == [f"pacesim {pacesim.ENGINE_VERSION}", "[]"]


def test_run_prints_the_dataframes_numbers_without_pandas():
    out = cli("run", "e-base", *TINY)
    assert out[-1] == "['pydantic']"
    # The same run through the API, its quantiles across the 12 flows from pandas (linear interpolation).
    r = pacesim.run("e-base", set=TINY[1:-2:2], threads=1)
    for column, label in [("goodput_kbps", "goodput, Kb/s"), ("throughput_kbps", "throughput, Kb/s"),
                          ("lost_packets", "lost packets")]:
        q = r.flows[column].quantile([0, 0.1, 0.5, 0.9, 1])
        row = next(line for line in out if line.startswith("│") and line.split("│")[1].strip() == label)
        assert [c.strip() for c in row.split("│")[2:-1]] == [f"{v:.3g}" for v in q]
    core = next(line for line in out if line.startswith("│") and line.split("│")[1].strip() == "core")
    assert f"{r.links.loc['core', 'drops']:,}" in core and f"{100 * r.links.loc['core', 'loss_rate']:.3f}" in core
    assert f"{len(r.flows)} flows" in "\n".join(out)


@pytest.mark.parametrize("values", [[], [7.0], [1.0, 3.0], [5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 0.5]])
def test_quantiles_interpolate_as_numpy(values):
    np = pytest.importorskip("numpy")
    cells = _quantiles("t", {"x": values}).columns[1:]
    expect = np.percentile(values, [0, 10, 50, 90, 100]) if values else [float("nan")] * 5  # as pandas' quantile
    assert [c._cells[0] for c in cells] == [f"{v:.3g}" for v in expect]


@pytest.mark.parametrize("value, shown", [(2864.3, "2,864"), (15000.2, "15,000"), (999.6, "1,000"), (123.456, "123"),
                                          (9.996, "10"), (0.5, "0.5"), (0.0000512, "0.0000512"), (0.0, "0")])
def test_run_tables_write_plain_numbers(value, shown):
    """Review of issue 34: the run's table printed a goodput of 2864 Kb/s as 2.86e+03. Three significant
    figures, written out (a whole number from 1,000), never an exponent."""
    cells = _quantiles("t", {"x": [value]}).columns[1:]
    assert [c._cells[0] for c in cells] == [shown] * 5


def test_the_per_flow_title_is_one_line_and_counts_with_a_separator():
    """Review of issue 34: `pacesim run`'s title over the flows' quantiles wrapped to the narrow table's width,
    and wrote 18000 flows without a thousands separator."""
    import io

    from rich.console import Console

    class Run:
        report = {"flows": {"flow": list(range(18000)), "goodput_kbps": [float(i % 7) for i in range(18000)]}}

    text = io.StringIO()
    Console(file=text, width=80).print(_flows(Run()))
    lines = text.getvalue().splitlines()
    assert lines[0].strip() == "Per-flow statistics across 18,000 flows" and lines[1].startswith("┏"), lines[:2]
