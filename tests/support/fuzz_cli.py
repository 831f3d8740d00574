"""Hostile command lines for every `pacesim` subcommand, generated with hypothesis, and the class of every
outcome (issue 33: 36 cases ended in a traceback that hostile.py, which drives the scenario and sweep
readers, cannot reach).

A case is one subcommand with arguments drawn for its options: numbers past their types' ends, NaN, signs
and units where none belong; paths that are devices (/dev/zero, /dev/full), directories, files where a
directory is wanted, missing parents, 300-character names, names holding terminal escapes or `../`;
model parameters outside their domains; sweep names, axes, metrics, filters and windows that match
nothing; ns-2 trace files of generated lines, some fields hostile; unknown options. It runs in a worker
process (typer's test runner, in a scratch directory holding a tiny results store of one sweep with
recorded series), with `TIMEOUT_S` of its CPU time to answer (`fuzzing.Clock`). What a valid command would run at length is kept small:
`run` starts from a scenario cut to 2 s and its overrides change no size or time; `reproduce` runs only
Q-tab2 (seconds at the paper's size); `model --simulate` is never drawn.

Classes (`CLASSES`): `ok` (status 0); `refused, naming it` (status 1 or 2, with an error that names an
option, argument, key or file the case gave, or click's missing or extra argument); and the defects:
`traceback` (an exception out of the command), `error naming nothing`, `control characters` (an escape
or other control character of the case printed raw), `hang` (no answer in `TIMEOUT_S` of CPU time, or no CPU time used for `fuzzing.BLOCKED_S`) and `crash`
(the worker died).

`fuzzing.fuzz(Harness(root), CASES, cases, seed)` makes the scratch directory (`prepare`), generates the cases
and counts their classes; tests/test_fuzz_cli.py runs a fixed budget of it, bench/fuzz/cli_args.py (its
command line) the runs of bench/fuzz/README.md ("Command lines").
"""

from __future__ import annotations

import json
import os
import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple

import psutil
from hypothesis import strategies as st

from . import fuzzing
from .fuzz_input import DIGITS, UNITS  # the scenario harness's numbers and units

CLASSES = ["ok", "refused, naming it", "traceback", "error naming nothing", "control characters", "hang", "crash"]
DEFECTS = CLASSES[2:]
TIMEOUT_S = 60.0
"""The slowest valid case (a model's largest allowed work, Q-tab2 at the paper's size) answers in well under
this much CPU time (its processes' all told)."""

