"""The reproduction record: one generated markdown table per paper, every catalogue id's claims and verdicts.

`write_tables(results, out)` reads the full-size sweeps in a results store
(named after their catalogue ids, as `pacesim reproduce ID` and `--all`
store them), judges every figure's claims there (`figure.judge_figure`),
computes every analytical model's claims (`pacesim model`), and writes
`paper_<e|a|q|w>.md` under `out`. Nothing in those files is written by hand:
the numbers come from the store, the causes of misses from each paper's
`causes.toml` (`pacesim.papers`). Beside each table, `paper_<x>.json` is its
judgement record: every claim's outcome, numbers and seeds as the store gave
them, without the causes. `rerender(out)` (`python -m
pacesim.reproduce.paper_tables DIR`) writes the tables again from those
records with the causes, readings and references as they are now, so new
evidence for a miss reaches its table without the store; a change to a check
(its test or its numbers) needs the store.

A table is the record of one store, never a merge of two. A figure is judged only on its full-size run
(`full_size`: a sweep named after it, of its own full-size definition, every point run); any other sweep
that takes a figure's name (an interrupted run, a sweep of one's own) is not judged, and a note says why.
A paper's existing table is never replaced from a store that holds no full-size run of any of its figures
(a store of quick runs or of one's own sweeps would turn every verdict into "not evaluated"; issue 34): it
is kept, and a note names the paper and the store. Nor is a table replaced when figures it evaluated would
read "not evaluated" (the store lacks their full-size runs) unless `replace` says so: `TablesKept` names
them and nothing is written. A store holding all the figures a table evaluated replaces it whole, the
figures it lacks reading "not evaluated", and a note names them. A paper with no table under `out` yet is
written either way.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from ..analysis.model_claims import catalogue_id, judge_model
from ..papers import catalogue, figures, models, papers
from ..store import Store, held
from .claims import RULES
from .catalogue import figures_of, ids_of
from .figure import judge_figure
from .full_size import full_size
from .verdicts import (NOT_EVALUATED, SOURCE_PATHS, UNSETTLED, Judged, causes_markdown, check_causes, claim_ids,
                       counts, judged_as, paper_of, seeds_markdown)

def _open(results: Path) -> Store:
    """The store at `results` to judge from. Judging only reads: an existing store is opened read-only (a
    running `--all` may be writing it); a missing one is made empty, so that every figure claim shows "not
    evaluated"."""
    return Store(results, read_only=held(results))


class TablesKept(Exception):
    """Writing the tables would turn claims a table under `out` evaluated into "not evaluated"; nothing was
    written. `notes` are what the store's sweeps named after figures are, if not their full-size runs."""

    def __init__(self, message: str, notes: List[str]):
        super().__init__(message)
        self.notes = notes


def ran(fig_id: str) -> str:
    """How a table's "run" column begins for a figure judged on its full-size run (and how `evaluated` finds it)."""
    return f"`pacesim reproduce {fig_id}`: "


def evaluated(path: Path, figs: List[str]) -> List[str]:
    """Those of `figs` the table at `path` judged on a full-size run (none if there is no table)."""
    text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    return [f for f in figs if ran(f) in text]


UNDECIDED = (UNSETTLED, NOT_EVALUATED)
"""Verdicts that decide nothing: a table does not trade a decided verdict for one of these unasked."""


def verdicts_in(path: Path) -> Dict[str, str]:
    """Claim id -> its verdict in the claims table of the table at `path` (none if there is no table)."""
    text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    return dict(re.findall(r"^\| ([A-Z]-[\w.-]+) \|.*\| \*\*([^*|]+)\*\* \|$", text, re.M))


def judge_all(results: Path, only: Optional[Set[str]] = None) -> Dict[str, Tuple[str, List[Judged]]]:
    """Every catalogue id (of the papers `only` names, else of every paper): (how it was judged, its claims
    judged); figures from the store at `results`."""
    out: Dict[str, Tuple[str, List[Judged]]] = {}
    with _open(results) as store:
        swept, others = full_size(store)
        for cid, _ in catalogue():
            if only is not None and paper_of(cid) not in only:
                continue
            figs, shown = figures_of(cid)
            known = [i.lower() for i in ids_of(cid) if i.lower() in models()]
            if figs:
                judged: List[Judged] = []
                how = []
                for fig in figs:
                    if fig.id not in swept:
                        how.append(f"{fig.id}: no full-size run in the store" + (
                            f" (its sweep {fig.id} is not one: {others[fig.id]})" if fig.id in others else ""))
                        judged += [Judged(i, c.expect, c.test, "not evaluated", "no full-size run in the store",
                                          NOT_EVALUATED, sentence=c.sentence)
                                   for i, c in zip(claim_ids(fig.id, fig.claims), fig.claims)]
                        continue
                    points = store.points(fig.id, written=True)
                    rows = fig.with_derived({t: store.rows(fig.id, t, written=True) for t in fig.table_names()})
                    judged += judge_figure(fig, points, rows, quick=False)
                    ok = int((points["status"] == "ok").sum())
                    how.append(f"{ran(fig.id)}{ok:,} of {len(points):,} points")
                out[cid] = ("; ".join(how), judged)
            elif shown:
                out[cid] = (f"claims under {shown[0].id}", [])
            elif known:
                out[cid] = ("; ".join(f"`pacesim model {m}`" for m in known),
                            [j for m in known for j in judge_model(models()[m])])
            else:
                out[cid] = ("does not run: no figure or model defines it", [])
    return out


