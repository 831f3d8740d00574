"""Shell completion (`pacesim --install-completion`): the words the shell is offered after a command, read
from the package's files rather than by loading the scenario models or the papers' figures, so that a TAB
answers at once."""

from __future__ import annotations

import glob
import re
import sqlite3
from pathlib import Path
from typing import List

import typer

HERE = Path(__file__).resolve().parent
PACKAGED = HERE / "scenarios"
"""The packaged scenarios (lower-case names) and sweep files (a catalogue id each); `scenario.PACKAGED`."""


def scenarios(incomplete: str) -> List[str]:
    """A scenario argument: the packaged scenarios' names, and TOML files and directories, that begin with it."""
    names = sorted(f.stem for f in PACKAGED.glob("[a-z]*.toml") if f.stem.startswith(incomplete))
    files = sorted(str(f) for f in Path().glob(f"{glob.escape(incomplete)}*") if f.suffix == ".toml" or f.is_dir())
    return names + files


def catalogue_ids(incomplete: str) -> List[str]:
    """`reproduce ID`: the ids it runs that begin with `incomplete` (any case), the names of their sweep files
    (loading the papers' figures, matplotlib and all, took 3 s)."""
    return sorted(f.stem for f in PACKAGED.glob("[A-Z]-*.toml") if f.stem.lower().startswith(incomplete.lower()))


_MODEL = re.compile(r'^@model\(\s*"([^"]+)"', re.M)
"""A model's id, the first argument of its `@model` decorator (pacesim/papers/<paper>/models.py)."""


def model_ids(incomplete: str) -> List[str]:
    """`model ID`: the analytical models' ids that begin with `incomplete` (any case, as `pacesim model` takes
    them), read from their decorators in the papers' models.py rather than by importing them (scipy and all)."""
    ids = {i for f in (HERE / "papers").glob("*/models.py") for i in _MODEL.findall(f.read_text(encoding="utf-8"))}
    return sorted(i for i in ids if i.startswith(incomplete.lower()))


SIZES = ("screen", "one-column", "two-column")
"""`plot --size`'s values: the keys of `plot.SIZES` (tests/test_completion.py holds them equal), named here
so that completing one imports no matplotlib."""


def sizes(incomplete: str) -> List[str]:
    return [s for s in SIZES if s.startswith(incomplete)]


def sweep_names(ctx: typer.Context, incomplete: str) -> List[str]:
    """`plot NAME`, `results NAME`: the sweeps in the results store (--results if given before, else
    ./results) that begin with `incomplete`; none if there is no store or it cannot be read."""
    database = Path(ctx.params.get("results") or "results") / "pacesim.sqlite"
    if not database.is_file():
        return []
    try:
        with sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True) as db:
            names = [row[0] for row in db.execute("SELECT name FROM sweeps")]
    except sqlite3.Error:
        return []
    return sorted(n for n in names if isinstance(n, str) and n.startswith(incomplete))
