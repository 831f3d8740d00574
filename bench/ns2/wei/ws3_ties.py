#!/usr/bin/env python3
"""W-s3 at 15 MB and the order of packets that reach r0 at one nanosecond: how much of the best and worst flow
that order decides, and the two simulators compared with the order randomised in both.

W-s3's network (ws5.tcl's: five senders on 1 Gb/s, 1 ms access links into r0, the core 1 Gb/s, 4 ms) puts every
link on the core's 12 us grid, so packets of different flows reach r0 at the same instant all the time: pacesim
orders them by when their arrival was scheduled, ns-2's double clock by the rounding of its sums (PACESIM.md,
"Event by event"). With drop-tail, which flow loses at an overflow then hangs on that order: the phase effects of
Floyd and Jacobson ("On Traffic Phase Effects in Packet-Switched Gateways", 1992), which ns-2's `overhead_` exists
to break. pacesim's side of `seeds.py`'s W-s3 (5 unpaced Reno flows, cross traffic, 15 MB, 200 s, window cuts
from flight), its network written out as a graph, in three variants:

- `index`: flow i's access link (both halves) i ns longer than 1 ms (0-4 ns);
- `random`: each flow's offset drawn from 0-999 ns, per seed (numpy's generator seeded with the seed);
- `overhead`: no offsets; every TCP sender's bursts held by ns-2's delayed send, `tcp.overhead` = OVERHEAD (one
  packet's time on the core), each a draw of its own.

An offset holds for the whole run, so it does not break ties at random: it gives the flows a fixed order at r0
(the smallest offset first), a static priority. The cross traffic's link keeps 1 ms, so flow 0 of `index` (and an
offset of 0, or two equal offsets, of `random`) still ties. With every offset 0 the graph gives `seeds.py`'s rows
to the last digit (checked on seed 1). `ns2` runs ns-2 with Wei's patch (build.sh's, as `run_wei.py ws3`) on the
same point with `Agent/TCP overhead_` = OVERHEAD (`overhead.tcl`), to results/ws3-overhead.csv.

Rows go to results/pacesim/ws3-ties.csv (variant, seed, goodputs, loss; a stopped run resumes); `report` puts them
beside ns-2's and pacesim's unperturbed rows (results/ws3.csv, results/pacesim/ws3-15mb.csv), with seeds.py's
intervals (5,000 percentile bootstrap resamples), and the two simulators side by side with the delayed send.

    PYTHONPATH=python python bench/ns2/wei/ws3_ties.py run index|random|overhead [--seeds 1-100]
    PYTHONPATH=python python bench/ns2/wei/ws3_ties.py ns2 [--seeds 1-100] [--build /work/ns2-wei]
    PYTHONPATH=python python bench/ns2/wei/ws3_ties.py report
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from seeds import HEADER, OURS, RESULTS, WS3_POINT, interval, ns2_rows, ours, resampled_means, side_by_side  # noqa: E402
from run_wei import BUILD, binary, run_ns_direct, run_paced, seed_range  # noqa: E402
from support.ns2_wei import w_dumbbell_scenario  # noqa: E402  (seeds.py put tests/ on the path)

OUT = OURS / "ws3-ties.csv"
NS2_OUT = RESULTS / "ws3-overhead.csv"
GIGABIT, MS = 1_000_000_000, 1_000_000
OVERHEAD_NS = 12_000  # one 1500 B packet on the 1 Gb/s core


def offsets(variant: str, seed: int) -> list[int]:
    """Each flow's extra access delay, ns."""
    if variant == "overhead":
        return [0] * WS3_POINT["flows"]
    if variant == "index":
        return list(range(WS3_POINT["flows"]))
    return [int(x) for x in np.random.default_rng(seed).integers(0, 1000, WS3_POINT["flows"])]


def graph(extra: list[int]) -> dict:
    """W-s3's w-dumbbell written out (its links in its order, so every draw is the same), access.i's delay 1 ms
    + extra[i]."""
    links = [{"from": "r0", "to": "r1", "core": True, "forward": {"measure": True}, "reverse": {"measure": True}}]
    hosts, flows = [], []
    pairs = [(f"s{i}", f"d{i}", f"access.{i}", f"sink.{i}") for i in range(len(extra))]
    for i, (s, d, up, down) in enumerate([*pairs, ("x-src", "x-dst", "cross", "cross.sink")]):
        delay = MS + (extra[i] if i < len(extra) else 0)
        links += [{"from": s, "to": "r0", "rate": [GIGABIT] * 2, "delay": [delay] * 2,
                   "forward": {"name": up}, "reverse": {"name": f"{up}.rev"}},
                  {"from": "r1", "to": d, "rate": [GIGABIT] * 2, "delay": [MS] * 2,
                   "forward": {"name": down}, "reverse": {"name": f"{down}.rev"}}]
        flows += [{"from": s, "to": d}] if i < len(extra) else []
        hosts += [s, d]
    return {"kind": "graph", "nodes": ["r0", "r1"], "hosts": hosts, "links": links, "flows": flows}


def run_one(variant: str, seed: int) -> dict:
    import pacesim
    from pacesim import _core, schema

    s = w_dumbbell_scenario({**WS3_POINT, "seed": seed})
    if variant == "overhead":
        s = pacesim.apply_overrides(s, [f"tcp.overhead={OVERHEAD_NS}ns"])
    engine = json.loads(s.engine_json())
    engine["topology"] = graph(offsets(variant, seed))
    r = json.loads(_core.run_json(schema.checked(json.dumps(engine)), None, 1))
    goodputs = r["flows"]["goodput_kbps"]  # the report keeps its flows by column
    return {"variant": variant, "seed": seed, "goodput_kbps_min": min(goodputs), "goodput_kbps_max": max(goodputs),
            "core_loss": r["summary"]["core_loss_rate"], "engine": pacesim.ENGINE_VERSION}