ESCAPES = ["\x1b[31m", "\x1b]0;pwned\x07", "\x07", "\x08\x08", "\r", "\u202e", "\x9b2J", "\x00"]
CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""What a case's words may not print raw (a carriage return is rich's own at times, so only the others)."""

TINY = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=2s", "warmup=1s", "traffic.start=['0s','1s']"]
SAFE_KEYS = ["core.buffer", "core.queue", "pacing.scheme", "pacing.links", "pacing.delay", "tcp.variant", "seed",
             "trace.links", "series.flows", "series.links", "series.interval", "core.red.max_p", "tcp.window"]
"""Keys `run` and `topology show` may set to anything: none of them makes a run long (hostile.py fuzzes the rest)."""

# --- values ---

INT = st.one_of(st.integers(-5, 5).map(str), DIGITS, st.sampled_from(["99999999999999999999", "-1", "2", "1e3", "0x1"]))
FLOAT = st.one_of(DIGITS, st.sampled_from(["nan", "inf", "-inf", "-0", "1e-300", "1e308", "0.5", "1e-6"]))
SIZE = st.builds(lambda n, u: f"{n}{u}", DIGITS, st.sampled_from(UNITS))
WORDS = st.one_of(st.text(max_size=30), st.sampled_from(ESCAPES).map(lambda e: f"a{e}b"), st.just("x" * 300))
NAMED = st.one_of(WORDS, st.sampled_from(["", "-", "--", "../../x", "/", ".", "a/b", "-x", "--help"]))


def _inside(path: str) -> str:
    """`path` made relative and kept inside the scratch directory (the harness runs as whoever runs it: a
    write to /nonexistent/dir or ../../x would land outside it)."""
    return path.lstrip("/").replace("..", "__")


def _path(kind: str) -> st.SearchStrategy:
    """A path argument: `in` (to read), `out` (a file to write), `dir` (a directory to make or use). Paths to
    write are inside the scratch directory, or ones no one can write (/dev/full, /proc/...)."""
    unwritable = ["/dev/full", "/dev/null", "/proc/self/nope", "/proc/nope/dir/x"]
    common = ["afile", "afile/below", "missing/dir/x", "", "-", "x" * 300, "a\x1b[31mb", "adir"]
    own = {"in": ["t.tr", "overlay.csv", "binary.bin", "empty", "sweep.toml", "tiny.toml", "/dev/zero", "/",
                  "../../escaped", "/etc/hostname"],
           "out": ["new.json", "new.png", "new.pdf", "new.bmp", "new", "new.svg", "t.tr"],
           "dir": ["newdir", "results", "results/site"]}[kind]
    return st.one_of(st.sampled_from(own), st.sampled_from(own), st.sampled_from(common + unwritable),
                     WORDS.map(_inside) if kind != "in" else NAMED)


TRACE_EVENTS = ["+", "-", "r", "d", "x", ""]


@st.composite
def trace_text(draw) -> bytes:
    """An ns-2 trace: plausible lines (departures most), one field in ten hostile, or garbage."""
    lines = []
    uid = 0
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["tcp", "tcp", "ack", "cbr", "udp"]))
        size = draw(st.sampled_from(["40", "1040", "200"] if kind != "ack" else ["40"]))
        fields = [draw(st.sampled_from(["-", "-", "+", "r", "d"])), f"{draw(st.floats(0, 10)):.6f}", "0", "1", kind,
                  size, "-------", str(draw(st.integers(0, 3))), "2.0", "3.0", str(draw(st.integers(0, 20))), str(uid)]
        uid += draw(st.integers(0, 2))
        if draw(st.integers(0, 9)) == 0:
            fields[draw(st.integers(0, 11))] = draw(st.one_of(INT, FLOAT, st.sampled_from(["", "x.y", "99999999.0"])))
        lines.append(" ".join(f for f in fields if f != "" or draw(st.booleans())))
    text = "\n".join(lines).encode()
    how = draw(st.sampled_from(["none"] * 6 + ["bytes", "long", "nul"]))
    if how == "bytes":
        return text + draw(st.binary(min_size=1, max_size=20))
    if how == "long":
        return text + b"- " + b"9" * draw(st.sampled_from([999, 5000]))
    return text + b"\0" * 10 if how == "nul" else text


MODEL_IDS = ["e-model", "e-fig10", "a-fig6", "a-fig16", "a-fig10", "a-fig18", "a-fig19", "a-fig22", "a-md1", "q-thm1",
             "q-thm2", "w-fig8", "w-conv"]


def _model_set(draw, model: str) -> str:
    from pacesim.papers import MODELS

    params = sorted(MODELS[model].defaults) if model in MODELS else ["x"]
    key = draw(st.one_of(st.sampled_from([p for p in params if not p.startswith("sim_")] or ["x"]), WORDS))
    value = draw(st.one_of(FLOAT, INT, st.lists(FLOAT, max_size=3).map(",".join), WORDS))
    return draw(st.sampled_from([f"{key}={value}", f"{key}={value}", key, f"={value}"]))


AXES = ["core.buffer", "pacing.scheme", "seed", "status", "goodput_kbps_mean", "x", ""]
METRICS = ["goodput_kbps_mean", "core_loss_rate", "aggregate_mbps", "status", "key", "seed", "core.buffer", "nope"]


@st.composite
def _options(draw, spec: Dict[str, st.SearchStrategy]) -> List[str]:
    """Some of `spec`'s options (each maybe twice), in any order, with an unknown one now and then."""
    out = []
    for name in draw(st.lists(st.sampled_from(sorted(spec)), max_size=4)):
        value = spec[name]
        out += [name] if value is None else [name, draw(value)]
    if draw(st.integers(0, 15)) == 0:
        out.append(draw(st.sampled_from(["--bogus", "-z", "--seed=", "--json=", "--"])))
    return out


