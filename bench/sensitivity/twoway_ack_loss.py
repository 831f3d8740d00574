#!/usr/bin/env python3
"""What decides ACK loss in two-way TCP (A-fig23), at A-fig23's quick size.

Two probes of A-fig23's [quick] setup (a-base, 100 host pairs with a Reno
flow each way, 1 Mb/s access links, 10 Mb/s core, 100 s measured from 30 s),
printing ACK loss at r0 (`core`) and r1 (`core.rev`) with r0's data loss and
the TCP goodput of both directions:

- `scan`: the core buffer in 500 B steps (seed 1). An ACK is dropped only
  when the bytes waiting reach the limit less 40 B, and what waits is whole
  1040 B data packets and 40 B ACKs, so ACK loss swings between nothing and
  about 2 % with the buffer's remainder modulo 1040 B.
- `delays`: a-base's receivers have no access delay (paper A gives the
  senders' only), so every ACK reaches r1 spaced as its data packet left r0,
  and r1 drops fewer ACKs than r0. The same network as a graph, once as
  a-base (senders U[1, 25] ms, receivers 0) and once with each side
  U[0.5, 12.5] ms (seeds 1-3, means): r1 then loses as many ACKs as r0.

    python bench/sensitivity/twoway_ack_loss.py scan [--buffers 13000 22000]
    python bench/sensitivity/twoway_ack_loss.py delays
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

import pacesim

ROOT = Path(__file__).resolve().parents[2]
HOSTS = 100
QUICK = ["topology.tcp_hosts=100", "core.rate=10Mbps", "topology.access_rate=1Mbps",
         "topology.udp_access_rate=10Mbps", "duration=100s", "warmup=30s", "traffic.two_way=true"]
DELAY_BUFFERS = ["2KB", "4KB", "6KB", "8KB", "11KB", "15KB", "20KB", "30KB", "40KB", "50KB"]


def losses(r: pacesim.Result, forward: str, reverse: str) -> dict:
    """ACK loss at both core queues (%), data loss at the forward one (%) and TCP goodput (Mb/s)."""
    links = r.links
    return {"ack_r0_pct": 100 * links.loc[forward, "ack_loss_rate"], "ack_r1_pct": 100 * links.loc[reverse, "ack_loss_rate"],
            "data_r0_pct": 100 * links.loc[forward, "data_loss_rate"], "tcp_mbps": r.flows["goodput_kbps"].sum() / 1e3}


def scan(lo: int, hi: int) -> pd.DataFrame:
    base = pacesim.load_scenario(ROOT / "scenarios" / "a-base.toml")
    rows = []
    for b in range(lo, hi + 1, 500):
        r = pacesim.run(pacesim.apply_overrides(base, QUICK + [f"core.buffer={b}B"]))
        rows.append({"buffer_B": b, "mod_1040": b % 1040, **losses(r, "core", "core.rev")})
    return pd.DataFrame(rows)


def graph(buffer: str, seed: int, split: bool) -> dict:
    """A-fig23 quick as a graph: r0 -> r1 the core, host pair i s<i> -> r0, r1 -> d<i>."""
    sender = ["0.5ms", "12.5ms"] if split else ["1ms", "25ms"]
    receiver = ["0.5ms", "12.5ms"] if split else "0ms"
    links = [{"from": "r0", "to": "r1", "core": True}]
    for i in range(HOSTS):
        links += [{"from": f"s{i}", "to": "r0", "rate": "1Mbps", "delay": sender},
                  {"from": "r1", "to": f"d{i}", "rate": "1Mbps", "delay": receiver}]
    return {"seed": seed, "duration": "100s", "warmup": "30s",
            "topology": {"kind": "graph", "nodes": ["r0", "r1"],
                         "hosts": [f"{side}{i}" for side in "sd" for i in range(HOSTS)],
                         "links": links, "flows": [{"from": f"s{i}", "to": f"d{i}"} for i in range(HOSTS)]},
            "core": {"rate": "10Mbps", "delay": "50ms", "buffer": buffer},
            "traffic": {"start": ["0s", "10s"], "two_way": True}}


def delays() -> pd.DataFrame:
    rows = [{"receivers": "U[0.5, 12.5] ms" if split else "0 ms (a-base)", "buffer": b, "seed": seed,
             **losses(pacesim.run(graph(b, seed, split)), "r0-r1", "r1-r0")}
            for split in (False, True) for b in DELAY_BUFFERS for seed in (1, 2, 3)]
    return pd.DataFrame(rows).groupby(["receivers", "buffer"], sort=False).mean().drop(columns="seed").reset_index()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("probe", choices=["scan", "delays"])
    ap.add_argument("--buffers", nargs=2, type=int, default=[13000, 22000], metavar=("LO", "HI"),
                    help="scan: first and last buffer, bytes")
    args = ap.parse_args()
    table = scan(*args.buffers) if args.probe == "scan" else delays()
    print(table.round(4).to_string(index=False))


if __name__ == "__main__":
    main()
