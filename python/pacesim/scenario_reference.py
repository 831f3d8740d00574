"""The scenario reference, generated from the scenario models: every table and key, its type and unit, its
default and what it means (each model's docstring and each field's description, with the paper section:
the doc comments of the engine's specs, from which the models are generated).

`render()` walks `scenario.Scenario` depth first (each topology kind as its own table) and returns markdown;
`python -m pacesim.scenario_reference PATH` writes it (docs/reference/scenario.md in the repository, which a
test keeps equal to `render()`).
"""

from __future__ import annotations

import inspect
import sys
import typing
from pathlib import Path
from typing import Any, Iterator, List, Literal, Optional, Tuple, Union

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel, StrictBool
from pydantic_core import PydanticUndefined

from . import fields
from .scenario_tables import Probability
from .scenario import Scenario
from .topology import KINDS
from .units import RATE_UNITS, SIZE_UNITS, TIME_UNITS

QUANTITIES = [
    (fields.Rate, "rate"), (fields.Size, "size"), (fields.PositiveSize, "size > 0"), (fields.Time, "time"),
    (fields.PositiveTime, "time > 0"), (fields.RateRange, "rate, or [low, high] drawn uniformly"),
    (fields.TimeRange, "time, or [low, high] drawn uniformly"),
    (fields.SizeRange, "size, or [low, high] drawn uniformly"), (fields.Count, "integer > 0"),
    (Probability, "number in (0, 1]"), (StrictBool, "true or false"),
]
"""The shared field types (fields.py) and how the reference names them."""

BOUNDS = {Gt: ">", Ge: ">=", Lt: "<", Le: "<="}


def _strip_optional(hint: Any) -> Tuple[Any, bool]:
    """(the type inside Optional[...], whether it was optional), a list checked in runs as the list it is."""
    if typing.get_origin(hint) is Union and type(None) in typing.get_args(hint):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        return _unchecked(inner[0] if len(inner) == 1 else Union[tuple(inner)]), True
    return _unchecked(hint), False


def _unchecked(hint: Any) -> Any:
    """A list annotated with nothing but `fields.Checked` (how it is checked, not what it holds) as the list."""
    if typing.get_origin(hint) is typing.Annotated:
        base, *meta = typing.get_args(hint)
        if typing.get_origin(base) in (list, List) and all(m is fields.Checked for m in meta):
            return base
    return hint


def _table_model(hint: Any) -> Optional[type]:
    """The model a key's value is a table (or list of tables) of, if it is one."""
    hint, _ = _strip_optional(hint)
    if typing.get_origin(hint) in (list, List):
        hint = typing.get_args(hint)[0]
    return hint if inspect.isclass(hint) and issubclass(hint, BaseModel) else None


def field_docs(model: type) -> dict:
    """Each field's description, by field name: the doc comment of its key in the engine's spec (the
    models are generated from the engine's schema, `scenario_tables.Tables`), or the front's own for a key it adds."""
    return {name: f.description for name, f in model.model_fields.items() if f.description}


FRONT_BOUNDS = {(Scenario, "seed"): "integer >= 0, <= 2^63 - 1 (the engine takes any u64; a results store keeps a "
                                   "seed as a SQLite integer, and a run takes a sweep's bound)"}
"""Keys whose bound the front sets tighter than the engine's schema (`scenario.Scenario._seed`)."""


def type_text(hint: Any) -> str:
    """A key's type in words: "rate", "one of `reno`, `sack`", "number >= 0.5, < 1", "list of size > 0"."""
    hint, _ = _strip_optional(hint)
    for known, words in QUANTITIES:
        if hint == known:
            return words
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(f"`{v}`" for v in typing.get_args(hint))
    if origin in (list, List):
        item = type_text(typing.get_args(hint)[0])
        return {"table": "list of tables", "string": "list of strings"}.get(item, f"list of {item}")
    if origin is typing.Annotated:
        base, *meta = typing.get_args(hint)
        if typing.get_origin(base) is Union:
            return type_text(base)
        limits = [f"{sign} {_number(getattr(m, attr))}" for item in meta for m in getattr(item, "metadata", [item])
                  for kind, sign in BOUNDS.items() if isinstance(m, kind) for attr in [kind.__name__.lower()]]
        name = {float: "number", int: "integer"}.get(base, getattr(base, "__name__", str(base)))
        return f"{name} {', '.join(limits)}".strip()
    if _table_model(hint) is not None:
        return "table"
    if typing.get_origin(hint) is Union:  # the topology: one table of several kinds
        return "table (one of the kinds below)"
    return {str: "string", bool: "true or false", int: "integer", float: "number"}.get(hint, str(hint))


