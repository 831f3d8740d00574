#!/usr/bin/env python3
"""Issue 31: what each paper's reading changes, and the readings still untried.

Every experiment is a figure's own sweep file (`scenarios/<id>.toml`, the
record's setup under its paper's reading, python/pacesim/reproduce/
readings.toml) with axes narrowed or overrides added; points are run into a
results store (reused when rerun) and their numbers written to
results/readings-<name>.csv; readings.md is generated from those files.

- `window-ebase`, `window-efig8`, `window-afig4` (Sec 1): the advertised
  window of ns-2's default (window_ 20, the reading of papers E and A)
  against pacesim's former 1000, on E-base and E-fig8 (none / host / edge)
  and on A-fig4's cwnd ranges.
- `rto6-host` (Sec 1): paper E's host pacing ran on ns-2 2.28, whose
  rtxcur_init_ is 6 s (2.33: 3 s).
- `kib-wire1000` (Sec 5, paper A): buffers of B KiB (1 KB = 1024 B) with
  1000 B TCP packets on the wire (999 B segments + 1 B header: pacesim takes
  no 0 B header), on A-fig11's setup, beside the record's KB and 1040 B.
- `video-afig2`, `video-afig3` (Secs 1 and 5): the synthetic Star Wars
  trace (mean, peak and peak / mean of paper A's), each frame spread over
  its interval or sent as one burst at the access rate, with TCP and alone.
- `ns2-poisson` (Sec 5): ns-2 has no Poisson source; its
  Application/Traffic/Exponential is on-off at `rate_` with exponential ON
  (`burst_time_`) and OFF (`idle_time_`) periods. UDP as pacesim's onoff at
  the 100 Mb/s access rate, 5 Mb/s on average, for three ON means: one
  packet (burst_time_ 0, the usual ns-2 way to approximate Poisson), 1 ms
  and 10 ms; on A-fig11's setup.
- `efig6-nosyn`, `efig6-persistent` (Sec 5): E-fig6's users without a SYN
  before each file, or with one persistent connection each
  (`traffic.short.persistent`).

    PYTHONPATH=python python bench/sensitivity/readings.py [--only NAME ...] [--report] [--workers N]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Sequence

import pandas as pd

from pacesim.reproduce.figure import scenarios_dir
from pacesim.store import Store
from pacesim.sweep import Sweep, executor, load_sweep, run_sweep

HERE = Path(__file__).resolve().parent
OUT = HERE / "results"
STORE = Path("/work/res/readings")

A11_BUFFERS = ["1KB", "2KB", "4KB", "6KB", "8KB", "11KB", "15KB", "20KB", "30KB"]
KIB_BUFFERS = [b for kb in ["1KB", "2KB", "4KB", "6KB", "8KB", "11KB", "15KB", "30KB"] for b in (kb, kb.replace("KB", "KiB"))]
VIDEO_BUFFERS = ["1KB", "2KB", "4KB", "6KB", "8KB", "12KB", "16KB", "20KB", "24KB", "30KB", "40KB", "50KB"]
# The A-fig11 readings run 400 s measured over [100, 400] s (the paper's 800 s over [200, 800] s halved).
HALF = ["duration=400s", "warmup=100s"]
UDP_ONLY = ['traffic.udp=[{kind = "poisson", rate = "5Mbps", size = "200B"}]']
STAR_WARS = "traces/synthetic-star-wars.txt"


def _video(send: str, rate: str = "", size: str = '"200B"') -> str:
    """A-fig2's (or, with rate and size, A-fig3's) UDP source with frames sent as `send`."""
    r = f'rate = "{rate}", ' if rate else ""
    return (f'traffic.udp=[{{kind = "trace", {r}size = {size}, trace = {{file = "{STAR_WARS}", '
            f'columns = ["frame", "time_s", "type", "bytes"], send = "{send}"}}}}]')


def _onoff(on_us: float, off_us: float) -> str:
    return (f'traffic.udp=[{{kind = "onoff", rate = "100Mbps", size = "200B", on = "{on_us}us", '
            f'off = "{off_us}us"}}]')


# ON-OFF at 100 Mb/s averaging 5 Mb/s of 200 B packets (16 us each at the peak). One packet per ON period (an ON
# mean far below a packet time): a cycle is 16 us + OFF, 320 us for 5 Mb/s, so OFF 304 us. Longer ON periods send
# ON / 16 us packets on average and the OFF mean is 19 ON for a 5 % duty cycle.
ONOFF = {"1 packet": (0.001, 304.0), "ON 1 ms": (1000.0, 19000.0), "ON 10 ms": (10000.0, 190000.0)}


@dataclass
class Experiment:
    """A figure's sweep with `axes` replacing its own, `set` added, and its variants replaced by `variants`."""

    name: str
    fig: str
    axes: Dict[str, list]
    what: str
    set: List[str] = field(default_factory=list)
    variants: Dict[str, List[str]] = field(default_factory=dict)
    seeds: List[int] = field(default_factory=lambda: [1])
    metrics: List[str] = field(default_factory=list)

    def sweep(self) -> Sweep:
        own = load_sweep(scenarios_dir() / f"{self.fig}.toml")
        return Sweep(name=f"readings-{self.name}", base=own.base, axes=self.axes, seeds=self.seeds,
                     set=own.set + self.set, variants={**own.variants, **self.variants}, root=own.root)


