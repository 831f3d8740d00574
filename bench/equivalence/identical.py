#!/usr/bin/env python3
"""Bit-identical reports before and after an engine change.

Runs a fixed set of scenarios (E-base with every pacing scheme and host
mode, Wei's host pacer with its jitter too, every TCP variant, RED,
delayed ACKs, UDP sources with burstiness, and the other topologies)
through the engine alone (`examples/run_json.rs`) and stores each full JSON report, less its work
counters (`work`: events and packet-hops, which an engine change may
change), under DIR. `--check DIR` runs them again and reports every
scenario whose report differs in any byte.

    python bench/equivalence/identical.py --save /tmp/before     # on the old engine
    python bench/equivalence/identical.py --check /tmp/before    # on the new one
    python bench/equivalence/identical.py --check /tmp/before --threads 2

`--threads 2` runs networks that split as two halves in parallel
(`engine/partition.rs`); their reports must not change. `--sweeps` needs no
saved reports: it runs the first and last point of every catalogue sweep
file (`scenarios/[A-Z]*.toml`, quick size, cut to 30 simulated seconds) on
one thread and on two and reports any that differ.

    python bench/equivalence/identical.py --sweeps

A change that adds fields to the report names them with `--added`
(dotted paths, `flows.lost_packets`; `*` for every key of a table, as
`links.*.data.departed_bytes`): they are left out of the new reports before
the comparison, and everything else must be as it was. A field that no new
report has is an error (a misspelt path would otherwise leave nothing out
and prove nothing).

    python bench/equivalence/identical.py --check /tmp/before --added flows.lost_packets flows.loss_rate

`--with-sweeps` adds those sweep endpoints to the cases that `--save` stores
and `--check` compares, so an engine change is checked against the old
engine on every sweep file too, on one thread or two.

    python bench/equivalence/identical.py --save /tmp/before --with-sweeps
    python bench/equivalence/identical.py --check /tmp/before --with-sweeps --threads 2

The engine is built and run from cargo's target directory:
`$CARGO_TARGET_DIR` when set, else the repository's `target/`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pacesim

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
SHORT = ["duration=100s", "warmup=30s"]
UDP = ["topology.udp={}", "burstiness={}"]

# name: (scenario file, overrides)
CASES = {
    "reno-none-5KB": ("e-base.toml", [*SHORT, "core.buffer=5KB"]),
    "reno-host": ("e-base.toml", [*SHORT, "pacing.scheme=host"]),
    "reno-host-modified-half": ("e-base.toml", [*SHORT, "pacing.scheme=host", "pacing.host_mode=modified",
                                                "pacing.fraction=0.5"]),
    "reno-host-rate": ("e-base.toml", [*SHORT, "pacing.scheme=host", "pacing.host_mode=rate"]),
    "sack-host-wei-jitter": ("e-base.toml", [*SHORT, "tcp.variant=sack", "tcp.window_cut=flight", "pacing.scheme=host",
                                             "pacing.host_pacer=wei", "pacing.host_mode=modified", "pacing.fraction=0.5",
                                             "pacing.wei.overhead=1ms", "pacing.wei.random_pace=true"]),
    "reno-edge-3KB": ("e-base.toml", [*SHORT, "pacing.scheme=edge", "core.buffer=3KB"]),
    "reno-qlbp": ("e-base.toml", [*SHORT, "pacing.scheme=qlbp"]),
    "newreno-edge": ("e-base.toml", [*SHORT, "tcp.variant=newreno", "pacing.scheme=edge"]),
    "sack-none": ("e-base.toml", [*SHORT, "tcp.variant=sack"]),
    "sack-host": ("e-base.toml", [*SHORT, "tcp.variant=sack", "pacing.scheme=host"]),
    "fack-edge": ("e-base.toml", [*SHORT, "tcp.variant=fack", "pacing.scheme=edge"]),
    "reno-red": ("e-base.toml", [*SHORT, "core.queue=red", "core.buffer=5KB"]),
    "sack-red-delack": ("e-base.toml", [*SHORT, "tcp.variant=sack", "core.queue=red", "tcp.delayed_ack=100ms"]),
    "reno-delack-edge": ("e-base.toml", [*SHORT, "tcp.delayed_ack=100ms", "pacing.scheme=edge"]),
    "bic": ("w-dumbbell.toml", ["duration=30s", "warmup=10s", "topology.flows=5", "core.buffer=100KB",
                                "tcp.variant=bic"]),
    "cubic-host": ("w-dumbbell.toml", ["duration=30s", "warmup=10s", "topology.flows=5", "core.buffer=1000KB",
                                       "tcp.variant=cubic", "pacing.scheme=host"]),
    "fast": ("w-dumbbell.toml", ["duration=30s", "warmup=10s", "topology.flows=5", "tcp.variant=fast"]),
    "udp-poisson-edge": ("e-base.toml", [*SHORT, *UDP, "pacing.scheme=edge",
                                         'traffic.udp=[{kind = "poisson", rate = "5.5Mbps", size = ["100B", "300B"]}]']),
    "udp-mix": ("e-base.toml", [*SHORT, *UDP, "tcp.variant=sack", 'traffic.udp=['
                                '{kind = "cbr", rate = "2Mbps", sizes = ["40B", "1KB"], start = "1s"}, '
                                '{kind = "onoff", rate = "10Mbps", size = "200B", on = "100ms", off = "200ms"}, '
                                '{kind = "fbm", rate = "3Mbps", size = "200B", hurst = 0.85}]']),
    "a-base-udp": ("a-base.toml", ["duration=60s", "warmup=20s", "burstiness={}",
                                   'traffic.udp=[{kind = "poisson", rate = "5Mbps", size = "200B"}]']),
    "q-dumbbell": ("q-dumbbell.toml", ["duration=200s", "warmup=50s"]),
    "sack-edge-delay-progress": ("e-base.toml", [*SHORT, "tcp.variant=sack", "pacing.scheme=edge", "delay={}",
                                                 "progress={}"]),
    "udp-delay": ("e-base.toml", [*SHORT, "topology.udp={}", 'delay={class = "udp"}',
                                  'traffic.udp=[{kind = "poisson", rate = "5.5Mbps", size = "200B"}]']),
    "graph-square": ("graph-square.toml", []),
}


def engine_json(name: str) -> str:
    file, overrides = CASES[name]
    return json.dumps(pacesim.apply_overrides(pacesim.load_scenario(SCENARIOS / file), overrides).to_engine())


def run_engine(binary: Path, scenario: dict, threads: int) -> tuple[dict, dict]:
    """The report of an engine scenario without its work counters, and those counters."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(scenario, f)
        f.flush()
        out = subprocess.run([str(binary), f.name, str(threads)], capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    return report, report.pop("work")


def sweep_points() -> dict:
    """Name -> engine scenario: the first and last quick point of each sweep
    file, at most 30 simulated seconds (warm-up and flow starts within them)."""
    from pacesim.sweep import load_sweep

    cut = 30_000_000_000
    points = {}
    for path in sorted(SCENARIOS.glob("[A-Z]*.toml")):
        valid = [p for p in load_sweep(path).reduced().points() if p.scenario is not None]
        for end, p in (("first", valid[0]), ("last", valid[-1])):
            s = p.scenario.to_engine()
            s["duration"] = min(s["duration"], cut)
            s["warmup"] = min(s["warmup"], s["duration"] // 3)
            start = s["traffic"].get("start")
            if start and start[1] >= s["duration"]:
                s["traffic"]["start"] = [0, s["duration"] // 3]
            points[f"{path.stem} {end}"] = s
    return points


def drop_field(node: dict, path: list) -> int:
    """Remove the field at `path` (keys; `*` stands for every key of a table, as a report's links) from `node`;
    how many fields it removed."""
    head, *rest = path
    if not rest:
        return int(node.pop(head, KeyError) is not KeyError)
    return sum(drop_field(node[key], rest) for key in (list(node) if head == "*" else [head])
               if isinstance(node.get(key), dict))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, metavar="DIR")
    mode.add_argument("--check", type=Path, metavar="DIR")
    mode.add_argument("--sweeps", action="store_true", help="every sweep file on one thread against two")
    ap.add_argument("--only", nargs="*", choices=sorted(CASES), help="a subset of the cases")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="threads per run (1 or 2)")
    ap.add_argument("--with-sweeps", action="store_true", help="with --save/--check: every sweep endpoint too")
    ap.add_argument("--added", nargs="*", default=[], metavar="FIELD",
                    help="with --check: report fields the change adds (dotted), left out of the comparison")
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "-q", "--release", "--example", "run_json"], cwd=ROOT, check=True)
    binary = ROOT / os.environ.get("CARGO_TARGET_DIR", "target") / "release" / "examples" / "run_json"
    if args.sweeps:
        points = sweep_points()
        with ThreadPoolExecutor(args.jobs) as pool:
            same = dict(zip(points, pool.map(lambda s: run_engine(binary, s, 1)[0] == run_engine(binary, s, 2)[0],
                                             points.values())))
        for name, ok in same.items():
            print(f"{name}: {'identical' if ok else 'DIFFERENT'} on 1 and 2 threads")
        print(f"{sum(same.values())} of {len(same)} identical")
        return 0 if all(same.values()) else 1
    names = args.only or list(CASES)
    scenarios = {n: json.loads(engine_json(n)) for n in names}
    if args.with_sweeps:
        scenarios.update({f"sweep {n}": s for n, s in sweep_points().items()})
    with ThreadPoolExecutor(args.jobs) as pool:
        results = dict(zip(scenarios, pool.map(lambda s: run_engine(binary, s, args.threads), scenarios.values())))
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for name, (report, work) in results.items():
            (args.save / f"{name}.json").write_text(json.dumps(report, sort_keys=True))
            print(f"{name}: saved ({work['events']:,} events)")
        return 0
    bad = 0
    found = dict.fromkeys(args.added, 0)
    for name, (report, work) in results.items():
        for field in args.added:
            found[field] += drop_field(report, field.split("."))
        want = json.loads((args.check / f"{name}.json").read_text())
        same = json.dumps(report, sort_keys=True) == json.dumps(want, sort_keys=True)
        bad += not same
        print(f"{name}: {'identical' if same else 'DIFFERENT'} ({work['events']:,} events)")
    print(f"{len(results) - bad} of {len(results)} identical")
    missing = [field for field, n in found.items() if n == 0]
    if missing:
        print(f"--added {' '.join(missing)}: in no report (a misspelt field leaves nothing out)")
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