@dataclass
class Case:
    argv: List[str]
    trace: bytes = b""


@st.composite
def run_case(draw) -> Case:
    scenario = draw(st.one_of(st.just("tiny.toml"), st.just("tiny.toml"), st.sampled_from(["e-base", "graph-square"]),
                              _path("in")))
    sets = [a for kv in TINY for a in ("--set", kv)] if scenario in ("e-base", "graph-square") else []
    spec = {"--set": st.one_of(st.builds(lambda k, v: f"{k}={v}", st.sampled_from(SAFE_KEYS),
                                         st.one_of(SIZE, INT, FLOAT, WORDS, st.just("['core', 'nope']"))), WORDS),
            "--seed": INT, "--json": _path("out"), "--threads": INT, "--max-memory": st.one_of(SIZE, WORDS),
            "--trace": st.one_of(_path("out"), st.sampled_from(["new.pcap", "new.json", "new.tr"]))}
    return Case(["run", scenario, *sets, *draw(_options(spec))])


@st.composite
def model_case(draw) -> Case:
    model = draw(st.one_of(st.sampled_from(MODEL_IDS), st.sampled_from(MODEL_IDS), WORDS))
    argv = ["model", model, *draw(_options({"--out": _path("dir"), "--overlay": _path("in"), "--list": None}))]
    for _ in range(draw(st.integers(0, 3))):
        argv += ["--set", _model_set(draw, model)]
    return Case(argv)


@st.composite
def topology_case(draw) -> Case:
    scenario = draw(st.one_of(st.sampled_from(["e-base", "graph-square", "tiny.toml", "q-dumbbell"]), _path("in")))
    spec = {"--set": st.builds(lambda k, v: f"{k}={v}", st.sampled_from(SAFE_KEYS), st.one_of(SIZE, INT, WORDS)),
            "--routes": INT, "--links": INT, "--png": st.one_of(_path("out"), st.just("graph.png")),
            "--max-memory": st.one_of(SIZE, WORDS)}
    return Case(["topology", "show", scenario, *draw(_options(spec))])


@st.composite
def trace_case(draw) -> Case:
    if draw(st.booleans()):
        spec = {"--time-tolerance": FLOAT, "--ignore": st.one_of(st.sampled_from(["uid", "seq", "time"]), WORDS)}
        argv = ["trace", "diff", draw(st.one_of(st.just("case.tr"), _path("in"))),
                draw(st.one_of(st.just("t.tr"), _path("in"))), *draw(_options(spec))]
    else:
        argv = ["trace", "pcap", draw(st.one_of(st.just("case.tr"), st.just("case.tr"), _path("in"))),
                draw(st.one_of(st.just("case.pcap"), _path("out"))),
                *draw(_options({"--segment-size": st.one_of(SIZE, INT)}))]
    return Case(argv, draw(trace_text()))


RESULTS = st.one_of(st.just("results"), st.just("results"), _path("dir"))


@st.composite
def plot_case(draw) -> Case:
    name = draw(st.one_of(st.just("tiny"), st.just("tiny"), NAMED))
    where = st.builds(lambda a, v: f"{a}={v}", st.sampled_from(AXES),
                      st.one_of(st.sampled_from(["3KB", "10KB", "none", "edge", "3KB,10KB", "edgy", "3000B"]), WORDS))
    spec = {"--y": st.sampled_from(METRICS), "--x": st.sampled_from(AXES), "--by": st.sampled_from(AXES),
            "--where": st.one_of(where, WORDS), "--out": _path("out"), "--logy": None,
            "--series": st.sampled_from(["cwnd", "queue", "drops", "rate", "nope", ""]),
            "--flows": st.sampled_from(["0", "0,1", "99", "x", ""]), "--links": st.sampled_from(["core", "nope", ""]),
            "--seed": INT, "--window": st.one_of(st.sampled_from(["0:1", "1:0", ":", "1:", ":1", "nan:", "5"]), WORDS),
            "--title": WORDS, "--size": st.sampled_from(["screen", "one-column", "two-column", "poster", ""]),
            "--format": st.sampled_from(["png", "svg", "pdf", "bmp", "", "PNG"]), "--results": RESULTS}
    return Case(["plot", name, *draw(_options(spec))])


