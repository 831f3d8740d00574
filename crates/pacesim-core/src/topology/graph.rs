//! The general topology: named routers and hosts, duplex links between
//! them, and the TCP flows from host to host. Every named topology (E-base,
//! A-base, ...) is a short function producing one of these; a scenario file
//! may also write one out in full (`kind = "graph"`).
//!
//! A link joins `from` and `to` in both directions, each direction (ns-2's
//! `duplex-link` halves) with its own queue, name and flags: its forward
//! half carries `from -> to`. Rates and delays are closed ranges drawn once
//! per link from the "topology.link" stream (a fixed value is `[v, v]`).
//! Exactly one link is the core (`core = true`): its forward half takes
//! rate, delay and queue from the scenario's `[core]`, so `core.buffer`
//! sweeps work on every topology, and it is the link the summary reports.
//! Its halves are named `core` and `core.rev`, as in every named topology,
//! so what reads the core by name (`[burstiness]`, `--trace`, the series)
//! finds it: another name for them, or either name on another link, is an
//! error naming the field.
//!
//! Routes follow shortest paths in hops, found once by [`Router`]: a flow's
//! data takes the path from its sender to its receiver, its ACKs the path
//! back (found the same way, from the receiver).
//!
//! Two-way TCP (paper A Sec VII, Fig. 23: "bidirectional TCP flows ... ACK
//! drops at r0 and r1"): each of the n flows gets a twin, flow n + i for
//! flow i, whose data takes flow i's ACK route and whose ACKs take its data
//! route, so data and ACKs of both directions share every queue on the way.
//! The core's reverse half then carries the twins' data: it takes `[core]`'s
//! queue as the forward half does (RED from a stream of its own) and is
//! measured.

use std::borrow::Cow;
use std::sync::LazyLock;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::MapAccess;
use serde::{Deserialize, Serialize};

use super::names::Index;
use super::route::Router;
use super::{FlowPath, Names, Network};
use crate::net::core_link::{Core, QueueKind, QueueKnobs};
use crate::net::{DropTail, Link, LinkId, Queue};
use crate::sim::rng::{stream, uniform};
use crate::spec::{flat, InvalidField, Range};

/// A network written out: routers (`nodes`), `hosts`, duplex `links`, TCP
/// `flows`. The engine checks it and names the offender of a bad one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("x-flows" = ["flows"]))]
pub struct Graph {
    /// Router names: nodes that forward but neither send nor receive.
    #[serde(default)]
    pub nodes: Vec<String>,
    /// Host names: flows and UDP sources start and end at hosts.
    #[serde(default)]
    pub hosts: Vec<String>,
    /// Duplex links, `links = [{ from = ..., to = ..., ... }]`.
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    /// Long-lived TCP flows, one sender and one receiver each, `flows = [{ from = ..., to = ... }]`.
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
}

/// A duplex link between two nodes; `core = true` for the one link whose
/// rate, delay and forward queue come from `[core]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// One end, a node or host (required).
    pub from: String,
    /// The other end (required).
    pub to: String,
    /// This is the core link: rate, delay and forward queue come from `[core]`.
    #[serde(default)]
    pub core: bool,
    /// The link's rate, bit/s; required unless `core` (which takes `[core]`'s).
    #[serde(default)]
    #[schemars(extend("x-unit" = "bit/s"))]
    pub rate: Option<Range>,
    /// The link's one-way delay, ns; required unless `core` (which takes `[core]`'s).
    #[serde(default)]
    #[schemars(extend("x-unit" = "ns"))]
    pub delay: Option<Range>,
    /// The `from -> to` half: name, queue, measured, paced.
    #[serde(default)]
    pub forward: Direction,
    /// The `to -> from` half.
    #[serde(default)]
    pub reverse: Direction,
}

impl LinkSpec {
    /// A link with a fixed rate and delay, halves named `there` and `back`.
    pub fn fixed(from: String, to: String, rate: u64, delay: u64, there: String, back: String) -> Self {
        LinkSpec {
            from,
            to,
            core: false,
            rate: Some([rate, rate]),
            delay: Some([delay, delay]),
            forward: Direction { name: Some(there), ..Direction::default() },
            reverse: Direction { name: Some(back), ..Direction::default() },
        }
    }

    /// The core link `from -> to` (rate, delay and queue from `[core]`),
    /// both halves measured, named `core` and `core.rev`.
    pub fn core(from: &str, to: &str) -> Self {
        LinkSpec {
            from: from.into(),
            to: to.into(),
            core: true,
            rate: None,
            delay: None,
            forward: Direction { name: Some("core".into()), ..Direction::default() },
            reverse: Direction { name: Some("core.rev".into()), measure: true, ..Direction::default() },
        }
    }
}

