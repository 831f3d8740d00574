"""The `pacesim` command line: run a scenario file and show what it measured."""

from __future__ import annotations

import functools
import os
import statistics
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, List, Optional

import typer
from rich import box
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from . import completion, outfile, terminal
from .terminal import command, fail, plain, shown, warn, writable, write_failed
from .experiment_commands import MAX_MEMORY, size_option
from .report_tables import FLOW_STATS, figures
from .units import format_size, rounded_rate

if TYPE_CHECKING:
    from .result import Result

# The run path reads the report's dicts, not `Result`'s DataFrames: pandas alone would more than double a run's
# memory (bench/speed/cli_cost.py). The scenario models (pydantic) are imported by the commands that read a scenario.

@contextmanager
def _words_shown() -> Iterator[None]:
    """click's errors (typer's own copy of click), whose messages quote the words they could not place
    (`Got unexpected extra argument(s) (...)`), with their control characters written out (`terminal.shown`)
    as every other error shows a user's words, and shown as pacesim's own (`_show_usage_error`). A group
    called with no command shows its help alone, as click does (as an error it read `error: Usage: ...`
    after the usage line)."""
    try:
        yield
    except typer.TyperException as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # its message is the help (click's class, not exported)
            raise
        e.message = shown(e.message)
        e.show = functools.partial(_show_usage_error, e)
        raise


def _show_usage_error(e, file=None) -> None:
    """A usage error (an unknown option, a missing argument) as every pacesim error reads, `error: MESSAGE`
    on standard error (`terminal.fail`; click writes `Error:`), after click's usage line and its hint."""
    ctx = getattr(e, "ctx", None)
    if ctx is not None:
        hint = f"Try '{ctx.command_path} {ctx.help_option_names[0]}' for help.\n" \
            if ctx.command.get_help_option(ctx) is not None else ""
        terminal.err.print(Text(f"{ctx.get_usage()}\n{hint}"), soft_wrap=True)
    terminal.err.print(Text.assemble(("error:", "red"), " ", e.format_message()), soft_wrap=True)


class _Commands(TyperGroup):
    """pacesim's commands, their usage errors `_words_shown`: the group's own and, from `invoke`, its
    subcommands'; standard output `terminal.stdout_guarded` for all of them; a shell's completion request answered with bash's words split at `=` joined again
    (`completion.BashWords`)."""

    def main(self, *args, **kwargs):
        with terminal.stdout_guarded():
            return super().main(*args, **kwargs)

    def _main_shell_completion(self, *args, **kwargs):
        completion.use_bash_words()
        return super()._main_shell_completion(*args, **kwargs)

    def make_context(self, *args, **kwargs):
        with _words_shown():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with _words_shown():
            return super().invoke(ctx)


app = typer.Typer(
    cls=_Commands,
    add_completion=True,  # --install-completion for bash, zsh, fish and PowerShell
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts are plain: "[default: 1]" and "[quick]" are words, not markup
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="Exit status: 0 done; 1 the work failed (a point or the engine failed, or the file system did: a full "
           "disk, an I/O fault); 2 what was given cannot be used (an option, a file, a store that is no store or "
           "is damaged, a place that cannot be written); 130 / 143 interrupted (SIGINT / SIGTERM: finished points "
           "are kept); 141 the reader of standard output went away.",
)


SCENARIO = typer.Argument(..., help="Scenario TOML file, or a packaged scenario's name (e-base, a-base, ...).",
                          autocompletion=completion.scenarios)


def _version(value: bool) -> None:
    if value:
        from . import ENGINE_VERSION

        typer.echo(f"pacesim {ENGINE_VERSION}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version and exit."),
) -> None:
    """pacesim: packet-level simulation of small-buffer networks."""


def _summary(r: Result) -> Table:
    s, (lo, hi) = r.summary, r.report["window_s"]
    t = Table(title=f"Summary over [{lo:g}, {hi:g}] s, {len(r.report['flows']['flow']):,} flows, seed {r.seed}")
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_row("aggregate throughput (core)", f"{s['aggregate_mbps']:.2f} Mb/s")
    if len(r.report["flows"]["flow"]):  # a Tmix-only run has none: its connections' table says the rest
        t.add_row("mean goodput per flow", f"{s['goodput_kbps_mean']:.2f} Kb/s")
    t.add_row("core loss", f"{100 * s['core_loss_rate']:.3f} %")
    t.add_row("core empty-buffer probability", f"{s['core_empty_prob']:.4f}")
    return t