def readings() -> Dict[str, dict]:
    """Paper -> its reading (its `reading.toml`): the simulator it ran, what of it is not modelled, its settings."""
    return {letter: p.reading() for letter, p in papers().items()}


def reading_markdown(paper: str) -> List[str]:
    """The reading every figure of `paper` runs under, each setting with the line it comes from."""
    r = readings()[paper]
    lines = ["## Reading", "", "One reading of what the paper leaves open, applied to every figure of it: where "
             f"the paper is silent, the defaults of the ns-2 it ran. Simulator: {r['simulator']}. Not modelled: "
             f"{r['departures']}.", "", "| setting | value | scenario key | from |", "|---|---|---|---|"]
    lines += [f"| {_cell(s['what'])} | {_cell(s['value'])} | {f'`{k}`' if (k := s.get('key')) else '-'} | "
              f"{_cell(s['from'])} |" for s in r["set"]]
    return lines + [""]


def references() -> Dict[str, List[str]]:
    """Catalogue id -> the ns-2 references its setup was checked against (each paper's `references.toml`)."""
    return {cid: refs for p in papers().values() for cid, refs in p.references().items()}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(paper: str, judged: Dict[str, Tuple[str, List[Judged]]], results: Path) -> str:
    """Markdown for paper `paper` from `judge_all`'s record."""
    mine = {cid: v for cid, v in judged.items() if paper_of(cid) == paper}
    every = [j for _, js in mine.values() for j in js]
    lines = [f"# {papers()[paper].title}: reproduction record", "",
             "Generated by `pacesim reproduce --table` from the results store "
             f"`{results}`; do not edit. Claims: docs/experiments.md, checked by "
             f"python/pacesim/papers/{paper}/ (rules in python/pacesim/reproduce/claims.py: {RULES}); causes of "
             f"misses: python/pacesim/papers/{paper}/causes.toml. {SOURCE_PATHS}", "",
             *reading_markdown(paper),
             f"**{counts(every)}.**", "",
             "| id | run | claims | ns-2 reference |", "|---|---|---|---|"]
    refs = references()
    cited = lambda cid: [_cell(r) for i in ids_of(cid) for r in refs.get(i, [])]  # W-s6/s7: W-s6's and W-s7's
    lines += [f"| {cid} | {_cell(how)} | {counts(js) if js else '-'} | {'; '.join(cited(cid)) or '-'} |"
              for cid, (how, js) in mine.items()]
    lines += ["", "## Claims", "", "| claim | expect | the paper's words | test | numbers | verdict |",
              "|---|---|---|---|---|---|"]
    for _, js in mine.values():
        lines += [f"| {j.id} | {_cell(j.expect)} | {_cell(j.sentence) or '-'} | {_cell(j.test)} | {_cell(j.numbers)}"
                  + (f" Seeds: {_cell(j.seeds)}." if j.seeds else "") + f" | **{j.verdict}** |" for j in js]
    lines += causes_markdown(every, "## Causes of the misses")
    lines += seeds_markdown(every, "## Seed by seed")
    return "\n".join(lines) + "\n"


