"""Shell completion (issue 34): `pacesim --install-completion` installs it; the shell then asks the program,
through `_PACESIM_COMPLETE`, for the words that may follow. Commands complete, and `reproduce` completes the
ids it runs, `model` its model ids, `plot` its sizes and the store's sweeps. (Each case starts the program: a few
seconds of import under load.)"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import typer

from pacesim.cli import app
from pacesim.papers import FIGURES

PROGRAM = "import sys; from pacesim.cli import app; app(prog_name='pacesim')"


def bash_words(line: str) -> list:
    """`line`'s words as bash gives them to a completion function (COMP_WORDS): split at spaces, and at `=`,
    a character of COMP_WORDBREAKS, each run of which is a word of its own (`a=b`: `a`, `=`, `b`; `a=`:
    `a`, `=`, the current word `=`); a space after a backslash is the word's own; a trailing space: a new,
    empty word."""
    words = []
    for part in re.split(r"(?<!\\) ", line):
        words += [w for w in re.split(r"(=+)", part) if w] or [""]
    return words


def completions(line: str) -> list:
    """What bash is offered for the last word of `line` (`bash_words`), asked as typer's bash function asks
    (`pacesim --show-completion bash`: COMP_WORDS joined by its IFS, a newline; the answer read as bash
    reads it into COMPREPLY, a word a line)."""
    return asked(bash_words(line))


def asked(words: list) -> list:
    """What bash is offered for the last of `words` (COMP_WORDS as bash gives them), as `completions` asks."""
    env = dict(os.environ, _PACESIM_COMPLETE="complete_bash", COMP_WORDS="\n".join(words),
               COMP_CWORD=str(len(words) - 1))
    done = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return [w for w in done.stdout.split("\n") if w]


def test_commands_complete():
    assert completions("pacesim rep") == ["reproduce", "report"]


def test_reproduce_completes_the_ids_it_runs():
    offered = completions("pacesim reproduce E-fig1")
    assert {"E-fig12", "E-fig13", "E-fig17"} <= set(offered), offered
    assert offered == sorted(i for i in FIGURES if i.startswith("E-fig1"))
    assert sorted(completions("pacesim reproduce ")) == sorted(FIGURES)  # every id, each a sweep file


def test_run_completes_the_packaged_scenarios():
    assert completions("pacesim run e-b") == ["e-base", "e-base-quick"]


def offered(command: str, param: str, incomplete: str = "", **given) -> list:
    """What `pacesim COMMAND` offers for its parameter `param` (its autocompletion, called in this process as
    the shell's request calls it; `given`: the parameters parsed before it)."""
    cmd = typer.main.get_command(app).commands[command]
    ctx = click.Context(cmd)
    ctx.params.update(given)
    return [c.value for c in next(p for p in cmd.params if p.name == param).shell_complete(ctx, incomplete)]


def test_model_completes_the_model_ids():
    """Review of issue 34: `pacesim model` completed nothing. Its ids, read from the papers' decorators,
    are the models the command knows."""
    from pacesim.papers import MODELS

    assert sorted(offered("model", "model_id")) == sorted(MODELS)
    assert offered("model", "model_id", "a-fig1") == sorted(i for i in MODELS if i.startswith("a-fig1"))


def test_plot_completes_sizes_and_the_stores_sweeps(tmp_path):
    """Review of issue 34: `plot --size` and a sweep's name completed nothing. The sizes are plot.SIZES'; the
    names are the sweeps of the store --results names, none where there is no store."""
    from pacesim.plot import SIZES
    from pacesim.store import Store

    assert offered("plot", "size") == list(SIZES) and offered("plot", "size", "one") == ["one-column"]
    with Store(tmp_path) as store:
        for name in ("buffers", "buffers-quick", "units"):
            store.register_sweep(name, {"axes": {}}, [])
    assert offered("plot", "name", "buf", results=tmp_path) == ["buffers", "buffers-quick"]
    assert offered("results", "name", results=tmp_path) == ["buffers", "buffers-quick", "units"]
    assert offered("plot", "name", results=tmp_path / "none") == []


def test_ids_complete_in_any_case_through_the_shell():
    """Review of issue 34: `reproduce e-fig1<TAB>` and `model A-fig1<TAB>` offered nothing through the shell
    (typer passes on only words beginning with the word as typed), though both commands take ids in any case.
    Each is offered beginning as typed, and names an id of the command's."""
    from pacesim.papers import MODELS

    lower = completions("pacesim reproduce e-fig1")
    assert [i.lower() for i in lower] == sorted(i.lower() for i in FIGURES if i.startswith("E-fig1"))
    assert all(i.startswith("e-fig1") for i in lower)
    upper = completions("pacesim model A-fig1")
    assert [i.lower() for i in upper] == sorted(i for i in MODELS if i.startswith("a-fig1")) != []
    assert all(i.startswith("A-fig1") for i in upper)


def test_plot_completes_the_named_sweeps_axes_values_and_metrics(tmp_path):
    """Review of issue 34: `plot NAME --x`, `--by`, `--where` and `--y` completed nothing. They offer the axes
    (--where: each AXIS=VALUE, values as written) of the sweep named before on the line, and the metrics its
    runs stored; --y, without a finished run, every metric a run stores."""
    from pacesim.store import Store

    with Store(tmp_path) as store:
        store.register_sweep("buffers", {"axes": {"core.buffer": ["3KB", "10KB"], "pacing.scheme": ["none", "edge"]}},
                             [])
    line = f"pacesim plot --results {tmp_path} buffers"
    assert completions(f"{line} --x ") == ["core.buffer", "pacing.scheme"]
    assert completions(f"{line} --by pac") == ["pacing.scheme"]
    assert completions(f"{line} --where core") == ["core.buffer=3KB", "core.buffer=10KB"]
    # bash's current word follows the `=` (re-review of issue 34: nothing was offered there)
    assert completions(f"{line} --where pacing.scheme=e") == ["edge"]
    assert completions(f"{line} --where core.buffer=") == ["3KB", "10KB"]
    assert completions(f"{line} --y goodput_kbps_m") == ["goodput_kbps_max", "goodput_kbps_mean", "goodput_kbps_min",
                                                          "goodput_kbps_min_paced"]
    # a sweep the store does not hold: no axes to offer
    assert completions(f"pacesim plot --results {tmp_path} other --x ") == []


def test_the_metric_vocabulary_is_what_a_run_stores():
    """`metric_names.METRICS` (completed without importing pandas) against a run's `metrics` keys."""
    import pacesim
    from pacesim.metric_names import METRICS

    r = pacesim.run("e-base-quick", set=["duration=3s", "warmup=1s", "topology.hosts_per_edge=2",
                                         "traffic.start=['0s','1s']"])
    assert list(METRICS) == list(r.metrics)


def test_plot_y_offers_the_metrics_the_sweeps_runs_stored(tmp_path):
    import pacesim
    from pacesim.store import Store

    r = pacesim.run("e-base-quick", set=["duration=3s", "warmup=1s", "topology.hosts_per_edge=2",
                                         "traffic.start=['0s','1s']"])
    with Store(tmp_path) as store:
        store.save_ok("k" * 64, r, "here")
        store.register_sweep("one", {"axes": {"flows": [4]}}, [({"flows": 4}, 1, "k" * 64)])
    offered = completions(f"pacesim plot --results {tmp_path} one --y ")
    assert offered == sorted(m for m in r.metrics if m != "flows")  # an axis is no metric


def test_an_option_written_with_equals_completes_its_value():
    """`plot --size=one`: bash gives `--size`, `=`, `one` as three words, and click took `=` for --size's value
    (nothing was offered). Joined again, the size completes after the `=`."""
    assert completions("pacesim plot buffers --size=one") == ["one-column"]
    assert completions("pacesim plot buffers --size=") == ["screen", "one-column", "two-column"]


def test_where_completes_in_its_option_equals_form_and_quotes_what_it_puts_on_the_line(tmp_path):
    """Review of issue 34 (D2): `--where=pacing.scheme=e` TAB became `--where=pacing.scheme=pacing.scheme=edge`
    (click completes the value after `--where=`, and the part before bash's word was not cut from it). (D1):
    a value was put on the line as it is, so `variant=two words` was two words and `q'q` an open quote. Each
    completion is what follows bash's own word's start, written so that bash reads back the value itself
    (shlex, a POSIX shell's reading, as the independent reader)."""
    from pacesim.store import Store

    values = ["two words", "q'q", "x:y", "$\\foo$", "3KB"]
    with Store(tmp_path) as store:
        store.register_sweep("odd", {"axes": {"variant": values, "pacing.scheme": ["none", "edge"]}}, [])
    line = f"pacesim plot --results {tmp_path} odd"
    assert completions(f"{line} --where=pacing.scheme=e") == ["edge"]
    assert completions(f"{line} --where=pacing.scheme=") == ["none", "edge"]
    assert completions(f"{line} --where=pacing") == ["pacing.scheme=none", "pacing.scheme=edge"]
    assert completions(f"{line} --where=variant=x") == ["x:y"]
    for value in values:
        for typed in (f"{line} --where variant={value[0]}", f"{line} --where=variant={value[0]}"):
            (word,) = completions(typed)
            assert shlex.split(typed[:len(typed) - 1] + word)[-1].endswith(f"variant={value}"), (typed, word)
    # a value begun as bash reads it (a space after a backslash) completes the same
    assert completions(f"{line} --where variant=two\\ w") == ["two\\ words"]


def test_where_completes_inside_an_open_quote_as_that_quote_reads_it(tmp_path):
    """Review of issue 34 (review34e D3): after an open quote, `--where 'variant=tw` TAB gave `'variant=two\\
    words'`: readline puts the completion after the quote and closes it, and inside `'` the backslash of
    `printf %q` is a character of the value, which pacesim refused. Each completion, put after the quote and
    the quote closed after it as readline does, is read back by bash as the value, with `'` and `"`, in each
    place bash's word may begin (bash splits at `=` only outside quotes)."""
    from pacesim.store import Store

    values = ["two words", "q'q", 'd"q', "x:y", "$\\foo$", "z\\z", "bang!s", "m`s", "3KB"]  # first letters apart
    with Store(tmp_path) as store:
        store.register_sweep("odd", {"axes": {"variant": values}}, [])
    line = ["pacesim", "plot", "--results", str(tmp_path), "odd"]
    for value in values:
        for q in "'\"":
            v = value[0]
            for typed, words in ((f"--where {q}variant={v}", ["--where", f"{q}variant={v}"]),
                                 (f"--where variant={q}{v}", ["--where", "variant", "=", f"{q}{v}"]),
                                 (f"--where=variant={q}{v}", ["--where", "=", "variant", "=", f"{q}{v}"]),
                                 (f"--where={q}variant={v}", ["--where", "=", f"{q}variant={v}"])):
                (offered,) = asked(line + words)
                # readline replaces what follows the open quote with the completion, and closes the quote
                left = f"{shlex.join(line)} {typed[:typed.rindex(q) + 1]}{offered}{q}"
                read = subprocess.run(["bash", "-c", f"printf '%s\\0' {left}"], capture_output=True, text=True)
                assert read.stdout.split("\0")[-2] in (f"variant={value}", f"--where=variant={value}"), (left, read)
    assert asked(line + ["--where", "'variant=t"]) == ["variant=two words"]
    assert asked(line + ["--where", "'variant=q"]) == ["variant=q'\\''q"]
    assert asked(line + ["--where", '"variant=b']) == ['variant=bang"\\!"s']


def _bash(cwd: Path, env: dict):
    """A fresh interactive bash (its startup files read: the installed completion with them), prompt `@ `."""
    import pexpect

    sh = pexpect.spawn("bash", ["-i"], env=env, cwd=str(cwd), encoding="utf-8", timeout=180, dimensions=(40, 200))
    sh.sendline("PS1='@ '; bind 'set bell-style none'")
    sh.expect("\r\n@ ")
    return sh


def _completed(sh, typed: str, tabs: int = 1, then: str = "") -> tuple:
    """What bash shows after `typed`, `tabs` TABs and `then`, and the line it leaves, which `echo` then prints
    (C-a goes to the line's start; readline takes the keys in order, each after the completion before it)."""
    sh.send(typed + "\t" * tabs + then)
    sh.sendcontrol("a")
    sh.send("echo \r")
    sh.expect(r"\r\n(pacesim [^\r\n]*)\r\n")
    return sh.before, sh.match.group(1)


def _words(sh, typed: str) -> list:
    """The words bash makes of the line it leaves after `typed` and a TAB (`printf` prints each between <>)."""
    sh.send(typed + "\t")
    sh.sendcontrol("a")
    sh.send("printf '<%s>' \r")
    sh.expect(r"\r\n(<pacesim>[^\r\n]*?)@ ")
    return re.findall(r"<([^>]*)>", sh.match.group(1))


def test_where_values_complete_after_the_equals_sign_in_an_interactive_bash(tmp_path):
    """Re-review of issue 34: in a fresh interactive bash with the documented install (`pacesim
    --install-completion`), TAB on `plot buffers --where core` put `core.buffer=` on the line, and the next
    TAB offered file names, never the axis's values. Typed into a real bash: the values are listed after the
    `=`, one is completed, and no file name is offered."""
    from pacesim.store import Store

    home, work, bin_ = tmp_path / "home", tmp_path / "work", tmp_path / "bin"
    for d in (home, work, bin_):
        d.mkdir()
    (work / "notes.txt").write_text("a file bash would offer\n")
    with Store(work / "results") as store:
        store.register_sweep("buffers", {"axes": {"core.buffer": ["3KB", "10KB", "30KB"], "variant": ["two words"]}},
                             [])
    program = bin_ / "pacesim"  # the package under test, as the command on PATH
    program.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -c {shlex.quote(PROGRAM)} \"$@\"\n")
    program.chmod(0o755)
    env = {"HOME": str(home), "PATH": f"{bin_}:/usr/bin:/bin", "TERM": "dumb", "INPUTRC": "/dev/null",
           "PYTHONPATH": os.environ.get("PYTHONPATH", "")}

    sh = _bash(work, env)
    sh.sendline("pacesim --install-completion")
    sh.expect("bash completion installed in")
    sh.expect("\r\n@ ")
    sh.close(force=True)

    sh = _bash(work, env)
    try:
        start = "pacesim plot buffers --where "
        # their common beginning, with no space after it: what is typed next is the value
        assert _completed(sh, f"{start}co", then="3KB")[1] == f"{start}core.buffer=3KB"
        shown, line = _completed(sh, f"{start}core.buffer=", tabs=2)
        assert re.search(r"10KB\s+30KB\s+3KB", shown) and "notes.txt" not in shown, shown
        assert line == f"{start}core.buffer="
        assert _completed(sh, f"{start}core.buffer=1")[1] == f"{start}core.buffer=10KB"
        # review of issue 34: the option's own `=` (D2), a value with a space one word (D1)
        assert _completed(sh, "pacesim plot buffers --where=core.buffer=1")[1] == \
            "pacesim plot buffers --where=core.buffer=10KB"
        assert _words(sh, f"{start}variant=t") == ["pacesim", "plot", "buffers", "--where", "variant=two words"]
        # review34e D3: after an open quote, the value as the quote reads it
        for quote in "'\"":
            assert _words(sh, f"{start}{quote}variant=t") == ["pacesim", "plot", "buffers", "--where",
                                                               "variant=two words"]
    finally:
        sh.close(force=True)
