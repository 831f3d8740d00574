"""The scenario's tables as pydantic models, generated from the engine's schema (`schema.SCHEMA`); named
so as not to be taken for the papers' analytical models (`papers/<x>/models.py`).

Every table of a scenario is a model made here from its spec in the engine (`Scenario::schema`): its keys
in the engine's order, each key's type from the schema (a quantity in human units by its `x-unit`, with
the engine's lower bound; an integer or a number within the engine's `minimum`, `maximum` and exclusive
bounds; a strict bool; a list; an optional table; an enumeration as a `Literal` of the engine's choices),
its default (the engine's serde default, in human units) and its description (the spec's doc comment).
What the front adds is declared in a `Front` per table: the class's name, a base class with its hooks
(validators, methods), keys written differently from the engine's (`replace`) and keys the front lets a
scenario leave out (`optional`). tests/test_schema.py checks that the models and the schema agree.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Dict, List, Literal, Optional, Tuple

from pydantic import BaseModel, Field, StrictBool, create_model
from pydantic_core import PydanticUndefined

from . import schema
from .fields import U32, Checked, Count, PositiveSize, PositiveTime, Rate, RateRange, Size, SizeRange, Time, TimeRange, _Model

RANGES = {"bit/s": RateRange, "ns": TimeRange, "bytes": SizeRange}
VALUES = {"bit/s": (Rate, Rate), "ns": (Time, PositiveTime), "bytes": (Size, PositiveSize)}
"""The front's types (human units in, SI integers held) for the engine's ranges and values of each unit:
a value's as (any, greater than zero), picked by the key's `minimum` (every rate's is 1: none is zero)."""

Probability = Annotated[float, Field(gt=0.0, le=1.0, allow_inf_nan=False)]
"""A number in (0, 1]."""

_BOUNDS = {"minimum": "ge", "maximum": "le", "exclusiveMinimum": "gt", "exclusiveMaximum": "lt"}
"""JSON Schema's numeric bounds and pydantic's names for them."""


@dataclass
class Front:
    """What the front adds to the generated model of one engine table."""

    name: str
    """The model's class name."""
    base: type = _Model
    """The model's base: the front's hooks (validators, methods); fields come from the schema."""
    replace: Dict[str, Dict[str, Tuple[Any, Any]]] = field(default_factory=dict)
    """Engine key -> the front's keys for it, each (type, FieldInfo), in place of the engine's one."""
    optional: Tuple[str, ...] = ()
    """Keys a scenario may leave out though the engine needs them (the front fills them in)."""


def human(value: Any, unit: Optional[str]) -> Any:
    """An engine value (SI) as the front writes it: "100Mbps", a range [lo, lo] as its one value."""
    fmt = schema.HUMAN.get(unit or "")
    if fmt is None or value is None:
        return value
    if isinstance(value, list):
        return fmt(value[0]) if value[0] == value[1] else [fmt(v) for v in value]
    return fmt(value)


def prose(text: Optional[str]) -> str:
    """A doc comment as one line of prose for the front: rustdoc's links [`X`] as `X`, and without the wire
    form's SI unit (", ns"), which `x-unit` carries: the front takes and shows human units."""
    text = re.sub(r"\[(`[^`]+`)\](?!\()", r"\1", " ".join((text or "").split()))
    return re.sub(r", (ns|bytes|bit/s)(?=[.;:)]| \(|$)", "", text)


def _count(node: dict) -> Any:
    """An integer key within the engine's bounds: `minimum`, `maximum` or its integer's width."""
    low = node.get("minimum", 0)
    if "maximum" in node:
        if low == 1 and node["maximum"] == U32 - 1:
            return Count
        return Annotated[int, Field(strict=True, ge=low, le=node["maximum"])]
    below = U32 if node.get("format") == "uint32" else 2**64
    return Count if low == 1 and below == U32 else Annotated[int, Field(strict=True, ge=low, lt=below)]


def _number(node: dict) -> Any:
    """A float key within the engine's bounds, finite (inf and nan are refused as such)."""
    bounds = {name: node[key] for key, name in _BOUNDS.items() if key in node}
    if bounds == {"gt": 0.0, "le": 1.0}:
        return Probability
    return Annotated[float, Field(**bounds, allow_inf_nan=False)]


def _types(node: dict) -> List[str]:
    """A schema node's JSON types, `null` left out."""
    given = node.get("type", [])
    return [t for t in ([given] if isinstance(given, str) else given) if t != "null"]


def _nullable(node: dict) -> bool:
    """Whether a key of schema `node` may be null (`Option` in the engine): absent in the front."""
    return "null" in node.get("type", []) or any(n.get("type") == "null" for n in node.get("anyOf", []))


def _ref(node: dict) -> Optional[str]:
    """The name of the definition `node` refers to (directly or as an optional's), if any."""
    refs = [n["$ref"] for n in [node, *node.get("anyOf", [])] if "$ref" in n]
    return refs[0].rsplit("/", 1)[1] if refs else None


class Tables:
    """The front's models of the engine's tables, made once each and registered in `namespace` (a
    module's globals, where pickle, e.g. a sweep's worker process, looks a class up by name)."""

    def __init__(self, module: str, namespace: dict, fronts: Dict[str, Front]):
        self.module, self.namespace, self.fronts = module, namespace, fronts
        self.made: Dict[str, type] = {}

    def model(self, ref: str, node: Optional[dict] = None) -> type:
        """The model of definition `ref` (or of the table `node`, which `ref` then names)."""
        if ref not in self.made:
            node = node if node is not None else schema.resolve({"$ref": f"#/$defs/{ref}"})
            front = self.fronts.get(ref, Front(re.sub(r"(Spec|Params)$", "", ref)))
            fields: Dict[str, Any] = {}
            for key, prop in node.get("properties", {}).items():
                if key in front.replace:
                    fields.update(front.replace[key])
                elif key == "kind" and "const" in prop:  # a tagged table's tag
                    fields[key] = (Literal[prop["const"]], Field(prop["const"], description="The topology's kind."))
                else:
                    fields[key + "_" if keyword.iskeyword(key) else key] = self.field(key, prop, key in front.optional)
            model = create_model(front.name, __base__=front.base, __module__=self.module,
                                 __doc__=prose(node.get("description")), **fields)
            self.namespace[front.name] = self.made[ref] = model
        return self.made[ref]

    def field(self, key: str, prop: dict, optional: bool = False) -> Tuple[Any, Any]:
        """(type, FieldInfo) of engine key `key` of schema `prop`: its type, default and description."""
        typ, nullable = self.type(prop), optional or _nullable(prop)
        options: Dict[str, Any] = {"description": prose(prop.get("description"))}
        if keyword.iskeyword(key):
            options["alias"] = key
        default = prop.get("default", PydanticUndefined)
        if optional or (nullable and default is PydanticUndefined):
            default = None
        if isinstance(default, dict) or (default is PydanticUndefined and _types(schema.resolve(prop)) == ["object"]):
            options["default_factory"] = typ  # its table's defaults (tests/test_schema.py: the engine's)
        else:
            options["default"] = human(default, prop.get("x-unit"))
        return (Optional[typ] if nullable else typ), Field(**options)

    def type(self, prop: dict) -> Any:
        """The front's type of a key of schema `prop`, optional or not."""
        unit, inner = prop.get("x-unit"), schema.resolve(prop)
        kind = _types(inner)
        if kind == ["object"]:
            return self.model(_ref(prop), inner)
        if kind == ["array"]:
            if unit in RANGES:
                return RANGES[unit]
            return Annotated[List[self.type(inner["items"])], Checked]  # type: ignore[misc]
        if kind == ["integer"] and unit in VALUES:
            return VALUES[unit][inner.get("minimum", 0) >= 1]
        if kind == ["integer"]:
            return _count(inner)
        if kind == ["number"]:
            return _number(inner)
        if kind == ["boolean"]:
            return StrictBool
        if kind == ["string"] and "enum" not in inner and "const" not in inner:
            return str
        if not all(_types(n) in ([], ["string"]) for n in inner.get("oneOf", [inner])):
            raise TypeError(f"{prop}: a key of several forms needs the front's own keys for it (`Front.replace`)")
        return Literal[schema.values(inner)]  # type: ignore[valid-type]
