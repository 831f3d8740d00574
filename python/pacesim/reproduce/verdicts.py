"""Verdicts: a claim's outcome at the paper's size joined with the recorded cause of a miss.

Every claim ends with one of four verdicts (issue 17): *reproduced*; *not
reproduced, ns-2 agrees with pacesim* (ns-2 on the same setup misses it too:
the paper's setup must differ from what it states); *not reproduced, pacesim
and ns-2 disagree* (a defect); *not reproduced, no reference possible* (ns-2
cannot run the setup, or nothing else can decide; the cause says why). A
miss with no recorded cause shows as *not reproduced, cause not yet found*.

Causes live in one TOML file per paper, `pacesim/papers/<e|a|q|w>/causes.toml`, keyed
by claim id (`<catalogue id>.<n>`, the n-th claim of the figure or model,
from 1), each with the claim's words (checked against the code, so a cause
cannot silently move to another claim), its kind (`ns2-agrees`,
`ns2-disagrees`, `no-reference`), the cause, and the evidence (ns-2
reference rows under bench/ns2/, sensitivity runs, with their numbers):

    ["E-fig3.4"]
    claim = "At 5 KB goodput none≈82 Kb/s"
    kind = "ns2-agrees"
    cause = "..."
    evidence = ["bench/ns2/results/ebase.csv: none, 5 KB: 88.1 Kb/s", "..."]

Quick runs are demos: their misses say so and carry no cause.

A verdict holds over seeds (issue 31): the claim is judged on the mean over
the seeds and on each seed alone (`settle`). It is *decided* when at least
the seeds the paper ran (else `MIN_SEEDS` = 3) are judged and every seed's
own outcome is the mean's: the margin lies outside the seed-to-seed spread.
When a seed disagrees the margin lies inside the spread: the claim wants
more seeds (`runner.reproduce(settle=True)` adds them) up to `MAX_SEEDS` =
10, and then, still split, its verdict is *inconclusive*, never the mean's
coin flip. Until then (the run stopped before its seeds settled) the claim is
*unsettled* and counted apart from every verdict: the mean's outcome is shown
but not counted as the claim's verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

from ..scenario import tomllib  # tomllib, or tomli before Python 3.11

REPRODUCED = "reproduced"
KINDS = {"ns2-agrees": "not reproduced, ns-2 agrees with pacesim",
         "ns2-disagrees": "not reproduced, pacesim and ns-2 disagree",
         "no-reference": "not reproduced, no reference possible"}
UNKNOWN = "not reproduced, cause not yet found"
QUICK_MISS = "not reproduced (quick demo: verdicts are given at the paper's size)"
NOT_EVALUATED = "not evaluated"
INCONCLUSIVE = "inconclusive: the seeds disagree"
UNSETTLED = "unsettled: more seeds wanted"
ORDER = [REPRODUCED, *KINDS.values(), UNKNOWN, INCONCLUSIVE, UNSETTLED, QUICK_MISS, NOT_EVALUATED]

MIN_SEEDS = 3
"""Seeds a verdict needs where the paper gives no count of its own (`Figure.seeds`)."""
MAX_SEEDS = 10
"""Seeds after which a claim the seeds still split on is inconclusive."""
DECIDED, MORE_SEEDS = "decided", "more seeds"

CAUSES_DIR = Path(__file__).resolve().parents[1] / "papers"
"""Where each paper's folder holds its `causes.toml` (`pacesim.papers`; read as a file, not imported)."""


SOURCE_PATHS = ("Paths in the causes and the ns-2 references (bench/..., docs/..., python/...) are files of "
                "pacesim's source repository, from its root; the installed package does not carry bench/ or docs/.")
"""Said wherever the causes' evidence or the ns-2 references are shown (the tables, a reproduction's report, the
site): where the files they cite are (tests/test_cited_paths.py holds every one to exist there)."""


class CauseError(ValueError):
    """A causes file that does not fit the claims it names."""


@dataclass(frozen=True)
class Cause:
    """Why a claim misses at the paper's size, and the evidence."""

    claim: str
    kind: str
    cause: str
    evidence: Tuple[str, ...]


