#!/usr/bin/env python3
"""pacesim with Wei's pacer against ns-2 2.35 built with Wei's pacing patch
(build.sh), from the committed ns-2 outputs in results/ (run_wei.py; ns-2 is
not needed here). pacesim runs every point with `pacing.host_pacer = "wei"`
and `tcp.window_cut = "flight"`: the whole patched binary cuts windows from
packets in flight, its unpaced runs and flows too.

- E-base (results/ebase-host.csv): unpaced, every host paced (original,
  modified), 30 % paced; 100 and 1000 flows, 200 s over [50, 200] s;
- E-fig7's FACK (results/ebase-fack.csv): E-base with Agent/TCP/Fack (pacesim
  tcp.variant = "fack"), every host paced (original);
- W-s5 (results/ws5.csv for Reno and NewReno; SACK from the build whose
  Sack1 is gated by the pacer, results/sack1-paced/ws5.csv: the published
  patch leaves SACK unpaced, pacesim paces it as paper W did);
- W-s6 (results/ws6.csv), W-s3 (results/ws3.csv) and W-s4 (results/ws4.csv, no cross
  traffic, every flow paced or none): 5 Reno flows on 1 Gb/s;
- W-s1 (results/sack1-paced/ws1.csv, the gated build): 16 SACK flows,
  latency to 1 MB, the mean over seeds of the fastest, median and slowest
  flow's, and the slowest-flow ratio unpaced / paced.

Each side is averaged over the seeds both ran (two, W-s1 ten) and held to
bench/ns2/fidelity.py's tolerances: throughput within 3 % of the link rate,
loss-like rates within 20 % (relative) where ns-2's exceeds 0.5 %, goodputs
(and W-s1's latencies, a goodput's inverse) within 5 %.

    PYTHONPATH=python python bench/ns2/wei/compare_pacesim.py [GRID...] [--workers N] [--markdown FILE]

GRID: ebase, efig7-fack, ws5, ws6, ws4, ws3, ws1 (default all). Prints the side-by-side
tables (and writes them as Markdown to FILE); exits 1 if any point misses.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from functools import partial
from pathlib import Path

import pandas as pd

import pacesim

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
RESULTS = HERE / "results"
# One module object under one name, shared with any test that loaded it first, so pool workers can
# unpickle its functions (pickle checks that the name resolves to the very same function).
fidelity = sys.modules.get("fidelity_ns2_paced")
if fidelity is None:
    _spec = importlib.util.spec_from_file_location("fidelity_ns2_paced", ROOT / "bench" / "ns2" / "paced" / "fidelity.py")
    fidelity = importlib.util.module_from_spec(_spec)
    sys.modules["fidelity_ns2_paced"] = fidelity
    _spec.loader.exec_module(fidelity)
base = fidelity.base

WEI = ("pacing.host_pacer=wei", "tcp.window_cut=flight")
"""pacesim as the patched binary: Wei's pacer, and window cuts from packets in flight in every agent."""
W_DUMBBELL = ROOT / "scenarios" / "w-dumbbell.toml"
W_S1 = ROOT / "scenarios" / "W-s1.toml"
WS1_PACKETS = 725  # paper W's 1 MB, in 1460 B segments
WS6_KEY = ["variant", "mode", "fraction", "flows", "rate_mbps", "core_delay_ms", "buffer_bytes", "packet_bytes",
           "duration_s", "warmup_s", "cross_mbps"]


NO_ROWS = pd.DataFrame({"ok": []})
"""The table of a grid ns-2 has not run yet."""


def load(name: str) -> pd.DataFrame:
    path = RESULTS / name
    return pd.read_csv(path) if path.exists() else pd.DataFrame()


