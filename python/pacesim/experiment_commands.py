"""The experiment commands of the `pacesim` CLI: sweep, results, plot, reproduce, report.

`register(app)` adds them to the Typer app in cli.py; the work itself lives
in sweep/, store.py, plot.py, reproduce/ and site/.
"""

from __future__ import annotations

import difflib
import functools
import os
import signal
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional

import typer
from rich.table import Table
from rich.text import Text

from . import completion, outfile, terminal
from .terminal import FAILING, command, fail, plain, writable, write_failed

RESULTS = typer.Option(Path("results"), "--results", help="Results directory (database and Parquet tables).")
WORKERS = typer.Option(None, "--workers", min=1, max=max(64, 4 * (os.cpu_count() or 1)),
                       help="Worker processes [default: one per core].")
SCHEDULER = typer.Option(None, "--scheduler", metavar="tcp://HOST:PORT", help="Run on this Dask scheduler (extra: pacesim[dask]).")
QUICK_ONE_SEED = "Q-fig9, Q-fig11, Q-fig16, Q-tab2 and X-scale"
"""The ids whose quick run has one seed, as their sweep files set it (tests/test_cli_light.py checks it)."""
DASK = typer.Option(False, "--dask", help="Run on a Dask LocalCluster (--workers processes; extra: pacesim[dask]).")
MAX_MEMORY = typer.Option(
    None, "--max-memory", metavar="SIZE",
    help="Refuse a scenario (a sweep's: each point) whose estimated memory exceeds this, e.g. 4GB [default: the "
         "memory available where it runs].",
)


def size_option(name: str, text: Optional[str]) -> Optional[int]:
    """An option's size in bytes (None if not given); a ScenarioError naming the option if it is no size."""
    from .scenario import ScenarioError
    from .units import parse_size

    try:
        return None if text is None else parse_size(text)
    except ValueError as e:
        raise ScenarioError(name, str(e)) from None


class Terminated(KeyboardInterrupt):
    """A SIGTERM, raised where Ctrl-C raises KeyboardInterrupt, so that the same code abandons the points in
    flight and ends the workers."""


def _terminated(signum, frame) -> None:
    raise Terminated


@contextmanager
def _interruptible(results: Path) -> Iterator[None]:
    """Ctrl-C ends the command (exit status 130) with a word on what is kept, and so does a SIGTERM (143,
    128 + 15, as the signal's default would, which said nothing): the executor has abandoned the points in
    flight and ended its workers; every point stored before is kept (each is one SQLite transaction). No
    store there yet (Ctrl-C while a Dask cluster starts, before the store is made): nothing was stored."""
    main = threading.current_thread() is threading.main_thread()  # signal handlers are the main thread's
    previous = signal.signal(signal.SIGTERM, _terminated) if main else None
    try:
        yield
    except KeyboardInterrupt as e:
        how, code = ("terminated (SIGTERM):", 143) if isinstance(e, Terminated) else ("interrupted:", 130)
        kept = (f"finished points are kept in {terminal.shown(results)}; run again to go on"
                if (results / "pacesim.sqlite").is_file() else
                f"nothing was stored (no results store in {terminal.shown(results)})")
        terminal.err.print(Text.assemble((how, "red"), " " + kept), soft_wrap=True)
        raise typer.Exit(code) from None
    finally:
        if previous is not None:  # None: not ours to set (off the main thread, or set outside Python)
            signal.signal(signal.SIGTERM, previous)


def _print_whole(table: Table) -> None:
    """Print `table` to stdout; into a file or a pipe at its full width (rich's default there is 80 columns,
    which cuts headers), to a terminal at the terminal's."""
    con = terminal.out()
    need = con.measure(table, options=con.options.update_width(10_000)).maximum
    (con if con.is_terminal or need <= con.width else terminal.out(width=need)).print(table)


def _done_in_read_only(sw, results: Path, refusal: Exception, quiet: bool, limit: Optional[int]) -> None:
    """A sweep against a store that cannot be written (`refusal`): said to be done if the store holds all
    of it, else that refusal and what is left to write (its points checked with --max-memory's `limit`)."""
    from .store import Store, StoreError
    from .sweep import SweepError, unwritten

    try:
        with _interruptible(results), Store(results, read_only=True) as store:
            left = unwritten(sw, store, progress=not quiet, max_memory=limit)
    except (OSError, StoreError, SweepError):  # no store there to read, or one that cannot be read either
        fail(f"--results: {refusal}")
    if left:
        fail(f"--results: {refusal}; {sw.name}: {left}")
    terminal.say(f"{sw.name}: {sw.size} points, all already done; nothing to write to {results}, "
                 "which cannot be written here")


def sweep(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="Sweep TOML file."),
    results: Path = RESULTS,
    workers: Optional[int] = WORKERS,
    scheduler: Optional[str] = SCHEDULER,
    dask: bool = DASK,
    max_memory: Optional[str] = MAX_MEMORY,
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    quick: bool = typer.Option(False, "--quick", help="Run the file's [quick] version instead."),
    redefine: bool = typer.Option(False, "--redefine", help="The store holds a sweep of this name defined "
                                  "otherwise: name this file's definition so (its finished runs are kept, and "
                                  "points both share are not run again) [default: refused, saying what differs]."),
) -> None:
    """Run every point of a sweep not already in the results store."""
    from .scenario import ScenarioError
    from .store import ReadOnlyStore, Store
    from .sweep import SweepError, executor, load_sweep, run_sweep
    from .sweep.progress import bar

    try:
        limit = size_option("--max-memory", max_memory)
        # a sweep of many variants checks them for some time: shown, and stopped by a signal as a run is
        with _interruptible(results), bar(not quiet) as shown:
            sw = load_sweep(file, limit, shown)
            sw = sw.reduced(shown) if quick else sw
    except (SweepError, ScenarioError) as e:
        fail(str(e))
    try:
        # The executor first: a refused --dask or --scheduler leaves no store behind.
        with _interruptible(results), executor(workers, scheduler, dask) as pool, Store(results) as store:
            if not redefine:
                _same_definition(sw, store, file)
            run = run_sweep(sw, store, pool, progress=not quiet, origin=f"sweep {file.resolve()}", max_memory=limit)
            failed = store.points(sw.name).query("status == 'failed'")
    except SweepError as e:  # a point invalid (found before any runs), the scheduler unreachable, a store
        fail(str(e), e.status)
    except ReadOnlyStore as e:
        _done_in_read_only(sw, results, e, quiet, limit)
        return
    terminal.say(f"{run.name}: {run.points:,} points, {run.skipped:,} already done, {run.ran:,} run, "
                               f"{run.failed:,} failed, {run.wall_s:.1f} s; stored in {results}")
    for e in failed["error"].head(5):
        terminal.err.print(Text.assemble(("error:", "red"), " a point failed: ", terminal.shown(e)), soft_wrap=True)
    if len(failed):
        raise typer.Exit(1)