TCP = ["core_loss_rate", "tcp_utilisation", "aggregate_mbps", "goodput_kbps_mean"]
UDP = ["core_udp_loss_rate", "tcp_throughput_mbps", "core_loss_rate"]
EXPERIMENTS = [
    Experiment("window-ebase", "E-fig3", {"core.buffer": ["3KB", "5KB", "10KB", "20KB"],
                                          "pacing.scheme": ["none", "host", "edge"], "tcp.window": [1000, 20]},
               "E-base (1000 flows, 400 s over [100, 400] s, seed 1): window 1000 against ns-2's 20", metrics=TCP),
    Experiment("window-efig8", "E-fig8", {"core.buffer": ["5KB", "8KB", "10KB", "20KB"],
                                          "pacing.scheme": ["none", "host", "edge"], "tcp.window": [1000, 20]},
               "E-fig8 (100 flows on 1-2 Mb/s access links, 200 Mb/s core, 400 s over [100, 400] s, seed 1): "
               "window 1000 against ns-2's 20", metrics=["core_loss_rate", "tcp_utilisation", "goodput_kbps_mean"]),
    Experiment("window-afig4", "A-fig4", {"core.buffer": ["2KB", "20KB"], "variant": ["1000 flows", "200 flows"],
                                          "tcp.window": [1000, 20]},
               "A-fig4 (200 Mb/s core, 5 % Poisson UDP, 800 s over [200, 800] s, seed 1): each flow's mean cwnd, "
               "5th / 50th / 95th percentile over the flows",
               metrics=["mean_cwnd_p05", "mean_cwnd_p50", "mean_cwnd_p95", "tcp_utilisation", "core_loss_rate"]),
    Experiment("rto6-host", "E-fig3", {"core.buffer": ["3KB", "5KB", "10KB", "20KB"], "pacing.scheme": ["host"],
                                       "tcp.initial_rto": ["3s", "6s"]},
               "E-base host-paced (1000 flows, 400 s over [100, 400] s, seed 1): ns-2 2.33's rtxcur_init_ 3 s "
               "against 2.28's 6 s, the one default of the host-pacing build's TCP pacesim can set", metrics=TCP),
    Experiment("kib-wire1000", "A-fig11", {"core.buffer": KIB_BUFFERS, "variant": ["1040 B", "1000 B"]},
               "A-fig11 with TCP (1000 flows, 5 Mb/s Poisson UDP of 200 B, 400 s over [100, 400] s, seed 1): "
               "buffers of B KB or B KiB, TCP packets of 1040 B on the wire (the record) or 1000 B",
               set=HALF, variants={"1040 B": [], "1000 B": ["tcp.segment_size=999B", "tcp.header_size=1B"]},
               metrics=UDP),
    Experiment("video-afig2", "A-fig2", {"core.buffer": VIDEO_BUFFERS, "variant": ["spread", "burst", "spread, alone",
                                                                                  "burst, alone"]},
               "A-fig2 (1000 flows on 1 Mb/s, 10 Mb/s core, the synthetic Star Wars trace in 200 B packets, "
               "800 s over [200, 800] s, seed 1): frames spread over their 40 ms or sent as one burst, with TCP "
               "and alone (no TCP flow)",
               variants={"spread": [_video("spread")], "burst": [_video("burst")],
                         "spread, alone": [_video("spread"), "topology.tcp_hosts=0"],
                         "burst, alone": [_video("burst"), "topology.tcp_hosts=0"]}, metrics=UDP),
    Experiment("video-afig3", "A-fig3", {"core.buffer": VIDEO_BUFFERS, "variant": ["spread", "burst", "spread, alone",
                                                                                  "burst, alone"]},
               "A-fig3 (as A-fig2, the trace scaled to 770 kb/s in U[150, 300] B packets, seed 1)",
               variants={v: [_video(v.split(",")[0], "770kbps", '["150B", "300B"]')]
                         + (["topology.tcp_hosts=0"] if "alone" in v else [])
                         for v in ["spread", "burst", "spread, alone", "burst, alone"]}, metrics=UDP),
    Experiment("ns2-poisson", "A-fig11", {"core.buffer": A11_BUFFERS, "variant": ["Poisson", *ONOFF]},
               "A-fig11 with TCP (400 s over [100, 400] s, seed 1): pacesim's Poisson source against ns-2's "
               "exponential on-off at the 100 Mb/s access rate, 5 Mb/s on average",
               set=HALF, variants={"Poisson": UDP_ONLY, **{k: [_onoff(*v)] for k, v in ONOFF.items()}}, metrics=UDP),
    Experiment("efig6-nosyn", "E-fig6", {"core.buffer": ["5KB", "10KB", "15KB"], "pacing.scheme": ["none", "host", "edge"],
                                         "tcp.syn": [True, False]},
               "E-fig6 (1000 users, 400 s over [100, 400] s, seed 1): a SYN before each file (the record) or none",
               metrics=["transfer_goodput_kbps_mean", "transfers", "core_loss_rate", "tcp_utilisation"]),
    Experiment("efig6-persistent", "E-fig6", {"core.buffer": ["5KB", "10KB", "15KB"],
                                              "pacing.scheme": ["none", "host", "edge"],
                                              "traffic.short.persistent": [False, True]},
               "E-fig6 (1000 users, 400 s over [100, 400] s, seed 1): a new connection per file (the record) or one "
               "persistent connection per user (no SYN after the first file, window and RTT estimate kept)",
               metrics=["transfer_goodput_kbps_mean", "transfers", "core_loss_rate", "tcp_utilisation"]),
]
BY_NAME = {e.name: e for e in EXPERIMENTS}


