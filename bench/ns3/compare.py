"""ns-3 against pacesim on the dumbbells of `dumbbell.py`, over queue disciplines, buffers and seeds (issue 37).

    python bench/ns3/compare.py NS3_PYTHON TCP SETUP [SETUP ...]   # runs what results/SETUP.csv lacks

NS3_PYTHON is a Python with PyPI's `ns3` (3.44) installed; this script itself runs under a Python with
pacesim. Each point runs once in each simulator; a row holds both, and `agree` applies the references' rule
(tests/support/ns2_refs.py, as for ns-2): throughput within 3 % of the core's rate, goodput within 5 %, loss
within 20 % relative where the reference's exceeds 0.5 %.
"""

import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "results"
sys.path.insert(0, str(ROOT / "tests"))
from support.ns3_refs import (FIELDS, MARK, METRICS, ORDER, QUEUES, SEEDS, SETUPS, agree, mark_packets,  # noqa: E402
                              pacesim_run)

from pacesim.units import parse_rate, parse_time  # noqa: E402

NS2_AGENTS = {"sack": ("Sack1", "Sack1"), "newreno": ("Newreno", "")}  # Agent/TCP/<a>, Agent/TCPSink/<b>


def _mbps(text: str) -> float:
    """A rate as pacesim writes it ("100Mbps"), in Mb/s as ebase.tcl's wrapper variables take it."""
    return parse_rate(text) / 1e6


def _ms(text: str) -> float:
    """A time as pacesim writes it ("10ms"), in ms as ebase.tcl's wrapper variables take it."""
    return parse_time(text) / 1e6


def ns3_run(python: str, s: dict) -> dict:
    out = subprocess.run([python, str(HERE / "dumbbell.py"), json.dumps(s)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def ns2_run(s: dict) -> dict:
    """Stock ns-2 2.35 (`ns` on the path) on the same dumbbell, drop-tail only (2.35 has no CoDel or PIE):
    bench/ns2/ebase.tcl with one edge and every rate and delay fixed."""
    delay = s["access_delay"]
    low, high = (delay, delay) if isinstance(delay, str) else delay
    variables = dict(window=100000, core_rate=_mbps(s["core_rate"]), edge_rate=_mbps(s["edge_rate"]),
                     access_lo=_mbps(s["access_rate"]), access_hi=_mbps(s["access_rate"]),
                     core_delay=_ms(s["core_delay"]), edge_delay_lo=_ms(s["edge_delay"]),
                     edge_delay_hi=_ms(s["edge_delay"]), access_delay_lo=_ms(low), access_delay_hi=_ms(high))
    agent, sink = NS2_AGENTS[s["tcp"]]
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["ns", str(ROOT / "bench" / "ns2" / "setvars.tcl"),
                              *[f"{k}={v:g}" for k, v in variables.items()], "ebase.tcl", "1", str(s["flows"]),
                              str(s["buffer_bytes"]), str(s["seed"]), str(s["duration_s"]), str(s["warmup_s"]),
                              str(Path(tmp) / "flows.csv"), agent, sink, "DropTail", "1"],
                             capture_output=True, text=True, check=True)
    line = next(l for l in out.stdout.splitlines() if l.startswith("RESULT "))
    r = dict(kv.split("=") for kv in line.split()[1:])
    return dict(aggregate_mbps=float(r["aggregate_mbps"]), goodput_kbps_mean=float(r["goodput_kbps_mean"]),
                core_loss_rate=float(r["core_loss"]), core_drops=int(r["core_drops"]))


def run_setup(python: str, name: str, tcp: str) -> None:
    """Every point of `name` with `tcp` in each simulator that has not run it yet; the CSV rewritten after each."""
    setup = dict(SETUPS[name])
    buffers = setup.pop("buffers")
    setup_queues = setup.pop("queues", QUEUES)
    seeds = setup.pop("seeds", SEEDS)
    path = RESULTS / f"{name}.csv"
    rows = {}
    if path.exists():
        with path.open() as f:
            rows = {(r["tcp"], r["queue"], int(r["buffer_bytes"]), int(r["seed"])): r for r in csv.DictReader(f)}
    RESULTS.mkdir(exist_ok=True)
    # newreno, bbr, cubic, cubic-paced: the TCPs, at the tail; dctcp at its marking queue.
    queues = setup_queues if tcp == "sack" else (MARK,) if tcp == "dctcp" else ("droptail",)
    for queue in queues:
        for buffer in buffers:
            for seed in seeds:
                key = (tcp, queue, buffer, seed)
                row = rows.setdefault(key, dict(tcp=tcp, queue=queue, buffer_bytes=buffer, seed=seed))
                s = dict(setup, queue=queue, buffer_bytes=buffer, seed=seed, tcp=tcp, mark_packets=mark_packets(buffer))
                runs = {"ns3": lambda: ns3_run(python, s), "pacesim": lambda: pacesim_run(s), "ns2": lambda: ns2_run(s)}
                for sim, run in runs.items():
                    no_ns2 = queue != "droptail" or tcp not in NS2_AGENTS  # ns-2 2.35: no CoDel, PIE or BBR
                    if row.get(f"aggregate_mbps_{sim}") not in (None, "") or (sim == "ns2" and no_ns2):
                        continue
                    r = run()
                    for m in METRICS:
                        row[f"{m}_{sim}"] = round(r[m], 6)
                    row[f"core_drops_{sim}"] = r["core_drops"]
                    if sim != "ns2":
                        row[f"core_marks_{sim}"] = r["core_marks"]
                        row[f"core_arrivals_{sim}"] = r["core_arrivals"]
                        jain = r["goodput_jain"]
                        row[f"goodput_jain_{sim}"] = "" if jain is None else round(jain, 6)
                for reference in ("ns3", "ns2"):
                    row[f"agree_{reference}"] = agree(row, reference, parse_rate(setup["core_rate"]))
                with path.open("w", newline="") as f:
                    w = csv.DictWriter(f, FIELDS, restval="")
                    w.writeheader()
                    w.writerows(rows[k] for k in sorted(rows, key=lambda k: (k[0], ORDER.index(k[1]), *k[2:])))
                print(name, *key, {k: row.get(k) for k in FIELDS[4:]}, flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    for setup in sys.argv[3:]:
        run_setup(sys.argv[1], setup, sys.argv[2])
