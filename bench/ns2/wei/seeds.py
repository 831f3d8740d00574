#!/usr/bin/env python3
"""W-s1.1 and W-s3 at 15 MB on many seeds: pacesim beside ns-2 2.35 with Wei's patch, with the seeds' spread.

Both statistics swing with one seed's draw (W-s1's slowest flow with a timeout's backoff, W-s3's best flow with
which slow start locks the link), so ten seeds could not tell the simulators apart (PACESIM.md). This script
runs pacesim on the seeds ns-2 ran (run_wei.py: `--sack1-paced ws1 --seeds 1-100`, `ws3 --buffer-kb 15000
--seed N`), keeps its columns with the engine's version, the commit it was built from and the date
(results/pacesim/), and reports each side's mean with a 95 % bootstrap interval, the two simulators' ratio
with its own, and the verdict of the rule compare_pacesim.py applies (tests/support/ns2_wei.py: means over the
seeds both ran within 5 %; W-s1.1's slowest-flow ratio unpaced / paced within 5 %).

    PYTHONPATH=python python bench/ns2/wei/seeds.py run ws1|ws3 [--commit HASH]   # pacesim on ns-2's seeds
    PYTHONPATH=python python bench/ns2/wei/seeds.py report [--markdown FILE]

`run` appends to results/pacesim/ws1.csv or ws3-15mb.csv one run at a time, skipping seeds already there (a
stopped run resumes); `report` needs no simulator.

Intervals: percentile bootstrap, 5,000 resamples (generator seeded 1, so a report is reproducible), each
group of seeds resampled on its own: a seed number does not pair runs across simulators (different random
streams) nor, within one, across pacing modes. A difference is "shown" when the interval of pacesim / ns-2
excludes 1, agreement "shown" when that interval lies within the 5 % tolerance; otherwise the seeds leave
it open, whatever the 5 % test on the means says.
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tests"))
from support.ns2_wei import RESULTS, base, load, simulate_w_dumbbell, simulate_ws1  # noqa: E402

OURS = RESULTS / "pacesim"
RESAMPLES = 5000
TOL = base.TOL_GOODPUT  # 5 %: goodputs, and W-s1's latencies and their ratio
PAPER_RATIO = 2.0  # W-s1.1: "the slowest non-paced flow has a latency equal to two times of the paced flow's"
WS3_BUFFER = 15_000_000
WS3_POINT = {"variant": "Reno", "mode": "none", "flows": 5, "rate_mbps": 1000, "core_delay_ms": 4,
             "buffer_bytes": WS3_BUFFER, "packet_bytes": 1500, "duration_s": 200, "warmup_s": 0, "cross_mbps": 100}
STAMP = ["engine", "commit", "date"]
COLUMNS = {
    "ws1": ["mode", "seed", "duration_s", "latency_min_s", "latency_median_s", "latency_max_s", "core_loss", *STAMP],
    "ws3": ["seed", "buffer_bytes", "goodput_kbps_min", "goodput_kbps_max", "core_loss", *STAMP],
}
FILES = {"ws1": "ws1.csv", "ws3": "ws3-15mb.csv"}


def ns2_rows(grid: str) -> pd.DataFrame:
    """ns-2's runs: W-s1 on the Sack1-gated build (seeds as run), W-s3's 15 MB rows of the published one."""
    if grid == "ws1":
        return load("sack1-paced/ws1.csv")
    t = load("ws3.csv")
    return t[t.buffer_bytes == WS3_BUFFER].reset_index(drop=True)


def ours(grid: str) -> pd.DataFrame:
    path = OURS / FILES[grid]
    return pd.read_csv(path) if path.exists() else pd.DataFrame(columns=COLUMNS[grid])


def run(grid: str, commit: str) -> None:
    """pacesim on each of ns-2's seeds (and modes) not yet in results/pacesim/, one at a time."""
    import pacesim

    have = {tuple(r) for r in ours(grid)[["mode", "seed"] if grid == "ws1" else ["seed"]].astype(str).values}
    ns2 = ns2_rows(grid)
    todo = ns2[["mode", "seed", "duration_s"]] if grid == "ws1" else ns2[["seed"]]
    OURS.mkdir(parents=True, exist_ok=True)
    path = OURS / FILES[grid]
    stamp = {"engine": pacesim.ENGINE_VERSION, "commit": commit, "date": datetime.date.today().isoformat()}
    for p in todo.to_dict("records"):
        key = (str(p["mode"]), str(p["seed"])) if grid == "ws1" else (str(p["seed"]),)
        if key in have:
            continue
        r = simulate_ws1(p) if grid == "ws1" else simulate_w_dumbbell({**WS3_POINT, **p})
        row = pd.DataFrame([{**r, **stamp}])[COLUMNS[grid]]
        row.to_csv(path, mode="a", header=not path.exists(), index=False)
        print(grid, key, {c: r[c] for c in COLUMNS[grid][2:-3]}, flush=True)