def _tmix(r: Result) -> Table:
    """Each Tmix cloud's connections over the whole run: started, completed (data complete), their mean
    completion time (done_s - start_s) and the completed connections' ADU bytes (both ends) per second of
    the run."""
    end = r.report["window_s"][1]  # the run's end: connections count from its start
    t = Table(title=f"Tmix connections (whole run, {end:g} s)")
    for name in ["cloud", "connections", "completed", "mean completion s", "completed ADUs Mb/s"]:
        t.add_column(name, justify="right")
    for cloud, c in r.tmix.groupby("cloud"):
        done = c[c["done_s"].notna()]
        mean = f"{(done['done_s'] - done['start_s']).mean():.3f}" if len(done) else "-"
        mbps = (done["init_bytes"] + done["acc_bytes"]).sum() * 8 / end / 1e6
        t.add_row(str(cloud), f"{len(c):,}", f"{len(done):,}", mean, f"{mbps:.3f}")
    return t


def _links(r: Result) -> Table:
    t = Table(title="Measured links (window)")
    t.add_column("link", no_wrap=True)
    for name in ["Mb/s", "loss %", "drops", "mean queue B", "P(empty)", "P(idle)"]:
        t.add_column(name, justify="right")
    for name, l in r.report["links"].items():
        t.add_row(
            plain(name),
            f"{l['throughput_mbps']:.2f}",
            f"{100 * l['loss_rate']:.3f}",
            f"{l['drops']:,}",
            f"{l['mean_queue_bytes']:.1f}",
            f"{l['empty_prob']:.4f}",
            f"{l['idle_prob']:.4f}",
        )
    return t


def _pacers(r: Result) -> Table:
    t = Table(title="Pacers (window)")
    for name in ["in front of", "bound ms", "packets", "drops", "mean delay ms", "p99 ms", "max ms"]:
        t.add_column(name, justify="right")
    for link, p in r.report["pacers"].items():
        t.add_row(plain(link), f"{p['delay_bound_ms']:.2f}", f"{p['packets']:,}", f"{p['drops']:,}",
                  f"{p['mean_delay_ms']:.3f}", f"{p['p99_delay_ms']:.3f}", f"{p['max_delay_ms']:.3f}")
    return t


def _quantiles(title: str, rows: dict, caption: Optional[str] = None) -> Table:
    """Min, p10, median, p90, max of each named series (linear interpolation between order statistics, as
    numpy's and pandas' default). The table is at least as wide as its title, which rich would otherwise
    wrap to the columns' width."""
    t = Table(title=title, caption=caption, min_width=len(title))
    for name in ["", "min", "p10", "median", "p90", "max"]:
        t.add_column(name, justify="right")
    for name, values in rows.items():
        if len(values) > 1:
            deciles = statistics.quantiles(values, n=10, method="inclusive")
            cells = [min(values), deciles[0], deciles[4], deciles[8], max(values)]
        else:  # one value is every quantile; none (no TCP flows) has none
            cells = list(values or [float("nan")]) * 5
        t.add_row(name, *(figures(v) for v in cells))
    return t


FLOW_ROWS = 10
"""`pacesim run` prints one row per flow up to this many flows, and beyond it each per-flow statistic's
distribution across the flows (a 1000-flow run's rows are in --json and Result.flows)."""

def _flows(r: Result) -> Table:
    """The window's per-flow statistics (`FLOW_STATS`): one row per flow up to `FLOW_ROWS` flows, else their
    distribution across the flows (a flow without a value, none delivered or sent, left out of its row)."""
    flows = r.report["flows"]
    stats = [(flows[c], label, header, k) for c, label, header, k in FLOW_STATS if c in flows]
    n = len(flows["flow"])
    if n > FLOW_ROWS:
        return _quantiles(f"Per-flow statistics across {n:,} flows",
                          {label: [v * k for v in values if v is not None] for values, label, _, k in stats},
                          caption="each flow's row: --json")
    timed = "; transit delay (mean, percentiles) and jitter, ms" if "transit_mean_ms" in flows else ""
    t = Table(title=f"Flows (window): rates in Kb/s{timed}", box=box.MINIMAL, pad_edge=False)  # 80 columns wide
    for name in ["flow", *(header for _, _, header, _ in stats)]:
        t.add_column(name, justify="right")
    for i, flow in enumerate(flows["flow"]):
        cells = [values[i] if values[i] is None else values[i] * k for values, _, _, k in stats]
        t.add_row(str(flow), *("-" if v is None else f"{v:,}" if isinstance(v, int) else figures(v) for v in cells))
    return t


