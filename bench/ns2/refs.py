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

import functools
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# The setups, their points, pacesim's side of each and the tolerances, which tests/test_fidelity_ns2_refs.py and
# _claims.py share: tests/support/ns2_refs.py (standard library only at import time, as here).
sys.path.insert(0, str(ROOT / "tests"))
from support.ns2_refs import (  # noqa: E402,F401  (the ns-2 runners read them here)
    CLAIM_SETUPS, HURST, HURST_SHORT, PARAMS, SETUPS, UDP_SIZE, UNCHECKED, agrees, core_rate, key, measure, overrides,
    points, slope_hurst, tolerance, udp_rate, udp_size)

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


def fbm_trace(path, point, rate=None, sizes=(UDP_SIZE, UDP_SIZE)):
    """Paper A's truncated fBm (Sec V-A) at 1 us as an ns-2 trace: per 1 us
    interval y = a max(0, 1 + x) bytes, x normalised fGn (Hurst 0.85), a set
    so the mean is `rate` (the point's UDP rate by default); the bytes cut
    into packets of U[sizes] bytes, each sent at the end of the interval
    that completes it (pacesim's traffic/fbm.rs, with its own generator: the
    arrivals are alike in law, not the same). One 2^22 us block (4.2 s) of
    exact fGn by circulant embedding, looped by ns-2 from a random record."""
    import numpy as np

    x, state = _fgn_block(point["seed"])
    n = len(x)
    rng = np.random.default_rng(point["seed"])
    rng.bit_generator.state = state
    y = np.maximum(0.0, 1 + x)
    # a = the mean bytes per us over E[max(0, 1 + x)] = Phi(1) + phi(1) in
    # pacesim; here over the block's own mean, as the looped block is the
    # whole run (its mean is off by a few % otherwise, H being high).
    cum = np.cumsum(y * ((rate or udp_rate(point)) / 8 * 1e-6 / y.mean()))
    # Packet j leaves at the end of the interval in which the cumulative bytes reach those of packets 0..=j.
    size = _sizes(rng, sizes, int(cum[-1] // min(sizes)) + 1)
    size = size[:np.searchsorted(np.cumsum(size), cum[-1], side="right")]
    ends = np.searchsorted(cum, np.cumsum(size)) + 1
    gaps = np.diff(ends, append=n + ends[0])
    write_trace(path, gaps, size)


@functools.lru_cache(maxsize=2)
def _fgn_block(seed):
    """One 2^22-sample block of exact normalised fGn (Hurst HURST) by circulant embedding, drawn from
    default_rng(seed), and that generator's state after the draw (a seed's traces at several rates share it)."""
    import numpy as np

    n = 1 << 22
    k = np.arange(n + 1, dtype=float)
    h2 = 2 * HURST
    gamma = 0.5 * ((k + 1) ** h2 - 2 * k ** h2 + np.abs(k - 1) ** h2)
    lam = np.fft.fft(np.concatenate([gamma, gamma[-2:0:-1]])).real
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(2 * n) + 1j * rng.standard_normal(2 * n)
    x = np.fft.fft(np.sqrt(np.maximum(lam, 0) / (2 * n)) * z).real[:n]
    x.setflags(write=False)
    return x, rng.bit_generator.state


def _sizes(rng, sizes, n):
    """n packet sizes U[sizes] (integers, both ends in); no draw when the range is one size."""
    import numpy as np

    lo, hi = sizes
    return np.full(n, lo) if lo == hi else rng.integers(lo, hi + 1, n)


def write_trace(path, gaps_us, sizes):
    with open(path, "wb") as f:
        f.write(b"".join(struct.pack(">II", int(g), int(b)) for g, b in zip(gaps_us, sizes)))


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
