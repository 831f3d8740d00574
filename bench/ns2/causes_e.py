#!/usr/bin/env python3
"""ns-2 points that decide paper E's missed claims (issue 17 Sec 3), and with
`--paper a` paper A's: the causes in python/pacesim/papers/e/causes.toml
(paper_a.toml) cite the rows this writes.

Each point runs one of bench/ns2's E-base scripts on the paper's stated setup
(1000 flows unless the point says otherwise, seed 1, 200 s measured over
[50, 200] s, as bench/ns2/results/ebase.csv): stock ns-2 2.35 (/usr/bin/ns)
for unpaced points, ns-2 built with bench/ns2/paced (/work/ns2-edge, `build.sh`)
for host pacing (`ebase_host.tcl`, tcp-paced.cc, original) and the edge pacer
(`ebase_edge.tcl`, Queue/EdgePacer). One process at a time, niced; points
already in the CSV are skipped, so a rerun resumes.

    python bench/ns2/causes_e.py [--paper e|a] [--only TAG ...] [--list]

Paper A's points (A_POINTS) run bench/ns2/abase.tcl with stock ns-2.
Output: results/causes-e.csv (causes-a.csv), one row per point: tag, the claims it serves,
the script and its arguments, and the RESULT line's metrics with wall_s.
"""

from __future__ import annotations

import argparse
import csv
import fcntl
import re
import subprocess
import tempfile
import time
from pathlib import Path

import refs

HERE = Path(__file__).resolve().parent
OUT = {paper: HERE / "results" / f"causes-{paper}.csv" for paper in "ea"}
STOCK = "/usr/bin/ns"
PACED = "/work/ns2-edge/ns-2.35/ns"  # built by bench/ns2/paced/build.sh: tcp-paced.cc and Queue/EdgePacer
METRICS = ["aggregate_mbps", "goodput_kbps_mean", "core_loss", "goodput_kbps_paced", "goodput_kbps_unpaced",
           "pacer_delay_ms_mean", "transfers", "transfer_goodput_kbps_mean", "core_mbps", "tcp_mbps", "udp_loss",
           "udp_arrivals", "empty_prob", "empty_samples", "hurst"] + [f"beta_{k}" for k in range(10, 24)]
COLUMNS = ["tag", "claims", "script", "args"] + METRICS + ["wall_s"]