def run_ns2(ns: str, seed: int) -> dict:
    """ns-2 with Wei's patch on W-s3's 15 MB point (run_paced's arguments for it), every TCP agent's `overhead_`
    OVERHEAD_NS."""
    with tempfile.NamedTemporaryFile("r", suffix=".csv") as flows:
        args = run_paced.w_dumbbell_args(WS3_POINT["buffer_bytes"], seed, flows.name)
        result, wall = run_ns_direct(ns, [HERE / "overhead.tcl", OVERHEAD_NS / 1e9, *args])
        goodputs = [float(r["goodput_kbps"]) for r in run_paced.read_flows(flows.name)]
    return {"seed": seed, "overhead_ns": OVERHEAD_NS, "goodput_kbps_min": min(goodputs),
            "goodput_kbps_max": max(goodputs), "core_loss": float(result["core_loss"]), "wall_s": round(wall, 1)}


def report() -> None:
    from scipy.stats import wilcoxon

    rng = np.random.default_rng(1)
    ns2, base = ns2_rows("ws3").set_index("seed"), ours("ws3").set_index("seed")
    runs = pd.read_csv(OUT)
    print("| variant | seeds | measure | ns-2 | pacesim, exact ties | variant | variant / ns-2 [95 %] "
          "| variant / exact, Wilcoxon signed-rank p (paired by seed) |\n|---|---|---|---|---|---|---|---|")
    for variant, t in runs[runs.variant != "overhead"].groupby("variant", sort=False):
        t = t.drop_duplicates("seed").set_index("seed")
        for col, what in (("goodput_kbps_max", "best flow, Mb/s"), ("goodput_kbps_min", "worst flow, Mb/s")):
            a, e, b = (x.loc[t.index, col].to_numpy(dtype=float) / 1e3 for x in (ns2, base, t))
            lo, hi = interval(resampled_means(b, rng) / resampled_means(a, rng))
            print(f"| {variant} | {len(t)} | {what} | {a.mean():.1f} | {e.mean():.1f} | {b.mean():.1f} | "
                  f"{b.mean() / a.mean():.3f} [{lo:.3f}, {hi:.3f}] | {b.mean() / e.mean():.3f}, "
                  f"{max(wilcoxon(e, b).pvalue, 1e-4):.4f} |".replace("0.0001", "< 0.0001"))
    if not NS2_OUT.exists():
        return
    theirs = pd.read_csv(NS2_OUT).drop_duplicates("seed").set_index("seed")
    mine = runs[runs.variant == "overhead"].drop_duplicates("seed").set_index("seed")
    seeds = theirs.index.intersection(mine.index)
    for col, what in (("goodput_kbps_max", "best flow"), ("goodput_kbps_min", "worst flow"), ("core_loss", "loss")):
        print(f"\nWith the delayed send / without, paired by seed, {what}: ns-2 "
              f"{theirs.loc[seeds, col].mean() / ns2.loc[seeds, col].mean():.3f} (p "
              f"{wilcoxon(theirs.loc[seeds, col], ns2.loc[seeds, col]).pvalue:.4f}, {len(seeds)} seeds), pacesim "
              f"{mine[col].mean() / base.loc[mine.index, col].mean():.3f} (p "
              f"{wilcoxon(mine[col], base.loc[mine.index, col]).pvalue:.4f}, {len(mine)} seeds)")
    print(f"\nBoth with the delayed send, overhead {OVERHEAD_NS / 1e3:g} us: ns-2's seeds {len(theirs)}, pacesim's "
          f"{len(mine)} (a seed draws differently in each simulator: each side's mean over all its seeds):\n")
    print("\n".join(HEADER))
    for col, what, scale, loss in (("goodput_kbps_max", "best flow, Mb/s", 1e-3, False),
                                   ("goodput_kbps_min", "worst flow, Mb/s", 1e-3, False),
                                   ("core_loss", "core loss, %", 100, True)):
        a, b = (x[col].to_numpy(dtype=float) * scale for x in (theirs, mine))
        print(side_by_side(what, a, b, rng, loss=loss, digits=3 if loss else 1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("variant", choices=["index", "random", "overhead"])
    r.add_argument("--seeds", type=seed_range, default="1-100", help="A-B: the seeds A to B, both included")
    n = sub.add_parser("ns2")
    n.add_argument("--seeds", type=seed_range, default="1-100", help="A-B: the seeds A to B, both included")
    n.add_argument("--build", type=Path, default=Path(BUILD), help="build.sh's DIR (its READY names the binary)")
    n.add_argument("--jobs", type=int, default=2, choices=range(1, 65), metavar="1-64", help="ns-2 runs at once")
    sub.add_parser("report")
    args = ap.parse_args()
    if args.cmd == "report":
        report()
        return 0
    if args.cmd == "ns2":
        ns = binary(args.build, False)
        have = set(pd.read_csv(NS2_OUT).seed) if NS2_OUT.exists() else set()
        with ThreadPoolExecutor(args.jobs) as pool:
            for row in pool.map(lambda seed: run_ns2(ns, seed), [s for s in args.seeds if s not in have]):
                pd.DataFrame([row]).to_csv(NS2_OUT, mode="a", header=not NS2_OUT.exists(), index=False)
                print(row, flush=True)
        return 0
    have = set(pd.read_csv(OUT).query("variant == @args.variant").seed) if OUT.exists() else set()
    for seed in args.seeds:
        if seed not in have:
            pd.DataFrame([run_one(args.variant, seed)]).to_csv(OUT, mode="a", header=not OUT.exists(), index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
