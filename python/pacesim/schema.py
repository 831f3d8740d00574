"""The engine's scenario schema: the one source of the scenario's keys, choices, engine defaults and units.

The engine derives it from its specs (`Scenario::schema` in crates/pacesim-core/src/scenario.rs, with
schemars): the wire form in SI integers, each key's doc comment as its `description`, a serde default as
its `default`, a quantity's unit as `x-unit` ("bytes", "bit/s", "ns", "packets"). The front takes from
it what the engine already says (the choices of every enumeration, the engine's defaults in human units)
and presents the engine's errors in human units (`humanize`); the engine's own validation
(`_core.validate_json`) checks the rules. tests/test_schema.py fails when the front and this schema drift.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, Optional, Tuple

from . import _core
from .units import format_rate, format_size, format_time

SCHEMA: dict = json.loads(_core.scenario_schema())

HUMAN = {"bytes": format_size, "bit/s": format_rate, "ns": format_time}
"""How a value of each unit is written back in human units (packets stay a count)."""

_ENGINE_UNITS = {"B": format_size, "bit/s": format_rate, "ns": format_time}


def resolve(node: dict) -> dict:
    """`node` with its `$ref` followed and an optional's `null` alternative dropped."""
    while True:
        if "$ref" in node:
            node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
        elif "anyOf" in node:
            node = next(n for n in node["anyOf"] if n.get("type") != "null")
        else:
            return node


def kinds() -> Tuple[str, ...]:
    """The topology kinds, in the engine's order."""
    return tuple(k["properties"]["kind"]["const"] for k in resolve(SCHEMA["properties"]["topology"])["oneOf"])


def table(path: str, kind: Optional[str] = None) -> dict:
    """The schema of the table at dotted `path` ("" the whole scenario; a list's items for a list of
    tables, `traffic.udp`); `topology` is the table of topology `kind`."""
    node = SCHEMA
    for part in filter(None, path.split(".")):
        node = resolve(resolve(node)["properties"][part])
        if node.get("type") == "array":
            node = resolve(node["items"])
        if part == "topology" and kind is not None:
            node = next(k for k in node["oneOf"] if k["properties"]["kind"]["const"] == kind)
    return resolve(node)


def key(path: str, kind: Optional[str] = None) -> dict:
    """The schema of the key at dotted `path` (with its description, default and unit)."""
    parent, _, name = path.rpartition(".")
    return table(parent, kind)["properties"][name]


def choices(path: str) -> Tuple[str, ...]:
    """The values the engine takes for the key at `path` (of a list's items for a list)."""
    node = resolve(key(path))
    if node.get("type") == "array":
        node = resolve(node["items"])
    return _values(node)


def _values(node: dict) -> Tuple[str, ...]:
    """An enumeration's values: `enum`, or `oneOf` of consts (variants with doc comments) and enums."""
    if "enum" in node:
        return tuple(node["enum"])
    if "const" in node:
        return (node["const"],)
    return tuple(v for n in node["oneOf"] for v in _values(n))


def Choice(path: str) -> Any:
    """`Literal[...]` of the engine's choices for the key at `path`."""
    return Literal[choices(path)]  # type: ignore[valid-type]


def unit(path: str, kind: Optional[str] = None) -> Optional[str]:
    """The key's unit ("bytes", "bit/s", "ns", "packets"), None for what has none."""
    return key(path, kind).get("x-unit")


def default(path: str) -> Any:
    """The engine's default for the key at `path`, in human units ("1000B"): the key's own serde default,
    else its value in its table's default (`pacing`'s is the engine's `Pacing::default()`)."""
    parent, _, name = path.rpartition(".")
    node = key(path)
    if "default" in node:
        value = node["default"]
    else:
        value = key(parent)["default"][name]
    fmt = HUMAN.get(node.get("x-unit", ""))
    return fmt(value) if fmt is not None and isinstance(value, int) else value


def humanize(message: str) -> str:
    """An engine message with its SI quantities ("10000 B", "2000000000 ns", "1000000 bit/s") in human units."""
    return re.sub(r"\b(\d+) (B|bit/s|ns)\b", lambda m: _ENGINE_UNITS[m[2]](int(m[1])), message)