/// One half of a duplex link: its name (default "from-to"; the core link's
/// halves are "core" and "core.rev"), its output queue (drop-tail, CoDel,
/// FQ-CoDel or PIE) and its limits (absent: never drops), whether the run reports
/// it and whether a pacing scheme paces it by default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, remote = "Self")]
#[schemars(rename = "Direction")]
pub struct Direction {
    /// The half's name in reports and `pacing.links`; absent: `from-to`
    /// (forward) or `to-from` (reverse), and `core` and `core.rev` for the
    /// core link's, the only names they may have.
    #[serde(default)]
    pub name: Option<String>,
    /// Drop-tail byte limit; absent never drops on bytes.
    #[serde(default)]
    #[schemars(extend("x-unit" = "bytes"))]
    pub buffer: Option<u64>,
    /// Drop-tail packet limit; absent never drops on packets.
    #[serde(default)]
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    pub buffer_packets: Option<u64>,
    /// This half's queue discipline: `droptail` (absent), `codel` (RFC
    /// 8289, with `codel`), `fq_codel` (RFC 8290, with `fq_codel` and
    /// `codel`) or `pie` (RFC 8033, with `pie`), all with the limits above. RED is the core's only
    /// (`core.queue`); the halves that take `[core]`'s queue take its
    /// discipline too.
    #[serde(default)]
    pub queue: Option<QueueKind>,
    /// The disciplines' knobs (`codel`, ...), as `[core]` has them, read by `spec::flat`.
    #[serde(flatten, skip_deserializing)]
    #[schemars(!skip_deserializing)]
    pub knobs: Knobs,
    /// Report this half's counters (`Result.links`).
    #[serde(default)]
    pub measure: bool,
    /// A pacing scheme puts its pacer in front of this half (unless
    /// `pacing.links` names others).
    #[serde(default)]
    pub pace: bool,
}

flat::flattened!(Direction, knobs);

/// A half's queue knobs: [`QueueKnobs`], boxed only when the half's table
/// gives one. A generated network's halves give none, and inline they took
/// some 170 B of each half (the graph's link specs, two halves each and two
/// specs a flow, are the largest thing a build holds beside the network:
/// 113.6 MB of 261 MB at 100,000 flows, bench/speed/README.md). Read,
/// written and documented as the knobs it holds, or their defaults.
#[derive(Debug, Clone, Default)]
pub struct Knobs(Option<Box<QueueKnobs>>);

impl std::ops::Deref for Knobs {
    type Target = QueueKnobs;

    fn deref(&self) -> &QueueKnobs {
        static DEFAULT: LazyLock<QueueKnobs> = LazyLock::new(QueueKnobs::default);
        self.0.as_deref().unwrap_or(&DEFAULT)
    }
}

impl PartialEq for Knobs {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Serialize for Knobs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Knobs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        QueueKnobs::deserialize(d).map(|k| Knobs(Some(Box::new(k))))
    }
}

impl JsonSchema for Knobs {
    fn inline_schema() -> bool {
        QueueKnobs::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        QueueKnobs::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        QueueKnobs::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        QueueKnobs::json_schema(generator)
    }
}

impl flat::Group for Knobs {
    fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        self.0.get_or_insert_with(Box::default).read(key, map)
    }
}

/// A long-lived TCP flow from host `from` to host `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// The sending host (required).
    pub from: String,
    /// The receiving host (required).
    pub to: String,
}

/// Why `name` cannot name a node, host or link half: it is empty, only
/// whitespace, has whitespace at an end, or holds a control or format
/// character anywhere (`invisible`: NUL, a zero-width space, a byte order
/// mark, a soft hyphen, a direction mark), which what names it (a link's
/// ends, a flow, `pacing.links`, a report's row) would have to repeat
/// unseen, and which a shell or an editor drops; None for a usable name.
fn unusable(name: &str) -> Option<String> {
    if name.is_empty() {
        Some("an empty name".into())
    } else if name.trim().is_empty() {
        Some(format!("a name of only whitespace, {name:?}"))
    } else if name.trim() != name {
        Some(format!("whitespace at an end of the name {name:?}"))
    } else if let Some(c) = name.chars().find(|&c| invisible(c)) {
        Some(format!("an invisible character, U+{:04X}, in the name {name:?}", c as u32))
    } else {
        None
    }
}

