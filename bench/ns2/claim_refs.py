#!/usr/bin/env python3
"""ns-2 at each claim's own setup (issue 31 Sec 4): the references that the
"ns-2 agrees" causes of python/pacesim/papers/{a,e}/causes.toml
cite, run on the setup and at the size the claim names, two seeds or more,
under the papers' reading of ns-2's defaults (the advertised window
`window_` 20, ns-2's own default: papers A and E state none).

    python3 bench/ns2/claim_refs.py --ns2 [--claim C ...] [--jobs 2]   # ns-2 rows missing from results/refs/<setup>.csv
    python bench/ns2/claim_refs.py --compare [--claim C ...] [--markdown bench/ns2/REFERENCES.md]
    python3 bench/ns2/claim_refs.py --list

`CLAIMS` holds each claim's points (setups in refs.py: `abase-size`,
`abase-fbm-rate`, `ebase-access`, `ebase-short-paced`, `abase-hurst`,
`abase-hurst-users`, `abase-empty`). `--ns2` runs up to JOBS ns-2 processes
at once at nice NICE (10 unless given), and resumes (rows already in the CSV
are skipped); `ebase-short-paced`'s host and edge points need ns-2 built
with bench/ns2/paced (`--paced BINARY`). `--compare` runs pacesim on every
committed row (refs.overrides: the same window) and writes, per claim, the
side-by-side table under the E-base tolerances into REFERENCES.md's last
section (run_refs.py keeps it).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import refs  # noqa: E402
import run_refs  # noqa: E402
from run_ebase import append, run_ns_all  # noqa: E402

WINDOW = 20  # ns-2's default window_: papers A's and E's reading
MARKER = run_refs.CLAIMS_MARKER


def grid(setup, seeds, duration, warmup, **axes):
    """Every combination of the list-valued axes (the others fixed), at each seed."""
    names = list(axes)
    values = [v if isinstance(v, list) else [v] for v in axes.values()]
    return [{"setup": setup, **dict(zip(names, combo)), "seed": s, "duration_s": duration, "warmup_s": warmup}
            for s in seeds for combo in product(*values)]


kb = lambda *b: [k * 1000 for k in b]  # noqa: E731
A_BUFFERS = kb(1, 2, 4, 6, 8, 11, 15, 20, 30, 40, 50)  # scenarios/A-fig21.toml
# The figures' grids (scenarios/A-fig13.toml, A-fig15.toml) thinned to the points that place a minimum and a rise.
A13_BUFFERS = kb(1, 2, 4, 6, 8, 11, 20, 50)
A15_BUFFERS = kb(1, 2, 4, 8, 11, 20, 50)
A15 = [(100, 80, 100), (100, 90, 100), (200, 180, 200)]  # core, UDP, UDP access Mb/s (scenarios/A-fig15.toml)


def afig15(scale, seeds, duration, warmup):
    return [p for core, udp, access in A15 for p in grid(
        "abase-fbm-rate", seeds, duration, warmup, scale=scale, window=WINDOW, core_rate_mbps=core,
        udp_rate_mbps=udp, udp_access_mbps=access, buffer_bytes=A15_BUFFERS)]


def by_point(setup, points, names, seeds=(1, 2)):
    """The paper's size (scale 1, window_ 20, 100 s over [30, 100] s, as the x0.1 rows) at each of `points`
    (values of the axes `names`), its seeds one after the other: a queue stopped early has both seeds of the
    points it finished."""
    return [p for values in points
            for p in grid(setup, list(seeds), 100, 30, scale=1, window=WINDOW, **dict(zip(names, values)))]


A17_LENGTH = (151, 20)  # s, A-fig17's run and warmup here: the figure runs 800 s from 200 s, five times the CPU


# claim -> (what the points are, the points). A tenth of the size (x0.1: a tenth of the flows and of every rate,
# each flow keeping its share of the core) where ns-2 cannot run the paper's size on this machine in time.
CLAIMS = {
    "A-fig21.2": ("A-fig21's setup: 1000 flows on 100 Mb/s (x0.1: 100 on 10), 5 Mb/s Poisson UDP of 40 and 1000 B "
                  "packets, the figure's buffer grid; at the paper's size 40 B at 4, 6, 8, 11, 30 KB and 1000 B at "
                  "2, 11, 50 KB",
                  grid("abase-size", [1, 2], 100, 30, scale=0.1, window=WINDOW, udp_size=[40, 1000],
                       buffer_bytes=A_BUFFERS)
                  # The paper's size at the points that place the 40 B curve's lowest and its peak and the 1000 B
                  # curve's fall.
                  + by_point("abase-size", [(40, b) for b in kb(4, 8, 11, 30)] + [(1000, b) for b in kb(2, 11, 50)]
                             + [(40, b) for b in kb(6)], ("udp_size", "buffer_bytes"))),
    "A-fig15.1": ("A-fig15's three variants: fBm UDP (H 0.85, 200 B) at 80 and 90 of 100 Mb/s and 180 of 200 Mb/s, "
                  "1000 flows (x0.1: 100), UDP access at 100 Mb/s (200 for 180), seven of the figure's ten "
                  "buffers; at the paper's size each variant at 2 and 50 KB",
                  afig15(0.1, [1, 2], 100, 30)
                  # The paper's size, each variant: the rise from the smallest buffer that passes TCP to the largest.
                  + by_point("abase-fbm-rate", [(core, udp, access, b) for core, udp, access in A15 for b in kb(2, 50)],
                             ("core_rate_mbps", "udp_rate_mbps", "udp_access_mbps", "buffer_bytes"))),
    "A-fig13.2": ("A-fig13's setup: 1000 flows on a 200 Mb/s core (x0.1: 100 on 20), fBm UDP (H 0.85, 200 B) at 5, "
                  "10, 15, 20 % of the core from a 100 Mb/s access link, eight of the figure's eleven buffers; at "
                  "the paper's size 5 % at 4, 6, 11 KB, 20 % at 2, 4 KB, 10 % at 2, 4 KB and 15 % at 2 KB",
                  grid("abase-fbm-rate", [1, 2], 100, 30, scale=0.1, window=WINDOW, core_rate_mbps=200,
                       udp_rate_mbps=[10, 20, 30, 40], udp_access_mbps=100, buffer_bytes=A13_BUFFERS)
                  # The paper's size at 5 and 20 %: where the loss is nil, and the peak after the rise.
                  + by_point("abase-fbm-rate", [(200, u, 100, b) for u, bs in ((10, kb(4, 6, 11)), (40, kb(2, 4)),
                                                                            (20, kb(2, 4)), (30, kb(2)))
                                                for b in bs],
                             ("core_rate_mbps", "udp_rate_mbps", "udp_access_mbps", "buffer_bytes"))),
    "A-fig8.1": ("A-fig8's setup: 100, 500, 1000 and 2000 long-lived flows on the 200 Mb/s core, 50 KB, 151 s "
                 "measured from 15 s",
                 grid("abase-hurst", [1, 2], 151, 15, scale=1, window=WINDOW, hosts=[100, 500, 1000, 2000],
                      buffer_bytes=kb(50))),
    "A-fig7.1": ("A-fig7's setup: 2000 flows on the 200 Mb/s core, all long-lived or all closed-loop users (Pareto "
                 "files mean 100 KB, shape 1.5, think 1 s), 50 and 6250 KB, 151 s measured from 15 s",
                 [p for s in (1, 2) for setup in ("abase-hurst", "abase-hurst-users")
                  for p in grid(setup, [s], 151, 15, scale=1, window=WINDOW, hosts=2000, buffer_bytes=kb(50, 6250))]),
    "A-fig17.2": ("A-fig17's setup: 2000 flows on the 200 Mb/s core, all closed-loop users (shape 1.5) or all "
                  "long-lived, P(core queue empty) at 8, 15, 30, 50 KB (the figure's grid within 8-50 KB, thinned), "
                  f"{A17_LENGTH[0]} s measured from {A17_LENGTH[1]} s",
                  # Seed 1 first; the fit's ends (8 and 30 KB) before its middle and its top, at each all long
                  # (about a minute of ns-2 CPU a run) before all users (several).
                  [p for s in (1, 2) for bs in (kb(8, 30), kb(15, 50)) for f in (0.0, 1.0)
                   for p in grid("abase-empty", [s], *A17_LENGTH, scale=1, window=WINDOW, fraction=f,
                                 buffer_bytes=bs)]),
    "E-fig5.4": ("E-fig5's setup: E-base, 1000 flows, 100 Mb/s access links, unpaced, 15-30 KB",
                 grid("ebase-access", [1, 2], 200, 50, scale=1, window=WINDOW, buffer_bytes=kb(15, 20, 30))),
    "E-fig6": ("E-fig6's setup: 1000 closed-loop users (x0.1: 100), Pareto files mean 100 KB shape 1.2, think "
               "1 s; none, host (tcp-paced.cc, original) and edge (d = 10 ms) at 10 KB, edge also at 5 and 20 KB; "
               "at the paper's size edge at 10 KB, seed 1",
               grid("ebase-short-paced", [1, 2], 100, 30, scale=0.1, window=WINDOW, scheme=["none", "host", "edge"],
                    buffer_bytes=kb(10))
               + grid("ebase-short-paced", [1, 2], 100, 30, scale=0.1, window=WINDOW, scheme="edge",
                      buffer_bytes=kb(5, 20))
               # The paper's size, one seed: 1000 users, 200 s over [50, 200] s.
               + grid("ebase-short-paced", [1], 200, 50, scale=1, window=WINDOW, scheme=["edge", "host"],
                      buffer_bytes=kb(10))),
}


# Claims whose pacesim side plays the very UDP packets of each ns-2 run (refs.ns2_udp_override: the same fBm trace
# from the record ns-2 starts at) in place of pacesim's own fBm source. A-fig15's TCP lives on the 10-20 % of the
# core that UDP leaves, so it moves by UDP's mean over the window times UDP/TCP (4-100x): pacesim's source, alike in
# law, puts that mean 0.9 Mb/s (sd over 20 seeds, 80 of 100 Mb/s over [30, 100] s) from ns-2's, which the looped
# 4.2 s trace pins to the rate, and per-flow goodput 6-26 % apart; on the same packets the engines are compared.
SAME_UDP = {"A-fig15.1"}


def simulate_ns2_udp(point):
    """pacesim at an fBm row's point, playing the UDP packets ns-2 sent (from the row's udp_trace_start)."""
    start = point.get("udp_trace_start")
    with tempfile.TemporaryDirectory() as tmp:
        udp = refs.ns2_udp_override(point, Path(tmp), start if isinstance(start, int) else None)
        return run_refs.simulate(point, udp)


def rows_of(claim):
    """The committed ns-2 rows of a claim's points."""
    want = {(p["setup"], refs.key(p)) for p in CLAIMS[claim][1]}
    setups = {p["setup"] for p in CLAIMS[claim][1]}
    return [r for s in setups for r in run_refs.load(s) if (s, refs.key(r)) in want]