def ebase(buffer_kb: float, flows: int = 1000, variant: str = "", sink: str = "", queue: str = "",
          short: bool = False, long: bool = False) -> list:
    """ebase.tcl's arguments, FLOWS_CSV as "{csv}": EDGES HOSTS BUFFER SEED T W CSV [VARIANT SINK QUEUE];
    200 s over [50, 200] s, with `short` 100 s over [30, 100] s (points whose margin is wide), with `long`
    the paper's 400 s over [100, 400] s."""
    tail = [variant, sink, queue] if (variant or sink or queue) else []
    run = ["100", "30"] if short else ["400", "100"] if long else ["200", "50"]
    return ["10", str(flows // 10), str(int(buffer_kb * 1000)), "1"] + run + ["{csv}"] + tail




def udp(source: str, script: str, *args: str, buffer_kb: float) -> list:
    """ebase_udp.tcl's arguments: paper E Sec 5's UDP source ("{poisson}": E-fig13/15's 5.5 Mb/s Poisson;
    "{fbm}": E-fig14's 6 Mb/s fBm, H 0.85; sizes U[100, 300] B) with E-base through `script` and its
    `args`; the paper's 400 s over [100, 400] s."""
    return [source, script, *args] + ebase(buffer_kb, long=True)


# Trace placeholders: the source each writes (bench/ns2/refs.py) at the point's seed and length.
TRACES = {"{poisson}": (refs.poisson_trace, 5.5e6), "{fbm}": (refs.fbm_trace, 6e6)}
UDP_SIZES = (100, 300)  # paper E Sec 5: "packet sizes ... uniformly distributed in the range [100, 300] Bytes"

USERS_ARGS = ["Reno", "", "DropTail"]
USERS_Q = ["10", "10", "10000", "1", "100", "30", "{csv}"] + USERS_ARGS + ["0.1", "1,100000,1.2,1"]
USERS = ebase(10) + USERS_ARGS + ["1", "1,100000,1.2,1"]

# tag -> (claims, script under bench/ns2, arguments)
POINTS = {
    # E-fig9 (RED at the core), 6 KB goodput none/host/edge, edge's 99 Mb/s by 4 KB
    "red-none-6": ("E-fig9.3", "ebase.tcl", ebase(6, queue="RED", variant="Reno")),
    "red-host-6": ("E-fig9.4", "paced/ebase_host.tcl", ["original", "1"] + ebase(6, queue="RED", variant="Reno")),
    "red-edge-4": ("E-fig9.1", "paced/ebase_edge.tcl", ["10", "10"] + ebase(4, queue="RED", variant="Reno")),
    "red-edge-6": ("E-fig9.1 E-fig9.5", "paced/ebase_edge.tcl", ["10", "10"] + ebase(6, queue="RED", variant="Reno")),
    # E-fig12 / E-fig11 (edge pacer delay d)
    "edge-d1-2": ("E-fig12.1", "paced/ebase_edge.tcl", ["1", "10"] + ebase(2)),
    "edge-d10-2": ("E-fig12.1", "paced/ebase_edge.tcl", ["10", "10"] + ebase(2)),
    "edge-d10-50": ("E-fig11.3 E-fig12.2", "paced/ebase_edge.tcl", ["10", "10"] + ebase(50)),
    "edge-d100-50": ("E-fig11.3 E-fig12.2", "paced/ebase_edge.tcl", ["100", "10"] + ebase(50)),
    "edge-d200-50": ("E-fig12.2", "paced/ebase_edge.tcl", ["200", "10"] + ebase(50)),
    # E-fig7 (variants): host-paced NewReno and SACK in 8-15 KB
    "host-newreno-10": ("E-fig7.2", "paced/ebase_host.tcl", ["original", "1"] + ebase(10, variant="Newreno")),
    "host-sack-10": ("E-fig7.2", "paced/ebase_host.tcl", ["original", "1"] + ebase(10, variant="Sack1", sink="Sack1")),
    "host-sack-15": ("E-fig7.2", "paced/ebase_host.tcl", ["original", "1"] + ebase(15, variant="Sack1", sink="Sack1")),
    "host-newreno-8": ("E-fig7.2", "paced/ebase_host.tcl", ["original", "1"] + ebase(8, variant="Newreno")),
    "host-sack-8": ("E-fig7.2", "paced/ebase_host.tcl", ["original", "1"] + ebase(8, variant="Sack1", sink="Sack1")),
    # E-fig4 (number of flows): 500 flows, unpaced
    "none-500-5": ("E-fig4.1", "ebase.tcl", ebase(5, flows=500)),
    # E-fig8 (core not the bottleneck, bench/ns2/efig8.tcl), 100 flows
    "fig8-none-10": ("E-fig8.1", "efig8.tcl", ["ebase.tcl"] + ebase(10, flows=100)),
    "fig8-none-5": ("E-fig8.2", "efig8.tcl", ["ebase.tcl"] + ebase(5, flows=100)),
    "fig8-edge-5": ("E-fig8.2", "efig8.tcl", ["paced/ebase_edge.tcl", "10", "10"] + ebase(5, flows=100)),
    "fig8-host-15": ("E-fig8.1", "efig8.tcl", ["paced/ebase_host.tcl", "original", "1"] + ebase(15, flows=100)),
    # E-base unchanged by ebase.tcl's rate variables: bench/ns2/results/ebase.csv has 56.8191 Mb/s, 545.7883 Kb/s
    "check-100-5": ("-", "ebase.tcl", ebase(5, flows=100)),
    # E-fig6 (closed-loop users, users.tcl): 10 KB, at scale 0.1 (each flow keeps its share: 100 users, every
    # rate x 0.1, 100 s over [30, 100] s as bench/ns2/REFERENCES.md's quick rows) and at the paper's size
    "users-none-10-q": ("E-fig6.1 E-fig6.2 E-fig6.3", "ebase.tcl", USERS_Q),
    "users-host-10-q": ("E-fig6.2 E-fig6.3", "paced/ebase_host.tcl", ["original", "1"] + USERS_Q),
    "users-edge-10-q": ("E-fig6.1 E-fig6.2", "paced/ebase_edge.tcl", ["10", "10"] + USERS_Q),
    "users-edge-10": ("E-fig6.1 E-fig6.2", "paced/ebase_edge.tcl", ["10", "10"] + USERS),
    "users-host-10": ("E-fig6.2 E-fig6.3", "paced/ebase_host.tcl", ["original", "1"] + USERS),
    # 100 s runs (over [30, 100] s) where the claim's margin is wide, on a machine shared by many
    "none-500-5-t100": ("E-fig4.1", "ebase.tcl", ebase(5, flows=500, short=True)),
    "red-host-6-t100": ("E-fig9.4", "paced/ebase_host.tcl", ["original", "1"] + ebase(6, queue="RED", variant="Reno", short=True)),
    # the same unpaced through the paced builds' script: on Wei's build (run_wei.py causes-e) the unpaced level its
    # host pacer lifts from (its window cuts from packets in flight)
    "red-none-6-t100": ("E-fig9.4", "paced/ebase_host.tcl", ["none", "0"] + ebase(6, queue="RED", variant="Reno", short=True)),
    "red-edge-6-t100": ("E-fig9.1 E-fig9.5", "paced/ebase_edge.tcl", ["10", "10"] + ebase(6, queue="RED", variant="Reno", short=True)),
    "edge-d10-50-t100": ("E-fig11.3 E-fig12.2", "paced/ebase_edge.tcl", ["10", "10"] + ebase(50, short=True)),
    "edge-d100-50-t100": ("E-fig11.3 E-fig12.2", "paced/ebase_edge.tcl", ["100", "10"] + ebase(50, short=True)),
    "none-50-t100": ("E-fig11.3", "ebase.tcl", ebase(50, short=True)),
    "fig8-edge-5-t100": ("E-fig8.2", "efig8.tcl", ["paced/ebase_edge.tcl", "10", "10"] + ebase(5, flows=100, short=True)),
    "edge-d1-2-t100": ("E-fig12.1", "paced/ebase_edge.tcl", ["1", "10"] + ebase(2, short=True)),
    "edge-d10-2-t100": ("E-fig12.1", "paced/ebase_edge.tcl", ["10", "10"] + ebase(2, short=True)),
    "host-newreno-10-t100": ("E-fig7.2", "paced/ebase_host.tcl", ["original", "1"] + ebase(10, variant="Newreno", short=True)),
    # E-fig16 (partial deployment): half the hosts, half the edges, at 5 KB
    "host-half-5": ("E-fig16.1", "paced/ebase_host.tcl", ["original", "0.5"] + ebase(5)),
    "edge-half-5": ("E-fig16.1", "paced/ebase_edge.tcl", ["10", "5"] + ebase(5)),
}
# E-fig13 (Poisson UDP), E-fig14 (fBm UDP), E-fig15 (d at 5 KB): ebase_udp.tcl, 400 s over [100, 400] s
UDP_SCRIPTS = {"none": ("ebase.tcl",), "host": ("paced/ebase_host.tcl", "original", "1"),
               "edge": ("paced/ebase_edge.tcl", "10", "10")}
POINTS.update({f"udp-poisson-{scheme}-{kb}": ("E-fig13.1 E-fig13.2 E-fig13.4 E-fig13.5", "ebase_udp.tcl",
                                              udp("{poisson}", *UDP_SCRIPTS[scheme], buffer_kb=kb))
               for kb in (6, 8, 10, 15, 20) for scheme in ("edge", "none", "host")})
POINTS.update({f"udp-fbm-{scheme}-{kb}": ("E-fig14.2" if scheme == "host" else "E-fig14.1 E-fig14.3", "ebase_udp.tcl",
                                          udp("{fbm}", *UDP_SCRIPTS[scheme], buffer_kb=kb))
               for kb in (6, 8, 10) for scheme in ("edge", "none", "host")})
POINTS.update({f"udp-poisson-d{d}-5": ("E-fig15.2", "ebase_udp.tcl",
                                       udp("{poisson}", "paced/ebase_edge.tcl", str(d), "10", buffer_kb=5))
               for d in (1, 2, 5)})
POINTS["udp-poisson-none-5"] = ("E-fig15.2", "ebase_udp.tcl", udp("{poisson}", "ebase.tcl", buffer_kb=5))
# The same at 100 s over [30, 100] s, on a machine shared by many
POINTS.update({f"{tag}-t100": (claims, script, args[:-3] + ["100", "30", "{csv}"])
               for tag, (claims, script, args) in list(POINTS.items()) if tag.startswith("udp-")})



def abase(hosts: int, buffer_kb: int, duration: int, warmup: int, short: bool, *extra: str, seed: int = 1) -> list:
    """abase.tcl's arguments on paper A's 200 Mb/s core (Figs. 7, 8, 17): `hosts` TCP flows, all long-lived or
    all closed-loop users (`short`: Pareto mean 100 KB, shape 1.5, think 1 s)."""
    users = ["short", "1.0,100000,1.5,1"] if short else []
    return ["hosts", str(hosts), "core", "200e6", "buffer", str(buffer_kb * 1000), "seed", str(seed), "duration",
            str(duration), "warmup", str(warmup), "flows_csv", "{csv}", *users, *extra]


# Paper A, at reduced lengths (the sweeps' 151 s and 800 s runs of 2000 flows are out of reach of ns-2 on this
# machine): A-fig7 and A-fig8, beta(s) and the Hurst parameter of the core's arrivals, 60 s over [15, 60] s;
# A-fig17, P(empty) sampled every 0.2 ms on average, all short or all long, 60 s over [20, 60] s.
A_POINTS = {
    **{f"afig7-{'short' if short else 'long'}-{kb}": ("A-fig7.1", "abase.tcl", abase(2000, kb, 60, 15, short, "hurst", "1"))
       for short in (False, True) for kb in (50, 6250)},
    **{f"afig8-{n}": ("A-fig8.1", "abase.tcl", abase(n, 50, 60, 15, False, "hurst", "1")) for n in (100, 500, 1000)},
    # More seeds of the two points tests/test_fidelity_ns2_a.py compares: one seed's trajectory there is not
    # the model's (pacesim's seeds 1-6 at afig8-100: 155.5-162.1 Mb/s, H 0.70-0.79).
    **{f"afig8-100-seed{s}": ("A-fig8.1", "abase.tcl", abase(100, 50, 60, 15, False, "hurst", "1", seed=s))
       for s in (2, 3, 4, 5)},
    **{f"afig7-long-6250-seed{s}": ("A-fig7.1", "abase.tcl", abase(2000, 6250, 60, 15, False, "hurst", "1", seed=s))
       for s in (2, 3, 4, 5)},
    **{f"afig17-{'short' if short else 'long'}-{kb}": ("A-fig17.2", "abase.tcl",
                                                      abase(2000, kb, 60, 20, short, "empty_gap", "0.0002"))
       for short in (True, False) for kb in (8, 30)},
}
PAPERS = {"e": POINTS, "a": A_POINTS}


def argv_of(args: list, tmp: str) -> list:
    """A point's script arguments with its files in directory `tmp`: the flows CSV, and for ebase_udp.tcl the
    UDP trace, written there to cover the run (ebase's SEED and DURATION)."""
    argv = [a.replace("{csv}", str(Path(tmp) / "flows.csv")) for a in args]
    if argv[0] in TRACES:
        make, rate = TRACES[argv[0]]
        seed, duration = int(argv[-4]), float(argv[-3])
        argv[0] = str(Path(tmp) / "udp.bin")
        make(argv[0], {"seed": seed, "duration_s": duration}, rate=rate, sizes=UDP_SIZES)
    return argv


def run(tag: str, points: dict) -> dict:
    claims, script, args = points[tag]
    stock = not any(a.startswith("paced/") for a in [script] + args)
    binary = STOCK if stock else PACED
    with tempfile.TemporaryDirectory() as tmp:
        argv = argv_of(args, tmp)
        t0 = time.time()
        out = subprocess.run(["nice", "-n", "5", binary, str(HERE / script)] + argv, check=True,
                             capture_output=True, text=True, cwd=tmp).stdout
        wall = time.time() - t0
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    got = dict(re.findall(r"(\w+)=(\S+)", line))
    return {"tag": tag, "claims": claims, "script": script, "args": " ".join(args),
            **{m: got.get(m, "") for m in METRICS}, "wall_s": f"{wall:.1f}"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--paper", choices=sorted(PAPERS), default="e", help="whose points (default: paper E's)")
    ap.add_argument("--only", nargs="*", help="tags to run (default: every point not yet in the CSV)")
    ap.add_argument("--list", action="store_true", help="print the points and exit")
    a = ap.parse_args()
    points, out = PAPERS[a.paper], OUT[a.paper]
    if a.list:
        for tag, (claims, script, args) in points.items():
            print(f"{tag}: {claims}: {script} {' '.join(args)}")
        return 0
    for tag in a.only or points:
        if tag in {r["tag"] for r in read(out)}:
            continue
        row = run(tag, points)
        # Read again under a lock: two runners (one per core) may share the CSV.
        with open(Path(tempfile.gettempdir()) / f"causes-{a.paper}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            rows = read(out) + [row]
            with out.open("w", newline="") as f:  # the whole file: a row may bring a column the old ones lack
                w = csv.DictWriter(f, fieldnames=COLUMNS, restval="")
                w.writeheader()
                w.writerows(rows)
        print(row, flush=True)
    return 0


def read(out: Path) -> list:
    if not out.exists():
        return []
    with out.open() as f:
        return list(csv.DictReader(f))


if __name__ == "__main__":
    raise SystemExit(main())
