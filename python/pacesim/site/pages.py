"""The reproduction site's pages: a `Record` rendered through the Jinja2 templates beside this module.

`write_site(record, out)` writes `index.html` (the whole catalogue at a
glance: every id, its run, claims reproduced of total and the count of each
verdict; then the store's other sweeps, with their points and the PNG
figures `pacesim plot` drew of them, copied to `sweeps/<its place in the list>/`), `paper_<e|a|q|w>.html` (per id: its figures, every claim with its
test, numbers, verdict, cause and evidence, the ns-2 references and the
runs' metadata) and `style.css`, and copies each figure's files to
`figures/<figure id>/` (`published`: an SVG without scripts, event handlers or outside links). Plain HTML
and CSS: nothing runs in the browser.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import List

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from .. import outfile
from ..reproduce.claims import RULES
from ..reproduce.verdicts import SOURCE_PATHS
from ..papers import papers
from .published import publish
from .record import CSS_CLASS, VERDICTS, Record

STATIC = Path(__file__).resolve().parent / "templates" / "style.css"


def code_spans(text: str) -> Markup:
    """`text` escaped for HTML, with its `backtick` spans as <code> (the record's markdown habit)."""
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(" ".join(text.split())))))


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("pacesim.site", "templates"), autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["code"] = code_spans
    env.filters["count"] = "{:,}".format  # a count for people, as the command line writes it (terminal)
    titles = {letter: p.title for letter, p in papers().items()}
    env.globals.update(papers=titles, verdicts=VERDICTS, css=CSS_CLASS, rules=RULES, source_paths=SOURCE_PATHS)
    return env


def write_site(record: Record, out: Path) -> List[Path]:
    """Write the site for `record` under `out` (made if missing); the pages written, index first. A
    figure's files are published as `published.publish` allows (an SVG rewritten without anything that
    runs); the pages link only those published."""
    out.mkdir(parents=True, exist_ok=True)
    env = _environment()
    entries = []
    for entry in record.entries:
        runs = []
        for run in entry.runs:
            target = out / "figures" / run.figure
            target.mkdir(parents=True, exist_ok=True)
            runs.append(replace(run, files=[f for f in run.files if publish(f, target / f.name)]))
        entries.append(replace(entry, runs=runs))
    record = replace(record, entries=entries)
    sweeps = []
    for i, sweep in enumerate(record.sweeps):  # copied by position, never by a name the user chose
        target = out / "sweeps" / str(i)
        if sweep.plots:  # no empty directory for a sweep without figures
            target.mkdir(parents=True, exist_ok=True)
        sweeps.append(replace(sweep, plots=[f for f in sweep.plots if publish(f, target / f.name)]))
    record = replace(record, sweeps=sweeps)
    with outfile.written(out / STATIC.name) as tmp:  # each file whole or as it was (a full disk, a FIFO)
        tmp.write_bytes(STATIC.read_bytes())  # (shutil's copy names the source in a failed write's error)
    pages = [out / "index.html"]
    with outfile.written(pages[0]) as tmp:
        tmp.write_text(env.get_template("index.html").render(record=record), encoding="utf-8")
    for paper in papers():
        page = out / f"paper_{paper}.html"
        with outfile.written(page) as tmp:
            tmp.write_text(env.get_template("paper.html").render(record=record, paper=paper), encoding="utf-8")
        pages.append(page)
    return pages
