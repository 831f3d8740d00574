#!/usr/bin/env python3
"""Trace the small E-base of trace_ebase.toml in pacesim and in ns-2 (trace_ebase.tcl, given pacesim's link
rates, delays and flow start times) and diff the two traces (bench/ns2/TRACE_DIFF.md).

    PYTHONPATH=python python bench/ns2/trace_ebase.py [--tick 10ms] [--out bench/ns2/results/trace]
    PYTHONPATH=python python bench/ns2/trace_ebase.py --scenario bench/ns2/trace_sack.toml --tag sack

Writes OUT/pacesim-TAG.tr.gz and OUT/ns2-TAG.tr.gz (TAG: TICK unless given) and prints `pacesim trace diff` of the two; needs
Debian's ns2. TICK is TCP's clock tick (`tcp.tick`, ns-2's `tcpTick_`): each TCP agent's tick phase (ns-2's
`boot_time_`) is random, drawn by each simulator from its own generator, and moves an RTO by a few ticks, so
the traces part at the first timeout it moves: 30 ms apart at E-base's 10 ms, 2 ms at 1 ms (TRACE_DIFF.md).
A 1 us tick cannot be compared: ns-2 keeps an RTT sample's change in a 16-bit `delta` (`rtt_update`), which
overflows at 32,768 ticks (33 ms at 1 us).
"""

import argparse
import gzip
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pacesim
from pacesim.scenario import apply_overrides, load_scenario
from pacesim.topology import describe

HERE = Path(__file__).resolve().parent
SCENARIO = HERE / "trace_ebase.toml"
# pacesim's tcp.variant: ns-2's agent (Agent/TCP/<agent>) and sink (Agent/TCPSink/<sink>, "" the plain one).
NS2_AGENTS = {"reno": ("Reno", ""), "newreno": ("Newreno", ""), "sack": ("Sack1", "Sack1")}


def params(scenario, starts) -> str:
    """trace_ebase.tcl's PARAMS: the scenario's TCP, drawn links and the flows' start times, in b/s and seconds."""
    links = {link["name"]: link for link in describe(scenario, 0)["links"]}
    topo, core = scenario.topology, scenario.core_values()
    variant, sink = NS2_AGENTS[scenario.tcp.variant]
    out = [f"set duration {scenario.duration / 1e9!r}", f"set tick {scenario.tcp.tick / 1e9!r}",
           f"set variant {variant}", f'set sinktype "{sink}"', f"set window {scenario.tcp.window}",
           f"set minrto {scenario.tcp.min_rto / 1e9!r}", f"set buffer {core.buffer}",
           f"set core_rate {core.rate}", f"set core_delay {core.delay / 1e9!r}",
           f"set edges {topo.edges}", f"set hosts {topo.hosts_per_edge}"]
    for e in range(topo.edges):
        link = links[f"edge_in.{e}"]
        out += [f"set edge_rate({e}) {link['rate_bps']}", f"set edge_delay({e}) {link['delay_ns'] / 1e9!r}"]
    for h, start in enumerate(starts):
        link = links[f"access.{h}.up"]
        out += [f"set access_rate({h}) {link['rate_bps']}", f"set access_delay({h}) {link['delay_ns'] / 1e9!r}",
                f"set start({h}) {start!r}"]
    return "\n".join(out) + "\n"


def gzip_to(src: Path, dst: Path) -> None:
    """`src` compressed to `dst`, reproducibly (no name or time stamp in the header)."""
    with open(src, "rb") as f, open(dst, "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as z:
        shutil.copyfileobj(f, z)


def trace_both(scenario, params_of, ns: list, out: Path, tag: str) -> int:
    """Trace `scenario` in pacesim, then in ns-2 (`ns` + [PARAMS, TRACE], PARAMS written by `params_of(start
    times)`), into OUT/pacesim-TAG.tr.gz and OUT/ns2-TAG.tr.gz; print `pacesim trace diff` of the two and
    return its status."""
    out.mkdir(parents=True, exist_ok=True)
    names = {name: f"{name}-{tag}.tr.gz" for name in ("pacesim", "ns2")}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        r = pacesim.run(scenario, trace=tmp / "pacesim.tr")
        (tmp / "params.tcl").write_text(params_of(r.report["flows"]["start_s"]))
        subprocess.run([*ns, tmp / "params.tcl", tmp / "ns2.tr"], check=True)
        for name, gz in names.items():
            gzip_to(tmp / f"{name}.tr", out / gz)
    return subprocess.run([sys.executable, "-c", "from pacesim.cli import app; app()", "trace", "diff",
                           out / names["ns2"], out / names["pacesim"], "--time-tolerance", "1e-6"]).returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "trace")
    ap.add_argument("--tick", default="10ms", help="TCP's clock tick (tcp.tick), e.g. 10ms or 1us")
    ap.add_argument("--scenario", type=Path, default=SCENARIO,
                    help="another small E-base, e.g. trace_sack.toml (bench/ns2/TIES.md)")
    ap.add_argument("--tag", help="the traces' names: OUT/pacesim-TAG.tr.gz, OUT/ns2-TAG.tr.gz (default: TICK)")
    args = ap.parse_args()
    scenario = apply_overrides(load_scenario(args.scenario), [f"tcp.tick={args.tick}"])
    return trace_both(scenario, lambda starts: params(scenario, starts), ["ns", HERE / "trace_ebase.tcl"],
                      args.out, args.tag or args.tick)


if __name__ == "__main__":
    sys.exit(main())
