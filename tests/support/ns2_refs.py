"""pacesim against ns-2 2.35 beyond E-base (issue 17 Sec 3) and at the claims' own setups (issue 31 Sec 4).

Each setup (`SETUPS`: its title, ns-2 script, the pacesim scenario that models it and the metrics both report),
its grid of points (`points`), the pacesim overrides of a point (`overrides`), pacesim's result in the ns-2
scripts' metric names (`measure`) and the tolerances a point is held to (`tolerance`, `agrees`: E-base's,
throughput within 3 % of the core's rate, loss within 20 % where ns-2's exceeds 0.5 %, others within 5 %); `load` reads a setup's committed ns-2 rows (bench/ns2/results/refs/<setup>.csv, made by
bench/ns2/run_refs.py and claim_refs.py), `compare` reruns pacesim on them. A point is a dict: `setup`, `seed`,
`duration_s`, `warmup_s` and the setup's own parameters (`PARAMS`).

bench/ns2/refs.py adds each point's ns-2 command line and UDP traces and re-exports these names for the ns-2
runners; run_refs.py and claim_refs.py compare every point, tests/test_fidelity_ns2_refs.py and
test_fidelity_ns2_claims.py a few. Standard library only at import time, so that the ns-2 runners need neither
pacesim nor numpy.
"""

import csv
import functools
import math
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "ns2" / "results" / "refs"
NS2_ONLY: set = set()  # setups pacesim cannot run (none since two-way TCP)

# Setup -> (title, ns-2 script, pacesim base scenario, compared metrics).
SETUPS = {
    "abase-poisson": ("A-base + Poisson UDP (A-fig11)", "abase.tcl", "a-base.toml",
                      ["tcp_mbps", "udp_loss", "core_loss", "goodput_kbps_mean"]),
    "abase-cbr": ("A-base + CBR UDP", "abase.tcl", "a-base.toml",
                  ["tcp_mbps", "udp_loss", "core_loss", "goodput_kbps_mean"]),
    "abase-fbm": ("A-base + fBm UDP (A-fig12), statistical", "abase.tcl", "a-base.toml",
                  ["tcp_mbps", "udp_loss", "core_loss", "goodput_kbps_mean"]),
    "ebase-short": ("E-base, closed-loop users (E-fig6)", "ebase.tcl", "e-base.toml",
                    ["core_mbps", "core_loss", "transfers", "transfer_goodput_kbps_mean", "goodput_kbps_mean"]),
    "abase-short": ("A-base, closed-loop users and long flows (A-fig17)", "abase.tcl", "a-base.toml",
                    ["core_mbps", "core_loss", "transfers", "transfer_goodput_kbps_mean", "goodput_kbps_mean"]),
    "qdumbbell": ("Q dumbbell, unpaced, window 32 (Q-fig18)", "qdumbbell.tcl", "q-dumbbell.toml",
                  ["core_mbps", "core_loss", "goodput_kbps_mean"]),
    "wdumbbell": ("W dumbbell, unpaced, 1500 B packets (W-s5)", "wdumbbell.tcl", "w-dumbbell.toml",
                  ["core_mbps", "core_loss", "goodput_kbps_mean"]),
    "twoway": ("A-base two-way TCP (A-fig23)", "abase.tcl", "a-base.toml",
               ["core_mbps", "core_loss", "data_loss", "ack_loss", "rev_mbps", "rev_data_loss", "rev_ack_loss",
                "goodput_kbps_mean"]),
    # The claims' own setups (issue 31 Sec 4, bench/ns2/claim_refs.py), each with the advertised window as a
    # parameter (papers A and E state none: ns-2's default, window_ 20, is their reading).
    "abase-size": ("A-fig21: A-base + 5 Mb/s Poisson UDP of UDP_SIZE-byte packets", "abase.tcl", "a-base.toml",
                   ["tcp_mbps", "udp_loss", "core_loss", "goodput_kbps_mean"]),
    "abase-fbm-rate": ("A-fig13, A-fig15: A-base + fBm UDP at UDP_RATE_MBPS on a CORE_RATE_MBPS core", "abase.tcl",
                       "a-base.toml", ["tcp_mbps", "udp_loss", "core_loss", "goodput_kbps_mean"]),
    "ebase-access": ("E-fig5: E-base with 100 Mb/s access links, unpaced", "ebase.tcl", "e-base.toml",
                     ["aggregate_mbps", "core_loss", "goodput_kbps_mean"]),
    "ebase-short-paced": ("E-fig6: E-base, closed-loop users, by pacing scheme", "ebase.tcl", "e-base.toml",
                          ["core_mbps", "core_loss", "transfers", "transfer_goodput_kbps_mean"]),
    "abase-hurst": ("A-fig7, A-fig8: A-base on a 200 Mb/s core, no UDP, long-lived flows, Hurst of the core's "
                    "arrivals", "abase.tcl", "a-base.toml", ["core_mbps", "hurst", "hurst_65ms"]),
    "abase-hurst-users": ("A-fig7: A-base on a 200 Mb/s core, no UDP, every flow a closed-loop user (Pareto files "
                          "mean 100 KB, shape 1.5, think 1 s), Hurst of the core's arrivals", "abase.tcl",
                          "a-base.toml", ["core_mbps", "hurst", "hurst_65ms"]),
    "abase-empty": ("A-fig17: A-base, 2000 flows on a 200 Mb/s core, a share FRACTION of them closed-loop users "
                    "(shape 1.5), P(core queue empty)", "abase.tcl", "a-base.toml",
                    ["core_mbps", "core_loss", "empty_prob"]),
}
CLAIM_SETUPS = ("abase-size", "abase-fbm-rate", "ebase-access", "ebase-short-paced", "abase-hurst", "abase-hurst-users",
                "abase-empty")
