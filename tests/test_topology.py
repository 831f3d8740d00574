"""Topologies: the named builders' shapes and RTTs, routes on hand-drawn
graphs (ties included), errors naming the offender, scenario files that
round-trip, and E-base written out as a general graph running identically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pacesim
from pacesim.cli import app
from pacesim.scenario import ScenarioError, apply_overrides, load_scenario, parse_scenario
from pacesim.topology import describe

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def named(kind: str, *overrides: str) -> pacesim.Scenario:
    return apply_overrides(pacesim.Scenario(), [f"topology.kind={kind}", *overrides])


def rtts(d: dict) -> tuple:
    values = [r["base_rtt_ms"] for r in d["routes"]]
    return min(values), max(values), sum(values) / len(values)


@pytest.mark.parametrize(
    "kind, routers, hosts, halves, flows, rtt_lo, rtt_hi",
    [
        # Paper E Sec 3.1: RTT 224-280 ms of propagation, plus under 3 ms of serialisation.
        ("e-base", 22, 2000, 2 * (1 + 20 + 2000), 1000, 224, 283),
        # Paper A Sec II: 102-150 ms, plus 1.7 ms serialisation on 10 Mb/s access links.
        ("a-base", 2, 2002, 2 * (1 + 2002), 1000, 102, 152),
        # Paper Q Sec IV-D: "about 100 ms" (2 (h + 40 + h') ms, h, h' in [1, 10] ms).
        ("q-dumbbell", 6, 50, 2 * 55, 40, 84, 121),
        # Paper W: one RTT for all, 120 ms of propagation.
        ("w-dumbbell", 2, 34, 2 * (1 + 34), 16, 120, 120.2),
    ],
)
def test_named_builders_have_their_papers_shape_and_rtts(kind, routers, hosts, halves, flows, rtt_lo, rtt_hi):
    d = describe(named(kind), examples=flows)
    assert (len(d["routers"]), len(d["hosts"]), len(d["links"]), d["flows"]) == (routers, hosts, halves, flows)
    lo, hi, _ = rtts(d)
    assert rtt_lo <= lo and hi <= rtt_hi, (lo, hi)
    assert d["core"] == "core"


def test_q_dumbbell_rtts_average_about_100_ms_and_its_access_links_carry_the_pacers():
    d = describe(named("q-dumbbell", "pacing.scheme=qlbp"), examples=40)
    assert abs(rtts(d)[2] - 100) < 8
    paced = {l["name"] for l in d["links"] if l["pacer"]}
    assert paced == {f"access.{j}" for j in range(4)}
    assert {l["buffer_packets"] for l in d["links"] if l["name"] in paced} == {2000}


def test_q_line_and_tandem_pace_the_links_leaving_pacer_nodes():
    line = describe(named("q-line", "pacing.scheme=qlbp"), examples=0)
    assert [(l["from"], l["to"]) for l in line["links"] if l["pacer"]] == [("n1", "n2")]
    tandem = describe(named("q-tandem", "topology.pacers=3", "pacing.scheme=qlbp"), examples=0)
    assert [(l["from"], l["to"]) for l in tandem["links"] if l["pacer"]] == [("p1", "p2"), ("p2", "p3"), ("p3", "dst")]
    assert {l["rate_bps"] for l in tandem["links"]} == {10_000_000}


def graph_scenario(links: list, flows: list, **core) -> dict:
    nodes = sorted({n for l in links for n in (l["from"], l["to"]) if not n.startswith("h")})
    hosts = sorted({n for l in links for n in (l["from"], l["to"]) if n.startswith("h")})
    return {
        "duration": "20s", "warmup": "5s",
        "topology": {"kind": "graph", "nodes": nodes, "hosts": hosts, "links": links, "flows": flows},
        "core": {"rate": "5Mbps", "delay": "10ms", "buffer": "5KB", **core},
    }


def link(a: str, b: str, **kw) -> dict:
    return {"from": a, "to": b, "rate": "10Mbps", "delay": "1ms", **kw}


# A square a-b-c-d-a with the core on b-c: two 3-hop ways from h1 (on a) to h2 (on c).
SQUARE = [link("h1", "a"), link("a", "b"), {"from": "b", "to": "c", "core": True}, link("a", "d"), link("d", "c"),
          link("c", "h2")]


def test_routes_take_shortest_paths_and_ties_go_to_the_first_declared_link():
    d = describe(parse_scenario(graph_scenario(SQUARE, [{"from": "h1", "to": "h2"}])), examples=1)
    (r,) = d["routes"]
    assert r["data"] == ["h1-a", "a-b", "core", "c-h2"]
    assert r["acks"] == ["h2-c", "core.rev", "b-a", "a-h1"]
    # Declare a-d first and the tie goes the other way (off the core).
    flipped = [SQUARE[0], SQUARE[3], SQUARE[4], SQUARE[1], SQUARE[2], SQUARE[5]]
    d = describe(parse_scenario(graph_scenario(flipped, [{"from": "h1", "to": "h2"}])), examples=1)
    assert d["routes"][0]["data"] == ["h1-a", "a-d", "d-c", "c-h2"]
    # A chord a-c makes the path two hops shorter.
    chord = SQUARE + [link("a", "c")]
    d = describe(parse_scenario(graph_scenario(chord, [{"from": "h1", "to": "h2"}])), examples=1)
    assert d["routes"][0]["data"] == ["h1-a", "a-c", "c-h2"]
    # Three 10 Mb/s, 1 ms hops each way: 3 (1 + 0.832) ms out (1040 B), 3 (1 + 0.032) ms back (40 B).
    assert d["routes"][0]["base_rtt_ms"] == pytest.approx(3 * 1.832 + 3 * 1.032)


@pytest.mark.parametrize(
    "change, field, words",
    [
        (lambda s: s["topology"]["hosts"].append("h1"), "topology.hosts[2]", "duplicate name"),
        (lambda s: s["topology"]["links"][5].update(to="h9"), "topology.links[5].to", '"h9"'),
        (lambda s: s["topology"]["links"][1].update(rate="0Mbps"), "topology.links[1].rate", "greater than zero"),
        (lambda s: s["topology"]["links"][3].update(forward={"name": "a-b"}), "topology.links[3].forward.name",
         'duplicate link name "a-b"'),
        (lambda s: s["topology"]["links"][2].update(core=False), "topology.links", "exactly one link"),
        (lambda s: s["topology"]["links"][2].update(rate="1Mbps"), "topology.links[2].rate", "from [core]"),
        (lambda s: s["topology"]["links"][1].pop("rate"), "topology.links[1].rate", "required"),
        # Issue 33: the core's halves are "core" and "core.rev", the names [burstiness], --trace and the summary
        # read; another link so named was measured as if it were the core.
        (lambda s: s["topology"]["links"][2].update(forward={"name": "bc"}), "topology.links[2].forward.name",
         'named "core"'),
        (lambda s: s["topology"]["links"][2].update(reverse={"name": "cb"}), "topology.links[2].reverse.name",
         'named "core.rev"'),
        (lambda s: s["topology"]["links"][1].update(forward={"name": "core"}), "topology.links[1].forward.name",
         "core = true"),
        (lambda s: s["topology"]["links"][4].update(reverse={"name": "core.rev"}), "topology.links[4].reverse.name",
         "core = true"),
        (lambda s: s["topology"]["flows"].append({"from": "h1", "to": "a"}), "topology.flows[1].to", "router"),
        (lambda s: (s["topology"]["hosts"].append("h3"), s["topology"]["flows"].append({"from": "h1", "to": "h3"})),
         "topology.flows[1]", 'no route from "h1" to "h3"'),
        # Issue 33 (review 33c): an empty name passed (nothing could name the half or node), and so did a UDP
        # source from or to a router, which neither sends nor receives.
        (lambda s: s["topology"]["links"][1].update(forward={"name": ""}), "topology.links[1].forward.name",
         "an empty name"),
        (lambda s: s["topology"]["links"][3].update(reverse={"name": ""}), "topology.links[3].reverse.name",
         'an empty name (reports, pacing.links and [series] name a half by it); leave it out for "d-a"'),
        (lambda s: s["topology"]["hosts"].append(""), "topology.hosts[2]", "an empty name"),
        (lambda s: s["topology"]["nodes"].insert(0, ""), "topology.nodes[0]", "an empty name"),
        # Review 33d: a name of only whitespace, or with whitespace at an end, passed as "" no longer did (what
        # names it must repeat what cannot be seen, and a shell or an editor drops it).
        (lambda s: s["topology"]["links"][1].update(forward={"name": "   "}), "topology.links[1].forward.name",
         'a name of only whitespace, "   " (reports, pacing.links and [series] name a half by it); leave it out '
         'for "a-b"'),
        (lambda s: s["topology"]["links"][1].update(forward={"name": " ab"}), "topology.links[1].forward.name",
         'whitespace at an end of the name " ab"'),
        (lambda s: s["topology"]["links"][3].update(reverse={"name": "da\t"}), "topology.links[3].reverse.name",
         'whitespace at an end of the name "da\\t"'),
        (lambda s: s["topology"]["nodes"].insert(0, " "), "topology.nodes[0]",
         'a name of only whitespace, " " (links and flows name it)'),
        (lambda s: s["topology"]["hosts"].append("h3 "), "topology.hosts[2]", 'whitespace at an end of the name "h3 "'),
        (lambda s: s["topology"]["nodes"].append("\u00a0e"), "topology.nodes[4]", "whitespace at an end of the name"),
        # Review 33e: a control or format character (Cc, Cf), which shows as nothing, passed at an end or alone.
        (lambda s: s["topology"]["nodes"].append("e\u200b"), "topology.nodes[4]",
         'an invisible character, U+200B, in the name "e\\u{200b}"'),
        (lambda s: s["topology"]["nodes"].append("\ufeff"), "topology.nodes[4]", "an invisible character, U+FEFF"),
        (lambda s: s["topology"]["hosts"].append("h\u00ad3"), "topology.hosts[2]", "an invisible character, U+00AD"),
        (lambda s: s["topology"]["hosts"].append("h3\x00"), "topology.hosts[2]", "an invisible character, U+0000"),
        (lambda s: s["topology"]["links"][1].update(forward={"name": "a\u2060b"}), "topology.links[1].forward.name",
         "an invisible character, U+2060"),
        (lambda s: s["topology"]["links"][3].update(reverse={"name": "d\u180ea"}), "topology.links[3].reverse.name",
         "an invisible character, U+180E"),
        (lambda s: s["topology"]["nodes"].append("e\u200e"), "topology.nodes[4]", "an invisible character, U+200E"),
        (lambda s: s.update(traffic={"udp": [{"kind": "cbr", "rate": "1Mbps", "size": "1KB", "from": "a", "to": "h2"}]}),
         "traffic.udp[0].from", '"a" is a router, not a host'),
        (lambda s: s.update(traffic={"udp": [{"kind": "cbr", "rate": "1Mbps", "size": "1KB", "from": "h1", "to": "c"}]}),
         "traffic.udp[0].to", '"c" is a router, not a host'),
        (lambda s: s.update(traffic={"udp": [{"kind": "cbr", "rate": "1Mbps", "size": "1KB", "from": "h9", "to": "h2"}]}),
         "traffic.udp[0].from", 'no host named "h9"'),
    ],
)
def test_bad_graphs_name_the_offender(change, field, words):
    s = graph_scenario(json.loads(json.dumps(SQUARE)), [{"from": "h1", "to": "h2"}])
    change(s)
    with pytest.raises(ScenarioError) as e:
        describe(parse_scenario(s))
    assert e.value.field == field and words in e.value.message, str(e.value)
    with pytest.raises(ScenarioError) as run_error:
        pacesim.run(parse_scenario(s))
    assert run_error.value.field == field


def test_the_defaults_that_read_the_core_by_name_find_a_graphs_core(tmp_path):
    # Issue 33: [burstiness] and --trace default to the link "core"; a graph's core was named "b-c", so both
    # failed, and the summary's core was not the link named "core".
    s = graph_scenario(SQUARE, [{"from": "h1", "to": "h2"}], buffer="100KB")
    s["burstiness"] = {}
    r = pacesim.run(parse_scenario(s), trace=tmp_path / "core.tr").report
    assert r["burstiness"]["link"] == "core" and r["links"]["core"]["departures"] > 100
    assert r["summary"]["aggregate_mbps"] == r["links"]["core"]["throughput_mbps"]
    assert (tmp_path / "core.tr").read_text().count("\n") > 100


def test_a_graph_needs_its_core_values_and_a_topology_without_default_pacers_needs_links():
    s = graph_scenario(SQUARE, [])
    del s["core"]["delay"]
    with pytest.raises(ScenarioError, match="core.delay"):
        parse_scenario(s)
    with pytest.raises(ScenarioError) as e:
        pacesim.run(named("w-dumbbell", "pacing.scheme=edge", "duration=1s", "warmup=0s", "traffic.start=0s"))
    assert e.value.field == "pacing.links"


@pytest.mark.parametrize("scheme", ["none", "edge"])
def test_a_paced_link_no_network_has_is_named_with_pacing_on_or_off(scheme):
    # Issue 33: with pacing off a typo in pacing.links passed, and paced nothing once a sweep turned it on.
    s = named("e-base", f"pacing.scheme={scheme}", 'pacing.links=["core", "cor"]')
    with pytest.raises(ScenarioError, match='pacing.links: no link named "cor"'):
        pacesim.topology.describe(s, 0)
    assert pacesim.topology.describe(named("e-base", f"pacing.scheme={scheme}", 'pacing.links=["core"]'), 0)["flows"]
    # A graph's typo was answered with E-base's names (edge_in.0, access.0.up), which it has none of.
    with pytest.raises(ScenarioError) as e:
        square = load_scenario(SCENARIOS / "graph-square.toml")
        pacesim.topology.describe(apply_overrides(square, [f"pacing.scheme={scheme}", 'pacing.links=["a_b"]']), 0)
    assert e.value.field == "pacing.links" and "a-b" in e.value.message and "edge_in" not in e.value.message


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("[a-z]*.toml")), ids=lambda p: p.name)
def test_scenario_files_round_trip(path, tmp_path):
    s = load_scenario(path)
    (tmp_path / "again.toml").write_text(s.to_toml())
    again = load_scenario(tmp_path / "again.toml")
    assert again == s and again.to_toml() == s.to_toml()


def test_graph_scenario_round_trips(tmp_path):
    s = parse_scenario(graph_scenario(SQUARE, [{"from": "h1", "to": "h2"}]))
    (tmp_path / "g.toml").write_text(s.to_toml())
    assert load_scenario(tmp_path / "g.toml") == s


def as_graph(s: pacesim.Scenario) -> dict:
    """E-base written out link by link as a general graph (the same names,
    rates, delays, queues and roles), from the engine's own description."""
    d = describe(s, examples=0)
    links = []
    for fwd, rev in zip(d["links"][::2], d["links"][1::2]):
        spec = {"from": fwd["from"], "to": fwd["to"]}
        if fwd["name"] == d["core"]:
            spec["core"] = True
        else:
            spec.update(rate=f"{fwd['rate_bps']}bps", delay=f"{fwd['delay_ns']}ns")
        for key, half in [("forward", fwd), ("reverse", rev)]:
            spec[key] = {"name": half["name"], "measure": half["measured"] and half["name"] != d["core"],
                         "pace": half["name"].startswith("edge_in.") and not half["name"].endswith(".rev")}
        links.append(spec)
    flows = [{"from": f"s{i}", "to": f"d{i}"} for i in range(d["flows"])]
    data = s.model_dump(mode="json", exclude_none=True, by_alias=True)
    data["topology"] = {"kind": "graph", "nodes": d["routers"], "hosts": d["hosts"], "links": links, "flows": flows}
    data["core"] = s.core_values().model_dump(mode="json", exclude_none=True)
    return data


