"""Scenarios: what a run simulates, written in human units and checked here.

Every table's model is generated from the engine's schema (`scenario_tables.Tables` over `schema.SCHEMA`,
emitted from the Rust specs of crates/pacesim-core): its keys in the engine's order, their types and
bounds, defaults and descriptions are the engine's, so an error names the same dotted path in a TOML
file, in a `--set` override and in the engine, and adding a knob to a Rust spec adds it here. Fields
hold human strings on the way in ("10KB", ["8Mbps", "12Mbps"]) and SI integers once validated (bytes,
bit/s, ns). This module keeps only the front end (`FRONTS`): UdpSource's two keys `size`/`sizes` for the
engine's one `size`, a trace file made absolute from the scenario file's directory, a Tmix cloud's vectors
file found (`tmix.vectors_path`), the core's keys left
out to follow the topology (`Scenario.core_values`), `Scenario.to_engine()` (the integers handed over)
and `Scenario.to_toml()` (the human form written back); every rule is the engine's
(`_core.validate_json`). Every default is paper E's E-base (Sec 3.1), with ns-2 2.35's defaults for the
TCP details the paper leaves out.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union, get_args, get_origin

import tomli_w
from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator, model_validator

from . import _core, scenario_tables, schema
from .fields import (HELD, MAX_SEED, MAX_STRANGE_KEYS, Checked, PositiveSize, ScenarioError, SizeRange, WrittenFloat,
                     WrittenInt, _Model, own_keys, read_bounded, special, too_many_strange)
from .messages import shown as _shown
from .tmix import vectors_path
from .topology import KINDS, EBase, Topology, core_defaults

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


class _FrameTrace(_Model):
    """The front's hook on a video frame trace: its file, made absolute."""

    @field_validator("file", check_fields=False)
    @classmethod
    def _resolve(cls, file: str, info: ValidationInfo) -> str:
        """A relative `file` is from the scenario file's directory (the working directory for a dict or
        a --set); the engine reads it from the working directory."""
        path = Path(file).expanduser()
        if not path.is_absolute():
            path = Path((info.context or {}).get("base", ".")) / path
        path = path.resolve()
        if not path.exists():
            raise ValueError(f"no trace file {path}")
        if not path.is_file():  # a directory or a device such as /dev/zero, which would be read without end
            raise ValueError(f"{path}: not a regular file")
        if path.stat().st_size > MAX_TRACE_BYTES:
            raise ValueError(f"{path} holds {path.stat().st_size:,} bytes; a trace file is at most "
                             f"{MAX_TRACE_BYTES // 10**6} MB")
        return str(path)


class _TmixCloud(_Model):
    """The front's hook on a Tmix cloud: its vectors file, found and made plain text (`tmix.vectors_path`)."""

    @field_validator("vectors", check_fields=False)
    @classmethod
    def _resolve(cls, file: str, info: ValidationInfo) -> str:
        """A relative `vectors` is from the scenario file's directory (the working directory for a dict or a
        --set), else among Debian's Tmix samples; a .gz one is read decompressed (from the user's cache); a
        file found nowhere is the engine's error when the scenario runs."""
        return vectors_path(file, (info.context or {}).get("base", "."))


class _UdpSource(_Model):
    """The front's hooks on a UDP source: its two keys `size` and `sizes` for the engine's one `size`."""

    @model_validator(mode="after")
    def _one_size(self) -> _UdpSource:
        """The front's two keys for the engine's one `size` (the kinds' own keys are the engine's rules)."""
        if (self.size is None) == (self.sizes is None):
            raise ScenarioError("size", "give exactly one of size (a value or [low, high]) and sizes (a list)")
        if self.sizes == []:
            raise ScenarioError("sizes", "the list of sizes is empty")
        return self

    def to_engine(self) -> dict:
        """The engine's source: `size` as `{range = [lo, hi]}` or `{list = [...]}`."""
        data = self.model_dump(mode="python", exclude={"sizes"})
        data["size"] = {"range": list(self.size)} if self.size is not None else {"list": list(self.sizes)}
        return data


_SIZE = {
    "size": (Optional[SizeRange], Field(None, description="Packet size on the wire, or a [low, high] range drawn "
                                                          "uniformly; this or `sizes`.")),
    "sizes": (Optional[Annotated[List[PositiveSize], Checked]], Field(None, description="Packet sizes drawn with equal weights; this or "
                                                                    "`size`.")),
}
"""UdpSource's two keys for the engine's one `size` (`Sizes`: `{range = [lo, hi]}` or `{list = [...]}`)."""

