#!/usr/bin/env python3
"""Run the host-paced ns-2 references on ns-2 2.35 with Wei's pacing patch
(build.sh) and append their results to results/*.csv.

    python3 bench/ns2/wei/run_wei.py GRID... [--ns PATH] [--seed N]... [--seeds A-B] [--mode M]... [--buffer-kb KB]...

The scenarios, their measurement and their CSV columns are bench/ns2/paced's
(run_paced.py, ebase_host.tcl, ws5.tcl, ws1.tcl), run through shim.tcl,
which maps those scripts' Agent/TCP/VARIANT/Paced and pace_mode_ onto the
patched binary's own agents and pace_packet_ (1 original, 2 modified).
Grids (a row already in its CSV is skipped, so a stopped run resumes):

- ws1:    W-s1, 16 SACK flows, 1 Gb/s LAN, none / original, seeds 1-10 (or
          --seed / --seeds), 10 s (results/ws1.csv; per flow results/flows/ws1_*);
- ws5:    W-s5, 20 paced + 20 unpaced, 57 Mb/s, RTT 100 ms, 712 KB, 1500 B,
          Reno / Newreno / Sack1 x original / modified, seeds 1-2, 200 s over
          [20, 200] s (results/ws5.csv; per flow results/flows/ws5_*), with
          paper W Table I's two rates besides run_paced's columns (ws5_table1);
- ws6:    W-s6, 5 Reno flows, 1 Gb/s, RTT 12 ms, 30 KB, on-off cross traffic
          100 Mb/s while on, every second flow paced (none / modified /
          original), seeds 1-2, 200 s (results/ws6.csv, ws6.csv's columns);
- ws4:    W-s4's Reno, 5 flows, 1 Gb/s, RTT 12 ms, no cross traffic, every flow
          paced (original) or none, 30 KB / 100 KB / 300 KB / 1 MB / 3 MB / 15 MB,
          seeds 1-2, 200 s from 0 s (results/ws4.csv, bench/ns2/paced/results/ws4.csv's
          columns; aggregate_mbps is pacesim's tcp_throughput_mbps here; per flow
          results/flows/ws4_*);
- ws3:    W-s3, 5 unpaced Reno flows, 1 Gb/s, RTT 12 ms, 1 / 3 / 15 MB, cross
          traffic, seeds 1-2, 200 s (results/ws3.csv);
- ws3-reno: the same on Reno's own grid as W-s3.1's check reads it (3, 10, 30,
          100, 300 KB, 1.5 MB: BIC's scaled to Reno's BDP), seeds 1-2
          (results/ws3-reno.csv, ws4.csv's columns: the flows' mean is
          goodput_mbps_sum / 5; per flow results/flows/ws3-reno_*);
- ebase:  E-base, 1000 flows, 3 / 5 / 10 / 20 KB, unpaced (mode none) and
          every host paced (original, modified), seeds 1-2, 200 s over
          [50, 200] s (results/ebase-host.csv);
- efig17: E-base with 30 % of the hosts paced (original), 5, 10 and 50 KB,
          seeds 1-2 (results/ebase-host.csv);
- ebase-ci: E-base with 100 flows (10 x 10), 3 / 5 / 10 / 20 KB, unpaced and
          every host paced (original, modified), and 30 % paced (original) at 5
          and 10 KB, seeds 1-2 (results/ebase-host.csv): the cheap points;
- efig6-host: E-fig6's setup at x0.1 (100 closed-loop users, Pareto files mean
          100 KB shape 1.2, think 1 s; every host paced, original; 10 KB;
          window_ 20), seeds 1-2, 100 s over [30, 100] s: claim_refs.py's
          `ebase-short-paced` host point, refs.ns2_args's command through the
          shim (results/ebase-short-paced.csv, that setup's columns);
- causes-e: causes_e.py's host-paced points of paper E's causes on this
          build: E-fig9's RED at 6 KB (red-host-6-t100, and unpaced on this
          build: red-none-6-t100) and E-fig13's Poisson UDP at 6 KB
          (udp-poisson-host-6-t100) and E-fig14's fBm UDP at 10 KB, where its host
          UDP loss peaks (udp-fbm-host-10-t100), 1000 flows, seed 1, 100 s over [30, 100] s
          (results/causes-e.csv, causes_e.py's columns);
- efig7-fack: E-fig7's FACK host-paced as the patch paces it: E-base, every
          host paced (original), Agent/TCP/Fack with the Sack1 sink, 100 flows
          (10 x 10) at 5 and 10 KB, then 1000 flows at 5 KB, then 10 KB,
          seeds 1-2, 200 s over [50, 200] s (results/ebase-fack.csv:
          ebase-host.csv's columns after a variant column; Reno's rows of the
          same points are ebase-host.csv's);
- decide-e: the buffers where a host-paced verdict of paper E is decided
          (DECIDE_E: E-fig3.3 at 8 and 15 KB, E-fig5.7's 100 Mb/s access
          links at 10 and 15 KB, E-fig7.1's NewReno at 15 KB (its SACK with
          --sack1-paced), E-fig9.2's RED at 10 and 15 KB; 1000 flows, window_
          1000; E-fig8's network with 100 flows and window_ 20 at 5 and 10
          KB), every host paced
          (original), seeds 1-2, 200 s over [50, 200] s
          (results/decide-e.csv: ebase-host.csv's columns after the claim's
          and the ns-2 agent's);
- ns228:  E-base, 100 flows, 5 and 10 KB, seed 1, on stock ns-2.28
          (build228.sh, /work/ns2-228/READY), Debian's 2.35 (/usr/bin/ns),
          2.35 with 2.28's TCP defaults (defaults228.tcl), and this build
          with 2.28's defaults, unpaced and paced (original) (results/ns228.csv).

With --sack1-paced, the runs are on `build.sh --sack1-paced`'s binary (our
completion: Sack1 gated by the pacer as the other agents are), only the
grids' SACK rows (ws1, ws5, decide-e), into results/sack1-paced/; without it
decide-e's SACK rows are left out (ws5's run unpaced, as the patch leaves them).

The binary is --ns, or the one named in BUILD/READY, BUILD being --build,
the directory given to build.sh (default /work/ns2-wei, with --sack1-paced
/work/ns2-wei-sack: where `build.sh REPO` and `build.sh --sack1-paced REPO
/work/ns2-wei-sack` put them). A build whose WEI_APPLIED names the other
flavour (as-published or sack1-paced) is refused.

Standard library only; runs go one at a time (start two runners on
different grids or seeds for two at once).
"""

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "paced"))
sys.path.insert(0, str(HERE.parent))
import causes_e  # noqa: E402  (paper E's cause points)
import refs  # noqa: E402  (the claims' setups and their ns-2 command lines)
import run_paced  # noqa: E402  (the scenarios' runners and CSV layouts)
from run_paced import read_flows, run_rows  # noqa: E402

