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
    return str(e.value).partition(":")[0]


def test_the_engine_refuses_what_python_would_have():
    def tcp(**values):
        return lambda d: d["tcp"].update(values)

    assert _engine(tcp(segment_size=2**32)) == "tcp.segment_size"
    assert _engine(tcp(header_size=2**32)) == "tcp.header_size"
    assert _engine(tcp(ack_size=2**32)) == "tcp.ack_size"
    assert _engine(tcp(min_rto=2**64 - 1, max_rto=2**64 - 1)) == "tcp.min_rto"
    assert _engine(tcp(tick=2**63)) == "tcp.tick"
    assert _engine(lambda d: d["core"].update(queue="red", red={"mean_packet": 2**32})) == "core.red.mean_packet"
    assert _engine(lambda d: d["topology"].update(edge_delay=[2**62, 2**62])) == "topology"


def test_a_segment_that_fits_no_packet_is_refused():
    # Once run with 40 B packets (2^32 + 40 cast to u32), reporting Tb/s of goodput.
    assert _error(['tcp.segment_size="4294967296B"']).field == "tcp.segment_size"
    assert _error(['tcp.segment_size="65496B"']).field == "tcp.segment_size"  # with its 40 B header: 65536
    assert pacesim.run(pacesim.apply_overrides(Scenario(), TINY + ['tcp.segment_size="65495B"']))


def test_a_udp_source_sending_to_itself_is_refused():
    e = _error(["topology.udp={}",
                'traffic.udp=[{kind="cbr", rate="1Mbps", size="200B", from="s-udp", to="s-udp"}]'])
    assert e.field == "traffic.udp[0].to"


def test_qlbp_rule_of_thumb_at_extremes_is_refused():
    e = _error(["pacing.scheme=qlbp", "pacing.utilization=1e-12", 'pacing.max_delay="1000000s"'])
    assert e.field == "pacing.max_delay" and "edge_in." in e.message