@st.composite
def store_case(draw, which: str) -> Case:
    """sweep, results, reproduce or report (`which`): what they are given, not what a sweep file holds
    (hostile.py)."""
    if which == "sweep":
        spec = {"--results": RESULTS, "--workers": INT, "--quiet": None, "--quick": None,
                "--scheduler": st.sampled_from(["tcp://127.0.0.1:1", "nonsense", "tcp://[::1", ""]),
                "--max-memory": st.one_of(SIZE, WORDS)}
        return Case(["sweep", draw(st.one_of(st.just("sweep.toml"), _path("in"))), *draw(_options(spec))])
    if which == "results":
        spec = {"--results": RESULTS, "--csv": _path("out")}
        return Case(["results", *draw(st.lists(st.one_of(st.just("tiny"), NAMED), max_size=1)), *draw(_options(spec))])
    if which == "reproduce":
        spec = {"--list": None, "--table": None, "--tables": _path("dir"), "--quick": None, "--seeds": INT,
                "--out": _path("dir"), "--results": RESULTS, "--workers": INT, "--max-memory": st.one_of(SIZE, WORDS)}
        ids = st.one_of(st.just("Q-tab2"), st.sampled_from(["E-fig99", "e-fig3x", "q-TAB2"]), NAMED)
        argv = ["reproduce", *draw(st.lists(ids, max_size=1)), *draw(_options(spec))]
        if "--quick" not in argv and "Q-tab2" in argv and "--seeds" not in argv:
            argv += ["--seeds", "1"]
        return Case(argv)
    return Case(["report", *draw(_options({"--results": RESULTS, "--out": _path("dir")}))])


CASES = st.one_of(run_case(), model_case(), topology_case(), trace_case(), plot_case(),
                  *(store_case(which) for which in ("sweep", "results", "reproduce", "report")))


# --- the scratch directory and the worker ---