"""Setups run only at the points of bench/ns2/claim_refs.py (no grid of their own here)."""

# Shown beside the others but outside the pass rule: how many transfers
# finish in the window is where pacesim and ns-2 disagree (REFERENCES.md).
UNCHECKED = {"transfers"}

# Each setup's own point parameters (the CSV key with seed, duration_s, warmup_s).
PARAMS = {
    "abase-poisson": ["scale", "buffer_bytes"],
    "abase-cbr": ["scale", "buffer_bytes"],
    "abase-fbm": ["scale", "buffer_bytes"],
    "ebase-short": ["scale", "buffer_bytes"],
    "abase-short": ["scale", "fraction", "buffer_bytes"],
    "qdumbbell": ["buffer_packets"],
    "wdumbbell": ["variant", "buffer_bytes"],
    "twoway": ["scale", "buffer_bytes"],
    "abase-size": ["scale", "window", "udp_size", "buffer_bytes"],
    "abase-fbm-rate": ["scale", "window", "core_rate_mbps", "udp_rate_mbps", "udp_access_mbps", "buffer_bytes"],
    "ebase-access": ["scale", "window", "buffer_bytes"],
    "ebase-short-paced": ["scale", "window", "scheme", "buffer_bytes"],
    "abase-hurst": ["scale", "window", "hosts", "buffer_bytes"],
    "abase-hurst-users": ["scale", "window", "hosts", "buffer_bytes"],
    "abase-empty": ["scale", "window", "fraction", "buffer_bytes"],
}
HURST_SHORT = range(10, 17)  # 1.024-65.5 ms: the reading of "flattens beyond ~1 ms" (bench/ns2/pacesim_a.py)

UDP_SIZE = 200  # bytes, paper A's UDP packets
HURST = 0.85  # paper A's fBm