def _same_definition(sw, store, file: Path) -> None:
    """Refuse sweep `sw` when `store` holds a sweep of its name defined otherwise (another file, or this one
    edited), saying what differs: running it would silently make the name stand for the new definition, and
    `results` and `plot` show that one's points only."""
    import json

    from .store import StoreError

    try:
        old = store.spec(sw.name)
    except KeyError:
        return
    except StoreError as e:  # damaged: nothing to compare with, and this sweep writes its definition again
        terminal.warn(f"{e} (this sweep does so)")
        return
    changed = _redefinition(old, json.loads(json.dumps(sw.spec())))
    if changed:
        fail(f"{file}: the store holds a sweep {sw.name} defined otherwise ({'; '.join(changed)}): give --redefine "
             "to name this definition so (its finished runs stay in the store, and points both share are not run "
             "again), or give the sweep another name")


def _flat(tree, at: str = "") -> dict:
    """A nested dict as {dotted key: value}, lists kept whole."""
    if not isinstance(tree, dict):
        return {at: tree}
    return {k: v for key, sub in tree.items() for k, v in _flat(sub, f"{at}.{key}" if at else key).items()}


def _redefinition(old: dict, new: dict) -> List[str]:
    """What differs between two sweep definitions (`Sweep.spec`), one phrase each: an axis's values, the seeds,
    the overrides, the scale, the variants, a value of the base scenario. A key of the base scenario that
    only one of them has is left out: a newer pacesim writes its new settings' defaults into the same file's
    definition."""
    changed = []
    for part in ("axes", "seeds", "set", "scale", "variants"):
        was, now = old.get(part), new.get(part)
        if part in ("axes", "variants"):
            was, now = was or {}, now or {}
            changed += [f"{'axis' if part == 'axes' else 'variant'} {k}: {was.get(k, 'none')} -> "
                        f"{now.get(k, 'none')}" for k in dict.fromkeys([*was, *now]) if was.get(k) != now.get(k)]
        elif was != now:
            changed.append(f"{part}: {was} -> {now}")
    was, now = _flat(old.get("base", {})), _flat(new.get("base", {}))
    changed += [f"scenario {k}: {was[k]} -> {now[k]}" for k in was if k in now and was[k] != now[k]]
    return changed


def results(
    name: Optional[str] = typer.Argument(None, help="A sweep: list its points instead of the sweeps.",
                                         autocompletion=completion.sweep_names),
    results: Path = RESULTS,
    csv: Optional[Path] = typer.Option(None, "--csv", help="Write the sweep's points to this CSV (- for standard "
                                                           "output): every column, an axis in units as a number "
                                                           "whose column names its unit (core.buffer_bytes) and as "
                                                           "written (core.buffer_written)."),
) -> None:
    """List the sweeps in the results store, or one sweep's points."""
    from .store import Store, held

    if not held(results):
        fail(f"--results {results}: no results store there (no pacesim.sqlite)")
    if csv is not None and str(csv) != "-":
        writable("--csv", csv, file=True)  # before reading the store: a FIFO or /proc refused at once
    with Store(results, read_only=True) as store:
        if name is None:
            df = store.sweeps()
            t = Table(title=plain(f"Sweeps in {results}"))
            for col in ["sweep", "points", "ok", "damaged", "failed", "pending", "engine s", "updated (UTC)"]:
                t.add_column(col, justify="left" if col in ("sweep", "updated (UTC)") else "right")
            for r in df.itertuples(index=False):
                t.add_row(plain(r.sweep), f"{r.points:,}", f"{r.ok:,}", f"{r.damaged:,}", f"{r.failed:,}",
                          f"{r.pending:,}", f"{r.engine_s:.1f}", r.updated_at[:19])
            _print_whole(t)
            if df["damaged"].any():
                n = df["damaged"].sum()
                terminal.warn(f"{n:,} stored point{'s are' if n > 1 else ' is'} damaged (a run's row or table file is "
                              "not the one committed): `pacesim results NAME` names each, and its sweep runs it again")
            return
        try:
            df = store.points(name, written=True, damaged=True)
            axes = list(store.spec(name)["axes"])
        except KeyError as e:
            fail(str(e.args[0]))
    to_stdout = csv is not None and str(csv) == "-"
    if csv is not None:
        import sys

        from .report_tables import axis_numbers

        try:
            if to_stdout:
                axis_numbers(df, axes).to_csv(sys.stdout, index=False)
                sys.stdout.flush()
            else:
                with outfile.written(csv) as whole:  # no partial CSV left by a full disk
                    axis_numbers(df, axes).to_csv(whole, index=False)
        except BrokenPipeError:
            raise
        except OSError as e:
            write_failed(f"--csv {csv}", e)
    metrics = [m for m in ["aggregate_mbps", "goodput_kbps_mean", "core_loss_rate"] if m in df]
    t = Table(title=plain(f"{name}: {len(df):,} points"))
    for col in axes + ["seed", "status"] + metrics + ["wall s"]:
        t.add_column(plain(col), justify="right")
    for r in df.to_dict("records"):
        values = [str(r[a]) for a in axes] + [str(r["seed"]), r["status"]]
        values += ["" if r[m] != r[m] else f"{r[m]:.4g}" for m in metrics]
        values.append("" if r["wall_s"] != r["wall_s"] or r["wall_s"] is None else f"{r['wall_s']:.2f}")
        t.add_row(*(plain(v) for v in values))
    if to_stdout:  # the CSV is standard output: the table goes to standard error
        terminal.err.print(t)
    else:
        _print_whole(t)
    _say_damaged(name, df, axes)
    if csv is not None and not to_stdout:
        _written([csv])


