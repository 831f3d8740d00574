"""The papers' analytical models: what a model is, its parameters' domains, and how it is drawn.

Each paper's models live in its package (`pacesim.papers.<x>.models`, found by `pacesim.papers.models()`),
each a `Model` made by the `model` decorator with its claims beside it. `model.build(params)` computes the numbers (pandas tables), the curves
to draw (`plot.Curves`) and a few headline facts; `draw.render` writes them as `<id>.csv` (one
file per table, `<id>-<table>.csv` when there are several), `<id>.png` and
`<id>.svg`, with simulated points as markers where given (`overlays`: a CSV,
a reproduction's points CSV, or a packet-level run with `simulate`) and how
far they lie from the model among the facts. Parameters default to the papers' values; `--set key=value` on
the command line overrides them (lists as comma-separated numbers).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from ..fields import read_bounded
from ..messages import shown
from ..panels import Curves, paper_ref
from ..reproduce.claims import Claim
from .overlays import Overlay

Params = Dict[str, object]


@dataclass
class Output:
    """What a model computes: named tables, the panels drawn from them, headline facts."""

    tables: Dict[str, pd.DataFrame]
    panels: List[Curves]
    facts: Dict[str, str] = field(default_factory=dict)


Rule = Callable[[Params], Optional[Tuple[str, str]]]
"""A rule across a model's parameters: the first it finds broken, as (parameters, why), or None."""


@dataclass(frozen=True)
class Model:
    """An experiment id with its paper reference, default parameters and builder; the catalogue's claims on
    its numbers; its rule across parameters; how simulated points are read from a reproduction's points CSV
    (`from_points`) or run (`simulate`, for `--simulate`), where the paper compares them."""

    id: str
    title: str
    source: str
    defaults: Params
    build: Callable[[Params], Output]
    claims: Tuple[Claim, ...] = ()
    across: Optional[Rule] = None
    from_points: Optional[Callable[[pd.DataFrame, Params], Overlay]] = None
    simulate: Optional[Callable[[Params], Overlay]] = None


def model(id: str, title: str, source: str, claims: Sequence[Claim] = (), across: Optional[Rule] = None,
          from_points: Optional[Callable[[pd.DataFrame, Params], Overlay]] = None,
          simulate: Optional[Callable[[Params], Overlay]] = None, **defaults) -> Callable[[Callable], Model]:
    """The decorated builder as a `Model` (its paper's package is where `pacesim.papers` finds it)."""
    def make(fn: Callable[[Params], Output]) -> Model:
        return Model(id, title, source, defaults, fn, tuple(claims), across, from_points, simulate)

    return make


MAX_POINTS = 10_000
"""The most points a model's grid may have (the papers' grids have at most 401): past it a parameter asks for
work no figure needs."""


def grid(lo: float, hi: float, step: float, names: str = "") -> np.ndarray:
    """lo, lo + step, ..., hi (rounded to 10 decimals); a ValueError naming `names`, the parameters that set
    the grid (none for a fixed grid), when it has fewer than two points or more than `MAX_POINTS`."""
    n = (hi - lo) / step + 1
    if not n >= 2:
        raise ValueError(f"{names}: the grid would end at {hi:g}, less than a step ({step:g}) past its start {lo:g}")
    if n > MAX_POINTS:
        raise ValueError(f"{names}: {n:,.0f} grid points from {lo:g} to {hi:g} in steps of {step:g}; "
                         f"at most {MAX_POINTS:,}")
    return np.round(np.arange(lo, hi + step / 2, step), 10)


def tag(v: float) -> str:
    return f"{v:g}"


def trend(x: np.ndarray, y: np.ndarray) -> str:
    dy = np.diff(y)
    if np.all(dy > 0):
        return "rising"
    if np.all(dy < 0):
        return "falling"
    i = int(np.argmin(y))
    return f"falls to a minimum at {x[i]:g}, then rises" if 0 < i < len(y) - 1 else "non-monotone"


def minimum_then_peak(x: np.ndarray, y: np.ndarray, window: Tuple[float, float]) -> str:
    """Where y is lowest within `window`, and the highest point after it (anywhere)."""
    inside = (x >= window[0]) & (x <= window[1])
    i = np.flatnonzero(inside)[int(np.argmin(y[inside]))]
    if i == np.flatnonzero(inside)[-1]:
        return f"no minimum inside {window[0]:g}-{window[1]:g} KB: lowest at its end, {y[i]:.3g} at {x[i]:g} KB"
    j = i + int(np.argmax(y[i:]))
    return f"minimum {y[i]:.3g} at {x[i]:g} KB, rising to {y[j]:.3g} at {x[j]:g} KB ({y[j] / y[i]:.2f}x)"


# ---------------------------------------------------------------- parameters and output