SHIM = HERE / "shim.tcl"
RESULTS = HERE / "results"
run_paced.FLOWS = RESULTS / "flows"
run_ns_direct = run_paced.run_ns  # a run not through the shim (a script that sources it itself)
last_result = {}  # the RESULT line of the latest run


def run_ns_shim(ns, args):
    """Every run through the shim: `ns shim.tcl SCRIPT ARGS...`."""
    m, wall = run_ns_direct(ns, [SHIM, *args])
    last_result.clear()
    last_result.update(m)
    return m, wall


run_paced.run_ns = run_ns_shim

WS5_COLUMNS = [*run_paced.WS5_COLUMNS[:-1], "core_qdelay_ms", "loss_per_packet_paced", "loss_per_packet_unpaced",
               "loss_event_rate_paced", "loss_event_rate_unpaced", "wall_s"]
# W-s5's propagation RTT, 2 x (1 + 48 + 1) ms.
WS5_BASE_RTT_S = 0.1


def ws5_table1(ns, row):
    """run_paced.run_ws5's row plus paper W Table I's rates per half: packets
    of the half dropped at the core per data packet it sent (its per-packet
    loss rate), and loss events (fast retransmits + timeouts, one per RTT
    with a loss) per RTT of each flow's life (its loss-event rate, footnote
    10), the RTT taken as the propagation RTT plus the mean core queueing
    delay over the window (the same for every flow: one path)."""
    out = run_paced.run_ws5(ns, row)
    variant, mode, seed, duration, warmup = row
    flows = read_flows(run_paced.FLOWS / f"ws5_{variant.lower()}_{mode}_s{seed}_t{duration}.csv")
    qdelay_ms = float(last_result["core_qdelay_ms"])
    rtts = (duration - warmup) / (WS5_BASE_RTT_S + qdelay_ms / 1e3)
    out["core_qdelay_ms"] = last_result["core_qdelay_ms"]
    for name, flag in (("paced", "1"), ("unpaced", "0")):
        g = [f for f in flows if f["paced"] == flag]
        out[f"loss_per_packet_{name}"] = (sum(int(f["core_drops"]) for f in g)
                                          / sum(int(f["data_packets_sent"]) for f in g))
        events = sum(int(f["fast_retransmits"]) + int(f["timeouts"]) for f in g)
        out[f"loss_event_rate_{name}"] = events / (len(g) * rtts)
    out["wall_s"] = out.pop("wall_s")
    return out

