"""Hostile input found by issue 20, each once a panic or silent nonsense: now
an error naming the field, from Python's checks and from the engine's own
(scenarios handed to it as JSON, past Python)."""

from __future__ import annotations

import json

import pytest

import pacesim
from pacesim import Scenario, ScenarioError, _core
from pacesim.units import MAX_TIME_NS, parse_size, parse_time

TINY = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=5s", "warmup=1s", 'traffic.start=["0s", "1s"]']
NEVER = "18446744073709551615ns"  # 2^64 - 1


def _error(overrides: list[str]) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        pacesim.run(pacesim.apply_overrides(Scenario(), TINY + overrides))
    return e.value


@pytest.mark.parametrize("overrides, field", [
    (["core.queue=red", "core.red.w_q=true"], "core.red.w_q"),
    (["core.queue=red", 'core.red.w_q="0.5"'], "core.red.w_q"),
    (["core.queue=red", 'core.red.max_p="0.1"'], "core.red.max_p"),
    (["pacing.fraction=true"], "pacing.fraction"),
    (['tcp.window="1000"'], "tcp.window"),
    (["tcp.window=true"], "tcp.window"),
    (["seed=1.0"], "seed"),
    (["traffic.short={shape=true}"], "traffic.short.shape"),
])
def test_booleans_and_strings_are_not_numbers(overrides, field):
    assert _error(overrides).field == field


@pytest.mark.parametrize("text", ["\u0665KB", "1\u0660KB", "\uff15KB", "5\u2003KB"])
def test_unit_quantities_take_ascii_digits_only(text):
    with pytest.raises(ValueError):
        parse_size(text)
    assert _error([f'core.buffer="{text}"']).field == "core.buffer"


@pytest.mark.parametrize("key", [
    "tcp.tick", "tcp.initial_rto", "tcp.delayed_ack", "core.delay", "pacing.delay", "duration",
    "topology.edge_delay", "topology.access_delay",
])
def test_times_past_the_engines_clock_are_refused(key):
    assert _error([f'{key}="{NEVER}"']).field == key
    assert parse_time(f"{MAX_TIME_NS}ns") == MAX_TIME_NS
    with pytest.raises(ValueError, match="more than the engine allows"):
        parse_time(f"{MAX_TIME_NS + 1}ns")


def _engine(edit) -> str:
    """The field the engine's error names for the tiny scenario as JSON, edited past Python."""
    data = pacesim.apply_overrides(Scenario(), TINY).to_engine()
    edit(data)
    with pytest.raises(ValueError) as e:
        _core.run_json(json.dumps(data), None, 1)
    return e.value.field


def test_the_engine_refuses_what_python_would_have():
    def tcp(**values):
        return lambda d: d["tcp"].update(values)

    assert _engine(tcp(segment_size=2**32)) == "tcp.segment_size"
    assert _engine(tcp(header_size=2**32)) == "tcp.header_size"
    assert _engine(tcp(ack_size=2**32)) == "tcp.ack_size"
    assert _engine(tcp(min_rto=2**64 - 1, max_rto=2**64 - 1)) == "tcp.min_rto"
    assert _engine(tcp(tick=2**63)) == "tcp.tick"
    assert _engine(lambda d: d["core"].update(queue="red", red={"mean_packet": 2**32})) == "core.red.mean_packet"
    assert _engine(lambda d: d["topology"].update(edge_delay=[2**62, 2**62])) == "topology.edge_delay[0]"  # once only "topology"


def test_a_segment_that_fits_no_packet_is_refused():
    # Once run with 40 B packets (2^32 + 40 cast to u32), reporting Tb/s of goodput.
    assert _error(['tcp.segment_size="4294967296B"']).field == "tcp.segment_size"
    assert _error(['tcp.segment_size="65496B"']).field == "tcp.segment_size"  # with its 40 B header: 65536
    assert pacesim.run(pacesim.apply_overrides(Scenario(), TINY + ['tcp.segment_size="65495B"']))


def test_a_udp_source_sending_to_itself_is_refused():
    e = _error(["topology.udp={}",
                'traffic.udp=[{kind="cbr", rate="1Mbps", size="200B", from="s-udp", to="s-udp"}]'])
    assert e.field == "traffic.udp[0].to"


