"""Topologies: the papers' named networks and the general graph they all become.

`kind` picks one: "e-base" (paper E Sec 3.1), "a-base" (paper A Sec II),
"q-line", "q-tandem", "q-dumbbell" (paper Q Secs IV-B, IV-C, IV-D),
"w-dumbbell" (paper W Sec III), or "graph", written out in full. Each
named kind is a short builder in the engine (crates/pacesim-core/src/
topology/) producing a graph, whose spec is the one source of its keys and
defaults (its paper's): its model here is generated from the engine's
schema (`NAMED`). The `[core]` section sets the bottleneck (core) link of
every kind; keys it leaves out take the topology's (its spec's `x-core`). Routes follow shortest paths in hops
(ties broken by declaration order), computed once by the engine;
`describe()` shows what was built.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Dict, List, Literal, Optional, Union

from pydantic import ConfigDict, Discriminator, Field, StrictBool, Tag, create_model

from . import schema
from .fields import U32, Count, Rate, RateRange, Size, SizeRange, Time, TimeRange, _Model


RANGES = {"bit/s": RateRange, "ns": TimeRange, "bytes": SizeRange}
VALUES = {"bit/s": Rate, "ns": Time, "bytes": Size}
"""The front's types (human units in, SI integers held) for the engine's ranges and values of each unit."""


def _human(value: Any, unit: Optional[str]) -> Any:
    """An engine value (SI) as the front writes it: "100Mbps", a range [lo, lo] as its one value."""
    fmt = schema.HUMAN.get(unit or "")
    if fmt is None or value is None:
        return value
    if isinstance(value, list):
        return fmt(value[0]) if value[0] == value[1] else [fmt(v) for v in value]
    return fmt(value)


def _count(node: dict) -> Any:
    """An integer key: the engine's bounds (`minimum`, its integer width or `maximum`)."""
    below = node["maximum"] + 1 if "maximum" in node else U32 if node.get("format") == "uint32" else 2**64
    if node.get("minimum") == 1 and below == U32:
        return Count
    return Annotated[int, Field(strict=True, ge=node.get("minimum", 0), lt=below)]


def _field_type(node: dict) -> Any:
    """The front's type of a key of the engine's schema: a quantity or range in human units by its
    `x-unit`, a count within the engine's bounds, a table (generated the same way), or optional."""
    optional = any(n.get("type") == "null" for n in node.get("anyOf", []))
    inner, unit = schema.resolve(node), node.get("x-unit")
    if inner.get("type") == "object":
        typ = _model(node.get("$ref", next(n.get("$ref") for n in node.get("anyOf", [{}]) if "$ref" in n)).rsplit("/", 1)[1], inner)
    elif inner.get("type") == "array":
        typ = RANGES[unit]
    elif unit in VALUES:
        typ = VALUES[unit]
    else:
        typ = _count(inner)
    return Optional[typ] if optional else typ


def _model(name: str, node: dict) -> type:
    """A front model of an engine table: each key with its type, engine default (in human units) and
    doc comment; a tagged table's `kind` as its constant."""
    fields: Dict[str, Any] = {}
    for key, prop in node["properties"].items():
        if key == "kind":
            fields[key] = (Literal[prop["const"]], Field(prop["const"], description="The topology's kind."))
        else:
            default = _human(prop.get("default"), prop.get("x-unit"))
            fields[key] = (_field_type(prop), Field(default, description=" ".join(prop.get("description", "").split())))
    model = create_model(name, __base__=_Model, __module__=__name__, __doc__=" ".join(node.get("description", "").split()),
                         **fields)
    globals()[name] = model  # found by name, as pickle (a run's worker process) looks classes up
    return model


NAMED: Dict[str, type] = {
    each["properties"]["kind"]["const"]: _model("".join(p.capitalize() for p in each["properties"]["kind"]["const"].split("-")), each)
    for each in schema.table("topology")["oneOf"] if each["properties"]["kind"]["const"] != "graph"
}
"""The named topologies' models, generated from the engine's specs (`topology/*.rs`): keys, types, units,
defaults and descriptions are the engine's."""
EBase = NAMED["e-base"]


