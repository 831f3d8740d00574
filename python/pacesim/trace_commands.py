"""`pacesim trace`: packet traces on the command line (docs/trace.md). `trace diff A B` prints where two
ns-2 traces part; `trace pcap TRACE OUT` turns one into pcap for Wireshark."""

from __future__ import annotations

from pathlib import Path
from typing import List

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

trace_app = typer.Typer(no_args_is_help=True, help="Packet traces in ns-2's format: diff two, make pcap of one.")


def _fail(message: str) -> None:
    Console(stderr=True).print(f"[red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(2)


@trace_app.command("diff")
def trace_diff(
    a: Path = typer.Argument(..., help="A trace in ns-2's format (.gz read as gzip)."),
    b: Path = typer.Argument(..., help="The trace to compare it with."),
    time_tolerance: float = typer.Option(
        0.0, "--time-tolerance", metavar="SECONDS",
        help="Time stamps this close count as equal (ns-2 prints them to the microsecond: 1e-6).",
    ),
    ignore: List[str] = typer.Option([], "--ignore", metavar="FIELD", help="A field not to compare, e.g. uid (repeatable)."),
) -> None:
    """Report the first event where traces A and B part (line numbers, both lines, the fields that differ)
    and both traces' counts by event type. Exit status 0 if they never part, 1 if they do, 2 on an error."""
    from .ns2trace import TraceError
    from .trace_diff import diff

    try:
        d = diff(a, b, time_tolerance, ignore)
    except (TraceError, ValueError) as e:
        _fail(str(e))
    out = Console(highlight=False)
    t = Table(title="Events by type")
    t.add_column("trace", justify="left")
    for event in "+-dr":
        t.add_column(event, justify="right")
    for path, counts in zip((a, b), d.counts):
        t.add_row(escape(str(path)), *(f"{counts[e]:,}" for e in "+-dr"))
    out.print(t)
    p = d.parting
    if p is None:
        out.print(f"identical: {d.same:,} events, times within {time_tolerance:g} s")
        return
    if p.a is None or p.b is None:
        short, long_, line = (a, b, p.b) if p.a is None else (b, a, p.a)
        out.print(f"identical for {d.same:,} events; then {escape(str(short))} ends and {escape(str(long_))} "
                  f"goes on at line {line.number}:\n  {escape(line.text)}")
    else:
        out.print(f"identical for {d.same:,} events; they part at line {p.a.number} of A and {p.b.number} of B, "
                  f"in {', '.join(p.fields)}:\n  A: {escape(p.a.text)}\n  B: {escape(p.b.text)}")
    raise typer.Exit(1)


@trace_app.command("pcap")
def trace_pcap(
    trace: Path = typer.Argument(..., help="A trace in ns-2's format (.gz read as gzip)."),
    out: Path = typer.Argument(..., help="The pcap file to write."),
) -> None:
    """Write the packets leaving the traced links (`-` events) as pcap, headers synthesised (docs/trace.md)."""
    from . import pcap
    from .ns2trace import TraceError

    try:
        n = pcap.write(trace, out)
    except (TraceError, ValueError, OSError) as e:
        _fail(str(e))
    Console().print(f"wrote {n:,} packets to {escape(str(out))}")


def register(app: typer.Typer) -> None:
    """Add `trace` to the `pacesim` command line."""
    app.add_typer(trace_app, name="trace")