@dataclass(frozen=True)
class Domain:
    """Where a parameter's value (each element, for a list) may lie: from `lo` to `hi`, either end left out
    when open; `whole` for counts."""

    lo: float
    hi: float
    open_lo: bool = False
    open_hi: bool = False
    whole: bool = False

    def refuses(self, v: float) -> Optional[str]:
        """Why `v` is outside the domain ("must be > 0"), or None."""
        if not np.isfinite(v):
            return "must be a finite number"
        if self.whole and v != int(v):
            return "must be a whole number"
        if v < self.lo or (self.open_lo and v == self.lo):
            return f"must be {'>' if self.open_lo else '>='} {self.lo:g}"
        if v > self.hi or (self.open_hi and v == self.hi):
            return f"must be {'<' if self.open_hi else '<='} {self.hi:g}"
        return None


def _positive(hi: float) -> Domain:
    return Domain(0.0, hi, open_lo=True)


def _count(lo: int, hi: float) -> Domain:
    return Domain(lo, hi, whole=True)


LOAD = Domain(0.0, 1.0, open_lo=True)
FRACTION = Domain(0.0, 1.0, open_lo=True, open_hi=True)
DOMAINS: Dict[str, Domain] = {
    "bdp_pkts": Domain(1.0, 1e7), "bin_ms": Domain(1e-3, 1e6), "bstar_kb": _positive(1e4),
    "bstars_kb": _positive(1e4), "buffer_pkts": Domain(0.0, 1e7), "buffers_kb": _positive(1e4),
    "capacity_mbps": _positive(1e6), "d_max_ms": _positive(1e6), "early": FRACTION, "erlang_phases": _count(1, 16),
    "f": FRACTION, "fractions": FRACTION, "grid": _count(2, 1024), "heavy_load": LOAD, "light_load": LOAD,
    "loads": LOAD, "lam_udp": Domain(0.0, 100.0), "link_mbps": _positive(1e6), "max_kb": _positive(1e6),
    "max_lag_s": _positive(1e6), "max_rate_mbps": _positive(1e6), "mu_max_mbps": _positive(1e6),
    "mu_min_mbps": _positive(1e6), "off_ms": Domain(1e-3, 1e9), "on_ms": Domain(1e-3, 1e9),
    "packet_bytes": _count(1, 1e6), "peak_mbps": Domain(1e-6, 1e6), "points": _count(1, MAX_POINTS),
    "q_max_pkts": Domain(1e-3, 1e7), "ratios": _count(1, 1e6), "rtt0_ms": _positive(1e6), "rtt_ms": _positive(1e6),
    "sim_lag_step_ms": _positive(1e6), "sim_packet_bytes": _count(1, 65535), "sim_seconds": _positive(1e6),
    "sim_seed": _count(0, 2**63 - 1), "slot_ms": _positive(1e6), "step_kb": _positive(1e6),
    "tcp_size": _count(1, 1e6), "udp_size": _count(1, 1e6),
}
"""Every numeric parameter's domain, by name (a name means the same in every model): each bound the
models' formulas need (a load in (0, 1], a rate, time or size above 0), and upper bounds far past any
paper's values that keep a model's work small (a chain of at most `MAX_STATES` states)."""

MAX_STATES = 500_000
"""The most chain states a model solves, summed over its buffers (each state of M/D/1's workload grid
counts as one): A-fig10's default 6,375, A-md1's 151,700 (2 s here), 125,000 took 3 s."""


def states(lo: float, hi: float, step: float, per_kb: float) -> float:
    """States summed over the buffers lo, lo + step, ..., hi KB, `per_kb` states per KB of buffer."""
    n = np.floor((hi - lo) / step + 0.5) + 1
    return per_kb * (n * lo + step * n * (n - 1) / 2)


def within_states(names: str, count: float) -> Optional[Tuple[str, str]]:
    """The rule a chain model's parameters `names` break when they ask for `count` states past `MAX_STATES`."""
    return (names, f"{count:,.0f} chain states over the buffers; at most {MAX_STATES:,}") if count > MAX_STATES else None


def _rates_ordered(p: Params) -> Optional[Tuple[str, str]]:
    """QLBP's rates, in any model that has them: mu_min below mu_max."""
    if "mu_min_mbps" in p and not p["mu_min_mbps"] < p["mu_max_mbps"]:
        return "mu_min_mbps", f"{p['mu_min_mbps']:g} must be below mu_max_mbps ({p['mu_max_mbps']:g})"
    return None


def _number(key: str, text: str, whole: bool) -> Union[int, float]:
    """The number `text` gives parameter `key`: an int if `whole` (1000, 1e3 and 1000.0 alike), else a
    float; a ValueError naming the key ("tcp_size must be a whole number, got 1.5")."""
    kind = "a whole number" if whole else "a number"
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"{key} must be {kind}, got {shown(text.strip())}") from None
    if not whole:
        return v
    if not np.isfinite(v) or v != int(v):
        number = text.strip()  # digits, signs, points, e, inf or nan: float read it
        raise ValueError(f"{key} must be {kind}, got {number if len(number) <= 80 else number[:77] + '...'}")
    try:
        return int(text)  # exact past 2^53
    except ValueError:
        return int(v)


