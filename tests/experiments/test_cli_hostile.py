"""Every subcommand on hostile arguments (issue 33): never a traceback; exit status 2 for bad input or 1 for
work that failed, with `error:` and a message naming the argument, option, file or parameter at fault;
a user's words printed with their control characters written out. bench/fuzz/cli_args.py generates such
arguments at random; these are the issue's cases and the classes it found."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
import typer
from typer.testing import CliRunner

import pacesim
from pacesim.cli import app
from pacesim.experiment_commands import _interruptible
from pacesim.store import DamagedRun, Store, StoreFailed, _failure
from pacesim.sweep import load_sweep, run_sweep
from pacesim.terminal import command

from .conftest import TINY

runner = CliRunner()
RUN = ["e-base", "--threads", "1"] + [a for kv in TINY + ["traffic.start=['0s','1s']"] for a in ("--set", kv)]
ESC = "\x1b]0;pwned\x07\x1b[31m"


def pacesim_process(*args: str) -> list:
    """The command line of `pacesim ARGS` in a fresh interpreter that imports this pacesim, from any directory."""
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(Path(pacesim.__file__).parents[1])!r}); "
            "from pacesim.cli import app; app(prog_name='pacesim')", *args]


def invoke(args, **kw):
    out = runner.invoke(app, [str(a) for a in args], **kw)
    assert out.exception is None or isinstance(out.exception, SystemExit), (
        f"pacesim {' '.join(map(str, args))} raised {out.exception!r}")
    assert "Traceback" not in out.output
    return out


def refused(args, names: str, code: int = 2, **kw):
    """`pacesim ARGS` ends with status `code` and an error naming `names`."""
    out = invoke(args, **kw)
    assert out.exit_code == code, out.output
    assert names in out.output, out.output
    return out


@pytest.fixture(scope="module")
def store(tiny_store):
    return str(tiny_store[0].root)


# ------------------------------------------------------------------ run


@pytest.mark.parametrize("args, names", [
    (["--threads", "99999999999999999999"], "--threads"),
    (["--threads", "0"], "--threads"),
    (["--threads", "-1"], "--threads"),
    (["--seed", "99999999999999999999999"], "seed"),
    (["--seed", "18446744073709551615"], "seed: 18446744073709551615 is past 2^63 - 1"),  # 2^64 - 1 ran
    (["--seed", "9223372036854775808"], "seed: 9223372036854775808 is past 2^63 - 1"),
    (["--max-memory", "lots"], "--max-memory"),
    (["--json", "/nonexistent/dir/x.json"], "--json /nonexistent/dir/x.json"),
    (["--set", "core.buffer=-5KB"], "core.buffer"),
    (["--set", "nonsense"], "nonsense"),
])
def test_run_refuses_bad_options(args, names):
    refused(["run", *RUN, *args], names)


def test_a_run_and_a_sweep_take_the_same_largest_seed(tmp_path):
    from pacesim.scenario import ScenarioError, apply_overrides, load_scenario
    from pacesim.sweep import Sweep, SweepError

    s = load_scenario("e-base")
    assert apply_overrides(s, [f"seed={2**63 - 1}"]).seed == 2**63 - 1
    assert Sweep(name="s", axes={}, seeds=[2**63 - 1], set=TINY).seeds == [2**63 - 1]
    with pytest.raises(ScenarioError, match="^seed: "):
        apply_overrides(s, [f"seed={2**63}"])
    with pytest.raises(SweepError, match=r"^seeds\[0\]: "):
        Sweep(name="s", axes={}, seeds=[2**63], set=TINY)


def test_sweep_reproduce_and_topology_show_take_the_max_memory_their_refusal_names(tmp_path):
    # Review 33d: a point of a sweep refused for its memory said "allow more with --max-memory", which neither
    # `sweep` nor `reproduce` took ("No such option"), nor `topology show`, refused so too. Each takes it, as
    # `run` does (a sweep: for each point).
    sweep = tmp_path / "tiny.toml"
    sweep.write_text(f'name = "tiny"\nseeds = [1]\nset = {json.dumps(TINY)}\n[axes]\n"core.buffer" = ["5KB"]\n')
    # A sweep's and a figure's base scenario is held to the limit before any point runs (exit 2, naming the
    # option, or the largest part and the option; nothing stored). Review 33e: `reproduce` ran both of Q-fig9's
    # points and stored them as failed (exit 1).
    refused = {"sweep": "error: max_memory: the interpreter and the engine alone take an estimated",
               "reproduce": "Q-fig9.toml: scenario "}  # the figure's base scenario named (review33i)
    for command in (["sweep", str(sweep), "--quiet"], ["reproduce", "Q-fig9", "--out", str(tmp_path / "out")]):
        out = runner.invoke(app, [*command, "--results", str(tmp_path / "r"), "--max-memory", "1MB"])
        text = " ".join(out.output.split())
        assert out.exit_code == 2 and refused[command[0]] in text and "more than the limit (1 MB)" in text, out.output
        assert command[0] == "sweep" or "q-prototype.toml: topology.links: the run needs an estimated" in text, text
        assert not (tmp_path / "r" / "pacesim.sqlite").exists()
        out = runner.invoke(app, [*command, "--results", str(tmp_path / "r"), "--max-memory", "lots"])
        assert out.exit_code == 2 and "error: --max-memory: invalid size 'lots'" in out.output, out.output
    out = runner.invoke(app, ["sweep", str(sweep), "--quiet", "--results", str(tmp_path / "r"), "--max-memory", "4GB"])
    assert out.exit_code == 0 and "1 run, 0 failed" in out.output, out.output
    out = runner.invoke(app, ["reproduce", "--table", "--results", str(tmp_path / "r"), "--max-memory", "4GB"])
    assert out.exit_code == 2 and "--table only writes the tables" in out.output, out.output
    # `topology show` builds the network, refused so too: 20,000 flows need 164 MB (8,192 B each).
    show = ["topology", "show", "e-base", "--set", "topology.edges=2", "--set", "topology.hosts_per_edge=10000"]
    out = runner.invoke(app, [*show, "--max-memory", "100MB"])
    assert out.exit_code == 2 and "(164 MB for this), more than the limit (100 MB)" in " ".join(out.output.split())
    assert runner.invoke(app, [*show, "--max-memory", "4GB"]).exit_code == 0


def test_run_refuses_a_scenario_name_no_file_system_holds():
    refused(["run", "x" * 300], "x" * 300)


def test_a_full_disk_under_json_is_an_error_and_no_success():
    out = refused(["run", *RUN, "--json", "/dev/full"], "--json /dev/full: No space left on device", code=1)
    assert "report written" not in out.output
    assert "\n\nerror:" not in out.output and not out.output.startswith("\n"), out.output  # no empty line before it


@pytest.mark.parametrize("trace", ["/dev/full", "full.pcap"])
def test_a_full_disk_under_trace_is_the_work_failing_not_bad_input(trace, tmp_path, monkeypatch):
    # Was status 2, "trace.file: writing ... failed", as if the scenario were wrong. A pcap's text goes to a
    # file beside it first: on /dev/full's disk that write fails the same way (simulated: the engine's text
    # goes to /dev/full), and the error names the pcap asked for.
    if trace.endswith(".pcap"):
        def on_full_disk(pcap_out):
            yield "/dev/full"  # and is not removed after
        monkeypatch.setattr("pacesim.engine._scratch", contextmanager(on_full_disk))
        trace = tmp_path / trace
    out = refused(["run", *RUN, "--trace", trace], f"--trace {trace}: No space left on device", code=1)
    assert "trace.file" not in out.output
    with pytest.raises(OSError) as e:
        pacesim.run("e-base", set=TINY, threads=1, trace=trace)
    assert (e.value.errno, e.value.filename) == (errno.ENOSPC, str(trace))


def test_json_and_trace_to_one_file_are_refused_before_the_run(tmp_path):
    same = tmp_path / "x.json"
    refused(["run", *RUN, "--json", same, "--trace", same], "--json")
    assert not same.exists()


def test_json_dash_writes_the_report_to_stdout_and_the_tables_elsewhere(tmp_path):
    done = subprocess.run(pacesim_process("run", *RUN, "--json", "-"), capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["summary"]["aggregate_mbps"] > 0 and "Summary over" in done.stderr
    assert not (tmp_path / "-").exists()


def test_dash_is_standard_output_or_refused_never_a_file_named_dash(tmp_path, store):
    # --json - onto a full disk: an error naming it, no traceback (was OSError 28 from sys.stdout.write).
    with open("/dev/full", "w") as full:
        done = subprocess.run(pacesim_process("run", *RUN, "--json", "-"), stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=tmp_path)
    assert done.returncode == 1 and "--json -: standard output: No space left on device" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    refused(["run", *RUN, "--trace", "-"], "--trace -: a packet trace goes to a file")
    done = subprocess.run(pacesim_process("results", "tiny", "--results", store, "--csv", "-"), capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("core.buffer_bytes,core.buffer_written,") and len(done.stdout.splitlines()) == 9
    assert "tiny: 8 points" in done.stderr and not (tmp_path / "-").exists()


def test_a_reader_closing_stdout_early_leaves_the_report_written(tmp_path):
    """`pacesim run ... --json f.json | head -1`: the file is written before anything is printed; the
    command stops printing quietly, status 141 (128 + SIGPIPE) and one line on stderr."""
    cmd = pacesim_process("run", *RUN, "--json", str(tmp_path / "f.json"))
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    p.stdout.readline()
    p.stdout.close()  # as head does after its line
    err = p.stderr.read().decode()
    assert p.wait() == 141, err
    assert "Traceback" not in err and "standard output closed" in err
    assert (tmp_path / "f.json").stat().st_size > 1000



def _closed() -> None:
    os.close(1)  # `>&-`


def _read_only() -> None:
    os.dup2(os.open(os.devnull, os.O_RDONLY), 1)  # `1</dev/null`


@pytest.mark.parametrize("args", [["run", *RUN, "--json", "-"], ["run", *RUN], ["reproduce", "--list"]])
@pytest.mark.parametrize("start", [_closed, _read_only])
def test_a_closed_standard_output_is_named_before_any_work(tmp_path, args, start):
    """Review of issue 34 (review34e D4): started with standard output closed (`>&-`), each command ended in a
    37-40 line traceback (AttributeError: 'NoneType' object has no attribute 'write'), having run first. Now
    an error naming standard output, status 2 (what was given cannot be used), nothing run or written."""
    done = subprocess.run(pacesim_process(*args), preexec_fn=start, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("error: standard output cannot be written") and done.stderr.count("\n") <= 2
    assert list(tmp_path.iterdir()) == []

@pytest.mark.parametrize("args", [["--help"], ["--version"], ["plot", "--help"], ["--show-completion", "bash"]])
@pytest.mark.parametrize("start", [_closed, _read_only])
def test_a_closed_standard_output_is_named_for_help_and_version_too(args, start):
    """Re-review of issue 34 (rereview34f D4): what prints before a command starts (--help, --version,
    --show-completion) exited 0 printing nothing with `>&-`, and with `1</dev/null` ended in a 42-45 line
    traceback. Now the commands' error, status 2."""
    done = subprocess.run(pacesim_process(*args), preexec_fn=start, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("error: standard output cannot be written") and done.stderr.count("\n") <= 2


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["reproduce", "--list"], ["run", *RUN]])
def test_a_full_standard_output_is_an_error_not_a_traceback(tmp_path, args):
    """Re-review of issue 34 (rereview34f): standard output on a full device (`>/dev/full`) ended each of
    these in a traceback (OSError: [Errno 28] No space left on device, from rich's console). Now one error
    naming standard output, status 1 (the file system failed)."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(pacesim_process(*args), stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.endswith("error: standard output: No space left on device\n"), done.stderr


@pytest.mark.parametrize("read_all", [False, True])
def test_output_that_fits_in_the_pipe_and_is_cut_by_its_reader_is_no_success(read_all, monkeypatch, capsys):
    """`pacesim run ... --json - | head -c 100` (review of issue 34): a report small enough for the pipe's
    buffer raised nothing when head went away after 100 bytes, and the command exited 0 with the JSON cut.
    In process: a command prints 1,000 bytes into a pipe whose reader takes 100 and closes (status 141 and
    900 bytes named unread), or takes them all and stays (a success)."""
    r, w = os.pipe()
    monkeypatch.setattr(sys, "stdout", os.fdopen(w, "w"))

    @command
    def prints() -> None:
        sys.stdout.write("x" * 1000)
        sys.stdout.flush()
        assert len(os.read(r, 1000 if read_all else 100)) == (1000 if read_all else 100)
        if not read_all:
            os.close(r)

    try:
        if read_all:
            prints()
        else:
            with pytest.raises(typer.Exit) as stopped:
                prints()
            assert stopped.value.exit_code == 141
            assert "closed by its reader with 900 bytes of it unread" in capsys.readouterr().err
    finally:
        sys.stdout.close()
        if read_all:
            os.close(r)


def test_a_40000_character_key_is_named_in_well_under_its_old_26_seconds():
    t0 = time.perf_counter()
    refused(["run", *RUN, "--set", "a" * 40_000 + "=1"], "a" * 1000)
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("command", [["run"], ["topology", "show"], ["model"]])
def test_terminal_escapes_in_a_name_are_written_out(command):
    out = invoke([*command, f"a{ESC}b"])
    assert out.exit_code == 2 and "\x1b" not in out.output and "\x07" not in out.output
    assert r"a\x1b]0;pwned\x07\x1b[31mb" in out.output


@pytest.mark.parametrize("args", [["results", "--", "--csv", f"a{ESC}\u202eb"], ["topology", "show", "--", "x", f"a{ESC}\u202eb"],
                                  [f"--a{ESC}\u202eb"]])
def test_a_usage_error_writes_out_the_words_it_quotes(args):
    # click's "Got unexpected extra argument(s) (...)" printed a right-to-left override raw (session 11,
    # cli_args.py seed 2304).
    out = refused(args, r"a\x1b]0;pwned\x07\x1b[31m\u202eb")
    assert not any(c in out.output for c in "\x1b\x07\u202e"), repr(out.output)


@pytest.mark.parametrize("args, message", [
    (["report", "extra"], "Got unexpected extra argument(s) (extra)"), (["report", "--results"], "Option '--results' "
     "requires an argument"), (["run", "e-base", "--threads", "9"], "Invalid value for '--threads'"),
])
def test_usage_errors_read_as_every_other_error(args, message):
    """Review of issue 34: `pacesim report extra` wrote click's `Error:` where pacesim's errors read `error:`."""
    out = refused(args, f"error: {message}")
    assert "Error:" not in out.output


@pytest.mark.parametrize("group", [[], ["tmix"], ["topology"]])
def test_a_group_without_its_command_shows_its_help_not_an_error(group):
    """Review of issue 34: `pacesim` alone printed its usage line, then `error: Usage: ...` and the help."""
    out = refused(group, "Commands:")
    assert "error" not in out.output.lower() and out.output.count("Usage:") == 1, out.output


def test_an_engine_failure_reads_as_every_other_error(monkeypatch):
    """Review of issue 34: errors read `error:`, one form (a run the engine failed read `engine failure:`)."""
    from pacesim import engine

    def failing(*args, **kwargs):
        raise RuntimeError("conservation: 3 packets lost")

    monkeypatch.setattr(engine, "simulate", failing)  # what `pacesim run` calls once the scenario is checked
    refused(["run", *RUN], "error: the engine failed: conservation: 3 packets lost", code=1)


@pytest.mark.parametrize("command, names", [
    (["run", *RUN, "--json"], "--json"), (["run", *RUN, "--trace"], "--trace"), (["report", "--out"], "--out"),
    (["model", "a-fig6", "--out"], "--out"), (["trace", "pcap", "/dev/null"], "OUT"),
    (["topology", "show", "e-base", "--png"], "--png"), (["results", "--results"], "--results"),
    (["plot", "tiny", "--results"], "--results"),
])
def test_a_path_no_file_system_holds_is_refused_naming_its_option(command, names):
    refused([*command, "x" * 300], f"{names} {'x' * 300}: File name too long")


# ------------------------------------------------------------------ model


@pytest.mark.parametrize("model, setting, names", [
    ("a-fig10", "step_kb=0", "step_kb"),
    ("a-fig10", "max_kb=1e9", "max_kb"),
    ("a-fig10", "udp_size=0", "udp_size"),
    ("a-fig10", "udp_size=300", "udp_size"),  # 1000 B TCP packets are no whole bulk of 300 B
    ("a-fig10", "step_kb=0.0001", "max_kb, step_kb"),  # 490,001 points, each a chain
    ("a-md1", "grid=7", "grid"),
    ("q-thm2", "on_ms=0", "on_ms"),
    ("q-thm2", "off_ms=-1", "off_ms"),
    ("w-fig8", "points=0", "points"),
    ("w-fig8", "points=1", "points"),  # was an IndexError traceback in its claim's check (issue 33's third review)
    ("w-fig8", "points=10000", "points, bdp_pkts"),
    ("e-model", "bstar_kb=nan", "bstar_kb"),
    ("e-model", "loads=", "loads"),
    ("e-model", "loads=0.5,1.5", "loads"),
    ("w-conv", "rtt_ms=0", "rtt_ms"),
    ("q-thm1", "mu_min_mbps=20", "mu_min_mbps"),
    ("q-thm2", "mu_min_mbps=10", "mu_min_mbps"),
    ("a-fig6", "f=inf", "f"),
    ("a-fig6", "nosuch=1", "nosuch"),
])
def test_model_parameters_outside_their_domain_are_refused_by_name(tmp_path, model, setting, names):
    out = refused(["model", model, "--set", setting, "--out", tmp_path / "m"], names)
    assert "--set" in out.output and not (tmp_path / "m").exists()  # nothing written, not even the directory


@pytest.mark.parametrize("text, says", [
    ("a,b\n1,2\n", "no column buffer_kb or empty_prob"),  # was a KeyError traceback (issue 33's third review)
    ("buffer_kb\n1\n", "no column empty_prob"),
    ("buffer_kb,empty_prob\nx,0.5\n", "buffer_kb and empty_prob must hold numbers"),
    ("a,b\n1,2\n3,4,5,6\n", "not a CSV of points"),  # pandas' words alone named no field
])
def test_an_empty_csv_without_its_columns_is_refused_naming_it(tmp_path, text, says):
    (tmp_path / "e.csv").write_text(text)
    refused(["model", "e-model", "--set", f"empty_csv={tmp_path / 'e.csv'}", "--out", tmp_path / "m"],
            " ".join(f"empty_csv {tmp_path / 'e.csv'}: {says}".split()))


def test_a_directory_as_empty_csv_is_named_a_directory(tmp_path):
    # It said "no such file" (issue 33's third review).
    refused(["model", "e-model", "--set", f"empty_csv={tmp_path}", "--out", tmp_path / "m"],
            f"empty_csv='{tmp_path}': a directory, not a CSV file")


@pytest.mark.parametrize("model, setting, says", [
    ("a-fig10", "tcp_size=1.5", "a-fig10: tcp_size must be a whole number, got 1.5"),  # was "is not a int"
    ("a-fig10", "tcp_size=nan", "tcp_size must be a whole number, got nan"),
    ("a-fig10", "step_kb=abc", "step_kb must be a number, got 'abc'"),
    ("a-fig10", "tcp_size=0", "tcp_size must be >= 1, got 0"),
    ("a-fig22", "ratios=5,2.5", "ratios must be a whole number, got 2.5"),
    ("e-model", "loads=,", "loads must be a list of numbers"),
])
def test_model_parameters_of_the_wrong_kind_are_refused_in_words(tmp_path, model, setting, says):
    refused(["model", model, "--set", setting, "--out", tmp_path / "m"], says)


def test_model_whole_parameters_take_any_spelling_of_a_whole_number():
    from pacesim.analysis.models import parse_overrides
    from pacesim.papers import MODELS

    for spelling in ["1000", "1e3", "1000.0", " 1E+3 "]:
        p = parse_overrides(MODELS["a-fig10"], [f"tcp_size={spelling}"])
        assert p["tcp_size"] == 1000 and type(p["tcp_size"]) is int
    assert parse_overrides(MODELS["a-md1"], ["erlang_phases=1,4.0"])["erlang_phases"] == (1, 4)
    assert type(parse_overrides(MODELS["a-fig22"], ["ratios=2e1,1"])["ratios"][0]) is int


def test_model_claims_on_other_parameters_are_not_evaluated_where_their_columns_are_missing():
    from pacesim.analysis.model_claims import judge_model
    from pacesim.analysis.models import parse_overrides
    from pacesim.papers import MODELS

    m = MODELS["a-fig22"]  # its claims read the loss at the paper's ratios 25, 10, 5, 2, 1
    judged = judge_model(m, m.build(parse_overrides(m, ["ratios=20,1", "max_kb=5"])))  # was a KeyError
    assert [j.outcome for j in judged] == ["not evaluated"] * 2 and "udp_loss_ratio" in judged[0].numbers


def test_model_out_at_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("keep")
    refused(["model", "a-fig6", "--out", tmp_path / "f"], "--out")
    assert (tmp_path / "f").read_text() == "keep"


def test_model_overlay_of_a_device_is_refused():
    refused(["model", "a-fig10", "--overlay", "/dev/zero"], "/dev/zero: is a device, not a regular file")


def test_model_overlay_wider_than_a_csv_of_points_is_refused_naming_it(tmp_path):
    # Issue 33 (review 33c, overlay_wide.sh): a million columns ended in a MemoryError traceback.
    (tmp_path / "wide.csv").write_text(",".join(f"c{i}" for i in range(5000)) + "\n" + ",".join(["1"] * 5000) + "\n")
    refused(["model", "e-fig10", "--overlay", tmp_path / "wide.csv", "--out", tmp_path / "o"],
            f"--overlay {tmp_path / 'wide.csv'}: its header has 5,000 columns", terminal_width=400)
    assert not (tmp_path / "o").exists()


def test_model_leaves_no_out_directory_when_its_input_is_refused(tmp_path):
    # Issue 33's fifth review (model-overlay.sh): --overlay /dev/null was refused (status 2) after --out's
    # directory had been made, and left it there empty; an overlay read but matching no curve left the CSV too.
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "other.csv").write_text("x,y\n1,2\n")
    (tmp_path / "unmatched.csv").write_text("buffer_kb,nothing_drawn\n10,0.5\n")  # a-fig6's x, no curve of it
    out = tmp_path / "out" / "deeper"
    for model, overlay, names in [("a-fig10", "/dev/null", "/dev/null: is a device, not a regular file"),
                                  ("a-fig10", tmp_path / "empty.csv", "--overlay"),
                                  ("a-fig10", tmp_path / "other.csv", "--overlay"),
                                  ("a-fig6", tmp_path / "unmatched.csv", "no column matches a plotted curve")]:
        refused(["model", model, "--overlay", overlay, "--out", out], names)
        assert not (tmp_path / "out").exists(), (overlay, list((tmp_path / "out").rglob("*")))
    assert invoke(["model", "a-fig6", "--out", out]).exit_code == 0 and (out / "a-fig6.csv").is_file()


def test_an_out_directory_at_a_fifo_or_a_device_is_named_for_what_it_is(tmp_path, store):
    # Issue 33's fifth review: report --out and model --out said "is a file" of a FIFO and of /dev/null.
    # (Neither opens it: asserted on the old behaviour too.)
    os.mkfifo(tmp_path / "fifo")
    for at, what in [(tmp_path / "fifo", "a FIFO"), (Path(os.devnull), "a device")]:
        refused(["report", "--results", store, "--out", at], f"--out {at}: is {what}, not a directory")
        refused(["model", "a-fig6", "--out", at], f"--out {at}: is {what}, not a directory")
        refused(["model", "a-fig6", "--out", at / "sub"], f"--out {at / 'sub'}: {at} is {what}, not a directory")
    (tmp_path / "file").write_text("keep")
    refused(["report", "--results", store, "--out", tmp_path / "file"], "is a file, not a directory")
    assert (tmp_path / "file").read_text() == "keep"


def test_a_fifo_to_read_is_refused_without_opening_it(tmp_path):
    # Issue 33's fifth review (fifo/): trace diff, trace pcap and model --overlay opened a FIFO and waited for
    # a writer for ever, as cat does; refused now as run and sweep refuse one. (Asserted on the new behaviour
    # only, in a process ended after 120 s: the old one blocks.)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    trace = tmp_path / "t.tr"
    trace.write_text("- 1.0 0 1 tcp 1040 ------- 0 0.0 1.0 1 1\n")
    for args, names in [(["trace", "diff", fifo, trace], f"{fifo}: file: is a FIFO, not a regular file"),
                        (["trace", "diff", trace, fifo], f"{fifo}: file: is a FIFO, not a regular file"),
                        (["trace", "pcap", fifo, tmp_path / "t.pcap"], f"{fifo}: file: is a FIFO, not a regular file"),
                        (["model", "a-fig10", "--overlay", fifo, "--out", tmp_path / "m"],
                         f"{fifo}: is a FIFO, not a regular file")]:
        done = subprocess.run(pacesim_process(*map(str, args)), capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and names in done.stdout + done.stderr, (args, done.stdout, done.stderr)
    assert not (tmp_path / "m").exists() and not (tmp_path / "t.pcap").exists()


# ------------------------------------------------------------------ topology, trace


@pytest.mark.parametrize("png", ["x.bmp", "x", "/nonexistent/dir/x.png"])
def test_topology_png_of_no_format_or_place_is_refused_before_drawing(png):
    out = refused(["topology", "show", "e-base", "--png", png], "--png")
    assert "Links" not in out.output  # refused before the description


def test_pgf_without_its_latex_is_refused_before_drawing(monkeypatch):
    """Issue 33's review: `topology show --png y.pgf` and `plot --format pgf` ended in a 110-line traceback
    ('xelatex' not found): matplotlib lists PGF, which it writes through LaTeX."""
    import shutil

    from pacesim.plot import check_image_path

    which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if "latex" in name else which(name, *a, **k))
    out = refused(["topology", "show", "e-base", "--png", "y.pgf"], "'.pgf' is not an image format matplotlib writes")
    assert "Links" not in out.output
    with pytest.raises(ValueError, match="'.pgf' is not an image format"):  # plot's --format asks the same
        check_image_path("figure.pgf")


def test_topology_routes_past_its_bound_are_refused():
    refused(["topology", "show", "e-base", "--routes", "99999999999999999999"], "--routes")


def test_trace_pcap_refuses_a_packet_no_ipv4_packet_can_be(tmp_path):
    (tmp_path / "t.tr").write_text("- 1.0 0 1 tcp 99999999999 ------- 0 0.0 1.0 1 1\n")
    refused(["trace", "pcap", tmp_path / "t.tr", tmp_path / "t.pcap"], "t.tr:1: size: 99999999999 B")
    assert not (tmp_path / "t.pcap").exists()


@pytest.mark.parametrize("line, field", [
    ("- inf 0 1 tcp 1040 ------- 0 0.0 1.0 1 1", "time"),
    ("- 1 0 1 tcp 1040 ------- -1 0.0 1.0 1 1", "flow"),
    ("- 1 0 1 tcp 1040 ------- 0 99999999.0 1.0 1 1", "src"),
    ("- 1 0 1 tcp 20 ------- 0 0.0 1.0 1 1", "size"),
    ("- 1 -1 1 tcp 1040 ------- 0 0.0 1.0 1 1", "from"),  # the issue 33 review: these four were written
    ("- 1 0 -1 cbr 1040 ------- 0 0.0 1.0 1 1", "to"),
    ("- 1 0 1 0.0 1040 ------- 0 0.0 1.0 1 1", "type"),  # no type of ns-2's, written as UDP
    ("- 1 0 1 tcp 1040 ------- 0 0.0 1.0 18446744073709551616 1", "seq"),  # 2^64
    ("- 1 0 1 ack 40 ------- 0 1.0 0.0 -5 1", "seq"),
])
def test_trace_pcap_names_the_field_no_pcap_can_hold(tmp_path, line, field):
    (tmp_path / "t.tr").write_text(line + "\n")
    refused(["trace", "pcap", tmp_path / "t.tr", tmp_path / "t.pcap"], f"t.tr:1: {field}:")


def test_trace_pcap_to_a_full_disk_is_an_error(tmp_path):
    (tmp_path / "t.tr").write_text("- 1.0 0 1 tcp 1040 ------- 0 0.0 1.0 1 1\n")
    refused(["trace", "pcap", tmp_path / "t.tr", "/dev/full"], "OUT /dev/full: No space left on device", code=1)  # OUT named


def test_trace_diff_of_a_file_without_line_ends_stops_at_once(tmp_path):
    (tmp_path / "t.tr").write_text("- 1.0 0 1 tcp 1040 ------- 0 0.0 1.0 1 1\n")
    (tmp_path / "long.tr").write_text("x" * 5000)
    refused(["trace", "diff", tmp_path / "long.tr", tmp_path / "t.tr"], f"{tmp_path / 'long.tr'}:1: line: longer than")
    refused(["trace", "diff", "/dev/zero", tmp_path / "t.tr"], "/dev/zero: file: is a device, not a regular file")
    refused(["trace", "diff", tmp_path / "t.tr", tmp_path / "t.tr", "--time-tolerance", "nan"], "--time-tolerance")


# ------------------------------------------------------------------ sweep, results, plot, reproduce, report


def test_sweep_of_a_device_is_refused_without_reading_it_whole():
    refused(["sweep", "/dev/zero"], "/dev/zero: is a device, not a regular file")


def test_a_store_that_cannot_be_made_is_an_error_naming_it(tmp_path):
    (tmp_path / "s.toml").write_text('name = "s"\nset = ' + repr(TINY).replace("'", '"') + '\n[axes]\n"core.buffer" = ["5KB"]\n')
    refused(["sweep", tmp_path / "s.toml", "--results", "/proc/self/nope", "--quiet"],
            "--results: /proc/self/nope: cannot make the directory")


def test_writes_to_a_place_that_cannot_hold_them_are_status_2(tmp_path, store):
    # The issue 33 review: these ended with 1 (the work failed) though the place given was at fault.
    (tmp_path / "d").mkdir()
    refused(["results", "tiny", "--results", store, "--csv", tmp_path / "d"], f"--csv {tmp_path / 'd'}")
    refused(["results", "tiny", "--results", store, "--csv", "/proc/self/nope/x.csv"], "--csv /proc/self/nope/x.csv")
    (tmp_path / "t.tr").write_text("+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 0 0\n")
    refused(["trace", "pcap", tmp_path / "t.tr", tmp_path / "d"], str(tmp_path / "d"))
    refused(["trace", "pcap", tmp_path / "t.tr", "/proc/self/nope/t.pcap"], "/proc/self/nope/t.pcap")
    (tmp_path / "afile").write_text("x")
    refused(["reproduce", "--list", "--results", tmp_path / "afile"], "is a file, not a results directory")
    refused(["reproduce", "--table", "--results", store, "--tables", tmp_path / "afile" / "t"], "is a file, not a "
            "directory")


def test_a_store_given_wrongly_is_status_2_and_a_failing_file_system_1(tmp_path):
    # The issue 33 review: a damaged store, or a file given as one, ended with status 1 (the work failed)
    # while every other bad input ends with 2; a full disk is the work failing (1), as for --json /dev/full.
    (tmp_path / "s.toml").write_text('name = "s"\nset = ' + repr(TINY).replace("'", '"') + '\n[axes]\n"core.buffer" = ["5KB"]\n')
    (tmp_path / "afile").write_text("x")
    (tmp_path / "damaged").mkdir()
    (tmp_path / "damaged" / "pacesim.sqlite").write_text("not a database, and longer than its header" * 4)
    refused(["sweep", tmp_path / "s.toml", "--results", tmp_path / "afile", "--quiet"], "is a file, not a results")
    refused(["results", "--results", tmp_path / "damaged"], "is not a results store's database, or is damaged")
    refused(["reproduce", "--list", "--results", tmp_path / "damaged"], "is not a results store's database")
    # Issue 33's fourth review: a database cut to nothing (which SQLite reads as an empty one) or without its
    # tables ended with status 1, "it failed (no such table: runs)".
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "pacesim.sqlite").write_bytes(b"")
    (tmp_path / "tableless").mkdir()
    with sqlite3.connect(tmp_path / "tableless" / "pacesim.sqlite") as db:
        db.execute("CREATE TABLE other (x)")
    for store in ["empty", "tableless"]:
        for command in [["results"], ["results", "s"], ["plot", "s"]]:
            refused([*command, "--results", tmp_path / store],
                    f"{tmp_path / store / 'pacesim.sqlite'}: the database is not a results store's")
    (tmp_path / "dir" / "pacesim.sqlite").mkdir(parents=True)
    refused(["results", "--results", tmp_path / "dir"], "is a directory, not a store's database")
    shutil.copytree(tmp_path / "damaged", tmp_path / "filed")
    (tmp_path / "filed" / "pacesim.sqlite").unlink()
    (tmp_path / "filed" / "tables").write_text("a file where the tables go")
    refused(["sweep", tmp_path / "s.toml", "--results", tmp_path / "filed", "--quiet"], "tables")
    full = _failure(OSError(errno.ENOSPC, "No space left on device"), tmp_path / "x")
    broken = _failure(sqlite3.DatabaseError("file is not a database"), tmp_path / "x")
    assert isinstance(full, StoreFailed) and not isinstance(broken, StoreFailed)


def test_pacesims_warnings_print_as_warning_lines(capsys):
    # A damaged stored run, named and run again by `pacesim sweep`, was printed in Python's form: the file,
    # line and source of the code that warned, and the class's name.
    @command
    def sweep():
        warnings.warn(DamagedRun(f"tiny: the stored run of point seed 1: {ESC}x.parquet is not the file committed; "
                                 "running it again"), stacklevel=2)
        warnings.warn("another package's", FutureWarning)

    with pytest.warns(FutureWarning, match="another package's"):  # passed on to Python's warnings as it was
        sweep()
    err = capsys.readouterr().err
    assert err.startswith(r"warning: tiny: the stored run of point seed 1: \x1b]0;pwned\x07\x1b[31mx.parquet is not "
                          "the file committed; running it again\n"), err
    assert "DamagedRun" not in err and ".py:" not in err and "another" not in err


@contextmanager
def unwritable(root: Path) -> Iterator[None]:
    """`root` and all under it unwritable while the block runs, to this process too if it is root (the
    immutable attribute; permissions do not bind root)."""
    paths = [root, *root.rglob("*")]
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
        if made.returncode:
            subprocess.run(["chattr", "-i", *map(str, paths)], capture_output=True)
            pytest.skip(f"root here cannot make a directory unwritable: chattr: {made.stderr.strip()}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", *map(str, paths)], check=True)
    else:
        modes = {p: p.stat().st_mode for p in paths}
        for p in paths:
            p.chmod(modes[p] & ~0o222)
        try:
            yield
        finally:
            for p in paths:
                p.chmod(modes[p])


def test_a_finished_sweep_on_a_read_only_store_is_done_and_plot_writes_where_asked(tmp_path, pool):
    # The issue 33 review: the sweep run again against its store, now read-only, failed ("cannot be written
    # here") although it had nothing to write.
    setting = 'set = ' + json.dumps(TINY + ["duration=2s", "warmup=1s", "traffic.start=['0s','1s']"])
    (tmp_path / "s.toml").write_text(f'name = "s"\n{setting}\n[axes]\n"core.buffer" = ["5KB"]\n')
    (tmp_path / "more.toml").write_text(f'name = "s"\n{setting}\n[axes]\n"core.buffer" = ["5KB", "6KB"]\n')
    res = tmp_path / "res"
    with Store(res) as store:
        assert run_sweep(load_sweep(tmp_path / "s.toml"), store, pool, progress=False).ran == 1
    with unwritable(res):
        out = invoke(["sweep", tmp_path / "s.toml", "--results", res, "--quiet"])
        assert out.exit_code == 0 and "s: 1 points, all already done; nothing to write" in out.output, out.output
        refused(["sweep", tmp_path / "more.toml", "--results", res, "--quiet"], f"{res}/pacesim.sqlite: it cannot be "
                "written here")
        refused(["plot", "s", "--results", res], f"--out {res}/plots: cannot make the directory")
        out = invoke(["plot", "s", "--results", res, "--out", tmp_path / "fig", "--format", "svg"])
        assert out.exit_code == 0 and (tmp_path / "fig.svg").stat().st_size > 1000, out.output
    # `results` leaves SQLite's -wal and -shm files beside the database (the issue 33 review: the sweep then
    # failed on "attempt to write a readonly database" instead of finding every point done).
    assert invoke(["results", "s", "--results", res]).exit_code == 0 and (res / "pacesim.sqlite-wal").exists()
    with unwritable(res):
        out = invoke(["sweep", tmp_path / "s.toml", "--results", res, "--quiet"])
        assert out.exit_code == 0 and "s: 1 points, all already done; nothing to write" in out.output, out.output


# ------------------------------------------------------------------ output places (issue 33's second review)
# A place is checked by making a file there (terminal.writable, outfile.probe): os.access passed, as root,
# /proc and /sys, a dangling link and a link into a place no file can be made; each write failed after the
# work. A file is written beside its target and renamed over it (outfile.written): no partial file is left.


def _places(tmp_path: Path) -> dict:
    """Files root cannot make: on /proc and /sys, through a link to no directory, through a link into /proc."""
    for name, to in [("dangling", tmp_path / "no" / "x"), ("into-proc", Path("/proc/pacesim.out"))]:
        for suffix in ["", ".png"]:
            (tmp_path / (name + suffix)).symlink_to(str(to) + suffix)
    return {"/proc/version": Path("/proc/version"), "/proc/self/status": Path("/proc/self/status"),
            "/sys/kernel/pacesim.out": Path("/sys/kernel/pacesim.out"), "dangling": tmp_path / "dangling",
            "into-proc": tmp_path / "into-proc"}


@pytest.mark.parametrize("place", ["/proc/version", "/proc/self/status", "/sys/kernel/pacesim.out", "dangling",
                                   "into-proc"])
def test_every_output_file_option_refuses_a_place_no_file_can_be_made_before_any_work(place, tmp_path, store):
    # As root, run --json /proc/version wrote and failed (EIO), then its clean-up raised PermissionError: a
    # traceback; --json /sys/..., dangling links and links into /proc failed only after the run.
    at = _places(tmp_path)[place]
    (tmp_path / "t.tr").write_text("+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 0 0\n")
    for args, option, shown in [
        (["run", *RUN, "--json", at], "--json", at),
        (["run", *RUN, "--trace", at], "--trace", at),
        (["topology", "show", "e-base", "--png", f"{at}.png"], "--png", f"{at}.png"),
        (["trace", "pcap", tmp_path / "t.tr", at], "OUT", at),
        (["tmix", "generate", at, "--connections", "5"], "OUT", at),
        (["results", "tiny", "--results", store, "--csv", at], "--csv", at),
    ]:
        out = refused(args, f"{option} {shown}: ")
        assert not {"Summary", "Links", "wrote", "points"} & set(out.output.split()), out.output
    assert Path("/proc/version").read_text().startswith("Linux")


@pytest.mark.parametrize("place", ["/proc/tables", "/sys/kernel/pacesim"])
def test_reproduce_all_refuses_tables_in_proc_or_sys_before_the_catalogue(place, tmp_path, monkeypatch):
    # As root, reproduce --all --tables /proc/tables started the whole catalogue and failed at its end.
    def started():
        raise AssertionError("the catalogue started")
    monkeypatch.setattr("pacesim.experiment_commands._runnable", started)
    refused(["reproduce", "--all", "--tables", place, "--results", tmp_path / "r"], f"--tables {place}: cannot write")
    assert not (tmp_path / "r").exists()


def test_a_link_into_a_place_no_file_can_be_made_is_refused(tmp_path):
    (tmp_path / "ro").mkdir()
    (tmp_path / "r.json").symlink_to(tmp_path / "ro" / "r.json")
    (tmp_path / "tables").symlink_to(tmp_path / "ro")
    with unwritable(tmp_path / "ro"):
        refused(["run", *RUN, "--json", tmp_path / "r.json"], f"--json {tmp_path / 'r.json'}: not writable")
        refused(["reproduce", "--all", "--tables", tmp_path / "tables", "--results", tmp_path / "r"], "--tables")
    assert list((tmp_path / "ro").iterdir()) == []


def test_append_only_files_and_directories_are_refused_before_the_work_and_kept_clean(tmp_path):
    # Issue 33's third review: an append-only file passed the check and failed after the run (exit 2); in an
    # append-only directory the probe could not remove its file, left .pacesim-probe-* behind and said "no file
    # can be made". (chattr +a binds root too.)
    if os.geteuid() != 0:
        pytest.skip("only root may set the append-only attribute")
    kept, folder = tmp_path / "r.json", tmp_path / "ad"
    kept.write_text("kept")
    folder.mkdir()
    if subprocess.run(["chattr", "+a", kept, folder], capture_output=True).returncode:
        pytest.skip("this file system keeps no append-only attribute")
    try:
        refused(["run", *RUN, "--json", kept], f"--json {kept}: not writable: the file is append-only")
        refused(["run", *RUN, "--json", folder / "r.json"], f"no file can be made in {folder} (the directory is "
                                                             "append-only")
        refused(["model", "a-fig10", "--out", folder], f"--out {folder}: cannot write in the directory (the "
                                                       "directory is append-only")
        refused(["tmix", "generate", folder / "v.tmix"], "append-only")
        assert kept.read_text() == "kept" and list(folder.iterdir()) == []
    finally:
        subprocess.run(["chattr", "-a", kept, folder], check=True)


def test_fifos_and_sockets_are_refused_naming_the_option_and_devices_taken(tmp_path, store):
    # run --json FIFO and --trace FIFO waited for a reader for ever, without a word. (Asserted on the new
    # behaviour only: the old one blocks.)
    import socket

    os.mkfifo(tmp_path / "fifo")
    os.mkfifo(tmp_path / "fifo.png")
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(tmp_path / "sock"))
        (tmp_path / "t.tr").write_text("+ 0.1 0 1 tcp 1040 ------- 1 0.0 1.0 0 0\n")
        for at, what in [(tmp_path / "fifo", "is a FIFO"), (tmp_path / "sock", "is a socket")]:
            refused(["run", *RUN, "--json", at], f"--json {at}: {what}")
            refused(["run", *RUN, "--trace", at], f"--trace {at}: {what}")
            refused(["trace", "pcap", tmp_path / "t.tr", at], f"OUT {at}: {what}")
            refused(["tmix", "generate", at], f"OUT {at}: {what}")
            refused(["results", "tiny", "--results", store, "--csv", at], f"--csv {at}: {what}")
        refused(["topology", "show", "e-base", "--png", tmp_path / "fifo.png"], "--png")
    for option in ["--json", "--trace"]:
        out = invoke(["run", *RUN, option, "/dev/null"])
        assert out.exit_code == 0 and "written to /dev/null" in out.output, out.output
    assert Path("/dev/null").is_char_device()


def test_the_shells_own_descriptors_are_written_through_not_replaced_or_refused(tmp_path):
    # Issue 33's third review: after 7fb2af5, `--json /dev/stdout | head` and `--json >(wc -c)` were refused as
    # FIFOs, and `--json /dev/stdout >> log` replaced the log (the write-whole rename followed /dev/stdout to it).
    def report(out: str) -> dict:
        return json.JSONDecoder().raw_decode(out[out.index('{"scenario"'):])[0]

    piped = subprocess.run(pacesim_process("run", *RUN, "--json", "/dev/stdout"), capture_output=True, text=True,
                           timeout=300)
    assert piped.returncode == 0 and report(piped.stdout)["engine_version"], piped.stderr
    log = tmp_path / "log.txt"
    log.write_text("kept\n")
    with open(log, "a") as appended:
        done = subprocess.run(pacesim_process("run", *RUN, "--json", "/dev/stdout"), stdout=appended,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    text = log.read_text()
    assert text.startswith("kept\n") and report(text)["engine_version"] and "Summary" in text
    assert not list(tmp_path.glob(".pacesim-*")) and not list(Path(tempfile.gettempdir()).glob(".pacesim-*.json"))


def test_a_descriptor_not_open_or_open_for_reading_is_refused_before_the_run(tmp_path):
    # Issue 33's third review: --json /dev/fd/77 passed the check, ran, and failed writing (EBADF); its fourth:
    # so did --json /dev/stdin < FILE.
    refused(["run", *RUN, "--json", "/dev/fd/77"], "--json /dev/fd/77: descriptor 77 is not open")
    (tmp_path / "in").write_text("x")
    with open(tmp_path / "in") as stdin:
        done = subprocess.run(pacesim_process("run", *RUN, "--json", "/dev/stdin"), stdin=stdin,
                              capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "--json /dev/stdin: descriptor 0 is open for reading only" in done.stderr
    assert "Summary" not in done.stdout, done.stdout


def _limited(limit: int, *args) -> subprocess.CompletedProcess:
    """`pacesim ARGS` in a process that can write no file past `limit` bytes (RLIMIT_FSIZE: a full disk, as
    Python ignores SIGXFSZ and a write fails with EFBIG)."""
    import resource

    return subprocess.run(pacesim_process(*map(str, args)), capture_output=True, text=True, timeout=300,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)))


def test_a_write_cut_short_leaves_no_partial_file_and_what_was_there(tmp_path):
    # A full disk left a 0-byte a-fig10.csv (model --out) and a 0-byte trace; --json's clean-up removed the
    # report that was there before.
    done = _limited(300, "model", "a-fig10", "--out", tmp_path / "m")
    assert done.returncode == 1 and f"--out {tmp_path / 'm'}: File too large" in done.stderr, done.stderr
    assert list((tmp_path / "m").iterdir()) == []
    for option, name in [("--trace", "t.tr"), ("--json", "r.json"), ("--trace", "t.pcap")]:
        (tmp_path / name).write_text("as it was")
        done = _limited(1000, "run", *RUN, option, tmp_path / name)
        assert done.returncode == 1 and f"{option} {tmp_path / name}: File too large" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
        assert (tmp_path / name).read_text() == "as it was"
    (tmp_path / "v.tmix").write_text("as it was")  # tmix generate wrote in place: a partial file
    done = _limited(300, "tmix", "generate", tmp_path / "v.tmix", "--connections", "50")
    assert done.returncode == 1 and f"OUT {tmp_path / 'v.tmix'}: File too large" in done.stderr, done.stderr
    assert (tmp_path / "v.tmix").read_text() == "as it was"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m", "r.json", "t.pcap", "t.tr", "v.tmix"]


@pytest.mark.parametrize("given, says", [("d", "is a directory"), ("no/parent/t.tr", "no directory")])
def test_a_trace_place_from_the_command_line_is_named_as_trace(given, says, tmp_path, monkeypatch):
    # Named trace.file, the scenario's field, though the path came from --trace.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    out = refused(["run", *RUN, "--trace", given], f"--trace {given}: {says}")
    assert "trace.file" not in out.output
    out = refused(["run", *RUN, "--set", f"trace.file={given}"], f"trace.file {given}: {says}")


def test_plot_out_in_a_place_no_file_can_be_made_names_the_out_given(store, tmp_path):
    # It named the directory above it (--out DIR: cannot write in ...), not what the user typed.
    (tmp_path / "ro").mkdir()
    with unwritable(tmp_path / "ro"):
        refused(["plot", "tiny", "--results", store, "--by", "pacing.scheme", "--out", tmp_path / "ro" / "fig"],
                f"--out {tmp_path / 'ro' / 'fig'}: cannot write in the directory")
    assert list((tmp_path / "ro").iterdir()) == []


def test_ctrl_c_names_a_store_only_where_there_is_one(tmp_path, capsys):
    # The issue 33 review: Ctrl-C while `sweep --dask` started its cluster, before the store was made, said
    # "finished points are kept in results", a store that did not exist.
    Store(tmp_path / "store").close()
    for results, says in [(tmp_path / "none", f"interrupted: nothing was stored (no results store in {tmp_path}/none)"),
                          (tmp_path / "store", f"interrupted: finished points are kept in {tmp_path}/store; run again")]:
        with pytest.raises(typer.Exit) as stop, _interruptible(results):
            raise KeyboardInterrupt
        assert stop.value.exit_code == 130 and says in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


def test_results_csv_to_a_full_disk_is_an_error(store):
    refused(["results", "tiny", "--results", store, "--csv", "/dev/full"], "--csv /dev/full", code=1)


@pytest.mark.parametrize("args, names", [
    (["--y", "status"], "'status'"),
    (["--y", "core.buffer"], "'core.buffer'"),
    (["--by", "pacing.scheme", "--where", "pacing.scheme=edgy"], "--where pacing.scheme=edgy"),
    (["--by", "pacing.scheme", "--where", "pacing.scheme=edge,edgy"], "pacing.scheme = edgy;"),  # one of two
    (["--by", "pacing.scheme", "--where", "pacing.scheme=none", "--where", "pacing.scheme=edge"], "given twice"),
    (["--by", "core.buffer"], "--by core.buffer"),  # the x axis
    (["--by", "pacing.scheme", "--size", "poster"], "--size"),
    (["--by", "pacing.scheme", "--format", "bmp"], "--format"),
    (["--by", "pacing.scheme", "--window", "1:2"], "--window"),
    # Review of issue 34: each was accepted and left unused, exit 0, the figure not the one asked for.
    (["--by", "pacing.scheme", "--seed", "1"], "--seed: only with --series"),
    (["--by", "pacing.scheme", "--flows", "0"], "--flows: only with --series"),
    (["--by", "pacing.scheme", "--links", "core"], "--links: only with --series"),
    (["--series", "cwnd", "--where", "pacing.scheme=none", "--where", "core.buffer=3KB", "--seed", "1", "--logy"],
     "--logy: not with --series"),
    (["--series", "cwnd", "--where", "pacing.scheme=none", "--seed", "1", "--by", "core.buffer"],
     "--by: not with --series"),
    (["--series", "cwnd", "--where", "pacing.scheme=none", "--where", "core.buffer=3KB", "--seed", "1", "--x",
      "core.buffer", "--y", "aggregate_mbps"], "--x, --y: not with --series"),
    (["--series", "cwnd", "--where", "pacing.scheme=none", "--where", "core.buffer=3KB", "--seed", "1",
      "--window", "5:1"], "--window"),
    (["--series", "cwnd", "--where", "pacing.scheme=none", "--where", "core.buffer=3KB", "--seed", "1",
      "--window", "nan:"], "--window"),
])
def test_plot_refuses_what_would_draw_nothing_or_nonsense(store, tmp_path, args, names):
    refused(["plot", "tiny", "--results", store, "--out", tmp_path / "p", *args], names)
    assert not list(tmp_path.iterdir())  # no figure written, none overwritten


def test_plot_formats_come_from_format_not_from_out(store, tmp_path):
    refused(["plot", "tiny", "--results", store, "--by", "pacing.scheme", "--out", tmp_path / "fig.png", "--format",
             "pdf"], f"--out {tmp_path / 'fig.png'}: give the path without its ending")
    assert not list(tmp_path.iterdir())  # no fig.png.pdf
    out = invoke(["plot", "tiny", "--results", store, "--by", "pacing.scheme", "--out", tmp_path / "fig", "--format",
                  ".pdf"])
    assert out.exit_code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["fig.pdf"], out.output


def test_plot_where_matching_nothing_keeps_the_good_figure(store, tmp_path):
    good = ["plot", "tiny", "--results", store, "--by", "pacing.scheme", "--out", tmp_path / "p"]
    assert invoke(good).exit_code == 0
    before = (tmp_path / "p.png").read_bytes()
    refused(good + ["--where", "pacing.scheme=edgy"], "edgy")
    assert (tmp_path / "p.png").read_bytes() == before


def test_plot_of_a_name_with_escapes_or_a_path_stays_put(store):
    out = refused(["plot", f"../../a{ESC}", "--results", store], "no sweep")
    assert "\x1b" not in out.output


@pytest.mark.parametrize("args, names", [
    (["E-fig99"], "'E-fig99'"),
    (["Q-tab2", "--seeds", "0"], "--seeds"),
    (["Q-tab2", "--seeds", "338248"], "--seeds 338248: at most 10"),  # cli_args.py: it hung registering 8 M points
    (["Q-tab2", "--quick", "--seeds", "11"], "--seeds 11: at most 10"),
    (["--table", "--tables", "/etc/hostname"], "--tables /etc/hostname"),
    (["--table", "Q-tab2"], "--all and --table take no ID"),
])
def test_reproduce_refuses_bad_arguments(tmp_path, args, names):
    refused(["reproduce", *args, "--results", tmp_path / "r"], names)


def test_plot_draws_no_control_character_of_a_title(store, tmp_path):
    out = invoke(["plot", "tiny", "--results", store, "--by", "pacing.scheme", "--title", f"a{ESC}b", "--format",
                  "svg", "--out", tmp_path / "p"])
    assert out.exit_code == 0 and "\x1b" not in out.output and "Glyph" not in out.output  # no font warning either
    assert r"a\x1b]0;pwned\x07\x1b[31mb" in (tmp_path / "p.svg").read_text()


@pytest.mark.parametrize("command, names", [
    (["report", "--out", "/proc/self/nope"], "--out /proc/self/nope: cannot write in /proc/self"),
    (["reproduce", "Q-tab2", "--workers", "40946"], "--workers"),
    (["reproduce", "Q-tab2", "--quick", "--out", "/dev/zero"], "--out /dev/zero: is a device, not a directory"),
])
def test_report_and_reproduce_refuse_what_they_cannot_make(store, command, names):
    refused([*command, "--results", store], names)


def test_plot_refuses_an_out_that_names_a_device_a_fifo_or_a_directory_before_drawing(store, tmp_path):
    # Issue 33's fourth review: plot --out /dev/null made /dev/null.png and /dev/null.svg (as root): a figure's
    # files are made beside --out's path, so a device (here a link to /dev/null), a FIFO or a directory there
    # names no figure.
    (tmp_path / "null").symlink_to(os.devnull)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    before = sorted(tmp_path.iterdir())
    draw = ["plot", "tiny", "--results", store, "--by", "pacing.scheme", "--out"]
    for name, what in [("null", "a device"), ("fifo", "a FIFO"), ("dir", "a directory")]:
        refused([*draw, tmp_path / name], f"--out {tmp_path / name}: is {what}; ")
    assert sorted(tmp_path.iterdir()) == before
    # A file of the figure that cannot be written (a FIFO as its .svg) is refused before any file is drawn.
    os.mkfifo(tmp_path / "fig.svg")
    refused([*draw, tmp_path / "fig"], f"--out {tmp_path / 'fig.svg'}: is a FIFO")
    assert not (tmp_path / "fig.png").exists()


@pytest.mark.parametrize("edit, axis, names", [
    ("pace = true, queue = \"fq_codel\"", '"pacing.scheme" = ["none", "edge"]',
     "pacing.scheme='edge': pacing: a pacer in front of link a-b, whose queue holds its packets"),
    ("measure = true", '"pacing.scheme" = ["none", "edge"]',
     "pacing.scheme='edge': pacing.links: this topology paces no link by default"),
    ("pace = true, queue = \"red\"", '"core.buffer" = ["10KB", "20KB"]',
     "core.buffer='10KB': topology.links[1].forward.queue: RED is the core link's only"),
])
def test_a_sweep_refuses_before_running_what_run_refuses_building_the_network(tmp_path, edit, axis, names):
    # Issue 33's fourth review: the sweep's check validated each point but did not build its network, as
    # `pacesim run` does before it runs: these became failed points, run among good ones.
    from pacesim.scenario import PACKAGED

    graph = (PACKAGED / "graph-square.toml").read_text().replace("measure = true, pace = true", edit)
    (tmp_path / "g.toml").write_text(graph)
    (tmp_path / "s.toml").write_text('scenario = "g.toml"\nset = ["duration=2s", "warmup=1s"]\n[axes]\n' + axis + "\n")
    refused(["run", tmp_path / "g.toml", "--set", "duration=2s", "--set", "warmup=1s",
             "--set", axis.partition(" = ")[0].strip('"') + "=" + axis.split('"')[-2]], names.partition(": ")[2][:40])
    out = refused(["sweep", tmp_path / "s.toml", "--results", tmp_path / "r", "--quiet"], names)
    assert "nothing was run" in out.output
    assert not (tmp_path / "r" / "tables").exists() or not any((tmp_path / "r" / "tables").rglob("*.parquet"))


def test_a_tab_in_a_name_is_written_out_not_printed_as_spaces():
    refused(["run", "a\tb"], r"a\tb: no such file")


def test_a_newline_in_a_file_name_is_written_out_not_printed_as_a_line_break(tmp_path):
    # Issue 33's fourth review: a newline in a file's name was echoed raw, the error broken in two lines.
    (tmp_path / "s\nt.toml").write_text("bogus = 1\n")
    refused(["run", "a\nb.toml"], r"error: a\nb.toml: no such file")
    refused(["sweep", tmp_path / "s\nt.toml"], rf"error: {tmp_path}/s\nt.toml: bogus: ")
    refused(["run", "e-base", "--json", tmp_path / "no\ndir" / "r.json"], rf"no directory {tmp_path}/no\ndir")


def test_an_empty_path_is_refused_not_taken_for_this_directory(tmp_path, monkeypatch):
    # Issue 33's third review: model --out '' wrote a-fig10.csv, .png and .svg into the current directory.
    monkeypatch.chdir(tmp_path)
    refused(["model", "a-fig10", "--out", ""], "'--out': an empty path")
    refused(["topology", "show", "e-base", "--png", ""], "'--png': an empty path")
    # Issue 33's fourth review: a path typed as text (--json, which also takes -) or a command without the
    # path parser (tmix generate) said "`.`: is a directory".
    refused(["run", "e-base", "--json", ""], "'--json': an empty path")
    refused(["tmix", "generate", ""], "'OUT': an empty path")
    assert list(tmp_path.iterdir()) == []


def test_an_empty_paths_hint_names_what_the_option_takes(tmp_path, monkeypatch):
    # Review of issue 34: every empty path said "name a file or directory ('.' for this one)", and
    # `run --json .` was then refused: "is a directory". A file's option names a file, and - where it takes
    # it (re-review: results --csv, which writes - to standard output, did not say so).
    monkeypatch.chdir(tmp_path)
    for args, shown in [(["run", "e-base", "--json", ""], "'--json': an empty path; name a file, or - for standard output"),
                        (["results", "--csv", ""], "'--csv': an empty path; name a file, or - for standard output"),
                        (["plot", "tiny", "--out", ""], "'--out': an empty path; name a file"),
                        (["trace", "pcap", "a.tr", ""], "'out': an empty path; name a file")]:
        assert "'.'" not in refused(args, shown).output
    # a directory's option names '.', which it takes
    refused(["results", "--results", ""], "'--results': an empty path; name a directory ('.' for this one)")
    refused(["model", "a-fig10", "--out", ""], "'--out': an empty path; name a directory ('.' for this one)")
    refused(["results", "--results", "."], "--results .: no results store there")  # taken, and looked in
    assert list(tmp_path.iterdir()) == []


def test_the_site_and_a_figure_s_files_are_written_whole_and_fifos_in_their_place_named(tmp_path):
    # Issue 33's fourth review: report and reproduce wrote in place: a FIFO as index.html or report.md hung,
    # a directory as report.md was an IsADirectoryError traceback, a full disk cut the old index.html short.
    results = tmp_path / "r"
    assert invoke(["reproduce", "Q-fig9", "--quick", "--results", results]).exit_code == 0
    report = results / "reproduce" / "Q-fig9-quick" / "report.md"
    report.unlink()
    report.mkdir()
    refused(["reproduce", "Q-fig9", "--quick", "--results", results], f"{report}: is a directory")
    report.rmdir()
    os.mkfifo(report)
    refused(["reproduce", "Q-fig9", "--quick", "--results", results], f"{report}: is a FIFO")
    report.unlink()
    site = tmp_path / "site"
    site.mkdir()
    os.mkfifo(site / "index.html")
    refused(["report", "--results", results, "--out", site], f"--out {site}: {site / 'index.html'}: is a FIFO")
    (site / "index.html").unlink()
    assert invoke(["report", "--results", results, "--out", site]).exit_code == 0
    whole = {p.name: p.read_bytes() for p in site.iterdir()}
    done = _limited(2048, "report", "--results", results, "--out", site)  # each page past 2 KB cannot be written
    assert done.returncode == 1 and f"--out {site}: File too large" in done.stderr, done.stderr
    assert {p.name: p.read_bytes() for p in site.iterdir()} == whole


def test_a_store_in_an_append_only_directory_is_refused_before_the_database_is_made(tmp_path):
    # Issue 33's fourth review: sweep --results on an empty append-only directory left a database and a journal
    # that can never be removed, and the store was unreadable after.
    if os.geteuid() != 0:
        pytest.skip("only root may set the append-only attribute")
    folder = tmp_path / "ad"
    folder.mkdir()
    if subprocess.run(["chattr", "+a", folder], capture_output=True).returncode:
        pytest.skip("this file system keeps no append-only attribute")
    try:
        sweep = Path(__file__).resolve().parents[2] / "scenarios" / "E-fig8.toml"
        refused(["sweep", sweep, "--quick", "--results", folder], f"{folder}: is append-only")
        assert list(folder.iterdir()) == []
    finally:
        subprocess.run(["chattr", "-a", folder], check=True)


def test_report_out_at_a_file_is_refused(store, tmp_path):
    (tmp_path / "f").write_text("")
    refused(["report", "--results", store, "--out", tmp_path / "f"], "--out")


@pytest.mark.parametrize("args, names, code", [
    (["/dev/full"], "/dev/full: No space left on device", 1),  # the disk failed the work (pacesim --help's rule)
    (["/proc/self/nope/x.cvec"], "OUT /proc/self/nope/x.cvec: no directory /proc/self/nope", 2),
    (["x.cvec", "--connections", "1000000000000"], "--connections", 2),  # would build a terabyte in memory
    (["x.cvec", "--rate", "inf"], "--rate", 2),
    (["x.cvec", "--rate", "nan"], "--rate: nan is not a number of connections per second", 2),
    (["x.cvec", "--rate", "1e-6", "--connections", "3"], "starts would pass the 1000000 s", 2),  # a file pacesim refuses
])
def test_tmix_generate_refuses_what_it_cannot_write(tmp_path, args, names, code):
    out = runner.invoke(app, ["tmix", "generate", *[str(a) for a in args]], catch_exceptions=False)
    assert out.exit_code == code and names in out.output and "Traceback" not in out.output, out.output


def test_every_subcommand_is_covered():
    """A subcommand added later gets its hostile cases here (and in bench/fuzz/cli_args.py)."""
    import typer.main

    group = typer.main.get_command(app)
    names = {(n, s) for n, c in group.commands.items() for s in (getattr(c, "commands", None) or {None: 0})}
    covered = {("run", None), ("model", None), ("topology", "show"), ("trace", "pcap"), ("trace", "diff"),
               ("sweep", None), ("results", None), ("plot", None), ("reproduce", None), ("report", None),
               ("tmix", "generate")}
    assert names == covered
    source = Path(__file__).read_text()
    for name, sub in names:
        assert re.search(rf'\["{name}"' + (rf', "{sub}"' if sub else ""), source), (name, sub)


def test_a_table_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    # The issue 33 review: --tables on a full disk left paper_e.md cut mid-line (and a traceback).
    from pacesim.reproduce import paper_tables

    table = tmp_path / "paper_e.md"
    table.write_text("the record as it was\n")
    real = Path.write_text

    def full_disk(self, text, *args, **kwargs):
        real(self, text[: len(text) // 2], *args, **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device", str(self))
    monkeypatch.setattr(Path, "write_text", full_disk)
    with pytest.raises(OSError):
        paper_tables._replace(table, "a new table, longer than the old one\n" * 100)
    assert table.read_text() == "the record as it was\n" and [p.name for p in tmp_path.iterdir()] == ["paper_e.md"]
