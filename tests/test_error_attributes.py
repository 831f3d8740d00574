"""A refusal is structured across the binding and the front (issue 36): `field` (the dotted path of the key at
fault, or the file), `value` (the value given there) and `message`, each read as an attribute, never parsed back
from the error's text. Expectations are written out by hand from the scenario each case gives."""

from __future__ import annotations

import json
import pickle

import pytest

from pacesim import Scenario, ScenarioError, _core, apply_overrides, load_scenario

TINY = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=5s", "warmup=1s", 'traffic.start=["0s", "1s"]']


def _refusal(error: ScenarioError) -> tuple:
    return error.field, error.value, error.message


def _set(overrides: list[str]) -> tuple:
    with pytest.raises(ScenarioError) as e:
        apply_overrides(Scenario(), TINY + overrides)
    assert str(e.value) == f"{e.value.field}: {e.value.message}"
    return _refusal(e.value)


def _file(tmp_path, text: str) -> tuple:
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    return _refusal(e.value)


def test_a_bad_choice_names_its_key_and_the_value_as_written(tmp_path):
    expected = ("pacing.scheme", "sideways", "'sideways' is not valid; expected 'none', 'host', 'edge' or 'qlbp'")
    assert _set(["pacing.scheme=sideways"]) == expected
    assert _file(tmp_path, '[pacing]\nscheme = "sideways"\n') == expected


def test_a_number_out_of_range_names_its_key_and_value():
    assert _set(["pacing.fraction=1.5"]) == (
        "pacing.fraction", 1.5, "Input should be less than or equal to 1 (got 1.5)")
    assert _set(["core.buffer=-5KB"]) == ("core.buffer", "-5KB", "invalid size '-5KB': must not be negative")


def test_an_unknown_key_is_named_with_the_value_given_it(tmp_path):
    message = ("unknown key 'bufer'; valid keys at core: rate, delay, buffer, buffer_packets, queue, red, droptail, "
               "codel, fq_codel, pie")
    assert _set(["core.bufer=5KB"]) == ("core.bufer", "5KB", message)
    assert _file(tmp_path, '[core]\nbufer = "5KB"\n') == ("core.bufer", "5KB", message)


def test_a_cross_key_rule_of_the_engine_gives_the_value_as_written_or_else_the_engines(tmp_path):
    # warmup 400 s given, duration 100 s: the engine's rule (Scenario::validate), its value as the scenario wrote it.
    assert _set(["duration=100s", "warmup=400s"]) == (
        "warmup", "400s", "400s must be before the end of the run (duration 100s)")
    # min_rto left at its default (200 ms) past a max_rto of 100 ms: an override applies to the scenario as the
    # front writes it, defaults included; a file that leaves it out gives the engine's value, ns.
    message = "200ms must not exceed tcp.max_rto (100ms)"
    assert _set(["tcp.max_rto=100ms"]) == ("tcp.min_rto", "200ms", message)
    assert _file(tmp_path, '[tcp]\nmax_rto = "100ms"\n') == ("tcp.min_rto", 200_000_000, message)


def test_a_toml_syntax_error_names_the_file_and_no_value(tmp_path):
    assert _file(tmp_path, "duration = \n") == (
        str(tmp_path / "s.toml"), None, "not valid TOML: Invalid value (at line 1, column 12)")


def _engine(edit) -> ValueError:
    """The binding's refusal of the tiny scenario's engine JSON, edited past the front."""
    data = apply_overrides(Scenario(), TINY).to_engine()
    edit(data)
    with pytest.raises(ValueError) as e:
        _core.validate_json(json.dumps(data))
    assert str(e.value) == f"{e.value.field}: {e.value.message}"
    return e.value


@pytest.mark.parametrize("edit, field, value, message", [
    # A cross-key rule: the value SI as the engine reads it, the message in the units a scenario writes.
    (lambda d: d.update(warmup=6_000_000_000), "warmup", 6_000_000_000,
     "6s must be before the end of the run (duration 5s)"),
    # A bound of the schema.
    (lambda d: d["pacing"].update(fraction=1.5), "pacing.fraction", 1.5, "1.5 must be at most 1.0"),
    # A bad choice.
    (lambda d: d["core"].update(queue="lifo"), "core.queue", "lifo", None),
    # An unknown key, with the value given it.
    (lambda d: d.update(bogus=1), "bogus", 1, None),
])
def test_the_binding_gives_field_value_and_message(edit, field, value, message):
    error = _engine(edit)
    assert (error.field, error.value) == (field, value)
    if message is not None:
        assert error.message == message


def test_a_scenario_that_is_no_table_is_named_with_no_value():
    with pytest.raises(ValueError) as e:
        _core.validate_json("[]")
    assert (e.value.field, e.value.value, e.value.message) == (
        "scenario", None, "invalid type: sequence, expected a map")


def test_a_refusal_pickles_with_its_value():
    error = ScenarioError("core.buffer", "invalid size '-5KB': must not be negative", "-5KB")
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), _refusal(back), str(back)) == (ScenarioError, _refusal(error), str(error))