def _transfers(r: Result) -> Table:
    from .report_tables import goodput_kbps

    t = r.report["transfers"]
    return _quantiles(f"{len(t['fct_s']):,} short transfers finished in the window", {
        "size, KB": [b / 1e3 for b in t["bytes"]],
        "completion, s": t["fct_s"],
        "goodput, Kb/s": [goodput_kbps(b, s) for b, s in zip(t["bytes"], t["fct_s"])],
    })


def _write_report(path: Path, text: str, option: str) -> None:
    """Write `text` to `path` whole or not at all (`outfile.written`); an OSError (a full disk) is an error
    naming `option` and the file, and leaves no partial file behind (nor removes what was there)."""
    try:
        with outfile.written(path) as whole:
            whole.write_text(text, encoding="utf-8")
    except OSError as e:
        write_failed(f"{option} {path}", e)


def _scenario(name: str, overrides: List[str], max_memory: Optional[int] = None):
    """The scenario named by argument SCENARIO (a file, or a packaged scenario's name) with `overrides`; a
    ScenarioError naming what is wrong (a graph too large for `max_memory`, `parse_scenario`, among it). The file is
    validated as it is read: the overrides change its written form (`overridden`), not one held to a file's rules
    again (`apply_overrides`)."""
    from .scenario import ScenarioError, load_scenario, overridden

    if not name.strip():
        raise ScenarioError("SCENARIO", "empty: give a scenario file or a packaged scenario's name")
    return overridden(load_scenario(name, max_memory).written(), overrides)


def _same_file(a: Path, b: Path) -> bool:
    """Whether `a` and `b` name one file (symbolic links followed)."""
    return os.path.realpath(a) == os.path.realpath(b)


@app.command()
@command
def run(
    scenario: str = SCENARIO,
    set_: List[str] = typer.Option([], "--set", metavar="KEY=VALUE", help="Override a key, e.g. core.buffer=5KB (repeatable)."),
    seed: Optional[int] = typer.Option(None, help="Replace the scenario's seed."),
    json_out: Optional[str] = typer.Option(
        None, "--json", metavar="FILE", parser=terminal.path_text,
        help="Write the full report to this JSON file; - writes it to standard output (the tables then go to "
             "standard error).",
    ),
    threads: int = typer.Option(
        min(2, os.cpu_count() or 1), min=1, max=2,
        help="Threads: 2 runs a network that splits at its core link as two halves in parallel (same result).",
    ),
    max_memory: Optional[str] = MAX_MEMORY,
    trace: Optional[Path] = typer.Option(
        None, "--trace", metavar="FILE",
        help="Write a packet trace of [trace]'s links (default: the core) in ns-2's format, or pcap for FILE.pcap.",
    ),
) -> None:
    """Run one scenario and print its summary, links and per-flow statistics (one row per flow up to 10 flows,
    else their distribution)."""
    from rich.progress import Progress

    from . import RecordingStopped
    from .engine import prepared, simulate, slow
    from .scenario import ScenarioError

    json_path = None if json_out in (None, "-") else Path(json_out)
    if trace is not None and str(trace) == "-":
        fail("--trace -: a packet trace goes to a file (its format is the file's ending: .tr or .pcap), "
             "not standard output")
    if json_path is not None:
        writable("--json", json_path, file=True)
    try:
        limit = size_option("--max-memory", max_memory)
        s = _scenario(scenario, set_, limit)
    except ScenarioError as e:
        fail(str(e))
    traced = trace if trace is not None else Path(s.trace.file) if s.trace is not None and s.trace.file else None
    if traced is not None:  # before the run, as it may be long
        writable("--trace" if trace is not None else "trace.file", traced, file=True)
    if json_path is not None and traced is not None and _same_file(json_path, traced):
        fail(f"--json {json_path}: the packet trace is written to the same file; name another")
    try:
        s, threads, estimate = prepared(s, seed=seed, threads=threads, max_memory=limit)
        for note in estimate.notes + slow(s):  # before the run, as it may be long
            warn(note)
        # Off a terminal the bar draws nothing but left an empty line before what followed (an error).
        with Progress(*Progress.get_default_columns(), transient=True, console=terminal.err,
                      disable=not terminal.err.is_terminal) as bar:
            task = bar.add_task("simulating", total=1.0)
            with warnings.catch_warnings(record=True) as stopped:
                warnings.simplefilter("always", RecordingStopped)
                r = simulate(s, threads, progress=lambda done: bar.update(task, completed=done), trace=trace)
        for w in stopped:
            warn(str(w.message))
    except ScenarioError as e:  # the trace's file named as the user gave it: --trace, or the scenario's field
        fail(f"--trace {trace}: {e.message}" if trace is not None and e.field == "trace.file" else str(e))
    except OSError as e:  # the packet trace could not be written: 1 for a full disk (terminal.FAILING)
        write_failed(f"--trace {trace}" if trace is not None else f"trace.file {e.filename}", e)
    except RuntimeError as e:
        fail(f"the engine failed: {e}", 1)
    except KeyboardInterrupt:
        terminal.err.print(Text("interrupted", "red"))
        raise typer.Exit(130)
    # The files first: a reader that closes standard output early (`| head`) stops the printing only.
    if json_path is not None:
        _write_report(json_path, r.json_text(), "--json")
    elif json_out == "-":
        try:
            sys.stdout.write(r.json_text())
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as e:  # a full disk behind a redirection, say
            write_failed("--json -: standard output", e)
    out = terminal.err if json_out == "-" else terminal.out()
    tables = [_summary(r), _links(r)] + ([_pacers(r)] if r.report["pacers"] else [])
    tables += [_flows(r)] if len(r.report["flows"]["flow"]) else []
    tables += [_tmix(r)] if r.tmix is not None else []
    tables += [_transfers(r)] if r.summary["transfers"] else []
    for table in tables:
        out.print(table)
    w = r.work
    out.print(
        f"wall {r.wall_s:.2f} s, {w['events']:,} events ({w['events'] / r.wall_s / 1e6:.2f} M/s), "
        f"{w['packet_hops']:,} packet-hops, engine {r.engine_version}"
    )
    if json_path is not None:
        out.print(plain(f"report written to {json_path}"), soft_wrap=True)
    if r.scenario.trace is not None and r.scenario.trace.file is not None:
        out.print(plain(f"trace written to {r.scenario.trace.file}"), soft_wrap=True)