def points(setup, small):
    """The setup's grid: `small` the points CI reruns, else the larger ones."""
    def grid(seeds, duration, warmup, **axes):
        ((name, values),) = [(k, v) for k, v in axes.items() if isinstance(v, list)]
        fixed = {k: v for k, v in axes.items() if k != name}
        return [{"setup": setup, **fixed, name: v, "seed": s, "duration_s": duration, "warmup_s": warmup}
                for s in seeds for v in values]

    if setup in CLAIM_SETUPS:
        return []
    kb = lambda *b: [k * 1000 for k in b]
    if setup in ("abase-poisson", "abase-cbr", "abase-fbm"):
        if small:
            return grid([1, 2], 100, 30, scale=0.1, buffer_bytes=kb(4, 11, 30))
        if setup != "abase-poisson":
            return []
        # Paper size (200 s runs): each takes ns-2 about 5 minutes here.
        return grid([1, 2], 200, 50, scale=1, buffer_bytes=kb(3, 8, 11, 20, 30, 50))
    if setup == "ebase-short":
        # Six seeds: with shape 1.2 a few huge files decide how many
        # transfers finish in a window; their count varies 3 % (sd) by seed.
        if small:
            return grid([1, 2, 3, 4, 5, 6], 100, 30, scale=0.1, buffer_bytes=kb(3, 10, 30))
        return grid([1], 200, 50, scale=1, buffer_bytes=kb(10))
    if setup == "abase-short":
        if small:
            return (grid([1, 2], 100, 30, scale=0.1, fraction=1.0, buffer_bytes=kb(4, 11, 30))
                    + grid([1, 2], 100, 30, scale=0.1, fraction=0.5, buffer_bytes=kb(4, 11, 30)))
        return []
    if setup == "qdumbbell":
        if small:
            return grid([1, 2], 300, 120, buffer_packets=[5, 20])
        return grid([1, 2], 300, 120, buffer_packets=[2, 10, 50, 100])
    if setup == "wdumbbell":
        if small:
            return grid([1, 2], 60, 20, variant="reno", buffer_bytes=kb(100, 712))
        return (grid([1, 2], 100, 20, variant="reno", buffer_bytes=kb(30, 200, 712))
                + grid([1, 2], 100, 20, variant="sack", buffer_bytes=kb(30, 200, 712)))
    if setup == "twoway":
        if small:
            return grid([1, 2], 100, 30, scale=0.1, buffer_bytes=kb(4, 11, 30))
        return grid([1], 200, 50, scale=1, buffer_bytes=kb(11))
    raise KeyError(setup)


def key(point):
    """The CSV row key of a point."""
    return tuple(str(point[k]) for k in PARAMS[point["setup"]] + ["seed", "duration_s", "warmup_s"])


def core_rate(point):
    """The core link's rate, b/s (the throughput tolerance is a share of it)."""
    s = point["setup"]
    if s == "qdumbbell":
        return 100e6
    if s == "wdumbbell":
        return 57e6
    if s in ("abase-short", "abase-hurst", "abase-hurst-users", "abase-empty"):
        return 200e6 * point["scale"]
    if s == "abase-fbm-rate":
        return point["core_rate_mbps"] * 1e6 * point["scale"]
    return 100e6 * point["scale"]


def udp_rate(point):
    if point.get("setup") == "abase-fbm-rate":
        return point["udp_rate_mbps"] * 1e6 * point["scale"]
    return 5e6 * point["scale"]


def udp_size(point):
    """The point's UDP packet size, bytes (paper A's 200 B unless the setup varies it)."""
    return point.get("udp_size", UDP_SIZE)


