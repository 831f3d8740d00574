"""The reproduction record: one generated markdown table per paper, every catalogue id's claims and verdicts.

`write_tables(results, out)` reads the full-size sweeps in a results store
(named after their catalogue ids, as `pacesim reproduce ID` and `--all`
store them), judges every figure's claims there (`runner.judge_figure`),
computes every analytical model's claims (`pacesim model`), and writes
`paper_<e|a|q|w>.md` under `out`. Nothing in those files is written by hand:
the numbers come from the store, the causes of misses from
`causes/paper_<x>.toml`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Tuple

from ..scenario import tomllib  # tomllib, or tomli before Python 3.11
from ..store import Store
from .claims import RULES
from .catalogue import CATALOGUE, figures_of, ids_of
from .figures import FIGURES
from .runner import judge_figure
from .verdicts import NOT_EVALUATED, Judged, causes_markdown, check_causes, claim_ids, counts, paper_of, seeds_markdown

PAPERS = {"e": "Paper E: edge vs host pacing", "a": "Paper A: anomalous loss", "q": "Paper Q: QLBP",
          "w": "Paper W: TCP pacing revisited"}


def judge_all(results: Path) -> Dict[str, Tuple[str, List[Judged]]]:
    """Every catalogue id: (how it was judged, its claims judged); figures from the store at `results`."""
    from ..analysis.model_claims import judge_model, model_of

    out: Dict[str, Tuple[str, List[Judged]]] = {}
    # Judging only reads: an existing store is opened read-only (a running `--all` may be writing it);
    # a missing one is made empty, so that every figure claim shows "not evaluated".
    with Store(results, read_only=(results / "pacesim.sqlite").exists()) as store:
        swept = set(store.sweeps()["sweep"]) if len(store.sweeps()) else set()
        for cid, _, waits in CATALOGUE:
            figs, shown = figures_of(cid)
            models = [m for i in ids_of(cid) if (m := model_of(i))]
            if figs:
                judged: List[Judged] = []
                how = []
                for fig in figs:
                    if fig.id not in swept:
                        how.append(f"{fig.id}: no full-size run in the store")
                        judged += [Judged(i, c.expect, c.test, "not evaluated", "no full-size run in the store",
                                          NOT_EVALUATED, sentence=c.sentence)
                                   for i, c in zip(claim_ids(fig.id, fig.claims), fig.claims)]
                        continue
                    points = store.points(fig.id)
                    rows = fig.with_derived({t: store.rows(fig.id, t) for t in fig.table_names()})
                    judged += judge_figure(fig, points, rows, quick=False)
                    ok = int((points["status"] == "ok").sum())
                    how.append(f"`pacesim reproduce {fig.id}`: {ok} of {len(points)} points")
                out[cid] = ("; ".join(how), judged)
            elif shown:
                out[cid] = (f"claims under {shown[0].id}", [])
            elif models:
                out[cid] = ("; ".join(f"`pacesim model {m}`" for m in models),
                            [j for m in models for j in judge_model(m)])
            else:
                out[cid] = (f"does not run: waits for {waits}", [])
    return out


REFERENCES = Path(__file__).resolve().parent / "references.toml"
READINGS = Path(__file__).resolve().parent / "readings.toml"


def readings() -> Dict[str, dict]:
    """Paper -> its reading (`readings.toml`): the simulator it ran, what of it is not modelled, its settings."""
    return tomllib.loads(READINGS.read_text(encoding="utf-8"))


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
    """Catalogue id -> the ns-2 references its setup was checked against (`references.toml`)."""
    return tomllib.loads(REFERENCES.read_text(encoding="utf-8"))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(paper: str, judged: Dict[str, Tuple[str, List[Judged]]], results: Path) -> str:
    """Markdown for paper `paper` from `judge_all`'s record."""
    mine = {cid: v for cid, v in judged.items() if paper_of(cid) == paper}
    every = [j for _, js in mine.values() for j in js]
    lines = [f"# {PAPERS[paper]}: reproduction record", "",
             "Generated by `pacesim reproduce --table` from the results store "
             f"`{results}`; do not edit. Claims: docs/experiments.md, checked by "
             f"python/pacesim/reproduce/ (rules in claims.py: {RULES}); causes of misses: "
             f"python/pacesim/reproduce/causes/paper_{paper}.toml.", "",
             *reading_markdown(paper),
             f"**{counts(every)}.**", "",
             "| id | run | claims | ns-2 reference |", "|---|---|---|---|"]
    refs = references()
    lines += [f"| {cid} | {_cell(how)} | {counts(js) if js else '-'} | {'; '.join(map(_cell, refs.get(cid, []))) or '-'} |"
              for cid, (how, js) in mine.items()]
    lines += ["", "## Claims", "", "| claim | expect | the paper's words | test | numbers | verdict |",
              "|---|---|---|---|---|---|"]
    for _, js in mine.values():
        lines += [f"| {j.id} | {_cell(j.expect)} | {_cell(j.sentence) or '-'} | {_cell(j.test)} | {_cell(j.numbers)}"
                  + (f" Seeds: {_cell(j.seeds)}." if j.seeds else "") + f" | **{j.verdict}** |" for j in js]
    lines += causes_markdown(every, "## Causes of the misses")
    lines += seeds_markdown(every, "## Seed by seed")
    return "\n".join(lines) + "\n"


def write_tables(results: Path, out: Path) -> List[Path]:
    """Write `paper_<x>.md` for every paper under `out` from the store at `results`."""
    judged = judge_all(results)
    for paper in PAPERS:
        check_causes(paper, known_claims(paper))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for paper in PAPERS:
        path = out / f"paper_{paper}.md"
        path.write_text(render(paper, judged, results), encoding="utf-8")
        written.append(path)
    return written


def known_claims(paper: str) -> Dict[str, str]:
    """Every claim id of `paper`'s figures and models with its words (whether or not the store has its run)."""
    from ..analysis.model_claims import CLAIMS, catalogue_id

    named = [(f.id, f.claims) for f in FIGURES.values()] + [(catalogue_id(m), cs) for m, cs in CLAIMS.items()]
    return {cid: c.expect for fid, claims in named if paper_of(fid) == paper
            for cid, c in zip(claim_ids(fid, claims), claims)}