def _say_damaged(name: str, points, axes: List[str], shown: int = 5) -> None:
    """A warning for each of sweep `name`'s `points` (`Store.points(..., damaged=True)`) found damaged, naming
    the point and why (the first `shown` of them, and how many more)."""
    from .sweep.definition import named

    damaged = points[points["status"] == "damaged"]
    for r in damaged.head(shown).to_dict("records"):
        terminal.warn(f"{name}: the stored run of {named({a: r[a] for a in axes}, r['seed'])} is damaged: {r['error']}; "
                      "a sweep runs it again")
    if len(damaged) > shown:
        terminal.warn(f"{name}: {len(damaged) - shown:,} more stored points are damaged")


def _figure_options(formats: List[str], size: str, out: Optional[Path]) -> List[str]:
    """The formats to write (png and svg unless given; "pdf" or ".pdf"), each one matplotlib writes; `size` a
    known size; `out` a path without an image format's ending (the endings come from the formats: `--out
    fig.png --format pdf` would write fig.png.pdf)."""
    from .plot import FORMATS, SIZES, check_image_path

    if size not in SIZES:
        fail(f"--size {size!r}: sizes are {', '.join(SIZES)}")
    kinds = [f.lower().removeprefix(".") for f in formats]
    for f, kind in zip(formats, kinds):
        try:
            check_image_path(f"figure.{kind}")
        except ValueError as e:
            fail(f"--format {f!r}: {str(e).partition(': ')[2]}")
    if out is not None and out.suffix:
        try:
            check_image_path(out)
        except ValueError:
            pass  # not an image's ending: a dot of the name ("ser-core.buffer=3KB")
        else:
            fail(f"--out {out}: give the path without its ending ({out.with_suffix('')}); the figure's formats "
                 f"come from --format (now {', '.join(kinds or FORMATS)})")
    kinds = list(dict.fromkeys(kinds)) or list(FORMATS)
    if out is not None and out.exists() and not out.is_file():
        # Its files are made beside it, not in it: --out /dev/null made /dev/null.png and /dev/null.svg (as root).
        from .fields import special  # pydantic's models: not loaded for --version

        fail(f"--out {out}: is {special(out)}; --out is the figure's own path without its ending, its files made "
             f"beside it ({', '.join(f'{out.name}.{k}' for k in kinds)}): name "
             + (f"one in it, e.g. {out / 'figure'}" if out.is_dir() else "a file"))
    return kinds


def _figure_place(stem: Path, out: Optional[Path], kinds: List[str]) -> None:
    """Before drawing: stem's directory made (a read-only store's plots/ refused at once, naming --out as
    typed, else plots/), and each file of the figure one that can be written there (`terminal.writable`: no
    directory or FIFO in its place)."""
    writable("--out", stem.parent, make=True, given=out)
    for kind in kinds:
        writable("--out", stem.parent / f"{stem.name}.{kind}", file=True)


def _filters(df, name: str, axes: List[str], where: List[str]) -> dict:
    """--where's AXIS=V1,V2 items as {axis: [values]}, each the axis's values as the sweep wrote them that the
    item keeps, ascending (3000, 3kB and 3KB are all 3KB: one selection, one name for its file); an error
    naming the item when its axis is no axis of sweep `name`, is given twice, or one of its values is none of
    the axis's (it would draw nothing, or quietly less than asked). A value that holds a comma and is one of
    the axis's values whole (a variant named `c,d`) is that value, not two."""
    from .panels import ascending, matches

    filters = {}
    for item in where:
        key, sep, values = item.partition("=")
        if not sep or key not in axes:
            fail(f"--where takes AXIS=V1,V2 with an axis of {name} ({', '.join(axes)}), got {item!r}")
        if key in filters:
            fail(f"--where {item}: {key} is given twice; give its values once, as {key}=V1,V2")
        wanted = [values] if "," in values and matches(df[key], [values]).any() else values.split(",")
        missing = [v for v in wanted if not matches(df[key], [v]).any()]
        if missing:
            have = ", ".join(map(str, ascending(df[key])))
            fail(f"--where {item}: no point of {name} has {key} = {' or '.join(missing)}; its values: {have}")
        filters[key] = [str(v) for v in ascending(df.loc[matches(df[key], wanted), key])]
    return filters


def _size_tag(size: str) -> str:
    """The end of a figure's default name for `size`: none for the screen's, `-one-column` for a paper's, so
    that a figure drawn for a paper and one for the screen keep their own files."""
    return "" if size == "screen" else f"-{size}"


TITLE_IN_NAME = 40
"""The most characters of a --title a figure's default name carries."""


def _title_tag(title: Optional[str]) -> str:
    """The end of a figure's default name for --title: none for the default title, `-untitled` for none,
    else `-title=` and the title with spaces as `_`, followed by a hash of the title when it had other
    characters a file name cannot hold, was cut to `TITLE_IN_NAME` or ends as such a tag does (`-` and 8
    hexadecimal digits): two titles never share a file."""
    if title is None:
        return ""
    if not title:
        return "-untitled"
    import hashlib
    import re

    text = re.sub(r"[^A-Za-z0-9.,+=-]+", "_", title)[:TITLE_IN_NAME]
    whole = text.replace("_", " ") == title and not re.search(r"-[0-9a-f]{8}$", text)
    return f"-title={text}" + ("" if whole else f"-{hashlib.sha256(title.encode()).hexdigest()[:8]}")


def _written(paths) -> None:
    for path in paths:
        terminal.say(f"wrote {path}")