def overrides(point):
    """pacesim overrides of the setup's base scenario for a point."""
    s, k = point["setup"], point.get("scale", 1)
    run = [f"seed={point['seed']}", f"duration={point['duration_s']}s", f"warmup={point['warmup_s']}s"]
    if s.startswith(("abase", "ebase", "twoway")):
        run.append("tcp.window=1000")  # abase.tcl's and ebase.tcl's window_ 1000, not the papers' reading (20)
    if "buffer_bytes" in point:
        run.append(f"core.buffer={point['buffer_bytes']}B")

    def bps(x):
        return f"{round(x)}bps"

    abase = [f"topology.tcp_hosts={round(1000 * k)}", f"core.rate={bps(100e6 * k)}",
             f"topology.access_rate={bps(10e6 * k)}", f"topology.udp_access_rate={bps(100e6 * k)}"]
    udp = lambda kind, extra="": (f'traffic.udp=[{{kind = "{kind}", rate = "{bps(udp_rate(point))}", '
                                  f'size = "{udp_size(point)}B"{extra}}}]')
    if "window" in point:
        run.append(f"tcp.window={point['window']}")
    if s == "abase-size":
        return run + abase + [udp("poisson")]
    if s == "abase-fbm-rate":
        return run + abase[:1] + [f"core.rate={bps(core_rate(point))}", abase[2],
                                  f"topology.udp_access_rate={bps(point['udp_access_mbps'] * 1e6 * k)}",
                                  udp("fbm", f", hurst = {HURST}")]
    if s in ("abase-hurst", "abase-hurst-users"):
        users = ["traffic.short.fraction=1", "traffic.short.shape=1.5"] if s == "abase-hurst-users" else []
        return run + [f"topology.tcp_hosts={point['hosts']}", f"core.rate={bps(core_rate(point))}",
                      f"topology.access_rate={bps(10e6 * k)}", 'burstiness={link = "core", bin = "1us", scales = 24}',
                      *users]
    if s == "abase-empty":
        return run + [f"topology.tcp_hosts={round(2000 * k)}", f"core.rate={bps(core_rate(point))}",
                      f"topology.access_rate={bps(10e6 * k)}", f"traffic.short.fraction={point['fraction']}",
                      "traffic.short.shape=1.5"]
    if s == "ebase-access":
        return run + [f"topology.hosts_per_edge={round(100 * k)}", f"core.rate={bps(100e6 * k)}",
                      f"topology.access_rate={bps(100e6 * k)}",
                      f'topology.edge_rate=["{bps(100e6 * k)}", "{bps(100e6 * k)}"]', "pacing.scheme=none"]
    if s == "ebase-short-paced":
        return run + [f"topology.hosts_per_edge={round(100 * k)}", f"core.rate={bps(100e6 * k)}",
                      f'topology.access_rate=["{bps(8e6 * k)}", "{bps(12e6 * k)}"]',
                      f'topology.edge_rate=["{bps(100e6 * k)}", "{bps(100e6 * k)}"]', "traffic.short.fraction=1",
                      f"pacing.scheme={point['scheme']}"]
    if s == "abase-poisson":
        return run + abase + [udp("poisson")]
    if s == "abase-cbr":
        return run + abase + [udp("cbr")]
    if s == "abase-fbm":
        return run + abase + [udp("fbm", f", hurst = {HURST}")]
    if s == "abase-short":
        return run + [f"topology.tcp_hosts={round(2000 * k)}", f"core.rate={bps(200e6 * k)}",
                      f"topology.access_rate={bps(10e6 * k)}", f"topology.udp_access_rate={bps(100e6 * k)}",
                      f"traffic.short.fraction={point['fraction']}", "traffic.short.shape=1.5"]
    if s == "twoway":
        return run + abase + ["traffic.two_way=true"]
    if s == "ebase-short":
        return run + [f"topology.hosts_per_edge={round(100 * k)}", f"core.rate={bps(100e6 * k)}",
                      f'topology.access_rate=["{bps(8e6 * k)}", "{bps(12e6 * k)}"]',
                      f'topology.edge_rate=["{bps(100e6 * k)}", "{bps(100e6 * k)}"]', "traffic.short.fraction=1"]
    if s == "qdumbbell":
        return run + [f"core.buffer_packets={point['buffer_packets']}", "pacing.scheme=none"]
    if s == "wdumbbell":
        # W-s5's network unpaced: 40 flows, 57 Mb/s, RTT 100 ms, 1500 B packets.
        return run + ["topology.flows=40", "core.rate=57Mbps", "core.delay=48ms", "tcp.window=100000",
                      "tcp.segment_size=1460B", 'traffic.start=["0s", "100ms"]', f"tcp.variant={point['variant']}"]
    raise KeyError(s)


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