def write_tables(results: Path, out: Path, replace: bool = False) -> Tuple[List[Path], List[str]]:
    """Write `paper_<x>.md` under `out` from the store at `results` for every paper but those whose table
    there it must not replace (the module's rule); return the files written and a note for each paper kept
    or written without some of its figures, and for each sweep named after a figure that is not its
    full-size run. Nothing is judged when nothing is to be written. `TablesKept` (nothing written) if a
    table would lose figures it evaluated, unless `replace`."""
    with _open(results) as store:
        held, others = full_size(store)
    notes = [f"{results}: the sweep {fid} is not figure {fid}'s full-size run, so it is not judged: {why}"
             for fid, why in others.items()]
    todo, lost = [], []
    for paper, p in papers().items():
        path = out / f"paper_{paper}.md"
        lacking = [f for f in p.figures if f not in held]
        if lacking and len(lacking) == len(p.figures) and path.exists():
            notes.append(f"{path}: kept as it was: the store {results} holds no full-size run of paper "
                         f"{paper.upper()} (its figures {', '.join(lacking)}; a quick run is not one)")
            continue
        dropped = evaluated(path, lacking)
        if dropped and not replace:
            lost.append(f"{path} evaluated {', '.join(dropped)}")
        if lacking:
            notes.append(f"{path}: {len(lacking)} of paper {paper.upper()}'s {len(p.figures)} figures have no "
                         f"full-size run in the store {results} (they read \"not evaluated\" in a table written "
                         f"from it): {', '.join(lacking)}")
        todo.append((paper, path))
    if lost:
        raise TablesKept(f"nothing written: {'; '.join(lost)}, of which the store {results} holds no full-size "
                         "run, and would say \"not evaluated\" there. Run them into this store (`pacesim "
                         "reproduce ID`), write the tables elsewhere (--tables DIR), or pass --replace to replace "
                         "the tables with those figures \"not evaluated\"", notes)
    if not todo:
        return [], notes
    judged = judge_all(results, only={paper for paper, _ in todo})
    for paper in papers():
        check_causes(paper, known_claims(paper))
    undecided = [] if replace else [f"{path}: {j.id} {was!r} would read {j.verdict!r}"
                                    for paper, path in todo for j, was in _verdicts_then(paper, path, judged)
                                    if j.verdict in UNDECIDED and was not in UNDECIDED]
    if undecided:  # a figure's own sweep on fewer seeds than its verdicts were settled on, say
        raise TablesKept(f"nothing written: {'; '.join(undecided[:8])}" + (f" (and {len(undecided) - 8} more)"
                         if len(undecided) > 8 else "") + f": the store {results} does not hold the seeds that "
                         "settled them. Run them into it (`pacesim reproduce ID` adds the seeds a verdict needs), "
                         "write the tables elsewhere (--tables DIR), or pass --replace", notes)
    texts = [(path, render(paper, judged, results)) for paper, path in todo]
    texts += [(record_path(path), record_text(paper, judged, results)) for paper, path in todo]
    out.mkdir(parents=True, exist_ok=True)
    for path, text in texts:
        _replace(path, text)
    return [path for _, path in todo], notes


FACTS = ("id", "expect", "test", "outcome", "numbers", "sentence", "seeds", "settled", "by_seed")
"""What a judgement record keeps of each claim judged: all but its verdict and cause, which follow from these
and the paper's causes (`verdicts.judged_as`)."""


def record_path(table: Path) -> Path:
    """The judgement record beside the table at `table`."""
    return table.with_suffix(".json")


def record_text(paper: str, judged: Dict[str, Tuple[str, List[Judged]]], results: Path) -> str:
    """Paper `paper`'s judgement record, as JSON: the store and, per catalogue id in the table's order, how it
    was judged and each claim's `FACTS`."""
    ids = [[cid, how, [{k: getattr(j, k) for k in FACTS} for j in js]]
           for cid, (how, js) in judged.items() if paper_of(cid) == paper]
    return json.dumps({"results": str(results), "ids": ids}, ensure_ascii=False, indent=1) + "\n"


def _from_record(facts: dict) -> Judged:
    """A claim judged from its `FACTS` in a judgement record, its verdict and cause from today's causes."""
    f = dict(facts, by_seed=tuple(tuple(s) for s in facts["by_seed"]))
    return judged_as(f.pop("id"), **f)


def rerender(out: Path) -> List[Path]:
    """Write every `paper_<x>.md` under `out` that has its judgement record again, from that record and the
    paper's causes, reading and references as they are now; return the tables written."""
    written = []
    for paper in papers():
        path = out / f"paper_{paper}.md"
        if not record_path(path).is_file():
            continue
        data = json.loads(record_path(path).read_text(encoding="utf-8"))
        judged = {cid: (how, [_from_record(f) for f in claims]) for cid, how, claims in data["ids"]}
        check_causes(paper, known_claims(paper))
        _replace(path, render(paper, judged, Path(data["results"])))
        written.append(path)
    return written


def _verdicts_then(paper: str, path: Path, judged: Dict[str, Tuple[str, List[Judged]]]) -> List[Tuple[Judged, str]]:
    """Each claim of `paper` judged now, with its verdict in the table at `path`, where that table has one."""
    was = verdicts_in(path)
    return [(j, was[j.id]) for cid, (_, js) in judged.items() if paper_of(cid) == paper for j in js if j.id in was]


def _replace(path: Path, text: str) -> None:
    """Write `text` over `path` whole or not at all: into a file beside it, then renamed over it, so a full disk
    or a kill leaves the table that was there (an OSError names what failed)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def known_claims(paper: str) -> Dict[str, str]:
    """Every claim id of `paper`'s figures and models with its words (whether or not the store has its run)."""
    named = [(f.id, f.claims) for f in figures().values()] + [(catalogue_id(m.id), m.claims) for m in models().values()]
    return {cid: c.expect for fid, claims in named if paper_of(fid) == paper
            for cid, c in zip(claim_ids(fid, claims), claims)}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("python -m pacesim.reproduce.paper_tables DIR: write DIR's paper_<x>.md again from their judgement "
                 "records (paper_<x>.json) with today's causes, readings and references")
    for p in rerender(Path(sys.argv[1])):
        print(p)