WS6_COLUMNS = ["variant", "mode", "fraction", "seed", "flows", "rate_mbps", "core_delay_ms", "buffer_bytes",
               "packet_bytes", "duration_s", "warmup_s", "cross_mbps", "core_loss", "goodput_kbps_min",
               "goodput_kbps_min_paced", "goodput_mbps_sum", "wall_s"]
WS6_KEY = WS6_COLUMNS[:12]
# W-s4's columns are bench/ns2/paced/results/ws4.csv's (aggregate_mbps: every core departure as a 1500 B packet,
# with no cross traffic pacesim's tcp_throughput_mbps) and the wall time.
WS4_COLUMNS = [*WS6_COLUMNS[:12], "aggregate_mbps", "core_loss", "goodput_kbps_min", "goodput_kbps_max",
               "goodput_mbps_sum", "wall_s"]
WS4_BUFFERS = (30_000, 100_000, 300_000, 1_000_000, 3_000_000, 15_000_000)
WS3_RENO_BUFFERS = (3_000, 10_000, 30_000, 100_000, 300_000, 1_500_000)


def run_dumbbell(ns, mode, seed, buffer, cross, fraction, keep=None):
    """One run of 5 Reno flows on paper W's 1 Gb/s dumbbell (core 4 ms, RTT 12 ms, 200 s from 0 s, starts
    U[0, 0.12] s; ws5.tcl with FRACTION): (scenario columns, RESULT line, per-flow rows, wall time). `keep`: the
    per-flow file's name under results/flows/ (ws5.tcl's columns: goodput, data packets sent, retransmissions,
    timeouts, fast retransmits, core drops), else it is not kept."""
    scenario = {"variant": "Reno", "mode": mode, "fraction": fraction, "seed": seed, "flows": 5, "rate_mbps": 1000,
                "core_delay_ms": 4, "buffer_bytes": buffer, "packet_bytes": 1500, "duration_s": 200, "warmup_s": 0,
                "cross_mbps": cross}
    if keep:
        run_paced.FLOWS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = run_paced.FLOWS / keep if keep else Path(tmp, "flows.csv")
        m, wall = run_paced.run_ns(ns, run_paced.w_dumbbell_args(buffer, seed, path, mode, cross, fraction))
        flows = read_flows(path)
    return scenario, m, flows, wall


def run_ws6(ns, row):
    """W-s6 as bench/ns2/paced/README.md runs it by hand (ws5.tcl with FRACTION 0.5, 30 KB, cross traffic)."""
    mode, seed = row
    scenario, m, flows, wall = run_dumbbell(ns, mode, seed, 30_000, 100, 0.5)
    goodputs = [float(f["goodput_kbps"]) for f in flows]
    paced = [float(f["goodput_kbps"]) for f in flows if f["paced"] == "1"]
    return {**scenario, "core_loss": m["core_loss"], "goodput_kbps_min": min(goodputs),
            "goodput_kbps_min_paced": min(paced) if paced else "", "goodput_mbps_sum": sum(goodputs) / 1000,
            "wall_s": f"{wall:.1f}"}


