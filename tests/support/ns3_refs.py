"""The ns-3 references (bench/ns3/): the dumbbells both simulators run, pacesim's side of a point and the
references' tolerance rule applied to a row of bench/ns3/results/*.csv. bench/ns3/compare.py runs the points;
tests/test_fidelity_ns3.py checks pacesim against the committed rows."""

import csv
from pathlib import Path
from typing import Optional

from .ns2_refs import agrees_at

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "ns3" / "results"

QUEUES = ("droptail", "codel", "fq_codel", "pie")
# DCTCP's switch (bench/ns3/dumbbell.py's `mark`: drop-tail marking from K, a third of the buffer in whole
# packets, as issue 37's X-transports sets it), which only `dctcp` runs; the rows' order after QUEUES.
MARK = "mark"
ORDER = QUEUES + (MARK,)
SEEDS = (1, 2)
COMMON = dict(duration_s=60, warmup_s=20, start_s=[0, 10], edge_rate="1Gbps", edge_delay="1ms")
SETUPS = {
    # Ten flows through a 10 Mb/s core; base RTT 48 ms, so one BDP is 60 KB: a quarter, one and four BDPs.
    "dumbbell10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                       core_delay="20ms", buffers=(15000, 60000, 240000)),
    # dumbbell10 with DCTCP through a marking queue (bench/ns3/results/dctcp10.csv).
    "dctcp10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                    core_delay="20ms", buffers=(15000, 60000, 240000)),
    # E-base's core (100 Mb/s, 100 ms) and buffers with 100 flows on 10 Mb/s access links, rates fixed.
    "ebase100": dict(COMMON, flows=100, access_rate="10Mbps", access_delay="3ms", core_rate="100Mbps",
                     core_delay="100ms", buffers=(5000, 10000, 50000)),
    # dumbbell10 with two of ns-3 3.44's TCP departures from Linux set aside (bench/ns3/README.md, "CUBIC"): the
    # RTO floored as Linux floors it (srtt + max(200 ms, 4 rttvar): ClockGranularity 200 ms, where 3.44 takes
    # max(200 ms, srtt + 4 rttvar) and never re-arms the timer at a fast retransmit), and SACK's loss recovery
    # (RFC 6675) without 3.44's proportional rate reduction, which counts each SACKed segment of a duplicate ACK
    # twice (ns-3 issue 1350, mended in ns-3-dev in July 2026, after 3.46.1).
    "cubic10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                    core_delay="20ms", buffers=(15000, 60000, 240000),
                    ns3_defaults={"ns3::TcpSocketBase::ClockGranularity": "200ms",
                                  "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpClassicRecovery"}),
    # cubic10 with ns-3's TcpCubic raising W_est as RFC 9438 Sec 4.3 asks (alpha_cubic 1 once W_est reaches
    # cwnd_prior, where 3.44 and Linux keep 0.53): `TcpCubicRfcAlpha` (bench/ns3/dumbbell.py).
    "cubic-alpha10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                          core_delay="20ms", buffers=(15000, 60000, 240000),
                          ns3_defaults={"ns3::TcpSocketBase::ClockGranularity": "200ms",
                                        "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpClassicRecovery",
                                        "ns3::TcpL4Protocol::SocketType": "ns3::TcpCubicRfcAlpha"}),
    # dumbbell10's drop-tail at a quarter and one BDP with cubic10's two ns-3 departures set aside, for NewReno's
    # window (`sack`): not the cause of ns-3's lower loss there (bench/ns3/README.md).
    "newreno10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                      core_delay="20ms", buffers=(15000, 60000), queues=("droptail",),
                      ns3_defaults={"ns3::TcpSocketBase::ClockGranularity": "200ms",
                                    "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpClassicRecovery"}),
    # The same points with the departure that is the cause set aside, and nothing else: 3.44's
    # `TcpNewReno::GetSsThresh` halves RFC 6675's pipe (`BytesInFlight()`, without what is SACKed and the head
    # just marked lost) where RFC 5681 halves FlightSize and Linux (`tcp_reno_ssthresh`) and ns-2 halve cwnd;
    # `TcpNewRenoHalfCwnd` (bench/ns3/dumbbell.py) is TcpNewReno halving cwnd.
    "ssthresh10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                       core_delay="20ms", buffers=(15000, 60000), queues=("droptail", "codel", "pie"),
                       ns3_defaults={"ns3::TcpL4Protocol::SocketType": "ns3::TcpNewRenoHalfCwnd"}),
    # ssthresh10 with 3.44's PRR set aside as well (RFC 6675 recovery alone, as on cubic10): where CoDel or PIE
    # decides the drops the recovery does.
    "ssthresh-noprr10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                             core_delay="20ms", buffers=(15000, 60000), queues=("droptail", "codel", "pie"),
                             ns3_defaults={"ns3::TcpL4Protocol::SocketType": "ns3::TcpNewRenoHalfCwnd",
                                           "ns3::TcpL4Protocol::RecoveryType": "ns3::TcpClassicRecovery"}),
    # ssthresh10's NewReno without SACK with 3.44's count of the duplicate ACKs before a fast retransmit set aside
    # as well: its "SACK emulation" (`TcpTxBuffer::AddRenoSack`) counts only the third as a segment gone from the
    # pipe unless limited transmit is on, where RFC 5681 Sec 3.2 (cwnd = ssthresh + 3 SMSS) counts all three;
    # bench/ns3/dumbbell.py's hook `RenoDupThresh` counts the other two at entry, nothing else changed.
    "renodup10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                      core_delay="20ms", buffers=(15000, 60000), queues=("droptail",),
                      ns3_defaults={"ns3::TcpL4Protocol::SocketType": "ns3::TcpNewRenoHalfCwnd"},
                      ns3_hooks=["RenoDupThresh"]),
    # ssthresh10's drop-tail points with ns-3's limited transmit on (RFC 3042; ns-3's default, which dumbbell.py
    # turns off), as ns-2 2.35 (`singledup_` 1, its default since 2001) and pacesim (tcp/state.rs) send one new
    # segment on each of the first two duplicate ACKs; 3.44 then counts all three duplicate ACKs as gone from its
    # pipe without SACK (`DupAck`: `if (!m_sackEnabled && m_limitedTx) m_txBuffer->AddRenoSack()`), but its made-up
    # SACK marks then start recoveries on one duplicate ACK and it times out inside them (bench/ns3/README.md).
    "ltx10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                  core_delay="20ms", buffers=(15000, 60000), queues=("droptail",),
                  ns3_defaults={"ns3::TcpL4Protocol::SocketType": "ns3::TcpNewRenoHalfCwnd",
                                "ns3::TcpSocketBase::LimitedTransmit": "true"}),
    # dumbbell10's drop-tail at four BDPs with ns-3's `TcpBbr` without its ACK-aggregation allowance (Linux 4.9-5.0's
    # cwnd target, which pacesim's `bbr` models; 3.44's allowance truncates its epoch to whole seconds), and with
    # the allowance computed as Linux 5.1 on computes it (bench/ns3/dumbbell.py's VARIANTS; bench/ns3/README.md).
    # Seed 1 only without it: ns-3 slows down without end on seed 2 (bench/ns3/README.md, "BBR v1").
    "bbr-noagg10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                        core_delay="20ms", buffers=(240000,), seeds=(1,),
                        ns3_defaults={"ns3::TcpL4Protocol::SocketType": "ns3::TcpBbrNoAggregation"}),
    "bbr-linuxagg10": dict(COMMON, flows=10, access_rate="100Mbps", access_delay="1ms", core_rate="10Mbps",
                           core_delay="20ms", buffers=(240000,),
                           ns3_defaults={"ns3::TcpL4Protocol::SocketType": "ns3::TcpBbrLinuxAggregation"}),
    # E-base's per-flow regime at a tenth of its size (X-transports' and X-aqm's [quick]: 100 flows, every rate
    # x0.1, so each flow's share is 100 Kb/s, about 3 packets a round trip, as with 1000 flows on 100 Mb/s):
    # 1 Mb/s access links with delays drawn from U[3, 3.001] ms (unequal, so that equal flows do not tie), a
    # 10 Mb/s, 100 ms core; buffers of 2 and 4 whole packets, ns-3's FQ-CoDel holding one less beside the core
    # device's queue of one (`device_packet`); FQ-CoDel only.
    "aqm100": dict(COMMON, flows=100, access_rate="1Mbps", access_delay=["3ms", "3.001ms"], core_rate="10Mbps",
                   core_delay="100ms", buffers=(3000, 5000), queues=("fq_codel",), device_packet=True),
}
# pacesim's settings for each TCP of the harness beyond the variant of that name: "cubic-paced" is CUBIC paced
# at Linux's rate (2x / 1.2x cwnd per RTT), as X-transports' "CUBIC, Linux-paced" runs it.
TCP_SETS = {"cubic-paced": ["tcp.variant=cubic", "pacing.scheme=host", "pacing.host_mode=rate"]}
METRICS = ("aggregate_mbps", "goodput_kbps_mean", "core_loss_rate")
SIMS = ("ns3", "pacesim", "ns2")
FIELDS = ["tcp", "queue", "buffer_bytes", "seed"] + [f"{m}_{sim}" for m in METRICS for sim in SIMS] + [
    f"core_drops_{sim}" for sim in SIMS] + [f"core_{n}_{sim}" for n in ("marks", "arrivals") for sim in SIMS[:2]] + [
    "agree_ns3", "agree_ns2"] + [f"goodput_jain_{sim}" for sim in SIMS[:2]]