def prepare(root: Path) -> None:
    """Files the cases name: a tiny scenario, a trace, an overlay, a sweep file, a binary and an empty file,
    a directory, and `results` holding the sweep `tiny` (2 buffers x 2 schemes, one seed, series recorded)."""
    from pacesim.store import Store
    from pacesim.sweep import Sweep, run_sweep

    (root / "adir").mkdir()
    (root / "afile").write_text("a file, not a directory\n")
    (root / "empty").write_bytes(b"")
    (root / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (root / "overlay.csv").write_text("buffer_kb,udp_loss\n5,0.01\n10,0.02\n")
    (root / "tiny.toml").write_text('duration = "2s"\nwarmup = "1s"\n[topology]\nedges = 2\nhosts_per_edge = 2\n'
                                    '[traffic]\nstart = ["0s", "1s"]\n')
    (root / "sweep.toml").write_text('name = "fz"\nseeds = [1]\nset = ' + json.dumps(TINY) +
                                     '\n[axes]\n"core.buffer" = ["5KB"]\n')
    (root / "t.tr").write_text("+ 0.1 0 1 tcp 40 ------- 0 2.0 3.0 0 0\n- 0.1 0 1 tcp 40 ------- 0 2.0 3.0 0 0\n")
    sweep = Sweep(name="tiny", axes={"core.buffer": ["3KB", "10KB"], "pacing.scheme": ["none", "edge"]}, seeds=[1],
                  set=TINY + ["series.flows=[0]", "series.links=['core']", "series.interval=100ms"])
    with Store(root / "results") as store:
        run_sweep(sweep, store, None, progress=False)


def _serve(conn, root: Path) -> None:
    import faulthandler

    from typer.testing import CliRunner

    from pacesim.cli import app

    faulthandler.disable()
    os.chdir(root)
    runner = CliRunner()
    while True:
        argv, trace = conn.recv()
        (root / "case.tr").write_bytes(trace)
        try:
            out = runner.invoke(app, argv, catch_exceptions=True)
            exc = out.exception
            tb = "".join(traceback.format_exception(exc)) if exc is not None and not isinstance(exc, SystemExit) else ""
            conn.send((out.exit_code, out.output[-4000:], tb[-3000:]))
        except BaseException as e:  # noqa: BLE001  (the runner itself failed: a defect of the case)
            conn.send((-1, "", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))


class Worker(fuzzing.Worker):
    """A process running one command line at a time in `root`, restarted after a hang or a crash."""

    def __init__(self, root: Path) -> None:
        super().__init__(_serve, root, daemon=False)  # `sweep` and `reproduce` start worker processes of their own

    def run(self, case: Case) -> tuple:
        self.start()
        clock = fuzzing.Clock(self.proc.pid)
        self.send((case.argv, case.trace))
        while not self.conn.poll(0.05):
            try:
                used = clock.used()
            except psutil.NoSuchProcess:  # died: its end is read below
                break
            if used > TIMEOUT_S or clock.blocked():
                self.close()
                return ("hang", f"no answer in {TIMEOUT_S:g} s of CPU time" if used > TIMEOUT_S else
                        f"no answer, and no CPU time used in {fuzzing.BLOCKED_S:g} s")
        return self.answer()


# --- outcomes ---

def shown(text: str) -> str:
    from pacesim.terminal import shown as terminal_shown

    return terminal_shown(text)


USAGE = re.compile(r"Missing argument|Missing option|Got unexpected extra argument|No such option|No such command|"
                   r"requires an argument|Invalid value for|Option '.*' does not take a value|error: [A-Z]+: ")
"""click's usage errors, and pacesim's naming an argument by its metavar (`error: ID: give a model ID`)."""


KEY = re.compile(r"error: ([a-z_]+)(\.[a-z_0-9\[\]]+)*: ")


def names_something(argv: List[str], output: str) -> bool:
    """Whether an error names what the case gave: one of its options, a value (or its key, for KEY=VALUE),
    written as the command prints it (a one-character one as the error's subject, `x: ...`); a key of the
    scenario file it gave (`tcp.window: ...`); or click's usage errors, which name the argument themselves."""
    from pacesim.scenario import Scenario

    if USAGE.search(output):
        return True
    key = KEY.search(output)
    if (key and key[1] in Scenario.model_fields) or "unknown key '" in output:  # a key of a file it gave
        return True
    text = output.replace("\n", " ")
    if "" in argv and re.search(r"error: ([A-Z]+ )?\.: ", text):  # an empty path argument, which typer reads
        return True  # as "." (named alone, or after its argument's name: "OUT .: is a directory")
    for a in argv:
        # Each word as the command prints it (`shown`: a newline written out as `\n`, as the other controls).
        words = {shown(w) for w in (a, a.partition("=")[0], Path(a).name if a else a)} | {repr(a)}
        for word in words:
            if (len(word) >= 2 and (word in text or word[:40] in text)) or (word and f" {word}: " in text):
                return True
    return False


def classify(case: Case, answer: tuple) -> Tuple[str, str]:
    if answer[0] in ("hang", "crash"):
        return answer[0], answer[1]
    code, output, tb = answer
    raw = CONTROL.findall(output)
    if tb or "Traceback" in output:
        return "traceback", tb or output
    if raw and any(e in " ".join(case.argv) for e in ESCAPES):
        return "control characters", repr(output[:400])
    if code == 0:
        return "ok", ""
    if code in (1, 2, 141) and names_something(case.argv, output):
        return "refused, naming it", output[:300]
    return "error naming nothing", f"status {code}: {output[:400]}"


class Harness(fuzzing.Tally):
    """Runs command lines in a worker in scratch directory `root` (`prepare`d here) and counts their classes,
    per class and per subcommand (a case's kind), with up to 20 examples of each defect."""

    def __init__(self, root: Path) -> None:
        super().__init__(DEFECTS)
        prepare(root)
        self.worker = Worker(root)

    def close(self) -> None:
        self.worker.close()

    def record(self, case: Case) -> None:
        cls, detail = classify(case, self.worker.run(case))
        command = " ".join(case.argv[:2] if case.argv[0] in ("trace", "topology") else case.argv[:1])
        self.count(cls, command, lambda: f"pacesim {' '.join(map(repr, case.argv))}\n{detail[-1500:]}"
                   + (f"\ntrace: {case.trace[:300]!r}" if case.trace else ""))
