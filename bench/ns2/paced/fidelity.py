#!/usr/bin/env python3
"""pacesim's host pacing against ns-2 2.35 with tcp-paced.cc, from the
committed ns-2 outputs (results/ebase-host.csv, results/ws5.csv, made by
run_paced.py; ns-2 is not needed here): every point of both, through
tests/support/ns2_paced_host.py (its docstring has what is compared and the
tolerances), shared with tests/test_fidelity_ns2_paced_host.py.

    python bench/ns2/paced/fidelity.py [--workers N] [--markdown FILE]

Prints the side-by-side tables (and writes them as Markdown to FILE); exits 1
if any point misses.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))
from support.ns2_paced_host import base, compare_ebase, compare_ws5, load  # noqa: E402


def _pct(x) -> str:
    return "" if pd.isna(x) else f"{100 * x:.2f}"


def _num(x) -> str:
    return "" if pd.isna(x) else f"{x:.1f}"


def _misses(r) -> str:
    bad = [c.removeprefix("ok_") for c in r.index if c.startswith("ok_") and not r[c]]
    return "yes" if not bad else "no: " + ", ".join(bad)


def markdown_ebase(t: pd.DataFrame) -> str:
    rows = ["| flows | paced share | buffer KB | seeds | Mb/s ns-2 / pacesim | goodput Kb/s ns-2 / pacesim | "
            "paced Kb/s | unpaced Kb/s | core loss % | agrees |", "|" + "---|" * 10]
    for r in t.sort_values(["flows", "fraction", "buffer_bytes"], ascending=[False, False, True]).itertuples(index=False):
        r = pd.Series(r._asdict())
        pair = lambda m, f: f"{f(r[m + '_ns2'])} / {f(r[m + '_pacesim'])}" if not pd.isna(r[m + "_ns2"]) else ""
        rows.append(f"| {r['flows']} | {r['fraction']:g} | {r['buffer_bytes'] / 1000:g} | {r['seeds']} | "
                    f"{pair('aggregate_mbps', _num)} | {pair('goodput_kbps_mean', _num)} | "
                    f"{pair('goodput_kbps_paced', _num) if r['fraction'] < 1 else ''} | "
                    f"{pair('goodput_kbps_unpaced', _num)} | {pair('core_loss', _pct)} | {_misses(r)} |")
    return "\n".join(rows)


def markdown_ws5(t: pd.DataFrame) -> str:
    rows = ["| TCP, pacing | T s | seeds | Mb/s ns-2 / pacesim | core loss % | paced Kb/s | unpaced Kb/s | "
            "paced rexmit % | unpaced rexmit % | paced loss events / RTT % | unpaced loss events / RTT % | agrees |",
            "|" + "---|" * 12]
    for r in t.sort_values(["duration_s", "variant", "mode"], ascending=[False, True, False]).itertuples(index=False):
        r = pd.Series(r._asdict())
        pair = lambda m, f: f"{f(r[m + '_ns2'])} / {f(r[m + '_pacesim'])}"
        rows.append(f"| {r['variant']}, {r['mode']} | {r['duration_s']} | {r['seeds']} | {pair('aggregate_mbps', _num)} | "
                    f"{pair('core_loss', _pct)} | {pair('goodput_kbps_paced', _num)} | "
                    f"{pair('goodput_kbps_unpaced', _num)} | {pair('retransmit_rate_paced', _pct)} | "
                    f"{pair('retransmit_rate_unpaced', _pct)} | {pair('loss_events_per_rtt_paced', _pct)} | "
                    f"{pair('loss_events_per_rtt_unpaced', _pct)} | {_misses(r)} |")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--markdown", type=Path, help="write the tables here")
    args = ap.parse_args()
    te = compare_ebase(load("ebase-host.csv"), args.workers)
    tw = compare_ws5(load("ws5.csv"), args.workers)
    n = len(te) + len(tw)
    ok = int(te.ok.sum() + tw.ok.sum())
    text = (f"E-base, host pacing (original), measured over [warm-up, T] (mean over seeds; ns-2 / pacesim)\n\n"
            f"{markdown_ebase(te)}\n\nPaper W scenario 5 (ns-2 / pacesim)\n\n{markdown_ws5(tw)}\n\n"
            f"{ok}/{n} points agree (throughput ±{base.TOL_THROUGHPUT:.0%} of the link rate, loss-like rates "
            f"±{base.TOL_LOSS:.0%} where ns-2's > {base.LOSS_FLOOR:.1%}, goodput ±{base.TOL_GOODPUT:.0%})\n")
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    return 0 if ok == n else 1


if __name__ == "__main__":
    sys.exit(main())