def test_a_tmix_cloud_with_one_host_at_both_ends_is_refused(tmp_path):
    # Review 33d (D6): the engine panicked (index out of bounds, a route of no link) where UDP was refused.
    vectors = tmp_path / "one.cvec"
    vectors.write_text("S 1000 1 2 7\nr 20000\nl 0.1 0.2\nI 0 0 1460\nA 0 5 2921\n")
    e = _error([f'traffic.tmix=[{{vectors="{vectors}", initiator="s0", acceptor="s0"}}]'])
    assert e.field == "traffic.tmix[0].acceptor" and "initiating host" in e.message


def test_qlbp_rule_of_thumb_at_extremes_is_refused():
    e = _error(["pacing.scheme=qlbp", "pacing.utilization=1e-12", 'pacing.max_delay="1000000s"'])
    assert e.field == "pacing.max_delay" and "edge_in." in e.message


# --- files and overrides that once gave a traceback (issue 20) ---

from pacesim.scenario import load_scenario  # noqa: E402
from pacesim.sweep import Sweep, SweepError, load_sweep  # noqa: E402


def _file_error(tmp_path, content: bytes, loader=load_scenario) -> ScenarioError:
    path = tmp_path / "case.toml"
    path.write_bytes(content)
    with pytest.raises(ScenarioError) as e:
        loader(path)
    assert e.value.field == str(path)
    return e.value


def test_a_file_that_is_not_utf8_is_named(tmp_path):
    e = _file_error(tmp_path, 'duration = "1\xb5s"\n'.encode("latin-1"))
    assert "not UTF-8" in e.message and "0xb5 at offset 13" in e.message
    assert "not UTF-8" in _file_error(tmp_path, b"name = '\xff'\n", load_sweep).message


def test_a_number_past_pythons_digit_limit_is_named(tmp_path):
    assert "too long" in _file_error(tmp_path, b"seed = " + b"9" * 5000 + b"\n").message
    assert "too long" in _file_error(tmp_path, b"seeds = [" + b"9" * 4301 + b"]\n", load_sweep).message
    e = _error(["seed=" + "9" * 5000])
    assert e.field == "seed"
    assert _error([f"tcp.window={10**300}"]).field == "tcp.window"


