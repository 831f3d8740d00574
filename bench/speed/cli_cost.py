#!/usr/bin/env python3
"""What the `pacesim` command line costs beyond its engine: start-up and peak memory.

Each command runs in its own process under /usr/bin/time (wall time, user and
system CPU time, peak RSS), `--repeat` times in turn, and each row shows the
median of each with the largest peak RSS:

- `python -c pass`: the interpreter alone, the floor of any start-up;
- `pacesim --version`: the command line's own start-up (Typer, rich);
- a tiny run: E-base cut to `--tiny` simulated seconds (flows starting in its
  first half), so reading the scenario (pydantic), building the 1000-flow
  network and printing the tables is most of it; and the same tiny run through
  `pacesim.run()`, which has all of that but the command line (Typer, rich,
  the tables), so the difference is what the command line adds;
- `pacesim.run("e-base")`: the engine alone through the Python API;
- `pacesim run e-base`: the same run through the command line, tables printed
  (the issue's target: under 50 MB peak, under 0.3 s start-up);
- `pacesim reproduce --list` without a store: every catalogue sweep loaded and
  its points' time estimated by the cost model (issue 34).

CPU time is the start-up figure to trust on a shared machine: wall time
includes waiting for a core. The numbers are written to
bench/speed/results/cli_cost.csv.

    python bench/speed/cli_cost.py [--repeat 3] [--tiny 0.2] [--no-full]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "speed" / "results" / "cli_cost.csv"
CLI = "import sys; from pacesim.cli import app; sys.argv[0] = 'pacesim'; app()"
API = "import pacesim; pacesim.run('e-base')"
FIELDS = ["command", "wall_s", "cpu_s", "peak_rss_mb"]


def commands(tiny: float, full: bool) -> dict:
    """The command lines measured, by the row name shown."""
    short = ["--set", f"duration={tiny}s", "--set", "warmup=0s", "--set", f'traffic.start=["0s", "{tiny / 2}s"]']
    rows = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "pacesim --version": [sys.executable, "-c", CLI, "--version"],
        f"pacesim run e-base ({tiny:g} s)": [sys.executable, "-c", CLI, "run", "e-base", *short],
        f"pacesim.run('e-base') ({tiny:g} s, API)": [sys.executable, "-c", f"{API[:-1]}, set={short[1::2]!r})"],
        "pacesim reproduce --list (no store)": [sys.executable, "-c", CLI, "reproduce", "--list", "--results",
                                                str(Path(tempfile.gettempdir()) / "pacesim-cli-cost-no-store")],
    }
    if full:
        rows["pacesim.run('e-base') (API)"] = [sys.executable, "-c", API]
        rows["pacesim run e-base"] = [sys.executable, "-c", CLI, "run", "e-base"]
    return rows


def measure(argv: list) -> dict:
    """Wall s, CPU s (user + system) and peak RSS in MB of one process, from /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as f:
        subprocess.run(["/usr/bin/time", "-o", f.name, "-f", "%e %U %S %M", *argv], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir())
        wall, user, system, rss_kb = f.read().split()[-4:]
    return {"wall_s": float(wall), "cpu_s": float(user) + float(system), "peak_rss_mb": int(rss_kb) / 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="Runs of each command (median shown).")
    ap.add_argument("--tiny", type=float, default=0.2, help="Simulated seconds of the tiny run.")
    ap.add_argument("--no-full", dest="full", action="store_false", help="Skip the 400 s E-base runs.")
    args = ap.parse_args()
    rows = commands(args.tiny, args.full)
    samples = {name: [] for name in rows}
    for _ in range(args.repeat):  # in turn, so that a slow spell of the machine hits every command alike
        for name, argv in rows.items():
            samples[name].append(measure(argv))
    table = [{"command": name, "wall_s": statistics.median(s["wall_s"] for s in runs),
              "cpu_s": statistics.median(s["cpu_s"] for s in runs),
              "peak_rss_mb": max(s["peak_rss_mb"] for s in runs)} for name, runs in samples.items()]
    print(f"{'command':34} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}   (median of {args.repeat}; largest peak)")
    for r in table:
        print(f"{r['command']:34} {r['wall_s']:8.2f} {r['cpu_s']:8.2f} {r['peak_rss_mb']:8.1f}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows({**r, "wall_s": f"{r['wall_s']:.2f}", "cpu_s": f"{r['cpu_s']:.2f}",
                     "peak_rss_mb": f"{r['peak_rss_mb']:.1f}"} for r in table)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