class _Scenario(_Model):
    """The front's hooks on a whole scenario: the seed's bound, the core's keys left out, the engine's rules,
    the engine's and the TOML forms."""

    @field_validator("seed", mode="before", check_fields=False)
    @classmethod
    def _seed(cls, seed: Any) -> Any:
        """A seed past `MAX_SEED` (the engine takes a u64) is refused as a sweep's is: one bound for both."""
        if isinstance(seed, int) and not isinstance(seed, bool) and seed > MAX_SEED:
            raise ValueError(f"{_shown(seed)} is past 2^63 - 1, the largest seed (the most a results store holds)")
        return seed

    @model_validator(mode="after")
    def _timeline(self, info: ValidationInfo) -> _Scenario:
        core = self.core_values()
        for key in ["rate", "delay", "buffer"]:
            if getattr(core, key) is None:
                raise ScenarioError(f"core.{key}", f"required: a {self.topology.kind} topology has no default")
        # Every other rule is the engine's own, unless the caller has the engine check it (`parse_scenario`).
        return self.engine_checked() if (info.context or {}).get("engine", True) else self

    def engine_checked(self) -> _Scenario:
        """This scenario, held to the engine's own rules (`Scenario::validate`; a ScenarioError naming the field
        it checks) as the engine reads it, once: what it read is kept to be described or run (`schema.checked`)."""
        text = self.engine_json()
        try:
            schema.checked(text)
        except ValueError as e:
            raise ScenarioError.from_engine(e) from None
        return self

    def rechecked(self, engine: bool = True) -> _Scenario:
        """This scenario validated anew from its values, then held to the engine's rules if `engine`: what
        `pacesim.run`, `apply_overrides` and a Sweep make of a Scenario they are handed, which a change pydantic does
        not validate (`model_copy(update=...)`, `model_construct`) may have left holding anything. Its values are
        made plain JSON values (`plain`), then validated as a file's are, but for a quantity's number in one of its
        models, which is read as held, in SI units (`fields.HELD`): the model reads its own form itself, as it reads
        a file's. A table put in as a dict (`model_copy(update={"core": {"buffer": 5000}})`) is read as a file's
        table, as `Scenario(core=...)`, an assignment and `pacesim.run(dict)` read it: 5000 there has no unit. A
        ScenarioError names the first field at fault as a file's key."""
        return _validated(plain(self, (), (type(self),), held=True), {HELD: True, "engine": engine})

    def engine_json(self) -> str:
        """`to_engine` as JSON text. A number that is NaN or infinite, which JSON cannot hold (the engine read the
        token `NaN` as "expected value", review36c D5), is named by `rechecked`: only a change pydantic does not
        validate puts one there (`model_copy(update=...)`), as every field's bounds refuse it."""
        engine = self.to_engine()
        try:
            return json.dumps(engine, allow_nan=False)
        except ValueError:
            self.rechecked(engine=False)  # names the field
            raise

    def written(self) -> dict:
        """The scenario as a file writes it (human units, keys left out where it holds None): `to_toml`'s data, what
        `overridden` changes."""
        return self.model_dump(mode="json", exclude_none=True, by_alias=True)

    def core_values(self) -> _Model:
        """`core` with every key left out taken from the topology's defaults."""
        given = self.core.model_dump(mode="json", exclude_none=True)
        try:
            return type(self.core).model_validate({**core_defaults(self.topology.kind), **given})
        except ValidationError as e:  # a core changed unchecked (`model_copy(update=...)`): named as a file's key is
            field, message, value = _problem(e.errors()[0])
            raise ScenarioError(f"core.{field}", message, value) from None

    def to_engine(self) -> dict:
        """The engine's JSON scenario: same keys, SI integers, ranges as [lo, hi] (a run's store key covers
        what it gives, `store.key_form`)."""
        data = self.model_dump(mode="python", by_alias=True)
        data["core"] = self.core_values().model_dump(mode="python")
        data["traffic"]["udp"] = [u.to_engine() for u in self.traffic.udp]
        return data

    def to_toml(self) -> str:
        """The scenario as a TOML file in human units; `load_scenario` reads it back."""
        return tomli_w.dumps(self.written())


def plain(value: Any, where: Tuple[Union[str, int], ...], models: Tuple[type, ...] = (), held: bool = False) -> Any:
    """`value`, a scenario's or one of its tables' or fields' (at path `where` from the scenario's root) as a change
    pydantic does not validate may have left it, or a sweep's axis value given in Python, as plain JSON values, the
    types a file's reader gives: exactly a bool, an int, a finite float, a str, a list or a table (a dict of str
    keys), at any depth up to `MAX_DEPTH`. A table's model is the table of its fields (by key; None left out where it
    is the field's default, else refused); numpy's real numbers and arrays, a Decimal and a Fraction are the number
    they are, a subclass of int, float or str (an IntEnum) the value it holds, a tuple or a mapping a list or a table.
    A model is taken only where the table is of its class (`models` at `where`; below it, the fields' own): one of
    another class (a model of the user's own with extra keys or computed fields, which its fields do not hold:
    review-hostile33n H1; a sweep's axis value, whose place is a key) is refused. If `held` (`Scenario.rechecked`),
    a number in a table given as a dict, not in a model, is marked as a file's (`fields.WrittenInt`, `WrittenFloat`).
    Each conversion is exact or refused: a number no float is (Fraction(1, 3), numpy's long double 1/3,
    `_exactly_float`), a NaN, an infinity (pydantic writes one as null: the key would be read as
    left out, review-hostile33k H6), a complex number, bytes and every other object (an Enum, a set, a date, a
    value holding itself) are a ScenarioError naming the field."""
    return _plain(value, where, where, models, _Walk(value, where, held))


class _Walk:
    """One `plain` walk of `value` (at `where`): the lists, tables and models it has entered (by id), and
    whether the whole value has been weighed (`_weight`), as it is once one of them is reached again (one value held
    in several places: a list held at every level of another was walked and copied at its 2^levels paths,
    review-hostile33n M3: 21 lists, 2^20 paths, 29.6 s); what the walk has made so far, each value as it is made:
    the characters a file would need to write it (`spent`, past `MAX_WRITTEN` refused, whatever the value claims to
    hold: a container of the user's may make a fresh value at each look, review-hostile33o L3, 33p H5) and its lists
    and tables (`tables`, past `MAX_TABLES`: each costs a walk far more than its two brackets, 33q H2), with the
    field whose one value took the most (`largest`: the one a refusal names when it took half the budget, 33q L1);
    whether numbers are marked a file's (`held`), and whether the walk is in a table given as a dict (`written`)."""

    def __init__(self, value: Any, where: Tuple[Union[str, int], ...], held: bool) -> None:
        self.value, self.where, self.held = value, where, held
        self.written = False
        self.entered: Set[int] = set()  # ids only: a fresh container freed may give its id to another, which
        # weighs the whole value once (bounded as the walk is), and holding each would keep every fresh one alive
        self.weighed = False
        self.spent = self.tables = 0
        self.largest: Tuple[int, Tuple[Union[str, int], ...]] = (0, where)

    def enter(self, value: Any, field: Tuple[Union[str, int], ...]) -> None:
        """`value`, a list, table or model at `field`, is walked: counted, and the whole value weighed at once if
        it has been walked before."""
        self.tables += 1
        if self.tables > MAX_TABLES:
            raise ScenarioError(_path(field), _TOO_MANY_TABLES)
        if id(value) not in self.entered:
            self.entered.add(id(value))
        elif not self.weighed:
            self.weighed = True
            _weight(self.value, self.where, {}, (MAX_WRITTEN, MAX_TABLES))

    def spend(self, cost: int, field: Tuple[Union[str, int], ...]) -> None:
        """`cost` more characters written, at `field`: a ScenarioError past `MAX_WRITTEN` (`too_much`)."""
        self.spent += cost
        if cost > self.largest[0]:
            self.largest = (cost, field)
        if self.spent > MAX_WRITTEN:
            raise self.too_much(field)

    def room(self) -> int:
        """The characters left to write."""
        return MAX_WRITTEN - self.spent

    def too_much(self, field: Tuple[Union[str, int], ...], cost: int = 0) -> ScenarioError:
        """The refusal of a value past the budget at `field` (the next to take `cost`): it names the field of the one
        value that took half the budget, if one did, else `field`."""
        if max(cost, self.largest[0]) > MAX_WRITTEN // 2 and self.largest[0] > cost:
            field = self.largest[1]
        return ScenarioError(_path(field), _TOO_MUCH)


