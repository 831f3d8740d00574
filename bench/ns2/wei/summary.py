#!/usr/bin/env python3
"""The tables of README.md's "Results", from results/*.csv (run_wei.py's
output) and, side by side, bench/ns2/paced/results (the same scenarios on
ns-2 with tcp-paced.cc, pacesim's reading of paper W). ns-2 is not needed.

    PYTHONPATH=python python bench/ns2/wei/summary.py

Each row is the mean over the seeds present. W-s1's claims are evaluated
with bench/ns2/paced/ws1_claims.py (pacesim's own checks) on the per-flow
files.
"""

import csv
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACED = HERE.parent / "paced"
sys.path.insert(0, str(PACED))


def rows(path):
    if not path.exists():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


def means(table, key, cols):
    """{key tuple: ({col: mean}, number of seeds)} over the rows of `table`."""
    groups = defaultdict(list)
    for r in table:
        groups[tuple(r[k] for k in key)].append(r)
    return {k: ({c: sum(float(r[c]) for r in g if r[c] != "") / max(1, sum(r[c] != "" for r in g)) for c in cols},
                len(g)) for k, g in groups.items()}


def fmt(x, scale=1.0, digits=1):
    return f"{x * scale:.{digits}f}"


def ws5():
    cols = ["goodput_kbps_paced", "goodput_kbps_unpaced", "retransmit_rate_paced", "retransmit_rate_unpaced",
            "loss_events_per_rtt_paced", "loss_events_per_rtt_unpaced", "core_loss"]
    table1 = ["loss_per_packet_paced", "loss_per_packet_unpaced", "loss_event_rate_paced", "loss_event_rate_unpaced",
              "core_qdelay_ms"]
    wei = means(rows(HERE / "results" / "ws5.csv"), ["variant", "mode"], cols + table1)
    gated = means(rows(HERE / "results" / "sack1-paced" / "ws5.csv"), ["variant", "mode"], cols + table1)
    stock = means(rows(PACED / "results" / "ws5.csv"), ["variant", "mode"], cols)
    print("| TCP, pacing | build | seeds | goodput paced / unpaced (Kb/s) | retransmitted per packet, paced / "
          "unpaced (%) | loss events per flow per 100 ms, paced / unpaced (%) | core loss (%) |")
    print("|---|---|---|---|---|---|---|")
    for (v, m), (x, n) in sorted(wei.items()):
        for build, table in (("Wei", wei), ("Wei, Sack1 gated", gated), ("tcp-paced.cc", stock)):
            if (v, m) not in table:
                continue
            x, n = table[(v, m)]
            print(f"| {v}, {m} | {build} | {n} | {fmt(x['goodput_kbps_paced'])} / {fmt(x['goodput_kbps_unpaced'])} "
                  f"| {fmt(x['retransmit_rate_paced'], 100, 2)} / {fmt(x['retransmit_rate_unpaced'], 100, 2)} "
                  f"| {fmt(x['loss_events_per_rtt_paced'], 100, 2)} / {fmt(x['loss_events_per_rtt_unpaced'], 100, 2)} "
                  f"| {fmt(x['core_loss'], 100, 3)} |")
    print("\nPaper W Table I's rates (Reno, original: per-packet loss 0.6469 / 0.8663 %, loss-event rate "
          "6.75 / 8.75 %):\n")
    print("| TCP, pacing | build | per-packet loss, paced / unpaced (%) | loss-event rate, paced / unpaced (%) "
          "| mean core queueing delay (ms) |")
    print("|---|---|---|---|---|")
    for build, table in (("Wei", wei), ("Wei, Sack1 gated", gated)):
        for (v, m), (x, n) in sorted(table.items()):
            print(f"| {v}, {m} | {build} | {fmt(x['loss_per_packet_paced'], 100, 3)} / "
                  f"{fmt(x['loss_per_packet_unpaced'], 100, 3)} | {fmt(x['loss_event_rate_paced'], 100, 2)} / "
                  f"{fmt(x['loss_event_rate_unpaced'], 100, 2)} | {fmt(x['core_qdelay_ms'])} |")