@pytest.mark.parametrize("scheme", ["none", "edge"])
def test_e_base_written_out_as_a_graph_runs_bit_identically(scheme):
    s = apply_overrides(pacesim.Scenario(), ["topology.edges=3", "topology.hosts_per_edge=7", "duration=30s",
                                             "warmup=10s", "core.buffer=4KB", "core.rate=20Mbps",
                                             f"pacing.scheme={scheme}", "pacing.fraction=0.67"])
    g = parse_scenario(as_graph(s))
    assert g.topology.kind == "graph"
    a, b = pacesim.run(s), pacesim.run(g)
    assert a.report == b.report
    assert a.report["work"]["events"] > 10_000 and a.summary["core_loss_rate"] > 0


def test_topology_show_prints_routes_and_draws_a_png(tmp_path):
    out = CliRunner().invoke(app, ["topology", "show", str(SCENARIOS / "e-base.toml"), "--routes", "2",
                                   "--png", str(tmp_path / "t.png")], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "22 routers, 2,000 hosts, 4,042 link halves, 1,000 flows" in out.output
    assert "access.0.up > edge_in.0 > core > edge_out.0 > sink.0.in" in out.output
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    bad = CliRunner().invoke(app, ["topology", "show", str(SCENARIOS / "e-base.toml"), "--set", "topology.edges=0"])
    assert bad.exit_code == 2 and "topology.edges" in bad.output


def test_topology_show_rounds_a_drawn_rate():
    # A drawn rate was printed exactly (97530204bps) and cut by its column to "97530204b…".
    out = CliRunner().invoke(app, ["topology", "show", str(SCENARIOS / "w-dumbbell.toml"),
                                   "--set", "topology.access_rate=97530204bps"], env={"COLUMNS": "100"})
    assert out.exit_code == 0, out.output
    assert "97.53Mbps" in out.output and "97530204" not in out.output


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("[a-z]*.toml")), ids=lambda p: p.name)
def test_every_scenario_file_runs_and_its_core_carries_traffic(path):
    s = load_scenario(path)
    if any(not Path(t.vectors).is_file() for t in s.traffic.tmix):
        pytest.skip("its Tmix vectors are not here (Debian's ns2-examples installs Tmix's samples)")
    short = ["duration=3s", "warmup=1s", "traffic.start=[\"0s\", \"100ms\"]"]
    if s.topology.kind in ("e-base", "a-base"):  # 20 flows are enough here
        short.append("topology.hosts_per_edge=2" if s.topology.kind == "e-base" else "topology.tcp_hosts=20")
    r = pacesim.run(apply_overrides(s, short))
    c = r.report["conservation"]
    assert c["created"] == c["delivered"] + c["dropped"] + c["in_flight"]
    assert 0 < r.summary["aggregate_mbps"] <= s.core_values().rate / 1e6