def _written(value: Any) -> int:
    """The characters a file needs at least to write `value` itself, not what it holds: a text its characters (as
    `str` counts them: a subclass's `__len__` may lie or raise, review-hostile33q H1) and two quotes, a list or a
    table its two brackets, anything else a character and a separator. A model's keys are not counted: its class
    names them, and a file may leave out the defaults a model holds (280,000 UDP sources of a 10.6 MB file were
    refused when they were, review-hostile33r L3)."""
    return str.__len__(value) + 2 if isinstance(value, str) else 2


def _array_lists(array: Any) -> int:
    """The lists numpy's `tolist` makes of `array`: one, then one an element at each level but the last (one of
    shape (10^8, 0) holds no element but makes 10^8 lists, review-hostile33p H2)."""
    return sum(math.prod(array.shape[:k]) for k in range(array.ndim))


def _array_written(array: Any) -> int:
    """`_written` of all numpy's `tolist` makes of `array`: its lists, its elements (a text at most its dtype's
    length, review-hostile33p H3)."""
    each = 2 + (array.dtype.itemsize // 4 if array.dtype.kind == "U" else 0)
    return 2 * _array_lists(array) + int(array.size) * each


def _length(value: Any, field: Tuple[Union[str, int], ...]) -> int:
    """How many items a list, tuple or mapping says it holds; a ScenarioError naming the field if it cannot say
    (a `__len__` of the user's raising, or past any index: review-hostile33p M2)."""
    try:
        return len(value)
    except OverflowError:
        return MAX_WRITTEN + 1
    except Exception as e:
        raise ScenarioError(_path(field), f"its length cannot be read ({_told(e)})") from None


def _said(value: Any) -> str:
    """`value` as a refusal shows it, or its type's name if showing it fails (a `__repr__` of the user's raising, a
    list nested past Python's recursion: review-hostile33r M1)."""
    try:
        return _shown(value)
    except Exception:
        return f"an object of type {type(value).__name__}"


def _told(e: BaseException) -> str:
    """What exception `e` says, as `_said` shows a value."""
    try:
        return f"{type(e).__name__}: {_shown(str(e))}"
    except Exception:
        return type(e).__name__


def _unreadable(field: Tuple[Union[str, int], ...], e: Exception) -> ScenarioError:
    """The refusal of a container of the user's whose items cannot be read (`e`, what it raised)."""
    return ScenarioError(_path(field), f"its items cannot be read ({_told(e)})")


def _each(items: Any, field: Tuple[Union[str, int], ...]) -> Iterator[Any]:
    """The items of `items`, iterated lazily; an exception the user's iterator raises is a ScenarioError naming the
    field (review-hostile33p M2), never theirs."""
    try:
        it = iter(items)
    except Exception as e:
        raise _unreadable(field, e) from None
    while True:
        try:
            item = next(it)
        except StopIteration:
            return
        except Exception as e:
            raise _unreadable(field, e) from None
        yield item


def _pairs(mapping: Any, field: Tuple[Union[str, int], ...]) -> Iterator[Tuple[Any, Any]]:
    """A mapping's (key, value) pairs as `_each` reads items: its `items()` called, and each item checked a pair, in
    the same ScenarioError (review-hostile33q M1: an `items()` raising, or giving what is no pair)."""
    try:
        items = dict.items(mapping) if type(mapping) is dict else mapping.items()
    except Exception as e:
        raise _unreadable(field, e) from None
    for pair in _each(items, field):
        if type(pair) is not tuple or len(pair) != 2:
            raise ScenarioError(_path(field), f"its items are not (key, value) pairs: {_said(pair)}")
        yield pair


def _fields(model: BaseModel, field: Tuple[Union[str, int], ...]) -> Iterator[Tuple[str, Any]]:
    """A model's values by name, as its instance dict holds them (whatever a subclass of dict there says, review-
    hostile33q M1), then any key kept apart from them (an `extra="allow"` model's, review-hostile33p H1)."""
    values = vars(model)
    try:
        extra = object.__getattribute__(model, "__pydantic_extra__")
    except AttributeError:
        extra = None
    for held, what in ((values, "values"), (extra, "extra keys (__pydantic_extra__)")):
        if held is None:
            continue
        if not isinstance(held, dict):
            raise ScenarioError(_path(field), f"its {what} are {_said(held)}, not a table")
        yield from _each(dict.items(held), field)  # a dict's own pairs, nothing of theirs called


def _weight(value: Any, field: Tuple[Union[str, int], ...], seen: Dict[int, Tuple[Any, Tuple[int, int]]],
            room: Tuple[int, int], depth: int = 0) -> Tuple[int, int]:
    """The characters a file needs at least to write `value` (`_written` of it and of all it holds, at every path it
    is reached by, a table's keys with theirs) and its lists and tables, at `depth` below `field`'s, each list's,
    table's and model's made once (`seen`: by id, holding it), so that a value holding one list in many places is
    weighed at once, not walked; its items read one at a time (a list of the user's may never end,
    review-hostile33p H4); a ScenarioError naming the field past `room` (`MAX_WRITTEN`, `MAX_TABLES`; or nested past
    `MAX_DEPTH`, as `_plain` says)."""
    if depth > MAX_DEPTH:
        raise ScenarioError(_path(field), f"nested more than {MAX_DEPTH} levels deep (a list or table holding itself?)")
    array = type(value).__module__ == "numpy" and bool(getattr(value, "ndim", 0))
    if not array and (not isinstance(value, (BaseModel, list, tuple, Mapping)) or isinstance(value, (str, int, float))):
        return _written(value), 0
    known = seen.get(id(value))
    if known is not None:
        return known[1]
    if array:
        written, tables = _array_written(value), _array_lists(value)
    else:
        written, tables = 2, 1
        if isinstance(value, BaseModel):  # its keys are its class's, not the user's: free, as a None left out is
            items = ((field + (key,), None, item) for key, item in _fields(value, field) if item is not None)
        elif isinstance(value, Mapping):
            items = ((field, key, item) for key, item in _pairs(value, field))
        else:
            items = ((field, None, item) for item in _each(value, field))
        for place, key, item in items:
            more, inner = _weight(item, place, seen, (room[0] - written, room[1] - tables), depth + 1)
            written += more + (_written(key) - 1 if isinstance(key, str) else 0)
            tables += inner
            if written > room[0] or tables > room[1]:
                break
    if written > room[0] or tables > room[1]:
        raise ScenarioError(_path(field), _TOO_MUCH if written > room[0] else _TOO_MANY_TABLES)
    seen[id(value)] = (value, (written, tables))
    return written, tables


def _plain(value: Any, field: Tuple[Union[str, int], ...], where: Tuple[Union[str, int], ...],
           models: Tuple[type, ...], walk: _Walk, depth: int = 0) -> Any:
    """`plain` of `value`, at `depth` below `field`'s value and at path `where`, a table there one of `models`, in
    `walk`, each value it makes spent (`_Walk.spend`) as it is made, or weighed before it is (an array, a text)."""
    if depth > MAX_DEPTH:  # named at the field, not at the 33rd index in it (review-hostile33m L2)
        raise ScenarioError(_path(field), f"nested more than {MAX_DEPTH} levels deep (a list or table holding itself?)")
    kind = type(value)
    if kind is int and value.bit_length() > MAX_BITS:  # its digits past what Python writes (review-hostile33n L1)
        raise ScenarioError(_path(where), f"a whole number of {value.bit_length():,} bits is past any number a "
                                          "scenario holds")
    if kind in (bool, str, int, float) or value is None:
        walk.spend(_written(value), field)
        if kind is int:
            return WrittenInt(value) if walk.written else value
        if kind is float:
            if not math.isfinite(value):
                what = "not a number (NaN)" if value != value else "infinite, not a finite number"
                raise ScenarioError(_path(where), f"{value} is {what}", value)
            return WrittenFloat(value) if walk.written else value
        return value
    if isinstance(value, BaseModel):
        own = _ours(kind, models)
        if own is None:
            named = " or a " + " or a ".join(m.__name__ for m in models) if models else ""
            raise ScenarioError(_path(where), f"a model of type {kind.__name__} is not this table's: give a table (a "
                                              f"dict){named}")
        walk.enter(value, field)
        walk.spend(2, field)
        written, walk.written = walk.written, False
        table = _plain_table(value, own, where, walk, depth)
        walk.written = written
        return table
    if kind.__module__ == "numpy" and hasattr(value, "dtype"):  # a scalar or an array (numpy not imported)
        if value.dtype.kind not in "biufU":
            raise ScenarioError(_path(where), f"{_shown(value)} is numpy's {value.dtype}, not a real number or text")
        if value.ndim:  # an array, weighed before `tolist` makes what it holds (review-hostile33o H1, 33p H2, H3)
            if _array_written(value) > walk.room():
                raise walk.too_much(field, _array_written(value))
            if _array_lists(value) > MAX_TABLES - walk.tables:
                raise ScenarioError(_path(field), _TOO_MANY_TABLES)
            walk.enter(value, field)
        held = value.tolist()  # Python's numbers; a long double stays one
        if type(held).__module__ == "numpy":
            held = _exactly_float(held, where)
        return _plain(held, field, where, models, walk, depth)
    if isinstance(value, (Decimal, Fraction)):
        value = Decimal(value) if isinstance(value, Decimal) else Fraction(value)  # a subclass's value, as it is
        if isinstance(value, Decimal) and not value.is_finite():  # a signalling NaN too (review-hostile33m R1)
            return _plain(math.nan if value.is_nan() else float(value), field, where, models, walk, depth)
        if isinstance(value, Decimal) and value and value.adjusted() > 308:  # its int would take as many digits
            raise ScenarioError(_path(where), f"{_shown(value)} is past any number a scenario holds", value)
        whole = value == int(value)  # read exactly, not through a float (review-hostile33l H9)
        return _plain(int(value) if whole else _exactly_float(value, where), field, where, models, walk, depth)
    if isinstance(value, str) and _written(value) > walk.room():  # weighed before it is copied (review-hostile33p H3)
        raise walk.too_much(field, _written(value))
    for base in (int, float, str):  # the value the subclass holds, read by the base's own method, not one it overrides
        if isinstance(value, base):
            return _plain(getattr(base, f"__{base.__name__}__")(value), field, where, models, walk, depth)
    if isinstance(value, (bytes, bytearray)):
        raise ScenarioError(_path(where), f"{_shown(bytes(value[:64]))} is bytes, not text: write it as a string")
    if isinstance(value, memoryview):  # its bytes never made (a view of a broadcast array, review-hostile33q)
        raise ScenarioError(_path(where), f"a memoryview of {value.nbytes:,} bytes is bytes, not text: write it as a "
                                          "string")
    if isinstance(value, (Mapping, list, tuple)):
        if 2 * _length(value, field) > walk.room():  # what it claims to hold, before it is read
            raise walk.too_much(field)
        walk.enter(value, field)
        walk.spend(2, field)
    if isinstance(value, Mapping):
        table, written, walk.written = {}, walk.written, walk.held
        known, strange = own_keys(models), []
        for key, item in _pairs(value, field):
            if not isinstance(key, str):
                raise ScenarioError(_path(where), f"a table's keys are text; {_said(key)} is of type {type(key).__name__}")
            if _written(key) > walk.room():
                raise walk.too_much(field, _written(key))
            key = str.__str__(key)
            walk.spend(_written(key) - 1, field)
            if models and key not in known:
                strange = _strange(strange, key, where)
            table[key] = _plain(item, field, where + (key,), _inner(models, key), walk, depth + 1)
        walk.written = written
        return table
    if isinstance(value, (list, tuple)):
        return [_plain(item, field, where + (i,), models, walk, depth + 1)
                for i, item in enumerate(_each(value, field))]
    raise ScenarioError(_path(where), f"an object of type {kind.__name__} is not a scenario's value (a number, text, "
                                      "true or false, a list or a table)")


def _plain_table(model: BaseModel, own: type, where: Tuple[Union[str, int], ...], walk: _Walk, depth: int) -> dict:
    """`plain` of a table's model, of class `own` or one `_ours` takes for it: its values by key (`own`'s fields'
    aliases), None left out where it is the field's default (the key left out), else refused; a key set on it that
    is none of `own`'s fields (`model_copy(update={"bufer": ...})`, a subclass's field or extra key) kept, for the
    validation to name, and counted as a file's key (review-hostile33s H1: a 20 MB key held 100 times was free);
    two that are one key (a field and a key set or kept as its key: `from_` and `from`) refused, whichever the
    model says (review-hostile33q M2, 33s M1: the later was taken without a word)."""
    table: dict = {}
    given: Dict[str, str] = {}  # by key: the name it was given as
    strange: List[str] = []  # keys none of `own`'s fields
    fields = own.model_fields
    inner = _field_models(own)
    for name, value in _fields(model, where):
        if not isinstance(name, str):
            raise ScenarioError(_path(where), f"a table's keys are text; {_said(name)} is of type {type(name).__name__}")
        if _written(name) > walk.room():
            raise walk.too_much(where, _written(name))
        name = str.__str__(name)  # its text, whatever a subclass's __hash__ says (review-hostile33s M2)
        info = fields.get(name)
        key = info.alias or name if info is not None else name
        if key in given:
            field = next((n for n in (given[key], name) if n in fields), name)
            raise ScenarioError(_path(where + (key,)), f"given twice, as {given[key]!r} and as {name!r} (a change "
                                                      f"through model_copy(update=...) names the field: {field!r})")
        given[key] = name
        if info is None:
            walk.spend(_written(name) - 1, where)
            strange = _strange(strange, key, where)
        if value is None and info is not None:
            if info.is_required() or info.get_default(call_default_factory=True) is not None:
                raise ScenarioError(_path(where + (key,)), "None is not a value of this key (leave it out for its "
                                    "default)", None)
            continue
        table[key] = _plain(value, where + (key,), where + (key,), inner.get(name, ()), walk, depth + 1)
    return table


def _ours(kind: type, models: Tuple[type, ...]) -> Optional[type]:
    """The one of `models` a model of class `kind` is taken as, if any: that model; the same from a second import of
    its module (`importlib.reload`); or a subclass of one (review-hostile33o L2: both were refused), either adding
    no computed field, whose values a model does not hold (review-hostile33p L4: nor one naming itself as the
    module's). Its values are read by that model's fields (a field or extra key it adds is kept, for the validation
    to name)."""
    for m in models:
        if kind is m or ((issubclass(kind, m) or (kind.__module__, kind.__qualname__) == (m.__module__, m.__qualname__))
                         and set(kind.model_computed_fields) <= set(m.model_computed_fields)):
            return m
    return None


def _strange(strange: List[str], key: str, where: Tuple[Union[str, int], ...]) -> List[str]:
    """`strange`, the keys of the table at `where` that are none of its fields' (each kept for the validation to
    name), with `key` too; a ScenarioError once there are more than `MAX_STRANGE_KEYS` (as `_Model` refuses a dict)."""
    if len(strange) == MAX_STRANGE_KEYS:
        e = too_many_strange(strange)
        raise ScenarioError(_path(where + (e.field,)), e.message)
    strange.append(key)
    return strange


@functools.lru_cache(maxsize=None)
def _field_models(model: type[BaseModel]) -> Dict[str, Tuple[type, ...]]:
    """The table models each field of `model` takes (`_models`), by its name and by its key (an alias)."""
    out = {}
    for name, info in model.model_fields.items():
        out[name] = out[info.alias or name] = _models(info.annotation)
    return out


def _models(annotation: Any) -> Tuple[type, ...]:
    """The table models a field's type `annotation` holds, in lists, unions and optionals (topology: every kind's)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return (annotation,)
    return tuple(m for arg in get_args(annotation) for m in _models(arg))


def _inner(models: Tuple[type, ...], key: str) -> Tuple[type, ...]:
    """The table models key `key` of a table of one of `models` (given as a dict) takes."""
    return tuple(m for model in models for m in _field_models(model).get(key, ()))


def _exactly_float(value: Any, where: Tuple[Union[str, int], ...]) -> float:
    """`value` (a Decimal, a Fraction, numpy's long double) as the float that is it, exactly or as a file writing
    that float's digits gives it (Decimal("0.1") is 0.1, as a file's 0.1); a ScenarioError naming the field if no
    float is (Decimal("0.1000000000000000000001"), Fraction(1, 3))."""
    try:
        near = float(value)
    except OverflowError:
        near = math.inf
    if not math.isfinite(near) or type(value)(near) != value and type(value)(repr(near)) != value:
        raise ScenarioError(_path(where), f"{_shown(value)} is no float exactly (the nearest is {near!r})", value)
    return near


MAX_BITS = 1024
"""The most bits a whole number `plain` reads may take: past 2^1024 it is past any float and any quantity (a
Decimal past 1e308 is refused alike)."""

MAX_DEPTH = 32
"""The deepest a value of a scenario's may nest (its deepest, a graph link's rate range, is 4)."""


FRONTS = {
    "": scenario_tables.Front("Scenario", _Scenario, replace={"topology": {"topology": (Topology, Field(
        default_factory=EBase, description=scenario_tables.prose(schema.key("topology").get("description"))))}}),
    "Core": scenario_tables.Front("Core", optional=("rate", "delay", "buffer")),
    "UdpSpec": scenario_tables.Front("UdpSource", _UdpSource, replace={"size": _SIZE}),
    "FrameTraceSpec": scenario_tables.Front("FrameTrace", _FrameTrace),
    "TmixSpec": scenario_tables.Front("TmixCloud", _TmixCloud),
    "ShortSpec": scenario_tables.Front("ShortFlows"),
}
"""What the front adds to the engine's tables (the others are generated as they are, named for their spec
without `Spec`/`Params`): the whole scenario's hooks and its topology (the union of `topology.KINDS`), the
core's keys left out to follow the topology (`Scenario.core_values`), UdpSource's two size keys, FrameTrace's
file resolution and a Tmix cloud's vectors; two tables keep the front's older names."""

TABLES = scenario_tables.Tables(__name__, globals(), FRONTS)
Scenario = TABLES.model("", schema.SCHEMA)
Red, Core, Tcp, Traffic, UdpSource, FrameTrace, ShortFlows, Pacing, Burstiness, Progress, Delay, Series, PacketTrace = (
    TABLES.made[ref] for ref in ["RedParams", "Core", "Tcp", "Traffic", "UdpSpec", "FrameTraceSpec", "ShortSpec",
                                 "Pacing", "BurstinessSpec", "ProgressSpec", "DelaySpec", "SeriesSpec", "PacketTraceSpec"])
"""Every table's model, generated from the engine's schema (`scenario_tables.Tables`), under the names the front
has always had."""


def _keys(model: type[BaseModel]) -> List[str]:
    """The keys a table takes (aliases where a field has one: a link's `from`)."""
    return [f.alias or name for name, f in model.model_fields.items()]


def _field(model: type[BaseModel], key: str) -> Any:
    return next(f for name, f in model.model_fields.items() if (f.alias or name) == key)


def _table(model: type[BaseModel], key: str, kind: Optional[str]) -> Optional[type[BaseModel]]:
    """The model of table `key` in `model` (for `topology`, the class of topology
    `kind`; inside lists and optionals, the item's), or None if `key` is a value."""
    if model is Scenario and key == "topology":
        kind = kind or "e-base"
        return KINDS.get(kind) if isinstance(kind, str) else None
    annotation = _field(model, key).annotation
    while get_origin(annotation) in (list, Union, Annotated):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def _unknown_key(key: str, parent: List[Union[str, int]], kind: Optional[str] = None) -> str:
    """The message for `key` not being a field of the table at path `parent`."""
    model: type[BaseModel] = Scenario
    for part in parent:
        if isinstance(part, str):
            model = _table(model, re.sub(r"\[\d+\]$", "", part), kind)
    where = f"at {_path(parent)}" if parent else "at the top level"
    if not _keys(model):  # a table whose presence alone asks for something ([transit])
        table = _path(parent)
        return f"unknown key {key!r}; {table} takes no keys: the table alone asks for it ([{table}], or --set {table}={{}})"
    return f"unknown key {key!r}; valid keys {where}: {', '.join(_keys(model))}"


def _path(loc: Iterable[Union[str, int]]) -> str:
    """A dotted path with list indices in brackets, as the engine writes them: topology.links[2].rate;
    a key that is not a bare TOML key is quoted as TOML would: core."buf fer"."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        part = part if re.fullmatch(r"[A-Za-z0-9_-]+(\[\d+\])?", part) else json.dumps(part)
        out += f".{part}" if out else part
    return out


_ABSENT = object()


def _given(data: Any, path: str) -> Any:
    """What `data` (a scenario or one of its tables, as written) holds at dotted `path` with list indices in
    brackets, as the engine writes a field (`traffic.udp[0].rate`); `_ABSENT` if it holds nothing there."""
    for part in path.split("."):
        name, *indices = part.split("[")
        if not isinstance(data, dict) or name not in data:
            return _ABSENT
        data = data[name]
        for index in indices:
            i = int(index[:-1]) if index.endswith("]") and index[:-1].isdigit() else None
            if i is None or not isinstance(data, list) or i >= len(data):
                return _ABSENT
            data = data[i]
    return data


def _problem(error: dict) -> Tuple[str, str, Any]:
    """(dotted field path, message, value as given) for one pydantic error: the value is the input's at the
    field (a key the scenario gives), else the one the refusal names (the engine's own), else None."""
    loc = list(error["loc"])
    kind = None
    if loc[:1] == ["topology"] and len(loc) > 1 and loc[1] in KINDS:
        kind = loc.pop(1)  # the discriminated union's tag
    path = _path(loc)
    given = None if error["type"] == "missing" else error["input"]  # a missing key's input is its table
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, ScenarioError):
        inner = _given(given, cause.field) if cause.field else given
        return ".".join(filter(None, [path, cause.field])), cause.message, cause.value if inner is _ABSENT else inner
    if cause is not None:
        return path, str(cause), given
    if error["type"] == "extra_forbidden":
        return path, _unknown_key(str(loc[-1]), loc[:-1], kind), given
    if error["type"] == "union_tag_invalid":  # the tag as given (the error holds its str: "['e-base']" for a list)
        tag = error["input"].get("kind") if isinstance(error["input"], dict) else error["ctx"]["tag"]
        return path + ".kind", f"{_shown(tag)} is not valid; expected {error['ctx']['expected_tags']}", tag
    if error["type"] == "union_tag_not_found":
        return path, f"expected a table, e.g. {{ kind = \"e-base\" }} (got {_shown(error['input'])})", given
    if error["type"] == "literal_error":
        return path, f"{_shown(error['input'])} is not valid; expected {error['ctx']['expected']}", given
    return path, f"{error['msg']} (got {_shown(error['input'])})", given


def parse_scenario(data: dict, base: Optional[Path] = None, engine: bool = True,
                   max_memory: Optional[int] = None) -> Scenario:
    """Validate a scenario in human units (as read from TOML); errors become
    ScenarioError, its `value` as `data` gives it. Relative file names in it (trace files) are from `base`,
    by default the working directory. `engine` False leaves out the engine's rules (those across keys,
    `_core.validate_json`), for a caller that has the engine check the scenario itself, once (a sweep). A graph
    whose links alone would not fit in `max_memory` bytes (default: the memory available) is refused first
    (`memory.check_data`: checking them takes most of what they cost)."""
    from . import memory

    memory.check_data(data, max_memory)
    return _validated(data, {"base": base or Path("."), "engine": engine})


def _validated(data: dict, context: dict) -> Scenario:
    """`data` validated as a scenario under `context` (`parse_scenario`'s, `Scenario.rechecked`'s); a ScenarioError
    naming the first field at fault and counting the others."""
    try:
        return Scenario.model_validate(data, context=context)
    except ValidationError as e:
        shown = 4  # a table of a million unknown keys gave a message of 229 MB (review33f); a list says its own count
        problems = [_problem(err) for err in e.errors()[:shown]]
        (field, message, value), rest = problems[0], problems[1:]
        more = [f"and {e.error_count() - shown:,} more"] if e.error_count() > shown else []
        raise ScenarioError(field, "; ".join([message] + [f"{f}: {m}" for f, m, _ in rest] + more), value) from None


PACKAGED = Path(__file__).resolve().parent / "scenarios"
"""The scenarios, sweep files and traces shipped in the package (`scenarios/` of the repository)."""


def scenario_file(name: Union[str, Path]) -> Path:
    """A scenario file: `name` as a path if it exists, else a packaged scenario
    of that name (`e-base` or `e-base.toml`), else a ScenarioError naming both."""
    path = Path(name)
    try:
        if path.is_file():
            return path
    except OSError as e:  # a name too long for the file system
        raise ScenarioError(str(name), f"cannot be a file: {e.strerror}") from None
    kind = special(path)
    if kind:  # run and topology show said "no such file" of a FIFO, a directory or a device
        raise ScenarioError(str(name), f"is {kind}, not a regular file")
    found = packaged(name)
    if found is not None:
        return found
    raise ScenarioError(str(name), f"no such file, and no packaged scenario of that name ({packaged_names()})")


def packaged(name: Union[str, Path]) -> Optional[Path]:
    """The packaged scenario named `name` (`e-base` or `e-base.toml`), None if there is none."""
    path = Path(name)
    found = PACKAGED / (path.name if path.suffix == ".toml" else f"{path.name}.toml")
    return found if path.parent == Path(".") and path.name and found.is_file() else None


def packaged_names() -> str:
    """The packaged scenarios' names, comma-separated."""
    return ", ".join(sorted(f.stem for f in PACKAGED.glob("[a-z]*.toml")))


def load_scenario(path: Union[str, Path], max_memory: Optional[int] = None) -> Scenario:
    """Read and validate a scenario TOML file, or a packaged scenario by name
    (`scenario_file`); keys left out take E-base's values, and relative file
    names in it are from its directory; `max_memory` as `parse_scenario` takes it."""
    path = scenario_file(path)
    return parse_scenario(read_toml(path), path.parent, max_memory=max_memory)


MAX_TOML_BYTES = 16 * 10**6
"""The largest scenario or sweep file read (the largest shipped is 5 KB; a written-out graph of 10,000
links is about 1.5 MB): a bigger one, or a device such as /dev/zero, is refused, not read until memory
runs out."""

MAX_WRITTEN = MAX_TOML_BYTES
"""The most characters a file would need to write a value `plain` reads (`_written`: a text its characters and quotes,
a key with its `=`, any other value at least a character and a separator): what the largest scenario file holds."""
_TOO_MUCH = (f"would take more than {MAX_WRITTEN // 10**6} MB to write, more than any scenario file holds (one "
             "list held in many places, or a container making values as it is read?)")
MAX_TABLES = 2_000_000
"""The most lists and tables `plain` reads in one value: each takes a walk far more than the two characters a file
writes it in (an empty list held a million times took 1 GB and 20 s, review-hostile33q H2); a graph of 100,000 links
holds some 1,100,000, eleven a link with the tables its model fills in (review-hostile33s M3: refused at 1,000,000)."""
_TOO_MANY_TABLES = (f"holds more than {MAX_TABLES:,} lists and tables (one list held in many places, or a "
                    "container making values as it is read?)")

MAX_TRACE_BYTES: int = _core.MAX_TRACE_FILE
"""The largest UDP trace file a scenario may name: the engine's bound (`traffic::frame_trace::MAX_FILE`, 256 MB), as it
reads a trace whole (video traces are a few MB)."""


def _float(text: str) -> float:
    """A TOML float as a number, -0.0 read as 0.0: a user's -0.0 means zero, as -0 does for an integer (kept,
    it was a point of its own beside 0.0: another key, printed `-0.0`, a sweep axis holding zero twice)."""
    return float(text) or 0.0


def read_toml(path: Path) -> dict:
    """A TOML file's contents; a ScenarioError naming the file when it is
    larger than `MAX_TOML_BYTES`, not UTF-8, not TOML, nested past what the
    reader can follow, or holds a number longer than Python reads (4300 digits)."""
    try:
        text = read_bounded(path, MAX_TOML_BYTES, "a scenario or sweep file").decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError(str(path), f"not UTF-8 text: byte 0x{e.object[e.start]:02x} at offset {e.start}") from None
    try:
        return tomllib.loads(text, parse_float=_float)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(str(path), f"not valid TOML: {e}") from None
    except RecursionError:
        raise ScenarioError(str(path), "arrays or tables nested too deeply to read") from None
    except ValueError as e:  # int() past sys.get_int_max_str_digits()
        raise ScenarioError(str(path), f"a number too long to read: {e}") from None


def toml_value(text: str) -> Any:
    """A TOML scalar (or array) if `text` is one, else a JSON array or table (a sweep's axis value of tables,
    `[{"kind": "cbr"}]`, which TOML writes only as `{kind = "cbr"}`), else the text itself: 3 -> 3, 5KB ->
    "5KB"."""
    try:
        return tomllib.loads(f"value = {text}", parse_float=_float)["value"]
    except (ValueError, RecursionError):  # not TOML (or nested, or a number, past what it reads)
        pass
    if text.lstrip().startswith(("[", "{")):
        try:
            return json.loads(text, parse_float=_float)
        except (ValueError, RecursionError):
            pass
    return text.strip()


def _indexed(key: str, part: str) -> Tuple[str, Optional[int]]:
    """`udp[0]` -> ("udp", 0); `udp` -> ("udp", None). An index is ASCII digits ("[00]" is [0]); Python's `\\d`
    took other scripts' digits too, an Arabic-Indic zero for [0] (review-hostile33m D4)."""
    m = re.fullmatch(r"(\w+)\[([0-9]+)\]", part)
    if m:
        return m[1], int(m[2])
    if "[" in part or "]" in part:
        raise ScenarioError(key, f"{part!r}: a list element is written name[index], e.g. traffic.udp[0].rate")
    return part, None


def override_list(overrides: Any) -> List[str]:
    """`overrides` as a list, if it is a list (or another iterable, not a string) of strings; else a ScenarioError
    naming `set` or the first element that is no string (review-hostile33k H5: None, a number or `set=None` ended
    in an AttributeError or a TypeError)."""
    if isinstance(overrides, (str, bytes)) or not isinstance(overrides, Iterable):
        raise ScenarioError("set", f"{_shown(overrides)}: overrides are a list of \"key=value\" strings, e.g. "
                                   '["core.buffer=5KB"]', overrides)
    overrides = list(overrides)
    for i, item in enumerate(overrides):
        if not isinstance(item, str):
            raise ScenarioError(f"set[{i}]", f"{_shown(item)} is not an override; an override is a \"key=value\" "
                                             "string, e.g. core.buffer=5KB", item)
    return overrides


def apply_overrides(scenario: Scenario, overrides: Iterable[str], base: Optional[Path] = None,
                    engine: bool = True, max_memory: Optional[int] = None) -> Scenario:
    """A copy of `scenario` with `key=value` overrides applied, `key` a dotted path
    (`core.buffer=5KB`, `seed=3`, `topology.kind=a-base`, `traffic.udp[0].size=40B`
    for a key of a list's element); the result is validated as
    a whole. Relative file names the overrides give are from `base`; `engine` and `max_memory` (the lists the
    overrides give weighed before they are checked) are as `parse_scenario`'s. `scenario` is held to a file's rules
    first (`Scenario.rechecked`, its fields alone: the engine's rules are the result's), as a change pydantic does
    not validate may have left it holding anything."""
    return overridden(scenario.rechecked(engine=False).written(), overrides, base, engine, max_memory)


def overridden(data: dict, overrides: Iterable[str], base: Optional[Path] = None, engine: bool = True,
               max_memory: Optional[int] = None) -> Scenario:
    """`apply_overrides` of a scenario as a file writes it (`data`, as `Scenario.written` gives it, changed here):
    the overrides set in it, then the whole validated as a file is (`parse_scenario`)."""
    for item in override_list(overrides):
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ScenarioError(item if item.strip() else "--set", "an override is key=value, e.g. core.buffer=5KB")
        parts = key.split(".")
        if parts == ["topology", "kind"]:  # a new kind starts from its own defaults
            kind = toml_value(text)
            if not isinstance(kind, str) or kind not in KINDS:
                raise ScenarioError(key, f"{_shown(kind)} is not valid; expected one of {', '.join(KINDS)}", kind)
            data["topology"] = {"kind": kind}
            continue
        table, model = data, Scenario
        topology = data.get("topology")
        kind = topology.get("kind") if isinstance(topology, dict) else None
        for depth, part in enumerate(parts):
            part, index = _indexed(key, part)
            if model is None:
                raise ScenarioError(key, f"{'.'.join(parts[:depth])} is a value, not a table")
            if part not in _keys(model):
                raise ScenarioError(key, _unknown_key(part, parts[:depth], kind), toml_value(text))
            if depth == len(parts) - 1:
                if index is not None:
                    raise ScenarioError(key, "an override sets a key, not a list element: name a key inside it")
                table[part] = toml_value(text)
            else:
                model = _table(model, part, kind)
                table = table.setdefault(part, {})
                where = ".".join(parts[:depth] + [part])
                if index is not None:
                    if not isinstance(table, list):
                        raise ScenarioError(key, f"{where} is {'a table' if isinstance(table, dict) else 'a value'}, not a list")
                    if index >= len(table):
                        raise ScenarioError(key, f"{where} has {len(table)} element(s), no [{index}]")
                    table = table[index]
                    where += f"[{index}]"
                if model is not None and not isinstance(table, dict):  # an earlier override made it a value
                    raise ScenarioError(key, f"{where} is {_shown(table)}, not a table")
    return parse_scenario(data, base, engine, max_memory)


def check_key(scenario: Scenario, key: str) -> None:
    """Raise ScenarioError unless `key` (dotted) is a key of `scenario`'s tables."""
    model: Optional[type[BaseModel]] = Scenario
    parts = key.split(".")
    for depth, part in enumerate(parts):
        part, _ = _indexed(key, part)
        if model is None or part not in _keys(model):
            raise ScenarioError(key, _unknown_key(part, parts[:depth], scenario.topology.kind) if model else "not a table")
        model = _table(model, part, scenario.topology.kind) if depth < len(parts) - 1 else model


def key_path(key: str) -> Tuple[Union[str, int], ...]:
    """Override key `key` (dotted, list elements indexed) as its keys and indices, one spelling for one place:
    `traffic.udp[00].rate` -> ("traffic", "udp", 0, "rate"); a ScenarioError if a part is no key or key[index]."""
    return tuple(p for part in key.split(".") for name, index in [_indexed(key, part)]
                 for p in ([name] if index is None else [name, index]))