class Direction(_Model):
    """One half of a duplex link: its name (default "from-to"), drop-tail
    limits (absent: never drops), whether the run reports it and whether a
    pacing scheme paces it by default."""

    name: Optional[str] = None
    """The link half's name in reports and `pacing.links`; absent: "from-to"."""
    buffer: Optional[Size] = None
    """Drop-tail limit in bytes; absent (with buffer_packets): never drops."""
    buffer_packets: Optional[Count] = None
    """Drop-tail limit in packets."""
    measure: StrictBool = False
    """Report this half's counters (`Result.links`)."""
    pace: StrictBool = False
    """A pacing scheme (edge, qlbp) paces this half by default."""


class LinkSpec(_Model):
    """A duplex link between two nodes; `core = true` for the one link whose
    rate, delay and forward queue come from `[core]`."""

    model_config = ConfigDict(serialize_by_alias=True)

    from_: str = Field(alias="from")
    """One end, a node or host (required)."""
    to: str
    """The other end (required)."""
    core: StrictBool = False
    """This is the core link: rate, delay and forward queue from `[core]`."""
    rate: Optional[RateRange] = None
    """The link's rate (a core link takes `[core]`'s)."""
    delay: Optional[TimeRange] = None
    """The link's one-way delay (a core link takes `[core]`'s)."""
    forward: Direction = Field(default_factory=Direction)
    """The from -> to half: name, queue, measured, paced."""
    reverse: Direction = Field(default_factory=Direction)
    """The to -> from half."""


class FlowSpec(_Model):
    """A long-lived TCP flow from host `from` to host `to`."""

    model_config = ConfigDict(serialize_by_alias=True)

    from_: str = Field(alias="from")
    """The sending host (required)."""
    to: str
    """The receiving host (required)."""


class Graph(_Model):
    """A network written out: routers (`nodes`), `hosts`, duplex `links`, TCP
    `flows`. The engine checks it and names the offender of a bad one."""

    kind: Literal["graph"] = "graph"
    """A network written out in full."""
    nodes: List[str] = Field(default_factory=list)
    """Router names."""
    hosts: List[str] = Field(default_factory=list)
    """Host names (flows and UDP sources start and end at hosts)."""
    links: List[LinkSpec] = Field(default_factory=list)
    """Duplex links, `links = [{ from = ..., to = ..., ... }]`."""
    flows: List[FlowSpec] = Field(default_factory=list)
    """Long-lived TCP flows, `flows = [{ from = ..., to = ... }]`."""


KINDS: Dict[str, type] = {**NAMED, "graph": Graph}

def _kind(value) -> Optional[str]:
    """The topology kind of a table, e-base when it names none; None for what is not a table."""
    if isinstance(value, dict):
        return value.get("kind", "e-base")
    return getattr(value, "kind", None)


Topology = Annotated[
    Union[tuple(Annotated[model, Tag(kind)] for kind, model in KINDS.items())],  # type: ignore[misc]
    Discriminator(_kind),
]


def core_defaults(kind: str) -> dict:
    """The `[core]` values (human units) a topology kind uses for keys left out: its spec's `x-core`."""
    core = schema.table("topology", kind).get("x-core", {})
    return {key: _human(value, schema.unit(f"core.{key}")) for key, value in core.items()}


def describe(scenario, examples: int = 3) -> dict:
    """What the engine builds for `scenario`: routers, hosts, every link half
    (name, ends, rate, delay, queue limits, measured, pacer), the flow count,
    the core link's name and `examples` flows' routes with their base RTT.
    A network larger than the memory available is refused, naming its key."""
    from . import _core, memory
    from .scenario import ScenarioError

    memory.check(scenario, of=memory.network)
    try:
        return json.loads(_core.describe_json(json.dumps(scenario.to_engine()), examples))
    except ValueError as e:
        raise ScenarioError.from_engine(e) from None
