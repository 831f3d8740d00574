"""Write the synthetic video frame-size trace `scenarios/traces/synthetic-star-wars.txt`.

Paper A's movie traces (Star Wars, Jurassic Park I) cannot be downloaded
here, so tests and demos use this stand-in, made by this script and not
measured from any video. It has an MPEG-like group of pictures, IBBPBBPBBPBB
at 25 frames/s, with mean frame sizes in the ratio I : P : B = 5 : 2.5 : 1,
and two sources of burstiness: a scene activity shared by the frames of a
GOP (its logarithm an AR(1) process from GOP to GOP, coefficient 0.9,
stationary sd 0.5) and independent per-frame noise (lognormal, sd 0.2 in
log). Both are then scaled by one exponent (the logarithms times k), found
by bisection, so that the largest frame over the mean frame is paper A's
Star Wars trace's peak over mean rate (Sec II: 4.446 Mb/s over 374.4 kb/s,
11.875); the sizes are scaled (with cumulative rounding) so that the mean
rate is exactly 374.4 kb/s over the 60 s trace and the largest frame
exactly 4.446 Mb/s x 40 ms = 22,230 B.

    python scripts/synthetic_video_trace.py [--seed 1] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

FPS = 25
SECONDS = 60
GOP = "IBBPBBPBBPBB"
RATIO = {"I": 5.0, "P": 2.5, "B": 1.0}
AR, ACTIVITY_SD, NOISE_SD = 0.9, 0.5, 0.2
MEAN_RATE = 374_400  # bit/s, paper A Sec II (Star Wars)
PEAK_RATE = 4_446_000  # bit/s, the largest frame over its 40 ms, paper A Sec II
OUT = Path(__file__).resolve().parent.parent / "scenarios" / "traces" / "synthetic-star-wars.txt"


def frames(seed: int) -> tuple[list[str], np.ndarray]:
    """Frame types and sizes in bytes (summing to MEAN_RATE over SECONDS, the largest PEAK_RATE's frame)."""
    rng = np.random.default_rng(seed)
    n = FPS * SECONDS
    types = [GOP[i % len(GOP)] for i in range(n)]
    gops = -(-n // len(GOP))
    activity = np.empty(gops)
    activity[0] = rng.normal(0.0, ACTIVITY_SD)
    for g in range(1, gops):
        activity[g] = AR * activity[g - 1] + rng.normal(0.0, ACTIVITY_SD * np.sqrt(1 - AR**2))
    ratio = np.array([RATIO[t] for t in types])
    burst = activity[np.arange(n) // len(GOP)] + rng.normal(0.0, NOISE_SD, n)
    total = MEAN_RATE // 8 * SECONDS
    peak = PEAK_RATE // 8 // FPS

    def peak_over_mean(k: float) -> float:
        raw = ratio * np.exp(k * burst)
        return raw.max() / raw.mean()

    lo, hi = 0.0, 10.0  # bisection on k; the assertion below checks where it lands
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if peak_over_mean(mid) < peak * n / total else (lo, mid)
    raw = ratio * np.exp(lo * burst)
    top = int(raw.argmax())
    # The largest frame is exactly `peak` bytes; the rest share what is left, cumulatively rounded.
    rest = np.delete(raw, top)
    cumulative = np.round(np.cumsum(rest) * (total - peak) / rest.sum()).astype(np.int64)
    sizes = np.insert(np.diff(cumulative, prepend=0), top, peak)
    assert sizes.sum() == total and sizes.max() == peak and (sizes < peak).sum() == n - 1
    return types, sizes


def write(seed: int, out: Path) -> None:
    types, sizes = frames(seed)
    n = len(sizes)
    mean = sizes.sum() * 8 / (n / FPS)
    peak = sizes.max() * 8 * FPS
    by_type = {t: sizes[[x == t for x in types]].mean() for t in "IPB"}
    lines = [
        "# SYNTHETIC video frame-size trace made by pacesim's scripts/synthetic_video_trace.py",
        f"# (seed {seed}); NOT measured from any movie. A stand-in for paper A's Star Wars trace: its mean, peak and peak/mean.",
        f"# {n} frames, {FPS} frames/s ({SECONDS} s), GOP {GOP}",
        f"# mean rate {mean / 1e3:.1f} kb/s; peak frame rate {peak / 1e6:.3f} Mb/s (peak / mean {peak / mean:.3f}); "
        + "mean frame bytes " + ", ".join(f"{t} {by_type[t]:.0f}" for t in "IPB"),
        "# columns: frame, time (s), type, size (bytes); pacesim: columns = [\"frame\", \"time_s\", \"type\", \"bytes\"]",
    ]
    lines += [f"{i} {i / FPS:.3f} {t} {s}" for i, (t, s) in enumerate(zip(types, sizes))]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    write(args.seed, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
