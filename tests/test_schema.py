"""The Python front against the engine's scenario schema (`_core.scenario_schema()`, derived from the Rust
specs). The front's models are generated from that schema (`pacesim.scenario_tables`), so this checks what the
front adds: every key of every table is on both sides (but the front keys in `FRONT_ONLY`), with the same
choices, unit and default; where the engine has no default the front has none either (a key is required,
a table takes its table's defaults, an optional key is absent) but in `FRONT_DEFAULTS`; and the front's
hooks (`scenario.FRONTS`) carry no key of their own. A key or default written in Python and not in the
schema, or added to a Rust spec and not reaching the front, fails `test_front_and_engine_agree`."""

from __future__ import annotations

import copy
import json
import math
import typing
from pathlib import Path
from typing import Any, List, Literal, Optional

import pytest
from pydantic import BaseModel, TypeAdapter

from pydantic_core import PydanticUndefined

from pacesim import _core, fields, schema, units
from pacesim.scenario import FRONTS, Pacing, Red, Scenario, Series, Traffic, _keys, _table
from pacesim.topology import KINDS
from pacesim.units import format_rate, format_size, format_time, parse_rate, parse_size

UNITS = {fields.Rate: "bit/s", fields.RateRange: "bit/s", fields.Size: "bytes", fields.PositiveSize: "bytes",
         fields.SizeRange: "bytes", fields.Time: "ns", fields.PositiveTime: "ns", fields.TimeRange: "ns"}
"""The front's quantity types (human units in, SI integers held) and the engine unit each stands for."""

FRONT_ONLY = {"traffic.udp.sizes": "the front's list form of the engine's size (size = {list = [...]})"}
"""Keys the front has and the engine's wire form has not, and why."""

FRONT_DEFAULTS = {
    "core.rate": "left out: the topology's (Scenario.core_values)",
    "core.delay": "left out: the topology's",
    "core.buffer": "left out: the topology's",
    "topology": "E-base, the front's union of topology kinds (topology.KINDS)",
    "traffic.udp.size": "left out: sizes given instead",
}
"""Keys the engine requires and the front lets a scenario leave out, and why."""


def _inner(hint: Any) -> Any:
    """The type inside Optional[...] and List[...]."""
    while typing.get_origin(hint) in (typing.Union, list, List):
        hint = next(a for a in typing.get_args(hint) if a is not type(None))
    return hint


def _choices(node: dict) -> Optional[set]:
    node = schema.resolve(node)
    if node.get("type") == "array":
        node = schema.resolve(node["items"])
    try:
        return set(schema.values(node))
    except KeyError:
        return None


def _front_default(model: type[BaseModel], name: str, hint: Any) -> Any:
    """A front key's default as the engine would get it (SI integers, ranges as [lo, hi])."""
    field = model.model_fields[name]
    value = field.get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="python", by_alias=True)
    if value is None or isinstance(value, (bool, float)) or (isinstance(value, list) and not value):
        return value
    held = TypeAdapter(hint).validate_python(value)
    return list(held) if isinstance(held, tuple) else held


def _engine_default(node: dict, parent_default: Any, key: str) -> Any:
    if "default" in node:
        return node["default"]
    if isinstance(parent_default, dict) and key in parent_default:
        return parent_default[key]
    return KeyError


