"""Video trace sources from Python: the trace table's checks naming the field,
file names relative to the scenario, engine errors with the line number, and
runs that deliver the trace's mean rate."""

from pathlib import Path

import pytest

import pacesim
from pacesim import ScenarioError, load_scenario
from pacesim.scenario import parse_scenario
from pacesim.sweep import scaled

SCENARIOS = (Path(__file__).resolve().parent.parent / "scenarios").resolve()  # scenarios/ links into the package
TRACE = SCENARIOS / "traces" / "synthetic-star-wars.txt"
TIMED = {"file": str(TRACE), "columns": ["frame", "time_s", "type", "bytes"]}
FPS = 25


def scenario(trace: dict, **udp) -> dict:
    """Only the video on A-base's core (10 Mb/s, no loss), measured over 60 s:
    exactly one loop of the 60 s trace."""
    source = {"kind": "trace", "size": "200B", "trace": trace, **udp}
    return {"duration": "70s", "warmup": "10s", "topology": {"kind": "a-base", "tcp_hosts": 0},
            "core": {"rate": "10Mbps", "buffer": "1MB"}, "traffic": {"start": ["0s", "1s"], "udp": [source]}}


def frame_bytes() -> list:
    return [int(line.split()[3]) for line in TRACE.read_text().splitlines() if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("trace, udp, words", [
    ({"send": "burst"}, {}, ""),
    ({"columns": ["frame", "-", "type", "bytes"], "fps": 25}, {}, ""),
    ({}, {"kind": "cbr", "rate": "1Mbps"}, "only a trace source takes trace"),
    ({"columns": ["frame", "frame", "bytes"], "fps": 25}, {}, "frame is named twice"),
    ({"columns": ["frame", "type"], "fps": 25}, {}, "exactly one size column"),
    ({"columns": ["time_s", "time_ms", "bits"]}, {}, "at most one time column"),
    ({"fps": 25}, {}, "fps is for a trace without one"),
    ({"columns": ["bytes"]}, {}, "required: columns has no time column"),
    ({"columns": ["bytes"], "fps": 0}, {}, "greater than or equal to 0.000001"),
    ({"columns": ["frame", "size"], "fps": 25}, {}, "'size' is not valid"),
    ({"send": "trickle"}, {}, "'trickle' is not valid"),
    ({"colour": 1}, {}, "valid keys at traffic.udp[0].trace: file, columns, fps, send"),
    ({"file": "no/such/trace.txt"}, {}, "no trace file"),
])
def test_trace_tables_are_checked_naming_the_field(trace, udp, words):
    data = scenario({**TIMED, **trace}, **udp)
    if not words:
        parse_scenario(data)
        return
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data)
    assert e.value.field.startswith("traffic.udp[0].trace") and words in e.value.message, str(e.value)


def test_a_trace_source_needs_its_trace_and_the_others_their_rate():
    with pytest.raises(ScenarioError, match=r"traffic.udp\[0\].trace: a trace source needs trace"):
        parse_scenario(scenario(None))
    with pytest.raises(ScenarioError, match=r"traffic.udp\[0\].rate: required for a cbr source"):
        parse_scenario(scenario(None, kind="cbr"))


def test_trace_files_are_found_from_the_scenario_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    demo = load_scenario(SCENARIOS / "a-video.toml")
    assert demo.traffic.udp[0].trace.file == str(TRACE)
    assert demo.to_engine()["traffic"]["udp"][0]["trace"] == {**TIMED, "fps": None, "send": "burst"}
    # A dict (or --set) is read from the working directory; the TOML form keeps the full path.
    (tmp_path / "mine.txt").write_text("100\n")
    s = parse_scenario(scenario({"file": "mine.txt", "columns": ["bytes"], "fps": 25}))
    assert s.traffic.udp[0].trace.file == str(tmp_path / "mine.txt")
    (tmp_path / "s.toml").write_text(s.to_toml())
    monkeypatch.chdir(SCENARIOS)
    assert load_scenario(tmp_path / "s.toml") == s


def test_a_broken_trace_is_an_engine_error_naming_the_field_and_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# frame time type bytes\n0 0.00 I 1000\n1 0.04 P -20\n")
    with pytest.raises(ScenarioError) as e:
        pacesim.run(scenario({**TIMED, "file": str(bad)}))
    assert e.value.field == "traffic.udp[0].trace.file"
    assert e.value.message == f"{bad}: line 3: frame size is negative"


@pytest.mark.parametrize("rate", [None, "100Gbps"])
def test_a_frame_its_link_cannot_send_in_the_run_is_refused_naming_its_line(tmp_path, rate):
    # Once 5 x 10^10 packets of 200 B queued behind the UDP host's unlimited
    # 100 Mb/s link: no end after 60 s, 1.1 GB after 20 (issue 20). Scaled
    # to 100 Gb/s the 10^13 B frame is still most of 10^13 B.
    big = tmp_path / "big.txt"
    big.write_text("1 0.0 I 10000000000000\n2 0.04 P 1000\n")
    udp = {} if rate is None else {"rate": rate}
    s = {**scenario({**TIMED, "file": str(big)}, **udp), "duration": "1s", "warmup": "0s"}
    s["traffic"]["start"] = ["0s", "0s"]
    with pytest.raises(ScenarioError) as e:
        pacesim.run(s)
    assert e.value.field == "traffic.udp[0].trace.file"
    assert e.value.message.startswith(f"{big}: line 1: a frame of ")
    assert "more than link udp.up (100Mbps) can send in the run" in e.value.message


def test_scaling_needs_a_trace_sources_rate():
    ebase = {"topology": {"kind": "e-base", "udp": {}}, "traffic": {"udp": [{"kind": "trace", "size": "200B", "trace": TIMED}]}}
    with pytest.raises(ScenarioError, match=r"traffic.udp\[0\].rate: scaling a trace source"):
        scaled(parse_scenario(ebase), 0.1)
    ebase["traffic"]["udp"][0]["rate"] = "374.4kbps"
    assert scaled(parse_scenario(ebase), 0.1).traffic.udp[0].rate == 37_440


@pytest.mark.parametrize("trace, rate", [
    (TIMED, None),
    ({"file": str(TRACE), "columns": ["frame", "-", "type", "bytes"], "fps": FPS, "send": "burst"}, None),
    (TIMED, "187.2kbps"),
])
def test_a_trace_source_delivers_the_traces_mean_rate(trace, rate):
    # The trace repeats every n / 25 s = 60 s, so the 60 s window holds one
    # period's bytes exactly, give or take one 200 B packet at its edges.
    sizes = frame_bytes()
    want = sum(sizes) * 8 / (len(sizes) / FPS) * (0.5 if rate else 1.0)
    r = pacesim.run(scenario(trace, **({"rate": rate} if rate else {})))
    core = r.links.loc["core"]
    assert core["drops"] == 0 and r.summary["core_udp_loss_rate"] == 0
    # Once (1 of 3 full suite passes, never alone) the core carried nothing: the message keeps what a
    # rerun needs to tell the engine's split, the source and the measurement apart.
    assert abs(core["throughput_mbps"] * 1e6 - want) <= 200 * 8 / 60, (
        core["throughput_mbps"], want, core.to_dict(), r.work, r.conservation, r.links.to_dict())
    if rate is None:  # each frame in 200 B packets, the last one shorter
        assert abs(core["udp_arrivals"] - sum(-(-b // 200) for b in sizes)) <= 1
