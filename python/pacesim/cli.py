"""The `pacesim` command line: run a scenario file and show what it measured."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import run as run_scenario
from .result import Result
from .scenario import ScenarioError, apply_overrides, load_scenario

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False)


@app.callback()
def main() -> None:
    """pacesim: packet-level simulation of small-buffer networks."""


def _summary(r: Result) -> Table:
    s, (lo, hi) = r.summary, r.report["window_s"]
    t = Table(title=f"Summary over [{lo:g}, {hi:g}] s, {len(r.flows)} flows, seed {r.seed}")
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_row("aggregate throughput (core)", f"{s['aggregate_mbps']:.2f} Mb/s")
    t.add_row("mean goodput per flow", f"{s['goodput_kbps_mean']:.2f} Kb/s")
    t.add_row("core loss", f"{100 * s['core_loss_rate']:.3f} %")
    t.add_row("core empty-buffer probability", f"{s['core_empty_prob']:.4f}")
    return t


def _links(r: Result) -> Table:
    t = Table(title="Measured links (window)")
    t.add_column("link", no_wrap=True)
    for name in ["Mb/s", "loss %", "drops", "mean queue B", "P(empty)", "P(idle)"]:
        t.add_column(name, justify="right")
    for l in r.links.itertuples():
        t.add_row(
            l.Index,
            f"{l.throughput_mbps:.2f}",
            f"{100 * l.loss_rate:.3f}",
            f"{l.drops:,}",
            f"{l.mean_queue_bytes:.1f}",
            f"{l.empty_prob:.4f}",
            f"{l.idle_prob:.4f}",
        )
    return t


def _goodput(r: Result) -> Table:
    q = r.flows["goodput_kbps"].quantile([0, 0.1, 0.5, 0.9, 1])
    t = Table(title="Per-flow goodput, Kb/s")
    for name in ["min", "p10", "median", "p90", "max"]:
        t.add_column(name, justify="right")
    t.add_row(*(f"{v:.1f}" for v in q))
    return t


@app.command()
def run(
    scenario: Path = typer.Argument(..., exists=True, dir_okay=False, help="Scenario TOML file."),
    set_: List[str] = typer.Option([], "--set", metavar="KEY=VALUE", help="Override a key, e.g. core.buffer=5KB (repeatable)."),
    seed: Optional[int] = typer.Option(None, help="Replace the scenario's seed."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Write the full report to this JSON file."),
) -> None:
    """Run one scenario and print its summary, links and goodput distribution."""
    err = Console(stderr=True)
    try:
        s = apply_overrides(load_scenario(scenario), set_)
        r = run_scenario(s, seed=seed)
    except ScenarioError as e:
        err.print(f"[red]error:[/] {escape(str(e))}", soft_wrap=True)
        raise typer.Exit(2)
    except RuntimeError as e:
        err.print(f"[red]engine failure:[/] {escape(str(e))}", soft_wrap=True)
        raise typer.Exit(1)
    out = Console()
    for table in (_summary(r), _links(r), _goodput(r)):
        out.print(table)
    w = r.work
    out.print(
        f"wall {r.wall_s:.2f} s, {w['events']:,} events ({w['events'] / r.wall_s / 1e6:.2f} M/s), "
        f"{w['packet_hops']:,} packet-hops, engine {r.engine_version}"
    )
    if json_out is not None:
        r.to_json(json_out)
        out.print(f"report written to {escape(str(json_out))}")