def ns2_udp_override(point, tmp, start):
    """The pacesim override (`traffic.udp=...`) that sends the very UDP packets abase.tcl's ns-2 run of an
    `abase-fbm-rate` point sends: its fBm trace (fbm_trace, written under the directory `tmp`) from record `start`
    (where ns-2 starts it: the row's udp_trace_start, bench/ns2/refs.py's ns2_trace_start), each packet at the
    time ns-2 sends it, looped. ns-2 sends record k's packet its gap after the one before (the first one its gap
    after 0 s) and loops with a period of the gaps' sum, 2^22 us; pacesim's trace source loops with a period of
    n / (n - 1) times its first-to-last span, a few tens of us longer or shorter, so the two drift apart by at most
    a few ms over a 100 s run."""
    import numpy as np

    binary = tmp / "udp.bin"
    if not binary.exists():
        fbm_trace(binary, point)
    rec = np.frombuffer(binary.read_bytes(), dtype=">u4").reshape(-1, 2).astype(np.int64)
    sends_us = np.cumsum(np.roll(rec[:, 0], -start))
    sizes = np.roll(rec[:, 1], -start)
    if len(set(sizes.tolist())) != 1:
        raise ValueError("one packet size per trace: pacesim cuts each record into packets of the source's size")
    text = tmp / "udp.txt"
    text.write_text("".join(f"{t / 1000:.3f} {b}\n" for t, b in zip(sends_us, sizes)))
    return (f'traffic.udp=[{{kind = "trace", size = "{sizes[0]}B", start = "{sends_us[0]}us", '
            f'trace = {{file = "{text}", columns = ["time_ms", "bytes"], send = "burst"}}}}]')


def measure(result, point):
    """pacesim's result in the ns-2 scripts' metric names."""
    m = result.summary
    span = point["duration_s"] - point["warmup_s"]
    core = result.links.loc["core"]
    out = {"core_mbps": m["aggregate_mbps"], "aggregate_mbps": m["aggregate_mbps"],
           "goodput_kbps_mean": m["goodput_kbps_mean"],
           "core_loss": m["core_loss_rate"], "udp_loss": m["core_udp_loss_rate"], "transfers": m["transfers"],
           "transfer_goodput_kbps_mean": m["transfer_goodput_kbps_mean"], "empty_prob": m["core_empty_prob"]}
    # TCP's wire bytes leaving the core: all less the UDP packets that left (all 200 B).
    udp_bytes = (core.udp_arrivals - core.udp_drops) * udp_size(point)
    out["tcp_mbps"] = (core.departed_bytes - udp_bytes) * 8 / span / 1e6
    out["udp_arrivals"] = int(core.udp_arrivals)  # UDP packets reaching the core in the window, as ns-2 counts them
    if result.burstiness is not None:
        beta = result.burstiness["beta"]
        out["hurst"] = result.metrics["hurst_1ms"]
        out["hurst_65ms"] = slope_hurst({2.0 ** k: beta.loc[float(2 ** k)] for k in HURST_SHORT})
    if point["setup"] == "twoway":
        rev = result.links.loc["core.rev"]
        out.update(data_loss=core.data_loss_rate, ack_loss=core.ack_loss_rate, rev_mbps=rev.throughput_mbps,
                   rev_data_loss=rev.data_loss_rate, rev_ack_loss=rev.ack_loss_rate)
    return out


