"""A packet trace as pcap for Wireshark (docs/trace.md): every dequeue (`-`, the packet going on a traced
link's wire) of an ns-2 trace as one raw IPv4 packet (link type 101), its headers synthesised with dpkt from
the line's fields and its payload zeros, so that each packet has its size on the wire.

- addresses: node n is 10.(n >> 16).(n >> 8 & 255).(n & 255);
- IP: total length the line's size, identification its unique id (mod 2^16), protocol TCP (`tcp`, `ack`)
  or UDP (anything else);
- ports: 1024 + flow id mod 64512 at both ends (ns-2's ports are all 0);
- TCP: data carry SEQ, ACKs the flag ACK and acknowledgment number SEQ + 1, both counted in packets as ns-2
  counts them (not bytes), with a window of 65535.
"""

from __future__ import annotations

from pathlib import Path
from typing import Union

import dpkt

from .ns2trace import TraceLine, read

LINKTYPE_RAW = 101
"""pcap's link type for packets that begin with their IP header."""

IP_HEADER = 20
TCP_HEADER = 20
UDP_HEADER = 8


def address(node: int) -> bytes:
    """Node `node`'s IPv4 address, 10.0.0.0/8 (nodes below 2^24)."""
    if not 0 <= node < 1 << 24:
        raise ValueError(f"node {node} has no address in 10.0.0.0/8")
    return bytes([10, node >> 16 & 255, node >> 8 & 255, node & 255])


def packet(line: TraceLine) -> bytes:
    """The IPv4 packet of trace line `line`, `line.size` bytes long."""
    port = 1024 + line.flow % 64512
    tcp = line.type in ("tcp", "ack")
    header = TCP_HEADER if tcp else UDP_HEADER
    payload = b"\0" * max(0, line.size - IP_HEADER - header)
    if tcp:
        ack = line.type == "ack"
        seg = dpkt.tcp.TCP(sport=port, dport=port, win=65535, data=payload,
                           seq=0 if ack else line.seq % (1 << 32), ack=(line.seq + 1) % (1 << 32) if ack else 0,
                           flags=dpkt.tcp.TH_ACK if ack else dpkt.tcp.TH_PUSH)
    else:
        seg = dpkt.udp.UDP(sport=port, dport=port, data=payload)
        seg.ulen = len(seg)
    ip = dpkt.ip.IP(src=address(line.src[0]), dst=address(line.dst[0]), ttl=64, id=line.uid % (1 << 16),
                    p=dpkt.ip.IP_PROTO_TCP if tcp else dpkt.ip.IP_PROTO_UDP, data=seg)
    ip.len = len(ip)
    return bytes(ip)


def write(trace: Union[str, Path], out: Union[str, Path]) -> int:
    """Write the dequeues of ns-2 trace `trace` to pcap file `out`; how many packets."""
    n = 0
    with open(out, "wb") as f:
        w = dpkt.pcap.Writer(f, snaplen=65535, linktype=LINKTYPE_RAW)
        for line in read(trace):
            if line.event == "-":
                w.writepkt(packet(line), ts=line.time)
                n += 1
    return n
