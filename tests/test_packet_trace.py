"""Packet traces (docs/trace.md): ns-2's line format with hand-computed times, the checks naming the field,
one thread for a traced run, pcap read back with dpkt, `pacesim trace diff`, and the small E-base against
ns-2's own trace of it (bench/ns2/TRACE_DIFF.md)."""

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import dpkt
import pytest

import pacesim
from pacesim import ScenarioError
from pacesim.ns2trace import TraceError, read
from pacesim.trace_diff import diff

ROOT = Path(__file__).resolve().parent.parent
NS2 = ROOT / "bench" / "ns2"
TRACES = NS2 / "results" / "trace"

# h1 -> a (100 Mb/s, 1 ms), core a -> b (10 Mb/s, 20 ms), b -> h2 (100 Mb/s, 1 ms); nodes a = 0, b = 1,
# h1 = 2, h2 = 3. One CBR source of 1040 B packets at 1 Mb/s from t = 0 (one every 8.32 ms), no TCP flow.
LINE = {
    "duration": "30ms", "warmup": "0s",
    "topology": {"kind": "graph", "nodes": ["a", "b"], "hosts": ["h1", "h2"],
                 "links": [{"from": "h1", "to": "a", "rate": "100Mbps", "delay": "1ms"},
                           {"from": "a", "to": "b", "core": True},
                           {"from": "b", "to": "h2", "rate": "100Mbps", "delay": "1ms"}],
                 "flows": []},
    "core": {"rate": "10Mbps", "delay": "20ms", "buffer": "10KB"},
    "traffic": {"start": ["0s", "0s"],
                "udp": [{"kind": "cbr", "rate": "1Mbps", "size": "1040B", "start": "0s", "from": "h1", "to": "h2"}]},
    "trace": {"links": ["core"]},
}


def lines(path) -> list:
    return Path(path).read_text().splitlines()


def test_a_cbr_source_is_traced_at_hand_computed_times(tmp_path):
    # Packet k leaves h1 at 8.32k ms, reaches a 83.2 us + 1 ms later (+ and - on the idle core), its last
    # bit reaches b 832 us + 20 ms after that (r): 1.0832, 21.9152 ms; the next at 9.4032, 30.2352 ms
    # (after the end, 30 ms, so not written); the third's + at 17.7232 ms. ns-2 rounds to the microsecond.
    pacesim.run(LINE, trace=tmp_path / "t.tr")
    assert lines(tmp_path / "t.tr") == [
        "+ 0.001083 0 1 cbr 1040 ------- 0 2.0 3.0 0 0",
        "- 0.001083 0 1 cbr 1040 ------- 0 2.0 3.0 0 0",
        "+ 0.009403 0 1 cbr 1040 ------- 0 2.0 3.0 0 1",
        "- 0.009403 0 1 cbr 1040 ------- 0 2.0 3.0 0 1",
        "+ 0.017723 0 1 cbr 1040 ------- 0 2.0 3.0 0 2",
        "- 0.017723 0 1 cbr 1040 ------- 0 2.0 3.0 0 2",
        "r 0.021915 0 1 cbr 1040 ------- 0 2.0 3.0 0 0",
        "+ 0.026043 0 1 cbr 1040 ------- 0 2.0 3.0 0 3",
        "- 0.026043 0 1 cbr 1040 ------- 0 2.0 3.0 0 3",
    ]


