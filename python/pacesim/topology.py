"""Topologies: the papers' named networks and the general graph they all become.

`kind` picks one: "e-base" (paper E Sec 3.1), "a-base" (paper A Sec II),
"q-line", "q-tandem", "q-dumbbell" (paper Q Secs IV-B, IV-C, IV-D),
"w-dumbbell" (paper W Sec III), or "graph", written out in full. Each
named kind is a short builder in the engine (crates/pacesim-core/src/
topology/) producing a graph; its defaults are its paper's. The `[core]`
section sets the bottleneck (core) link of every kind; keys it leaves out
take the topology's `CORE` defaults. Routes follow shortest paths in hops
(ties broken by declaration order), computed once by the engine;
`describe()` shows what was built.
"""

from __future__ import annotations

import json
from typing import Annotated, ClassVar, Dict, List, Literal, Optional, Union

from pydantic import ConfigDict, Discriminator, Field, StrictBool, Tag

from .fields import U32, Count, PositiveSize, Rate, RateRange, Size, Time, TimeRange, _Model


class EBaseUdp(_Model):
    """E-base's UDP host link: paper E Sec 5 gives 100 Mb/s; its delay, which
    the paper leaves out, defaults to a mean access plus edge delay (3 + 10 ms)."""

    rate: Rate = "100Mbps"
    """The UDP host's link rate (paper E Sec 5)."""
    delay: Time = "13ms"
    """Its one-way delay (not in the paper: a mean access plus edge delay)."""


class EBase(_Model):
    """Paper E Sec 3.1 (Fig. 2): `edges` ingress edge links into the core node,
    each fed by `hosts_per_edge` access links with one long-lived TCP sender
    behind each, mirrored towards the sinks. Rates and delays are drawn per
    link, uniformly over the given ranges."""

    CORE: ClassVar[dict] = {"rate": "100Mbps", "delay": "100ms", "buffer": "10KB"}
    kind: Literal["e-base"] = "e-base"
    """Paper E's network (the default)."""
    edges: Count = 10
    """Ingress edge links into the core node (paper E Sec 3.1: 10)."""
    hosts_per_edge: Count = 100
    """TCP senders behind each edge (paper E: 100, so 1000 flows)."""
    access_rate: RateRange = ["8Mbps", "12Mbps"]
    """Each host's access link rate, drawn per link (paper E Sec 3.1; E-fig5 uses 100 Mb/s)."""
    access_delay: TimeRange = ["1ms", "5ms"]
    """Each access link's delay, drawn per link (paper E Sec 3.1)."""
    edge_rate: RateRange = "100Mbps"
    """Each edge link's rate (paper E Sec 3.1)."""
    edge_delay: TimeRange = ["5ms", "15ms"]
    """Each edge link's delay, drawn per link (paper E Sec 3.1)."""
    udp: Optional[EBaseUdp] = None
    """An aggregate UDP host (paper E Sec 5): "s-udp" on its own edge link `edge_in.udp` into the core node
    (paced by default like the others), receiver "d-udp" behind the far end; absent: no UDP host."""


class ABase(_Model):
    """Paper A Sec II (Fig. 1): routers r0 -> r1 (the core, 50 ms); each of
    `tcp_hosts` TCP senders on its own access link into r0, one aggregate UDP
    sender (host "s-udp", receiver "d-udp") on its own. The paper gives
    sender-side delays only and RTTs of 102-150 ms, so receivers' links have
    no delay. Access rate 10 Mb/s as in A-fig11 (A-fig2 uses 1 Mb/s)."""

    CORE: ClassVar[dict] = {"rate": "100Mbps", "delay": "50ms", "buffer": "10KB"}
    kind: Literal["a-base"] = "a-base"
    """Paper A's network."""
    tcp_hosts: Annotated[int, Field(strict=True, ge=0, lt=U32)] = 1000
    """TCP senders, one flow each (paper A Sec II: 1000); 0 leaves the UDP host alone on the core."""
    access_rate: RateRange = "10Mbps"
    """Each TCP host's access link rate (A-fig11: 10 Mb/s; A-fig2: 1 Mb/s)."""
    access_delay: TimeRange = ["1ms", "25ms"]
    """Each TCP host's access link delay, drawn per link (RTTs of 102-150 ms, paper A Sec II)."""
    udp_access_rate: RateRange = "100Mbps"
    """The UDP host's access link rate."""
    udp_access_delay: TimeRange = "5ms"
    """The UDP host's access link delay."""


