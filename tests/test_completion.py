"""Shell completion (issue 34): `pacesim --install-completion` installs it; the shell then asks the program,
through `_PACESIM_COMPLETE`, for the words that may follow. Commands complete, and `reproduce` completes the
ids it runs. (Each case starts the program: a few seconds of import under load.)"""

import os
import subprocess
import sys

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