@pytest.mark.parametrize("trace, field, words", [
    ({"links": ["cor"]}, "trace.links[0]", 'no link named "cor"'),
    ({"links": ["core", "core"]}, "trace.links[1]", "named twice"),
    ({"links": []}, "trace.links", "at least one link"),
    ({"links": ["core"]}, "trace.file", "required"),
    ({"links": ["core"], "file": "/no/such/dir/t.tr"}, "trace.file", "cannot create"),
    ({"links": ["core"], "file": "/no/such/dir/t.pcap"}, "trace.file", "cannot create"),
    ({"links": ["core"], "colour": 1}, "trace.colour", "unknown key 'colour'"),
    ({"links": ["core"], "max_bytes": "0B"}, "trace.max_bytes", ""),
    ({"links": ["core"], "max_bytes": 100}, "trace.max_bytes", "no unit"),
])
def test_trace_tables_are_checked_naming_the_field(trace, field, words):
    with pytest.raises(ScenarioError) as e:
        pacesim.run({**LINE, "trace": trace})
    assert e.value.field == field and words in e.value.message, str(e.value)


def test_a_trace_stops_at_max_bytes_on_a_whole_line_and_warns_when(tmp_path):
    pacesim.run(LINE, trace=tmp_path / "all.tr")
    every = lines(tmp_path / "all.tr")
    room = sum(len(l) + 1 for l in every[:5]) + 20  # five lines and part of the sixth, at 17.723 ms
    capped = {**LINE, "trace": {**LINE["trace"], "max_bytes": f"{room}B"}}
    with pytest.warns(pacesim.RecordingStopped, match=rf"stopped at 0.017723 s, at its cap of {room} B") as w:
        r = pacesim.run(capped, trace=tmp_path / "cut.tr")
    assert len(w) == 1 and r.report["warnings"] == [str(w[0].message)]
    assert lines(tmp_path / "cut.tr") == every[:5]
    assert (tmp_path / "cut.tr").stat().st_size <= room
    full = {**LINE, "trace": {**LINE["trace"], "max_bytes": f"{sum(len(l) + 1 for l in every)}B"}}
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # exactly full: no warning
        pacesim.run(full, trace=tmp_path / "full.tr")
    assert lines(tmp_path / "full.tr") == every


def test_a_traced_run_is_the_same_on_two_threads(tmp_path):
    # E-base splits at its core: two threads would run two halves; a traced run runs on one.
    small = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=3s", "warmup=1s", "traffic.start=['0s','1s']"]
    r1 = pacesim.run("e-base", set=small, threads=1, trace=tmp_path / "one.tr")
    r2 = pacesim.run("e-base", set=small, threads=2, trace=tmp_path / "two.tr")
    assert lines(tmp_path / "one.tr") == lines(tmp_path / "two.tr") and len(lines(tmp_path / "one.tr")) > 1000
    assert r1.summary == r2.summary
    # The trace's departures are the core's: what the report counts over the window [1 s, 3 s).
    departures = sum(1 for l in read(tmp_path / "one.tr") if l.event == "-" and l.time >= 1)
    core = r1.links.loc["core"]
    assert departures == core["departures"]


def test_pcap_holds_the_departures_with_their_headers(tmp_path):
    pacesim.run(LINE, trace=tmp_path / "t.pcap")
    assert not (tmp_path / "t.pcap.tr").exists()
    with open(tmp_path / "t.pcap", "rb") as f:
        r = dpkt.pcap.Reader(f)
        assert r.datalink() == 101  # raw IPv4
        packets = [(ts, dpkt.ip.IP(buf)) for ts, buf in r]
    assert [round(ts, 6) for ts, _ in packets] == [0.001083, 0.009403, 0.017723, 0.026043]
    for uid, (_, ip) in enumerate(packets):
        assert (ip.src, ip.dst, ip.len, ip.id, ip.p) == (bytes([10, 0, 0, 2]), bytes([10, 0, 0, 3]), 1040, uid, 17)
        assert (ip.data.sport, ip.data.dport, ip.data.ulen) == (60002, 60002, 1020)  # source 0's port