def resampled_means(x, rng) -> np.ndarray:
    """RESAMPLES bootstrap means of the sample x."""
    x = np.asarray(x, dtype=float)
    return x[rng.integers(0, len(x), (RESAMPLES, len(x)))].mean(axis=1)


def interval(draws: np.ndarray) -> tuple:
    return tuple(np.percentile(draws, [2.5, 97.5]))


def verdict(ratio: float, lo: float, hi: float) -> str:
    """The 5 % rule on pacesim / ns-2 (`ratio`), and what its bootstrap interval [lo, hi] shows."""
    rule = "agree" if abs(ratio - 1) <= TOL else "disagree"
    shown = ("a difference shown" if lo > 1 or hi < 1 else
             "agreement within 5 % shown" if 1 - TOL <= lo and hi <= 1 + TOL else "neither shown")
    return f"{rule} by the 5 % rule ({ratio - 1:+.1%}); {shown}"


def fmt(m: float, ci: tuple, scale: float = 1.0, digits: int = 2) -> str:
    return f"{scale * m:.{digits}f} [{scale * ci[0]:.{digits}f}, {scale * ci[1]:.{digits}f}]"


HEADER = ["| measure | ns-2 mean [95 %] (sd) | pacesim mean [95 %] (sd) | pacesim / ns-2 [95 %] | standard error of "
          "the difference | Mann-Whitney p | verdict |", "|---|---|---|---|---|---|---|"]


def side_by_side(what: str, ns2: np.ndarray, ours: np.ndarray, rng, loss: bool = False, digits: int = 1) -> str:
    """A row of HEADER: each side's mean over its seeds, their ratio, and the 5 % rule (loss: 20 % above the 0.5 %
    floor, rates in %)."""
    from scipy.stats import mannwhitneyu

    d = {"ns-2": resampled_means(ns2, rng), "pacesim": resampled_means(ours, rng)}
    r = ours.mean() / ns2.mean()
    lo, hi = interval(d["pacesim"] / d["ns-2"])
    se = np.sqrt(ns2.var(ddof=1) / len(ns2) + ours.var(ddof=1) / len(ours)) / ns2.mean()
    if loss and ns2.mean() <= 100 * base.LOSS_FLOOR:
        rule = f"not judged: ns-2's loss is below the {base.LOSS_FLOOR:.1%} floor"
    elif loss:
        rule = f"{'agree' if abs(r - 1) <= base.TOL_LOSS else 'disagree'} by the 20 % rule ({r - 1:+.1%})"
    else:
        rule = verdict(r, lo, hi)
    cell = lambda x, dd: f"{fmt(x.mean(), interval(dd), digits=digits)} ({x.std(ddof=1):.{digits}f})"
    return (f"| {what} | {cell(ns2, d['ns-2'])} | {cell(ours, d['pacesim'])} | {r:.3f} [{lo:.3f}, {hi:.3f}] | "
            f"{se:.1%} | {mannwhitneyu(ns2, ours).pvalue:.2f} | {rule} |")


def seed_list(seeds: list) -> str:
    """"1-100" for a run of consecutive seeds, else each."""
    return f"{seeds[0]}-{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) else ", ".join(map(str, seeds))


