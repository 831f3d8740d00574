"""Tmix connection vectors on the front's side: where a scenario's `vectors` file is, and vectors of our own.

The engine replays vectors (crates/pacesim-core/src/traffic/tmix.rs) from a text file. A scenario names the
file relative to its own directory; a name found nowhere there is looked up among the samples Debian's
`ns2-examples` package installs (`SAMPLES`: `sample-orig.cvec.gz`, `sample-alt.cvec.gz`). Their licence (the
University of North Carolina's, in the files) allows local copies and use but no redistribution: pacesim
ships none, reads them where the package put them, and decompresses a `.gz` file into the user's cache
(`cache_dir()`), under a name that carries a hash of its content, so that a run's key changes with the data.

`generate` writes vectors of pacesim's own in Tmix's alternate format, from stated distributions
(`Mix`), for the packaged demo and for tests that must run without the package.
"""

from __future__ import annotations

import gzip
import hashlib
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union

from . import _core, outfile
from .units import MAX_TIME_NS


MAX_BYTES: int = _core.MAX_VECTORS_FILE
"""The most bytes of vectors read, a .gz file's once decompressed: the engine's bound (`cvec::MAX_FILE`, 256 MiB),
past which it reads no vectors file."""

MAX_START_S = MAX_TIME_NS / 10**9
"""The latest a vector may start, s: the engine's clock bound (its `cvec::MAX_US`, 10^12 us)."""

SAMPLES = Path("/usr/share/doc/ns2/examples/tcl/ex/tmix")
"""Where Debian's ns2-examples installs Tmix's sample vectors (`apt-get install ns2-examples`)."""