@dataclass(frozen=True)
class Judged:
    """One claim judged: its id and words, the test, the numbers, the verdict, (for a miss) its cause, and the
    paper's sentence the test reads."""

    id: str
    expect: str
    test: str
    outcome: str  # "reproduced" | "not reproduced" | "not evaluated"
    numbers: str
    verdict: str
    cause: str = ""
    evidence: Tuple[str, ...] = ()
    sentence: str = ""
    seeds: str = ""  # the outcome on each seed alone, and whether that settles the verdict
    settled: str = DECIDED  # DECIDED | MORE_SEEDS | INCONCLUSIVE
    # (seed, outcome, numbers) on each seed alone: the claim's margin (its numbers against the paper's) seed by seed
    by_seed: Tuple[Tuple[int, str, str], ...] = ()


def paper_of(catalogue_id: str) -> str:
    """The paper letter of a catalogue id, lower case: "E-fig3" -> "e"."""
    return catalogue_id.split("-")[0].lower()


@lru_cache(maxsize=None)
def causes(paper: str, directory: Path = CAUSES_DIR) -> Dict[str, Cause]:
    """The recorded causes of paper `paper`'s misses, by claim id (none if it has no file)."""
    path = directory / paper / "causes.toml"
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise CauseError(f"{path}: {e}") from None
    out = {}
    for cid, entry in data.items():
        where = f"{paper}/{path.name}: [{cid!r}]"
        unknown = set(entry) - {"claim", "kind", "cause", "evidence"}
        if unknown:
            raise CauseError(f"{where}: unknown keys {sorted(unknown)}")
        for key in ("claim", "kind", "cause", "evidence"):
            if key not in entry:
                raise CauseError(f"{where}: missing {key!r}")
        if entry["kind"] not in KINDS:
            raise CauseError(f"{where}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
        if not entry["evidence"] or not all(isinstance(e, str) and e for e in entry["evidence"]):
            raise CauseError(f"{where}: evidence must be a non-empty list of strings")
        out[cid] = Cause(entry["claim"], entry["kind"], entry["cause"], tuple(entry["evidence"]))
    return out


def claim_ids(catalogue_id: str, claims: Sequence) -> list:
    """`<catalogue id>.<n>` for the n-th of `claims`, from 1."""
    return [f"{catalogue_id}.{n}" for n in range(1, len(claims) + 1)]


def check_causes(paper: str, known: Dict[str, str], directory: Path = CAUSES_DIR) -> None:
    """Every recorded cause of `paper` names a claim id of `known` (id -> words) with its words."""
    for cid, cause in causes(paper, directory).items():
        if cid not in known:
            raise CauseError(f"{paper}/causes.toml: no claim {cid!r}")
        if cause.claim != known[cid]:
            raise CauseError(f"{paper}/causes.toml: [{cid!r}] quotes {cause.claim!r}, but the claim is {known[cid]!r}")


def settle(outcome: str, by_seed: Dict[int, str], needed: int = MIN_SEEDS) -> Tuple[str, str]:
    """(DECIDED, MORE_SEEDS or INCONCLUSIVE; the spread in words) for a claim whose outcome on the mean over seeds
    is `outcome` and on each seed alone `by_seed`: decided when at least `needed` seeds are judged and each agrees
    with the mean; inconclusive when `MAX_SEEDS` are judged and some do not; else more seeds are wanted."""
    judged = {s: o for s, o in by_seed.items() if o != NOT_EVALUATED}
    if outcome == NOT_EVALUATED or not judged:
        return DECIDED, ""
    agree = [s for s, o in judged.items() if o == outcome]
    spread = f"{outcome} on {len(agree)} of {len(judged)} seeds ({', '.join(map(str, judged))})"
    if len(agree) == len(judged):
        return (DECIDED, spread) if len(judged) >= needed else (MORE_SEEDS, f"{spread}; {needed} needed")
    return (INCONCLUSIVE, spread) if len(judged) >= MAX_SEEDS else (MORE_SEEDS, f"{spread}; split, up to {MAX_SEEDS}")


def judge(cid: str, expect: str, test: str, outcome: str, numbers: str, quick: bool = False,
          directory: Path = CAUSES_DIR, sentence: str = "", by_seed: Optional[Dict[int, str]] = None,
          needed: int = MIN_SEEDS, seed_numbers: Optional[Dict[int, str]] = None) -> Judged:
    """The verdict of claim `cid` from its outcome (on the mean over seeds; with `by_seed`, each seed's, settled by
    `settle`, and `seed_numbers` each seed's numbers) and, for a miss at the paper's size, its recorded cause. A
    claim whose seeds have not settled (too few, or split below `MAX_SEEDS`) is `UNSETTLED`, never the mean's
    verdict."""
    settled, spread = settle(outcome, by_seed or {}, needed) if by_seed and not quick else (DECIDED, "")
    each = () if quick else tuple((s, o, (seed_numbers or {}).get(s, "")) for s, o in sorted((by_seed or {}).items()))
    return judged_as(cid, expect, test, outcome, numbers, quick, directory, sentence, spread, settled, each)


def judged_as(cid: str, expect: str, test: str, outcome: str, numbers: str, quick: bool = False,
              directory: Path = CAUSES_DIR, sentence: str = "", seeds: str = "", settled: str = DECIDED,
              by_seed: Tuple[Tuple[int, str, str], ...] = ()) -> Judged:
    """The verdict of claim `cid` whose outcome and seeds are settled (`settle`'s `settled` and spread `seeds`,
    each seed's (seed, outcome, numbers) `by_seed`): a settled miss at the paper's size takes its cause as
    `causes` records it now."""
    if settled != DECIDED:
        verdict = INCONCLUSIVE if settled == INCONCLUSIVE else UNSETTLED
        return Judged(cid, expect, test, outcome, numbers, verdict, sentence=sentence, seeds=seeds,
                      settled=settled, by_seed=by_seed)
    j = _judge(cid, expect, test, outcome, numbers, quick, directory, sentence)
    return replace(j, seeds=seeds, settled=settled, by_seed=by_seed)


def _judge(cid: str, expect: str, test: str, outcome: str, numbers: str, quick: bool, directory: Path,
           sentence: str) -> Judged:
    if outcome != "not reproduced":
        return Judged(cid, expect, test, outcome, numbers, REPRODUCED if outcome == "reproduced" else NOT_EVALUATED,
                      sentence=sentence)
    if quick:
        return Judged(cid, expect, test, outcome, numbers, QUICK_MISS, sentence=sentence)
    cause = causes(paper_of(cid), directory).get(cid)
    if cause is None:
        return Judged(cid, expect, test, outcome, numbers, UNKNOWN, sentence=sentence)
    if cause.claim != expect:
        raise CauseError(f"{paper_of(cid)}/causes.toml: [{cid!r}] quotes {cause.claim!r}, but the claim is {expect!r}")
    return Judged(cid, expect, test, outcome, numbers, KINDS[cause.kind], cause.cause, cause.evidence, sentence)


def counts(judged: Sequence[Judged]) -> str:
    """"n of N reproduced; k <verdict>; ..." in `ORDER`."""
    parts = [f"{sum(j.verdict == REPRODUCED for j in judged)} of {len(judged)} reproduced"]
    parts += [f"{n} {v}" for v in ORDER[1:] if (n := sum(j.verdict == v for j in judged))]
    return "; ".join(parts)


def seeds_markdown(judged: Sequence[Judged], heading: str) -> list:
    """Markdown lines giving every claim judged on more than one seed its numbers on each seed alone: the margin
    against the paper's words seed by seed, whose spread decides whether the verdict holds (none: no lines)."""
    several = [j for j in judged if len(j.by_seed) > 1]
    if not several:
        return []
    lines = ["", heading, "", "The numbers above are on the mean over seeds; here each claim's on each seed alone "
             "(a seed whose outcome differs from the mean's puts the margin inside the seed-to-seed spread).", ""]
    for j in several:
        lines += [f"- **{j.id}** ({j.seeds}):"]
        lines += [f"  - seed {s}: {o}; {' '.join(n.split())}" for s, o, n in j.by_seed]
    return lines


def causes_markdown(judged: Sequence[Judged], heading: str) -> list:
    """Markdown lines listing every judged miss that has a cause, with its evidence (none: no lines)."""
    missed = [j for j in judged if j.cause]
    if not missed:
        return []
    lines = ["", heading, ""]
    for j in missed:
        lines += [f"- **{j.id}** {' '.join(j.expect.split())}: {j.verdict}. {' '.join(j.cause.split())}"]
        lines += [f"  - {e}" for e in j.evidence]
    return lines