@app.command()
@command
def model(
    model_id: Optional[str] = typer.Argument(None, metavar="ID", help="Experiment id, e.g. a-fig10 (see --list).",
                                             autocompletion=completion.model_ids),
    list_: bool = typer.Option(False, "--list", help="List the model ids and exit."),
    out: Optional[Path] = typer.Option(None, "--out", help="Output directory [default: results/models/ID]."),
    set_: List[str] = typer.Option([], "--set", metavar="KEY=VALUE", help="Override a model parameter, e.g. bstar_kb=10 (repeatable)."),
    overlay: Optional[Path] = typer.Option(
        None, "--overlay", exists=True, dir_okay=False,
        help="CSV of simulated points: columns named like the model CSV's are drawn as markers; for a-fig10 and "
             "e-fig10 also the points CSV of `pacesim reproduce A-fig11` / `E-fig11`.",
    ),
    simulate: bool = typer.Option(False, "--simulate", help="Run the model's packet-level check and overlay it (q-thm2)."),
) -> None:
    """Compute one of the papers' analytical models; write its CSV, PNG and SVG."""
    from .analysis.models import parse_overrides
    from .papers import MODELS

    if list_:
        t = Table(title="Analytical models (pacesim model ID)")
        for name in ["id", "what", "paper"]:
            t.add_column(name)
        for m in MODELS.values():
            t.add_row(m.id, m.title, m.source)
        terminal.out().print(t)
        return
    if model_id is None:
        fail("ID: give a model ID (or --list)")
    key = model_id.lower()
    if key not in MODELS:
        fail(f"unknown model {model_id!r}; known: {', '.join(MODELS)}")
    try:
        parse_overrides(MODELS[key], set_)
    except ValueError as e:
        fail(f"--set: {e}")
    target = out if out is not None else Path("results") / "models" / key
    writable("--out", target)  # made by render once the inputs are read: a failing command leaves none
    from .analysis.draw import render  # matplotlib and SciPy: after the arguments are checked (1.7 s of CPU)

    try:
        written, facts, out_model = render(MODELS[key], target, set_, overlay, simulate)
    except ValueError as e:
        fail(str(e))
    except OSError as e:
        write_failed(f"--out {target}", e)
    con = terminal.out()
    t = Table(title=f"{key}: {MODELS[key].title}")
    t.add_column("quantity")
    t.add_column("value")
    for k, v in facts.items():
        t.add_row(plain(k), plain(v))
    con.print(t)
    from .analysis.model_claims import judge_model

    judged = judge_model(MODELS[key], out_model)
    if judged:
        c = Table(title=f"{key}: claims (docs/experiments.md)")
        for col in ["claim", "verdict", "numbers"]:
            c.add_column(col)
        for j in judged:
            c.add_row(plain(f"{j.id} {j.expect}"), plain(j.verdict), plain(j.numbers))
        con.print(c)
    for path in written:
        terminal.say(f"wrote {path}")


