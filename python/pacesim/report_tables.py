"""The tables of one run's report as pandas frames: the one view of each that
`Result` gives for a live run and the results store gives for a stored one.

A table has two forms. Its *rows* (`rows`) are the engine's columns as the
report holds them (crates/pacesim-core/src/report.rs), the form the store
writes, one Parquet file per run and table (`TABLES`). Its *view* (`view`) is
what a reader gets: the rows indexed by their key (`flows` by flow,
`burstiness` by scale_us) and with their derived columns (a transfer's
`goodput_kbps`). `Result.flows` is `view("flows", rows(report, "flows"))` and
`Store.table(key, "flows")` is `view("flows", <its Parquet file>)`, so a run's
live and stored tables are equal frames. The links are no Parquet table: the
store keeps them in the run's report, and `links` reads them from either.

pandas is imported on first use (`pacesim run` prints its transfers with
`goodput_kbps` alone).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Optional, Sequence, Tuple

if TYPE_CHECKING:
    import pandas as pd

def report_number(text: str) -> float:
    """A number of the engine's report as it is read (`json.loads(..., parse_float=report_number)`, by
    `engine.run` and by the store): the float it writes, -0.0 (the engine's sum over nothing, as a mean
    goodput without TCP flows, written so by engines before 8d14a17 and kept so in runs stored then) as
    0.0, so that nothing read from a report (`Result.report` and `summary`, `run --json`, `Store.report`)
    carries a sign no quantity has."""
    return float(text) or 0.0


TABLES = ("flows", "transfers", "burstiness", "progress", "delay", "series")
"""The report's per-row tables, each stored as one Parquet file per run (`series` only when recorded)."""

SERIES_COLUMNS = ("time_s", "entity", "series", "value")
"""The long form of a run's time series: at time_s (seconds), entity's quantity `series` was `value`."""

INDEX = {"flows": "flow", "burstiness": "scale_us"}
"""The tables whose view is indexed, and by which column."""

FLOW_STATS = [("goodput_kbps", "goodput, Kb/s", "goodput", 1), ("throughput_kbps", "throughput, Kb/s", "throughput", 1),
              ("lost_packets", "lost packets", "lost", 1), ("loss_rate", "loss %", "loss %", 100),
              ("transit_mean_ms", "transit mean, ms", "mean", 1), ("transit_p50_ms", "transit p50, ms", "p50", 1),
              ("transit_p95_ms", "transit p95, ms", "p95", 1), ("transit_p99_ms", "transit p99, ms", "p99", 1),
              ("jitter_ms", "jitter, ms", "jitter", 1)]
"""The flows table's per-flow statistics as `pacesim run` and the report site show them (ns-3 FlowMonitor's;
transit and jitter with [transit]): column, its label across flows, its header for one row per flow, and the
factor to its unit."""


def figures(v: float) -> str:
    """`v` to three significant figures as a plain number, never with an exponent (2,864 where "{:.3g}"
    wrote 2.86e+03, 0.0000512 for 5.12e-05): from 1,000 the whole number with thousands separators."""
    if not math.isfinite(v) or v == 0:
        return f"{v:.3g}"
    if abs(v) >= 999.5:
        return f"{v:,.0f}"
    places = max(0, 2 - math.floor(math.log10(abs(v))))
    text = f"{v:.{places}f}"
    if abs(float(text)) >= 10 ** (3 - places):  # rounding carried to a fourth figure (9.996 -> 10.00)
        text = f"{v:.{max(0, places - 1)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def goodput_kbps(nbytes, fct_s):
    """A transfer's goodput, Kb/s: its payload bytes over its completion time in seconds (numbers or columns)."""
    return nbytes * 8 / fct_s / 1e3


def rows(report: dict, name: str) -> pd.DataFrame:
    """Table `name` of a run's report in the engine's columns, as stored (burstiness: scale_us, beta;
    delay: delay_ms, fraction; empty, with those columns, if the run did not measure it)."""
    import pandas as pd

    if name == "burstiness":
        b = report.get("burstiness")
        return pd.DataFrame({"scale_us": b["scale_us"], "beta": b["beta"]} if b else {"scale_us": [], "beta": []})
    if name == "delay":
        d = report.get("delay")
        return pd.DataFrame({"delay_ms": d["cdf_ms"], "fraction": d["cdf"]} if d else {"delay_ms": [], "fraction": []})
    if name == "series":
        return series_rows(report.get("series"))
    return pd.DataFrame(report.get(name) or {})


def unmeasured_as_nan(frame: pd.DataFrame, columns: Optional[Sequence[str]] = None) -> pd.DataFrame:
    """`frame` with each of `columns` (default all) that holds no value at all (every entry None or NaN: a
    statistic no flow or run had, such as an unpaced flow's mean pacer delay) as float NaN, not pandas'
    object column of Nones, so that it takes means and comparisons as the measured columns do."""
    empty = [c for c in (frame.columns if columns is None else columns)
             if frame[c].dtype == object and frame[c].isna().all()]
    return frame.astype({c: float for c in empty}) if empty else frame