def mark_packets(buffer_bytes: int) -> int:
    """K of the marking queue: a third of the buffer, in whole 1040 B packets."""
    return buffer_bytes // 3 // 1040


def pacesim_run(s: dict) -> dict:
    """pacesim on the same dumbbell: scenarios/e-base.toml with one edge, fixed rates, TCP `s["tcp"]` (a variant,
    or a key of TCP_SETS)."""
    import pandas as pd

    import pacesim
    from pacesim.metrics import jain

    delay = s["access_delay"]
    low, high = (delay, delay) if isinstance(delay, str) else delay
    sets = [f"duration={s['duration_s']}s", f"warmup={s['warmup_s']}s", "topology.edges=1",
            f"topology.hosts_per_edge={s['flows']}",
            f"topology.access_rate=[\"{s['access_rate']}\", \"{s['access_rate']}\"]",
            f"topology.access_delay=[\"{low}\", \"{high}\"]",
            f"topology.edge_rate={s['edge_rate']}",
            f"topology.edge_delay=[\"{s['edge_delay']}\", \"{s['edge_delay']}\"]",
            f"core.rate={s['core_rate']}", f"core.delay={s['core_delay']}", f"core.buffer={s['buffer_bytes']}B",
            *TCP_SETS.get(s["tcp"], [f"tcp.variant={s['tcp']}"]), "tcp.window=100000",
            f"traffic.start=[\"{s['start_s'][0]}s\", \"{s['start_s'][1]}s\"]"]
    if s["queue"] == MARK:
        sets += ["core.queue=droptail", f"core.droptail.mark_packets={s['mark_packets']}"]
    else:
        sets.append(f"core.queue={s['queue']}")
    r = pacesim.run(str(ROOT / "scenarios" / "e-base.toml"), set=sets, seed=s["seed"])
    core = r.report["links"]["core"]
    return dict(aggregate_mbps=r.summary["aggregate_mbps"], goodput_kbps_mean=r.summary["goodput_kbps_mean"],
                goodput_jain=jain(pd.Series(r.report["flows"]["goodput_kbps"])),
                core_loss_rate=r.summary["core_loss_rate"], core_drops=core["drops"], core_marks=core.get("marks", 0),
                core_arrivals=core["arrivals"])


