"""Every repository path the papers' causes, readings and ns-2 references cite exists (issue 36).

python/pacesim/papers/*/causes.toml, reading.toml and references.toml name files as evidence (bench/ns2/
results/ebase.csv, bench/sensitivity/readings.md, ...). The wheel carries the TOML files but not bench/ or
docs/, so the tables, reports and site that show them say that the paths are the source repository's
(`reproduce.verdicts.SOURCE_PATHS`); here every one is held to exist there, from the repository's root."""

import re
from pathlib import Path

from pacesim.reproduce.paper_tables import render
from pacesim.reproduce.verdicts import SOURCE_PATHS

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ROOT / "python" / "pacesim" / "papers"
# A path from the root: a top folder of the repository, then path characters (a `*` is a glob); a word
# before it (`ns2/`, `a/b`) makes it no path from the root.
CITED = re.compile(r"(?<![\w/.-])(?:bench|docs|scenarios|tests|scripts|crates|python)/[\w.*+-]+(?:/[\w.*+-]+)*")


def cited(text: str) -> list:
    """The repository paths `text` names, without a sentence's closing full stop."""
    return [m.rstrip(".") for m in CITED.findall(text)]


def exists(path: str) -> bool:
    return any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()


def test_every_path_the_papers_cite_is_in_the_repository():
    files = sorted(PAPERS.glob("*/*.toml"))
    paths = {(f.relative_to(PAPERS), p) for f in files for p in cited(f.read_text())}
    assert {f.name for f in files} == {"causes.toml", "reading.toml", "references.toml"}
    assert len({p for _, p in paths}) > 20, "the papers cite bench/ throughout (55 paths at the start)"
    missing = sorted(f"{f}: {p}" for f, p in paths if not exists(p))
    assert not missing, missing


def test_the_pattern_reads_paths_as_the_texts_write_them():
    assert cited("bench/ns2/results/ebase.csv: stock ns-2; bench/ns2/paced's edge pacer (bench/ns2/wei/PACESIM.md)."
                 " See bench/ns2/results/cwnd/*_w20.csv and docs/guide/ns2.md.") == [
        "bench/ns2/results/ebase.csv", "bench/ns2/paced", "bench/ns2/wei/PACESIM.md",
        "bench/ns2/results/cwnd/*_w20.csv", "docs/guide/ns2.md"]
    assert cited("store /work/res/record11, ns2/tmix/x, a/bench/y") == []
    assert not exists("bench/ns2/results/no-such.csv") and exists("bench/ns2/results/cwnd/*_w20.csv")


def test_a_paper_table_says_where_the_paths_it_cites_are():
    text = render("e", {}, Path("store"))
    assert SOURCE_PATHS in text.split("\n## ")[0], "said before the first table"
