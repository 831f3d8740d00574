"""The engine's scenario schema: the one source of the scenario's keys, types, bounds, defaults and units.

The engine derives it from its specs (`Scenario::schema` in crates/pacesim-core/src/scenario.rs, with
schemars): the wire form in SI integers, each key's doc comment as its `description`, a serde default as
its `default`, a quantity's unit as `x-unit` ("bytes", "bit/s", "ns", "packets"), a number's bounds as
`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`. The front's models are generated from it
(`models`); this module reads it; the engine's errors quote their quantities in human units already
(`spec::human`, spelled as `units` spells them); the engine's own validation (`_core.validate_json`, through `checked`, which keeps what the engine read)
checks the rules. tests/test_schema.py fails when the front and this schema drift.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any, Dict, Optional, Tuple

from . import _core
from .units import format_rate, format_size, format_time

SCHEMA: dict = json.loads(_core.scenario_schema())

HUMAN = {"bytes": format_size, "bit/s": format_rate, "ns": format_time}
"""How a value of each unit is written back in human units (packets stay a count)."""

CHECKED_KEPT = 4
"""How many scenarios `checked` keeps as the engine read them (each its parsed spec: a graph's links and
nodes at most, never a network built or a packet)."""

_checked: Dict[str, Any] = {}
_checked_lock = threading.Lock()


def checked(text: str) -> Any:
    """The scenario of engine JSON `text` as the engine reads and checks it (`_core.validate_json`: a
    ValueError naming the field if it refuses it), read once: the last `CHECKED_KEPT` are kept by their text,
    so that a scenario checked as it is made is described or run (`_core.describe_json`, `_core.run_json` take
    what this returns) without the engine reading it again."""
    with _checked_lock:
        found = _checked.pop(text, None)
    if found is None:
        found = _core.validate_json(text)
    with _checked_lock:
        _checked[text] = found
        while len(_checked) > CHECKED_KEPT:
            del _checked[next(iter(_checked))]
    return found


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


def title(path: str) -> Optional[str]:
    """The short name the schema gives the key at dotted `path` (its `title`, "Core link buffer": an axis's
    name), None for a key it does not name or that is not the scenario's; a list's item (`traffic.udp[0].size`)
    is any item's, a topology's key any kind's that has it (the kinds sharing a key share its name)."""
    parent, _, name = re.sub(r"\[\d+\]", "", path).rpartition(".")
    for kind in kinds() if parent.split(".")[0] == "topology" else [None]:
        try:
            found = table(parent, kind)["properties"][name].get("title")
        except (KeyError, TypeError):
            continue
        if found is not None:
            return found
    return None


def values(node: dict) -> Tuple[str, ...]:
    """An enumeration's values: `enum`, or `oneOf` of consts (variants with doc comments) and enums."""
    if "enum" in node:
        return tuple(node["enum"])
    if "const" in node:
        return (node["const"],)
    return tuple(v for n in node["oneOf"] for v in values(n))


def unit(path: str, kind: Optional[str] = None) -> Optional[str]:
    """The key's unit ("bytes", "bit/s", "ns", "packets"), None for what has none."""
    return key(path, kind).get("x-unit")