def drift(engine: dict, model: type[BaseModel] = Scenario, path: str = "", kind: Optional[str] = None,
          table_default: Any = None) -> List[str]:
    """Every disagreement between the engine's table `engine` (a schema object) and the front's `model`."""
    problems = []
    props = engine.get("properties", {})
    front = {k for k in _keys(model) if f"{path}.{k}".lstrip(".") not in FRONT_ONLY}
    for key in sorted(set(props) ^ front):
        side = "the engine's" if key in props else "the front's"
        problems.append(f"{path}.{key}".lstrip(".") + f": only in {side} schema")
    hints = typing.get_type_hints(model, include_extras=True)
    names = {f.alias or n: n for n, f in model.model_fields.items()}
    for key in sorted(set(props) & front):
        where, node, name = f"{path}.{key}".lstrip("."), props[key], names[key]
        hint = hints[name]
        front_unit = UNITS.get(_inner(hint))
        engine_unit = node.get("x-unit") if node.get("x-unit") != "packets" else None
        if front_unit != engine_unit:
            problems.append(f"{where}: unit {front_unit} in the front, {engine_unit} in the engine")
        # The front's Literal as built at import (re-reading the annotation would call Choice anew).
        engine_choices, front_type = _choices(node), _inner(model.model_fields[name].annotation)
        if engine_choices is not None:
            front_choices = set(typing.get_args(front_type)) if typing.get_origin(front_type) is Literal else None
            if front_choices != engine_choices:
                problems.append(f"{where}: choices {front_choices} in the front, {engine_choices} in the engine")
        wanted = _engine_default(node, table_default, key)
        if wanted is not KeyError and key != "kind":
            given = _front_default(model, name, hint)
            if given != wanted:
                problems.append(f"{where}: default {given!r} in the front, {wanted!r} in the engine")
        elif wanted is KeyError and key != "kind" and where not in FRONT_DEFAULTS:  # a tag's default is itself
            field = model.model_fields[name]
            nullable = "null" in node.get("type", []) or any(n.get("type") == "null" for n in node.get("anyOf", []))
            table = isinstance(field.default_factory, type) and issubclass(field.default_factory, BaseModel)
            if not (field.default is PydanticUndefined and field.default_factory is None or table
                    or nullable and field.default is None):
                given = _front_default(model, name, hint)
                problems.append(f"{where}: default {given!r} only in the front")
        if model is Scenario and key == "topology":
            for each in schema.resolve(node)["oneOf"]:
                name_of = each["properties"]["kind"]["const"]
                if name_of not in KINDS:
                    problems.append(f"topology: kind {name_of!r} only in the engine's schema")
                    continue
                problems += drift(each, KINDS[name_of], "topology", name_of)
            problems += [f"topology: kind {k!r} only in the front" for k in KINDS if k not in schema.kinds()]
            continue
        inner = _table(model, key, kind)
        if inner is not None:
            default = wanted if wanted is not KeyError else None
            problems += drift(schema.table(where, kind), inner, where, kind, default)
    return problems


def test_front_and_engine_agree():
    assert drift(schema.SCHEMA) == []


def test_a_key_added_in_the_engine_alone_is_drift():
    engine = copy.deepcopy(schema.SCHEMA)
    engine["$defs"]["Tcp"]["properties"]["pacing_gain"] = {"type": "number", "default": 2.0}
    engine["$defs"]["Pacing"]["properties"]["mu_max"]["default"] = 50_000_000
    engine["$defs"]["Tcp"]["properties"]["variant"]["enum"].append("vegas")
    saved = schema.SCHEMA
    schema.SCHEMA = engine  # `schema.table` and `resolve` read the module's schema
    try:
        problems = drift(engine)
    finally:
        schema.SCHEMA = saved
    assert "tcp.pacing_gain: only in the engine's schema" in problems
    assert any(p.startswith("pacing.mu_max: default 100000000 in the front, 50000000") for p in problems), problems
    assert any(p.startswith("tcp.variant: choices") for p in problems), problems


def test_a_key_or_default_in_the_front_alone_is_drift():
    engine = copy.deepcopy(schema.SCHEMA)
    del engine["$defs"]["Tcp"]["properties"]["rampdown"]
    del engine["$defs"]["BurstinessSpec"]["properties"]["scales"]["default"]
    del engine["$defs"]["Traffic"]["properties"]["start"]["default"]
    saved = schema.SCHEMA
    schema.SCHEMA = engine
    try:
        problems = drift(engine)
    finally:
        schema.SCHEMA = saved
    assert "tcp.rampdown: only in the front's schema" in problems
    assert "burstiness.scales: default 20 only in the front" in problems
    assert "traffic.start: default [0, 10000000000] only in the front" in problems