def parse_overrides(model: Model, pairs: Sequence[str]) -> Params:
    """`key=value` strings to a full parameter set, typed after the defaults (an int's value any whole
    number, 1e3 too; lists as comma-separated numbers, at least one, their elements typed alike) and each
    within its `DOMAINS` and the rules across parameters; a ValueError naming the model and the parameter."""
    params = dict(model.defaults)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or key not in params:
            known = ", ".join(sorted(params))
            raise ValueError(f"{model.id}: unknown parameter {key!r} (parameters: {known})")
        default = params[key]
        try:
            if isinstance(default, tuple):
                whole = all(isinstance(d, int) for d in default)
                params[key] = tuple(_number(key, v, whole) for v in value.split(",") if v.strip())
                if not params[key]:
                    raise ValueError(f"{key} must be a list of numbers, e.g. {','.join(map(str, default))}; "
                                     f"got {shown(value)}")
            elif isinstance(default, (int, float)):
                params[key] = _number(key, value, isinstance(default, int))
            else:
                params[key] = value
        except ValueError as e:
            raise ValueError(f"{model.id}: {e}") from None
    for key, value in params.items():
        domain = DOMAINS.get(key)
        for v in (value if isinstance(value, tuple) else (value,)) if domain else ():
            why = domain.refuses(float(v))
            if why:
                raise ValueError(f"{model.id}: {key} {why}, got {v:g}")
    broken = _rates_ordered(params) or (model.across(params) if model.across else None)
    if broken:
        raise ValueError(f"{model.id}: {broken[0]}: {broken[1]}")
    csv = params.get("empty_csv") and Path(str(params["empty_csv"]))
    if csv and not csv.is_file():
        raise ValueError(f"{model.id}: empty_csv={params['empty_csv']!r}: "
                         f"{'a directory, not a CSV file' if csv.is_dir() else 'no such file'}")
    return params


MAX_CSV_BYTES = 64 * 10**6
"""The largest CSV of simulated points read (a reproduction's points CSV is a few hundred KB)."""
MAX_CSV_COLUMNS = 1_000
"""The most columns of a CSV of simulated points (a reproduction's points CSV has about 50). pandas keeps each
column apart: a million of them in 10 MB of text ran it out of memory (issue 33), and so do a million fields in
one row under a narrow header (pandas makes the ones past the header an index of as many levels)."""
_FIRST_TEXT = re.compile(rb"[^ \t\r\n\f\v]")
_LINE_END = re.compile(rb"[\r\n]")


def _header(data: bytes) -> Optional[bytes]:
    """CSV `data`'s header as pandas finds it: its first line holding more than white space (pandas skips
    blank lines before it); None if a quoted name in it runs on past the line's end."""
    first = _FIRST_TEXT.search(data)
    if first is None:
        return b""
    end = _LINE_END.search(data, first.start())
    line = data[first.start():end.start() if end else len(data)]
    return None if line.count(b'"') % 2 else line


def read_csv(path: Path, what: str, named: str = "") -> pd.DataFrame:
    """A CSV file the user names (`what`: an overlay, empty_csv), read only if at most `MAX_CSV_BYTES`
    (a ScenarioError naming the file otherwise, /dev/zero included); one whose header has more than
    `MAX_CSV_COLUMNS` columns (each comma in it counted, in a quoted name too: never fewer than pandas would
    make), that is empty, no CSV or no text a ValueError starting with `named` (the option and the file:
    "--overlay PATH")."""
    data = read_bounded(path, MAX_CSV_BYTES, f"{what} CSV")
    header = _header(data)
    if header is None:
        raise ValueError(f"{named}: not a CSV of points (a quoted column name in its header runs past its line)")
    if header.count(b",") >= MAX_CSV_COLUMNS:
        raise ValueError(f"{named}: its header has {header.count(b',') + 1:,} columns (a comma in a quoted name "
                         f"counted too); {what} CSV has at most {MAX_CSV_COLUMNS:,}")
    widest = max((line.count(b",") for line in data.splitlines()), default=0)
    if widest >= MAX_CSV_COLUMNS:
        raise ValueError(f"{named}: a row has {widest + 1:,} fields (a comma in a quoted value counted too); "
                         f"{what} CSV has at most {MAX_CSV_COLUMNS:,} columns")
    try:
        return pd.read_csv(io.BytesIO(data))
    except ValueError as e:  # pandas' errors are ValueErrors; a file that is no text too
        raise ValueError(f"{named}: not a CSV of points ({e})") from None


def load_overlay(model: Model, path: Path, params: Params, xs: Sequence[str]) -> Overlay:
    """A CSV of simulated points: taken as it is when it has one of the model's
    x columns `xs`, else converted from a reproduction's points CSV where the
    model has a converter (`Model.from_points`)."""
    sim = read_csv(path, "an overlay", f"--overlay {path}")
    if model.from_points and not set(xs) & set(sim.columns):
        try:
            return model.from_points(sim, params)
        except ValueError as e:
            raise ValueError(f"--overlay {path}: {e}") from None
    return Overlay([sim], "simulated")


def model_ref(model: Model) -> str:
    """The paper figure a model draws ("Paper A, Fig. 10"), else its paper and section ("Paper W, Sec. III-B.1")."""
    if re.match(r"^[a-z]-(fig|tab|thm)\d+$", model.id):
        return paper_ref(model.id)
    return f"Paper {model.source[0]}, {model.source[2:].split(',')[0]}"