def _number(bound: Any) -> str:
    """A bound as written: 2^64 rather than its twenty digits."""
    return f"2^{bound.bit_length() - 1}" if isinstance(bound, int) and bound > 2**32 and bound & (bound - 1) == 0 else str(bound)


def default_text(field: Any) -> str:
    """A key's default as TOML would write it; "required", or "absent" for an optional key left out."""
    if field.default_factory is not None:
        made = field.default_factory()
        return "`[]`" if made == [] else "its table's defaults"
    if field.default is PydanticUndefined:
        return "required"
    if field.default is None:
        return "absent"
    return _toml(field.default)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, list):
        return "`[" + ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in value) + "]`"
    return f"`{value}`"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def tables(model: type, path: str, heading: str) -> Iterator[Tuple[str, type]]:
    """(heading, model) of the table at dotted `path` and of every table below it, depth first; each
    topology kind on its own."""
    yield heading, model
    hints = typing.get_type_hints(model, include_extras=True)
    for name, field in model.model_fields.items():
        key = ".".join(filter(None, [path, field.alias or name]))
        if model is Scenario and key == "topology":
            for kind, kind_model in KINDS.items():
                yield from tables(kind_model, key, f'`[topology]` kind = "{kind}"')
            continue
        inner = _table_model(hints[name])
        if inner is not None:
            listed = typing.get_origin(_strip_optional(hints[name])[0]) in (list, List)
            yield from tables(inner, key, f"`[[{key}]]`" if listed else f"`[{key}]`")


def render() -> str:
    """The scenario reference as markdown."""
    units = "; ".join(f"{what}: {', '.join(f'`{u}`' for u in table)}" for what, table in
                      [("rates", RATE_UNITS), ("sizes", SIZE_UNITS), ("times", TIME_UNITS)])
    lines = [
        "# Scenario reference", "",
        "Generated from the scenario models, themselves generated from the engine's schema "
        "(`_core.scenario_schema()`: the Rust specs' keys, types, bounds, defaults and doc comments; "
        "`python/pacesim/scenario_tables.py`), by `python -m pacesim.scenario_reference docs/reference/scenario.md`; "
        "do not edit. A test keeps it current.", "",
        "A scenario is a TOML file; every key may be left out (E-base's value then, paper E Sec 3.1, with ns-2 "
        "2.35's defaults where the paper is silent) unless marked required. Quantities are strings with a unit, "
        f"parsed strictly ({units}; `KB` is 1000 B, `KiB` 1024 B); a bare number is refused. An unknown key or a "
        "bad value is an error naming the key (`core.buffer: ...`). `--set key=value` overrides any key below, "
        "`traffic.udp[0].rate=2Mbps` one of a list's tables.", "",
    ]
    described = {}  # model -> the heading it was described under
    for heading, model in tables(Scenario, "", "Top level"):
        lines += [f"## {heading}", ""]
        if model in described:
            lines += [f"The same keys as {described[model]}.", ""]
            continue
        described[model] = heading
        hints = typing.get_type_hints(model, include_extras=True)
        docs = field_docs(model)
        lines += [" ".join(inspect.cleandoc(model.__doc__ or "").split()), ""]
        if not model.model_fields:
            lines += [f"No keys: the table alone asks for it (`--set {heading.strip('`[]')}={{}}`).", ""]
            continue
        lines += ["| key | type | default | meaning |", "|---|---|---|---|"]
        for name, field in model.model_fields.items():
            kind = FRONT_BOUNDS.get((model, name)) or type_text(hints[name])
            lines.append(f"| `{field.alias or name}` | {_cell(kind)} | {_cell(default_text(field))} | "
                         f"{_cell(docs.get(name, ''))} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m pacesim.scenario_reference PATH")
    Path(sys.argv[1]).write_text(render(), encoding="utf-8")
