"""Field types shared by the scenario models: quantities in human units
("10Mbps", "5KB", "100ms") held as SI integers, closed ranges drawn per
element, and the strict base model that rejects unknown keys."""

from __future__ import annotations

import copy
import errno
import functools
import os
import re
import stat
from pathlib import Path
from typing import Annotated, Any, Callable, List, Tuple, Union

from pydantic import (BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, SerializationInfo, ValidationError,
                      ValidationInfo, ValidatorFunctionWrapHandler, WrapValidator, field_validator, model_validator)
from pydantic_core import InitErrorDetails

from .messages import printable, shown
from .units import format_rate, format_size, format_time, parse_rate, parse_size, parse_time


MAX_SEED = 2**63 - 1
"""The largest seed, of a run and of a sweep alike: the most a results store holds (SQLite's INTEGER is
signed 64-bit; the engine's seed is u64)."""


class ScenarioError(ValueError):
    """An invalid scenario: `field` is the dotted path of the (first) bad field (or the file, option or
    argument at fault: `--max-memory`, a TOML file's name), `value` the value the scenario gives it as
    written there ("5KB", "sideways"; for a key the scenario leaves out, the engine's, in its units; None when
    there is none: a key missing, a file), `message` what is wrong. Its text (`str`), "field: message", is safe
    to print (`messages.printable`: control characters escaped, very long names cut)."""

    def __init__(self, field: str, message: str, value: Any = None):
        super().__init__(printable(f"{field}: {message}"))
        self.field = field
        self.message = message
        self.value = value

    def __reduce__(self):
        """Pickled as its fields, so that one raised in a sweep's worker process reaches the parent as itself
        (an exception pickles its `args`, here the one joined text, which `__init__` cannot take)."""
        return type(self), (self.field, self.message, self.value)

    @classmethod
    def from_engine(cls, error: ValueError) -> ScenarioError:
        """The engine's refusal, as the binding raises it (attributes `field`, `message`, its quantities in
        the units a scenario writes them, "10KB", "2s", and `value`: the engine's JSON value at the field, SI
        units). The engine neither places it in the JSON it was handed (no file of the user's) nor quotes a
        trace file's text (any readable file can be named as one, issue 33). Its field is the scenario file's
        key (`file_key`)."""
        return cls(file_key(error.field), error.message, error.value)


_WIRE_SIZE = re.compile(r"^(?P<source>traffic\.udp\[\d+\])\.size\.(?:range\[\d\]|list\[(?P<i>\d+)\])$")
"""A UDP source's size as the engine names it inside its wire form, `{range = [lo, hi]}` or `{list = [...]}`
(each size's bounds are the engine's schema's)."""


def file_key(field: str) -> str:
    """The scenario file's key for a field the engine names: the same path but for the one table whose keys
    differ, a UDP source's size (`scenario._SIZE`): a size in its range is the file's `size` (one value or the
    pair), one in its list the file's `sizes[i]`."""
    wire = _WIRE_SIZE.match(field)
    if wire is None:
        return field
    return f"{wire['source']}.size" if wire["i"] is None else f"{wire['source']}.sizes[{wire['i']}]"