class QLine(_Model):
    """Paper Q Sec IV-B (Fig. 8, Q-tab2): host n0 -> router n1 -> host n2, the
    link n1 -> n2 the core, paced by default; 15 Mb/s and 10 ms each. No TCP
    flows. The core queue is effectively unlimited (the pacer's q_lim
    bounds the queue in the paper's experiment)."""

    CORE: ClassVar[dict] = {"rate": "15Mbps", "delay": "10ms", "buffer": "10MB"}
    kind: Literal["q-line"] = "q-line"
    """Paper Q's line n0 -> n1 -> n2."""
    access_rate: RateRange = "15Mbps"
    """The n0 -> n1 link's rate (paper Q Sec IV-B: 15 Mb/s)."""
    access_delay: TimeRange = "10ms"
    """The n0 -> n1 link's delay (paper Q Sec IV-B: 10 ms)."""


class QTandem(_Model):
    """Paper Q Sec IV-C (Fig. 13, Q-fig15): host src -> p1 .. pK -> host dst,
    each pacer node pacing its outgoing link; all 10 Mb/s and 2 ms; the last
    link (where the paper counts arriving bytes) is the core."""

    CORE: ClassVar[dict] = {"rate": "10Mbps", "delay": "2ms", "buffer": "10MB"}
    kind: Literal["q-tandem"] = "q-tandem"
    """Paper Q's tandem of pacers."""
    pacers: Annotated[int, Field(strict=True, ge=1, lt=U32)] = 1
    """Pacer nodes in a row (paper Q Fig. 15: 1-3)."""
    link_rate: RateRange = "10Mbps"
    """Every link's rate but the core's (paper Q Sec IV-C: 10 Mb/s)."""
    link_delay: TimeRange = "2ms"
    """Every link's delay but the core's (paper Q Sec IV-C: 2 ms)."""


class QDumbbell(_Model):
    """Paper Q Sec IV-D (Fig. 17, Q-fig18): 4 access routers x 10 senders into
    c0, core c0 -> c1, 10 receivers (sender i sends to receiver i mod 10);
    all links 100 Mb/s, a -> c0 and the core 20 ms, host links U[1, 10] ms;
    the access routers' queues hold 2000 packets and carry the pacers. The
    core buffer is in packets (core.buffer_packets, 1-100 in the paper)."""

    CORE: ClassVar[dict] = {"rate": "100Mbps", "delay": "20ms", "buffer": "100MB", "buffer_packets": 20}
    kind: Literal["q-dumbbell"] = "q-dumbbell"
    """Paper Q's dumbbell."""
    access_routers: Count = 4
    """Access routers feeding c0 (paper Q Sec IV-D: 4)."""
    senders_per_router: Count = 10
    """TCP senders behind each access router (paper Q: 10)."""
    receivers: Count = 10
    """Receivers behind c1; sender i sends to receiver i mod receivers (paper Q: 10)."""
    host_rate: RateRange = "100Mbps"
    """Every host link's rate (paper Q: 100 Mb/s)."""
    host_delay: TimeRange = ["1ms", "10ms"]
    """Every host link's delay, drawn per link (paper Q: U[1, 10] ms)."""
    access_rate: RateRange = "100Mbps"
    """Each access router's link into c0 (paper Q: 100 Mb/s)."""
    access_delay: TimeRange = "20ms"
    """Its delay (paper Q: 20 ms)."""
    access_buffer_packets: Count = 2000
    """The access routers' queue limit, packets; the pacers sit there (paper Q: 2000)."""


class WDumbbell(_Model):
    """Paper W Sec III: `flows` senders s<i> into r0, the core r0 -> r1,
    receivers d<i> behind r1, all with one RTT (1 + 58 + 1 ms each way:
    120 ms, W's WAN scenarios); a host pair x-src -> x-dst for cross traffic.
    Core buffer = the bandwidth-delay product of 1 Gb/s x 120 ms."""

    CORE: ClassVar[dict] = {"rate": "1Gbps", "delay": "58ms", "buffer": "15MB"}
    kind: Literal["w-dumbbell"] = "w-dumbbell"
    """Paper W's dumbbell."""
    flows: Count = 16
    """Sender-receiver pairs, one TCP flow each."""
    access_rate: RateRange = "1Gbps"
    """Every host link's rate (paper W Sec III: 1 Gb/s)."""
    access_delay: TimeRange = "1ms"
    """Every host link's delay (paper W Sec III: 1 ms)."""


