#!/usr/bin/env python3
"""pacesim against ns-2 2.35 on E-base and paper W scenario 4, from the committed ns-2 outputs.

Reruns pacesim on every point, configuration and seed of bench/ns2/results/ebase*.csv and wan-*.csv
(made by bench/ns2/run_ebase.py; ns-2 is not needed here), averages both over seeds and checks the
engine issue's tolerances (tests/support/ns2_ebase.py, shared with tests/test_fidelity_ns2.py):

- aggregate core throughput within 3 % of the core link rate;
- core loss rate within 20 % (relative) wherever ns-2's exceeds 0.5 %;
- mean per-flow goodput within 5 % (relative).

Prints the side-by-side table and exits 1 if any point misses.

    python bench/ns2/fidelity.py [--flows 100] [--workers N] [--csv FILE]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from support.ns2_ebase import LOSS_FLOOR, TOL_GOODPUT, TOL_LOSS, TOL_THROUGHPUT, compare, load_reference  # noqa: E402


def show(t: pd.DataFrame, console: Console) -> None:
    for (config, flows, duration, warmup), g in t.groupby(["config", "flows", "duration_s", "warmup_s"]):
        seeds = g.seeds.max()
        table = Table(title=f"{'paper W scenario 4' if config.startswith('wan-') else 'E-base'}, {config}, {flows} flows, {duration} s measured over [{warmup}, {duration}] s "
                            f"(mean over {seeds} seed{'s' if seeds > 1 else ''})")
        for col in ["buffer", "Mb/s ns-2", "Mb/s pacesim", "Kb/s ns-2", "Kb/s pacesim", "loss % ns-2",
                    "loss % pacesim", "agrees"]:
            table.add_column(col, justify="right")
        for r in g.sort_values("buffer_bytes").itertuples():
            ok = r.ok_throughput and r.ok_goodput and r.ok_loss
            misses = [n for n, v in [("thr", r.ok_throughput), ("gp", r.ok_goodput), ("loss", r.ok_loss)] if not v]
            table.add_row(f"{r.buffer_bytes // 1000:g} KB", f"{r.aggregate_mbps_ns2:.1f}", f"{r.aggregate_mbps_pacesim:.1f}",
                          f"{r.goodput_kbps_mean_ns2:.1f}", f"{r.goodput_kbps_mean_pacesim:.1f}",
                          f"{100 * r.core_loss_ns2:.2f}", f"{100 * r.core_loss_pacesim:.2f}",
                          "[green]yes" if ok else f"[red]no ({', '.join(misses)})")
        console.print(table)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flows", type=int, action="append", help="only these flow counts (repeatable)")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--csv", type=Path, help="also write the comparison table here")
    args = ap.parse_args()
    ns2 = load_reference()
    if args.flows:
        ns2 = ns2[ns2.flows.isin(args.flows)]
    t = compare(ns2, args.workers)
    console = Console()
    show(t, console)
    if args.csv:
        t.to_csv(args.csv, index=False)
    bad = t[~(t.ok_throughput & t.ok_goodput & t.ok_loss)]
    console.print(f"{len(t) - len(bad)}/{len(t)} points agree "
                  f"(throughput ±{TOL_THROUGHPUT:.0%} of link rate, loss ±{TOL_LOSS:.0%} where ns-2 > "
                  f"{LOSS_FLOOR:.1%}, goodput ±{TOL_GOODPUT:.0%})")
    return 1 if len(bad) else 0


if __name__ == "__main__":
    sys.exit(main())
