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
- the buffers that decide paper E's host-paced verdicts (results/decide-e.csv:
  E-fig3.3, E-fig5.7, E-fig7.1's NewReno, E-fig9.2's RED; E-fig7.1's SACK
  from the Sack1-gated build, results/sack1-paced/decide-e.csv), each on its
  figure's setup, every host paced (original);
- W-s5 (results/ws5.csv for Reno and NewReno; SACK from the build whose
  Sack1 is gated by the pacer, results/sack1-paced/ws5.csv: the published
  patch leaves SACK unpaced, pacesim paces it as paper W did);
- W-s6 (results/ws6.csv), W-s3 (results/ws3.csv) and W-s4 (results/ws4.csv, no cross
  traffic, every flow paced or none): 5 Reno flows on 1 Gb/s;
- W-s1 (results/sack1-paced/ws1.csv, the gated build): 16 SACK flows,
  latency to 1 MB, the mean over seeds of the fastest, median and slowest
  flow's, and the slowest-flow ratio unpaced / paced.

Each side is averaged over the seeds both ran (two; W-s1 1-100, W-s3 at 15 MB more: seeds.py) and held to
the E-base tolerances (tests/support/ns2_wei.py, shared with
tests/test_fidelity_ns2_wei.py): throughput within 3 % of the link rate,
loss-like rates within 20 % (relative) where ns-2's exceeds 0.5 %, goodputs
(and W-s1's latencies, a goodput's inverse) within 5 %.

    PYTHONPATH=python python bench/ns2/wei/compare_pacesim.py [GRID...] [--workers N] [--markdown FILE]

GRID: ebase, efig7-fack, decide-e, ws5, ws6, ws4, ws3, ws1 (default all). Prints the side-by-side
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tests"))
from support.ns2_wei import WEI, base, compare_decide, compare_w_dumbbell, compare_ws1, fidelity, load  # noqa: E402

# The Markdown of the host-paced comparisons (E-base, W-s5) is bench/ns2/paced/fidelity.py's.
_spec = importlib.util.spec_from_file_location("paced_fidelity_tables", HERE.parent / "paced" / "fidelity.py")
tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tables)


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


num, pct, kb = tables._num, tables._pct, (lambda r: f"{r['buffer_bytes'] / 1000:g}")
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


def markdown_decide(t: pd.DataFrame) -> str:
    return _table(t.sort_values(["claim", "buffer_bytes"]), [
        ("claim", lambda r: r["claim"]), ("TCP", lambda r: r["variant"]), ("buffer KB", kb),
        ("seeds", lambda r: r["seeds"]),
        ("Mb/s ns-2 / pacesim", _pair("aggregate_mbps", num)), ("goodput Kb/s", _pair("goodput_kbps_mean", num)),
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
        "decide-e": ("The buffers that decide paper E's host-paced verdicts: E-base, 1000 flows, every host paced "
                     "(original), each claim's figure (ns-2 with Wei's patch / pacesim, mean over seeds)",
                     lambda: compare_decide(pd.concat([load("decide-e.csv"), load("sack1-paced/decide-e.csv")],
                                                       ignore_index=True), workers), markdown_decide),
        "ws5": ("Paper W scenario 5 (SACK: Sack1 gated)", lambda: fidelity.compare_ws5(ws5, workers, WEI),
                tables.markdown_ws5),
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
    ap.add_argument("grids", nargs="*", metavar="GRID", help="ebase, efig7-fack, decide-e, ws5, ws6, ws4, ws3 or ws1 (default: all)")
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