class Direction(_Model):
    """One half of a duplex link: its name (default "from-to"), drop-tail
    limits (absent: never drops), whether the run reports it and whether a
    pacing scheme paces it by default."""

    name: Optional[str] = None
    """The link half's name in reports and `pacing.links`; absent: "from-to"."""
    buffer: Optional[Size] = None
    """Drop-tail limit in bytes; absent (with buffer_packets): never drops."""
    buffer_packets: Optional[Count] = None
    """Drop-tail limit in packets."""
    measure: StrictBool = False
    """Report this half's counters (`Result.links`)."""
    pace: StrictBool = False
    """A pacing scheme (edge, qlbp) paces this half by default."""


class LinkSpec(_Model):
    """A duplex link between two nodes; `core = true` for the one link whose
    rate, delay and forward queue come from `[core]`."""

    model_config = ConfigDict(serialize_by_alias=True)

    from_: str = Field(alias="from")
    """One end, a node or host (required)."""
    to: str
    """The other end (required)."""
    core: StrictBool = False
    """This is the core link: rate, delay and forward queue from `[core]`."""
    rate: Optional[RateRange] = None
    """The link's rate (a core link takes `[core]`'s)."""
    delay: Optional[TimeRange] = None
    """The link's one-way delay (a core link takes `[core]`'s)."""
    forward: Direction = Field(default_factory=Direction)
    """The from -> to half: name, queue, measured, paced."""
    reverse: Direction = Field(default_factory=Direction)
    """The to -> from half."""


class FlowSpec(_Model):
    """A long-lived TCP flow from host `from` to host `to`."""

    model_config = ConfigDict(serialize_by_alias=True)

    from_: str = Field(alias="from")
    """The sending host (required)."""
    to: str
    """The receiving host (required)."""


class Graph(_Model):
    """A network written out: routers (`nodes`), `hosts`, duplex `links`, TCP
    `flows`. The engine checks it and names the offender of a bad one."""

    CORE: ClassVar[dict] = {}
    kind: Literal["graph"] = "graph"
    """A network written out in full."""
    nodes: List[str] = Field(default_factory=list)
    """Router names."""
    hosts: List[str] = Field(default_factory=list)
    """Host names (flows and UDP sources start and end at hosts)."""
    links: List[LinkSpec] = Field(default_factory=list)
    """Duplex links, `links = [{ from = ..., to = ..., ... }]`."""
    flows: List[FlowSpec] = Field(default_factory=list)
    """Long-lived TCP flows, `flows = [{ from = ..., to = ... }]`."""


KINDS: Dict[str, type] = {m.model_fields["kind"].default: m for m in [EBase, ABase, QLine, QTandem, QDumbbell, WDumbbell, Graph]}

def _kind(value) -> Optional[str]:
    """The topology kind of a table, e-base when it names none; None for what is not a table."""
    if isinstance(value, dict):
        return value.get("kind", "e-base")
    return getattr(value, "kind", None)


Topology = Annotated[
    Union[tuple(Annotated[model, Tag(kind)] for kind, model in KINDS.items())],  # type: ignore[misc]
    Discriminator(_kind),
]


def core_defaults(kind: str) -> dict:
    """The `[core]` values (human units) a topology kind uses for keys left out."""
    return dict(KINDS[kind].CORE)


def describe(scenario, examples: int = 3) -> dict:
    """What the engine builds for `scenario`: routers, hosts, every link half
    (name, ends, rate, delay, queue limits, measured, pacer), the flow count,
    the core link's name and `examples` flows' routes with their base RTT."""
    from . import _core
    from .scenario import ScenarioError

    try:
        return json.loads(_core.describe_json(json.dumps(scenario.to_engine()), examples))
    except ValueError as e:
        raise ScenarioError.from_engine(e) from None