def plot(
    name: str = typer.Argument(..., help="The sweep to draw.", autocompletion=completion.sweep_names),
    y: Optional[str] = typer.Option(None, "--y", help="Metric, e.g. aggregate_mbps, core_loss_rate "
                                                     "[default: goodput_kbps_mean].",
                                    autocompletion=completion.metric_names),
    x: Optional[str] = typer.Option(None, "--x", help="Axis for the x axis [default: core.buffer].",
                                    autocompletion=completion.axis_names),
    by: List[str] = typer.Option([], "--by", help="Axis: one series per value (repeatable) [default: every other "
                                                  "axis with several values, so none is averaged over].",
                                 autocompletion=completion.axis_names),
    where: List[str] = typer.Option([], "--where", metavar="AXIS=V1,V2", help="Keep only these values of an axis "
                                    "(repeatable): as written (3KB), or for an axis in units a number in bytes, "
                                    "seconds or bit/s, as the Python API gives it (3000). On the x axis "
                                    "two values or more (one would leave each series a point).",
                                    autocompletion=completion.where_items),
    out: Optional[Path] = typer.Option(None, "--out", help="Output path without suffix [default: RESULTS/plots/NAME-Y-vs-X, "
                                                           "then -by-AXIS and -AXIS=VALUES for --by and --where, "
                                                           "-logy for --logy, -SIZE for a paper's --size and "
                                                           "-title=TITLE for --title; a name whose characters "
                                                           "a file name cannot hold, or that ends as such a "
                                                           "name does, ends in a hash of it: each its own file]."),
    logy: bool = typer.Option(False, "--logy", help="Logarithmic y axis (loss rates always are, in percent: "
                                                    "refused for them)."),
    series: List[str] = typer.Option([], "--series", help="Instead: draw this time series of one run against time "
                                     "(cwnd, ssthresh, srtt, rto, queue, queue_packets, drops, arrivals, backlog, rate; "
                                     "repeatable, one panel each)."),
    flows: Optional[str] = typer.Option(None, "--flows", metavar="I,J", help="With --series: these flows only."),
    links: Optional[str] = typer.Option(None, "--links", metavar="A,B", help="With --series: these links or pacers only."),
    seed: Optional[int] = typer.Option(None, "--seed", help="With --series: the point of this seed."),
    window: Optional[str] = typer.Option(None, "--window", metavar="START:END",
                                         help="With --series: only these seconds of the run, e.g. 10:12 (either "
                                              "end may be left out)."),
    title: Optional[str] = typer.Option(None, "--title", help="The figure's title; \"\" for none [default: the "
                                                              "paper figure, or the sweep's name]."),
    size: str = typer.Option("screen", "--size", autocompletion=completion.sizes,
                             help="screen, or a paper's one-column or two-column width "
                                                      "(3.5 or 7.16 inches, 8-point text)."),
    formats: List[str] = typer.Option([], "--format", metavar="FORMAT", help="png, svg, pdf, ... (repeatable) "
                                                                             "[default: png and svg]."),
    results: Path = RESULTS,
) -> None:
    """Draw a metric against an axis, one series per value of --by, 95 % confidence intervals over seeds (PNG and
    SVG); or, with --series, one run's recorded time series (`[series]`) against time."""
    from .panels import LOSS, QUICK_RUN, Panel, file_name, paper_ref, select, unaveraged
    from .plot import figure
    from .papers import FIGURES
    from .store import Store, held

    kinds = _figure_options(formats, size, out)
    # An option of the other kind of plot is refused rather than left unused (the figure would not be the one
    # asked for, under the same name).
    given = {"--x": x is not None, "--y": y is not None, "--by": bool(by), "--logy": logy}
    unused = [o for o, g in given.items() if g] if series else \
        [o for o, g in {"--seed": seed is not None, "--flows": flows is not None, "--links": links is not None,
                        "--window": window is not None}.items() if g]
    if unused:
        fail(f"{', '.join(unused)}: {'not' if series else 'only'} with --series ("
             + ("one run's series are drawn against time, of the point --where and --seed leave" if series else
                "a sweep's points are drawn averaged over its seeds, every flow and link; --series draws one run "
                "against time") + ")")
    x, y = x or "core.buffer", y or "goodput_kbps_mean"
    if not held(results):
        fail(f"--results {results}: no results store there (no pacesim.sqlite)")
    with Store(results, read_only=True) as store:
        try:
            df = store.points(name, written=True)
            axes = list(store.spec(name)["axes"])
        except KeyError as e:
            fail(str(e.args[0]))
        if series:
            return _plot_series(store, name, df, axes, series, flows, links, seed, where, window, out, results,
                                title, size, kinds)
    for key in [x, *by]:
        if key not in axes:
            fail(f"{key!r} is not an axis of {name}; axes: {', '.join(axes)}")
    if x in by:
        fail(f"--by {x}: it is the x axis (--x); --by takes another axis, one series per value")
    by = list(dict.fromkeys(by))
    skip = set(axes) | {"seed", "key", "status", "error", "wall_s", "code_version", "finished_at"}
    metrics = [c for c in df.columns if c not in skip and pd_numeric(df[c]) and df[c].notna().any()]
    if y not in metrics:
        what = f"no metric {y!r} in {name}" if y not in df else f"no numeric metric {y!r} in {name}" \
            if not pd_numeric(df[y]) else f"no point of {name} has a value of {y!r} (a mean over nothing, as " \
                                          "over no short transfers, has none)"
        fail(f"{what}; metrics with values: {', '.join(metrics) or 'none'}")
    if logy and y in LOSS:  # it would draw the figure without it, in a file of its own
        fail(f"--logy: {y} is a loss rate, always drawn on a logarithmic axis in percent; leave --logy out")
    filters = _filters(df, name, axes, where)
    if len(filters.get(x, ())) == 1:  # every series one point: no curve against x
        item = next(w for w in where if w.partition("=")[0] == x)
        fail(f"--where {item}: {x} is the x axis (--x), and one value of it leaves each series a single point; "
             f"--where on the x axis keeps two of its values or more, or draw against another axis (--x)")
    panel = Panel(x, y, by, filters, logy=logy)
    if not by:
        panel = Panel(x, y, list(unaveraged(df, axes, panel)), filters, logy=logy)
    left = unaveraged(df, axes, panel)
    if left:
        fail("; ".join(f"axis {a!r} has values {', '.join(map(str, v))}: add --by {a} or --where {a}=VALUE, "
                        f"else they are averaged together" for a, v in left.items()))
    ok = select(df[df["status"] == "ok"], filters)
    if ok[y].dropna().empty:
        fail(f"no finished point of {name} with a value of {y} is left by --where {' --where '.join(where)}")
    figure_id = name.removesuffix("-quick")
    titled = _title_tag(title)  # a title of one's own, before the default is made
    if title is None:
        title = f"{paper_ref(figure_id)}: {FIGURES[figure_id].caption}" if figure_id in FIGURES else name
        title += QUICK_RUN if figure_id in FIGURES and name != figure_id else ""
        if filters:  # the figure draws only part of the sweep: its title says which
            title += "\nwhere " + "; ".join(f"{k} = {' or '.join(map(str, v))}" for k, v in filters.items())
    named = f"{name}-{y}-vs-{x}" + "".join(f"-by-{b}" for b in panel.by)
    named += "".join(f"-{k}={','.join(v)}" for k, v in filters.items()) + ("-logy" if logy else "")
    named += _size_tag(size) + titled
    written = [v for values in filters.values() for v in values]  # the parts of the name a user wrote
    stem = out if out is not None else results / "plots" / file_name(named, written)
    _figure_place(stem, out, kinds)
    try:
        _written(figure(df, [panel], stem, title, axes=axes, size=size, formats=kinds))
    except OSError as e:
        write_failed(f"--out {stem}", e)


