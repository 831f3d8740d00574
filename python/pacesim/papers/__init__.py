"""The papers, one package each (`papers/e`, `papers/a`, `papers/q`, `papers/w`), found by discovery.

A paper's folder holds all that is the paper's own:

- `__init__.py`: `TITLE`, `ORDER` (its place in the catalogue, docs/experiments.md) and `CATALOGUE`, its
  catalogue ids with what each shows;
- `figures.py`: its packet-level figures (`reproduce.figure.Figure`: the panels drawn, the claims with the
  paper's sentences they check); each figure's sweep is `scenarios/<id>.toml`;
- `models.py` and the modules beside it: its analytical models (`analysis.models.Model`: closed forms and
  Markov chains, their claims);
- `causes.toml`: the recorded causes of its claims' misses (format: `reproduce.verdicts`);
- `reading.toml`: how its setup is read where it is silent, applied to every figure of it: `simulator`
  (what it ran, with its own words' place), `departures` (what of that version pacesim does not model),
  `except` (its sweeps without TCP flows, which the TCP settings do not concern), `base` (another
  paper's letter, whose settings it takes before its own) and one `[[set]]` a
  setting: `what`, `value` (as `--set` takes it), `key` where every sweep of the paper runs with
  key = value (tests/test_readings.py; left out where a figure varies it) and `from` (the paper's line,
  or the ns-2 default and its line: docs/guide/ns2-versions.md);
- `references.toml`: by catalogue id, the ns-2 runs of the same setup it was checked against (committed
  under bench/ns2/, paths from the repository root), each with how many of its points agree.

Every `Figure` and `Model` defined in a module of the folder is found (`figures`, `models`); nothing
outside the folder names a paper, so adding a figure is adding it to its paper's folder, and adding a
paper is adding a folder (and its sweep files).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Dict, List, Tuple

from ..analysis.models import Model
from ..reproduce.figure import Figure
from ..scenario import tomllib  # tomllib, or tomli before Python 3.11

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Paper:
    """One paper's package: its letter (the catalogue ids' prefix, lower case), title, catalogue rows,
    and the figures and models its modules define."""

    letter: str
    title: str
    order: int
    catalogue: Tuple[Tuple[str, str], ...]
    figures: Dict[str, Figure]
    models: Dict[str, Model]

    @property
    def folder(self) -> Path:
        return HERE / self.letter

    def reading(self) -> dict:
        """Its `reading.toml`; with `base`, that paper's settings first, then its own."""
        r = tomllib.loads((self.folder / "reading.toml").read_text(encoding="utf-8"))
        if "base" in r:
            r["set"] = papers()[r["base"]].reading()["set"] + r.get("set", [])
        return r

    def references(self) -> Dict[str, List[str]]:
        """Its `references.toml`: catalogue id -> the ns-2 references its setup was checked against."""
        path = self.folder / "references.toml"
        return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _found(package: ModuleType, kind: type, key) -> dict:
    """Every `kind` at the top of a module of `package` (modules by name, each in the order it defines them),
    by `key`; two under one key are an error."""
    out: dict = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, kind):
                if key(value) in out and out[key(value)] is not value:
                    raise ValueError(f"{package.__name__}: two {kind.__name__}s named {key(value)!r}")
                out[key(value)] = value
    return out


@lru_cache(maxsize=None)
def papers() -> Dict[str, Paper]:
    """Every paper package below `pacesim.papers`, by letter, in the catalogue's order."""
    found = []
    for info in pkgutil.iter_modules([str(HERE)]):
        if not info.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{info.name}")
        found.append(Paper(info.name, package.TITLE, package.ORDER, tuple(package.CATALOGUE),
                           _found(package, Figure, lambda f: f.id),
                           _found(package, Model, lambda m: m.id)))
    for p in found:  # an id outside its paper's letter would replace another paper's silently (review36 D4)
        ids = [*p.figures, *p.models, *(i for i, _ in p.catalogue)]
        if strays := [i for i in ids if i.split("-", 1)[0].lower() != p.letter]:
            raise ValueError(f"{__name__}.{p.letter}: ids not of paper {p.letter.upper()}: {', '.join(strays)}")
    orders = [p.order for p in found]
    if len(set(orders)) < len(orders):
        raise ValueError(f"{__name__}: two papers with one ORDER: "
                         f"{sorted((p.order, p.letter) for p in found if orders.count(p.order) > 1)}")
    return {p.letter: p for p in sorted(found, key=lambda p: p.order)}


@lru_cache(maxsize=None)
def figures() -> Dict[str, Figure]:
    """Every figure of every paper, by id."""
    return {i: f for p in papers().values() for i, f in p.figures.items()}


@lru_cache(maxsize=None)
def models() -> Dict[str, Model]:
    """Every analytical model of every paper, by model id ("a-fig10")."""
    return {i: m for p in papers().values() for i, m in p.models.items()}


def catalogue() -> List[Tuple[str, str]]:
    """(id, what it shows) for every catalogue id, paper by paper."""
    return [row for p in papers().values() for row in p.catalogue]


def __getattr__(name: str):
    """`FIGURES`, `MODELS`, `CATALOGUE`: found at first use (importing the package imports no paper)."""
    found = {"FIGURES": figures, "MODELS": models, "CATALOGUE": catalogue}
    if name in found:
        return found[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