def run_ws4(ns, row, cross=0, name="ws4"):
    """W-s4's Reno point: every flow paced (original) or none, no cross traffic (ws5.tcl with FRACTION 1); with
    `cross` 100 and mode none, W-s3's unpaced Reno point (grid ws3-reno)."""
    mode, buffer, seed = row
    scenario, m, flows, wall = run_dumbbell(ns, mode, seed, buffer, cross, 1, keep=f"{name}_{mode}_{buffer}_s{seed}.csv")
    goodputs = [float(f["goodput_kbps"]) for f in flows]
    return {**scenario, "aggregate_mbps": m["aggregate_mbps"], "core_loss": m["core_loss"],
            "goodput_kbps_min": min(goodputs), "goodput_kbps_max": max(goodputs),
            "goodput_mbps_sum": sum(goodputs) / 1000, "wall_s": f"{wall:.1f}"}


def use_results(root):
    """Send every CSV (and run_paced's per-flow files) under `root`."""
    global RESULTS
    RESULTS = root
    run_paced.FLOWS = root / "flows"


NS228_COLUMNS = ["build", "flows", "buffer_bytes", "seed", "duration_s", "warmup_s", "mode", "aggregate_mbps",
                 "goodput_kbps_mean", "core_loss", "core_arrivals", "core_drops", "wall_s"]
NS228_KEY = NS228_COLUMNS[:7]
NS228_BUILDS = ("2.28", "2.35", "2.35, 2.28 defaults", "Wei, 2.28 defaults")


def run_ns228(ns, row):
    """One E-base point (10 x 10 flows, 200 s over [50, 200] s) on one of NS228_BUILDS."""
    build, kb, seed, mode = row
    with tempfile.NamedTemporaryFile("r", suffix=".csv") as tf:
        ebase = [10, 10, kb * 1000, seed, 200, 50, tf.name]
        if build == "2.28":
            cmd = [Path("/work/ns2-228/READY").read_text().strip(), HERE.parent / "ebase.tcl", *ebase]
        elif build == "2.35":
            cmd = ["/usr/bin/ns", HERE.parent / "ebase.tcl", *ebase]
        elif build == "2.35, 2.28 defaults":
            cmd = ["/usr/bin/ns", HERE / "defaults228.tcl", HERE.parent / "ebase.tcl", *ebase]
        else:
            cmd = [ns, HERE / "defaults228.tcl", SHIM, HERE.parent / "paced" / "ebase_host.tcl", mode,
                   1.0 if mode != "none" else 0.0, *ebase]
        m, wall = run_ns_direct(cmd[0], cmd[1:])
    return {"build": build, "flows": 100, "buffer_bytes": kb * 1000, "seed": seed, "duration_s": 200,
            "warmup_s": 50, "mode": mode, **{k: m[k] for k in NS228_COLUMNS[7:12]}, "wall_s": f"{wall:.1f}"}


EFIG6_COLUMNS = ["scale", "window", "scheme", "buffer_bytes", "seed", "duration_s", "warmup_s", "aggregate_mbps",
                 "goodput_kbps_mean", "core_loss", "core_arrivals", "core_drops", "core_departures", "transfers",
                 "transfer_goodput_kbps_mean", "core_mbps", "wall_s"]
EFIG6_KEY = EFIG6_COLUMNS[:7]
CAUSES_E = ("udp-poisson-host-6-t100", "red-host-6-t100", "red-none-6-t100", "udp-fbm-host-10-t100")  # cheapest first

# The buffers where a host-paced verdict of paper E is decided (the host curve's points nearest the claim's
# margin, paper_e.json's numbers), each on its figure's setup: claim -> (setvars.tcl's NAME=VALUE pairs,
# ebase_host.tcl's VARIANT SINK QUEUE for each TCP, buffers in KB, hosts per edge of the 10 edges). Every host
# paced (original), as paper E's Wei pacer; E-fig7.1's SACK on the Sack1-gated build (--sack1-paced), the
# published patch leaving it unpaced.
DECIDE_E = {
    "E-fig3.3": ((), [("Reno", "", "")], (8, 15), 100),  # edge against host: 99.1 / 96.6 % at 8 KB, goodput 15 KB
    "E-fig5.7": (("access_lo=100", "access_hi=100"), [("Reno", "", "")], (10, 15), 100),  # 100 Mb/s access links
    "E-fig7.1": ((), [("Newreno", "", ""), ("Sack1", "Sack1", "")], (15,), 100),  # the paper-w pacer's miss at 15 KB
    "E-fig9.2": ((), [("Reno", "", "RED")], (10, 15), 100),  # RED: host first reaches 99 Mb/s at 15 KB (98.4 at 10)
    # E-fig8's network (efig8.tcl's rates; 100 flows): no core loss from 10 KB (8.1), host about unpaced (8.2); at 100
    # flows paper E's window_ 20 binds (each flow's share is 1.5 Mb/s), so it is set as the record has it
    "E-fig8.1": (("core_rate=200", "edge_rate=40", "access_lo=1", "access_hi=2", "window=20"), [("Reno", "", "")],
                 (5, 10), 10),
}
DECIDE_COLUMNS = ["claim", "variant", *run_paced.EBASE_COLUMNS]