def pd_numeric(column) -> bool:
    """Whether a points column holds numbers (a metric), not text (status, an axis of unit strings)."""
    import pandas as pd

    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def _seconds(t: Optional[float]) -> str:
    """A window's end in a file name: short (`21`, `2.5`) where that is the number exactly, else every digit
    it needs (`21.0000001`), so that two windows never share a file; empty when left out."""
    if t is None:
        return ""
    return f"{t:g}" if float(f"{t:g}") == t else repr(t)


def _window(text: Optional[str]) -> tuple:
    """--window START:END in seconds as (start, end), either None when left out; an error naming it."""
    import math

    if text is None:
        return None, None
    a, sep, b = text.partition(":")
    try:
        start, end = (float(a) if a.strip() else None), (float(b) if b.strip() else None)
    except ValueError:
        start = end = math.nan
    if not sep or any(v is not None and not (math.isfinite(v) and v >= 0) for v in (start, end)):
        fail(f"--window {text!r}: give START:END in seconds (>= 0), e.g. 10:12, 10: or :5")
    if start is not None and end is not None and not start < end:
        fail(f"--window {text!r}: its start must come before its end")
    return start, end


def _plot_series(store, name: str, df, axes: List[str], series: List[str], flows: Optional[str],
                 links: Optional[str], seed: Optional[int], where: List[str], window: Optional[str],
                 out: Optional[Path], results: Path, title: Optional[str], size: str, formats: List[str]) -> None:
    """`pacesim plot NAME --series ...`: the series of the one point of sweep NAME that --where and --seed leave,
    titled and named by that point's axis values, seed and run."""
    from .panels import file_name, in_window, matches, series_name
    from .plot import series_figure

    try:
        names = [series_name(s) for s in series]
    except ValueError as e:
        fail(str(e))
    start, end = _window(window)
    for key, wanted in _filters(df, name, axes, where).items():
        df = df[matches(df[key], wanted)]
    seeds = sorted(set(df.loc[df["status"] == "ok", "seed"]))
    if seed is not None:
        df = df[df["seed"] == seed]
    df = df[df["status"] == "ok"]
    if len(df) != 1:
        shown = "; ".join(", ".join(f"{a}={r[a]}" for a in axes) + f" seed={r['seed']}" for r in df.to_dict("records")[:6])
        fail(f"--series draws one run: {len(df):,} finished points of {name} match"
              + (f" ({shown}); choose one with --where AXIS=VALUE or --seed N" if len(df) else
                 f" (--seed {seed}; their finished seeds: {', '.join(map(str, seeds)) or 'none'})"
                 if seed is not None else ""))
    point = df.iloc[0]
    try:
        rows = store.table(point["key"], "series")
    except KeyError:
        fail(f"the run of {name} recorded no series: add a [series] table to its scenario")
    entities = None
    if flows is not None or links is not None:
        entities = [f"flow.{f.strip()}" for f in (flows or "").split(",") if f.strip()]
        entities += [x.strip() for x in (links or "").split(",") if x.strip()]
    if entities is not None:  # each flow and link named must be one the run recorded a series of
        recorded = set(rows.loc[rows["series"].isin(names), "entity"])
        unknown = [e for e in entities if e not in recorded]
        if unknown:
            fail(f"--flows/--links: the run recorded no {', '.join(names)} of {', '.join(unknown)}; it recorded "
                 f"{', '.join(sorted(recorded)) or 'none'}")
    for s in names:
        have = set(rows.loc[rows["series"] == s, "entity"])
        if not have or (entities is not None and not have & set(entities)):
            recorded = ", ".join(f"{e} {q}" for e, q in rows[["entity", "series"]].drop_duplicates().itertuples(index=False))
            fail(f"the run recorded no {s} of {', '.join(entities or []) or 'anything'}; it recorded: {recorded or 'nothing'}")
    times = rows["time_s"]
    if times[(times >= (start or 0)) & (times <= (end if end is not None else float("inf")))].empty:
        fail(f"--window {window}: the run recorded nothing in it (its series run from {times.min():g} to "
             f"{times.max():g} s)")
    rows = in_window(rows, start, end)
    at = ", ".join(f"{a}={point[a]}" for a in axes) + f", seed {point['seed']}"
    span = "" if window is None else f"-t{_seconds(start)}-{_seconds(end)}s"
    titled = _title_tag(title)  # a title of one's own, before the default is made
    if title is None:
        title = f"{name}: {at} (run {str(point['key'])[:12]})"
    of = "" if entities is None else "-of-" + "-".join(entities)  # --flows and --links name their own file
    named = f"{name}-" + "-".join(f"{a}={point[a]}" for a in axes) + f"-seed{point['seed']}{span}-{'-'.join(names)}{of}"
    named += _size_tag(size) + titled
    written = [str(point[a]) for a in axes] + (entities or [])  # the parts of the name a user wrote
    stem = out if out is not None else results / "plots" / file_name(named, written)
    _figure_place(stem, out, formats)
    try:
        _written(series_figure(rows, names, entities, stem, title, size, formats))
    except OSError as e:
        write_failed(f"--out {stem}", e)