def test_the_fronts_hooks_add_no_keys():
    """Every key of a model comes from the schema or from its `Front.replace`: the hooks hold none."""
    for front in FRONTS.values():
        assert front.base.model_fields == {}, front.name


def test_engine_defaults_reach_the_front_in_human_units():
    assert Red.model_fields["mean_packet"].default == "1KB"
    assert Pacing.model_fields["mu_max"].default == "100Mbps" and Pacing.model_fields["delay"].default == "10ms"
    assert Traffic.model_fields["start"].default == ["0s", "10s"] and Series.model_fields["flows"].default == []
    assert schema.unit("tcp.min_rto") == "ns" and schema.unit("topology.edges", "e-base") is None


@pytest.mark.parametrize("value", [1, 999, 1000, 1500, 10_000, 2_000_000, 3_000_000_000, 12_345_678, 7_000_000_001])
def test_the_engine_spells_quantities_as_the_front_does(value):
    """The engine's messages quote sizes, times and rates as `units` writes them (`spec::human` in Rust): the
    binding's own message, with nothing rewriting it, as format_size, format_time and format_rate give them."""
    def message(edit) -> str:
        data = Scenario().to_engine()
        edit(data)
        with pytest.raises(ValueError) as e:
            _core.validate_json(json.dumps(data))
        return e.value.message

    def red(d):
        d["core"].update(queue="red", buffer=1000)
        d["core"]["red"].update(min_th=value + 1, max_th=value)

    assert message(red) == f"{format_size(value + 1)} must be below max_th ({format_size(value)})"
    assert message(lambda d: d["tcp"].update(min_rto=value + 1, max_rto=value)) == \
        f"{format_time(value + 1)} must not exceed tcp.max_rto ({format_time(value)})"
    assert message(lambda d: d["pacing"].update(scheme="qlbp", mu_min=value + 1, mu_max=value)) == \
        f"{format_rate(value + 1)} must not exceed pacing.mu_max ({format_rate(value)})"


@pytest.mark.parametrize("data, field, says", [
    ({"tcp": {"min_rto": "2s", "max_rto": "1s"}}, "tcp.min_rto", "2s must not exceed tcp.max_rto (1s)"),
    ({"pacing": {"mu_min": "200Mbps"}}, "pacing.mu_min", "200Mbps must not exceed pacing.mu_max (100Mbps)"),
    ({"warmup": "500s"}, "warmup", "500s must be before the end of the run (duration 400s)"),
])
def test_the_engines_rules_name_the_field_in_human_units(data, field, says):
    from pacesim.scenario import ScenarioError, parse_scenario

    e = pytest.raises(ScenarioError, parse_scenario, data).value
    assert (e.field, e.message) == (field, says)


def _outside(node: dict) -> List[Any]:
    """Values just past a numeric key's bounds in the engine's schema (and inf, nan for a number; zero in
    human units for a quantity that must be positive)."""
    node = schema.resolve(node)
    kind = [t for t in ([node.get("type")] if isinstance(node.get("type"), str) else node.get("type", [])) if t != "null"]
    if kind == ["number"]:
        out = [float("nan"), float("inf"), float("-inf")]
        out += [math.nextafter(node["minimum"], -math.inf)] if "minimum" in node else []
        out += [math.nextafter(node["maximum"], math.inf)] if "maximum" in node else []
        out += [node[k] for k in ("exclusiveMinimum", "exclusiveMaximum") if k in node]
        return out
    zero = {"bytes": "0B", "ns": "0s", "bit/s": "0bps"}
    if kind == ["integer"] and node.get("x-unit") in zero:
        most = [schema.HUMAN[node["x-unit"]](node["maximum"] + 1)] if "maximum" in node else []
        return ([zero[node["x-unit"]]] if node["minimum"] >= 1 else []) + most
    if kind == ["integer"]:
        return [node["minimum"] - 1] + ([node["maximum"] + 1] if "maximum" in node else [])
    return []