def test_tcp_in_pcap_numbers_bytes_from_a_syn(tmp_path):
    """ns-2 numbers segments (SYN 0, data 1, 2, ...) and ACKs by the last segment in order; pcap numbers bytes
    as a stack does (issue 34: `seq 1:1001` then `2:1002`, no SYN flag)."""
    small = ["topology.edges=1", "topology.hosts_per_edge=1", "duration=2s", "warmup=1s", "traffic.start=['0s','0s']",
             "trace.links=['core', 'core.rev']"]
    pacesim.run("e-base", set=small, trace=tmp_path / "t.pcap")
    pacesim.run("e-base", set=small, trace=tmp_path / "t.tr")
    with open(tmp_path / "t.pcap", "rb") as f:
        ips = [dpkt.ip.IP(buf) for _, buf in dpkt.pcap.Reader(f)]
    departures = [l for l in read(tmp_path / "t.tr") if l.event == "-"]
    assert len(ips) == len(departures) > 10
    syn, synack = ips[0].data, next(ip.data for ip in ips if ip.data.flags & dpkt.tcp.TH_SYN and ip.data.flags & dpkt.tcp.TH_ACK)
    assert (syn.flags, syn.seq) == (dpkt.tcp.TH_SYN, 0) and (synack.seq, synack.ack) == (0, 1)
    assert dict(dpkt.tcp.parse_opts(syn.opts)) == {dpkt.tcp.TCP_OPT_MSS: b"\x03\xe8", dpkt.tcp.TCP_OPT_NOP: b"",
                                                   dpkt.tcp.TCP_OPT_WSCALE: b"\x0e"}
    data = [(ip, l) for ip, l in zip(ips, departures) if l.type == "tcp" and l.size > 40]
    acks = [(ip, l) for ip, l in zip(ips, departures) if l.type == "ack" and l.seq > 0]
    assert len(data) > 10 and len(acks) > 10
    for ip, l in data:  # segment n (from 1): bytes 1 + (n - 1) * 1000 to n * 1000
        assert ip.len == l.size == 1040 and ip.data.seq == 1 + (l.seq - 1) * 1000 and len(ip.data.data) == 1000
        assert ip.data.flags == dpkt.tcp.TH_ACK | dpkt.tcp.TH_PUSH and ip.data.ack == 1
    for ip, l in acks:  # an ACK of segment n asks for the byte after it
        assert (ip.data.seq, ip.data.ack, ip.data.flags) == (1, 1 + l.seq * 1000, dpkt.tcp.TH_ACK)


def test_a_packet_crossing_two_traced_links_is_one_packet(tmp_path):
    small = ["topology.edges=1", "topology.hosts_per_edge=1", "duration=2s", "warmup=1s", "traffic.start=['0s','0s']",
             "trace.links=['core', 'edge_out.0']"]
    pacesim.run("e-base", set=small, trace=tmp_path / "t.tr")
    pacesim.run("e-base", set=small, trace=tmp_path / "t.pcap")
    departures = [l.uid for l in read(tmp_path / "t.tr") if l.event == "-"]
    with open(tmp_path / "t.pcap", "rb") as f:
        ids = [dpkt.ip.IP(buf).id for _, buf in dpkt.pcap.Reader(f)]
    assert len(departures) > 1.5 * len(set(departures)) and ids == list(dict.fromkeys(departures))


