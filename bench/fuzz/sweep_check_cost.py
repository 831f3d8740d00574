"""The CPU time of a sweep's point check (`sweep.check.check_points`, what `pacesim sweep` does before its first point
runs; issue 33's "Unbounded work"), on E-base sweeps made here: N buffers x M pacer delays, on one seed or
several, at full size or scaled (a quick run's `scale`). With `--before FILE`, a sweep.py of other code (the
sweep module of before issue 36 made it a package; the installed package's other modules beside it) is timed too, alternated with this one, and both checks must
give the same run keys.

    python bench/fuzz/sweep_check_cost.py --points 10000 --seeds 1 --repeat 2 [--scale 0.1] [--before old_sweep.py]

prints one line a timing: the code, CPU seconds, milliseconds a point.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pacesim
from pacesim.sweep import check, load_sweep, progress


def _module(path: Path):
    """sweep.py at `path` as a module of the installed package (its relative imports are the package's)."""
    spec = importlib.util.spec_from_file_location("pacesim._sweep_before", path)
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def _sweep_file(work: Path, points: int, seeds: int, scale: float) -> Path:
    combinations = points // seeds
    delays = max(1, round(combinations ** 0.5))
    buffers = combinations // delays
    shutil.copy(Path(pacesim.__file__).parent / "scenarios" / "e-base.toml", work / "e-base.toml")
    path = work / "check.toml"
    path.write_text(
        f'name = "check"\nscenario = "e-base.toml"\nseeds = {list(range(1, seeds + 1))}\nscale = {scale}\n'
        'set = ["pacing.scheme=edge"]\n[axes]\n'
        f'"core.buffer" = [{", ".join(f"{chr(34)}{1000 + 37 * i}B{chr(34)}" for i in range(buffers))}]\n'
        f'"pacing.delay" = [{", ".join(f"{chr(34)}{1 + 0.1 * i:.1f}ms{chr(34)}" for i in range(delays))}]\n')
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--points", type=int, default=10_000)
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--before", type=Path, help="another sweep.py to time, alternated with this one")
    args = ap.parse_args()
    codes = [("this", (load_sweep, check.check_points, progress.bar))]
    if args.before:
        before = _module(args.before)
        codes.append(("before", (before.load_sweep, before._checked, before._bar)))
    with tempfile.TemporaryDirectory(prefix="pacesim-check-cost-") as tmp:
        path = _sweep_file(Path(tmp), args.points, args.seeds, args.scale)
        digests = {}
        for _ in range(args.repeat):
            for name, code in codes:
                load, checked, bar = code
                sweep = load(path)
                t0 = time.process_time()
                keys = checked(sweep, bar(False))
                cpu = time.process_time() - t0
                digests.setdefault(name, hashlib.sha256(keys).hexdigest())
                print(f"{name}: {sweep.size} points ({args.seeds} seeds, scale {args.scale}): {cpu:.2f} CPU s, "
                      f"{1e3 * cpu / sweep.size:.3f} ms a point", flush=True)
        if len(set(digests.values())) > 1:
            raise SystemExit(f"the run keys differ: {digests}")


if __name__ == "__main__":
    main()