def report_ws1(rng) -> list:
    from scipy.stats import chi2_contingency

    from pacesim.reproduce.claims import about

    sides = {"ns-2": ns2_rows("ws1"), "pacesim": ours("ws1")}
    seeds = sorted(set.intersection(*(set(t.seed[t["mode"] == m]) for t in sides.values()
                                      for m in ("none", "original"))))
    x = {(n, m, c): t[t.seed.isin(seeds) & (t["mode"] == m)].sort_values("seed")[c].to_numpy(dtype=float)
         for n, t in sides.items() for m in ("none", "original") for c in COLUMNS["ws1"][3:7]}
    lines = [f"### W-s1.1: slowest flow to 1 MB, unpaced / paced ({len(seeds)} seeds: {seed_list(seeds)})", "",
             "| simulator | slowest unpaced s | slowest paced s | ratio (paper about 2) | paper's 1.9-2.1 |",
             "|---|---|---|---|---|"]
    ratios = {}
    for name in sides:
        u, p = x[name, "none", "latency_max_s"], x[name, "original", "latency_max_s"]
        du, dp = resampled_means(u, rng), resampled_means(p, rng)
        ratios[name] = (u.mean() / p.mean(), du / dp)
        r, draws = ratios[name]
        lo, hi = interval(draws)
        lines.append(f"| {name} | {fmt(u.mean(), interval(du))} | {fmt(p.mean(), interval(dp))} | "
                     f"x{fmt(r, (lo, hi))} | {'yes' if about(r, PAPER_RATIO) else 'no'}; "
                     f"2 {'inside' if lo <= PAPER_RATIO <= hi else 'outside'} the interval |")
    r = ratios["pacesim"][0] / ratios["ns-2"][0]
    lo, hi = interval(ratios["pacesim"][1] / ratios["ns-2"][1])
    lines += ["", f"pacesim / ns-2, the ratio: {r:.3f} [{lo:.3f}, {hi:.3f}]: {verdict(r, lo, hi)}.", "",
              "Each latency (s) and the core loss (%), per mode:", "", *HEADER]
    for m, label in (("none", "unpaced"), ("original", "paced")):
        for c, what in zip(COLUMNS["ws1"][3:7], ("fastest", "median", "slowest", "core loss")):
            scale, loss = (100.0, True) if c == "core_loss" else (1.0, False)
            lines.append(side_by_side(f"{label}, {what}", scale * x["ns-2", m, c], scale * x["pacesim", m, c], rng,
                                      loss, digits=3))
    levels = {n: np.bincount(np.digitize(np.concatenate([x[n, m, "latency_max_s"] for m in ("none", "original")]),
                                         [1.25, 2.5, 5.0]), minlength=4) for n in sides}
    lines += ["", "Slowest flow's latency by level (runs, unpaced and paced together): "
              + "; ".join(f"{n} " + ", ".join(f"{c} {lab}" for c, lab in zip(levels[n], ("< 1.25 s", "1.25-2.5 s",
                                                                                          "2.5-5 s", "> 5 s")))
                          for n in levels)
              + f" (chi-square p {chi2_contingency(np.array(list(levels.values()))).pvalue:.2f})."]
    return lines


def report_ws3(rng) -> list:
    sides = {"ns-2": ns2_rows("ws3"), "pacesim": ours("ws3")}
    seeds = sorted(set(sides["ns-2"].seed) & set(sides["pacesim"].seed))
    x = {(n, c): t[t.seed.isin(seeds)].sort_values("seed")[c].to_numpy(dtype=float)
         for n, t in sides.items() for c in COLUMNS["ws3"][2:5]}
    return [f"### W-s3 at 15 MB, 5 unpaced Reno flows ({len(seeds)} seeds: {seed_list(seeds)}; Mb/s, %)", "",
            *HEADER, *(side_by_side(what, scale * x["ns-2", c], scale * x["pacesim", c], rng, c == "core_loss",
                                    3 if c == "core_loss" else 1)
                       for c, what, scale in (("goodput_kbps_max", "best flow", 1e-3),
                                              ("goodput_kbps_min", "worst flow", 1e-3), ("core_loss", "core loss", 100.0)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="pacesim on ns-2's seeds")
    r.add_argument("grid", choices=sorted(FILES))
    r.add_argument("--commit", help="the commit the engine was built from (default: this tree's HEAD)")
    m = sub.add_parser("report", help="the tables")
    m.add_argument("--markdown", type=Path, help="also write them here")
    args = ap.parse_args()
    if args.cmd == "run":
        commit = args.commit or subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"],
                                               capture_output=True, text=True, check=True).stdout.strip()
        run(args.grid, commit)
        return 0
    rng = np.random.default_rng(1)
    text = "\n".join([*report_ws1(rng), "", *report_ws3(rng)]) + "\n"
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
