"""Verdicts that hold over seeds (issue 31, section 3): each claim judged on the mean and on each seed alone,
decided when the seeds agree, given more seeds (up to 10) when they split, and inconclusive when they still do."""

from __future__ import annotations

import pandas as pd

from pacesim.panels import Panel
from pacesim import papers
from pacesim.reproduce.claims import Claim, Points
from pacesim.reproduce.figure import Figure
from pacesim.reproduce.runner import more_seeds, reproduce
from pacesim.reproduce.verdicts import (DECIDED, INCONCLUSIVE, MORE_SEEDS, REPRODUCED, UNSETTLED, Judged, counts, judge,
                                        settle)

from .conftest import TINY

R, N = "reproduced", "not reproduced"


def test_a_verdict_is_decided_when_enough_seeds_agree():
    assert settle(R, {1: R, 2: R, 3: R})[0] == DECIDED
    assert settle(N, {1: N, 2: N, 3: N})[0] == DECIDED
    assert settle(R, {1: R})[0] == MORE_SEEDS  # one seed: under the 3 a verdict needs
    assert settle(R, {s: R for s in range(1, 10)}, needed=10)[0] == MORE_SEEDS  # paper Q ran 10
    assert settle(R, {1: R, 2: R, 3: R, 4: "not evaluated"})[0] == DECIDED  # a seed without its points: not counted
    assert settle("not evaluated", {1: R})[0] == DECIDED


def test_seeds_that_split_want_more_up_to_ten_then_inconclusive():
    assert settle(R, {1: R, 2: N, 3: R}) == (MORE_SEEDS, f"{R} on 2 of 3 seeds (1, 2, 3); split, up to 10")
    split = {s: R if s % 2 else N for s in range(1, 11)}
    assert settle(R, split)[0] == INCONCLUSIVE
    assert settle(R, {s: R for s in range(1, 11)})[0] == DECIDED


def test_an_inconclusive_verdict_replaces_the_means_coin_flip():
    split = {s: R if s % 2 else N for s in range(1, 11)}
    j = judge("E-fig3.4", "At 5 KB goodput none≈82 Kb/s", "t", N, "n", by_seed=split)
    assert j.verdict == INCONCLUSIVE and j.outcome == N and "5 of 10 seeds" in j.seeds and not j.cause
    j = judge("E-fig3.4", "At 5 KB goodput none≈82 Kb/s", "t", R, "n", by_seed={1: R, 2: R, 3: R})
    assert j.verdict == REPRODUCED and j.settled == DECIDED and j.seeds == f"{R} on 3 of 3 seeds (1, 2, 3)"
    j = judge("E-fig3.4", "x", "t", R, "n", quick=True, by_seed={1: R, 2: N})
    assert j.settled == DECIDED and not j.seeds  # quick runs are demos: never settled


def test_a_claim_whose_seeds_have_not_settled_is_counted_apart_from_the_means_verdict():
    # E-fig14.3 stood as "reproduced" at 4 of 7 and 5 of 9 seeds before the tenth made it inconclusive
    split = judge("E-fig3.4", "At 5 KB goodput none≈82 Kb/s", "t", R, "n", by_seed={s: R if s < 6 else N for s in range(1, 10)})
    few = judge("E-fig3.4", "At 5 KB goodput none≈82 Kb/s", "t", R, "n", by_seed={1: R})
    decided = judge("E-fig3.4", "At 5 KB goodput none≈82 Kb/s", "t", R, "n", by_seed={1: R, 2: R, 3: R})
    assert split.verdict == few.verdict == UNSETTLED and split.outcome == R and "5 of 9 seeds" in split.seeds
    assert counts([split, few, decided]) == f"1 of 3 reproduced; 2 {UNSETTLED}"


def test_more_seeds_adds_up_to_the_papers_count_then_two_at_a_time():
    def wanting(*states):
        return [Judged("X-1.1", "e", "t", R, "n", R, settled=s) for s in states]
    assert more_seeds([1], wanting(MORE_SEEDS), 3) == [2, 3]
    assert more_seeds([1, 2, 3], wanting(DECIDED, MORE_SEEDS), 3) == [4, 5]
    assert more_seeds(list(range(1, 10)), wanting(MORE_SEEDS), 3) == [10]
    assert more_seeds(list(range(1, 11)), wanting(MORE_SEEDS), 3) == []
    assert more_seeds([1, 2, 3], wanting(DECIDED, INCONCLUSIVE), 3) == []
    assert more_seeds([1, 2, 3], wanting(MORE_SEEDS), 10) == list(range(4, 11))


def test_a_claim_is_judged_on_each_seed_alone():
    df = pd.DataFrame([{"status": "ok", "core_utilisation": 1.0, "seed": s, "x": x} for s, x in [(1, 2.0), (2, 0.5), (3, 2.5)]])
    table = pd.DataFrame({"seed": [1, 1, 2, 3], "y": [1, 2, 3, 4]})
    p = Points(df, {"t": table})
    assert p.seeds() == [1, 2, 3] and p.of_seed(2).at("x") == 0.5 and list(p.of_seed(1).tables["t"]["y"]) == [1, 2]
    above_one = Claim("x above 1", "x > 1", lambda q: (q.at("x") > 1, f"x {q.at('x')}"))
    assert above_one.evaluate(p)[0] == R and above_one.by_seed(p) == {1: R, 2: N, 3: R}


def test_reproduce_settle_adds_seeds_until_each_verdict_holds(tmp_path, monkeypatch, pool):
    """A tiny E-base figure with two claims: one true on every seed (decided at 3 seeds), one true on odd seeds
    only (split: seeds added two at a time to 10, then inconclusive)."""
    (tmp_path / "T-settle.toml").write_text('name = "T-settle"\nseeds = [1]\nset = [' + ", ".join(f'"{s}"' for s in TINY)
                                            + ']\n[axes]\n"core.buffer" = ["5KB"]\n', encoding="utf-8")
    monkeypatch.setenv("PACESIM_SCENARIOS", str(tmp_path))

    def odd(q: Points):
        return all(s % 2 for s in q.seeds()), f"seeds {q.seeds()}"
    fig = Figure(id="T-settle", caption="settling", setup="tiny E-base",
                 panels=[Panel("core.buffer", "goodput_kbps_mean", [])],
                 claims=[Claim("runs", "goodput above 0", lambda q: (q.at("goodput_kbps_mean") > 0, "")),
                         Claim("odd seeds", "every seed odd", odd)])
    monkeypatch.setitem(papers.FIGURES, fig.id, fig)
    done = reproduce(fig.id, tmp_path / "results", tmp_path / "out", pool=pool, progress=False, settle=True)
    steady, split = done.claims
    assert steady.verdict == REPRODUCED and steady.seeds.endswith("on 10 of 10 seeds (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)")
    assert split.verdict == INCONCLUSIVE and "on 5 of 10 seeds" in split.seeds
    assert done.run.points == 10 and done.run.ran == 10
    assert "Seeds: " in done.report.read_text()
    # without `settle`, the sweep file's one seed: unsettled, wanting more seeds, never the mean's verdict
    one = reproduce(fig.id, tmp_path / "results", tmp_path / "out1", pool=pool, progress=False)
    assert [j.settled for j in one.claims] == [MORE_SEEDS, MORE_SEEDS]
    assert [j.verdict for j in one.claims] == [UNSETTLED, UNSETTLED] and one.claims[1].outcome == REPRODUCED