def reproduce(
    fig_id: Optional[str] = typer.Argument(None, metavar="ID", help="Catalogue id, e.g. E-fig3 (see --list).",
                                           autocompletion=completion.catalogue_ids),
    list_: bool = typer.Option(False, "--list", help="List every catalogue id and whether it runs yet."),
    all_: bool = typer.Option(False, "--all", help="Run every runnable id at the papers' sizes (resumable), then "
                                                  "write the per-paper tables (--tables)."),
    table: bool = typer.Option(False, "--table", help="Only write the per-paper tables from the store's full-size runs."),
    tables: Optional[Path] = typer.Option(None, "--tables", help="The directory --all and --table write paper_<x>.md in "
                                                                 "[default: RESULTS/reproduction]; a checkout's "
                                                                 "committed record is docs/reproduction. A figure "
                                                                 "is judged on its full-size run only: the sweep "
                                                                 "named after it, of its own sweep file at full "
                                                                 "size, every point run. A paper's table there is "
                                                                 "kept if the store holds no full-size run of that "
                                                                 "paper; if figures it evaluated have none, or a "
                                                                 "verdict it decided would become unsettled, "
                                                                 "nothing is written (exit 2) unless --replace."),
    replace: bool = typer.Option(False, "--replace", help="With --table or --all: replace a table even where "
                                                          "figures it evaluated have no full-size run in the store "
                                                          "(they then read \"not evaluated\")."),
    quick: bool = typer.Option(False, "--quick", help="The sweep file's [quick] version, a demo that carries no "
                                                      "verdict: E-base and A-base figures x0.1 in flows and rates "
                                                      "with 100 s runs, others shorter runs; the seeds of the "
                                                      "[quick] table of the sweep file (pacesim/scenarios/ID.toml), "
                                                      "else its seeds: 1-3, but seed 1 for " + QUICK_ONE_SEED + "."),
    seeds: Optional[int] = typer.Option(None, "--seeds", min=1, help="Start from seeds 1..N [default: the sweep "
                                        "file's, with --quick its [quick] table's]; at the paper's size seeds are "
                                        "then added until every verdict holds over them (up to 10, the most a "
                                        "verdict is judged on; more is refused)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Output directory [default: RESULTS/reproduce/ID[-quick]]."),
    results: Path = RESULTS,
    workers: Optional[int] = WORKERS,
    scheduler: Optional[str] = SCHEDULER,
    dask: bool = DASK,
    max_memory: Optional[str] = MAX_MEMORY,
) -> None:
    """Reproduce a paper figure: its CSV, plots and a report checking the catalogue's claims."""
    if results.exists() and not results.is_dir():  # named as given: every output of reproduce lies below it
        fail(f"--results {results}: is a file, not a results directory")
    if list_:  # before the runner's imports (matplotlib): the list draws nothing
        if fig_id is not None or quick or seeds or all_ or table or replace or max_memory is not None:
            fail("--list takes no ID, --quick, --seeds, --all, --table, --replace or --max-memory: it lists the "
                 "papers' sizes")
        _list_catalogue(results)
        return
    from .papers import FIGURES
    from .reproduce.runner import reproduce as run_figure
    from .reproduce.verdicts import MAX_SEEDS
    from .scenario import ScenarioError
    from .store import held
    from .sweep import SweepError, executor

    try:
        limit = size_option("--max-memory", max_memory)
    except ScenarioError as e:
        fail(str(e))
    if table and limit is not None:
        fail("--max-memory goes with what runs (ID, --all): --table only writes the tables from the store's runs")

    if all_ or table:
        if fig_id is not None or quick or seeds:
            fail("--all and --table take no ID, --quick or --seeds: they are the papers' sizes and seeds")
        tables = results / "reproduction" if tables is None else tables
        if tables.exists() and not tables.is_dir():
            fail(f"--tables {tables}: is a file, not a directory")
        if table and not held(results):
            fail(f"--results {results}: no results store there (no pacesim.sqlite): --table writes the tables "
                 "from a store's runs")
        try:
            with _interruptible(results):
                _reproduce_all(results, tables, run=all_, workers=workers, scheduler=scheduler, dask=dask,
                               replace=replace, max_memory=limit)
        except ScenarioError as e:  # a figure refused past --max-memory before its points run, as `sweep` refuses it
            fail(str(e))
        except SweepError as e:
            fail(str(e), e.status)
        return
    if replace:
        fail("--replace goes with --table or --all: it is about the per-paper tables")
    if fig_id is None:
        fail("ID: give a catalogue ID (or --all, --table or --list)")
    if seeds is not None and seeds > MAX_SEEDS:  # 338,248 seeds registered millions of points and hung
        fail(f"--seeds {seeds}: at most {MAX_SEEDS}, the most seeds a claim is judged on (a claim still split at "
             f"{MAX_SEEDS} is inconclusive); run more seeds of a figure with `pacesim sweep` on its sweep file")
    known = {k.lower(): k for k in FIGURES}
    if fig_id.lower() not in known:
        fail(_not_a_figure(fig_id))
    fid = known[fig_id.lower()]
    target = out if out is not None else results / "reproduce" / (fid + ("-quick" if quick else ""))
    writable("--out", target, make=True)
    con = terminal.out()
    try:
        with _interruptible(results), executor(workers, scheduler, dask) as pool:
            r = run_figure(fid, results, target, quick, list(range(1, seeds + 1)) if seeds else None, pool,
                           settle=not quick, on_more=lambda added, judged: _more_seeds(fid, added, judged),
                           max_memory=limit)
    except ScenarioError as e:  # refused past --max-memory before its points run, as `sweep` refuses it
        fail(str(e))
    except SweepError as e:
        fail(str(e), e.status)
    except OSError as e:  # a file of the figure's: a FIFO or directory in its place, a full disk (was a traceback)
        named = e.filename if e.filename and not Path(e.filename).name.startswith(".") else target
        write_failed(f"--out {named}" if out is not None else str(named), e)
    con.print(_claims_table(fid, r.claims, quick))
    if not quick:
        _print_spread(r.claims)
    if quick:
        con.print(f"quick run: a demo smaller than the paper's (report.md says how), which carries no verdict; "
                  f"claims are judged at the paper's size (pacesim reproduce {fid})")
    con.print(f"{r.run.ran:,} points run, {r.run.skipped:,} reused, {r.run.failed:,} failed, {r.run.wall_s:.1f} s")
    _written([r.csv, *r.plots, r.report])
    if r.run.failed:
        raise typer.Exit(1)