def cache_dir() -> Path:
    """Where decompressed vectors go: $PACESIM_CACHE, else $XDG_CACHE_HOME/pacesim, else ~/.cache/pacesim."""
    if "PACESIM_CACHE" in os.environ:
        return Path(os.environ["PACESIM_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pacesim"


def vectors_path(name: str, base: Union[str, Path] = ".") -> str:
    """The text file the engine reads for vectors `name`: from `base` if relative, else among `SAMPLES`; a
    `.gz` decompressed into the cache (named by a hash of its content). A file found nowhere is left to the
    engine, which names it in its error when the scenario runs (a scenario loads without its vectors);
    ValueError for a file that is not a regular file, or a .gz file that is not gzip or holds more than
    `MAX_BYTES` once decompressed."""
    path = Path(name).expanduser()
    candidates = [path] if path.is_absolute() else [Path(base) / path, SAMPLES / path]
    found = next((p.resolve() for p in candidates if p.is_file()), None)
    if found is None:
        return str(candidates[0].resolve())
    if found.suffix != ".gz":
        return str(found)
    if found.stat().st_size > MAX_BYTES:
        raise ValueError(f"{found}: more than {MAX_BYTES} bytes: not read")
    try:
        with gzip.open(found) as f:  # at most one byte past the limit, whatever the file claims
            data = f.read(MAX_BYTES + 1)
    except (OSError, EOFError) as e:
        raise ValueError(f"{found}: not a gzip file ({e})") from None
    if len(data) > MAX_BYTES:
        raise ValueError(f"{found}: more than {MAX_BYTES} bytes once decompressed: not read")
    out = cache_dir() / "tmix" / f"{hashlib.sha256(data).hexdigest()[:16]}-{found.stem}"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f"{out.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(out)
    return str(out)


@dataclass(frozen=True)
class Mix:
    """The distributions `generate` draws from (times in seconds, sizes in bytes). Every Pareto draw is
    capped: min(X, `max_bytes`) for sizes, min(X, `max_wait`) for times. The means named below (`..._mean`)
    are the uncapped Pareto's; the capped draws' means are smaller (`capped_mean`, closed form): at the
    defaults requests 797 B, responses 8,537 B (the 1.2-shaped tail loses 15 % of its mean above 10 MB,
    where 3 responses in 100,000 are cut), concurrent ADUs 1,788 B, server times 19.9 ms and think times
    0.950 s (4 in 10,000 cut at 60 s); sizes are then rounded up to whole bytes and times to whole us.

    Connections start as a Poisson process of `rate` per second; a share `concurrent` of them are
    concurrent (both ends send on their own), the rest sequential. A sequential connection has a
    geometric number of exchanges (at least one, mean `exchanges`): the initiator's request, Pareto(`request_shape`) of mean
    `request_mean`; the acceptor's response, Pareto(`response_shape`) of mean `response_mean`, sent a server
    time after the request arrived, Pareto(`wait_shape`) of mean `server_mean`; the next request a think
    time after the response arrived, Pareto(`wait_shape`) of mean `think_mean`. A concurrent connection's
    ends send a geometric number of ADUs each (mean `exchanges`), Pareto(`response_shape`) of mean `conc_mean`,
    each a
    Pareto(`wait_shape`) time of mean `think_mean` after their previous one. Each connection's round trip is
    lognormal (median `rtt_median`, log-sd `rtt_sigma`, within [1 ms, 2 s]); its windows are 64 KB with
    probability 0.7, 16 KB 0.2, 8760 B 0.1, and its loss rates 0 (an `l` line, so that a DelayBox keeps it)."""

    rate: float = 50.0
    concurrent: float = 0.05
    exchanges: float = 2.0
    request_mean: float = 800.0
    request_shape: float = 1.5
    response_mean: float = 10_000.0
    response_shape: float = 1.2
    conc_mean: float = 2_000.0
    server_mean: float = 0.02
    think_mean: float = 1.0
    wait_shape: float = 1.5
    rtt_median: float = 0.05
    rtt_sigma: float = 0.8
    max_bytes: int = 10_000_000
    max_wait: float = 60.0


def capped_mean(mean: float, shape: float, cap: float) -> float:
    """The mean of min(X, cap) for X Pareto of mean `mean` and shape `shape` > 1 (scale x_m = mean (shape - 1) /
    shape, cap >= x_m): E[X] - E[(X - cap)+] = mean - x_m^shape cap^(1 - shape) / (shape - 1)."""
    x_m = mean * (shape - 1) / shape
    return mean - x_m ** shape * cap ** (1 - shape) / (shape - 1)


def _pareto(rng: "np.random.Generator", mean: float, shape: float, cap: float) -> float:
    """One Pareto draw of the given mean and shape (scale mean (shape - 1) / shape), capped at `cap`."""
    return min(mean * (shape - 1) / shape * (1 + rng.pareto(shape)), cap)


def generate(path: Union[str, Path], connections: int, seed: int = 1, mix: Optional[Mix] = None) -> Path:
    """Write `connections` vectors drawn from `mix` (default `Mix()`) with seed `seed` to `path`, in Tmix's
    alternate format; the same arguments write the same file."""
    if connections < 1:
        raise ValueError("connections must be at least 1")
    mix = mix or Mix()
    if not (mix.rate > 0 and math.isfinite(mix.rate)):
        raise ValueError(f"rate: {mix.rate} is not a positive number of connections per second")
    # The last start is about connections / rate (sd sqrt(connections) / rate): 10 times it must stay within
    # the engine's latest start.
    if connections / mix.rate * 10 > MAX_START_S:
        raise ValueError(f"connections / rate = {connections / mix.rate:.3g} s: starts would pass the "
                         f"{MAX_START_S:.0f} s a vector may start at; give a higher rate or fewer connections")
    import numpy as np  # here: a scenario naming vectors reads this module, and `pacesim run` loads no numpy

    rng = np.random.default_rng(seed)
    us = lambda seconds: max(1, int(round(seconds * 1e6)))  # noqa: E731  (waits of at least 1 us, as Tmix reads 0)
    size = lambda mean, shape: max(1, int(np.ceil(_pareto(rng, mean, shape, mix.max_bytes))))  # noqa: E731
    wait = lambda mean: us(_pareto(rng, mean, mix.wait_shape, mix.max_wait))  # noqa: E731
    lines = [f"# Tmix connection vectors (alternate format) written by pacesim.tmix.generate: {connections} "
             f"connections, seed {seed}, {mix}"]
    start = 0.0
    for i in range(connections):
        start += rng.exponential(1 / mix.rate)
        if start > MAX_START_S:  # past the check above's margin: rare, and still refused before writing
            raise ValueError(f"connection {i + 1} would start at {start:.3g} s, past the {MAX_START_S:.0f} s a "
                             "vector may start at; give a higher rate or fewer connections")
        n = rng.geometric(1 / mix.exchanges)
        window = rng.choice([65535, 16384, 8760], p=[0.7, 0.2, 0.1])
        rtt = min(max(mix.rtt_median * np.exp(mix.rtt_sigma * rng.standard_normal()), 0.001), 2.0)
        body = [f"w {window} {window}", f"r {us(rtt)}", "l 0.000000 0.000000"]
        if rng.random() < mix.concurrent:
            m = [rng.geometric(1 / mix.exchanges) for _ in range(2)]
            head = f"C {us(start)} {m[0]} {m[1]} 0 {i + 1}"
            for end, count in zip("IA", m):
                body += [f"{end} {0 if k == 0 else wait(mix.think_mean)} 0 {size(mix.conc_mean, mix.response_shape)}"
                         for k in range(count)]
        else:
            head = f"S {us(start)} {n} 0 {i + 1}"
            for k in range(n):
                body.append(f"I 0 {0 if k == 0 else wait(mix.think_mean)} {size(mix.request_mean, mix.request_shape)}")
                body.append(f"A 0 {wait(mix.server_mean)} {size(mix.response_mean, mix.response_shape)}")
        lines += [head] + body
    path = Path(path)
    with outfile.written(path) as tmp:  # whole or not at all: a full disk keeps the old file
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