def run(exp: Experiment, store_dir: Path, workers: int) -> pd.DataFrame:
    """Run (or reuse) `exp`'s points; its CSV written and returned."""
    sweep = exp.sweep()
    with Store(store_dir) as store, executor(workers) as pool:
        run_sweep(sweep, store, pool, progress=False)
        df = store.points(sweep.name, written=True)
    keep = [*exp.axes, "seed", "status"]
    cols = [c for c in keep if c in df] + [m for m in exp.metrics if m in df]
    out = df[cols]
    out.to_csv(OUT / f"readings-{exp.name}.csv", index=False)
    return out


def _table(df: pd.DataFrame, rows: Sequence[str], cols: str, value: str, fmt: str) -> List[str]:
    """A markdown table of `value` with one row per combination of `rows` and a column per value of `cols`."""
    piv = df.pivot_table(index=list(rows), columns=cols, values=value, aggfunc="mean", sort=False)
    head = [*rows, *[str(c) for c in piv.columns]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for idx, r in piv.iterrows():
        idx = idx if isinstance(idx, tuple) else (idx,)
        lines.append("| " + " | ".join([*map(str, idx), *(format(v, fmt) if pd.notna(v) else "-" for v in r)]) + " |")
    return lines


def report() -> str:
    lines = ["# Issue 31: what the papers' readings change, and the readings still untried", "",
             "Generated by `bench/sensitivity/readings.py --report` from `results/readings-*.csv`; do not edit. "
             "Each experiment is a figure's own sweep file (the record's setup under its paper's reading: "
             "window 20 for papers E and A) with the axes and overrides named; one seed.", ""]
    for exp in EXPERIMENTS:
        path = OUT / f"readings-{exp.name}.csv"
        if not path.exists():
            continue
        df = pd.read_csv(path)
        df = df[df.status == "ok"] if "status" in df else df
        lines += [f"## `{exp.name}`", "", exp.what + ".", ""]
        axes = [a for a in exp.axes if a != "core.buffer"]
        for m in exp.metrics:
            if m not in df or df[m].isna().all():
                continue
            pct = m.endswith("_rate") or m == "tcp_utilisation"
            shown = df.assign(**{m: df[m] * 100}) if pct else df
            lines += [f"{m}{' (%)' if pct else ''}:", ""]
            fmt = ".3f" if m == "core_udp_loss_rate" else ".0f" if m == "transfers" else ".2f"
            lines += _table(shown, axes, "core.buffer", m, fmt) + [""]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", choices=sorted(BY_NAME), help="experiments to run (default: all)")
    ap.add_argument("--report", action="store_true", help="only rewrite readings.md")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--store", type=Path, default=STORE)
    a = ap.parse_args(argv)
    if not a.report:
        for name in a.only or list(BY_NAME):
            df = run(BY_NAME[name], a.store, a.workers)
            print(f"{name}: {int((df.status == 'ok').sum())} of {len(df)} points", flush=True)
    (HERE / "readings.md").write_text(report(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