topology_app = typer.Typer(no_args_is_help=True, help="Look at a scenario's network.")
app.add_typer(topology_app, name="topology")


@topology_app.command("show")
@command
def topology_show(
    scenario: str = SCENARIO,
    set_: List[str] = typer.Option([], "--set", metavar="KEY=VALUE", help="Override a key (repeatable)."),
    routes: int = typer.Option(3, "--routes", min=0, max=10_000, help="Example flows whose routes to print."),
    links: int = typer.Option(12, "--links", min=0, help="Link halves to list (the core and measured ones first)."),
    png: Optional[Path] = typer.Option(None, "--png", help="Also draw the graph to this file: PNG, or SVG or PDF by its "
                                                           "suffix."),
    max_memory: Optional[str] = MAX_MEMORY,
) -> None:
    """Print a scenario's nodes, links and example routes, as the engine builds them (refused as `run` refuses a
    scenario whose network alone would not fit in --max-memory)."""
    from . import memory
    from .plot import check_image_path
    from .scenario import ScenarioError
    from .topology import describe

    if png is not None:
        try:
            check_image_path(png)
        except ValueError as e:
            fail(f"--png {e}")
        writable("--png", png, file=True)
    try:
        limit = size_option("--max-memory", max_memory)
        s = _scenario(scenario, set_, limit)
        memory.check(s, limit, of=memory.network)  # describing builds the network
        d = describe(s, routes)
    except ScenarioError as e:
        fail(str(e))
    out = terminal.out()
    out.print(Text.assemble((s.topology.kind, "bold"), f": {len(d['routers']):,} routers, {len(d['hosts']):,} hosts, "
                            f"{len(d['links']):,} link halves, {d['flows']:,} flows; core link {shown(d['core'])}"))
    listed = sorted(d["links"], key=lambda l: (l["name"] != d["core"], not l["measured"], not l["pacer"]))[:links]
    t = Table(title=f"Links ({len(listed):,} of {len(d['links']):,}: core, measured and paced first)")
    for col in ["name", "from", "to", "rate", "delay", "buffer", "measured", "pacer"]:
        t.add_column(col, justify="left" if col in ("name", "from", "to", "pacer") else "right")
    for l in listed:
        limits = [format_size(l["buffer_bytes"])] if l["buffer_bytes"] is not None else []
        limits += [f"{l['buffer_packets']} pkts"] if l["buffer_packets"] is not None else []
        t.add_row(plain(l["name"]), plain(l["from"]), plain(l["to"]), rounded_rate(l["rate_bps"]),
                  f"{l['delay_ns'] / 1e6:.3g} ms", " + ".join(limits) or "unlimited", "yes" if l["measured"] else "",
                  l["pacer"] or "")
    out.print(t)
    for r in d["routes"]:
        out.print(plain(f"flow {r['flow']} {r['from']} -> {r['to']}, base RTT {r['base_rtt_ms']:.1f} ms",
                        f"  data: {' > '.join(r['data'])}", f"  acks: {' > '.join(r['acks'])}"))
    if png is not None:
        from .plot import DPI, network_figure

        try:
            with outfile.written(png) as whole:
                network_figure(d).savefig(whole, dpi=DPI)
        except OSError as e:
            write_failed(f"--png {png}", e)
        out.print(plain(f"wrote {png}"), soft_wrap=True)


from .experiment_commands import register  # noqa: E402  (sweep, results, plot, reproduce, report)

register(app)

from .trace_commands import register as register_trace  # noqa: E402

register_trace(app)

from .tmix_commands import register as register_tmix  # noqa: E402

register_tmix(app)

if __name__ == "__main__":  # python -m pacesim.cli
    app(prog_name="pacesim")