_lock = threading.Lock()


def run_point(p, paced, nice):
    stock = p["setup"] != "ebase-short-paced" or p["scheme"] == "none"
    with tempfile.TemporaryDirectory() as tmp:
        args = refs.ns2_args(p, Path(tmp))
        tag = f"{p['setup']}_" + "_".join(refs.key(p))
        m = run_ns_all(["-n", str(nice), "ns" if stock else paced, *args], tag, binary="nice")
        if p["setup"] == "abase-fbm-rate":  # where ns-2 started its UDP trace (SAME_UDP's comparisons play it)
            m["udp_trace_start"] = refs.ns2_trace_start(p, (Path(tmp) / "udp.bin").stat().st_size // 8)
    if "beta_10" in m:  # abase-hurst: the slope over 1-65 ms too, as refs.measure takes pacesim's
        m["hurst_65ms"] = f"{refs.slope_hurst({2.0 ** k: m[f'beta_{k}'] for k in refs.HURST_SHORT}):.4f}"
    row = {k: p[k] for k in refs.PARAMS[p["setup"]] + ["seed", "duration_s", "warmup_s"]} | m
    with _lock:  # one writer at a time; a row may bring columns the file lacks: keep the file's own header
        path = run_refs.RESULTS / f"{p['setup']}.csv"
        cols = list(row)
        if path.exists():
            with path.open() as f:
                cols = f.readline().strip().split(",")
        append(path, {k: row.get(k, "") for k in cols}, cols)
    print(f"{tag}: " + " ".join(f"{k}={m[k]}" for k in list(m)[:12]), flush=True)


def run_ns2(claims, jobs, paced, nice):
    run_refs.RESULTS.mkdir(parents=True, exist_ok=True)
    done = {(s, refs.key(r)) for s in refs.SETUPS for r in run_refs.load(s)}
    todo = [p for c in claims for p in CLAIMS[c][1] if (p["setup"], refs.key(p)) not in done]
    seen, unique = set(), []
    for p in todo:  # claims may share points
        k = (p["setup"], refs.key(p))
        if k not in seen:
            seen.add(k)
            unique.append(p)
    # Two queues, one process each: the x0.1 points, and the long ones (full size, paced builds) beside them,
    # each in the order the claims are given, a claim's cheapest points first.
    order = {c: i for i, c in enumerate(claims)}
    owner = {(p["setup"], refs.key(p)): order[c] for c in reversed(claims) for p in CLAIMS[c][1]}
    unique.sort(key=lambda p: (owner[p["setup"], refs.key(p)], p.get("scale", 1), p["duration_s"]))
    light = [p for p in unique if p.get("scale", 1) < 1 and p["setup"] != "ebase-short-paced"]  # seconds each
    queues = [light, [p for p in unique if p not in light]] if jobs > 1 else [unique]
    with ThreadPoolExecutor(len(queues)) as pool:
        for f in [pool.submit(lambda q: [run_logged(p, paced, nice) for p in q], q) for q in queues]:
            f.result()


LOCKS = Path(tempfile.gettempdir()) / "claim_refs.locks"


def run_logged(p, paced, nice):
    """run_point unless another runner has taken the point (a lock file per point: runners started one after
    another share the work); a failure reported instead of stopping its queue."""
    LOCKS.mkdir(exist_ok=True)
    try:
        (LOCKS / (f"{p['setup']}_" + "_".join(refs.key(p)))).open("x").close()
    except FileExistsError:
        return
    try:
        run_point(p, paced, nice)
    except Exception as e:  # noqa: BLE001
        print(f"FAILED {p}: {e}", flush=True)


PACESIM = run_refs.RESULTS / "claims-pacesim.csv"
"""pacesim's output at the ns-2 rows' points (written by --compare; --fresh reruns them all)."""


def pacesim_rows(rows, workers, fresh=False, same_udp=False):
    """pacesim at each ns-2 row's point (run_refs.simulate; simulate_ns2_udp if `same_udp`), from PACESIM where it
    has the point run the same way (its `udp` column: "ns-2's packets" or "own")."""
    import csv
    from concurrent.futures import ProcessPoolExecutor

    have = {}
    if PACESIM.exists() and not fresh:
        with PACESIM.open() as f:
            have = {(r["setup"], r["key"]): r for r in csv.DictReader(f)}
    udp = "ns-2's packets" if same_udp else "own"
    ident = lambda r: (r["setup"], "_".join(refs.key(r)))  # noqa: E731
    run_as = lambda r: have[ident(r)].get("udp") or "own"  # noqa: E731  (rows from before the column: own)
    todo = [r for r in rows if ident(r) not in have or run_as(r) != udp]
    cols = ["setup", "key", "udp"] + sorted({m for s in refs.CLAIM_SETUPS for m in refs.SETUPS[s][3]})
    with ProcessPoolExecutor(workers) as pool:
        for r, ours in zip(todo, pool.map(simulate_ns2_udp if same_udp else run_refs.simulate, todo)):
            have[ident(r)] = {"setup": r["setup"], "key": ident(r)[1], "udp": udp,
                              **{m: ours[m] for m in refs.SETUPS[r["setup"]][3]}}
            with PACESIM.open("w", newline="") as f:  # after each run: an interrupted compare keeps its work
                w = csv.DictWriter(f, cols, restval="")
                w.writeheader()
                w.writerows(sorted(have.values(), key=lambda r: (r["setup"], r["key"])))
    return [{**r, **{m: float(have[ident(r)][m]) for m in refs.SETUPS[r["setup"]][3]}} for r in rows]


def tables(claims, workers, fresh=False, where=()):
    lines = [MARKER, "", "Generated by `python bench/ns2/claim_refs.py --compare ... --markdown bench/ns2/REFERENCES.md` "
             "(README.md, \"At each claim's own setup\", gives the command)",
             "from the committed ns-2 rows of the points in `claim_refs.py`, each on the setup its claim names, under",
             f"ns-2's default advertised window (`window_` {WINDOW}, papers A's and E's reading), pacesim with the",
             "same `tcp.window`. Same tolerances as above. x0.1: a tenth of the flows and of every rate (each flow keeps",
             "its share of the core), where the paper's size does not fit this machine's time. pacesim's numbers:",
             "`results/refs/claims-pacesim.csv`.", ""]
    for c in claims:
        rows = [r for r in rows_of(c) if all(str(r[k]) in v.split("|") for claim, k, v in where if claim == c)]
        lines += [f"### {c}: {CLAIMS[c][0]}", ""]
        only = [f"{k} = {' or '.join(v.split('|'))}" for claim, k, v in where if claim == c]
        if only:
            lines += [f"pacesim compared on the rows with {', '.join(only)} only; the other ns-2 rows are in "
                      f"`results/refs/`.", ""]
        if not rows:
            lines += ["No ns-2 row yet.", ""]
            continue
        if c in SAME_UDP:
            lines += ["pacesim plays the UDP packets each ns-2 run sent (the same fBm trace from the record ns-2 started "
                      "at), not its own fBm source: `SAME_UDP` in `claim_refs.py` says why.", ""]
        t = run_refs.compare(rows, ours=pacesim_rows(rows, workers, fresh, same_udp=c in SAME_UDP))
        lines.append(run_refs.tables(t).replace("### ", "#### "))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ns2", action="store_true")
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--claim", action="append", choices=list(CLAIMS))
    ap.add_argument("--jobs", type=int, default=2, help="ns-2 processes at once (default 2)")
    ap.add_argument("--nice", type=int, default=10, help="ns-2's nice level (default 10)")
    ap.add_argument("--paced", default="/work/ns2-edge/ns-2.35/ns", help="ns-2 built by bench/ns2/paced/build.sh")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--where", action="append", default=[], metavar="CLAIM:KEY=VALUE",
                    help="--compare only this claim's rows with this value, or one of VALUE|VALUE... "
                         "(e.g. A-fig13.2:udp_rate_mbps=10|40)")
    ap.add_argument("--fresh", action="store_true", help="rerun pacesim on every point (ignore claims-pacesim.csv)")
    a = ap.parse_args()
    claims = a.claim or list(CLAIMS)
    if a.list:
        for c in claims:
            print(c, CLAIMS[c][0], len(CLAIMS[c][1]), "points")
            for p in CLAIMS[c][1]:
                print("   ", refs.key(p))
    if a.ns2:
        run_ns2(claims, a.jobs, a.paced, a.nice)
    if a.compare:
        where = [(w.split(":", 1)[0], *w.split(":", 1)[1].split("=", 1)) for w in a.where]
        text = tables(claims, a.workers, a.fresh, where)
        print(text)
        if a.markdown:
            old = a.markdown.read_text() if a.markdown.exists() else ""
            head = old.split(MARKER)[0].rstrip("\n")
            a.markdown.write_text(head + "\n\n" + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
