"""Scenarios: what a run simulates, written in human units and checked here.

The models mirror the engine's `Scenario` (crates/pacesim-core/src/scenario.rs)
key for key, so an error names the same dotted path in a TOML file, in a
`--set` override and in the engine. Fields hold human strings on the way in
("10KB", ["8Mbps", "12Mbps"]) and SI integers once validated (bytes, bit/s,
ns); `Scenario.to_engine()` hands those integers over, `Scenario.to_toml()`
writes the human form back. Every default is paper E's E-base (Sec 3.1),
with ns-2 2.35's defaults for the TCP details the paper leaves out.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any, Iterable, List, Literal, Optional, Tuple, Union, get_args, get_origin

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, ValidationInfo, field_validator, model_validator

from . import _core
from .fields import Count, PositiveSize, PositiveTime, Rate, ScenarioError, Size, SizeRange, Time, TimeRange, _Model
from .schema import Choice, default
from .topology import KINDS, EBase, Topology, core_defaults
from .units import format_rate, format_size, format_time

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


Probability = Annotated[float, Field(gt=0.0, le=1.0)]


class Red(_Model):
    """RED's parameters (Floyd and Jacobson 1993; ns-2 Queue/RED), used when
    `core.queue = "red"`. Defaults are paper E Fig. 9's: `max_th` the buffer,
    `min_th` 40 % of it (both left out to follow the buffer), `max_p` 0.1,
    `w_q` 0.002; `gentle` and byte mode (`mean_packet` 1000 B) as ns-2 2.35."""

    min_th: Optional[Size] = None
    """Below this average queue nothing is dropped; absent: 40 % of the buffer (paper E Fig. 9)."""
    max_th: Optional[PositiveSize] = None
    """At this average queue the drop probability reaches max_p; absent: the buffer (paper E Fig. 9)."""
    max_p: Probability = default("core.red.max_p")
    """Drop probability at max_th (paper E Fig. 9)."""
    w_q: Probability = default("core.red.w_q")
    """Weight of the newest queue sample in the average (EWMA; paper E Fig. 9)."""
    gentle: StrictBool = default("core.red.gentle")
    """Drop probability rises from max_p to 1 between max_th and twice it (ns-2 gentle_)."""
    byte_mode: StrictBool = default("core.red.byte_mode")
    """Queue counted and drops scaled in bytes (ns-2 queue_in_bytes_ and bytes_)."""
    mean_packet: PositiveSize = default("core.red.mean_packet")
    """The packet size drop scaling, packet-mode limits and the idle-time correction assume (ns-2 mean_pktsize_)."""


class Core(_Model):
    """The core link (E-base's C0 -> C1; the bottleneck of every named
    topology; a graph's link with core = true) and its queue: drop-tail, or
    RED with `red`. A key left out takes the topology's default
    (`topology.core_defaults`); see `Scenario.core_values()`."""

    rate: Optional[Rate] = None
    """The core link's rate; absent: the topology's (E-base: 100 Mb/s, paper E Sec 3.1)."""
    delay: Optional[Time] = None
    """The core link's one-way propagation delay; absent: the topology's (E-base: 100 ms)."""
    buffer: Optional[Size] = None
    """Drop-tail limit in bytes (a packet is dropped when bytes waiting + its size >= it; ns-2's rule);
    absent: the topology's (E-base: 10 KB)."""
    buffer_packets: Optional[Count] = None
    """Drop-tail limit in packets, alone or with `buffer` (paper Q counts its core buffer in packets)."""
    queue: Choice("core.queue") = "droptail"
    """The core queue's discipline: drop-tail, or RED with `[core.red]` (paper E Fig. 9)."""
    red: Red = Field(default_factory=Red)
    """RED's parameters, used when queue = "red"."""


class Tcp(_Model):
    """One-way TCP as ns-2's `Agent/TCP`; names and defaults as ns-2 2.35's (the engine's `FlatTcp`)."""

    variant: Choice("tcp.variant") = default("tcp.variant")
    """Congestion control: ns-2's Reno, NewReno, Sack1, Fack; BIC and CUBIC (Linux, paper W), FAST (paper W)."""
    segment_size: PositiveSize = default("tcp.segment_size")
    """Payload of a data packet (ns-2 packetSize_; paper E: 1000 B)."""
    header_size: Size = default("tcp.header_size")
    """TCP/IP header added on the wire (ns-2 useHeaders_ true)."""
    ack_size: PositiveSize = default("tcp.ack_size")
    """An ACK's size on the wire."""
    window: Count = default("tcp.window")
    """Receiver's advertised window, packets (ns-2 window_; large so that it never binds)."""
    initial_window: Count = default("tcp.initial_window")
    """Congestion window once the SYN is acknowledged, packets (ns-2 windowInit_)."""
    syn: StrictBool = default("tcp.syn")
    """Open with a 40 B SYN and a window of 1 until it is acknowledged (ns-2 syn_, delay_growth_)."""
    tick: PositiveTime = default("tcp.tick")
    """Granularity of the RTT estimator and the retransmission timer (ns-2 tcpTick_)."""
    min_rto: Time = default("tcp.min_rto")
    """Least retransmission timeout (ns-2 minrto_)."""
    max_rto: Time = default("tcp.max_rto")
    """Largest retransmission timeout, back-off included (ns-2 maxrto_)."""
    initial_rto: PositiveTime = default("tcp.initial_rto")
    """Retransmission timeout before the first RTT sample (ns-2 rtxcur_init_)."""
    delayed_ack: Optional[PositiveTime] = default("tcp.delayed_ack")
    """Delayed ACKs with this timeout (ns-2 Agent/TCPSink/DelAck, interval_ 100 ms); absent: off, as in the papers."""
    rampdown: StrictBool = default("tcp.rampdown")
    """FACK's rampdown (Mathis-Mahdavi Sec 4.3, ns-2 rampdown_); off as in ns-2."""
    fast_alpha: Annotated[float, Field(gt=0.0, allow_inf_nan=False)] = default("tcp.fast_alpha")
    """FAST (Jin-Wei-Low 2004): packets each flow keeps queued in the network."""
    fast_gamma: Probability = default("tcp.fast_gamma")
    """FAST: the step of its window update."""


TraceColumn = Choice("traffic.udp.trace.columns")


class Trace(_Model):
    """A video frame-size trace (paper A Sec II): `file`, one frame per line,
    its fields named in order by `columns` ("frame", "type", "time_s" or
    "time_ms", "bytes" or "bits", "-" to skip; later fields are ignored, `#`
    starts a comment). Frames are sent at their times, or `fps` frames a
    second when there is no time column, and the trace loops. `send`:
    "spread" a frame's packets over its interval at the frame's bit rate, or
    "burst" them all at its time. A relative `file` is from the scenario
    file's directory (the working directory for a dict or a --set)."""

    file: str
    """The trace file, one frame per line; relative to the scenario file's directory."""
    columns: List[TraceColumn]
    """What each field of a line holds, in order (frame, type, time_s or time_ms, bytes or bits, - to skip)."""
    # A frame interval (1 / fps) from 1 ns to the engine's longest time, 10^6 s.
    fps: Optional[Annotated[float, Field(ge=1e-6, le=1e9, allow_inf_nan=False)]] = None
    """Frames a second, for a trace without a time column (10^-6 to 10^9)."""
    send: Choice("traffic.udp.trace.send") = default("traffic.udp.trace.send")
    """spread: a frame's packets at its bit rate over its interval; burst: all at its time."""

    @field_validator("file")
    @classmethod
    def _resolve(cls, file: str, info: ValidationInfo) -> str:
        path = Path(file).expanduser()
        if not path.is_absolute():
            path = Path((info.context or {}).get("base", ".")) / path
        path = path.resolve()
        if not path.is_file():
            raise ValueError(f"no trace file {path}")
        return str(path)

    @model_validator(mode="after")
    def _columns(self) -> Trace:
        named = [c for c in self.columns if c != "-"]
        twice = next((c for i, c in enumerate(named) if c in named[:i]), None)
        if twice is not None:
            raise ScenarioError("columns", f"{twice} is named twice")
        if sum(c in ("bytes", "bits") for c in named) != 1:
            raise ScenarioError("columns", "name exactly one size column, bytes or bits")
        timed = sum(c in ("time_s", "time_ms") for c in named)
        if timed > 1:
            raise ScenarioError("columns", "name at most one time column, time_s or time_ms")
        if timed and self.fps is not None:
            raise ScenarioError("fps", "the time column sets the frame times; fps is for a trace without one")
        if not timed and self.fps is None:
            raise ScenarioError("fps", "required: columns has no time column (time_s or time_ms)")
        return self


class UdpSource(_Model):
    """An open-loop UDP source (papers A Sec V-A, E Sec 5): "cbr", "poisson"
    (exponential gaps), "fbm" (paper A's truncated fractional Brownian
    motion at 1 us resolution with Hurst parameter `hurst`, each packet
    sent when the motion's bytes complete it) at mean `rate` in wire bits, "onoff" (paper Q: CBR at peak
    `rate` during exponential ON periods of mean `on`, silent for
    exponential OFF periods of mean `off`), or "trace" (paper A Sec II: the
    video frames of `trace` cut into packets, played as recorded or scaled
    to mean `rate`), from host `from` to host `to` (A-base and E-base with
    `topology.udp` name them "s-udp" and "d-udp"), first packet at `start`.
    Packet sizes on the wire: `size`, one value or a [low, high] range drawn
    uniformly, or `sizes`, a list drawn from with equal weights (a trace
    frame's last packet carries what is left of it)."""

    model_config = ConfigDict(serialize_by_alias=True)

    kind: Choice("traffic.udp.kind")
    """The source's process (required)."""
    rate: Optional[Rate] = None
    """Mean wire rate (the peak for onoff); required but for a trace, which plays as recorded without it."""
    size: Optional[SizeRange] = None
    """Packet size on the wire, or a [low, high] range drawn uniformly; this or `sizes`."""
    sizes: Optional[List[PositiveSize]] = None
    """Packet sizes drawn with equal weights; this or `size`."""
    start: Time = "0s"
    """Time of the first packet."""
    hurst: Optional[Annotated[float, Field(ge=0.5, lt=1.0)]] = None
    """fbm: the Hurst parameter (paper A Sec V-A uses 0.85)."""
    on: Optional[PositiveTime] = None
    """onoff: mean of the exponential ON periods (paper Q: 100 ms)."""
    off: Optional[PositiveTime] = None
    """onoff: mean of the exponential OFF periods (paper Q: 200 ms)."""
    trace: Optional[Trace] = None
    """trace: the video frame trace, `[traffic.udp.trace]`."""
    from_: str = Field("s-udp", alias="from")
    """The sending host."""
    to: str = "d-udp"
    """The receiving host."""

    @model_validator(mode="after")
    def _one_size(self) -> UdpSource:
        """The front's two keys for the engine's one `size` (the kinds' own keys are the engine's rules)."""
        if (self.size is None) == (self.sizes is None):
            raise ScenarioError("size", "give exactly one of size (a value or [low, high]) and sizes (a list)")
        if self.sizes == []:
            raise ScenarioError("sizes", "the list of sizes is empty")
        return self

    def to_engine(self) -> dict:
        size = {"range": list(self.size)} if self.size is not None else {"list": list(self.sizes)}
        trace = self.trace.model_dump(mode="python") if self.trace is not None else None
        return {"kind": self.kind, "rate": self.rate, "size": size, "start": self.start, "hurst": self.hurst, "on": self.on, "off": self.off,
                "trace": trace, "from": self.from_, "to": self.to}


class ShortFlows(_Model):
    """Closed-loop users of short-lived TCP transfers (paper E Sec 3.4,
    paper A Sec VI): each transfers a file of Pareto size (`mean_size`,
    `shape`), thinks for an exponential time of mean `mean_think`, then opens
    a new connection (slow start again) for the next file. `fraction` of the
    flows, spread evenly, are users; the rest stay long-lived."""

    fraction: Annotated[float, Field(ge=0.0, le=1.0)] = 1.0
    """Share of the TCP flows that are users, spread evenly (0.5: every second flow)."""
    mean_size: PositiveSize = "100KB"
    """Mean of the Pareto file size (paper E Sec 3.4: 100 KB)."""
    shape: Annotated[float, Field(gt=1.0, allow_inf_nan=False)] = 1.2
    """Pareto shape (paper E: 1.2; paper A: 1.5)."""
    mean_think: PositiveTime = "1s"
    """Mean of the exponential think time between files."""


class Traffic(_Model):
    """One TCP flow per sender host, started uniformly over `start`:
    long-lived bulk transfers (ns-2 FTP), or short-lived closed-loop users
    (`[traffic.short]`); and UDP sources (`[[traffic.udp]]`). With `two_way`
    (paper A Sec VII, Fig. 23) every flow has a twin from its receiver back
    to its sender, so data and ACKs of both directions share the core, whose
    reverse half then takes `[core]`'s queue too."""

    start: TimeRange = ["0s", "10s"]
    """TCP flows start at times drawn uniformly over this range."""
    udp: List[UdpSource] = Field(default_factory=list)
    """UDP sources, `[[traffic.udp]]` tables."""
    short: Optional[ShortFlows] = None
    """Closed-loop short-lived users, `[traffic.short]`; absent: every flow long-lived."""
    two_way: StrictBool = False
    """Every flow gets a twin in the other direction (paper A Sec VII)."""


class Pacing(_Model):
    """Where traffic is paced (paper E): nowhere, by TCP at the hosts
    (`host_mode`: "original" RTT/cwnd, "modified" paper W eq. 7, or the
    Linux "rate"), by the optimal delay-bounded edge pacer (delay bound
    `delay`, paper E uses 10 ms; 0 is no pacer) on the ingress edge links,
    or by QLBP there (paper Q: `mu_max`, `mu_min`, `q_max`, `q_lim` in
    packets, or `utilization` and `max_delay` for its rule of thumb).
    `links` puts the pacers on the named links instead. `fraction` is the
    share that paces (paper E Sec 6): the first edge nodes by index, or hosts
    spread evenly over the edges."""

    scheme: Choice("pacing.scheme") = default("pacing.scheme")
    """Who paces: nobody, the TCP senders (paper W), the edge pacer (paper E Sec 2.1) or QLBP (paper Q)."""
    delay: Time = default("pacing.delay")
    """The edge pacer's delay bound d (paper E: 10 ms); 0: no pacer."""
    fraction: Annotated[float, Field(ge=0.0, le=1.0)] = default("pacing.fraction")
    """Share of the edges or hosts that pace (paper E Sec 6)."""
    host_mode: Choice("pacing.host_mode") = default("pacing.host_mode")
    """Host pacing rule: RTT/cwnd, paper W eq. 7, or the Linux rate."""
    mu_max: Rate = default("pacing.mu_max")
    """QLBP's rate at Q_max packets queued (paper Q eq. 1; default from paper Q Sec V-B, Q-fig18)."""
    mu_min: Rate = default("pacing.mu_min")
    """QLBP's rate with an empty queue (paper Q eq. 1, Sec V-B)."""
    q_max: Count = default("pacing.q_max")
    """QLBP: the queue length, packets, from which it sends at the link rate (paper Q Sec V-B)."""
    q_lim: Count = default("pacing.q_lim")
    """QLBP: the pacer's own queue limit, packets (paper Q Sec V-B)."""
    utilization: Optional[Annotated[float, Field(gt=0.0, le=1.0)]] = None
    """QLBP's rule of thumb (paper Q Sec III-C): the link's utilisation rho; with max_delay it sets mu_max, mu_min, q_max."""
    max_delay: Optional[PositiveTime] = None
    """QLBP's rule of thumb: the delay tolerance D_max."""
    links: Optional[list[str]] = None
    """Pace exactly these links by name (core, edge_in.0, access.17.up, ...) instead of the ingress edges."""


class Burstiness(_Model):
    """Burstiness at time scales (paper A Sec III-B): the report's
    `burstiness` gives beta(s), the CoV of bytes arriving at link `link` per
    interval s = bin x 2^k for k < `scales`, over the measurement window, and
    the Hurst parameter from its slope (beta ~ s^(H-1)). With `series` it also
    gives the bytes of every bin over the window (`Result.bin_series`; at most
    2^24 bins), e.g. for the rate's auto-covariance (paper Q Theorem 2)."""

    link: str = "core"
    """The link whose arrivals are binned, by name."""
    bin: PositiveTime = "1us"
    """The smallest time scale (paper A: 1 us)."""
    scales: Annotated[int, Field(strict=True, ge=1, le=40)] = 20
    """Number of time scales, bin x 1, 2, 4, ..."""
    series: bool = False
    """Also return the bytes of every bin (at most 2^24 bins)."""


class Progress(_Model):
    """Every `interval` from time 0 to the end, each TCP flow's payload bytes
    delivered in order (`Result.progress`; at most 2^24 samples): the time to
    transfer a given amount, throughput over time (paper W Figs. 2-5)."""

    interval: PositiveTime = "100ms"
    """Time between samples of every flow's in-order bytes."""


class Delay(_Model):
    """The one-way delay (first bit sent to last bit received) of every
    delivered packet of `class` ("data": TCP segments; "udp") over the window:
    the summary's mean and quantiles, and its CDF (`Result.delay`)."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    class_: Choice("delay.class") = Field(default("delay.class"), alias="class")
    """Which packets: TCP data (from a segment's first transmission) or UDP."""


class Series(_Model):
    """Time series of chosen state (`Result.series`, the store's `series`
    table; long form: time_s, entity, series, value): each flow of `flows`
    records its congestion window `cwnd` and `ssthresh` (packets), smoothed
    RTT `srtt_ms` and retransmission timeout `rto_ms`; each link of `links`
    its queue `queue_bytes` and `queue_packets` (waiting, the packet on the
    wire not counted) and its `drops`; each pacer of `pacers` (named by the
    link it sits in front of) its `backlog_packets` and `rate_mbps`. Without
    `interval`, every change: a value from the instant it changes (the last
    value of an instant), drops counted per instant. With `interval`,
    samples at 0, interval, 2 interval, ... up to the end: the value then,
    and the drops of the interval before each sample. A link with series is
    also reported in `Result.links`."""

    interval: Optional[PositiveTime] = None
    """Sample at this interval from time 0 (at most 2^26 samples in all); absent: record every change."""
    flows: List[Annotated[int, Field(strict=True, ge=0, lt=2**32)]] = Field(default_factory=list)
    """TCP flows by index (0 is the first) whose cwnd, ssthresh, srtt and RTO are recorded."""
    links: List[str] = Field(default_factory=list)
    """Links by name (core, core.rev, edge_in.3, ...) whose queue and drops are recorded."""
    pacers: List[str] = Field(default_factory=list)
    """Pacers, by the name of the link they pace (edge_in.0, ...), whose backlog and rate are recorded."""
    max_points: Optional[Annotated[int, Field(strict=True, ge=1, le=2**26)]] = None
    """The most points kept in all (default and at most 2^26, 1 GiB in the engine). Sampled, a grid past it is
    refused naming `series.interval`; every change, each track keeps its share (max_points over the number of
    tracks) and stops at the first change past it, the run warning when (`RecordingStopped`)."""


class PacketTrace(_Model):
    """A packet trace in ns-2's format (`net::packet_trace`; docs/trace.md):
    every enqueue `+`, dequeue `-`, drop `d` and receive `r` at the links
    `links`, written to `file`, or to `file` as pcap (the packets leaving those
    links, with synthesised IPv4 and TCP/UDP headers) when it ends in `.pcap`.
    A traced run runs on one thread."""

    links: List[str] = ["core"]
    """The traced links, by name (`pacesim topology show` lists them)."""
    file: Optional[str] = None
    """The trace file, from the current directory; `pacesim run --trace FILE` and `run(trace=FILE)` set it."""
    max_bytes: Optional[PositiveSize] = None
    """The most the trace may write (default 1 GiB, about 18 million lines): at it the trace stops on a whole
    line and the run warns when (`RecordingStopped`); the run itself goes on."""


class Scenario(_Model):
    """A whole run: the network, its TCP, its traffic, and the measurement
    window [warmup, duration] over which the report's numbers are taken."""

    seed: Annotated[int, Field(strict=True, ge=0, lt=2**64)] = 1
    """Seed of every random stream: same scenario and seed, same results."""
    duration: PositiveTime = "400s"
    """Simulated time; the measurement window ends here (paper E Sec 3.1: 400 s)."""
    warmup: Time = "100s"
    """The measurement window opens here (paper E: after 100 s)."""
    topology: Topology = Field(default_factory=EBase)
    """The network, `[topology]`: a named kind or a graph."""
    core: Core = Field(default_factory=Core)
    """The core (bottleneck) link and its queue, `[core]`."""
    tcp: Tcp = Field(default_factory=Tcp)
    """Every TCP flow's variant and parameters, `[tcp]`."""
    traffic: Traffic = Field(default_factory=Traffic)
    """Flow starts, short-lived users and UDP sources, `[traffic]`."""
    pacing: Pacing = Field(default_factory=Pacing)
    """Where traffic is paced, `[pacing]`."""
    burstiness: Optional[Burstiness] = None
    """Measure burstiness at time scales, `[burstiness]`; absent: not measured."""
    progress: Optional[Progress] = None
    """Sample every flow's progress, `[progress]`; absent: not sampled."""
    delay: Optional[Delay] = None
    """Measure one-way packet delays, `[delay]`; absent: not measured."""
    series: Optional[Series] = None
    """Record flows', links' and pacers' state over time, `[series]`; absent: not recorded."""
    trace: Optional[PacketTrace] = None
    """Write a packet trace of some links, `[trace]`; absent: none."""

    @model_validator(mode="after")
    def _timeline(self) -> Scenario:
        core = self.core_values()
        for key in ["rate", "delay", "buffer"]:
            if getattr(core, key) is None:
                raise ScenarioError(f"core.{key}", f"required: a {self.topology.kind} topology has no default")
        try:  # every other rule is the engine's own (`Scenario::validate`), named by the field it checks
            _core.validate_json(json.dumps(self.to_engine()))
        except ValueError as e:
            raise ScenarioError.from_engine(e) from None
        return self

    def core_values(self) -> Core:
        """`core` with every key left out taken from the topology's defaults."""
        given = self.core.model_dump(mode="json", exclude_none=True)
        return Core.model_validate({**core_defaults(self.topology.kind), **given})

    def to_engine(self) -> dict:
        """The engine's JSON scenario: same keys, SI integers, ranges as [lo, hi]."""
        data = self.model_dump(mode="python", by_alias=True)
        data["core"] = self.core_values().model_dump(mode="python")
        data["traffic"]["udp"] = [u.to_engine() for u in self.traffic.udp]
        if not self.traffic.two_way:
            del data["traffic"]["two_way"]  # the engine's default: one-way runs keep the keys they had before it
        if self.series is None:
            del data["series"]  # as two_way: runs without series keep their keys (and their store keys)
        elif self.series.max_points is None:
            del data["series"]["max_points"]  # the engine's default cap: runs with series keep their keys
        if self.trace is None:
            del data["trace"]
        elif self.trace.max_bytes is None:
            del data["trace"]["max_bytes"]  # the engine's default cap: traced runs keep the keys they had
        return data

    def to_toml(self) -> str:
        """The scenario as a TOML file in human units; `load_scenario` reads it back."""
        return tomli_w.dumps(self.model_dump(mode="json", exclude_none=True, by_alias=True))


def _keys(model: type[BaseModel]) -> List[str]:
    """The keys a table takes (aliases where a field has one: a link's `from`)."""
    return [f.alias or name for name, f in model.model_fields.items()]


def _field(model: type[BaseModel], key: str) -> Any:
    return next(f for name, f in model.model_fields.items() if (f.alias or name) == key)


def _table(model: type[BaseModel], key: str, kind: Optional[str]) -> Optional[type[BaseModel]]:
    """The model of table `key` in `model` (for `topology`, the class of topology
    `kind`; inside lists and optionals, the item's), or None if `key` is a value."""
    if model is Scenario and key == "topology":
        kind = kind or "e-base"
        return KINDS.get(kind) if isinstance(kind, str) else None
    annotation = _field(model, key).annotation
    while get_origin(annotation) in (list, Union, Annotated):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def _unknown_key(key: str, parent: List[Union[str, int]], kind: Optional[str] = None) -> str:
    """The message for `key` not being a field of the table at path `parent`."""
    model: type[BaseModel] = Scenario
    for part in parent:
        if isinstance(part, str):
            model = _table(model, re.sub(r"\[\d+\]$", "", part), kind)
    where = f"at {_path(parent)}" if parent else "at the top level"
    return f"unknown key {key!r}; valid keys {where}: {', '.join(_keys(model))}"


def _path(loc: Iterable[Union[str, int]]) -> str:
    """A dotted path with list indices in brackets, as the engine writes them: topology.links[2].rate;
    a key that is not a bare TOML key is quoted as TOML would: core."buf fer"."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        part = part if re.fullmatch(r"[A-Za-z0-9_-]+(\[\d+\])?", part) else json.dumps(part)
        out += f".{part}" if out else part
    return out


def _shown(value: Any) -> str:
    """`value` as an error message shows it: its repr, cut at 80 characters."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's 4300-digit limit for printing
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    return text if len(text) <= 80 else text[:77] + "..."


def _describe(error: dict) -> Tuple[str, str]:
    """(dotted field path, message) for one pydantic error."""
    loc = list(error["loc"])
    kind = None
    if loc[:1] == ["topology"] and len(loc) > 1 and loc[1] in KINDS:
        kind = loc.pop(1)  # the discriminated union's tag
    path = _path(loc)
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, ScenarioError):
        return ".".join(filter(None, [path, cause.field])), cause.message
    if cause is not None:
        return path, str(cause)
    if error["type"] == "extra_forbidden":
        return path, _unknown_key(str(loc[-1]), loc[:-1], kind)
    if error["type"] == "union_tag_invalid":
        return path + ".kind", f"{_shown(error['ctx']['tag'])} is not valid; expected {error['ctx']['expected_tags']}"
    if error["type"] == "union_tag_not_found":
        return path, f"expected a table, e.g. {{ kind = \"e-base\" }} (got {_shown(error['input'])})"
    if error["type"] == "literal_error":
        return path, f"{_shown(error['input'])} is not valid; expected {error['ctx']['expected']}"
    return path, f"{error['msg']} (got {_shown(error['input'])})"


def parse_scenario(data: dict, base: Optional[Path] = None) -> Scenario:
    """Validate a scenario in human units (as read from TOML); errors become
    ScenarioError. Relative file names in it (trace files) are from `base`,
    by default the working directory."""
    try:
        return Scenario.model_validate(data, context={"base": base or Path(".")})
    except ValidationError as e:
        problems = [_describe(err) for err in e.errors()]
        (field, message), rest = problems[0], problems[1:]
        raise ScenarioError(field, "; ".join([message] + [f"{f}: {m}" for f, m in rest])) from None


PACKAGED = Path(__file__).resolve().parent / "scenarios"
"""The scenarios, sweep files and traces shipped in the package (`scenarios/` of the repository)."""


def scenario_file(name: Union[str, Path]) -> Path:
    """A scenario file: `name` as a path if it exists, else a packaged scenario
    of that name (`e-base` or `e-base.toml`), else a ScenarioError naming both."""
    path = Path(name)
    if path.is_file():
        return path
    packaged = PACKAGED / (path.name if path.suffix == ".toml" else f"{path.name}.toml")
    if path.parent == Path(".") and packaged.is_file():
        return packaged
    names = ", ".join(sorted(f.stem for f in PACKAGED.glob("[a-z]*.toml")))
    raise ScenarioError(str(name), f"no such file, and no packaged scenario of that name ({names})")


def load_scenario(path: Union[str, Path]) -> Scenario:
    """Read and validate a scenario TOML file, or a packaged scenario by name
    (`scenario_file`); keys left out take E-base's values, and relative file
    names in it are from its directory."""
    path = scenario_file(path)
    return parse_scenario(read_toml(path), path.parent)


def read_toml(path: Path) -> dict:
    """A TOML file's contents; a ScenarioError naming the file when it is not
    UTF-8, not TOML, nested past what the reader can follow, or holds a number
    longer than Python reads (4300 digits)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError(str(path), f"not UTF-8 text: byte 0x{e.object[e.start]:02x} at offset {e.start}") from None
    except OSError as e:
        raise ScenarioError(str(path), f"cannot be read: {e.strerror}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(str(path), f"not valid TOML: {e}") from None
    except RecursionError:
        raise ScenarioError(str(path), "arrays or tables nested too deeply to read") from None
    except ValueError as e:  # int() past sys.get_int_max_str_digits()
        raise ScenarioError(str(path), f"a number too long to read: {e}") from None


def _toml_value(text: str) -> Any:
    """A TOML scalar (or array) if `text` is one, else the text itself: 3 -> 3, 5KB -> "5KB"."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except (ValueError, RecursionError):  # not TOML (or nested, or a number, past what it reads): a string
        return text.strip()


def _indexed(key: str, part: str) -> Tuple[str, Optional[int]]:
    """`udp[0]` -> ("udp", 0); `udp` -> ("udp", None)."""
    m = re.fullmatch(r"(\w+)\[(\d+)\]", part)
    if m:
        return m[1], int(m[2])
    if "[" in part or "]" in part:
        raise ScenarioError(key, f"{part!r}: a list element is written name[index], e.g. traffic.udp[0].rate")
    return part, None


def apply_overrides(scenario: Scenario, overrides: Iterable[str], base: Optional[Path] = None) -> Scenario:
    """A copy of `scenario` with `key=value` overrides applied, `key` a dotted path
    (`core.buffer=5KB`, `seed=3`, `topology.kind=a-base`, `traffic.udp[0].size=40B`
    for a key of a list's element); the result is validated as
    a whole. Relative file names the overrides give are from `base` (see `parse_scenario`)."""
    data = scenario.model_dump(mode="json", exclude_none=True, by_alias=True)
    for item in overrides:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ScenarioError(item if item.strip() else "--set", "an override is key=value, e.g. core.buffer=5KB")
        parts = key.split(".")
        if parts == ["topology", "kind"]:  # a new kind starts from its own defaults
            kind = _toml_value(text)
            if not isinstance(kind, str) or kind not in KINDS:
                raise ScenarioError(key, f"{_shown(kind)} is not valid; expected one of {', '.join(KINDS)}")
            data["topology"] = {"kind": kind}
            continue
        table, model = data, Scenario
        topology = data.get("topology")
        kind = topology.get("kind") if isinstance(topology, dict) else None
        for depth, part in enumerate(parts):
            part, index = _indexed(key, part)
            if model is None:
                raise ScenarioError(key, f"{'.'.join(parts[:depth])} is a value, not a table")
            if part not in _keys(model):
                raise ScenarioError(key, _unknown_key(part, parts[:depth], kind))
            if depth == len(parts) - 1:
                if index is not None:
                    raise ScenarioError(key, "an override sets a key, not a list element: name a key inside it")
                table[part] = _toml_value(text)
            else:
                model = _table(model, part, kind)
                table = table.setdefault(part, {})
                where = ".".join(parts[:depth] + [part])
                if index is not None:
                    if not isinstance(table, list):
                        raise ScenarioError(key, f"{where} is {'a table' if isinstance(table, dict) else 'a value'}, not a list")
                    if index >= len(table):
                        raise ScenarioError(key, f"{where} has {len(table)} element(s), no [{index}]")
                    table = table[index]
                    where += f"[{index}]"
                if model is not None and not isinstance(table, dict):  # an earlier override made it a value
                    raise ScenarioError(key, f"{where} is {_shown(table)}, not a table")
    return parse_scenario(data, base)


def check_key(scenario: Scenario, key: str) -> None:
    """Raise ScenarioError unless `key` (dotted) is a key of `scenario`'s tables."""
    model: Optional[type[BaseModel]] = Scenario
    parts = key.split(".")
    for depth, part in enumerate(parts):
        part, _ = _indexed(key, part)
        if model is None or part not in _keys(model):
            raise ScenarioError(key, _unknown_key(part, parts[:depth], scenario.topology.kind) if model else "not a table")
        model = _table(model, part, scenario.topology.kind) if depth < len(parts) - 1 else model
