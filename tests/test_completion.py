"""Shell completion (issue 34): `pacesim --install-completion` installs it; the shell then asks the program,
through `_PACESIM_COMPLETE`, for the words that may follow. Commands complete, and `reproduce` completes the
ids it runs, `model` its model ids, `plot` its sizes and the store's sweeps. (Each case starts the program: a few
seconds of import under load.)"""

import os
import subprocess
import sys

import click

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


def test_model_completes_the_model_ids():
    """Review of issue 34: `pacesim model` completed nothing. Its ids, read from the papers' decorators,
    are the models the command knows."""
    from pacesim.papers import MODELS

    assert sorted(completions("pacesim model ")) == sorted(MODELS)


def test_plot_completes_sizes_and_the_stores_sweeps(tmp_path):
    """Review of issue 34: `plot --size` and a sweep's name completed nothing. The sizes are plot.SIZES'; the
    names are the sweeps of the store --results names (none where there is no store: `sweep_names`)."""
    from pacesim.completion import sweep_names

    nowhere = click.Context(click.Command("plot"))
    nowhere.params["results"] = tmp_path / "none"
    assert sweep_names(nowhere, "") == []
    from pacesim.plot import SIZES
    from pacesim.store import Store

    assert completions("pacesim plot x --size ") == list(SIZES)
    with Store(tmp_path) as store:
        for name in ("buffers", "buffers-quick", "units"):
            store.register_sweep(name, {"axes": {}}, [])
    assert completions(f"pacesim plot --results {tmp_path} buf") == ["buffers", "buffers-quick"]
    given = click.Context(click.Command("results"))  # `results NAME` takes the same (one start-up less)
    given.params["results"] = tmp_path
    assert sweep_names(given, "") == ["buffers", "buffers-quick", "units"]
