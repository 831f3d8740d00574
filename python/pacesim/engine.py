"""Running a scenario: the one call into the engine that runs it (`run`), from any form of scenario to a
`Result`, the memory guard and the notes on a slow run (`slow`) before it and the packet trace after it (pcap
written from ns-2's text)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
import warnings
from typing import Callable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _core, memory, outfile, pcap, schema
from .messages import shown
from .report_tables import report_number
from .result import Result
from .scenario import (PacketTrace, Scenario, ScenarioError, load_scenario, override_list, overridden,
                       parse_scenario)

THREADS = min(2, os.cpu_count() or 1)
"""Default threads, as the CLI's `--threads`."""


class RecordingStopped(UserWarning):
    """A series track or a packet trace stopped recording at its size cap; the message says which and when."""


class SlowRun(UserWarning):
    """A run its own model makes slow, as the reference simulator's does; the message says why (`slow`)."""


def slow(scenario: Scenario) -> List[str]:
    """Why `scenario` will run slowly by its own model, each naming its key: FACK senders paced by Wei's
    pacer under its pure rate control fire the pacing timer every gap while the advertised window is full,
    as the patch does in ns-2 (tcp/host_pacing/wei.rs: the gap falls to ~100 ns, some ten million timer events a
    simulated second a sender; issue 33's hostile.py "hang", 93 M events in a 3 s run of four flows)."""
    p = scenario.pacing
    if not (p.scheme == "host" and p.host_pacer == "wei" and p.fraction > 0 and scenario.tcp.variant == "fack"
            and p.wei.pure_rate_control):
        return []
    return ["pacing.wei.pure_rate_control: FACK senders under Wei's pure rate control fire the pacing timer every "
            "gap while the advertised window is full, as the patch does in ns-2 (up to ten million events a "
            "simulated second each): expect a slow run"]


@contextlib.contextmanager
def _scratch(pcap_out: str) -> Iterator[str]:
    """A new file beside pcap `pcap_out`'s real target for the engine's ns-2 text, removed after the block."""
    fd, text = tempfile.mkstemp(prefix=os.path.basename(pcap_out)[:100] + ".", suffix=".tr",
                                dir=outfile.real(pcap_out).parent)
    os.close(fd)
    try:
        yield text
    finally:
        os.remove(text)


def run(
    scenario: Union[Scenario, dict, str, os.PathLike],
    set: Sequence[str] = (),
    seed: Optional[int] = None,
    threads: int = THREADS,
    progress: Optional[Callable[[float], None]] = None,
    max_memory: Optional[int] = None,
    trace: Union[str, os.PathLike, None] = None,
) -> Result:
    """Simulate `scenario` (as `pacesim run` does) with the overrides `set`
    (`["core.buffer=5KB", "pacing.scheme=edge"]`, as `--set`) and its seed
    replaced by `seed` when given; `progress` is called now and then with the
    fraction of simulated time done. With `threads=2` (the default where the
    machine has two cores) a network that splits at its core link (the
    papers' dumbbells) runs as two halves in parallel; the report is
    byte-identical but for its work counters (`work.events`, `work.packet_hops`);
    more threads run as two (a network splits in two halves at most).

    Raises ScenarioError (naming the field) for an invalid scenario, OSError
    (with its `errno` and `filename`) when the packet trace cannot be written
    (a full disk), and RuntimeError when the engine itself fails (e.g. a
    conservation check).
    A run whose estimated memory (`memory.estimate`) exceeds `max_memory` bytes,
    by default the machine's available memory, is refused with a ScenarioError.

    `trace` writes a packet trace to that file (`[trace]`'s `file`; docs/trace.md):
    ns-2's text format, or pcap if it ends in `.pcap`; of the links `[trace]`
    names, or else the core link. A traced run runs on one thread.

    A series track kept at every change, or a packet trace, that reaches its
    size cap (`[series]`, `trace.max_bytes`) stops recording; the run goes on
    and each such stop is issued as a `RecordingStopped` warning (and listed in
    the report's `warnings`).
    """
    scenario, threads, _ = prepared(scenario, set, seed, threads, max_memory)
    for note in slow(scenario):
        warnings.warn(SlowRun(note), stacklevel=2)
    return simulate(scenario, threads, progress, trace)