def _bounded_keys():
    """(dotted path, value past its bound) for every bounded number of the tables below the top level."""
    for path in ["", "core", "core.red", "tcp", "traffic", "traffic.short", "traffic.udp", "traffic.udp.trace",
                 "pacing", "burstiness", "progress", "series", "trace"]:
        for key, node in schema.table(path)["properties"].items():
            for value in _outside(node):
                yield ".".join(filter(None, [path, key])), value


def _rates(node: Any, path: str = "") -> List[tuple]:
    """(path, the lower bound) of every rate in the schema `node`, a value's or a range's items'."""
    found = []
    if isinstance(node, dict):
        if node.get("x-unit") == "bit/s":
            found.append((path, node.get("items", node).get("minimum", 0)))
        found += [r for k, v in node.items() if k != "default" for r in _rates(v, f"{path}/{k}")]
    elif isinstance(node, list):
        found += [r for i, v in enumerate(node) for r in _rates(v, f"{path}[{i}]")]
    return found


def test_every_rate_is_positive_as_the_front_takes_it():
    """The front's rates, a value (`fields.Rate`) or a range (`fields.RateRange`), refuse 0: so does the
    engine's schema for every rate, a range's items too (`spec::bounds::with_limits`; E-base's ranges were
    checked by hand in its `validate`, A-base's and four other kinds' not at all, refused only when the
    network was built, naming `topology.links[1].rate`, a key the scenario has not)."""
    rates = _rates(schema.SCHEMA)
    assert len(rates) >= 18 and all(low >= 1 for _, low in rates), [r for r in rates if r[1] < 1]
    for kind in ["a-base", "e-base", "q-line", "w-dumbbell"]:
        from pacesim.scenario import parse_scenario

        engine = parse_scenario({"topology": {"kind": kind}}).to_engine()
        engine["topology"]["access_rate"] = [0, 5]
        _engine_refuses(engine, "topology.access_rate[0]")


@pytest.mark.parametrize("path, value", list(_bounded_keys()))
def test_every_bound_of_the_engines_schema_is_the_fronts(path, value):
    """A number past its bound in the schema (or inf, nan) is refused naming its key: the generated types
    carry every bound (the engine's own check comes after, on what passes)."""
    from pacesim.scenario import ScenarioError, parse_scenario

    data: dict = {"traffic": {"udp": [{"kind": "fbm", "rate": "1Mbps", "size": "100B", "hurst": 0.8}]}}
    table, parts = data, path.split(".")
    for part in parts[:-1]:
        table = table.setdefault(part, {})
        table = table[0] if isinstance(table, list) else table
    table[parts[-1]] = value
    if path.startswith("traffic.udp.trace"):
        table.update(file=__file__, columns=["bytes"])
    e = pytest.raises(ScenarioError, parse_scenario, data).value
    assert e.field == path.replace("traffic.udp", "traffic.udp[0]"), e


def _non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _topology_bounds():
    """(kind, key, value past its bound) for every bounded number of every named topology kind."""
    for kind in schema.kinds():
        for key, node in schema.table("topology", kind)["properties"].items():
            for value in _outside(node):
                yield kind, key, value


def _engine_refuses(engine: dict, field: str) -> None:
    with pytest.raises(ValueError) as e:
        _core.validate_json(json.dumps(engine, allow_nan=False))
    assert str(e.value).startswith(f"{field}: "), e.value


def _engine_value(value: Any) -> Any:
    """`_outside`'s value in the engine's wire form (a quantity in human units in its SI unit)."""
    if not isinstance(value, str):
        return value
    return next(parse(value) for parse in (parse_size, parse_rate, _time) if _parses(parse, value))


def _time(text: str) -> int:
    """A time in ns, past the engine's clock too (`units.parse_time` refuses it)."""
    return units._parse(text, "time")


def _parses(parse: Any, text: str) -> bool:
    try:
        parse(text)
        return True
    except ValueError:
        return False


