"""Topology scaling: a scenario's network made k times larger or smaller so that each flow keeps its share of
the core (`scaled`, a sweep's `scale`, `reproduce --quick`), and E-base's hosts set from a total of flows (a
sweep's flows axis, `with_flows`)."""

from __future__ import annotations

from .. import schema
from ..scenario import Scenario, ScenarioError, apply_overrides, parse_scenario
from ..messages import shown
from ..units import parse_rate

FLOWS = "flows"
"""An axis that is not a scenario key: total flows, spread over the edges."""


def scaled(scenario: Scenario, k: float, engine: bool = True) -> Scenario:
    """`scenario` with k times the TCP hosts (E-base: per edge) and k times every
    link rate (the core, those its topology kind's schema names in `x-scale`,
    the UDP host's) and UDP source rate, so each flow keeps its share of the
    core: paper-size experiments made small (`reproduce --quick`). For the
    kinds whose schema has `x-scale` (e-base and a-base). `engine` as `parse_scenario`'s. `scenario` is held to a
    file's rules first (`Scenario.rechecked`), as `apply_overrides` holds it: its values are read and written here."""
    if k == 1:
        return scenario
    scenario = scenario.rechecked(engine=False)
    t = scenario.topology
    scale = schema.table("topology", t.kind).get("x-scale")
    if scale is None:
        scalable = [kind for kind in schema.kinds() if "x-scale" in schema.table("topology", kind)]
        raise ScenarioError("topology.kind", f"scaling applies to {' and '.join(scalable)}, not {t.kind}")
    hosts_key, ranges = scale["hosts"], scale["rates"]
    hosts = getattr(t, hosts_key) * k
    if not 1 <= hosts < 2**32 or abs(hosts - round(hosts)) > 1e-9:
        raise ScenarioError(f"topology.{hosts_key}", f"{getattr(t, hosts_key)} x scale {k} is not a whole number "
                                                     "of hosts the engine can hold")
    data = scenario.written()  # validated once, when all is scaled
    data["topology"][hosts_key] = round(hosts)
    data.setdefault("core", {})["rate"] = f"{round(scenario.core_values().rate * k)}bps"
    for r in ranges:
        data["topology"][r] = [f"{round(getattr(t, r)[0] * k)}bps", f"{round(getattr(t, r)[1] * k)}bps"]
    for i, source in enumerate(data["traffic"]["udp"]):
        if "rate" not in source:
            raise ScenarioError(f"traffic.udp[{i}].rate", "scaling a trace source needs its rate (the trace's mean)")
    rated = data["traffic"]["udp"] + ([data["topology"]["udp"]] if "udp" in data["topology"] else [])
    for table in rated:
        table["rate"] = f"{round(parse_rate(table['rate']) * k)}bps"
    return parse_scenario(data, engine=engine)


def with_flows(s: Scenario, flows: int) -> Scenario:
    """`s` with E-base's hosts per edge set so that its edges hold `flows` flows in all (the flows axis: a whole
    number, 1 or more, as the sweep's definition checks it), engine rules left out as a sweep's point makes it
    (`Sweep._keyed`)."""
    if s.topology.kind != "e-base":
        raise ScenarioError(FLOWS, f"the flows axis spreads flows over E-base's edges; topology.kind is "
                                   f"{s.topology.kind}")
    edges = s.topology.edges
    if flows % edges:
        raise ScenarioError(FLOWS, f"{shown(flows)} flows cannot be spread evenly over {edges} edges")
    return apply_overrides(s, [f"topology.hosts_per_edge={flows // edges}"], engine=False)