def run_decide(ns, row):
    """DECIDE_E's point `row` (claim, ebase_host.tcl's VARIANT SINK QUEUE, buffer KB, seed): E-base, 1000
    flows, every host paced (original), 200 s over [50, 200] s, through setvars.tcl with the claim's figure's
    variables."""
    claim, tcp, kb, seed = row
    setvars, _, _, hosts = DECIDE_E[claim]
    out = run_paced.run_ebase(ns, (10, hosts, kb, seed, 200, 50, "original", 1.0, *tcp),
                              wrap=(HERE.parent / "setvars.tcl", *setvars))
    return {"claim": claim, **out}


def efig6_point(seed):
    """claim_refs.py's E-fig6 host point at x0.1 (bench/ns2/results/refs/ebase-short-paced.csv's host rows)."""
    return {"setup": "ebase-short-paced", "scale": 0.1, "window": 20, "scheme": "host", "buffer_bytes": 10_000,
            "seed": seed, "duration_s": 100, "warmup_s": 30}


def run_efig6(ns, row):
    p = efig6_point(row[0])
    with tempfile.TemporaryDirectory() as tmp:
        m, wall = run_paced.run_ns(ns, refs.ns2_args(p, Path(tmp)))
    return {**{k: p[k] for k in EFIG6_KEY}, **{k: m.get(k, "") for k in EFIG6_COLUMNS[7:-1]}, "wall_s": f"{wall:.1f}"}


def run_cause(ns, row):
    """causes_e.py's point `row[0]` (its script and arguments, as causes_e.run runs them)."""
    tag = row[0]
    claims, script, args = causes_e.POINTS[tag]
    with tempfile.TemporaryDirectory() as tmp:
        m, wall = run_paced.run_ns(ns, [HERE.parent / script, *causes_e.argv_of(args, tmp)])
    return {"tag": tag, "claims": claims, "script": script, "args": " ".join(args),
            **{k: m.get(k, "") for k in causes_e.METRICS}, "wall_s": f"{wall:.1f}"}