def ws1():
    import ws1_claims
    for name, flows in (("Wei (SACK not paced)", HERE / "results" / "flows"),
                        ("Wei, Sack1 gated", HERE / "results" / "sack1-paced" / "flows"),
                        ("tcp-paced.cc", PACED / "results" / "flows")):
        if not any(flows.glob("ws1_*_progress.csv")):
            continue
        print(f"{name}:")
        ws1_claims.FLOWS = flows
        ws1_claims.main()


def ebase():
    cols = ["aggregate_mbps", "goodput_kbps_mean", "goodput_kbps_paced", "goodput_kbps_unpaced", "core_loss"]
    key = ["flows", "buffer_bytes", "mode", "fraction"]
    wei = means(rows(HERE / "results" / "ebase-host.csv"), key, cols)
    stock = means(rows(PACED / "results" / "ebase-host.csv"), key, cols)
    # Debian's own ns (no pacing code), seeds 1-2 of the 200 s runs: the unpaced rows' reference.
    debian = means([{**r, "mode": "none", "fraction": "0.0", "goodput_kbps_paced": "", "goodput_kbps_unpaced": ""}
                    for r in rows(HERE.parent / "results" / "ebase.csv")
                    if r["seed"] in ("1", "2") and r["duration_s"] == "200"], key, cols)
    print("| flows | buffer | pacing (share) | build | seeds | core Mb/s | mean goodput Kb/s | paced / unpaced Kb/s "
          "| core loss (%) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k in sorted(wei, key=lambda k: (int(k[0]), int(k[1]), k[2], k[3])):
        for build, table in (("Wei", wei), ("tcp-paced.cc", stock), ("Debian 2.35", debian)):
            if k not in table:
                continue
            x, n = table[k]
            split = (f"{fmt(x['goodput_kbps_paced'])} / {fmt(x['goodput_kbps_unpaced'])}"
                     if k[3] not in ("0.0", "1.0") else "")
            print(f"| {k[0]} | {int(k[1]) // 1000} KB | {k[2]} ({k[3]}) | {build} | {n} | {fmt(x['aggregate_mbps'], 1, 2)} "
                  f"| {fmt(x['goodput_kbps_mean'])} | {split} | {fmt(x['core_loss'], 100, 3)} |")


def wlan(name, key, cols):
    wei = rows(HERE / "results" / f"{name}.csv")
    stock = rows(PACED / "results" / f"{name}.csv")
    print(f"| {' | '.join(key)} | build | {' | '.join(cols)} |")
    print("|" + "---|" * (len(key) + 1 + len(cols)))
    for build, table in (("Wei", wei), ("tcp-paced.cc", stock)):
        for r in table:
            print(f"| {' | '.join(r[k] for k in key)} | {build} | {' | '.join(r.get(c, '') for c in cols)} |")


def ns228():
    print("| binary | buffer | pacing | core Mb/s | mean goodput Kb/s | core loss (%) |")
    print("|---|---|---|---|---|---|")
    for r in rows(HERE / "results" / "ns228.csv"):
        print(f"| {r['build']} | {int(r['buffer_bytes']) // 1000} KB | {r['mode']} | {float(r['aggregate_mbps']):.2f} "
              f"| {float(r['goodput_kbps_mean']):.1f} | {100 * float(r['core_loss']):.3f} |")


def main():
    print("## W-s5\n")
    ws5()
    print("\n## W-s1\n")
    ws1()
    print("\n## W-s6\n")
    wlan("ws6", ["mode", "seed"], ["core_loss", "goodput_kbps_min", "goodput_kbps_min_paced", "goodput_mbps_sum"])
    print("\n## W-s3\n")
    wlan("ws3", ["buffer_bytes", "seed"], ["core_loss", "goodput_kbps_min", "goodput_kbps_max"])
    print("\n## E-base\n")
    ebase()
    print("\n## ns-2.28 against 2.35 (E-base, 100 flows, seed 1)\n")
    ns228()


if __name__ == "__main__":
    main()
