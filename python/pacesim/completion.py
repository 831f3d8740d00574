"""Shell completion (`pacesim --install-completion`): the words the shell is offered after a command, read
from the package's files rather than by loading the scenario models or the papers' figures, so that a TAB
answers at once."""

from __future__ import annotations

import glob
from pathlib import Path
from typing import List

PACKAGED = Path(__file__).resolve().parent / "scenarios"
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
