"""Human units to the engine's SI integers, and back.

Rates become bit/s, sizes bytes, times nanoseconds. Parsing is strict: a
quantity is ASCII digits and one of the listed units (a space between them
at most), must not be negative, and must be a whole number in the base unit
("1.5ms" is fine, "1.5ns" is not). A bare number is refused, since whether `5000` means bytes or packets is exactly the
kind of thing a scenario file should say.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, localcontext
from functools import lru_cache

from . import _core
from .messages import shown

RATE_UNITS = {
    "bps": 1, "b/s": 1,
    "kbps": 10**3, "Kbps": 10**3, "kb/s": 10**3, "Kb/s": 10**3,
    "Mbps": 10**6, "Mb/s": 10**6,
    "Gbps": 10**9, "Gb/s": 10**9,
}
SIZE_UNITS = {
    "B": 1,
    "kB": 10**3, "KB": 10**3, "MB": 10**6, "GB": 10**9,
    "KiB": 2**10, "MiB": 2**20, "GiB": 2**30,
}
TIME_UNITS = {
    "ns": 1,
    "us": 10**3, "\u00b5s": 10**3, "\u03bcs": 10**3,
    "ms": 10**6,
    "s": 10**9,
}

_KINDS = {"rate": (RATE_UNITS, "bps"), "size": (SIZE_UNITS, "B"), "time": (TIME_UNITS, "ns")}
"""Each quantity's units and base unit."""

MAX_QUANTITY = 2**64 - 1
"""The largest rate (bit/s), size (bytes) or time (ns) the engine's 64-bit integers hold."""

_QUANTITY = re.compile(r"(?P<sign>-?)(?P<number>[0-9]+(?:\.[0-9]+)?) ?(?P<unit>.*)")


def _parse(text: object, kind: str) -> int:
    """`text` read as a quantity of `kind` ("rate", "size" or "time") in its base unit; a ValueError why not."""
    if isinstance(text, str) and len(text) <= 100:  # a sweep's every point reads the same few dozen again
        return _parse_text(text, kind)
    return _read(text, kind, *_KINDS[kind])


@lru_cache(maxsize=4096)
def _parse_text(text: str, kind: str) -> int:
    return _read(text, kind, *_KINDS[kind])


def _read(text: object, kind: str, units: dict[str, int], base: str) -> int:
    accepted = ", ".join(units)
    if isinstance(text, (bool, int, float)):
        if isinstance(text, bool):
            raise ValueError(f"expected a {kind} with a unit, got {shown(text)} (accepted units: {accepted})")
        if not 0 <= text < math.inf:  # no unit makes NaN, infinity or a negative one (review-hostile33k L1)
            raise ValueError(f"invalid {kind} {shown(text)}: expected a finite number, not negative, and a unit "
                             f"(\"10{base}\"; accepted units: {accepted})")
        raise ValueError(
            f"{kind} {shown(text)} has no unit: write \"{text}{base}\" (accepted units: {accepted})"
        )
    if not isinstance(text, str):
        raise ValueError(f"expected a {kind} string such as \"10{base}\", got {shown(text)}")
    m = _QUANTITY.fullmatch(text.strip(" \t"))
    if not m:
        raise ValueError(f"invalid {kind} {shown(text)}: expected a number and a unit (accepted units: {accepted})")
    if m["sign"] == "-":
        raise ValueError(f"invalid {kind} {shown(text)}: must not be negative")
    unit = m["unit"]
    if not unit:
        raise ValueError(
            f"{kind} {shown(text)} has no unit: write \"{m['number']}{base}\" (accepted units: {accepted})"
        )
    if unit not in units:
        raise ValueError(f"invalid {kind} {shown(text)}: unknown unit {shown(unit)} (accepted units: {accepted})")
    if len(m["number"]) > 60:  # past any 64-bit quantity (and the exact arithmetic below)
        raise ValueError(f"invalid {kind} {text[:40]!r}...: {len(m['number'])} digits, more than the engine can hold")
    with localcontext() as exact:
        exact.prec = 80
        value = Decimal(m["number"]) * units[unit]
    if value != value.to_integral_value():
        raise ValueError(f"invalid {kind} {shown(text)}: not a whole number of {base} ({value} {base})")
    if value > MAX_QUANTITY:
        raise ValueError(f"{kind} {shown(text)} is more than the engine can hold ({MAX_QUANTITY} {base})")
    return int(value)


def parse_rate(text: object) -> int:
    """A link rate such as "10Mbps" or "1.5Gb/s", in bit/s."""
    return _parse(text, "rate")


def parse_size(text: object) -> int:
    """A size such as "10KB" (1000 B) or "64KiB" (1024 B), in bytes."""
    return _parse(text, "size")


MAX_TIME_NS: int = _core.MAX_TIME
"""The longest time a scenario may give anything, ns: the engine's clock bound (`spec::MAX_TIME`, 10^6 s)."""


def parse_time(text: object) -> int:
    """A time such as "100ms" or "1.5s", in nanoseconds, at most `MAX_TIME_NS`."""
    ns = _parse(text, "time")
    if ns > MAX_TIME_NS:
        raise ValueError(f"time {text!r} is more than the engine allows ({format_time(MAX_TIME_NS)})")
    return ns


def _format(value: int, units: list[tuple[str, int]], base: str) -> str:
    for name, factor in units:
        if value and value % factor == 0:
            return f"{value // factor}{name}"
    return f"{value}{base}"


_RATES = [("Gbps", 10**9), ("Mbps", 10**6), ("kbps", 10**3)]


def format_rate(bps: int) -> str:
    """The shortest exact spelling of a rate: 10_000_000 -> "10Mbps"."""
    return _format(bps, _RATES, "bps")


def rounded_rate(bps: int) -> str:
    """A rate to four significant digits in the largest unit it reaches, for a table's column (a drawn rate's
    exact spelling runs to nine digits): 97_530_204 -> "97.53Mbps", 10_000_000 -> "10Mbps"."""
    name, factor = next(((n, f) for n, f in _RATES if bps >= f), ("bps", 1))
    digits = max(4, len(str(bps // factor)))  # never an exponent: 12_345 Gb/s has five
    return f"{bps / factor:.{digits}g}{name}"


def format_size(nbytes: int) -> str:
    """The shortest exact spelling of a size in decimal units: 10_000 -> "10KB"."""
    return _format(nbytes, [("GB", 10**9), ("MB", 10**6), ("KB", 10**3)], "B")


def format_time(ns: int) -> str:
    """The shortest exact spelling of a time: 100_000_000 -> "100ms", 0 -> "0s"."""
    if ns == 0:
        return "0s"
    return _format(ns, [("s", 10**9), ("ms", 10**6), ("us", 10**3)], "ns")
