"""A packet trace as pcap for Wireshark (docs/trace.md): each packet leaving a traced link (a `-` event of
an ns-2 trace) as one raw IPv4 packet (link type 101), the first time it leaves one (a packet crossing
several traced links is one packet on the wire, not a retransmission), its headers made from the line's
fields and its payload zeros, so that it has its size on the wire.

- addresses: node n is 10.(n >> 16).(n >> 8 & 255).(n & 255);
- IP: total length the line's size (at most 65,535 B, an IPv4 packet's largest), identification its uid
  (mod 2^16), TTL 64, protocol TCP (`tcp`, `ack`) or UDP (`UDP_TYPES`), checksummed;
- ports (ns-2's are all 0): the receiver's FIRST_PORT + flow id mod PORTS, the sender's the same for the
  flow's first connection (a UDP source's both). FIRST_PORT to 65,535 is the part of the ephemeral range
  that no dissector of Wireshark 4.0 claims by TCP or UDP port (`tshark -G decodes`: 57000 is IRC's, 60001
  a UDP one's), so that tshark reads every flow as plain TCP or UDP; ports 1024 + flow id made it decode
  many of a 1000-flow run's flows as other protocols (OpenVPN, PPTP, ...: 31,565 errors). A flow that opens
  a new connection (a short-flow user's next transfer: a SYN after data or an ACK of it) numbers it k = 1,
  2, ...: the connection's sender port is FIRST_PORT + (flow id + k) mod PORTS, so that each transfer is a
  TCP stream of its own (its sequence numbers start again; Wireshark would take the second for
  retransmissions); flows below PORTS are told apart by their ports alone, more by their addresses too;
- TCP, numbered in bytes as a real stack counts them, from initial sequence numbers 0 at both ends:
  ns-2 numbers a flow's segments 0, 1, 2, ... (1, 2, ... after a SYN, which takes number 0) and its
  ACKs by the highest segment received in order. A TCP packet no bigger than its headers (40 B) opens the
  flow: a SYN, sequence 0; the first ACK back before any data (ACK of segment 0) is the SYN-ACK. Segment n
  carries sequence 1 + (n - first) * MSS, `first` the flow's first data segment's number (1 after a SYN,
  else 0), and acknowledgment 1; an ACK of segment n, sequence 1 and acknowledgment 1 + (n - first + 1) *
  MSS. MSS is the flow's data payload (its first data packet's size less 40 B), or `segment_size` for a
  flow whose data the trace does not hold. Both SYNs carry that MSS (`segment_size` for the SYN, whose
  flow's data is yet to come) and a window scale of 2^14, so that the window of 65,535 every packet
  advertises is 1 GiB: pacesim's windows are counted in packets, and a receiver's window never limits a
  sender. The SYNs are 8 bytes longer than the trace's 40 (the options).
- UDP: length the packet's size less its IP header.

Only the departure lines are read beyond their first character: a garbled one is an error naming its line
and field, and so is a node below 0 or past 2^24 - 1 (`from` and `to` too), a sequence number outside
[0, 2^64) or a type none of `tcp`, `ack` and `UDP_TYPES`. The headers are packed with `struct`.

Why here, after the run, and not in the engine or with a pcap library (issue 34): this mapping of ns-2's
packet-numbered lines to byte-numbered TCP is the one `pacesim trace pcap` applies to ns-2's own traces,
so that both simulators' runs open alike in Wireshark; an engine writer would be a second copy of it in
Rust. A maintained crate (pcap-file, etherparse) or package (dpkt, scapy) would replace the container and
the header packing only, five `struct` formats here; the time is in the per-line mapping, which stays
ours either way. Its cost (bench/speed/pcap_cost.py, docs/trace.md): a 20-flow 20 s E-base run takes 1.6 times
the CPU time of one writing text, a 200-flow one 3.0 times (writing 2.27 s against 0.38 s for 142,766
packets, 150.6 MB: about 16 us a packet, half of it building the headers from the line). Worth moving
into the engine (whose writing costs about the text's) when traces of millions of packets become
routine: a trace is read in Wireshark, which is itself slow past a few million.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Dict, Tuple, Union

from . import outfile
from .ns2trace import EVENTS, FIELDS, TraceError, lines, parse

LINKTYPE_RAW = 101
"""pcap's link type for packets that begin with their IP header."""

UDP_TYPES = ("cbr", "udp", "exp", "pareto", "rtp")
"""The packet types written as UDP: ns-2 2.35's that carry an RTP header's sequence number
(`Trace::get_seqno`); pacesim's UDP sources write `cbr`."""

