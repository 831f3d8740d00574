#!/usr/bin/env python3
"""A-fig8.1 at 100 flows over many seeds, in both simulators (issue 31 Sec 4: ns-2 2.35 and pacesim part on the
Hurst parameter over 1 ms-8.4 s at 100 flows, window_ 20, seeds 1-2: 0.56 / 0.42 against 0.36 / 0.31 in the record).

    python3 bench/ns2/afig8_seeds.py --ns2 FIRST LAST [--nice 10]   # ns-2 rows missing from the CSV
    python bench/ns2/afig8_seeds.py --pacesim FIRST LAST              # pacesim's rows (rewritten)
    python3 bench/ns2/afig8_seeds.py --summary

At 100 flows window_ 20 holds every flow (about 132 of the core's 200 Mb/s) and the core drops packets only in a
few episodes, when enough flows' windows (trains at the 10 Mb/s access rate) meet at the core; the slope over the
slow scales follows how many episodes a run has. One row per simulator and seed of abase-hurst's 100-flow point
(claim_refs.py's, refs.overrides for pacesim): core_mbps, hurst (1 ms-8.4 s), hurst_65ms (1-65 ms), the core's
drops and episodes (drops apart by less than 1 s; pacesim's drops counted per 100 ms) over the measured [15, 151] s,
and the flows' retransmission timeouts: pacesim's over [15, 151] s, ns-2's over the whole run (ns2_drops.tcl reads
its agents' counters at the end; some seeds drop before 15 s), so ns-2's may be a few higher.
results/refs/afig8-100-seeds.csv.
"""

import argparse
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import refs  # noqa: E402

OUT = refs.HERE / "results" / "refs" / "afig8-100-seeds.csv"
COLS = ["sim", "seed", "core_mbps", "hurst", "hurst_65ms", "drops", "episodes", "timeouts"]
EPISODE_GAP_S = 1.0


def point(seed):
    return {"setup": "abase-hurst", "scale": 1, "window": 20, "hosts": 100, "buffer_bytes": 50000, "seed": seed,
            "duration_s": 151, "warmup_s": 15}


def episodes(times):
    """Drops (times, s, sorted) grouped into episodes: a gap of EPISODE_GAP_S or more starts a new one."""
    return sum(1 for i, t in enumerate(times) if i == 0 or t - times[i - 1] >= EPISODE_GAP_S)


def ns2_row(seed, nice):
    p = point(seed)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        drops, counts = tmp / "drops.txt", tmp / "counts.csv"
        args = refs.ns2_args(p, tmp)
        out = subprocess.run(["nice", "-n", str(nice), "ns", str(refs.HERE / "ns2_drops.tcl"), drops, counts,
                              *map(str, args[1:])], capture_output=True, text=True, check=True).stdout
        m = dict(kv.split("=") for kv in out.split("RESULT", 1)[1].split())
        times = sorted(float(line.split()[1]) for line in drops.read_text().splitlines()
                       if float(line.split()[1]) >= p["warmup_s"])
        with counts.open() as f:
            timeouts = sum(int(r["timeouts"]) for r in csv.DictReader(f))
    short = refs.slope_hurst({2.0 ** k: m[f"beta_{k}"] for k in refs.HURST_SHORT})
    return {"sim": "ns-2", "seed": seed, "core_mbps": float(m["core_mbps"]), "hurst": float(m["hurst"]),
            "hurst_65ms": round(short, 4), "drops": len(times), "episodes": episodes(times), "timeouts": timeouts}


def pacesim_row(seed):
    import pacesim

    p = point(seed)
    s = pacesim.apply_overrides(pacesim.load_scenario(refs.ROOT / "scenarios" / "a-base.toml"),
                                refs.overrides(p) + ['series={links = ["core"], interval = "100ms"}'])
    r = pacesim.run(s)
    m = refs.measure(r, p)
    d = r.series[(r.series.series == "drops") & (r.series.time_s >= p["warmup_s"]) & (r.series.value > 0)]
    times = sorted(t for t, n in zip(d.time_s, d.value) for _ in range(int(n)))  # per 100 ms bin
    return {"sim": "pacesim", "seed": seed, "core_mbps": round(m["core_mbps"], 4), "hurst": round(m["hurst"], 4),
            "hurst_65ms": round(m["hurst_65ms"], 4), "drops": len(times), "episodes": episodes(times),
            "timeouts": int(r.flows.timeouts.sum())}


def load():
    if not OUT.exists():
        return []
    with OUT.open() as f:
        return list(csv.DictReader(f))


def save(rows):
    rows = sorted(rows, key=lambda r: (r["sim"], int(r["seed"])))
    with OUT.open("w", newline="") as f:
        w = csv.DictWriter(f, COLS)
        w.writeheader()
        w.writerows(rows)


def summary(rows):
    import statistics as st

    for sim in ("ns-2", "pacesim"):
        rs = [r for r in rows if r["sim"] == sim]
        if not rs:
            continue
        line = [f"{sim}: {len(rs)} seeds"]
        for k in COLS[2:]:
            xs = [float(r[k]) for r in rs]
            line.append(f"{k} mean {st.mean(xs):.3f} median {st.median(xs):.3f} [{min(xs):g}, {max(xs):g}]")
        print("; ".join(line))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ns2", nargs=2, type=int, metavar=("FIRST", "LAST"))
    ap.add_argument("--pacesim", nargs=2, type=int, metavar=("FIRST", "LAST"))
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--nice", type=int, default=10)
    a = ap.parse_args()
    rows = load()
    if a.ns2:
        have = {int(r["seed"]) for r in rows if r["sim"] == "ns-2"}
        for seed in range(a.ns2[0], a.ns2[1] + 1):
            if seed not in have:
                rows.append(ns2_row(seed, a.nice))
                save(rows)
                print(rows[-1], flush=True)
    if a.pacesim:
        seeds = range(a.pacesim[0], a.pacesim[1] + 1)
        rows = [r for r in rows if not (r["sim"] == "pacesim" and int(r["seed"]) in seeds)]
        for seed in seeds:
            rows.append(pacesim_row(seed))
            save(rows)
            print(rows[-1], flush=True)
    summary(rows)


if __name__ == "__main__":
    main()
