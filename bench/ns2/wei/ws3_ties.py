#!/usr/bin/env python3
"""W-s3 at 15 MB with pacesim's exact ties at r0 broken: how much of the best and worst flow is the order of
packets that reach the router at the same nanosecond.

W-s3's network (ws5.tcl's: five senders on 1 Gb/s, 1 ms access links into r0, the core 1 Gb/s, 4 ms) puts every
link on the core's 12 us grid, so packets of different flows reach r0 at the same instant all the time: pacesim
orders them by when their arrival was scheduled, ns-2's double clock by the rounding of its sums (PACESIM.md,
"Event by event"). This script reruns pacesim's side of `seeds.py`'s W-s3 (5 unpaced Reno flows, cross traffic,
15 MB, 200 s, window cuts from flight) with the network written out as a graph whose access link `access.i`
(both halves) has a delay of 1 ms plus an offset, so no two senders' packets tie at r0:

- `index`: flow i's offset is i ns (0-4 ns);
- `random`: each flow's offset drawn from 0-999 ns, per seed (numpy's generator seeded with the seed).

An offset holds for the whole run, so it does not break ties at random: it gives the flows a fixed order at r0
(the smallest offset first), a static priority that ns-2's rounding is not shown to have. The cross traffic's
link keeps 1 ms, so flow 0 of `index` (and an offset of 0, or two equal offsets, of `random`) still ties.

With every offset 0 the graph gives `seeds.py`'s rows to the last digit (checked on seed 1). Rows go to
results/pacesim/ws3-ties.csv (variant, seed, goodputs, loss; a stopped run resumes); `report` puts them beside
ns-2's and pacesim's unperturbed rows (results/ws3.csv, results/pacesim/ws3-15mb.csv), with seeds.py's
intervals (5,000 percentile bootstrap resamples).

    PYTHONPATH=python python bench/ns2/wei/ws3_ties.py run index|random [--seeds 1-100]
    PYTHONPATH=python python bench/ns2/wei/ws3_ties.py report
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from seeds import OURS, WS3_POINT, interval, ns2_rows, ours, resampled_means  # noqa: E402
from support.ns2_wei import W_DUMBBELL, WEI  # noqa: E402  (seeds.py put tests/ on the path)

OUT = OURS / "ws3-ties.csv"
GIGABIT, MS = 1_000_000_000, 1_000_000


def offsets(variant: str, seed: int) -> list[int]:
    """Each flow's extra access delay, ns."""
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

    p = WS3_POINT
    s = pacesim.apply_overrides(pacesim.load_scenario(W_DUMBBELL), [
        f"topology.flows={p['flows']}", f"core.rate={p['rate_mbps']}Mbps", f"core.delay={p['core_delay_ms']}ms",
        f"core.buffer={p['buffer_bytes']}B", f"tcp.segment_size={p['packet_bytes'] - 40}B", "tcp.window=100000",
        "tcp.variant=reno", f"duration={p['duration_s']}s", f"warmup={p['warmup_s']}s",
        'traffic.start=["0s", "120ms"]', f"seed={seed}", "pacing.scheme=none", *WEI,
        f'traffic.udp=[{{kind = "onoff", rate = "{p["cross_mbps"]}Mbps", size = "210B", on = "500ms", '
        'off = "500ms", from = "x-src", to = "x-dst"}]'])
    engine = json.loads(s.engine_json())
    engine["topology"] = graph(offsets(variant, seed))
    r = json.loads(_core.run_json(schema.checked(json.dumps(engine)), None, 1))
    goodputs = r["flows"]["goodput_kbps"]  # the report keeps its flows by column
    return {"variant": variant, "seed": seed, "goodput_kbps_min": min(goodputs), "goodput_kbps_max": max(goodputs),
            "core_loss": r["summary"]["core_loss_rate"], "engine": pacesim.ENGINE_VERSION}


def report() -> None:
    from scipy.stats import wilcoxon

    rng = np.random.default_rng(1)
    ns2, base = ns2_rows("ws3").set_index("seed"), ours("ws3").set_index("seed")
    runs = pd.read_csv(OUT)
    print("| offsets | seeds | measure | ns-2 | pacesim, exact ties | fixed offsets | offsets / ns-2 [95 %] "
          "| offsets / exact, Wilcoxon signed-rank p (paired by seed) |\n|---|---|---|---|---|---|---|---|")
    for variant, t in runs.groupby("variant", sort=False):
        t = t.drop_duplicates("seed").set_index("seed")
        for col, what in (("goodput_kbps_max", "best flow, Mb/s"), ("goodput_kbps_min", "worst flow, Mb/s")):
            a, e, b = (x.loc[t.index, col].to_numpy(dtype=float) / 1e3 for x in (ns2, base, t))
            lo, hi = interval(resampled_means(b, rng) / resampled_means(a, rng))
            print(f"| {variant} | {len(t)} | {what} | {a.mean():.1f} | {e.mean():.1f} | {b.mean():.1f} | "
                  f"{b.mean() / a.mean():.3f} [{lo:.3f}, {hi:.3f}] | {b.mean() / e.mean():.3f}, "
                  f"{max(wilcoxon(e, b).pvalue, 1e-4):.4f} |".replace("0.0001", "< 0.0001"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("variant", choices=["index", "random"])
    r.add_argument("--seeds", default="1-100", help="A-B: the seeds A to B, both included")
    sub.add_parser("report")
    args = ap.parse_args()
    if args.cmd == "report":
        report()
        return 0
    have = set(pd.read_csv(OUT).query("variant == @args.variant").seed) if OUT.exists() else set()
    first, last = (int(x) for x in args.seeds.split("-"))
    for seed in range(first, last + 1):
        if seed not in have:
            pd.DataFrame([run_one(args.variant, seed)]).to_csv(OUT, mode="a", header=not OUT.exists(), index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