def grid(name, seeds=None):
    """(rows, CSV path, columns, key columns, runner, key of a row, seed of a row) of a grid, run at `seeds`
    (by default 1-2; W-s1: 1-10; ns228: seed 1 whatever `seeds`)."""
    if name == "ws1":
        rows = [(m, s, 10) for s in seeds or range(1, 11) for m in ("none", "original")]
        return (rows, RESULTS / "ws1.csv", run_paced.WS1_COLUMNS, run_paced.WS1_KEY, run_paced.run_ws1,
                lambda r: r, lambda r: r[1])
    seeds = seeds or (1, 2)
    if name in ("ebase", "efig17", "ebase-ci"):
        shares = (("none", 0.0), ("original", 1.0), ("modified", 1.0))
        if name == "ebase":
            rows = [(10, 100, kb, s, 200, 50, m, f) for s in seeds for kb in (3, 5, 10, 20) for m, f in shares]
        elif name == "ebase-ci":
            rows = [(10, 10, kb, s, 200, 50, m, f) for s in seeds for kb in (3, 5, 10, 20)
                    for m, f in (*shares, ("original", 0.3)) if f != 0.3 or kb in (5, 10)]
        else:
            # 50 KB: where E-fig17.1 is decided (the paced flows' deficit within 1 % on 4 of 10 seeds)
            rows = [(10, 100, kb, s, 200, 50, "original", 0.3) for s in seeds for kb in (5, 10, 50)]
        return (rows, RESULTS / "ebase-host.csv", run_paced.EBASE_COLUMNS, run_paced.EBASE_KEY, run_paced.run_ebase,
                lambda r: (r[0] * r[1], r[0], r[1], r[2] * 1000, *r[3:]), lambda r: r[3])
    if name == "efig7-fack":
        # The 100-flow rows first, then 1000 flows at 5 KB before 10 KB (each 1000-flow run is long).
        rows = [(10, h, kb, s, 200, 50, "original", 1.0, "Fack", "Sack1")
                for h, kbs in ((10, (5, 10)), (100, (5,)), (100, (10,))) for kb in kbs for s in seeds]
        return (rows, RESULTS / "ebase-fack.csv", ["variant", *run_paced.EBASE_COLUMNS],
                ["variant", *run_paced.EBASE_KEY], run_paced.run_ebase,
                lambda r: (r[8], r[0] * r[1], r[0], r[1], r[2] * 1000, *r[3:8]), lambda r: r[3])
    if name == "ns228":
        rows = [(b, kb, 1, "none") for kb in (5, 10) for b in NS228_BUILDS]
        rows += [("Wei, 2.28 defaults", kb, 1, "original") for kb in (5, 10)]
        return (rows, RESULTS / "ns228.csv", NS228_COLUMNS, NS228_KEY, run_ns228,
                lambda r: (r[0], 100, r[1] * 1000, r[2], 200, 50, r[3]), lambda r: r[2])
    if name == "efig6-host":
        return ([(s,) for s in seeds], RESULTS / "ebase-short-paced.csv", EFIG6_COLUMNS, EFIG6_KEY, run_efig6,
                lambda r: tuple(efig6_point(r[0])[k] for k in EFIG6_KEY), lambda r: r[0])
    if name == "causes-e":
        return ([(t,) for t in CAUSES_E], RESULTS / "causes-e.csv", causes_e.COLUMNS, ["tag"], run_cause,
                lambda r: r, lambda r: 1)
    if name == "decide-e":
        rows = [(c, tcp, kb, s) for s in seeds for c, (_, tcps, kbs, _) in DECIDE_E.items() for tcp in tcps for kb in kbs]
        hosts = lambda r: DECIDE_E[r[0]][3]
        return (rows, RESULTS / "decide-e.csv", DECIDE_COLUMNS, ["claim", "variant", *run_paced.EBASE_KEY],
                run_decide, lambda r: (r[0], r[1][0], 10 * hosts(r), 10, hosts(r), r[2] * 1000, r[3], 200, 50,
                                       "original", 1.0), lambda r: r[3])
    if name == "ws5":
        rows = [(v, m, s, 200, 20) for s in seeds for v in ("Reno", "Newreno", "Sack1")
                for m in ("original", "modified")]
        return (rows, RESULTS / "ws5.csv", WS5_COLUMNS, run_paced.WS5_KEY, ws5_table1,
                lambda r: (r[0], r[1], r[2], 40, 57, 48, 712000, 1500, r[3], r[4]), lambda r: r[2])
    if name == "ws4":
        rows = [(m, b, s) for s in seeds for b in WS4_BUFFERS for m in ("none", "original")]
        return (rows, RESULTS / "ws4.csv", WS4_COLUMNS, WS6_KEY, run_ws4,
                lambda r: ("Reno", r[0], 1, r[2], 5, 1000, 4, r[1], 1500, 200, 0, 0), lambda r: r[2])
    if name == "ws6":
        rows = [(m, s) for s in seeds for m in ("none", "modified", "original")]
        return (rows, RESULTS / "ws6.csv", WS6_COLUMNS, WS6_KEY, run_ws6,
                lambda r: ("Reno", r[0], 0.5, r[1], 5, 1000, 4, 30000, 1500, 200, 0, 100), lambda r: r[1])
    if name == "ws3-reno":
        rows = [("none", b, s) for s in seeds for b in WS3_RENO_BUFFERS]
        return (rows, RESULTS / "ws3-reno.csv", WS4_COLUMNS, WS6_KEY,
                lambda ns, row: run_ws4(ns, row, cross=100, name="ws3-reno"),
                lambda r: ("Reno", r[0], 1, r[2], 5, 1000, 4, r[1], 1500, 200, 0, 100), lambda r: r[2])
    rows = [(b, s) for s in seeds for b in (15_000_000, 1_000_000, 3_000_000)]
    return (rows, RESULTS / "ws3.csv", run_paced.WS3_COLUMNS, run_paced.WS3_KEY, run_paced.run_ws3,
            lambda r: ("Reno", "none", r[1], 5, 1000, 4, r[0], 1500, 200, 0, 100), lambda r: r[1])


