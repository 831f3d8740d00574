"""bench/ns3's `ebase100` at 5 KB with every access delay 3 ms or drawn from U[3, 3.001] ms (bench/ns2/TIES.md):
the network and pacesim's side of a run, shared by bench/ns2/ebase100_ties.py (which runs both simulators) and
tests/test_fidelity_ns2_ties.py (which reruns pacesim against the committed ns-2 rows).

100 senders on 10 Mb/s access links to one edge node, a 1 Gb/s, 1 ms edge link into the core (100 Mb/s, 100 ms,
a 5,000 B drop-tail buffer) and the mirror image to the sinks; flows start U[0, 10] s, 60 s run, measured over
[20, 60] s; advertised window 100,000 packets, ns-2's defaults otherwise."""

import csv
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "ns2" / "results" / "ebase100_ties.csv"
FLOWS, BUFFER_B, DURATION_S, WARMUP_S, ACCESS_LO_MS = 100, 5000, 60, 20, 3
CORE_BPS = 100e6
FIELDS = ["tcp", "access_delay_hi_ms", "seed", "simulator", "aggregate_mbps", "goodput_kbps_mean", "core_loss",
          "core_drops", "retransmits", "timeouts"]
METRICS = ("aggregate_mbps", "goodput_kbps_mean", "core_loss")


def pacesim_run(tcp: str, hi: str, seed: int) -> dict:
    """pacesim on the network with TCP `tcp` and access delays U[3, `hi`] ms (scenarios/e-base.toml, one edge)."""
    import pacesim

    sets = [f"duration={DURATION_S}s", f"warmup={WARMUP_S}s", "topology.edges=1",
            f"topology.hosts_per_edge={FLOWS}", 'topology.access_rate=["10Mbps", "10Mbps"]',
            f'topology.access_delay=["{ACCESS_LO_MS}ms", "{hi}ms"]', "topology.edge_rate=1Gbps",
            'topology.edge_delay=["1ms", "1ms"]', "core.rate=100Mbps", "core.delay=100ms",
            f"core.buffer={BUFFER_B}B", "core.queue=droptail", f"tcp.variant={tcp}", "tcp.window=100000",
            'traffic.start=["0s", "10s"]']
    r = pacesim.run(str(ROOT / "scenarios" / "e-base.toml"), set=sets, seed=seed, threads=1)
    s, flows = r.summary, r.report["flows"]
    return dict(aggregate_mbps=s["aggregate_mbps"], goodput_kbps_mean=s["goodput_kbps_mean"],
                core_loss=s["core_loss_rate"], core_drops=r.report["links"]["core"]["drops"],
                retransmits=sum(flows["retransmits"]), timeouts=sum(flows["timeouts"]))


def rows() -> dict:
    """The committed runs, keyed (tcp, access_delay_hi_ms, seed, simulator); values as written (strings)."""
    if not RESULTS.exists():
        return {}
    with RESULTS.open() as f:
        return {(r["tcp"], r["access_delay_hi_ms"], int(r["seed"]), r["simulator"]): r for r in csv.DictReader(f)}


def means(runs: list) -> dict:
    """Each metric's mean over runs (dicts of numbers or of their text)."""
    return {m: statistics.mean(float(r[m]) for r in runs) for m in METRICS}
