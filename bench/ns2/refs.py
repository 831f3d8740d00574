"""The ns-2 references beyond E-base (issue 17 Sec 3): each setup's ns-2
script and arguments, the pacesim scenario that models it, its grid of
points, and the metrics both report.

A point is a dict: `setup`, `seed`, `duration_s`, `warmup_s` and the
setup's own parameters (`PARAMS`). `ns2_args(point, tmp)` is the command
line of its ns-2 run; `overrides(point)` the pacesim overrides of its
setup's base scenario; `measure(result, point)` reads pacesim's result
into ns-2's metric names. Standard library only at import time, so that
the ns-2 runner needs neither pacesim nor numpy.
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# The setups, their points, pacesim's side of each and the tolerances, which tests/test_fidelity_ns2_refs.py and
# _claims.py share: tests/support/ns2_refs.py (standard library only at import time, as here).
sys.path.insert(0, str(ROOT / "tests"))
from support.ns2_refs import (  # noqa: E402,F401  (the ns-2 runners read them here)
    CLAIM_SETUPS, HURST, HURST_SHORT, PARAMS, SETUPS, UDP_SIZE, UNCHECKED, _sizes, agrees, core_rate, fbm_trace, key,
    measure, overrides, points, slope_hurst, tolerance, udp_rate, udp_size, write_trace)
from support import ns2_refs  # noqa: E402

A_USERS = "100000,1.5,1"  # paper A's users (Sec VI): Pareto files of mean 100 KB, shape 1.5; think exp. 1 s
HURST_SCALES = range(10, 24)  # beta(s) at s = 2^k us: 1.024 ms to 8.4 s (abase.tcl's `hurst 1`)


def poisson_trace(path, point, rate=None, sizes=(UDP_SIZE, UDP_SIZE)):
    """Poisson arrivals at `rate` wire b/s (the point's UDP rate by default)
    of packets U[sizes] bytes (integers, both ends in; paper A's 200 B by
    default), as an ns-2 Application/Traffic/Trace file: per packet the gap
    to the next in whole us (arrival times rounded, so the gaps keep the
    mean) and the size. It covers the run; ns-2 starts at a random record
    and loops."""
    import numpy as np  # only the trace-making setups need it

    mean_us = (sizes[0] + sizes[1]) / 2 * 8 / (rate or udp_rate(point)) * 1e6
    n = int(point["duration_s"] * 1e6 / mean_us * 1.05) + 10
    rng = np.random.default_rng(point["seed"])
    t = np.round(np.cumsum(rng.exponential(mean_us, n))).astype(np.int64)
    write_trace(path, np.diff(t, prepend=0), _sizes(rng, sizes, n))


def ns2_trace_start(point, nrec):
    """The record at which abase.tcl's ns-2 run of `point` starts playing its UDP trace of `nrec` records.

    TraceFile::setup (ns-2.35 trace/traffictrace.cc) returns int(Random::uniform(nrec) + .5), drawn from
    $defaultRNG when the source starts at 0 s. Before it, each of the HOSTS Agent/TCP has drawn twice (its boot_time_,
    TcpAgent::reset, runs twice as a flow is built) and nothing else has drawn from $defaultRNG: trace_start.tcl
    skips those 2 HOSTS draws. Checked against ns-2's own sends (a trace of the UDP access queue in abase.tcl, the
    first 40 send gaps matched against the trace): record 38007 of 209715 at the paper's size (seed 2, UDP 80 of 100
    Mb/s at 2 KB), 470 of 23592 at x0.1 (seed 1, 90 of 100 at 8 KB), as computed here."""
    hosts = round(1000 * point.get("scale", 1))
    out = subprocess.run(["ns", str(HERE / "trace_start.tcl"), str(point["seed"]), str(2 * hosts)],
                         capture_output=True, text=True, check=True).stdout
    start = int(nrec * float(out) + 0.5)
    if start >= nrec:  # ns-2 would read past its trace's end
        raise ValueError(f"ns-2 starts past the trace's {nrec} records at {point}")
    return start


def ns2_udp_override(point, tmp, start=None):
    """refs' pacesim side of an fBm point played from ns-2's own packets (ns2_refs.ns2_udp_override), its start
    record the row's `udp_trace_start` if given, else found by ns2_trace_start (which needs ns)."""
    if start is None:
        binary = tmp / "udp.bin"
        fbm_trace(binary, point)
        start = ns2_trace_start(point, binary.stat().st_size // 8)
    return ns2_refs.ns2_udp_override(point, tmp, start)


def ns2_args(point, tmp):
    """The ns-2 command line (after `ns`) of a point; traces go to directory `tmp`."""
    s, k = point["setup"], point.get("scale", 1)
    common = ["buffer", point.get("buffer_bytes", 0), "seed", point["seed"], "duration", point["duration_s"],
              "warmup", point["warmup_s"], "flows_csv", tmp / "flows.csv"]
    abase = ["hosts", round(1000 * k), "access", 10e6 * k, "core", 100e6 * k, "udp_access", 100e6 * k]
    if s in ("abase-poisson", "abase-fbm"):
        trace = tmp / "udp.bin"
        (poisson_trace if s == "abase-poisson" else fbm_trace)(trace, point)
        return [HERE / "abase.tcl", *abase, *common, "udp", "trace", "trace", trace]
    if s == "abase-cbr":
        return [HERE / "abase.tcl", *abase, *common, "udp", "cbr", "udp_rate", udp_rate(point), "udp_size", UDP_SIZE]
    if s in ("abase-size", "abase-fbm-rate"):
        trace = tmp / "udp.bin"
        if s == "abase-size":
            poisson_trace(trace, point, sizes=(udp_size(point),) * 2)
        else:
            abase[5] = core_rate(point)
            abase[7] = point["udp_access_mbps"] * 1e6 * k
            fbm_trace(trace, point)
        return [HERE / "abase.tcl", *abase, *common, "window", point["window"], "udp", "trace", "trace", trace]
    # A-fig7, A-fig8, A-fig17: routes by hand (abase.tcl's manual_routes: the same RESULT, the 2000-host set-up
    # without the all-pairs route computation).
    if s in ("abase-hurst", "abase-hurst-users"):
        users = ["short", f"1.0,{A_USERS}"] if s == "abase-hurst-users" else []
        return [HERE / "abase.tcl", "hosts", point["hosts"], "access", 10e6 * k, "core", core_rate(point),
                "udp_access", 100e6 * k, *common, "window", point["window"], "hurst", 1, *users, "manual_routes", 1]
    if s == "abase-empty":
        # P(core queue empty) sampled at exponential gaps of mean 0.2 ms (causes_e.py's A-fig17 points).
        users = ["short", f"{point['fraction']},{A_USERS}"] if point["fraction"] > 0 else []
        return [HERE / "abase.tcl", "hosts", round(2000 * k), "access", 10e6 * k, "core", core_rate(point),
                "udp_access", 100e6 * k, *common, "window", point["window"], "empty_gap", 0.0002, *users,
                "manual_routes", 1]
    if s == "ebase-access":
        # Routes installed by hand (ebase_manual.tcl's manual_routes: the same network and RESULT, without the
        # all-pairs route computation that is most of a 1000-flow run's cost).
        return [HERE / "setvars.tcl", f"window={point['window']}", "access_lo=100", "access_hi=100",
                "manual_routes=1", "ebase.tcl", 10,
                round(100 * k), point["buffer_bytes"], point["seed"], point["duration_s"], point["warmup_s"],
                tmp / "flows.csv", "Reno", "", "DropTail", k]
    if s == "ebase-short-paced":
        # The paced build's scripts (bench/ns2/paced): host pacing (tcp-paced.cc, original) on every host, or
        # the edge pacer (d = 10 ms) on all ten ingress edges.
        pacer = {"none": ["ebase.tcl"], "host": ["paced/ebase_host.tcl", "original", "1"],
                 "edge": ["paced/ebase_edge.tcl", "10", "10"]}[point["scheme"]]
        return [HERE / "setvars.tcl", f"window={point['window']}", *pacer, 10, round(100 * k), point["buffer_bytes"],
                point["seed"], point["duration_s"], point["warmup_s"], tmp / "flows.csv", "Reno", "", "DropTail", k,
                "1,100000,1.2,1"]
    if s == "abase-short":
        # A-fig17: 2000 hosts, 200 Mb/s core, Pareto shape 1.5.
        return [HERE / "abase.tcl", "hosts", round(2000 * k), "access", 10e6 * k, "core", 200e6 * k,
                "udp_access", 100e6 * k, *common, "short", f"{point['fraction']},{A_USERS}"]
    if s == "twoway":
        return [HERE / "abase.tcl", *abase, *common, "twoway", 1]
    if s == "ebase-short":
        return [HERE / "ebase.tcl", 10, round(100 * k), point["buffer_bytes"], point["seed"], point["duration_s"],
                point["warmup_s"], tmp / "flows.csv", "Reno", "", "DropTail", k, "1,100000,1.2,1"]
    if s == "qdumbbell":
        return [HERE / "qdumbbell.tcl", "buffer_packets", point["buffer_packets"], *common]
    if s == "wdumbbell":
        variant, sink = ("Reno", "") if point["variant"] == "reno" else ("Sack1", "Sack1")
        return [HERE / "wdumbbell.tcl", *common, "variant", variant, "sink", sink]
    raise KeyError(s)
