#!/usr/bin/env python3
"""pacesim's random draws of the Q-dumbbell, for ns-2 to run the same network.

With 40 flows and 10 receivers, two independently drawn Q-dumbbells differ
in mean RTT by a few per cent (host links U[1, 10] ms), and in the
window-limited, lossless regime (large Q_max) throughput follows 1/RTT; so
qdumbbell.tcl takes pacesim's draws instead of its own: every host link's
delay and every flow's start time for a seed, written as Tcl to
results/draws/qdumbbell-s<seed>.tcl (committed; run_ns2.py passes them).

    python bench/ns2/paced/draws.py [SEED ...]     # default 1 2
"""

import sys
from pathlib import Path

import pacesim
from pacesim.topology import describe

HERE = Path(__file__).resolve().parent
SCENARIO = HERE.parents[2] / "scenarios" / "q-dumbbell.toml"


def draws(seed: int) -> str:
    """Tcl setting rx_delay(k), host_delay(i) (ms) and start(i) (s) as pacesim draws them for `seed`."""
    s = pacesim.apply_overrides(pacesim.load_scenario(SCENARIO), [f"seed={seed}", "pacing.scheme=none"])
    lines = [f"# pacesim's draws for scenarios/q-dumbbell.toml, seed {seed} (bench/ns2/paced/draws.py)"]
    for link in describe(s)["links"]:
        kind, _, index = link["name"].partition(".")
        if kind in ("rx", "host") and index.isdigit():
            lines.append(f"set {kind}_delay({index}) {link['delay_ns'] / 1e6!r}")
    # Start times come with a run; they do not depend on its length or pacing.
    flows = pacesim.run(pacesim.apply_overrides(s, ["duration=101s", "warmup=0s"])).report["flows"]
    lines += [f"set start({f}) {t!r}" for f, t in zip(flows["flow"], flows["start_s"])]
    return "\n".join(lines) + "\n"


def main() -> int:
    out = HERE / "results" / "draws"
    out.mkdir(parents=True, exist_ok=True)
    for seed in [int(a) for a in sys.argv[1:]] or [1, 2]:
        (out / f"qdumbbell-s{seed}.tcl").write_text(draws(seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
