"""Field types shared by the scenario models: quantities in human units
("10Mbps", "5KB", "100ms") held as SI integers, closed ranges drawn per
element, and the strict base model that rejects unknown keys."""

from __future__ import annotations

import re
from typing import Annotated, Any, Callable, Tuple, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, SerializationInfo

from .units import format_rate, format_size, format_time, parse_rate, parse_size, parse_time


class ScenarioError(ValueError):
    """An invalid scenario; `field` is the dotted path of the (first) bad field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    @classmethod
    def from_engine(cls, error: ValueError) -> ScenarioError:
        """The engine's "field: message" error, without the position in the JSON
        it was handed (which is no file of the user's), its quantities in human units."""
        from .schema import humanize

        field, _, message = str(error).partition(": ")
        return cls(field, humanize(re.sub(r" at line \d+ column \d+$", "", message)))


def _positive(parse: Callable[[object], int]) -> Callable[[object], int]:
    def check(text: object) -> int:
        value = parse(text)
        if value == 0:
            raise ValueError(f"{text!r} must be greater than zero")
        return value

    return check


def _quantity(parse: Callable[[object], int], fmt: Callable[[int], str]) -> Any:
    """An int in SI units, parsed from and dumped (in JSON mode) to a unit string."""
    return Annotated[int, BeforeValidator(parse), PlainSerializer(fmt, when_used="json")]


def _range(parse: Callable[[object], int], fmt: Callable[[int], str]) -> Any:
    """A closed interval drawn uniformly per element: "10Mbps" or ["8Mbps", "12Mbps"].

    Stored as (lo, hi) in SI units; dumped as the engine's [lo, hi] array, or
    in JSON mode as unit strings, a single one when lo == hi.
    """

    def validate(value: object) -> Tuple[int, int]:
        if isinstance(value, (list, tuple)):
            if len(value) != 2:
                raise ValueError(f"expected one value or a [low, high] pair, got {list(value)!r}")
            lo, hi = parse(value[0]), parse(value[1])
        else:
            lo = hi = parse(value)
        if lo > hi:
            raise ValueError(f"range lower bound {fmt(lo)} exceeds upper bound {fmt(hi)}")
        return lo, hi

    def serialize(value: Tuple[int, int], info: SerializationInfo) -> Union[str, list]:
        if info.mode == "json":
            return fmt(value[0]) if value[0] == value[1] else [fmt(value[0]), fmt(value[1])]
        return list(value)

    return Annotated[Tuple[int, int], BeforeValidator(validate), PlainSerializer(serialize)]


Rate = _quantity(_positive(parse_rate), format_rate)
Size = _quantity(parse_size, format_size)
PositiveSize = _quantity(_positive(parse_size), format_size)
Time = _quantity(parse_time, format_time)
PositiveTime = _quantity(_positive(parse_time), format_time)
RateRange = _range(_positive(parse_rate), format_rate)
TimeRange = _range(parse_time, format_time)
SizeRange = _range(_positive(parse_size), format_size)
U32 = 2**32
"""Counts (hosts, edges, packets of a window or queue) are the engine's 32-bit integers: below this."""
Count = Annotated[int, Field(strict=True, gt=0, lt=U32)]


class _Model(BaseModel):
    # Strict: no boolean or string is taken for a number (`w_q = true`, "0.5");
    # an assignment (`s.core.buffer = "5KB"`) is parsed and checked as a file's value is.
    # Validators are built on first use (`defer_build`): a run validates one Scenario, whose validator
    # holds its tables' own, so the tables' separate validators need not be built at import.
    # A key that is a Python keyword (`from`, `class`) is a field with `_` appended, read and written by its alias.
    model_config = ConfigDict(extra="forbid", validate_default=True, strict=True, validate_assignment=True,
                              defer_build=True, serialize_by_alias=True)