SHORT_FLOWS = ["core.buffer=1MB", "traffic.short.fraction=1", "traffic.short.mean_size=20KB", "duration=6s"]
"""Short-flow users (E-fig6's workload): each transfer opens a new connection, its sequence numbers anew."""


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark (Debian's `tshark`) is not installed")
@pytest.mark.parametrize("flows", [[], SHORT_FLOWS], ids=["long", "short"])
def test_tshark_finds_nothing_wrong_in_a_lossless_run(tmp_path, flows):
    """Wireshark's TCP analysis (retransmissions, out of order, unseen segments, window full, ...) on the
    pcap of a short run without a drop, both directions traced: nothing to flag (issue 34), for long-lived
    flows and for short-flow users whose transfers reopen connections (each its own port, else the second
    transfer's segments look like retransmissions of the first's)."""
    small = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=3s", "warmup=1s",
             "traffic.start=['0s','0.5s']", "trace.links=['core', 'core.rev']", *flows]
    r = pacesim.run("e-base", set=small, trace=tmp_path / "t.pcap")
    assert r.links["drops"].sum() == 0 and r.report["conservation"]["dropped"] == 0
    shark = ["tshark", "-r", str(tmp_path / "t.pcap"), "-o", "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE"]
    every = subprocess.run(shark + ["-T", "fields", "-e", "frame.number"], capture_output=True, text=True, check=True)
    flagged = subprocess.run(shark + ["-Y", "tcp.analysis.flags || tcp.checksum.status == 0 || ip.checksum.status == 0"],
                             capture_output=True, text=True, check=True)
    experts = subprocess.run(shark + ["-q", "-z", "expert,warn"], capture_output=True, text=True, check=True)
    assert len(every.stdout.split()) > (300 if flows else 1000)
    if flows:
        streams = subprocess.run(shark + ["-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0", "-T", "fields", "-e",
                                          "tcp.stream"], capture_output=True, text=True, check=True).stdout.split()
        assert len(streams) == len(set(streams)) >= 4, "every transfer's SYN opens a stream of its own"
    assert flagged.stdout == "" and "Warns" not in experts.stdout and "Errors" not in experts.stdout, experts.stdout


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark (Debian's `tshark`) is not installed")
def test_tshark_reads_every_flows_ports_as_plain_tcp_and_udp(tmp_path):
    """A 1000-flow run's pcap was read by tshark as OpenVPN, PPTP, IDMP, ... where a flow's port 1024 + id
    was one a dissector claims (31,565 expert errors on E-base, issue 34): a packet for every port a flow may
    take (flows 0 to 5,533: ports 60,002 to 65,535), TCP data for even flows and UDP for odd ones (one
    tshark pass of 0.4 CPU s), is read as plain TCP or UDP data, none malformed."""
    from pacesim.pcap import PORTS, write as to_pcap
    trace = tmp_path / "t.tr"
    kinds = ["tcp", "cbr"]
    trace.write_text("".join(f"- {i * 1e-4:.6f} 0 1 {kinds[i % 2]} 1040 ------- {i} 2.0 3.0 {1 - i % 2} {i}\n"
                             for i in range(PORTS)))
    assert PORTS == 65536 - 60002 and to_pcap(trace, tmp_path / "t.pcap") == PORTS
    stacks = subprocess.run(["tshark", "-n", "-r", str(tmp_path / "t.pcap"), "-T", "fields", "-e", "frame.protocols"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert stacks == ["raw:ip:tcp:data", "raw:ip:udp:data"] * (PORTS // 2)  # a malformed packet adds _ws.malformed


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


A = "+ 0.1 0 1 tcp 1040 ------- 0 2.0 3.0 0 0\n- 0.1 0 1 tcp 1040 ------- 0 2.0 3.0 0 0\n"


def test_diff_names_the_first_parting_line_and_field(tmp_path):
    a = write(tmp_path / "a.tr", A + "r 0.200001 0 1 tcp 1040 ------- 0 2.0 3.0 0 0\n")
    b = write(tmp_path / "b.tr", A + "r 0.2 0 1 tcp 1040 ------- 0 2.0 3.0 1 0\n")
    d = diff(a, b, tolerance=1e-6)
    assert (d.same, d.parting.a.number, d.parting.fields) == (2, 3, ["seq"])
    assert d.counts == [{"+": 1, "-": 1, "d": 0, "r": 1}] * 2
    assert diff(a, b, 0.0).parting.fields == ["time", "seq"]
    assert diff(a, b, 1e-6, ignore=["seq"]).parting is None
    shorter = diff(a, write(tmp_path / "c.tr", A))
    assert (shorter.same, shorter.parting.a.number, shorter.parting.b) == (2, 3, None)


@pytest.mark.parametrize("text, where", [
    ("+ 0.1 0 1 tcp 1040 ------- 0 2.0 3.0 0\n", "a.tr:1: line: 11 fields"),
    ("x 0.1 0 1 tcp 1040 ------- 0 2.0 3.0 0 0\n", "a.tr:1: event: 'x'"),
    (A + "+ 0.1s 0 1 tcp 1040 ------- 0 2.0 3.0 0 0\n", "a.tr:3: time: '0.1s'"),
    ("+ 0.1 0 1 tcp 1040 ------- 0 2 3.0 0 0\n", "a.tr:1: src: '2' is not NODE.PORT"),
    ("+ 0.1 0 1 tcp big ------- 0 2.0 3.0 0 0\n", "a.tr:1: size: 'big'"),
])
def test_garbled_traces_are_errors_naming_line_and_field(tmp_path, text, where):
    a = write(tmp_path / "a.tr", text)
    with pytest.raises(TraceError, match=where.replace(".", r"\.")):
        diff(a, write(tmp_path / "b.tr", A))


def test_the_cli_reports_errors_without_a_traceback(tmp_path):
    cli = [sys.executable, "-c", "from pacesim.cli import app; app()", "trace", "diff"]
    p = subprocess.run(cli + [str(tmp_path / "none.tr"), str(write(tmp_path / "b.tr", A))], capture_output=True, text=True)
    assert p.returncode == 2 and "none.tr: file: No such file" in p.stderr and "Traceback" not in p.stderr
    p = subprocess.run(cli + [str(tmp_path / "b.tr"), str(tmp_path / "b.tr")], capture_output=True, text=True)
    assert p.returncode == 0 and "identical: 2 events" in p.stdout


def test_small_ebase_against_ns2(tmp_path):
    """bench/ns2/TRACE_DIFF.md: pacesim's trace of trace_ebase.toml (10 ms tick) is the committed one, and
    agrees with ns-2's own trace of the same network in every field of the first 6,125 core events, to the
    first retransmission timeout that the agents' tick phases move: pacesim's fires 30 ms (3 ticks) earlier."""
    pacesim.run(NS2 / "trace_ebase.toml", trace=tmp_path / "pacesim.tr")
    with gzip.open(TRACES / "pacesim-10ms.tr.gz", "rt") as f:
        assert lines(tmp_path / "pacesim.tr") == f.read().splitlines()
    d = diff(TRACES / "ns2-10ms.tr.gz", tmp_path / "pacesim.tr", tolerance=1e-6)
    assert d.same == 6125
    assert d.parting.fields == ["time", "flags", "flow", "src", "dst", "seq", "uid"]
    assert (d.parting.a.time, d.parting.b.time, d.parting.b.flow, d.parting.b.seq) == (2.981083, 2.956402, 1, 123)
    ns2_rto = [l for l in read(TRACES / "ns2-10ms.tr.gz") if l.event == "+" and l.flow == 1 and l.seq == 123][-1]
    assert ns2_rto.time == pytest.approx(2.956402 + 0.030, abs=1e-9) and ns2_rto.flags == d.parting.b.flags == "---A---"
    # Before the parting both mark the same 9 packets (25 lines) as the first after a window cut.
    marked = [l for l in read(TRACES / "ns2-10ms.tr.gz") if l.flags != "-------" and l.number <= 6125]
    assert len(marked) == 25 and len({l.uid for l in marked}) == 9
    assert all(l.flags == "---A---" and l.type == "tcp" for l in marked)
    assert d.counts[0]["+"] == d.counts[1]["+"] == 2916 and d.counts[0]["d"] == d.counts[1]["d"] == 88


def by_event(path) -> dict:
    """A trace's times keyed by (event, flow, seq, n): the n-th such line, so that lines at one printed
    microsecond may come in any order."""
    seen, times = {}, {}
    for l in read(path):
        key = (l.event, l.flow, l.seq)
        seen[key] = seen.get(key, 0) + 1
        times[key + (seen[key],)] = l.time
    return times


def test_sack_against_ns2_sack1_packet_for_packet(tmp_path):
    """bench/ns2/TIES.md: pacesim's SACK on trace_sack.toml (20 equal flows, every access delay its own in
    [3, 3.001] ms, minimum RTO 1 s) against ns-2's Sack1 on the same network: each of the 29,553 core events
    before 6.918187 s (400 drops, 435 packets sent again) is in both traces at the same microsecond. They
    part where two flows' packets reach the edge link at one instant of pacesim's integer clock and ns-2's
    floating-point clock puts flow 8's first."""
    pacesim.run(NS2 / "trace_sack.toml", trace=tmp_path / "pacesim.tr")
    ours, ns2 = by_event(tmp_path / "pacesim.tr"), by_event(TRACES / "ns2-sack.tr.gz")
    parting = 6.918187
    before = {k for k, t in ns2.items() if t < parting}
    assert len(before) == 29553 and before == {k for k, t in ours.items() if t < parting}
    assert all(abs(ours[k] - ns2[k]) <= 1e-6 + 1e-9 for k in before)
    assert sum(k[0] == "d" for k in before) == 400
    assert sum(k[0] == "+" and k[3] > 1 for k in before) == 435
    apart = sorted((k, ns2[k], ours[k]) for k in set(ns2) | set(ours) if abs(ns2[k] - ours[k]) > 1e-6 + 1e-9)
    assert [(k[0], k[1]) for k, _, _ in apart] == [("+", 8), ("+", 12), ("-", 8), ("-", 12)]
    assert [(a, b) for _, a, b in apart[:2]] == [(parting, 6.918195), (6.918195, parting)]


def test_a_sweep_refuses_to_trace():
    from pacesim.sweep import Sweep, SweepError

    with pytest.raises(SweepError, match="trace: a sweep writes no packet traces"):
        Sweep(name="s", set=["trace.links=['core']"], axes={"core.buffer": ["5KB", "10KB"]})


@pytest.mark.parametrize("text, says", [
    ("", "holds no trace line"),
    ('name = "buf"\nseeds = [1]\n', "x.tr:1: line: 3 fields"),
    ("+- 0.1 0 1 tcp 1040 ------- 0 2.0 3.0 1 0\n", "event"),
])
def test_pcap_refuses_a_file_that_is_no_trace(tmp_path, text, says):
    """Issue 34 review: a sweep file or an empty file given to `trace pcap` wrote '0 packets' and exited 0."""
    from pacesim import pcap
    from pacesim.ns2trace import TraceError

    (tmp_path / "x.tr").write_text(text)
    with pytest.raises((TraceError, ValueError), match=says):
        pcap.write(tmp_path / "x.tr", tmp_path / "x.pcap")


def test_pcap_to_dash_is_refused_naming_the_argument(tmp_path, monkeypatch):
    """Issue 34 review: `trace pcap g.tr -` wrote a file named `-` (`run --trace -` refuses it)."""
    from typer.testing import CliRunner

    from pacesim.cli import app

    monkeypatch.chdir(tmp_path)
    write(tmp_path / "g.tr", A)
    r = CliRunner().invoke(app, ["trace", "pcap", "g.tr", "-"])
    assert r.exit_code == 2 and "OUT -" in r.output and "standard output" in r.output, r.output
    assert not (tmp_path / "-").exists()


def test_a_pcap_trace_leaves_every_other_file_as_it_was(tmp_path):
    # Once its ns-2 text went to FILE.pcap.tr and was removed after: a file of that name was lost (issue 33 review).
    kept = tmp_path / "t.pcap.tr"
    kept.write_text("precious\n")
    pacesim.run(LINE, trace=tmp_path / "t.pcap")
    assert kept.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.pcap", "t.pcap.tr"]
