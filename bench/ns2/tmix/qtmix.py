#!/usr/bin/env python3
"""Q-fig16's input through the project's QLBP in ns-2 2.35 and in pacesim: CV(s) of the bytes leaving the
pacer node PN (`qtmix.tcl`, pacesim's `q-tmix.toml`) on the same vectors.

    python bench/ns2/tmix/qtmix.py --ns NS [--qmax 0 5 10 20] [--end 200] [--cap 5]

NS is the ns-2 2.35 bench/ns2/tmix/build.sh makes (the project's Queue/QLBP, and Tmix's recycled one-way agents
reset whole: see there); QMAX 0 is no pacing. ns-2's Tmix
neither loops nor rescales its vectors, so both simulators read one file written here, locally, from Tmix's
sample-alt.cvec.gz (Debian's ns2-examples; its licence allows local copies, with its notice, and forbids
redistribution: the file goes to a temporary directory and is deleted, only CV values are committed): the
samples looped as pacesim's `rate = "16Mbps"` loops them (`traffic::tmix`: starts scaled so that the ADUs,
in 1500 B packets, average 16 Mb/s; one loop spans the starts plus one mean gap), each start rounded to the
microsecond, connections past END left out; with --cap W every window (`w` line) is cut to W segments of
1460 B, as paper Q's Q-fig16.1 cause was measured. pacesim also replays the sample with `rate` itself (its
own loop, the record's input) as a check that the written file is that loop. Writes
results/qtmix-<tag>.csv: simulator, input, q_max, scale_ms, cv.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

import pacesim  # the installed pacesim (see compare.py)
from pacesim.scenario import parse_scenario, read_toml, scenario_file
from pacesim.tmix import vectors_path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SAMPLE = "sample-alt.cvec.gz"
RATE_BPS, MSS, HEADER = 16e6, 1460, 40
BIN_US, SCALES = 5000, 11


def looped(sample: Path, out: Path, end_s: float, cap: int = 0) -> int:
    """Write `sample`'s vectors looped as pacesim's `rate` loops them (see the module's doc) until `end_s`, every
    window cut to `cap` segments when `cap`; the number of connections written."""
    lines = sample.read_text().splitlines()
    notice = [line for line in lines if line.startswith("#")]
    vectors, bits = [], 0
    for line in lines:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] in ("S", "C"):
            vectors.append([f, []])
        else:
            if f[0] in ("I", "A"):
                bits += math.ceil(int(f[-1]) / MSS) * (MSS + HEADER) * 8
            if f[0] == "w" and cap:
                f = ["w"] + [str(min(int(v), cap * MSS)) for v in f[1:3]]
            vectors[-1][1].append(" ".join(f))
    starts = [int(h[1]) for h, _ in vectors]
    n = len(vectors)
    span_s = (starts[-1] - starts[0]) * 1e-6 * n / (n - 1)
    scale = bits / RATE_BPS / span_s
    period_ns = round(span_s * scale * 1e9)
    written = 0
    with out.open("w") as w:
        w.write("\n".join(notice) + "\n")
        for play in range(10**6):
            for head, body in vectors:
                t_ns = round(int(head[1]) * 1000 * scale) + play * period_ns
                if t_ns >= end_s * 1e9:
                    return written
                w.write(" ".join([head[0], str(round(t_ns / 1000))] + head[2:]) + "\n" + "\n".join(body) + "\n")
                written += 1
    return written


def cv(bins: np.ndarray) -> dict:
    """CV at 5 ms x 2^k from bytes per 5 ms bin, as pacesim's burstiness recorder: whole blocks only,
    population variance."""
    out = {}
    for k in range(SCALES):
        m = len(bins) >> k
        if m < 2:
            break
        blocks = bins[: m << k].reshape(m, 1 << k).sum(axis=1).astype(float)
        out[(BIN_US << k) / 1000] = float(blocks.std() / blocks.mean())
    return out


def run_ns2(ns: str, cvec: Path, q_max: int, end: float, warmup: float, seed: int) -> dict:
    out = subprocess.run([ns, str(HERE / "qtmix.tcl"), str(cvec), str(cvec), str(end), str(warmup), str(q_max),
                          str(seed)], capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("BINS"))
    return cv(np.array([int(v) for v in line.split()[1:]]))


def run_pacesim(vectors: str, rate: bool, q_max: int, end: float, warmup: float, seed: int) -> dict:
    """pacesim's q-tmix on `vectors` (looped by its own `rate`, or read as they are), QLBP `q_max` (0: none)."""
    path = scenario_file("q-tmix")
    data = read_toml(path)
    data.update(seed=seed, duration=f"{end}s", warmup=f"{warmup}s")
    for cloud in data["traffic"]["tmix"]:
        cloud["vectors"] = vectors
        if not rate:
            del cloud["rate"]
    data["pacing"] = {**data["pacing"], "q_max": q_max} if q_max else {"scheme": "none"}
    r = pacesim.run(parse_scenario(data, path.parent), threads=1)
    b = r.burstiness
    return {us / 1000: float(beta) for us, beta in b["beta"].items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ns", required=True, help="ns-2 built by bench/ns2/tmix/build.sh")
    parser.add_argument("--qmax", nargs="*", type=int, default=[0, 5, 10, 20])
    parser.add_argument("--end", type=float, default=200.0)
    parser.add_argument("--warmup", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=int, default=0, help="cut every window to this many segments")
    args = parser.parse_args()
    tag = f"{int(args.end)}s-cap{args.cap}" if args.cap else f"{int(args.end)}s"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cvec = Path(tmp) / "looped.cvec"
        n = looped(Path(vectors_path(SAMPLE)), cvec, args.end, args.cap)
        print(f"{n} connections a cloud in {cvec}")
        for q in args.qmax:
            runs = {("ns-2", "file"): lambda: run_ns2(args.ns, cvec, q, args.end, args.warmup, args.seed),
                    ("pacesim", "file"): lambda: run_pacesim(str(cvec), False, q, args.end, args.warmup, args.seed)}
            if not args.cap:
                runs[("pacesim", "rate")] = lambda: run_pacesim(SAMPLE, True, q, args.end, args.warmup, args.seed)
            for (sim, how), go in runs.items():
                for scale, value in go().items():
                    rows.append((sim, how, q, scale, value))
                print(sim, how, q, [f"{v:.4f}" for (s, h, qq, _, v) in rows if (s, h, qq) == (sim, how, q)][:3])
    df = pd.DataFrame(rows, columns=["simulator", "input", "q_max", "scale_ms", "cv"])
    df.to_csv(RESULTS / f"qtmix-{tag}.csv", index=False, float_format="%.6g")


if __name__ == "__main__":
    main()