def special(path: Path) -> str:
    """What `path` is when it exists and is no regular file ("a directory", "a FIFO", "a device", "a
    socket"); "" for a regular file or nothing there. Opening a FIFO to read it waits for a writer, so a
    file read whole is asked this first."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):  # nothing there (the reader names it), a name too long, a NUL
        return ""
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return ""


def unresolved(path: Path) -> str:
    """What symbolic link `path` is when it leads nowhere ("a symbolic link loop, which cannot be resolved", "a
    symbolic link to T, which does not exist"); "" when `path` is no symbolic link, leads to something, or is
    not there. What opens it would otherwise report the file as missing, or SQLite as unwritable."""
    try:
        os.stat(path)
        return ""
    except (OSError, ValueError) as e:
        if isinstance(e, ValueError) or not os.path.islink(path):
            return ""
        if e.errno == errno.ELOOP:
            return "a symbolic link loop, which cannot be resolved"
        target = printable(os.readlink(path))
        if e.errno in (errno.ENOENT, errno.ENOTDIR):
            return f"a symbolic link to {target}, which does not exist"
        return f"a symbolic link to {target}, which cannot be reached ({e.strerror or e})"


def read_bounded(path: Path, limit: int, what: str) -> bytes:
    """The bytes of file `path`, a `what` ("a sweep file"); a ScenarioError naming the file if it is no
    regular file (`special`: asked before opening it, which for a FIFO waits for a writer; a device such as
    /dev/zero reads without end), holds more than `limit` bytes (found from its size, or after reading
    `limit` + 1 bytes, never more, if it grows) or cannot be read."""
    kind = special(path)
    if kind:
        raise ScenarioError(str(path), f"is {kind}, not a regular file")
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size if stat.S_ISREG(os.fstat(f.fileno()).st_mode) else 0
            data = f.read(limit + 1) if size <= limit else b""
    except OSError as e:
        raise ScenarioError(str(path), f"cannot be read: {e.strerror or e}") from None
    if size > limit or len(data) > limit:
        held = f"{size:,} bytes" if size > limit else f"more than {limit:,} bytes"
        raise ScenarioError(str(path), f"holds {held}; {what} is at most {format_size(limit)}")
    return data


def _positive(parse: Callable[[object], int]) -> Callable[[object], int]:
    def check(text: object) -> int:
        value = parse(text)
        if value == 0:
            raise ValueError(f"{text!r} must be greater than zero")
        return value

    return check


HELD = "held"
"""The validation context's key that, true, has a quantity's number read as the scenario holds it, in its SI base
unit (`Scenario.rechecked`: a Scenario's own values, which a change pydantic does not validate may have left
anything); a file's number has no unit, and is refused."""


class WrittenInt(int):
    """A whole number under `HELD` that a table given as a dict holds, not a model (`model_copy(update={"core":
    {"buffer": 5000}})`): read as a file's number is, by the same rule as `Scenario(core={"buffer": 5000})`
    (review-hostile33n L3); its value is its int's."""


class WrittenFloat(float):
    """`WrittenInt`'s float."""


def _reader(parse: Callable[[object], int], base: str, info: ValidationInfo) -> Callable[[object], int]:
    """`parse` (a file's quantity, "5KB"), or under `HELD` `parse` of a whole number as the text of that many of
    `base` (5000 as "5000B", so that a held number meets a file's bounds, one rule for both); a held number that is
    not whole is refused; a `WrittenInt` or `WrittenFloat` is a file's."""
    if not (info.context or {}).get(HELD):
        return parse

    def held(value: object) -> int:
        if isinstance(value, (WrittenInt, WrittenFloat)):  # a number a dict gave: a file's
            return parse(int(value) if isinstance(value, int) else float(value))
        if type(value) is float and value.is_integer():  # a float a numpy array or a Decimal gave
            value = int(value)
        if type(value) is float:
            raise ValueError(f"{shown(value)} is not a whole number of {base}")
        return parse(f"{value}{base}" if type(value) is int else value)

    return held


def _quantity(parse: Callable[[object], int], fmt: Callable[[int], str], base: str) -> Any:
    """An int in SI units (`base`), parsed from and dumped (in JSON mode) to a unit string."""
    def validate(value: object, info: ValidationInfo) -> int:
        return _reader(parse, base, info)(value)

    return Annotated[int, BeforeValidator(validate), PlainSerializer(fmt, when_used="json")]


def _range(parse: Callable[[object], int], fmt: Callable[[int], str], base: str) -> Any:
    """A closed interval drawn uniformly per element: "10Mbps" or ["8Mbps", "12Mbps"].

    Stored as (lo, hi) in SI units (`base`); dumped as the engine's [lo, hi] array, or
    in JSON mode as unit strings, a single one when lo == hi.
    """

    def validate(value: object, info: ValidationInfo) -> Tuple[int, int]:
        parse_one = _reader(parse, base, info)
        if isinstance(value, (list, tuple)):
            if len(value) != 2:
                got = f"a list of {len(value):,} values" if len(value) > 2 else repr(list(value))  # not millions shown
                raise ValueError(f"expected one value or a [low, high] pair, got {got}")
            lo, hi = parse_one(value[0]), parse_one(value[1])
        else:
            lo = hi = parse_one(value)
        if lo > hi:
            raise ValueError(f"range lower bound {fmt(lo)} exceeds upper bound {fmt(hi)}")
        return lo, hi

    def serialize(value: Tuple[int, int], info: SerializationInfo) -> Union[str, list]:
        if info.mode == "json":
            return fmt(value[0]) if value[0] == value[1] else [fmt(value[0]), fmt(value[1])]
        return list(value)

    return Annotated[Tuple[int, int], BeforeValidator(validate), PlainSerializer(serialize)]


Rate = _quantity(_positive(parse_rate), format_rate, "bps")
Size = _quantity(parse_size, format_size, "B")
PositiveSize = _quantity(_positive(parse_size), format_size, "B")
Time = _quantity(parse_time, format_time, "ns")
PositiveTime = _quantity(_positive(parse_time), format_time, "ns")
RateRange = _range(_positive(parse_rate), format_rate, "bps")
TimeRange = _range(parse_time, format_time, "ns")
SizeRange = _range(_positive(parse_size), format_size, "B")
U32 = 2**32
"""Counts (hosts, edges, packets of a window or queue) are the engine's 32-bit integers: below this."""
Count = Annotated[int, Field(strict=True, gt=0, lt=U32)]


CHECKED_AT_ONCE = 100
"""A list is checked this many elements at a time, and no further than the first run with an error (`Checked`):
a list of millions of bad elements once gave an error each, every one kept and printed (8 million sizes: 3.8
GB, then an abort; issue 33)."""
WRONG_SHOWN = 3
"""How many of a list's wrong elements an error names one by one; it counts the others."""


def _checked_list(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """`value` checked as a list by `handler` in runs of `CHECKED_AT_ONCE` elements, stopping at the first
    run with an error: the errors of its first `WRONG_SHOWN` wrong elements (their indices in the whole
    list), then one at the list counting the other wrong elements of the runs checked and the elements
    left unchecked."""
    if not isinstance(value, list):
        return handler(value)
    done: List[Any] = []
    for start in range(0, len(value), CHECKED_AT_ONCE):
        try:
            done.extend(handler(value[start:start + CHECKED_AT_ONCE]))
        except ValidationError as e:
            raise _first_wrong(e.errors(include_url=False), value, start) from None
    return done


def _first_wrong(errors: List[Any], value: list, start: int) -> ValidationError:
    """The errors of a run of `value` from index `start`, at their indices in `value`, bounded as
    `_checked_list` says."""
    wrong = sorted({e["loc"][0] for e in errors})
    kept = [InitErrorDetails(type=e["type"], loc=(start + e["loc"][0], *e["loc"][1:]), input=e["input"],
                             ctx=e.get("ctx", {})) for e in errors if e["loc"][0] in wrong[:WRONG_SHOWN]]
    checked = min(start + CHECKED_AT_ONCE, len(value))
    more = [f"{len(wrong) - WRONG_SHOWN:,} more of its first {checked:,} elements are wrong"] \
        if len(wrong) > WRONG_SHOWN else []
    if checked < len(value):
        more.append(f"its {len(value) - checked:,} elements after the first {checked:,} are not checked")
    if more:
        kept.append(InitErrorDetails(type="value_error", loc=(), input=None,
                                     ctx={"error": ValueError("and " + "; ".join(more))}))
    return ValidationError.from_exception_data("list", kept)


Checked = WrapValidator(_checked_list)
"""A scenario's list (`List[X]`, annotated with this) gives errors for a bounded number of its elements
(`_checked_list`)."""


class FrozenList(list):
    """A scenario's list (`traffic.udp`, `pacing.links`, ...): read as any list, but changed only by
    assigning a new one, which is validated as a file's value is (`s.traffic.udp = [*s.traffic.udp,
    source]`); changed in place (`append`, `x[0] = ...`), it would reach the engine unchecked."""

    name = ""
    """The key holding the list, set by its table, for the message."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        which = f" ({self.name})" if self.name else ""
        raise TypeError(f"a scenario's list{which} is not changed in place, which would skip its validation: assign a "
                        "new list instead, which is checked (as s.traffic.udp = [*s.traffic.udp, source])")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce__(self) -> Tuple[type, Tuple[list]]:
        return FrozenList, (list(self),)

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict) -> FrozenList:
        new = FrozenList(copy.deepcopy(list(self), memo))
        new.name = self.name
        return new


MAX_STRANGE_KEYS = 100
"""The most keys one table may be given that are none of its fields' before it is refused as a whole: every table of
a scenario is closed, and pydantic makes an error of each such key (1.9 million short keys took 10 s and 2.4 GB,
1.5 million given in a dict 6.9 s and 2.0 GB, review-hostile33t M1); up to it each is named."""


@functools.lru_cache(maxsize=None)
def own_keys(models: Tuple[type, ...]) -> frozenset:
    """The keys a table of one of `models` given as a dict takes (a field's alias where it has one)."""
    return frozenset(f.alias or name for model in models for name, f in model.model_fields.items())


def too_many_strange(strange: List[Any]) -> ScenarioError:
    """The refusal of a table given more than `MAX_STRANGE_KEYS` keys that are none of its own, `strange` the first of
    them: named at the first that is text (as an unknown key is), each shown as str's own text (no method of a
    subclass's called, review of 0118e6a M2)."""
    text = [str.__str__(k) for k in strange if isinstance(k, str)]
    first = ", ".join(shown(str.__str__(k)) if isinstance(k, str) else "a key that is not text" for k in strange[:3])
    return ScenarioError(text[0] if text else "", f"unknown key, one of more than {MAX_STRANGE_KEYS} in its table "
                                                  f"that are none of its own ({first}, ...): a table takes its own "
                                                  "keys only")


class _Model(BaseModel):
    # Strict: no boolean or string is taken for a number (`w_q = true`, "0.5");
    # an assignment (`s.core.buffer = "5KB"`) is parsed and checked as a file's value is.
    # Validators are built on first use (`defer_build`): a run validates one Scenario, whose validator
    # holds its tables' own, so the tables' separate validators need not be built at import.
    # A key that is a Python keyword (`from`, `class`) is a field with `_` appended, read and written by its alias.
    model_config = ConfigDict(extra="forbid", validate_default=True, strict=True, validate_assignment=True,
                              defer_build=True, serialize_by_alias=True)

    @field_validator("*")
    @classmethod
    def _unsigned_zero(cls, value: Any) -> Any:
        """A number given as -0.0 (a dict, `model_validate`, an assignment) as 0.0, as the files' and --set's
        are read (`scenario._float`): one zero, with one key and one printed form."""
        return 0.0 if type(value) is float and value == 0 else value

    @model_validator(mode="before")
    @classmethod
    def _few_strange_keys(cls, data: Any) -> Any:
        """A table given as a dict with more than `MAX_STRANGE_KEYS` keys none of its own refused as one error, before
        pydantic makes one of each. A key's text is read as str's own (no method of a subclass's is called)."""
        if isinstance(data, dict) and dict.__len__(data) > MAX_STRANGE_KEYS:  # its own length (review M1)
            own = own_keys((cls,))
            strange = [k for k in dict.keys(data) if not (isinstance(k, str) and str.__str__(k) in own)]
            if len(strange) > MAX_STRANGE_KEYS:
                raise too_many_strange(strange)
        return data

    @model_validator(mode="after")
    def _frozen_lists(self) -> _Model:
        """Each list a table holds as a `FrozenList` (again after an assignment, which is validated)."""
        for name, value in self.__dict__.items():
            if type(value) is list:
                self.__dict__[name] = FrozenList(value)
                self.__dict__[name].name = name
        return self