@pytest.mark.parametrize("path, value", [(p, v) for p, v in _bounded_keys() if not _non_finite(v)])
def test_every_bound_of_the_schema_is_the_engines_own(path, value):
    """The engine, read straight from JSON, refuses the same values as the front, naming the key: a bound
    is declared once (the Rust spec) and held on both sides, a variant's unused knob too (RED's `max_p`
    under drop-tail, FAST's `fast_alpha` under Reno)."""
    from pacesim.scenario import parse_scenario

    engine = parse_scenario({"traffic": {"udp": [{"kind": "fbm", "rate": "1Mbps", "size": "100B",
                                                  "hurst": 0.8}]}}).to_engine()
    table, parts = engine, path.split(".")
    for part in parts[:-1]:
        if table.get(part) is None:
            table[part] = {}
        table = table[part]
        table = table[0] if isinstance(table, list) else table
    if path.startswith("traffic.udp.trace"):
        table.update(file="trace.csv", columns=["bytes"])
    table[parts[-1]] = _engine_value(value)
    _engine_refuses(engine, path.replace("traffic.udp", "traffic.udp[0]"))


@pytest.mark.parametrize("kind, key, value", [t for t in _topology_bounds() if not _non_finite(t[2])])
def test_every_topologys_bounds_are_the_engines_own(kind, key, value):
    from pacesim import load_scenario
    from pacesim.scenario import parse_scenario

    graph = Path(__file__).resolve().parents[1] / "scenarios" / "graph-square.toml"
    front = load_scenario(graph) if kind == "graph" else parse_scenario({"topology": {"kind": kind}})
    engine = front.to_engine()
    engine["topology"][key] = _engine_value(value)
    _engine_refuses(engine, f"topology.{key}")


def _has(table: dict, path: str) -> bool:
    """Whether the engine's JSON `table` has the key at dotted `path`."""
    for part in path.split("."):
        if not isinstance(table, dict) or part not in table:
            return False
        table = table[part]
    return True


ADDED = [
    ("traffic.two_way", {}, {"traffic": {"two_way": True}}),
    ("series", {}, {"series": {"links": ["core"]}}),
    ("series.max_points", {"series": {"links": ["core"]}}, {"series": {"links": ["core"], "max_points": 5}}),
    ("trace", {}, {"trace": {"links": ["core"]}}),
    ("trace.max_bytes", {"trace": {"links": ["core"]}}, {"trace": {"links": ["core"], "max_bytes": "1MB"}}),
    ("tcp.window_cut", {}, {"tcp": {"window_cut": "flight"}}),
    ("pacing.host_pacer", {}, {"pacing": {"host_pacer": "wei"}}),
]
"""Keys added after runs were stored: a scenario holding its default, and one setting it."""


@pytest.mark.parametrize("path, at_default, given", ADDED)
def test_a_key_added_since_runs_were_stored_is_keyed_only_when_set(path, at_default, given):
    """What a run's key covers (`store.key_form`) has a key added since the stored runs only where it is set;
    the engine's JSON has it either way, and leaving it out of that JSON changes no key."""
    from pacesim.scenario import parse_scenario
    from pacesim.store import key_form, run_key

    default, set_ = parse_scenario(at_default).to_engine(), parse_scenario(given).to_engine()
    assert _has(default, path) and not _has(key_form(default), path) and _has(key_form(set_), path)
    *tables, last = path.split(".")
    table = default
    for part in tables:
        table = table[part]
    key = run_key(default, "x")
    del table[last]
    assert run_key(default, "x") == key


def test_a_key_stored_runs_covered_is_keyed_at_its_default():
    """A key the stored runs' keys covered (`store.KEYED`) stays in what the key covers at its default, and a
    knob the engine's JSON leaves out altogether is keyed at the value the stored form gave it."""
    from pacesim.scenario import parse_scenario
    from pacesim.store import key_form

    engine = parse_scenario({}).to_engine()
    assert key_form(engine)["tcp"]["fast_alpha"] == 200.0 and key_form(engine)["pacing"]["delay"] == 10_000_000
    del engine["tcp"]["fast_alpha"]
    assert key_form(engine)["tcp"]["fast_alpha"] == 200.0
