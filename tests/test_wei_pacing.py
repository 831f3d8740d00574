"""Wei's ns-2 pacing patch as pacesim's host pacer (`pacing.host_pacer = "wei"`,
crates/pacesim-core/src/tcp/host_pacing/wei.rs) through a scenario: the first departures of a flow at
hand-computed times, its options checked naming the field, and `tcp.window_cut` resolved per run."""

import json

import pytest

import pacesim
from pacesim import ScenarioError

# h1 -> a (1 ms), core a -> b (48 ms), b -> h2 (1 ms), every link 1 Gb/s: a 1040 B packet takes 8.32 us a
# hop, a 40 B ACK or SYN 0.32 us. One flow from t = 0, no loss (1 MB buffer).
GIGABIT = {"rate": "1Gbps", "delay": "1ms"}
LINE = {
    "duration": "400ms", "warmup": "0s",
    "topology": {"kind": "graph", "nodes": ["a", "b"], "hosts": ["h1", "h2"], "flows": [{"from": "h1", "to": "h2"}],
                 "links": [{"from": "h1", "to": "a", **GIGABIT}, {"from": "a", "to": "b", "core": True},
                           {"from": "b", "to": "h2", **GIGABIT}]},
    "core": {"rate": "1Gbps", "delay": "48ms", "buffer": "1MB"},
    "traffic": {"start": ["0s", "0s"]}, "pacing": {"scheme": "host", "host_pacer": "wei"}, "trace": {"links": ["h1-a"]},
}
R0 = 100e-3 + 6 * 0.32e-6  # the SYN's round trip: 40 B each way
R = 100e-3 + 3 * 8.32e-6 + 3 * 0.32e-6  # a data packet's


def departures(scenario, tmp_path, n):
    """When the first n data packets (sequence numbers 1..n) left h1, s."""
    pacesim.run(scenario, trace=tmp_path / "t.tr")
    sent = {}
    for line in (tmp_path / "t.tr").read_text().splitlines():
        event, t, *_, seq, _uid = line.split()
        if event == "+" and int(seq) not in sent:
            sent[int(seq)] = float(t)
    return [sent[q] for q in range(1, n + 1)]


def test_wei_pacer_first_departures_at_hand_computed_times(tmp_path):
    # The SYN's ACK (R0) seeds the pacing RTT and opens cwnd to 2: packet 1 at once, 2 a gap R0 / 2 later
    # (the window is then full: no timer). ACK 1 (R0 + R, cwnd 3) brings a sample with weight max(4, 2 / 3):
    # rtt1 = (3 R0 + R) / 4; 3 at once, 4 a gap rtt1 / 3 later. ACK 2 (1.5 R0 + R) finds no timer pending
    # (the window was full after 4), so 5 leaves at once, less than rtt1 / 4 after 4.
    rtt1 = (3 * R0 + R) / 4
    want = [R0, 1.5 * R0, R0 + R, R0 + R + rtt1 / 3, 1.5 * R0 + R]
    got = departures(LINE, tmp_path, 5)
    assert got == pytest.approx(want, abs=1.5e-6)  # the trace writes microseconds
    # paper W's prose as pacesim first read it holds 5 to a gap after 4.
    paper_w = departures({**LINE, "pacing": {"scheme": "host"}}, tmp_path, 5)
    assert paper_w[4] - paper_w[3] > R / 4 - 1e-3


@pytest.mark.parametrize("pacing, tcp, field, words", [
    ({"host_pacer": "wei", "host_mode": "rate"}, {}, "pacing.host_mode", "paper-w pacer's"),
    ({"wei": {"loss_filter": 2}}, {}, "pacing.wei.loss_filter", 'pacing.host_pacer = "wei"'),
    ({"host_pacer": "wei", "wei": {"random_pace": True}}, {}, "pacing.wei.random_pace", "overhead > 0"),
    ({"host_pacer": "wei", "wei": {"ack_counting": True}}, {"variant": "bic"}, "pacing.wei.ack_counting",
     "Reno's window"),
    ({"host_pacer": "wei", "wei": {"loss_filter": 1001}}, {}, "pacing.wei.loss_filter", "1000"),
    ({"host_pacer": "wei", "wei": {"overhead": 5}}, {}, "pacing.wei.overhead", "unit"),
    ({"host_pacer": "wei", "wei": {"jitter": 1}}, {}, "pacing.wei.jitter", "unknown key"),
])
def test_wei_options_are_checked_naming_the_field(pacing, tcp, field, words):
    with pytest.raises(ScenarioError) as e:
        pacesim.run({**LINE, "pacing": {"scheme": "host", **pacing}, "tcp": tcp, "trace": None})
    assert e.value.field == field and words in e.value.message, str(e.value)


