#!/usr/bin/env python3
"""pacesim on the setups of paper A's ns-2 points (causes_e.py --paper a),
beside ns-2's rows: the comparison the causes of A-fig7.1, A-fig8.1 and
A-fig17.2 in python/pacesim/papers/a/causes.toml cite.

Each point's abase.tcl arguments become overrides of scenarios/a-base.toml:
`hosts` TCP flows on a `core` b/s core with a `buffer` B drop-tail limit,
run `duration` s measured from `warmup` s, seed 1; `short F,MEAN,SHAPE,THINK`
makes that share closed-loop users (Pareto files, exp. think time); `hurst 1`
asks for beta(s) of the core's arrivals (pacesim's `hurst_1ms`, the slope of
ln beta over 1 ms-8.4 s, as abase.tcl's bins of 1.024 ms; and the slope over
1-65 ms alone, `hurst_65ms`, a reading of the paper's "flattens beyond ~1 ms");
`empty_gap`
compares P(core queue empty) (pacesim: its time average, ns-2: Poisson
samples of it).

    python bench/ns2/pacesim_a.py [--only TAG ...]

Output: results/causes-a-pacesim.csv, one row per point of causes-a.csv:
tag, pacesim's hurst / hurst_65ms / empty_prob / core_mbps and ns-2's beside them.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

import pacesim
from refs import slope_hurst  # noqa: E402  (bench/ns2 is the script's directory)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
NS2 = HERE / "results" / "causes-a.csv"
OUT = HERE / "results" / "causes-a-pacesim.csv"
COLUMNS = ["tag", "claims", "hurst_ns2", "hurst_pacesim", "hurst_65ms_ns2", "hurst_65ms_pacesim", "empty_prob_ns2",
           "empty_prob_pacesim", "core_mbps_ns2", "core_mbps_pacesim"]
# Scales 2^k us, k = 10..16 (1.024-65.5 ms): both sides' bins, where the paper's "flattens beyond ~1 ms" is read.
SHORT_SCALES = range(10, 17)


def overrides(args: list[str]) -> list[str]:
    """pacesim's overrides of a-base.toml for abase.tcl's `args` (name value pairs)."""
    opt = dict(zip(args[::2], args[1::2]))
    out = ["topology.kind=a-base", f"topology.tcp_hosts={opt['hosts']}", f"core.rate={float(opt['core']):.0f}bps",
           f"core.buffer={opt['buffer']}B", f"seed={opt['seed']}", f"duration={opt['duration']}s",
           f"warmup={opt['warmup']}s",
           f"tcp.window={opt.get('window', 1000)}"]  # abase.tcl's window_, 1000 unless given
    if "short" in opt:
        fraction, mean, shape, think = opt["short"].split(",")
        out += [f"traffic.short.fraction={fraction}", f"traffic.short.mean_size={mean}B",
                f"traffic.short.shape={shape}", f"traffic.short.mean_think={think}s"]
    if opt.get("hurst") == "1":
        out.append('burstiness={link = "core", bin = "1us", scales = 24}')
    return out


def run(row: dict) -> dict:
    scenario = pacesim.apply_overrides(pacesim.load_scenario(ROOT / "scenarios" / "a-base.toml"),
                                       overrides(row["args"].split()))
    result = pacesim.run(scenario)
    m = result.metrics
    out = {"tag": row["tag"], "claims": row["claims"]}
    if result.burstiness is not None:
        beta = result.burstiness["beta"]
        ours = slope_hurst({float(2**k): beta.loc[float(2**k)] for k in SHORT_SCALES})
        theirs = slope_hurst({float(2**k): float(row[f"beta_{k}"]) for k in SHORT_SCALES})
        out.update(hurst_65ms_ns2=f"{theirs:.4f}", hurst_65ms_pacesim=f"{ours:.4f}")
    for name, ours in (("hurst", m.get("hurst_1ms")), ("empty_prob", m.get("core_empty_prob")),
                       ("core_mbps", m.get("aggregate_mbps"))):
        out[f"{name}_ns2"] = row.get(name, "")
        out[f"{name}_pacesim"] = "" if ours is None else f"{ours:.6g}"
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", help="tags to run (default: every ns-2 row not yet compared)")
    a = ap.parse_args()
    with NS2.open() as f:
        ns2 = list(csv.DictReader(f))
    done = []
    if OUT.exists():
        with OUT.open() as f:
            done = list(csv.DictReader(f))
    for row in ns2:
        if (a.only and row["tag"] not in a.only) or any(d["tag"] == row["tag"] for d in done):
            continue
        done.append(run(row))
        with OUT.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(done)
        print(done[-1], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
