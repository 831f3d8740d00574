#!/usr/bin/env python3
"""Run the ns-2 references beyond E-base (bench/ns2/refs.py) and compare
pacesim with them.

    python3 bench/ns2/run_refs.py --ns2 [--setup S ...] [--small]  # ns-2 runs not yet in results/refs/<setup>.csv
    python bench/ns2/run_refs.py --compare [--setup S ...] [--small] [--markdown FILE]

`--ns2` needs Debian's ns2 (and numpy, scipy for the UDP traces); runs go
one at a time, niced, and resume: rows already in the CSV are skipped.
`--compare` reruns pacesim on every committed ns-2 row, averages both over
seeds and prints the side-by-side tables with the E-base tolerances
(bench/fidelity_ns2.py): throughput within 3 % of the core's rate, loss
within 20 % relative where ns-2's exceeds 0.5 %, goodput (and transfer
counts) within 5 %. It exits 1 if a point misses.
"""

import argparse
import csv
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import refs  # noqa: E402
from run_ebase import append, run_ns_all  # noqa: E402

RESULTS = refs.HERE / "results" / "refs"
NS2_ONLY = {"twoway"}  # pacesim cannot run these yet


def load(setup):
    """The committed ns-2 rows of a setup, each a point dict with its metrics."""
    path = RESULTS / f"{setup}.csv"
    if not path.exists():
        return []
    with path.open() as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["setup"] = setup
        for k, v in r.items():
            if k not in ("setup", "variant"):
                r[k] = float(v) if "." in v or "e" in v else int(v)
    return rows


def run_ns2(setup, small):
    done = {refs.key(r) for r in load(setup)}
    todo = [p for p in refs.points(setup, True) + ([] if small else refs.points(setup, False))
            if refs.key(p) not in done]
    RESULTS.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(todo, 1):
        with tempfile.TemporaryDirectory() as tmp:
            args = refs.ns2_args(p, Path(tmp))
            tag = f"{setup}_" + "_".join(refs.key(p))
            m = run_ns_all(args, tag)
        row = {k: p[k] for k in refs.PARAMS[setup] + ["seed", "duration_s", "warmup_s"]} | m
        append(RESULTS / f"{setup}.csv", row, list(row))
        print(f"[{i}/{len(todo)}] {setup} {row}", flush=True)


def simulate(point):
    """pacesim on one ns-2 row's point: the metrics in ns-2's names."""
    import pacesim

    base = pacesim.load_scenario(refs.ROOT / "scenarios" / refs.SETUPS[point["setup"]][2])
    s = pacesim.apply_overrides(base, refs.overrides(point))
    return {**point, **refs.measure(pacesim.run(s), point)}


def compare(rows, workers=None):
    """Both simulators' seed means per point, with an agreement flag per metric."""
    import pandas as pd
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers) as pool:
        ours = pd.DataFrame(list(pool.map(simulate, rows)))
    ns2 = pd.DataFrame(rows)
    out = []
    for setup, g in ns2.groupby("setup"):
        metrics = refs.SETUPS[setup][3]
        params = refs.PARAMS[setup] + ["duration_s", "warmup_s"]
        a = g.groupby(params)[metrics].mean()
        b = ours[ours.setup == setup].groupby(params)[metrics].mean()
        seeds = g.groupby(params)["seed"].count()
        for idx in a.index:
            point = {"setup": setup, **dict(zip(params, idx if isinstance(idx, tuple) else (idx,)))}
            row = {**point, "seeds": int(seeds[idx])}
            for m in metrics:
                row[f"{m}_ns2"], row[f"{m}_pacesim"] = a.loc[idx, m], b.loc[idx, m]
                row[f"ok_{m}"] = bool(refs.agrees(m, a.loc[idx, m], b.loc[idx, m], point))
            out.append(row)
    return pd.DataFrame(out)


def fmt(metric, x):
    if metric.endswith("_loss"):
        return f"{100 * x:.2f}"
    if metric == "transfers":
        return f"{x:.0f}"
    return f"{x:.2f}" if x < 100 else f"{x:.1f}"


UNITS = {"_mbps": "Mb/s", "_loss": "%", "_kbps_mean": "Kb/s", "transfers": "count"}


def tables(t):
    """Markdown, one table per setup and run length."""
    lines = []
    for (setup, duration, warmup), g in t.groupby(["setup", "duration_s", "warmup_s"], sort=False):
        metrics = refs.SETUPS[setup][3]
        params = refs.PARAMS[setup]
        lines += [f"### {refs.SETUPS[setup][0]}: {duration} s over [{warmup}, {duration}] s", "",
                  "ns-2 / pacesim, means over seeds; " + ", ".join(
                      f"{m} in {next(u for s, u in UNITS.items() if m.endswith(s))}" for m in metrics), ""]
        lines.append("| " + " | ".join(params + ["seeds"] + metrics + ["agrees"]) + " |")
        lines.append("|" + "---|" * (len(params) + len(metrics) + 2))
        for r in g.itertuples():
            cells = [f"{v:g}" if isinstance(v, float) else str(v) for v in (getattr(r, p) for p in params)]
            cells.append(str(r.seeds))
            misses = []
            for m in metrics:
                cells.append(f"{fmt(m, getattr(r, m + '_ns2'))} / {fmt(m, getattr(r, m + '_pacesim'))}")
                if not getattr(r, "ok_" + m):
                    misses.append(m)
            cells.append("yes" if not misses else "no: " + ", ".join(misses))
            lines.append("| " + " | ".join(cells) + " |")
        agree = sum(all(getattr(r, "ok_" + m) for m in metrics) for r in g.itertuples())
        lines += ["", f"{agree} of {len(g)} points agree.", ""]
    return "\n".join(lines)


def ns2_only_tables(setup):
    rows = load(setup)
    if not rows:
        return ""
    cols = [c for c in rows[0] if c not in ("setup", "wall_s", "peak_rss_mb", "core_arrivals", "core_drops",
                                             "core_departures", "aggregate_mbps")]
    lines = [f"### {refs.SETUPS[setup][0]}: ns-2 only (pacesim cannot run it yet)", "",
             "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        lines.append("| " + " | ".join(str(r[c]) for c in cols) + " |")
    return "\n".join(lines + [""])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ns2", action="store_true", help="run the ns-2 points not yet in results/refs/")
    ap.add_argument("--compare", action="store_true", help="rerun pacesim and print the side-by-side tables")
    ap.add_argument("--setup", action="append", choices=list(refs.SETUPS), help="only these setups (repeatable)")
    ap.add_argument("--small", action="store_true", help="only the small points (the CI's)")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--markdown", type=Path, help="write the tables here")
    args = ap.parse_args()
    setups = args.setup or list(refs.SETUPS)
    if args.ns2:
        for s in setups:
            run_ns2(s, args.small)
    if not args.compare:
        return 0
    small = {refs.key(p) for s in setups for p in refs.points(s, True)}
    rows = [r for s in setups if s not in NS2_ONLY for r in load(s) if not args.small or refs.key(r) in small]
    t = compare(rows, args.workers)
    text = tables(t) + "\n" + "\n".join(ns2_only_tables(s) for s in setups if s in NS2_ONLY)
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    ok = t[[c for c in t.columns if c.startswith("ok_")]].fillna(True).all(axis=1)
    print(f"{int(ok.sum())}/{len(t)} points agree")
    return 0 if ok.all() else 1


if __name__ == "__main__":
    sys.exit(main())