def view(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    """Table `name`'s rows (`rows`, or as loaded from the store) as readers see them: indexed by `INDEX`,
    transfers with their goodput_kbps, a column no row has a value in as float NaN (`unmeasured_as_nan`)."""
    frame = unmeasured_as_nan(frame)
    if name == "transfers":
        frame = frame.assign(goodput_kbps=goodput_kbps(frame["bytes"], frame["fct_s"]))
    return frame.set_index(INDEX[name]) if name in INDEX else frame


def flat(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    """A view with its index back as the first column (to stack several runs' tables)."""
    return frame.reset_index() if name in INDEX else frame


def table(report: dict, name: str) -> Optional[pd.DataFrame]:
    """The view of table `name` of a live run's report; None if the run did not measure it (`flows` and
    `transfers` always are)."""
    if name not in ("flows", "transfers") and report.get(name) is None:
        return None
    return view(name, rows(report, name))


def series_rows(series: Optional[dict]) -> pd.DataFrame:
    """The engine's series table (per track: entity and series; per point: t_s, track, value) in long form
    (`SERIES_COLUMNS`), entity and series as categories; empty if none was recorded."""
    import numpy as np
    import pandas as pd

    if not series:
        return pd.DataFrame({c: pd.Series([], dtype="category" if c in ("entity", "series") else float)
                             for c in SERIES_COLUMNS})
    track = np.asarray(series["track"], dtype=np.int64)
    named = {}
    for key in ("entity", "series"):  # each track's name, once per track: codes into the distinct names
        names, codes = np.unique(np.asarray(series[key], dtype=object), return_inverse=True)
        named[key] = pd.Categorical.from_codes(codes[track], categories=names)
    return pd.DataFrame({"time_s": np.asarray(series["t_s"], dtype=float), **named,
                         "value": np.asarray(series["value"], dtype=float)})


QUANTITIES = (("bytes", "B", "parse_size", 1.0), ("s", "s", "parse_time", 1e-9), ("bps", "bit/s", "parse_rate", 1.0))
"""The quantities an axis may be written in: column suffix, unit, the `units` parser, its value's scale to the
unit (times parse to ns)."""


def _quantity(values: pd.Series) -> Optional[Tuple[str, str, pd.Series]]:
    """An axis's values as one quantity of `QUANTITIES`: its column suffix, unit and the numbers (floats);
    None for plain numbers, categories (schemes, variants), lists, or values that do not all parse as one
    quantity."""
    from . import units

    if values.map(lambda v: isinstance(v, str)).eq(False).any():
        return None
    for suffix, unit, parser, scale in QUANTITIES:
        try:
            return suffix, unit, values.map(lambda v, parse=getattr(units, parser): parse(v) * scale).astype(float)
        except ValueError:
            continue
    return None


def axis_numbers(points: pd.DataFrame, axes: Sequence[str]) -> pd.DataFrame:
    """A sweep's points as written (`Store.points(..., written=True)`) in the form of a CSV, which has no
    column metadata (`pacesim results NAME --csv`, a reproduction's CSV): each axis written in units ("3KB",
    "10ms", "8Mbps") is a number in a column whose name carries its unit, `<axis>_bytes`, `<axis>_s` or
    `<axis>_bps`, in the axis's place, so that it sorts and computes as numbers (as text "10KB" sorts before
    "3KB"), with the values as written beside it in `<axis>_written` (the text sweep files and --where take,
    as `Store.points` names it); no column of the axis's bare name holds text. Each such column's unit is in
    `frame.attrs["units"]` ({"core.buffer_bytes": "B"})."""
    frame, named = points.copy(), {}
    for axis in axes:
        found = _quantity(frame[axis]) if axis in frame else None
        if found is not None:
            suffix, unit, values = found
            frame.insert(frame.columns.get_loc(axis), f"{axis}_{suffix}", values)
            frame = frame.rename(columns={axis: f"{axis}_written"})
            named[f"{axis}_{suffix}"] = unit
    frame.attrs["units"] = {**points.attrs.get("units", {}), **named}
    return frame


def numeric_axes(points: pd.DataFrame, axes: Sequence[str]) -> pd.DataFrame:
    """A sweep's points as written with each axis written in units ("3KB", "10ms", "8Mbps") made its
    number in the unit `frame.attrs["units"]` names ({"core.buffer": "B"}: bytes, seconds or bit/s), so
    that it sorts and computes as numbers (as written, "10KB" sorts before "3KB"), and the values as
    written kept beside it as `<axis>_written`: the form of `Store.points`, `Store.rows` and
    `Store.to_xarray`. An axis of plain numbers is numeric already; any other keeps its values."""
    frame, named = points.copy(), {}
    for axis in axes:
        found = _quantity(frame[axis]) if axis in frame else None
        if found is not None:
            _, unit, values = found
            frame.insert(frame.columns.get_loc(axis) + 1, f"{axis}_written", frame[axis])
            frame[axis] = values
            named[axis] = unit
    frame.attrs["units"] = {**points.attrs.get("units", {}), **named}
    return frame


def links(report: dict) -> pd.DataFrame:
    """One row per measured link (`core`, `core.rev`, `edge_in.3`, ...), over the window; arrivals, drops,
    loss rate, departures and departed bytes per traffic class in columns `data_*`, `ack_*`, `udp_*` (the
    last two absent from an older engine's report)."""
    import pandas as pd

    links = report["links"]
    # One normalisation over all rows keeps the counters integer (a row at a time made them floats).
    return pd.json_normalize(list(links.values()), sep="_").set_axis(pd.Index(list(links), name="link"))


def bins(report: dict, bin_ns: int) -> Optional[pd.Series]:
    """Bytes arriving at the burstiness link per bin of `bin_ns` (the scenario's `burstiness.bin`) over the
    window, indexed by the bin's start in seconds; None unless the run recorded them (`burstiness.series`)."""
    import pandas as pd

    b = report.get("burstiness")
    if b is None or b.get("series_bytes") is None:
        return None
    counts = b["series_bytes"]
    index = pd.Index(report["window_s"][0] + bin_ns / 1e9 * pd.RangeIndex(len(counts)), name="time_s")
    return pd.Series(counts, index=index, name="bytes", dtype="int64")