def simulate_w_dumbbell(p: dict) -> dict:
    """W-s6, W-s3 or W-s4 (ws5.tcl's network, with cross traffic where `cross_mbps` > 0): 5 Reno flows, the
    share `fraction` of them paced (default 1) if `mode` is not "none"; the core's throughput (W-s4, no cross
    traffic: TCP's), the slowest and fastest flow's goodput (and the slowest paced one's), the sum of all."""
    pacing = (["pacing.scheme=none"] if p["mode"] == "none" else
              ["pacing.scheme=host", f"pacing.fraction={p.get('fraction', 1.0)}", f"pacing.host_mode={p['mode']}"])
    cross = ([f'traffic.udp=[{{kind = "onoff", rate = "{p["cross_mbps"]}Mbps", size = "210B", on = "500ms", '
              'off = "500ms", from = "x-src", to = "x-dst"}]'] if p["cross_mbps"] > 0 else [])
    s = pacesim.apply_overrides(pacesim.load_scenario(W_DUMBBELL), [
        f"topology.flows={p['flows']}", f"core.rate={p['rate_mbps']}Mbps", f"core.delay={p['core_delay_ms']}ms",
        f"core.buffer={p['buffer_bytes']}B", f"tcp.segment_size={p['packet_bytes'] - 40}B", "tcp.window=100000",
        "tcp.variant=reno", f"duration={p['duration_s']}s", f"warmup={p['warmup_s']}s",
        'traffic.start=["0s", "120ms"]', f"seed={p['seed']}", *pacing, *WEI, *cross])
    r = pacesim.run(s)
    f = r.flows
    paced = f[f.paced.astype(bool)].goodput_kbps
    return {**p, "aggregate_mbps": r.summary["aggregate_mbps"], "core_loss": r.summary["core_loss_rate"],
            "goodput_kbps_min": f.goodput_kbps.min(),
            "goodput_kbps_max": f.goodput_kbps.max(), "goodput_kbps_min_paced": paced.min() if len(paced) else None,
            "goodput_mbps_sum": f.goodput_kbps.sum() / 1000}