def agree(row: dict, reference: str, core_rate_bps: float, metrics: tuple = METRICS) -> Optional[bool]:
    """pacesim against `reference` (ns3 or ns2) on one row by the references' rule, on `metrics` (all three
    unless told); None without that run."""
    if row.get(f"aggregate_mbps_{reference}") in (None, ""):
        return None
    names = {"aggregate_mbps": "aggregate_mbps", "goodput_kbps_mean": "goodput_kbps", "core_loss_rate": "core_loss"}
    return all(agrees_at(names[m], float(row[f"{m}_{reference}"]), float(row[f"{m}_pacesim"]), core_rate_bps)
               for m in metrics)


def rows(setup: str) -> list:
    """The committed rows of a setup (bench/ns3/results/SETUP.csv), as written: every value a string."""
    with (RESULTS / f"{setup}.csv").open() as f:
        return list(csv.DictReader(f))


def point(setup: str, row: dict) -> dict:
    """The settings of a committed row's point, as `pacesim_run` and bench/ns3/dumbbell.py take them."""
    s = {k: v for k, v in SETUPS[setup].items() if k not in ("buffers", "queues", "seeds")}
    buffer = int(row["buffer_bytes"])
    return dict(s, tcp=row["tcp"], queue=row["queue"], buffer_bytes=buffer, seed=int(row["seed"]),
                mark_packets=mark_packets(buffer))
