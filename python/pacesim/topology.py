"""Topologies: the papers' named networks and the general graph they all become.

`kind` picks one: "e-base" (paper E Sec 3.1), "a-base" (paper A Sec II),
"q-line", "q-tandem", "q-dumbbell" (paper Q Secs IV-B, IV-C, IV-D),
"w-dumbbell" (paper W Sec III), or "graph", written out in full. Each
named kind is a short builder in the engine (crates/pacesim-core/src/
topology/) producing a graph, whose spec is the one source of its keys and
defaults (its paper's): its model here, and a graph's, is generated from
the engine's schema (`KINDS`, `scenario_tables.Tables`). The `[core]` section sets the bottleneck (core) link of
every kind; keys it leaves out take the topology's (its spec's `x-core`). Routes follow shortest paths in hops
(ties broken by declaration order), computed once by the engine;
`describe()` shows what was built.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated, Dict, Optional, Union

from pydantic import Discriminator, Tag

from . import scenario_tables, schema


def _class_name(kind: str) -> str:
    """A topology kind's model name: "e-base" -> EBase."""
    return "".join(p.capitalize() for p in kind.split("-"))


_KIND_TABLES = {each["properties"]["kind"]["const"]: each for each in schema.table("topology")["oneOf"]}
_FRONTS = {**{kind: scenario_tables.Front(_class_name(kind)) for kind in _KIND_TABLES},
           "LinkSpec": scenario_tables.Front("LinkSpec"), "FlowSpec": scenario_tables.Front("FlowSpec")}
_TABLES = scenario_tables.Tables(__name__, globals(), _FRONTS)
KINDS: Dict[str, type] = {kind: _TABLES.model(kind, each) for kind, each in _KIND_TABLES.items()}
"""Every topology kind's model, generated from the engine's specs (`topology/*.rs`; a graph's links, their
halves and its flows too): keys, types, units, defaults and descriptions are the engine's."""
NAMED: Dict[str, type] = {kind: model for kind, model in KINDS.items() if kind != "graph"}
"""The named topologies' models."""
EBase = NAMED["e-base"]


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
    return dict(_core_defaults(kind))


@lru_cache(maxsize=None)
def _core_defaults(kind: str) -> dict:
    core = schema.table("topology", kind).get("x-core", {})
    return {key: scenario_tables.human(value, schema.unit(f"core.{key}")) for key, value in core.items()}


def describe(scenario, examples: int = 3) -> dict:
    """What the engine builds for `scenario`: routers, hosts, every link half
    (name, ends, rate, delay, queue limits, measured, pacer), the flow count,
    the core link's name and `examples` flows' routes with their base RTT.
    The engine builds the network to describe it: a caller holding a user's
    scenario checks `memory.check(scenario, of=memory.network)` first."""
    from . import _core
    from .fields import ScenarioError

    try:  # the scenario as the engine read it when it was made (`schema.checked`)
        return json.loads(_core.describe_json(schema.checked(scenario.engine_json()), examples))
    except ValueError as e:
        raise ScenarioError.from_engine(e) from None