IP_HEADER = 20
TCP_HEADER = 20
UDP_HEADER = 8
MAX_IP = 65535
"""The largest IPv4 packet, bytes (its total length is 16 bits)."""

SYN, PSH, ACK = 0x02, 0x08, 0x10

FIRST_PORT = 60002
PORTS = 65536 - FIRST_PORT
"""The ports a flow's connections take: FIRST_PORT to 65,535, which no Wireshark 4.0 dissector claims."""


def syn_options(mss: int) -> Tuple[int, ...]:
    """The SYNs' options as 16-bit words: the maximum segment size (kind 2, length 4) and, after a no-op, the
    window scale (kind 3, length 3), shift 14."""
    return (0x0204, min(mss, 65535), 0x0103, 0x030E)


_PCAP = struct.Struct("<IHHiIII")  # magic, version 2.4, zone, accuracy, snap length, link type
_RECORD = struct.Struct("<IIII")  # seconds, microseconds, bytes written, bytes on the wire
_IP = struct.Struct("!HHHHHH4s4s")  # version and header length, total length, id, fragment, TTL and protocol
_TCP = struct.Struct("!HHHHHHHHHH")  # ports, sequence, acknowledgment, offset and flags, window, check, urgent
_UDP = struct.Struct("!HHHH")


def address(node: int) -> bytes:
    """Node `node`'s IPv4 address, 10.0.0.0/8 (nodes below 2^24)."""
    if not 0 <= node < 1 << 24:
        raise ValueError(f"node {node} has no address in 10.0.0.0/8")
    return bytes([10, node >> 16 & 255, node >> 8 & 255, node & 255])


def _check(total: int) -> int:
    """The Internet checksum of a sum of 16-bit words: folded to 16 bits and complemented."""
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


class _Flow:
    """What numbering a flow's segments in bytes needs: its MSS and first data segment's number, and whether
    its SYN, data and an ACK past the SYN's have gone by."""

    def __init__(self, mss: int, connection: int = 0):
        self.mss, self.first, self.syn, self.data, self.acked = mss, 0, False, False, False
        self.connection = connection  # how many connections the flow opened before this one