def slope_hurst(betas):
    """1 + the least-squares slope of ln beta on ln s over `betas` (scale in us -> beta): beta(s) ~ s^(H-1).
    Standard library only: the ns-2 runner (claim_refs.py) takes ns-2's slope over 1-65 ms with it."""
    xs, ys = [math.log(s) for s in betas], [math.log(float(b)) for b in betas.values()]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return 1 + sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def tolerance(metric):
    """The issue's rule for a metric: ("rate", share of the core's rate),
    ("loss", relative, where ns-2's exceeds the floor) or ("rel", relative)."""
    if metric.endswith("_mbps"):
        return ("rate", 0.03)
    if metric.endswith("_loss"):
        return ("loss", 0.20)
    return ("rel", 0.05)


def agrees(metric, ns2, ours, point, floor=0.005):
    return agrees_at(metric, ns2, ours, core_rate(point), floor)


def agrees_at(metric, reference, ours, core_rate_bps, floor=0.005):
    """`tolerance`'s rule for one metric against any reference simulator (ns-2, ns-3), on a core of
    `core_rate_bps`: a loss at or under `floor` in the reference is not compared."""
    kind, tol = tolerance(metric)
    if kind == "rate":
        return abs(ours - reference) <= tol * core_rate_bps / 1e6
    if kind == "loss":
        return reference <= floor or abs(ours / reference - 1) <= tol
    return abs(ours / reference - 1) <= tol if reference else ours == 0


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
            if k != "setup":
                r[k] = _number(v)
    return rows


def _number(v):
    """A CSV cell as an int or a float where it is one, else the string (a variant or scheme name)."""
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v


def simulate(point, udp=None):
    """pacesim on one ns-2 row's point: the metrics in ns-2's names. `udp`: a `traffic.udp=...` override in place
    of the point's own UDP source (bench/ns2/refs.py's ns2_udp_override: the packets ns-2 sends)."""
    import pacesim

    base = pacesim.load_scenario(ROOT / "scenarios" / SETUPS[point["setup"]][2])
    ov = overrides(point)
    if udp is not None:
        ov = [o for o in ov if not o.startswith("traffic.udp=")] + [udp]
    s = pacesim.apply_overrides(base, ov)
    return {**point, **measure(pacesim.run(s), point)}


def compare(rows, workers=None, ours=None):
    """Both simulators' seed means per point, with an agreement flag per metric; `ours`: pacesim's rows for
    `rows` when already run (else run here)."""
    import pandas as pd
    from concurrent.futures import ProcessPoolExecutor

    if ours is None:
        with ProcessPoolExecutor(workers) as pool:
            ours = list(pool.map(simulate, rows))
    ours = pd.DataFrame(ours)
    ns2 = pd.DataFrame(rows)
    out = []
    for setup, g in ns2.groupby("setup"):
        metrics = SETUPS[setup][3]
        params = PARAMS[setup] + ["duration_s", "warmup_s"]
        a = g.groupby(params)[metrics].mean()
        b = ours[ours.setup == setup].groupby(params)[metrics].mean()
        seeds = g.groupby(params)["seed"].count()
        for idx in a.index:
            point = {"setup": setup, **dict(zip(params, idx if isinstance(idx, tuple) else (idx,)))}
            row = {**point, "seeds": int(seeds[idx])}
            for m in metrics:
                row[f"{m}_ns2"], row[f"{m}_pacesim"] = a.loc[idx, m], b.loc[idx, m]
                row[f"ok_{m}"] = bool(agrees(m, a.loc[idx, m], b.loc[idx, m], point))
            out.append(row)
    return pd.DataFrame(out)


def passed(t):
    """Per point, whether every checked metric agrees (a metric a setup lacks counts as agreeing)."""
    checked = [c for c in t.columns if c.startswith("ok_") and c[3:] not in UNCHECKED]
    return t[checked].fillna(True).astype(bool).all(axis=1)