def _claims_table(fid: str, claims: list, quick: bool) -> Table:
    """The claims of figure `fid` with their numbers (on the mean over seeds), and but for a quick run (which
    has none: the papers' claims are about their sizes) their verdicts and how the seeds split on them."""
    from .reproduce.verdicts import INCONCLUSIVE, UNSETTLED

    t = Table(title=f"{fid}{' (quick)' if quick else ''}: claims")
    for col in ["claim", "numbers"] if quick else ["claim", "verdict", "seeds", "numbers (mean over seeds)"]:
        t.add_column(col)
    colour = {"reproduced": "green", "not reproduced": "red", "not evaluated": "yellow"}
    for j in claims:
        shade = "yellow" if j.verdict in (INCONCLUSIVE, UNSETTLED) else colour[j.outcome]
        verdict = [] if quick else [Text(terminal.shown(j.verdict), shade), plain(j.seeds or "-")]
        t.add_row(plain(f"{j.id} {j.expect}"), *verdict, plain(j.numbers))
    return t


def _split(j) -> bool:
    """Whether some seed's own outcome of claim `j` differs from the mean's: its margin lies inside the spread."""
    return any(o != j.outcome for _, o, _ in j.by_seed if o != "not evaluated")


def _more_seeds(fid: str, added: List[int], judged: list) -> None:
    """Say which claims of `fid` want the seeds `added`: too few seeds yet, or seeds that split."""
    from .reproduce.verdicts import MORE_SEEDS

    wanting = [j for j in judged if j.settled == MORE_SEEDS]
    split = [j.id for j in wanting if _split(j)]
    why = f"split on {', '.join(split)}" if split else f"{len(wanting)} claim(s) judged on too few seeds"
    terminal.out().print(plain(f"{fid}: seeds {', '.join(map(str, added))} added ({why})"))


def _print_spread(claims: list) -> None:
    """Each claim whose seeds split, with its numbers on each seed alone (the margin inside the spread)."""
    for j in claims:
        if _split(j):
            terminal.out().print(plain(f"{j.id} seed by seed ({j.verdict}):"))
            for s, o, n in j.by_seed:
                terminal.out().print(plain(f"  seed {s}: {o}; {n}"))


def _runnable() -> list:
    """The runnable figures in catalogue order (docs/experiments.md), as `--all` runs them."""
    from .papers import CATALOGUE, FIGURES
    from .reproduce.catalogue import ids_of

    return [f for cid, _ in CATALOGUE for i in ids_of(cid) for f in FIGURES.values() if f.id == i]


def _not_a_figure(fig_id: str) -> str:
    """Why `pacesim reproduce ID` does not run `fig_id`, which names no figure: an analytical model, a catalogue
    id the runs of a figure of another id show, a catalogue id nothing runs yet (the only one that "cannot run
    yet"), or no experiment id at all, with the ids closest to it as written."""
    from .papers import FIGURES
    from .reproduce.catalogue import ids_of, status

    runnable = f"runnable: {', '.join(f.id for f in _runnable())} (see --list)"
    ids = {}  # every catalogue id, each single id a combined one stands for, every figure id: by lower case
    for cid, _, how in status():
        for i in dict.fromkeys([cid, *ids_of(cid)]):
            ids[i.lower()] = i
            if i.lower() != fig_id.lower():
                continue
            if how.startswith("model: "):
                return f"{fig_id} is an analytical model, not a simulation: {how.removeprefix('model: ')}"
            if how.startswith("runs: "):
                return f"{fig_id} is shown by another figure's runs: {how.removeprefix('runs: ')}"
            return f"{fig_id!r} cannot run yet: {how.removeprefix('does not run: ')}; {runnable}"
    ids.update((f.lower(), f) for f in FIGURES)
    close = [ids[i] for i in difflib.get_close_matches(fig_id.lower(), ids, n=3, cutoff=0.75)]
    if not close:
        return f"{fig_id!r} is not an experiment id; {runnable}"
    named = close[0] if len(close) == 1 else f"{', '.join(close[:-1])} or {close[-1]}"
    return f"{fig_id!r} is not an experiment id; did you mean {named}? (see --list)"


def _list_catalogue(results: Path) -> None:
    """Every catalogue id, how it runs, and for a runnable one its full-size points (on the seeds its claims
    are judged on at least: the paper's count, else `verdicts.MIN_SEEDS`) and an estimate of their time on
    one worker: the store's recorded wall time of each point already run (in `results`), the cost model's
    (`reproduce/cost.py`) for the others."""
    from .reproduce import cost
    from .reproduce.catalogue import figures_of, status
    from .reproduce.verdicts import MAX_SEEDS, MIN_SEEDS
    from .store import Store, held

    store = Store(results, read_only=True) if held(results) else None
    t = Table(title="Experiment catalogue (docs/experiments.md)",
              caption=f"Points: on the seeds each claim is judged on, the paper's count or {MIN_SEEDS}; a claim whose "
                      f"seeds split takes more, up to {MAX_SEEDS}. Time: as the store recorded it, else \"(model)\": "
                      "packet-hops at the CPU time of one engine thread per hop measured for the catalogue "
                      "(bench/record/COST.md), a point's wall time on an idle machine.")
    for col in ["id", "what", "status", "points", "est. time (1 worker)"]:
        t.add_column(col, justify="right" if col in ("points", "est. time (1 worker)") else "left")
    for cid, what, how in status():
        direct, shown = figures_of(cid)
        points, timed, total = 0, 0, 0.0
        for fig in direct or shown[:1]:
            sweep = fig.sweep(False)
            seeds = list(sweep.seeds)  # then, as `reproduce` does, the next ones up to fig.seeds
            seeds += range(max(seeds) + 1, max(seeds) + 1 + fig.seeds - len(seeds))
            walls = _recorded_walls(store, sweep.name)
            if not walls:  # every point by the cost model
                n, each = _modelled(sweep)
                points, total = points + n * len(seeds), total + each * len(seeds)
                continue
            sweep.seeds = seeds
            for point in sweep.iter_points():  # matched to the walls by run key, which the seed changes
                points += 1
                if point.key in walls:
                    timed += 1
                    total += walls[point.key]
                elif point.scenario is not None:
                    total += cost.seconds(point.scenario)
        est = _duration(total)
        if timed < points:
            est += " (model)" if not timed else f" ({timed:,} of {points:,} timed)"
        t.add_row(plain(cid), plain(what), plain(how), f"{points:,}" if points else "", est if points else "")
    if store is not None:
        store.close()
    _print_whole(t)


