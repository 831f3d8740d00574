"""Every id of the experiment catalogue (docs/experiments.md) and what it can run.

The ids are the papers' own (`pacesim.papers`: each paper's `CATALOGUE`). An id runs here
(`pacesim reproduce ID`) when a figure is defined for it (`scenarios/ID.toml` and its paper's panels and
claims), and is an analytical model when `pacesim model` knows it.
"""

from __future__ import annotations

import re
from typing import List, Tuple

from ..papers import catalogue, figures, models
from .figure import Figure


def ids_of(cid: str) -> List[str]:
    """The single ids a combined one stands for: A-fig13/14 -> A-fig13, A-fig14; W-s6/s7 -> W-s6, W-s7."""
    first, *rest = cid.split("/")
    stem = re.sub(r"\d+$", "", first)
    return [first] + [stem + part if part[0].isdigit() else f"{first.split('-')[0]}-{part}" for part in rest]


def figures_of(cid: str) -> Tuple[List[Figure], List[Figure]]:
    """The figures that run catalogue id `cid`, and those whose runs show it too (`Figure.also`)."""
    ids, every = ids_of(cid), figures().values()
    return [f for i in ids for f in every if i == f.id], [f for i in ids for f in every if i in f.also]


def status() -> List[Tuple[str, str, str]]:
    """(id, what, how it runs) for every catalogue id."""
    rows = []
    for cid, what in catalogue():
        known = [m for m in ids_of(cid) if m.lower() in models()]
        direct, shown = figures_of(cid)
        if direct + shown:
            how = f"runs: pacesim reproduce {(direct + shown)[0].id}"
        elif known:
            how = "model: " + ", ".join(f"pacesim model {m.lower()}" for m in known)
        else:
            how = "does not run: no figure or model defines it"
        rows.append((cid, what, how))
    return rows
