"""Where two ns-2 packet traces part (`pacesim trace diff`): the first pair of lines, in order, that differ in
a field, with time stamps equal within a tolerance (ns-2 prints them rounded to the microsecond), and each
trace's count of events by type."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Union

from .ns2trace import FIELDS, TraceLine, read


@dataclass
class Parting:
    """The first lines that differ (None where a trace ended first) and the fields that differ."""

    a: Optional[TraceLine]
    b: Optional[TraceLine]
    fields: List[str]


@dataclass
class TraceDiff:
    """The first parting (None: identical within the tolerance), the events compared equal before it, and
    each trace's count of events by type (`+ - d r`)."""

    parting: Optional[Parting]
    same: int
    counts: List[Dict[str, int]] = field(default_factory=list)


def differing(a: TraceLine, b: TraceLine, tolerance: float, ignore: Sequence[str] = ()) -> List[str]:
    """The fields in which `a` and `b` differ: times by more than `tolerance` seconds, the rest exactly."""
    out = []
    for name in FIELDS:
        if name in ignore:
            continue
        x, y = a.field(name), b.field(name)
        if name == "time" and abs(x - y) <= tolerance + 1e-12:
            continue
        if x != y:
            out.append(name)
    return out


def diff(path_a: Union[str, Path], path_b: Union[str, Path], tolerance: float = 0.0,
         ignore: Sequence[str] = ()) -> TraceDiff:
    """Compare trace files `path_a` and `path_b` line by line (reading both to the end for the counts);
    fields named in `ignore` are not compared. Raises TraceError for a missing or garbled file."""
    unknown = [f for f in ignore if f not in FIELDS]
    if unknown:
        raise ValueError(f"ignore: {unknown[0]!r} is not a field; fields: {', '.join(FIELDS)}")
    if not 0 <= tolerance < float("inf"):
        raise ValueError(f"tolerance: {tolerance} must be a number of seconds >= 0")
    counts: List[Counter] = [Counter(), Counter()]
    parting, same = None, 0
    for a, b in zip_longest(read(path_a), read(path_b)):
        for c, line in zip(counts, (a, b)):
            if line is not None:
                c[line.event] += 1
        if parting is not None:
            continue
        if a is None or b is None:
            parting = Parting(a, b, [])
            continue
        fields = differing(a, b, tolerance, ignore)
        if fields:
            parting = Parting(a, b, fields)
        else:
            same += 1
    return TraceDiff(parting, same, [{e: c[e] for e in "+-dr"} for c in counts])