def simulate_ws1(p: dict) -> dict:
    """W-s1 (scenarios/W-s1.toml) at seed `seed`, unpaced or every flow paced: each flow's latency to its
    first 725 packets, from its progress every millisecond."""
    sweep = pacesim.sweep.load_sweep(W_S1)
    scheme = "none" if p["mode"] == "none" else "host"
    s = pacesim.apply_overrides(sweep.base, [*sweep.set, f"pacing.scheme={scheme}", f"seed={p['seed']}",
                                             f"duration={p['duration_s']}s", *WEI], sweep.root)
    r = pacesim.run(s)
    prog = r.progress
    done = prog[prog.bytes >= WS1_PACKETS * 1460].groupby("flow").t_s.min().sort_values().to_list()
    return {**p, "latency_min_s": done[0], "latency_median_s": done[len(done) // 2], "latency_max_s": done[-1],
            "core_loss": r.summary["core_loss_rate"]}


def _agree_relative(t: pd.DataFrame, goodputs: list[str], rates: list[str]) -> pd.DataFrame:
    """Goodput-like columns within 5 % where ns-2 has one, loss-like ones within 20 % above the floor."""
    for m in goodputs:
        present = t[f"{m}_ns2"].notna()
        t[f"ok_{m}"] = ~present | ((t[f"{m}_pacesim"] / t[f"{m}_ns2"] - 1).abs() <= base.TOL_GOODPUT)
    for m in rates:
        rel = (t[f"{m}_pacesim"] / t[f"{m}_ns2"] - 1).abs()
        t[f"ok_{m}"] = (t[f"{m}_ns2"] <= base.LOSS_FLOOR) | (rel <= base.TOL_LOSS)
    t["ok"] = t[[c for c in t.columns if c.startswith("ok_")]].all(axis=1)
    return t


def compare_w_dumbbell(ns2: pd.DataFrame, workers: int | None) -> pd.DataFrame:
    """W-s6, W-s3 or W-s4 rows: goodputs within 5 %, the sum and the core's throughput within 3 % of the link,
    core loss."""
    if ns2.empty:
        return NO_ROWS
    key = [k for k in WS6_KEY if k in ns2.columns]
    ours = fidelity._run_all(simulate_w_dumbbell, ns2[key + ["seed"]].to_dict("records"), workers)
    goodputs = [c for c in ("goodput_kbps_min", "goodput_kbps_max", "goodput_kbps_min_paced") if c in ns2.columns]
    sums = [c for c in ("aggregate_mbps", "goodput_mbps_sum") if c in ns2.columns]
    t = fidelity._side_by_side(ns2, ours, key, [*goodputs, *sums, "core_loss"])
    for m in sums:
        t[f"ok_{m}"] = (t[f"{m}_pacesim"] - t[f"{m}_ns2"]).abs() <= base.TOL_THROUGHPUT * t.rate_mbps
    return _agree_relative(t, goodputs, ["core_loss"])


WS1_LATENCIES = ["latency_min_s", "latency_median_s", "latency_max_s"]


def compare_ws1(ns2: pd.DataFrame, workers: int | None) -> pd.DataFrame:
    """W-s1 rows: the fastest, median and slowest flow's latency within 5 % (means over the seeds), core
    loss; and a last row with the slowest-flow ratio unpaced / paced (the claim W-s1.1)."""
    if ns2.empty:
        return NO_ROWS
    key = ["mode", "duration_s"]
    ours = fidelity._run_all(simulate_ws1, ns2[key + ["seed"]].to_dict("records"), workers)
    t = fidelity._side_by_side(ns2, ours, key, [*WS1_LATENCIES, "core_loss"])
    t = _agree_relative(t, WS1_LATENCIES, ["core_loss"])
    slowest = t.set_index("mode")
    ratio = {side: slowest.at["none", f"latency_max_s_{side}"] / slowest.at["original", f"latency_max_s_{side}"]
             for side in ("ns2", "pacesim")}
    row = {"mode": "unpaced / paced", "latency_max_s_ns2": ratio["ns2"], "latency_max_s_pacesim": ratio["pacesim"]}
    row["ok"] = abs(ratio["pacesim"] / ratio["ns2"] - 1) <= base.TOL_GOODPUT
    return pd.concat([t, pd.DataFrame([row])], ignore_index=True)


def _pair(m, f):
    """A cell "ns-2 / pacesim" of metric m, each written by f; empty where ns-2 has none."""
    return lambda r: "" if pd.isna(r.get(f"{m}_ns2")) else f"{f(r[m + '_ns2'])} / {f(r[m + '_pacesim'])}"


def _verdict(r) -> str:
    bad = [c.removeprefix("ok_") for c in r.index if c.startswith("ok_") and not pd.isna(r[c]) and not r[c]]
    return "yes" if r["ok"] else "no: " + (", ".join(bad) or "ratio")


def _table(t: pd.DataFrame, columns: list) -> str:
    """A Markdown table of t's rows: columns are (header, cell of a row), and a last "agrees"."""
    rows = ["| " + " | ".join(h for h, _ in columns) + " | agrees |", "|" + "---|" * (len(columns) + 1)]
    rows += ["| " + " | ".join(str(cell(r)) for _, cell in columns) + f" | {_verdict(r)} |" for _, r in t.iterrows()]
    return "\n".join(rows)


num, pct, kb = fidelity._num, fidelity._pct, (lambda r: f"{r['buffer_bytes'] / 1000:g}")
ms = lambda x: f"{1000 * x:.0f}"


def markdown_ebase(t: pd.DataFrame) -> str:
    share = lambda m: (lambda r: _pair(m, num)(r) if 0 < r["fraction"] < 1 else "")
    t = t.sort_values(["flows", "mode", "fraction", "buffer_bytes"], ascending=[False, True, False, True])
    return _table(t, [
        ("flows", lambda r: r["flows"]), ("pacing", lambda r: r["mode"]),
        ("paced share", lambda r: f"{r['fraction']:g}"), ("buffer KB", kb), ("seeds", lambda r: r["seeds"]),
        ("Mb/s ns-2 / pacesim", _pair("aggregate_mbps", num)),
        ("goodput Kb/s", _pair("goodput_kbps_mean", num)), ("paced Kb/s", share("goodput_kbps_paced")),
        ("unpaced Kb/s", share("goodput_kbps_unpaced")), ("core loss %", _pair("core_loss", pct))])


def markdown_w_dumbbell(t: pd.DataFrame) -> str:
    return _table(t.sort_values(["buffer_bytes", "mode"]), [
        ("buffer KB", kb), ("pacing", lambda r: r["mode"]), ("seeds", lambda r: r["seeds"]),
        ("slowest Kb/s ns-2 / pacesim", _pair("goodput_kbps_min", num)),
        ("fastest Kb/s", _pair("goodput_kbps_max", num)), ("slowest paced Kb/s", _pair("goodput_kbps_min_paced", num)),
        ("sum Mb/s", _pair("goodput_mbps_sum", num)), ("core loss %", _pair("core_loss", pct))])


def markdown_ws4(t: pd.DataFrame) -> str:
    return _table(t.sort_values(["buffer_bytes", "mode"]), [
        ("buffer KB", kb), ("pacing", lambda r: r["mode"]), ("seeds", lambda r: r["seeds"]),
        ("TCP Mb/s ns-2 / pacesim", _pair("aggregate_mbps", num)),
        ("slowest Kb/s", _pair("goodput_kbps_min", num)), ("fastest Kb/s", _pair("goodput_kbps_max", num)),
        ("core loss %", _pair("core_loss", pct))])


def markdown_ws1(t: pd.DataFrame) -> str:
    ratio = lambda r: f"x{r['latency_max_s_ns2']:.2f} / x{r['latency_max_s_pacesim']:.2f}"
    slowest = lambda r: ratio(r) if r["mode"] == "unpaced / paced" else _pair("latency_max_s", ms)(r)
    seeds = lambda r: "" if pd.isna(r["seeds"]) else int(r["seeds"])
    return _table(t, [("pacing", lambda r: r["mode"]), ("seeds", seeds),
                      ("fastest ms ns-2 / pacesim", _pair("latency_min_s", ms)),
                      ("median ms", _pair("latency_median_s", ms)), ("slowest ms", slowest),
                      ("core loss %", _pair("core_loss", pct))])


def grids(workers: int | None) -> dict:
    """Grid name -> (title, function making its table, Markdown of a table)."""
    ws5 = pd.concat([load("ws5.csv").query("variant != 'Sack1'"), load("sack1-paced/ws5.csv")], ignore_index=True)
    return {
        "ebase": ("E-base (ns-2 with Wei's patch / pacesim, mean over seeds)",
                  lambda: fidelity.compare_ebase(load("ebase-host.csv"), workers, WEI), markdown_ebase),
        "efig7-fack": ("E-fig7's FACK, every host paced (original): E-base (ns-2 with Wei's patch, Agent/TCP/Fack and "
                       "the Sack1 sink / pacesim, mean over seeds)",
                       lambda: fidelity.compare_ebase(load("ebase-fack.csv").drop(columns="variant", errors="ignore"),
                                                      workers, (*WEI, "tcp.variant=fack")), markdown_ebase),
        "ws5": ("Paper W scenario 5 (SACK: Sack1 gated)", lambda: fidelity.compare_ws5(ws5, workers, WEI),
                fidelity.markdown_ws5),
        "ws6": ("Paper W scenario 6, Reno, every second flow paced",
                partial(compare_w_dumbbell, load("ws6.csv"), workers), markdown_w_dumbbell),
        "ws4": ("Paper W scenario 4, Reno, every flow paced (original) or none, no cross traffic",
                partial(compare_w_dumbbell, load("ws4.csv"), workers), markdown_ws4),
        "ws3": ("Paper W scenario 3, Reno unpaced", partial(compare_w_dumbbell, load("ws3.csv"), workers),
                markdown_w_dumbbell),
        "ws1": ("Paper W scenario 1, latency to 1 MB (Sack1 gated)",
                partial(compare_ws1, load("sack1-paced/ws1.csv"), workers), markdown_ws1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("grids", nargs="*", metavar="GRID", help="ebase, efig7-fack, ws5, ws6, ws4, ws3 or ws1 (default: all)")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--markdown", type=Path, help="write the tables here")
    args = ap.parse_args()
    every = grids(args.workers)
    unknown = set(args.grids) - set(every)
    if unknown:
        ap.error(f"no grid {', '.join(sorted(unknown))}: choose from {', '.join(every)}")
    text, ok, n = [], 0, 0
    for name in args.grids or list(every):
        title, table, markdown = every[name]
        t = table()
        ok, n = ok + int(t.ok.sum()), n + len(t)
        text.append(f"{title}\n\n{markdown(t) if len(t) else '(no ns-2 rows yet)'}\n")
        print(text[-1], flush=True)
    text.append(f"{ok}/{n} points agree (throughput ±{base.TOL_THROUGHPUT:.0%} of the link rate, loss-like rates "
                f"±{base.TOL_LOSS:.0%} where ns-2's > {base.LOSS_FLOOR:.1%}, goodputs and latencies "
                f"±{base.TOL_GOODPUT:.0%})\n")
    print(text[-1])
    if args.markdown:
        args.markdown.write_text("\n".join(text))
    return 0 if ok == n else 1


if __name__ == "__main__":
    sys.exit(main())
