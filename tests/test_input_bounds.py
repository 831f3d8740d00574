"""The Python API and the front's messages and files held to what they can mean and what fits (issue 33):
a number of threads that is none is refused, a scenario's lists change only by validated assignment,
errors show names safely and briefly, user-named files are read within a bound, and an error in a
trace file does not show the file's text."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import pacesim
from pacesim import ScenarioError
from pacesim.analysis.models import MAX_CSV_COLUMNS, read_csv
from pacesim.fields import FrozenList
from pacesim.messages import printable
from pacesim.sweep import load_sweep

TINY = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=2s", "warmup=1s", 'traffic.start=["0s", "0.5s"]']


@pytest.mark.parametrize("threads", [0, -1, -(2**70), True, 1.0, "2"])
def test_the_api_refuses_a_number_of_threads_that_is_none(threads):
    # threads=0 once ran; -1 raised a raw OverflowError.
    with pytest.raises(ScenarioError, match="^threads: .* is not a number of threads") as e:
        pacesim.run("e-base", set=TINY, threads=threads)
    assert e.value.field == "threads"


def test_more_threads_run_as_two():
    two, many = (pacesim.run("e-base", set=TINY, threads=t).report for t in (2, 2**70))  # once an OverflowError
    for r in (two, many):
        r.pop("work")
    assert two == many


def test_a_scenarios_lists_change_only_by_validated_assignment():
    s = pacesim.load_scenario("a-video")
    source = s.traffic.udp[0]
    for change in (lambda: s.traffic.udp.append(source), lambda: s.traffic.udp.extend([source]),
                   lambda: s.traffic.udp.insert(0, source), lambda: s.traffic.udp.__setitem__(0, source),
                   lambda: s.traffic.udp.__delitem__(0), lambda: s.traffic.udp.clear(), lambda: s.traffic.udp.pop()):
        with pytest.raises(TypeError, match="is not changed in place, which would skip its validation"):
            change()
    with pytest.raises(TypeError):
        s.traffic.udp += [source]
    assert len(s.traffic.udp) == 1 and isinstance(s.pacing.links or FrozenList(), list)
    s.traffic.udp = [*s.traffic.udp, source]  # validated, and frozen again
    assert isinstance(s.traffic.udp, FrozenList) and len(s.traffic.udp) == 2
    # The message names the list changed (once it named traffic.udp whichever it was: issue 33 review).
    g = pacesim.load_scenario("graph-square")
    with pytest.raises(TypeError, match=r"a scenario's list \(flows\) is not changed in place"):
        g.topology.flows.append(g.topology.flows[0])
    with pytest.raises(ValueError, match="kind"):
        s.traffic.udp = [{"kind": "none of them"}]
    engine = json.loads(json.dumps(s.to_engine()))
    assert engine["traffic"]["udp"][1] == engine["traffic"]["udp"][0]


def test_an_error_prints_a_long_or_escaping_key_safely():
    # A 40,000-character key once took 23 s to print (rich wraps a long run of characters in quadratic
    # time); an escape sequence in a key reached the terminal.
    key = "a" * 40_000
    with pytest.raises(ScenarioError) as e:
        pacesim.apply_overrides(pacesim.Scenario(), [f"{key}=1"])
    assert e.value.field == key and len(str(e.value)) < 3000 and "a... (40,001 characters) unknown key" in str(e.value)
    with pytest.raises(ScenarioError) as e:
        pacesim.apply_overrides(pacesim.Scenario(), ["core.\x1b[2J\x1b]0;x\x07\rbuffer\u202e=1"])
    assert str(e.value).startswith(r"core.\x1b[2J\x1b]0;x\x07\rbuffer\u202e: ")
    assert not any(c in str(e.value) for c in "\x1b\x07\r\u202e")
    assert printable("tab\tand\nnewline stay") == "tab\tand\nnewline stay"


def test_files_past_their_bound_are_refused_naming_them(tmp_path):
    # /dev/zero as a sweep file once read until memory ran out; a FIFO waited for a writer and /dev/null ran as an
    # empty sweep (issue 33's fifth review), while `run` said "no such file" of each: all are refused, named.
    os.mkfifo(tmp_path / "pipe")
    for path, kind in [("/dev/zero", "a device"), ("/dev/null", "a device"), (tmp_path / "pipe", "a FIFO"),
                       (tmp_path, "a directory")]:
        for read in (load_sweep, pacesim.load_scenario):
            with pytest.raises(ScenarioError, match=f"^{path}: is {kind}, not a regular file$"):
                read(path)
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:
        f.truncate(10**9)  # sparse: a gigabyte of zeros that takes no disk
    with pytest.raises(ScenarioError, match=f"^{big}: holds 1,000,000,000 bytes; a scenario or sweep file is at most 16MB"):
        pacesim.load_scenario(big)
    trace = tmp_path / "big.txt"
    with open(trace, "wb") as f:
        f.truncate(257 * 10**6)
    with pytest.raises(ScenarioError, match=r"traffic.udp\[0\].trace.file: .*holds 257,000,000 bytes; a trace file is "
                                            r"at most 256 MB") as e:
        pacesim.apply_overrides(pacesim.load_scenario("a-video"), [f'traffic.udp[0].trace.file="{trace}"'])
    assert e.value.field == "traffic.udp[0].trace.file"
    # A device as a trace file was "no trace file /dev/zero", though it is there.
    with pytest.raises(ScenarioError, match=r"^traffic.udp\[0\].trace.file: /dev/zero: not a regular file"):
        pacesim.apply_overrides(pacesim.load_scenario("a-video"), ['traffic.udp[0].trace.file="/dev/zero"'])
    with pytest.raises(ScenarioError, match="^/dev/zero: is a device, not a regular file$"):
        read_csv(Path("/dev/zero"), "an overlay")
    csv = tmp_path / "big.csv"
    with open(csv, "wb") as f:
        f.truncate(64 * 10**6 + 1)
    with pytest.raises(ScenarioError, match=f"^{csv}: holds 64,000,001 bytes; an overlay CSV is at most 64MB$"):
        read_csv(csv, "an overlay")


def test_a_csv_of_points_wider_than_its_bound_is_refused_before_pandas_reads_it(tmp_path):
    # Issue 33 (review 33c): a 10 MB overlay of a million columns ended `model --overlay` in a MemoryError after
    # 80 s. The header's columns are counted from its text first, blank lines before it skipped as pandas does.
    def csv(name: str, header: str) -> Path:
        (tmp_path / name).write_text(f"\n \r\n{header}\n{','.join(['1'] * (header.count(',') + 1))}\n")
        return tmp_path / name

    names = ",".join(f"c{i}" for i in range(MAX_CSV_COLUMNS))
    assert read_csv(csv("widest.csv", names), "an overlay").shape == (1, MAX_CSV_COLUMNS)
    for header in (names + ",more", names.replace("c1,", '"c,1",', 1)):
        with pytest.raises(ValueError, match=f"^--overlay wide: its header has {MAX_CSV_COLUMNS + 1:,} columns "
                                             r"\(a comma in a quoted name counted too\); an overlay CSV has at most 1,000$"):
            read_csv(csv("wide.csv", header), "an overlay", "--overlay wide")
    with pytest.raises(ValueError, match="^--overlay open: not a CSV of points \\(a quoted column name in its header "
                                         "runs past its line\\)$"):
        read_csv(csv("open.csv", '"a\n' + names), "an overlay", "--overlay open")
    # review 33d (D5): a one-column header over a row of a million fields ran pandas to 1.26 GB (the fields
    # past the header become index levels); every row is held to the bound, not the header alone
    (tmp_path / "row.csv").write_text("a\n" + ",".join(["1"] * (MAX_CSV_COLUMNS + 1)) + "\n")
    with pytest.raises(ValueError, match=f"^--overlay row: a row has {MAX_CSV_COLUMNS + 1:,} fields "):
        read_csv(tmp_path / "row.csv", "an overlay", "--overlay row")


def test_a_trace_file_error_does_not_show_the_files_text(tmp_path):
    # Any readable file named as a trace once had its first field shown in the error.
    secret = tmp_path / "secret"
    secret.write_text("1 0.0 I hunter2-secret\n")
    base = pacesim.load_scenario("a-video")
    s = pacesim.apply_overrides(base, [f'traffic.udp[0].trace.file="{secret}"', "duration=1s", "warmup=0s",
                                       'traffic.start=["0s", "0s"]', "topology.tcp_hosts=1"])
    with pytest.raises(ScenarioError) as e:
        pacesim.run(s, threads=1)
    assert e.value.field == "traffic.udp[0].trace.file"
    assert "hunter2" not in str(e.value) and str(e.value).endswith("line 1: frame size is not a whole number")


def test_a_scenario_error_crosses_a_process_boundary_as_itself():
    """A ScenarioError raised in a sweep's worker process is pickled back to the parent: it pickled its one
    joined text, which `__init__` (field, message) cannot take, so the parent saw a BrokenProcessPool instead
    of the error (issue 32's helper, a stale wheel's refusal in a pool worker)."""
    import pickle

    from pacesim.fields import ScenarioError

    e = pickle.loads(pickle.dumps(ScenarioError("core.buffer", "must be at least 1 B, got 0 B")))
    assert isinstance(e, ScenarioError) and (e.field, e.message) == ("core.buffer", "must be at least 1 B, got 0 B")
    assert str(e) == "core.buffer: must be at least 1 B, got 0 B"


@pytest.mark.parametrize("key, bad, field, why", [
    ("sizes", 1, "traffic.udp[0].sizes", "size 1 has no unit"),
    ("links", 1, "trace.links", "Input should be a valid string"),
])
def test_a_list_of_many_bad_elements_gives_a_short_error_naming_it_and_counting_them(key, bad, field, why):
    # Review 33e D4: every bad element gave its own error, each kept and printed: 8 million unitless sizes grew
    # to 3.8 GB and aborted, 250,000 gave a 28 MB message. Now the first three are named, the rest counted.
    from pacesim.scenario import parse_scenario

    data = {"topology": {"kind": "a-base", "tcp_hosts": 0}, "core": {"rate": "100Mbps", "delay": "1ms",
            "buffer": "100KB"}, "traffic": {"udp": [{"kind": "cbr", "rate": "1Mbps", "size": "100B"}]}}
    n = 250_000
    if key == "sizes":
        del data["traffic"]["udp"][0]["size"]
        data["traffic"]["udp"][0]["sizes"] = [bad] * n
    else:
        data["trace"] = {"links": [bad] * n}
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, engine=False)
    text = str(e.value)
    assert len(text) < 1000
    assert e.value.field == f"{field}[0]"
    assert [f"{field}[{i}]: {why}" in text for i in range(4)] == [True, True, True, False]
    assert f"{field}: and 97 more of its first 100 elements are wrong; its {n - 100:,} elements after the " \
        "first 100 are not checked" in text


def test_a_range_given_many_values_is_refused_briefly_counting_them():
    # Review 33e D4's kind: a range (`traffic.start`) given a list of 250,000 values echoed the whole list.
    from pacesim.scenario import parse_scenario

    data = {"topology": {"kind": "a-base", "tcp_hosts": 0}, "core": {"rate": "100Mbps", "delay": "1ms",
            "buffer": "100KB"}, "traffic": {"start": ["0s"] * 250_000}}
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, engine=False)
    assert str(e.value) == "traffic.start: expected one value or a [low, high] pair, got a list of 250,000 values"
    data["traffic"]["start"] = ["0s", "1s", "2s"]
    with pytest.raises(ScenarioError, match=r"pair, got a list of 3 values$"):
        parse_scenario(data, engine=False)
