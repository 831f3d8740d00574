#!/usr/bin/env python3
"""pacesim's edge pacer and QLBP against ns-2 2.35 with this directory's
C++ pacers (edge_pacer.cc, qlbp.cc), from the committed ns-2 outputs
(results/edge-ebase.csv, results/qlbp-qdumbbell.csv, made by run_ns2.py;
ns-2 is not needed here); and, on the same Q-dumbbell, host pacing
(tcp-paced.cc, results/host-qdumbbell.csv), Q-fig18's "TCP pacing".

Reruns pacesim on every committed point (same scenario, pacer parameters and
seed), averages both simulators over seeds and holds them to the engine
issue's tolerances (tests/support/ns2_paced_edge.py, shared with
tests/test_fidelity_ns2_paced_edge.py): aggregate core throughput
within 3 % of the core rate, core loss within 20 % relative where ns-2's
exceeds 0.5 %, mean goodput within 5 % (and, with part of the edges paced,
the paced and the unpaced flows' mean goodput within 5 % each). Pacer
delays (packet-weighted mean over all pacers, and the largest) are shown
side by side. Writes the tables to EDGE_QLBP.md with --write; exits 1 if
a point misses.

    python bench/ns2/paced/compare.py [--workers N] [--write]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "tests"))
from support.ns2_paced_edge import FILES, RESULTS, compare, load  # noqa: E402


def _verdict(r) -> str:
    misses = [n for n, v in [("thr", r.ok_throughput), ("gp", r.ok_goodput), ("loss", r.ok_loss)] if not v]
    return "yes" if not misses else f"**no** ({', '.join(misses)})"


def markdown(edge: pd.DataFrame, qlbp: pd.DataFrame, host: pd.DataFrame) -> str:
    """The side-by-side tables of EDGE_QLBP.md."""
    pair = lambda r, m, f: f"{f.format(getattr(r, m + '_ns2'))} / {f.format(getattr(r, m + '_pacesim'))}"
    out = []
    head = ("| {} | seeds | Mb/s ns-2 / pacesim | goodput Kb/s | core loss % | pacer mean delay ms "
            "| pacer max delay ms | agrees |\n|---|---|---|---|---|---|---|---|")
    for title, g in [
        ("E-fig3: edge pacing on every edge, d = 10 ms", edge[(edge.paced_edges == edge.edges) & (edge.delay_ms == 10)]),
        ("E-fig11: the edge pacer's delay bound d at 5 KB", edge[(edge.paced_edges == edge.edges) & (edge.buffer_bytes == 5000)]),
    ]:
        out += [f"### {title}", "", head.format("buffer, d" if "E-fig11" in title else "buffer")]
        for r in g.sort_values(["buffer_bytes", "delay_ms"]).itertuples():
            out.append(f"| {r.buffer_bytes / 1000:g} KB, {r.delay_ms:g} ms | {r.seeds} | {pair(r, 'aggregate_mbps', '{:.2f}')} | "
                       f"{pair(r, 'goodput_kbps_mean', '{:.2f}')} | {pair(r, 'core_loss', '{:.2%}').replace('%', '')} | "
                       f"{pair(r, 'pacer_delay_ms_mean', '{:.3f}')} | {pair(r, 'pacer_delay_ms_max', '{:.3f}')} | {_verdict(r)} |")
        out.append("")
    part = edge[edge.paced_edges < edge.edges]
    if len(part):
        out += ["### E-fig17: 3 of 10 edges paced, d = 10 ms", "",
                "| buffer | seeds | Mb/s ns-2 / pacesim | goodput paced Kb/s | goodput unpaced Kb/s | core loss % "
                "| pacer mean delay ms | agrees |", "|---|---|---|---|---|---|---|---|"]
        for r in part.sort_values("buffer_bytes").itertuples():
            out.append(f"| {r.buffer_bytes / 1000:g} KB | {r.seeds} | {pair(r, 'aggregate_mbps', '{:.2f}')} | "
                       f"{pair(r, 'goodput_kbps_paced', '{:.2f}')} | {pair(r, 'goodput_kbps_unpaced', '{:.2f}')} | "
                       f"{pair(r, 'core_loss', '{:.2%}').replace('%', '')} | {pair(r, 'pacer_delay_ms_mean', '{:.3f}')} | "
                       f"{_verdict(r)} |")
        out.append("")
    if len(qlbp):
        out += ["### Q-fig18: QLBP on each access link (mu_max 100 Mb/s, mu_min 1 Mb/s)", "",
                head.format("core buffer, Q_max"), ]
        for r in qlbp.sort_values(["buffer_packets", "q_max"]).itertuples():
            q = f"Q_max {r.q_max}" if r.q_max else "no pacing"
            delays = (f"{pair(r, 'pacer_delay_ms_mean', '{:.3f}')} | {pair(r, 'pacer_delay_ms_max', '{:.3f}')}"
                      if r.q_max else "- | -")
            out.append(f"| {r.buffer_packets} pkts, {q} | {r.seeds} | {pair(r, 'aggregate_mbps', '{:.2f}')} | "
                       f"{pair(r, 'goodput_kbps_mean', '{:.1f}')} | {pair(r, 'core_loss', '{:.2%}').replace('%', '')} | "
                       f"{delays} | {_verdict(r)} |")
        out.append("")
    if len(host):
        out += ["### Q-fig18: TCP (host) pacing, original (tcp-paced.cc), no network pacer", "",
                "| core buffer | seeds | Mb/s ns-2 / pacesim | goodput Kb/s | core loss % | agrees |",
                "|---|---|---|---|---|---|"]
        for r in host.sort_values("buffer_packets").itertuples():
            out.append(f"| {r.buffer_packets} pkts | {r.seeds} | {pair(r, 'aggregate_mbps', '{:.2f}')} | "
                       f"{pair(r, 'goodput_kbps_mean', '{:.1f}')} | {pair(r, 'core_loss', '{:.2%}').replace('%', '')} | "
                       f"{_verdict(r)} |")
        out.append("")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--write", action="store_true", help="replace the tables in EDGE_QLBP.md")
    args = ap.parse_args()
    edge = compare("edge", load("edge"), args.workers)
    qlbp, host = (compare(k, load(k), args.workers) if (RESULTS / FILES[k]).exists() else pd.DataFrame()
                  for k in ("qlbp", "host"))
    tables = markdown(edge, qlbp, host)
    print(tables)
    both = pd.concat([edge, qlbp, host])
    print(f"{int(both.ok.sum())}/{len(both)} points agree")
    if args.write:
        doc = HERE / "EDGE_QLBP.md"
        text = doc.read_text()
        start, end = "<!-- tables: compare.py --write -->", "<!-- end tables -->"
        doc.write_text(text[: text.index(start) + len(start)] + "\n\n" + tables + "\n" + text[text.index(end):])
    return 0 if both.ok.all() else 1


if __name__ == "__main__":
    sys.exit(main())