BUILD = "/work/ns2-wei"
SACK1_BUILD = "/work/ns2-wei-sack"
"""build.sh's DIR for the published patch and for --sack1-paced, as built on this machine."""


def binary(build, sack1_paced):
    """The ns binary of build.sh's DIR `build` (its READY), checked to be the flavour asked for (its
    WEI_APPLIED: as-published, or sack1-paced)."""
    want = "sack1-paced" if sack1_paced else "as-published"
    try:
        flavour = (build / "WEI_APPLIED").read_text().strip()
        ns = (build / "READY").read_text().strip()
    except OSError as e:
        raise SystemExit(f"--build {build}: not a finished build.sh directory ({e}); give --build DIR or --ns PATH")
    if flavour != want:
        raise SystemExit(f"--build {build}: holds the {flavour} build, not {want}")
    return ns


def buffer_kb(name, row):
    """The core buffer (KB) of a row of grid `name` (E-base's rows hold it in KB, the others in bytes)."""
    return row[0] // 1000 if name == "ws3" else row[1] // 1000 if name in ("ws4", "ws3-reno") else row[2]


def seed_range(text):
    """--seeds A-B: the seeds A to B, both included (1 <= A <= B)."""
    try:
        a, b = (int(x) for x in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seeds {text!r}: expected A-B, two whole numbers (e.g. 11-100)")
    if not 1 <= a <= b:
        raise argparse.ArgumentTypeError(f"--seeds {text!r}: expected 1 <= A <= B")
    return range(a, b + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("grids", nargs="+", choices=["ws1", "ws5", "ws4", "ws6", "ws3", "ws3-reno", "ebase", "efig17", "ebase-ci",
                                                "efig6-host", "causes-e", "efig7-fack", "ns228", "decide-e"])
    ap.add_argument("--ns", help="the ns binary (default: the one named in the --build directory's READY)")
    ap.add_argument("--seed", type=int, action="append",
                    help="these seeds instead of 1-2 (W-s1: instead of 1-10; repeatable)")
    ap.add_argument("--seeds", type=seed_range, help="the seeds A to B (inclusive), as many --seed")
    ap.add_argument("--mode", action="append", choices=["none", "original", "modified"],
                    help="only these pacing modes (repeatable)")
    ap.add_argument("--buffer-kb", type=int, action="append",
                    help="E-base, W-s3, W-s4: only these buffers (repeatable; 1.5 MB is 1500)")
    ap.add_argument("--sack1-paced", action="store_true",
                    help="build.sh --sack1-paced's binary, SACK rows only, into results/sack1-paced/")
    ap.add_argument("--build", type=Path,
                    help=f"build.sh's DIR, whose READY names the binary (default {BUILD}, with --sack1-paced "
                         f"{SACK1_BUILD})")
    args = ap.parse_args()
    if args.seeds:
        args.seed = [*(args.seed or []), *args.seeds]
    ns = args.ns or binary(args.build or Path(SACK1_BUILD if args.sack1_paced else BUILD), args.sack1_paced)
    if args.sack1_paced:
        use_results(RESULTS / "sack1-paced")
    RESULTS.mkdir(parents=True, exist_ok=True)
    for name in args.grids:
        if args.sack1_paced and name not in ("ws1", "ws5", "decide-e"):
            raise SystemExit(f"--sack1-paced: {name} has no SACK rows")
        rows, path, columns, key, run, key_of, seed_of = grid(name, tuple(args.seed) if args.seed else None)
        sack = lambda r: r[1][0] == "Sack1" if name == "decide-e" else r[0] == "Sack1"
        rows = [r for r in rows if (not args.sack1_paced or name == "ws1" or sack(r))
                and (name != "decide-e" or sack(r) == args.sack1_paced)
                and (not args.seed or seed_of(r) in args.seed)
                and (not args.buffer_kb or name not in ("ebase", "efig17", "ebase-ci", "efig7-fack", "ws3", "ws4", "ws3-reno")
                     or buffer_kb(name, r) in args.buffer_kb)
                and (not args.mode or dict(zip(key, key_of(r))).get("mode", "none") in args.mode)]
        run_rows(ns, name, [(r, key_of(r)) for r in rows], path, columns, key, run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