class _Packets:
    """Packs one trace's departures into IPv4 packets (the module's rules), flow by flow. Checksums are
    sums of the headers' 16-bit words, taken from the fields (a payload of zeros adds nothing)."""

    def __init__(self, path, segment_size: int):
        self.path, self.segment_size = path, segment_size
        self.flows: Dict[int, _Flow] = {}
        self.nodes: Dict[int, Tuple[bytes, int]] = {}  # node -> its address and the sum of its two words
        self.zeros = bytes(MAX_IP)

    def node(self, n: int, field: str, node: int) -> Tuple[bytes, int]:
        known = self.nodes.get(node)
        if known is None:
            if not 0 <= node < 1 << 24:
                raise TraceError(self.path, n, field, f"node {node}: no IPv4 address in 10.0.0.0/8")
            a = address(node)
            known = self.nodes[node] = (a, (a[0] << 8 | a[1]) + (a[2] << 8 | a[3]))
        return known

    def tcp(self, n: int, kind: str, size: int, flow: int, seq: int) -> Tuple[int, int, int, Tuple[int, ...]]:
        """(sequence, acknowledgment, flags, option words) of a TCP line."""
        f = self.flows.get(flow)
        if f is None:
            f = self.flows[flow] = _Flow(self.segment_size)
        if kind == "tcp" and size <= IP_HEADER + TCP_HEADER:
            if f.data or f.acked:  # a new connection (a SYN sent again before either is the same one's)
                f = self.flows[flow] = _Flow(self.segment_size, f.connection + 1)
            f.syn, f.first = True, 1
            return 0, 0, SYN, syn_options(f.mss)
        if kind == "tcp":
            if not f.data:
                f.data, f.mss = True, size - IP_HEADER - TCP_HEADER
            if seq < f.first:
                raise TraceError(self.path, n, "seq", f"segment {seq} comes before the flow's first, {f.first}")
            return (1 + (seq - f.first) * f.mss) % (1 << 32), 1, ACK | PSH, ()
        if f.syn and seq < f.first and not (f.data or f.acked):
            return 0, 1, SYN | ACK, syn_options(f.mss)
        f.acked = True
        return 1, (1 + (seq - f.first + 1) * f.mss) % (1 << 32), ACK, ()

    def packet(self, n: int, text: str, fields: list) -> Tuple[int, bytes, int]:
        """(time in microseconds, the packet's headers, its payload's length) of departure line `n`, split
        into its `fields`."""
        try:
            _, time, hop, link_to, kind, size, _, flow, src, dst, seq, uid = fields
            t, size, flow, seq, uid = float(time), int(size), int(flow), int(seq), int(uid)
            a, b, hop, link_to = int(src.partition(".")[0]), int(dst.partition(".")[0]), int(hop), int(link_to)
        except ValueError:
            parse(self.path, n, text)  # raises the TraceError naming the field
            raise
        tcp = kind in ("tcp", "ack")
        if not (0 <= t < 2**32 and flow >= 0 and uid >= 0 and 0 <= seq < 2**64 and (tcp or kind in UDP_TYPES)):
            for field, bad, why in [("time", not 0 <= t < 2**32, "a pcap time stamp is 0 to 2^32 s"),
                                    ("type", not (tcp or kind in UDP_TYPES),
                                     f"not a packet type written as pcap (tcp, ack; UDP: {', '.join(UDP_TYPES)})"),
                                    ("flow", flow < 0, "a flow id is >= 0"),
                                    ("seq", not 0 <= seq < 2**64, "a sequence number is 0 to 2^64 - 1"),
                                    ("uid", uid < 0, "a packet id is >= 0")]:
                if bad:
                    raise TraceError(self.path, n, field, f"{fields[FIELDS.index(field)]}: {why}")
        self.node(n, "from", hop), self.node(n, "to", link_to)
        (a, a_sum), (b, b_sum) = self.node(n, "src", a), self.node(n, "dst", b)
        header = IP_HEADER + (TCP_HEADER if tcp else UDP_HEADER)
        if not header <= size <= MAX_IP:
            raise TraceError(self.path, n, "size", f"{size} B: an IPv4 {'TCP' if tcp else 'UDP'} packet holds "
                                                   f"{header} to {MAX_IP:,} B")
        port = FIRST_PORT + flow % PORTS
        if tcp:
            number, acked, flags, options = self.tcp(n, kind, size, flow, seq)
            sender = FIRST_PORT + (flow + self.flows[flow].connection) % PORTS
            ports = (sender, port) if kind == "tcp" else (port, sender)
            length = size + 2 * len(options)
            words = (*ports, number >> 16, number & 0xFFFF, acked >> 16, acked & 0xFFFF,
                     (TCP_HEADER // 4 + len(options) // 2) << 12 | flags, 65535)
            # the pseudo-header (addresses, protocol, segment length), the header and its options
            check = _check(a_sum + b_sum + 6 + length - IP_HEADER + sum(words) + sum(options))
            segment = _TCP.pack(*words, check, 0)
            if options:
                segment += struct.pack(f"!{len(options)}H", *options)
            proto = 6
        else:
            length, proto = size, 17
            check = _check(a_sum + b_sum + 17 + 2 * (size - IP_HEADER) + 2 * port) or 0xFFFF
            segment = _UDP.pack(port, port, size - IP_HEADER, check)
        ident = uid & 0xFFFF
        ip = _IP.pack(0x4500, length, ident, 0, 64 << 8 | proto,
                      _check(0x4500 + length + ident + (64 << 8 | proto) + a_sum + b_sum), a, b)
        return round(t * 1e6), ip + segment, length - IP_HEADER - len(segment)


def write(trace: Union[str, Path], out: Union[str, Path], segment_size: int = 1000) -> int:
    """Write the departures of ns-2 trace `trace` to pcap file `out` (the module's rules; `segment_size`, in
    bytes, numbers a flow whose data the trace does not hold); how many packets. A TraceError names a line
    that cannot be a packet."""
    packets = _Packets(trace, segment_size)
    seen = set()
    with outfile.written(out) as whole, open(whole, "wb") as f:  # no partial pcap left by a failure
        f.write(_PCAP.pack(0xA1B2C3D4, 2, 4, 0, 0, MAX_IP, LINKTYPE_RAW))
        read = 0
        for n, text in lines(trace):
            read += 1
            fields = text.split()
            if len(fields) != len(FIELDS) or len(fields[0]) != 1 or fields[0] not in EVENTS:
                parse(trace, n, text)  # raises the TraceError naming the field
            if fields[0] != "-":
                continue
            uid = fields[-1]
            if uid in seen:
                continue
            seen.add(uid)
            micro, headers, payload = packets.packet(n, text, fields)
            whole = len(headers) + payload
            f.write(b"".join((_RECORD.pack(micro // 1_000_000, micro % 1_000_000, whole, whole), headers,
                              packets.zeros[:payload])))
        if not read:
            raise ValueError(f"{trace}: holds no trace line (an ns-2 trace: one event a line)")
    return len(seen)