def test_deep_nesting_is_named(tmp_path):
    assert "nested too deeply" in _file_error(tmp_path, b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n").message
    assert "nested too deeply" in _file_error(tmp_path, b"x = " + b"{a=" * 5000 + b"1" + b"}" * 5000, load_sweep).message
    assert _error(["seed=" + "[" * 5000 + "]" * 5000]).field == "seed"


@pytest.mark.parametrize("value", ["[]", "3", '"e-base"', "true"])
def test_a_topology_that_is_not_a_table_is_named(tmp_path, value):
    path = tmp_path / "case.toml"
    path.write_text(f"topology = {value}\n")
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert e.value.field == "topology" and "expected a table" in e.value.message
    assert _error([f"topology={value}"]).field == "topology"


def test_a_sweep_naming_a_missing_scenario_file_is_named(tmp_path):
    (tmp_path / "s.toml").write_text('name = "s"\nscenario = "missing.toml"\n')
    with pytest.raises(SweepError) as e:
        load_sweep(tmp_path / "s.toml")
    assert str(e.value).startswith(f"{tmp_path / 's.toml'}: scenario: no file {tmp_path / 'missing.toml'}, and no "
                                   "packaged scenario named 'missing.toml' (a-base, ")


@pytest.mark.parametrize("name", ["e-base", "e-base.toml", "a-base"])
def test_a_sweep_takes_a_packaged_scenario_by_name_from_any_directory(tmp_path, name):
    """Issue 34 review: `scenario = "e-base.toml"` worked only beside scenarios/e-base.toml; the names
    `pacesim run` takes are packaged scenarios wherever the sweep file is."""
    (tmp_path / "s.toml").write_text(f'name = "s"\nscenario = "{name}"\n')
    assert load_sweep(tmp_path / "s.toml").base == load_scenario(name)


def test_a_sweep_takes_a_file_beside_it_before_a_packaged_scenario_of_that_name(tmp_path):
    (tmp_path / "e-base.toml").write_text('duration = "700s"\n')  # E-base but for its length (400 s)
    (tmp_path / "s.toml").write_text('name = "s"\nscenario = "e-base.toml"\n')
    assert load_sweep(tmp_path / "s.toml").base.duration == 700 * 10**9


@pytest.mark.parametrize("scale", ["nan", "inf", "-0.5", "0", "true", '"0.1"'])
def test_a_sweep_scale_that_is_no_positive_number_is_refused(tmp_path, scale):
    for text in [f"scale = {scale}\n", f"[quick]\nscale = {scale}\n"]:
        (tmp_path / "s.toml").write_text(text)
        with pytest.raises(SweepError, match="scale"):
            load_sweep(tmp_path / "s.toml")
    if scale in ("nan", "inf", "-0.5", "0"):
        with pytest.raises(SweepError, match="scale"):
            Sweep(name="s", scale=float(scale))


@pytest.mark.parametrize("text, key", [
    ("set = [1]", "set[0]"), ("seeds = 1.5", "seeds"), ("seeds = []", "seeds"), ("seeds = [-1]", "seeds[0]"),
    ("axes = [1]", "axes"), ('axes = { "core.buffer" = [] }', "axes.core.buffer"), ("variants = { a = [1] }", "variants.a[0]"),
    ("quick = 3", "quick"), ("quick = { sets = [] }", "quick.sets"), ('name = ""', "name"), ("colour = 1", "colour"),
])
def test_sweep_keys_of_the_wrong_type_are_named(tmp_path, text, key):
    (tmp_path / "s.toml").write_text(text + "\n")
    with pytest.raises(SweepError) as e:
        load_sweep(tmp_path / "s.toml")
    assert str(e.value).startswith(f"{tmp_path / 's.toml'}: {key}: ")


def test_integers_past_the_engines_types_are_named_not_a_json_position():
    graph = ['topology={kind="graph", nodes=["a", "b"], hosts=["h", "g"], flows=[{from="h", to="g"}], '
             'links=[{from="h", to="a", rate="99999999999999999999999Gbps"}, {from="a", to="b", core=true}, '
             '{from="b", to="g"}]}', "core.rate=1Mbps", "core.delay=1ms", "core.buffer=1KB"]
    e = _error(graph)
    assert e.field == "topology.links[0].rate" and "more than the engine can hold" in e.message
    for key, value in [("topology.edges", 2**32), ("topology.hosts_per_edge", 2**40), ("tcp.window", 2**64),
                       ("pacing.q_max", 2**32), ("core.buffer_packets", 2**32)]:
        assert _error([f"{key}={value}"]).field == key
    assert _error(['core.buffer="18446744073709551616B"']).field == "core.buffer"
    # Past Python, the engine's own error: its field and message as attributes (the front parses no text
    # back), without serde's position in the JSON the front handed it ("... at line 1 column 397" before).
    data = pacesim.apply_overrides(Scenario(), TINY).to_engine()
    data["topology"]["edges"] = 2**40
    raw = _engine_error(data)
    assert (raw.field, str(raw)) == ("topology.edges", f"topology.edges: {raw.message}")
    assert raw.message.endswith("integer `1099511627776`, expected u32"), raw.message
    e = ScenarioError.from_engine(raw)
    assert (e.field, e.message) == ("topology.edges", raw.message)


def _graph() -> dict:
    return pacesim.apply_overrides(pacesim.load_scenario("graph-square"), [
        "duration=2s", "warmup=1s", 'traffic.udp=[{kind="cbr", rate="1Mbps", size="200B", from="h1", to="h2"}]',
    ]).to_engine()


@pytest.mark.parametrize("edit, field, value", [
    (lambda d: d["topology"]["access_rate"].__setitem__(1, "12M"), "topology.access_rate[1]", 'string "12M"'),
    (lambda d: d["topology"].update(kind="e-bass"), "topology.kind", "`e-bass`"),
    (lambda d: d["topology"].update(edgs=2), "topology.edgs", "`edgs`"),
    (lambda d: d["pacing"].update(q_max=-3), "pacing.q_max", "integer `-3`"),
    (lambda d: d["pacing"].update(links=["core", 4]), "pacing.links[1]", "integer `4`"),
    (lambda d: d["tcp"].update(window=True), "tcp.window", "boolean `true`"),
    # A queue's knobs, flattened into [core] (crates/pacesim-core/src/spec/flat.rs).
    (lambda d: d["core"].update(codel={"target": "5ms"}), "core.codel.target", 'string "5ms"'),
    (lambda d: d["core"].update(pie={"t_update": 2**64}), "core.pie.t_update", "integer `18446744073709551616`"),
    (lambda d: d["core"].update(codle={}), "core.codle", "`red`, `droptail`, `codel`, `fq_codel`, `pie`"),
])
def test_engine_parse_errors_name_the_whole_path_and_the_value(edit, field, value):
    # Past Python's checks: the engine's own error, once `topology` for all
    # inside the topology table (issue 20).
    data = pacesim.apply_overrides(Scenario(), TINY).to_engine()
    edit(data)
    e = ScenarioError.from_engine(_engine_error(data))
    assert e.field == field and value in e.message and " column " not in e.message


@pytest.mark.parametrize("edit, field, value", [
    (lambda d: d["topology"]["links"][1].update(core=1), "topology.links[1].core", "integer `1`"),
    (lambda d: d["topology"]["links"][2]["forward"].update(buffer=-1), "topology.links[2].forward.buffer",
     "integer `-1`"),
    (lambda d: d["topology"]["flows"][0].update(to=7), "topology.flows[0].to", "integer `7`"),
    (lambda d: d["topology"]["links"][2]["forward"].update(fq_codel={"flows": -1}),
     "topology.links[2].forward.fq_codel.flows", "integer `-1`"),
    (lambda d: d["topology"]["links"][2]["reverse"].update(codel={"tagret": 1}),
     "topology.links[2].reverse.codel.tagret", "`target`, `interval`, `mtu`"),
    (lambda d: d["topology"]["links"][2]["reverse"].update(red={}), "topology.links[2].reverse.red",
     "`queue`, `droptail`, `codel`, `fq_codel`, `pie`, `measure`"),
    (lambda d: d["traffic"]["udp"][0].update(rate="1Mbps"), "traffic.udp[0].rate", 'string "1Mbps"'),
    # The engine names `size.range[1]`, its wire form; the front names the file's key (`fields.file_key`).
    (lambda d: d["traffic"]["udp"][0]["size"].update(range=[200, None]), "traffic.udp[0].size", "null"),
    (lambda d: d["traffic"]["udp"][0].update(size={"list": [200, None]}), "traffic.udp[0].sizes[1]", "null"),
])
def test_engine_parse_errors_in_graph_tables_and_udp_lists_name_the_path(edit, field, value):
    data = _graph()
    _core.describe_json(json.dumps(data), 0)
    edit(data)
    e = ScenarioError.from_engine(_engine_error(data))
    assert e.field == field and value in e.message, e


@pytest.mark.parametrize("name", ["a-base", "e-base", "graph-square", "q-dumbbell", "w-dumbbell"])
def test_the_topology_kind_goes_to_the_engine_first(name):
    # The engine reads a tagged table's keys after its tag; one before it
    # is named only inside the message (crates/pacesim-core/src/spec/tagged.rs).
    assert next(iter(pacesim.load_scenario(name).to_engine()["topology"])) == "kind"


def _engine_error(data: dict) -> ValueError:
    with pytest.raises(ValueError) as e:
        _core.run_json(json.dumps(data), None, 1)
    return e.value


def test_a_bad_json_path_is_refused_before_the_run(tmp_path):
    from typer.testing import CliRunner

    from pacesim.cli import app

    sets = [a for o in TINY for a in ("--set", o)]
    for target, why in [(tmp_path / "no" / "r.json", "no directory"), (tmp_path, "is a directory")]:
        out = CliRunner().invoke(app, ["run", "e-base", *sets, "--json", str(target)])
        assert out.exit_code == 2 and why in out.output and "Summary" not in out.output
    out = CliRunner().invoke(app, ["run", "e-base", *sets, "--json", str(tmp_path / "r.json")])
    assert out.exit_code == 0 and json.loads((tmp_path / "r.json").read_text())["conservation"]


KIND = "e-base, a-base, q-line"  # the start of the list of kinds an error gives
LATER = {  # overrides after one that made a table a value (or gave no kind), the field named, words of the message
    "topology.edges": (["topology=3", "topology.edges=2"], "topology is 3, not a table"),
    "topology": (["topology=1KB", "traffic.udp=[]"], "expected a table"),
    "traffic.udp[0].rate": (["traffic.udp=[1]", "traffic.udp[0].rate=1bps"], "traffic.udp[0] is 1, not a table"),
    "traffic.udp[1].rate": (["traffic.udp=3", "traffic.udp[1].rate=1bps"], "traffic.udp is a value, not a list"),
    "--set": ([""], "an override is key=value"),
    "=3": (["=3"], "an override is key=value"),
    "topology.kind": (["topology.kind=[[1]]", "topology.hosts_per_edge=3"], KIND),
}


@pytest.mark.parametrize("field", LATER)
def test_overrides_on_what_an_earlier_one_made_a_value_are_named(field):
    overrides, words = LATER[field]
    e = _error(overrides)
    assert e.field == field and words in e.message
    for kind in ["{a=1}", "3", "ring"]:
        assert KIND in _error([f"topology.kind={kind}"]).message


def test_a_flows_axis_on_a_topology_without_edges_is_a_failed_point():
    sweep = Sweep(name="s", base=pacesim.apply_overrides(Scenario(), ["topology.kind=a-base"]), axes={"flows": [100]})
    (point,) = sweep.points()
    assert point.error == ("ScenarioError: flows: the flows axis spreads flows over E-base's edges; "
                           "topology.kind is a-base")  # was "not a a-base topology" (review33h D6)


@pytest.mark.parametrize("scale", [1e300, 2.0**40])
def test_a_scale_past_what_the_engine_holds_is_a_failed_point(scale):
    (point,) = Sweep(name="s", scale=scale).points()
    assert point.error.startswith("ScenarioError: topology.hosts_per_edge: 100 x scale")  # was OverflowError


def test_a_bad_fixed_override_of_a_sweep_says_it_is_in_set():
    with pytest.raises(SweepError, match=r"^set: 3\u00a7: an override is key=value"):
        Sweep(name="s", set=["duration=10s", "3\u00a7"])


def test_sweep_errors_found_by_the_long_fuzz_run_name_their_key(tmp_path):
    # Found by bench/fuzz/hostile.py on 2026-11-24 (seeds 205 and 217): a variant's override without "=" was
    # named by its own text, and a scenario name past the file system's limit raised OSError.
    from pacesim.sweep import SweepError, load_sweep

    bad_variant = tmp_path / "v.toml"
    bad_variant.write_text('name = "v"\nseeds = [1]\n[axes]\n[variants]\n"no pacing" = ["\\u0001garbage"]\n')
    with pytest.raises(SweepError, match=r"variants.'no pacing'\[0\]: .* is not an override; an override is key=value"):
        load_sweep(bad_variant)
    long_name = tmp_path / "l.toml"
    long_name.write_text(f'name = "l"\nscenario = "{"9" * 5000}"\nseeds = [1]\n[axes]\n')
    with pytest.raises(SweepError, match=r"scenario: no file .*\(5000 characters\)"):
        load_sweep(long_name)


def test_a_link_named_twice_to_pace_is_refused():
    # Issue 33 (session 24): `pacing.links` naming a link twice got it a pacer for each name; 1.9 million names
    # of one link (a 15 MB scenario) aborted the process at 3.7 GB building them. Refused naming the second.
    with pytest.raises(ScenarioError) as e:
        pacesim.apply_overrides(pacesim.load_scenario("q-dumbbell"), ['pacing.links=["core", "core"]'])
    assert (e.value.field, e.value.message) == ("pacing.links[1]", '"core" is named twice')