def _modelled(sweep) -> tuple:
    """(combinations of axis values, the cost model's seconds of one seed's points) of `sweep`. A point's
    estimate is its combination's, whatever its seed, and the same for every value of an axis the model does
    not read (`cost.reads`: a buffer, a pacer): one combination stands for all that differ in those only
    (E-fig3's 9 buffers x 3 schemes are one estimate; the catalogue's 1,168 combinations 130). The catalogue's
    sweeps are valid at every point (tests/experiments/test_commands.py), so none stands for an invalid one."""
    import math

    from .reproduce import cost

    sweep.seeds = sweep.seeds[:1]  # each combination's points made for one seed only
    alike = {k: v[0] for k, v in sweep.axes.items() if not cost.reads(k)}
    times = math.prod(len(sweep.axes[k]) for k in alike)
    combinations, total = sweep.size // len(sweep.seeds), 0.0
    for c in range(combinations):
        axes, _ = sweep.axes_at(c * len(sweep.seeds))
        if all(axes[k] == v for k, v in alike.items()):
            point = sweep.point(c * len(sweep.seeds))
            total += times * cost.seconds(point.scenario) if point.scenario is not None else 0.0
    return combinations, total


def _recorded_walls(store, sweep: str) -> dict:
    """Run key -> wall seconds the store recorded for the finished points of `sweep` (none without a store or
    the sweep)."""
    if store is None:
        return {}
    try:
        df = store.points(sweep)
    except KeyError:
        return {}
    ok = df[(df["status"] == "ok") & df["wall_s"].notna()]
    return dict(zip(ok["key"], ok["wall_s"]))


def _duration(seconds: float) -> str:
    """A rough time: seconds, minutes or hours."""
    if seconds < 90:
        return f"{seconds:.0f} s" if seconds >= 1 else "under 1 s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def _reproduce_all(results: Path, tables: Path, run: bool, workers, scheduler, dask, replace: bool,
                   max_memory: Optional[int] = None) -> None:
    """With `run`, every figure at full size into `results` (finished points reused, so an interrupted call
    resumes and equal points are shared), each point refused past `max_memory` bytes as `run_sweep` refuses
    it; then the per-paper tables into `tables` (`write_tables`)."""
    from .reproduce.runner import reproduce as run_figure
    from .reproduce.full_size import ones_own
    from .reproduce.paper_tables import TablesKept, write_tables
    from .store import Store
    from .sweep import executor

    con = terminal.out()
    writable("--tables", tables)  # before any work
    if run:
        order = _runnable()
        with Store(results) as store:  # before any work: every sweep of the user's own a figure would redefine
            own = [why for fig in order if (why := ones_own(store, fig))]
        if own:
            fail("; ".join(own))
        t0 = time.perf_counter()
        with executor(workers, scheduler, dask) as pool:
            for k, fig in enumerate(order, 1):
                # Each figure's sweep draws its own progress bar (points done, failed, ETA).
                con.print(Text.assemble((f"[{k}/{len(order)}] {fig.id}", "bold"), f" ({time.perf_counter() - t0:.0f} s so far)"))
                r = run_figure(fig.id, results, results / "reproduce" / fig.id, False, None, pool, progress=True,
                               settle=True, on_more=lambda added, judged, i=fig.id: _more_seeds(i, added, judged),
                               max_memory=max_memory)
                con.print(f"{fig.id}: {r.run.ran:,} points run, {r.run.skipped:,} reused, {r.run.failed:,} failed; "
                          f"{sum(j.verdict == 'reproduced' for j in r.claims)} of {len(r.claims)} reproduced")
        con.print(f"--all: {len(order)} figures in {time.perf_counter() - t0:.0f} s wall")
    try:
        written, notes = write_tables(results, tables, replace)
    except TablesKept as e:
        for note in e.notes:
            terminal.warn(note)
        fail(f"--tables {tables}: {e}")
    except OSError as e:  # the tables there are as they were
        fail(f"--tables {e.filename or tables}: {e.strerror or e}; the tables there are as they were",
             1 if e.errno in FAILING else 2)  # the file system failed (1), or the place (2)
    for note in notes:
        terminal.warn(note)
    if not written:
        fail(f"--tables {tables}: nothing written: the store {results} holds no full-size run of any paper whose "
             "table is there (`pacesim reproduce ID` or `--all` runs them; a new --tables directory takes a table "
             "of what it holds)")
    _written(written)


def report(
    results: Path = RESULTS,
    out: Optional[Path] = typer.Option(None, "--out", help="Directory to write the HTML site into, made if missing "
                                                           "[default: RESULTS/site]."),
) -> None:
    """Build the reproduction site: an index of the catalogue and one HTML page per paper (figures, claims, causes)."""
    from .site.pages import write_site
    from .site.record import RecordError, collect

    out = results / "site" if out is None else out
    writable("--out", out)  # before reading the record: a file, FIFO or device there refused at once
    try:
        record = collect(results)
    except RecordError as e:
        fail(f"--results: {e}")
    writable("--out", out, make=True)
    try:
        pages = write_site(record, out)
    except OSError as e:  # a file the site writes there: named (a FIFO or directory in its place, a full disk)
        file = Path(e.filename) if e.filename else out
        write_failed(f"--out {out}" + (f": {file}" if file != out and not file.name.startswith(".") else ""), e)
    done = record.tally_of(record.entries)
    terminal.say(f"{done['reproduced']} of {sum(done.values())} claims reproduced; "
                               f"wrote {len(pages)} pages to {out} (open {pages[0]})")


def _store_errors(fn):
    """`fn` with a results store that cannot be opened, read or written ending it with the error, which names
    the file: status 2 for a store given wrongly (`store.StoreError`: a path that is no store, a damaged
    database, a place this process may not write), 1 when the file system failed the work (`StoreFailed`:
    a full disk, an I/O error)."""
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        from .store import StoreError, StoreFailed

        try:
            return fn(*args, **kwargs)
        except StoreError as e:
            fail(f"--results: {e}", 1 if isinstance(e, StoreFailed) else 2)

    return guarded


def register(app: typer.Typer) -> None:
    """Add sweep, results, plot, reproduce and report to the `pacesim` command line."""
    for fn in [sweep, results, plot, reproduce, report]:
        app.command()(command(_store_errors(fn)))