/// Unicode's format characters (general category Cf, Unicode 15.1), as
/// inclusive ranges of code points.
const FORMAT: [(u32, u32); 21] = [
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Whether `c` is a control (general category Cc: NUL, tab, DEL, C1) or a
/// format character (Cf, `FORMAT`): one a terminal shows as nothing or acts on.
fn invisible(c: char) -> bool {
    c.is_control() || FORMAT.iter().any(|&(lo, hi)| (lo..=hi).contains(&(c as u32)))
}

/// The name of a link's `half` ("forward" or "reverse") from `x` to `y`:
/// `given`, or `x-y`; the core link's halves are `core` and `core.rev`,
/// names no other half may take (else what reads the core by name would
/// read it), and no half has a name `unusable` refuses. An error says why a
/// given name is refused.
fn half_name(core: bool, half: &str, given: Option<&str>, (x, y): (&str, &str)) -> Result<String, String> {
    let reserved = if half == "forward" { "core" } else { "core.rev" };
    match given {
        None if core => Ok(reserved.to_string()),
        None => Ok(format!("{x}-{y}")),
        Some(n) if core && n != reserved => Err(format!(
            "the core link's {half} half is named {reserved:?} ([burstiness], --trace and the summary read it by \
             that name), not {n:?}"
        )),
        Some(n) if !core && (n == "core" || n == "core.rev") => Err(format!(
            "{n:?} names a half of the core link (core = true), which this link is not"
        )),
        Some(n) => match unusable(n) {
            Some(why) => Err(format!(
                "{why} (reports, pacing.links and [series] name a half by it); leave it out for \"{x}-{y}\""
            )),
            None => Ok(n.to_string()),
        },
    }
}

fn bad(field: String, message: impl Into<String>) -> InvalidField {
    InvalidField { field, message: message.into() }
}

impl Graph {
    /// Every node's then every host's name, pushed onto `nodes` (the
    /// graph's node indices) and indexed; a duplicate or `unusable` name is
    /// an error.
    fn index(&self, nodes: &mut Names) -> Result<Index, InvalidField> {
        let count = self.nodes.len() + self.hosts.len();
        nodes.reserve_exact(count);
        let mut index = Index::with_capacity(count);
        let named = self.nodes.iter().map(|n| ("nodes", n)).chain(self.hosts.iter().map(|h| ("hosts", h)));
        for (i, (list, name)) in named.enumerate() {
            let pos = if list == "nodes" { i } else { i - self.nodes.len() };
            if let Some(why) = unusable(name) {
                return Err(bad(
                    format!("topology.{list}[{pos}]"),
                    format!("{why} (links and flows name it)"),
                ));
            }
            if index.insert(nodes, name, i).is_err() {
                return Err(bad(format!("topology.{list}[{pos}]"), format!("duplicate name {name:?}")));
            }
            nodes.push(name);
        }
        Ok(index)
    }

    fn is_host(&self, node: u32) -> bool {
        node as usize >= self.nodes.len()
    }

    /// Build the network: draw every link's rate and delay, create both
    /// halves of each link (forward first), route every flow, and with
    /// `two_way` add every flow's twin after them. Errors name the offending
    /// field: a link to a missing node, a duplicate name, a missing or
    /// doubled core, a flow between unconnected hosts, a queue given for
    /// the core's reverse half that two-way traffic takes from `[core]`
    /// (a zero rate or packet limit is past the schema's bounds,
    /// `spec::bounds`, which `Scenario::validate` holds first).
    pub fn build(&self, core: &Core, seed: u64, two_way: bool) -> Result<Network, InvalidField> {
        let mut net = Network::default();
        let index = self.index(&mut net.nodes)?;
        let cores: Vec<usize> = (0..self.links.len()).filter(|&i| self.links[i].core).collect();
        if cores.len() != 1 {
            return Err(bad(
                "topology.links".into(),
                format!("exactly one link must have core = true (found {})", cores.len()),
            ));
        }
        // Two halves a link, each with its name: room for exactly as many.
        net.links.reserve_exact(2 * self.links.len());
        net.names.reserve_exact(2 * self.links.len());
        let mut ends = Vec::with_capacity(self.links.len());
        let mut names = Index::with_capacity(2 * self.links.len());
        for (i, l) in self.links.iter().enumerate() {
            let field = |f: &str| format!("topology.links[{i}].{f}");
            let node = |f: &str, name: &str| {
                index
                    .get(&net.nodes, name)
                    .map(|n| n as u32)
                    .ok_or_else(|| bad(field(f), format!("no node or host named {name:?}")))
            };
            let (a, b) = (node("from", &l.from)?, node("to", &l.to)?);
            if a == b {
                return Err(bad(field("to"), format!("a link from {:?} to itself", l.from)));
            }
            let (rate, delay) = if l.core {
                for (f, given) in [("rate", l.rate.is_some()), ("delay", l.delay.is_some())] {
                    if given {
                        return Err(bad(field(f), "the core link's rate and delay come from [core]"));
                    }
                }
                (core.rate, core.delay)
            } else {
                let missing = |f: &str| bad(field(f), "required (only the core link takes it from [core])");
                let (rate, delay) =
                    (l.rate.ok_or_else(|| missing("rate"))?, l.delay.ok_or_else(|| missing("delay"))?);
                for (f, r) in [("rate", rate), ("delay", delay)] {
                    if r[0] > r[1] {
                        return Err(bad(
                            field(f),
                            format!("range lower bound {} exceeds upper bound {}", r[0], r[1]),
                        ));
                    }
                }
                let mut rng = stream(seed, "topology.link", i as u64);
                (uniform(&mut rng, rate), uniform(&mut rng, delay))
            };
            for (half, dir, (x, y)) in
                [("forward", &l.forward, (&l.from, &l.to)), ("reverse", &l.reverse, (&l.to, &l.from))]
            {
                // The halves that take `[core]`'s queue, RED drawing from ("core.red", 0) and ("core.red", 1).
                let core_queue = l.core && (half == "forward" || two_way);
                if core_queue && half == "reverse" {
                    for (f, given) in
                        [("buffer", dir.buffer.is_some()), ("buffer_packets", dir.buffer_packets.is_some())]
                    {
                        if given {
                            return Err(bad(
                                field(&format!("reverse.{f}")),
                                "with traffic.two_way the core's reverse half takes [core]'s queue",
                            ));
                        }
                    }
                }
                let name = half_name(l.core, half, dir.name.as_deref(), (x, y))
                    .map_err(|message| bad(field(&format!("{half}.name")), message))?;
                // Indexed as the link it names, added below.
                if names.insert(&net.names, &name, net.links.len()).is_err() {
                    return Err(bad(field(&format!("{half}.name")), format!("duplicate link name {name:?}")));
                }
                let queue = if core_queue {
                    if dir.queue.is_some() {
                        return Err(bad(
                            field(&format!("{half}.queue")),
                            "this half takes [core]'s queue (core.queue)",
                        ));
                    }
                    Queue::core(core, seed, u64::from(half == "reverse"))
                } else {
                    let kind = dir.queue.unwrap_or_default();
                    if kind == QueueKind::Red {
                        return Err(bad(
                            field(&format!("{half}.queue")),
                            "RED is the core link's only (core.queue, [core.red])",
                        ));
                    }
                    let limit = DropTail { limit_bytes: dir.buffer, limit_packets: dir.buffer_packets };
                    dir.knobs.validate(kind, &limit, &field(half))?;
                    // Its own stream: ("link.queue", 2 i for the forward half, 2 i + 1 the reverse).
                    let rng = stream(seed, "link.queue", 2 * i as u64 + u64::from(half == "reverse"));
                    Queue::of(kind, limit, &dir.knobs, rng)
                };
                let id = net.add_link(Link::new(rate, delay, queue), &name);
                if dir.measure || core_queue {
                    net.measured.push(id);
                }
                if dir.pace {
                    net.pace_by_default.push(id);
                }
                if l.core && half == "forward" {
                    net.core = id;
                }
            }
            ends.push((a, b));
        }
        let mut router = Router::new(net.nodes.len(), ends);
        for (i, f) in self.flows.iter().enumerate() {
            let field = |f: &str| format!("topology.flows[{i}].{f}");
            let host = |f: &str, name: &str| match index.get(&net.nodes, name).map(|n| n as u32) {
                Some(n) if self.is_host(n) => Ok(n),
                Some(_) => Err(bad(field(f), format!("{name:?} is a router, not a host"))),
                None => Err(bad(field(f), format!("no host named {name:?}"))),
            };
            let (a, b) = (host("from", &f.from)?, host("to", &f.to)?);
            if a == b {
                return Err(bad(field("to"), format!("a flow from {:?} to itself", f.from)));
            }
            let unconnected =
                || bad(format!("topology.flows[{i}]"), format!("no route from {:?} to {:?}", f.from, f.to));
            let fwd: Vec<LinkId> = router.path(a, b).ok_or_else(unconnected)?;
            let rev: Vec<LinkId> = router.path(b, a).ok_or_else(unconnected)?;
            let (fwd, rev) = (net.add_route(&fwd), net.add_route(&rev));
            net.flows.push(FlowPath { fwd, rev });
        }
        if two_way {
            let twins: Vec<FlowPath> =
                net.flows.iter().map(|p| FlowPath { fwd: p.rev, rev: p.fwd }).collect();
            net.flows.extend(twins);
        }
        net.routers = self.nodes.len();
        net.router = router;
        Ok(net)
    }
}