def test_window_cut_flight_if_host_paced_is_flight_in_paced_runs_only():
    # Two flows through a 30 KB buffer: losses, so the window cuts matter.
    base = {**LINE, "duration": "5s", "trace": None, "core": {**LINE["core"], "rate": "10Mbps", "buffer": "30KB"},
            "topology": {**LINE["topology"], "flows": [{"from": "h1", "to": "h2"}] * 2}}

    def report(scheme, cut):
        s = {**base, "pacing": {"scheme": scheme, "host_pacer": "wei"}, "tcp": {"window_cut": cut}}
        return json.dumps(pacesim.run(s).report["flows"], sort_keys=True)

    for scheme in ("none", "host"):
        either = report(scheme, "flight-if-host-paced")
        assert either == report(scheme, "flight" if scheme == "host" else "cwnd")
    assert report("host", "flight") != report("host", "cwnd")


# Issue 33's hostile.py "hang" (hang-pacer-4605) cut to one flow: E-base, one host on 17.3 Mb/s into a 10 Mb/s
# core of 2 KB, 1 us links, FACK paced by Wei's pacer (modified) with ack counting, loss filter 4, inflation ratio 3
# and pure rate control, no jitter, 0.3 s. ns-2 2.35 built with Wei's patch on the same network
# (bench/ns2/wei/storm.tcl, PACESIM.md): 1,009 packets (t_seqno_ 1009: the SYN and 1,008 segments) and 75
# retransmissions sent, 624 arrivals and 262 drops at the core, cumulative ACK 8, cwnd 417, and 446,181 expiries of
# the pacing timer: FACK re-arms it after every send, and under pure rate control the window (the advertised 1000)
# stays full while cwnd grows.
FACK_STORM = ["duration=300ms", "warmup=0s", "topology.edges=1", "topology.hosts_per_edge=1",
              "topology.access_rate=17.3Mbps", "topology.access_delay=1us", "topology.edge_delay=1us",
              "core.rate=10Mbps", "core.delay=0ms", "core.buffer=2KB", "tcp.variant=fack", "tcp.window_cut=flight",
              "tcp.rampdown=true", 'traffic.start=["0s", "0s"]', "pacing.scheme=host", "pacing.host_pacer=wei",
              "pacing.host_mode=modified", "pacing.wei.ack_counting=true", "pacing.wei.loss_filter=4",
              "pacing.wei.inflation_ratio=3", "pacing.wei.pure_rate_control=true"]


def test_fack_under_pure_rate_control_storms_as_ns2_with_the_patch_does():
    s = pacesim.apply_overrides(pacesim.Scenario(), FACK_STORM)
    with pytest.warns(pacesim.SlowRun, match="pacing.wei.pure_rate_control"):
        r = pacesim.run(s, threads=1)
    f, core, work = r.report["flows"], r.report["links"]["core"], r.report["work"]
    # FACK's window was min(cwnd, wnd) under pure rate control: 424 packets sent, 201 arrivals at the core.
    assert (f["data_packets_sent"], f["retransmits"], core["arrivals"], core["drops"]) == ([1084], [75], 624, 262)
    assert f["final_cwnd"] == [417.0] and f["goodput_kbps"] == [pytest.approx(8 * 8000 / 0.3 / 1e3)]
    # Every expiry is an event; the rest, a few a packet-hop (here 1,708 for 5,054 hops).
    assert 446_181 <= work["events"] <= 446_181 + 2 * work["packet_hops"]
    assert not pacesim.engine.slow(pacesim.apply_overrides(s, ["tcp.variant=reno"]))
