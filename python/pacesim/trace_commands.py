"""`pacesim trace`: packet traces on the command line (docs/trace.md). `trace diff A B` prints where two
ns-2 traces part; `trace pcap TRACE OUT` turns one into pcap for Wireshark."""

from __future__ import annotations

from pathlib import Path
from typing import List

import typer
from rich.table import Table

from . import terminal
from .terminal import command, fail, plain, writable, write_failed

trace_app = typer.Typer(no_args_is_help=True, help="Packet traces in ns-2's format: diff two, make pcap of one.")


@trace_app.command("diff")
@command
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

    if not 0 <= time_tolerance < float("inf"):
        fail(f"--time-tolerance {time_tolerance}: give seconds >= 0, e.g. 1e-6")
    try:
        d = diff(a, b, time_tolerance, ignore)
    except (TraceError, ValueError) as e:
        fail(str(e))
    out = terminal.out(highlight=False)
    t = Table(title="Events by type")
    t.add_column("trace", justify="left")
    for event in "+-dr":
        t.add_column(event, justify="right")
    for path, counts in zip((a, b), d.counts):
        t.add_row(plain(path), *(f"{counts[e]:,}" for e in "+-dr"))
    out.print(t)
    p = d.parting
    if p is None:
        out.print(f"identical: {d.same:,} events, times within {time_tolerance:g} s")
        return
    if p.a is None or p.b is None:
        short, long_, line = (a, b, p.b) if p.a is None else (b, a, p.a)
        out.print(plain(f"identical for {d.same:,} events; then {short} ends and {long_} "
                        f"goes on at line {line.number}:", f"  {line.text}"))
    else:
        out.print(plain(f"identical for {d.same:,} events; they part at line {p.a.number} of A and {p.b.number} of B, "
                        f"in {', '.join(p.fields)}:", f"  A: {p.a.text}", f"  B: {p.b.text}"))
    raise typer.Exit(1)


@trace_app.command("pcap")
@command
def trace_pcap(
    trace: Path = typer.Argument(..., help="A trace in ns-2's format (.gz read as gzip)."),
    out: Path = typer.Argument(..., help="The pcap file to write."),
    segment_size: str = typer.Option("1000B", "--segment-size", metavar="SIZE",
                                     help="TCP payload of a flow whose data packets the trace does not hold, for "
                                          "numbering its ACKs in bytes (pacesim's and ns-2's default)."),
) -> None:
    """Write the packets leaving the traced links (`-` events) as pcap, headers synthesised (docs/trace.md)."""
    from . import pcap
    from .ns2trace import TraceError
    from .units import parse_size

    try:
        mss = parse_size(segment_size)
    except ValueError as e:
        fail(f"--segment-size: {e}")
    if not 1 <= mss <= pcap.MAX_IP - pcap.IP_HEADER - pcap.TCP_HEADER:
        fail(f"--segment-size {segment_size}: a TCP payload in IPv4 is 1 to "
             f"{pcap.MAX_IP - pcap.IP_HEADER - pcap.TCP_HEADER:,} B")
    if str(out) == "-":
        fail("OUT -: a pcap is binary and goes to a file, not standard output; name the file (e.g. trace.pcap)")
    if out.exists() and out.resolve() == trace.resolve():
        fail(f"OUT {out}: is the trace itself; name another file for the pcap")
    writable("OUT", out, file=True)  # before reading the trace: a FIFO or /proc refused at once
    try:
        n = pcap.write(trace, out, mss)
    except (TraceError, ValueError, OSError) as e:  # no half-written pcap left behind (pcap.write)
        if isinstance(e, OSError):  # named as given, not as the file written first
            write_failed(f"TRACE {trace}" if e.filename == str(trace) else f"OUT {out}", e)
        fail(str(e))
    terminal.say(f"wrote {n:,} packet{'' if n == 1 else 's'} to {out}")


def register(app: typer.Typer) -> None:
    """Add `trace` to the `pacesim` command line."""
    app.add_typer(trace_app, name="trace")