def prepared(scenario: Union[Scenario, dict, str, os.PathLike], set: Sequence[str] = (), seed: Optional[int] = None,
             threads: int = THREADS, max_memory: Optional[int] = None) -> Tuple[Scenario, int, memory.Estimate]:
    """What `run` checks before it simulates, as it raises: the scenario with `set` and `seed` applied, the
    threads it runs on (at most two) and its memory estimate (`memory.check`; its notes are what a reader is
    told before a run). `pacesim run` tells them, then calls `simulate`: the guard runs once."""
    if max_memory is not None and (isinstance(max_memory, bool) or not isinstance(max_memory, int) or max_memory < 1):
        raise ScenarioError("max_memory", f"{shown(max_memory)} is not a number of bytes: a whole number, 1 or more")
    if isinstance(scenario, (str, os.PathLike)):
        scenario = load_scenario(scenario, max_memory)
    elif isinstance(scenario, dict):
        scenario = parse_scenario(scenario, max_memory=max_memory)
    elif not isinstance(scenario, Scenario):
        raise TypeError(f"expected a Scenario, a dict or a TOML path, got {type(scenario).__name__}")
    else:  # validated anew before it is weighed: `model_copy(update=...)` changes a Scenario unchecked
        scenario = scenario.rechecked()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ScenarioError("threads", f"{shown(threads)} is not a number of threads: 1, or 2 to run a network that "
                                       "splits at its core link as two halves")
    overrides = override_list(set) + ([f"seed={seed}"] if seed is not None else [])
    if overrides:
        scenario = overridden(scenario.written(), overrides)
    return scenario, min(threads, 2), memory.check(scenario, max_memory)


def simulate(scenario: Scenario, threads: int = THREADS, progress: Optional[Callable[[float], None]] = None,
             trace: Union[str, os.PathLike, None] = None) -> Result:
    """`run` of a scenario `prepared` made, on `threads` (1 or 2): the engine's run, its packet trace written."""
    if trace is not None:
        path = os.fspath(trace) if isinstance(trace, (str, os.PathLike)) else None
        if type(path) is not str:  # review-hostile33n H2: bytes and an int were TypeErrors from deep in the run
            raise ScenarioError("trace", f"{shown(trace)} is not a file's path: give it as text or a pathlib.Path")
        traced = scenario.trace or PacketTrace()
        scenario = scenario.model_copy(update={"trace": traced.model_copy(update={"file": path})})
    traced = scenario.trace.file if scenario.trace is not None and scenario.trace.file else None
    t0 = time.perf_counter()
    try:
        with contextlib.ExitStack() as files:
            engine, text = scenario, None
            if traced is not None:
                # The engine writes ns-2's text to a new file beside the trace's real target: renamed over it
                # once the run ends well (outfile.written: no partial trace left by a full disk), or for a
                # pcap made pcap (pcap.write, as whole) and removed whatever ended the run.
                try:
                    text = os.fspath(files.enter_context(
                        _scratch(traced) if traced.endswith(".pcap") else outfile.written(traced)))
                except OSError as e:
                    raise ScenarioError("trace.file", f"cannot create {traced}: {e.strerror}") from None
                engine = scenario.model_copy(update={"trace": scenario.trace.model_copy(update={"file": text})})
            try:
                # As the engine read it when the scenario was made, unless the trace's file changed it.
                report = _core.run_json(schema.checked(engine.engine_json()), progress, threads)
            except ValueError as e:
                e = ScenarioError.from_engine(e)
                if text:  # the trace named as given, not as the file the engine wrote
                    e = ScenarioError(e.field, e.message.replace(text, traced), traced if e.value == text else e.value)
                raise e from None
            wall_s = time.perf_counter() - t0
            if traced is not None and traced.endswith(".pcap"):
                pcap.write(text, traced, segment_size=scenario.tcp.segment_size)
    except OSError as e:  # the trace could not be written: named as given, not as the file written first
        raise OSError(e.errno, e.strerror, traced if traced is not None else e.filename) from None
    report = json.loads(report, parse_float=report_number)
    if text is not None and "warnings" in report:  # naming the trace as given, not the file the engine wrote
        report["warnings"] = [w.replace(text, traced) for w in report["warnings"]]
    for note in report.get("warnings", []):  # a series track or the trace stopped at its size cap
        warnings.warn(RecordingStopped(note), stacklevel=3)  # the caller of `run`
    return Result(report, scenario, wall_s)
