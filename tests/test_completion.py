"""Shell completion (issue 34): `pacesim --install-completion` installs it; the shell then asks the program,
through `_PACESIM_COMPLETE`, for the words that may follow. Commands complete, and `reproduce` completes the
ids it runs, `model` its model ids, `plot` its sizes and the store's sweeps. (Each case starts the program: a few
seconds of import under load.)"""

import os
import subprocess
import sys

import click
import typer

from pacesim.cli import app
from pacesim.papers import FIGURES

PROGRAM = "import sys; from pacesim.cli import app; app(prog_name='pacesim')"


def completions(line: str) -> list:
    """What bash is offered for the last word of `line` (a trailing space: a new, empty word)."""
    words = line.split(" ")
    env = dict(os.environ, _PACESIM_COMPLETE="complete_bash", COMP_WORDS=line, COMP_CWORD=str(len(words) - 1))
    done = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


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
    assert completions(f"{line} --where pacing.scheme=e") == ["pacing.scheme=edge"]
    assert completions(f"{line} --y goodput_kbps_m") == ["goodput_kbps_max", "goodput_kbps_mean", "goodput_kbps_min",
                                                          "goodput_kbps_min_paced"]
    # a sweep the store does not hold: no axes to offer
    assert completions(f"pacesim plot --results {tmp_path} other --x ") == []


def test_the_metric_vocabulary_is_what_a_run_stores():
    """`completion.METRICS` (completed without importing pandas) against a run's `metrics` keys."""
    import pacesim
    from pacesim.completion import METRICS

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
