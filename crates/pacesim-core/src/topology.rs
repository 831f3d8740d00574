//! Networks as the engine runs them: links, the routes flows take over
//! them, and names for the links a run measures.
//!
//! A scenario's topology is either written out as a general [`graph::Graph`]
//! or named, and each named topology is a short builder beside this file
//! producing a `Graph` with its paper's layout: [`ebase`], [`abase`],
//! [`q_line`], [`q_tandem`], [`q_dumbbell`], [`w_dumbbell`]. [`Graph::build`]
//! turns a graph into a [`Network`], routing flows by shortest path
//! ([`route`]).

pub mod abase;
pub mod ebase;
pub mod graph;
pub mod q_dumbbell;
pub mod q_line;
pub mod q_tandem;
pub mod route;
pub mod w_dumbbell;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

pub use graph::Graph;

use crate::net::core_link::Core;
use crate::net::{Link, LinkId};
use crate::pacing::PacerSpec;
use crate::pacing::{Pacing, PacingScheme};
use crate::sim::Time;
use crate::spec::tagged::{self, Tagged};
use crate::spec::{InvalidField, Range};

/// The network a scenario describes: named, or a general graph.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Topology {
    EBase(ebase::EBase),
    ABase(abase::ABase),
    QLine(q_line::QLine),
    QTandem(q_tandem::QTandem),
    QDumbbell(q_dumbbell::QDumbbell),
    WDumbbell(w_dumbbell::WDumbbell),
    Graph(Graph),
}

impl Tagged for Topology {
    const TAG: &'static str = "kind";
    const VARIANTS: &'static [&'static str] =
        &["e-base", "a-base", "q-line", "q-tandem", "q-dumbbell", "w-dumbbell", "graph"];

    fn variant<'de, D: Deserializer<'de>>(name: &str, rest: D) -> Result<Self, D::Error> {
        Ok(match name {
            "e-base" => Topology::EBase(Deserialize::deserialize(rest)?),
            "a-base" => Topology::ABase(Deserialize::deserialize(rest)?),
            "q-line" => Topology::QLine(Deserialize::deserialize(rest)?),
            "q-tandem" => Topology::QTandem(Deserialize::deserialize(rest)?),
            "q-dumbbell" => Topology::QDumbbell(Deserialize::deserialize(rest)?),
            "w-dumbbell" => Topology::WDumbbell(Deserialize::deserialize(rest)?),
            "graph" => Topology::Graph(Deserialize::deserialize(rest)?),
            other => return Err(serde::de::Error::unknown_variant(other, Self::VARIANTS)),
        })
    }
}

/// Read with [`tagged`], so an error inside names its path (`topology.links[3].rate`).
impl<'de> Deserialize<'de> for Topology {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged::deserialize(d)
    }
}

impl Topology {
    /// The general form of this topology (rates and delays of the named
    /// ones drawn from `seed`'s streams).
    pub fn graph(&self, seed: u64) -> std::borrow::Cow<'_, Graph> {
        use std::borrow::Cow::{Borrowed, Owned};
        match self {
            Topology::EBase(t) => Owned(ebase::graph(t, seed)),
            Topology::ABase(t) => Owned(abase::graph(t, seed)),
            Topology::QLine(t) => Owned(q_line::graph(t, seed)),
            Topology::QTandem(t) => Owned(q_tandem::graph(t, seed)),
            Topology::QDumbbell(t) => Owned(q_dumbbell::graph(t, seed)),
            Topology::WDumbbell(t) => Owned(w_dumbbell::graph(t, seed)),
            Topology::Graph(g) => Borrowed(g),
        }
    }

    /// Every link delay the topology's spec gives, as (its field, its largest
    /// value in ns), so that one past the engine's clock is refused naming
    /// the field (`topology.links[3].delay`) before a link is built.
    pub fn delays(&self) -> Vec<(String, u64)> {
        let most = |field: &str, r: Range| (format!("topology.{field}"), r[0].max(r[1]));
        match self {
            Topology::EBase(t) => {
                let mut out = vec![most("access_delay", t.access_delay), most("edge_delay", t.edge_delay)];
                out.extend(t.udp.as_ref().map(|u| ("topology.udp.delay".to_string(), u.delay)));
                out
            }
            Topology::ABase(t) => {
                vec![most("access_delay", t.access_delay), most("udp_access_delay", t.udp_access_delay)]
            }
            Topology::QLine(t) => vec![most("access_delay", t.access_delay)],
            Topology::QTandem(t) => vec![most("link_delay", t.link_delay)],
            Topology::QDumbbell(t) => {
                vec![most("host_delay", t.host_delay), most("access_delay", t.access_delay)]
            }
            Topology::WDumbbell(t) => vec![most("access_delay", t.access_delay)],
            Topology::Graph(g) => g
                .links
                .iter()
                .enumerate()
                .filter_map(|(i, l)| l.delay.map(|d| most(&format!("links[{i}].delay"), d)))
                .collect(),
        }
    }

    /// The network, with every flow routed (and, `two_way`, its twin).
    pub fn build(&self, core: &Core, seed: u64, two_way: bool) -> Result<Network, InvalidField> {
        self.graph(seed).build(core, seed, two_way)
    }
}

/// A flow's forward (data) and reverse (ACK) routes, as indices into [`Network::routes`].
#[derive(Debug, Clone, Copy)]
pub struct FlowPath {
    pub fwd: u32,
    pub rev: u32,
}

#[derive(Debug, Default)]
pub struct Network {
    /// Routers then hosts, by name (the graph's node indices).
    pub nodes: Vec<String>,
    /// How many of `nodes` are routers.
    pub routers: usize,
    pub router: route::Router,
    pub links: Vec<Link>,
    /// The core link: the one the summary reports.
    pub core: LinkId,
    /// Every link's name (`core`, `edge_in.3`, `access.17.up`, ...), by id.
    pub names: Vec<String>,
    /// Every route's links, back to back: route `r` is `hops[routes[r]]`.
    pub hops: Vec<LinkId>,
    pub routes: Vec<std::ops::Range<u32>>,
    pub flows: Vec<FlowPath>,
    /// Links measured in the report.
    pub measured: Vec<LinkId>,
    /// Where a pacing scheme puts its pacers unless told otherwise (the
    /// ingress edge links, in order).
    pub pace_by_default: Vec<LinkId>,
    /// Links a packet may enter ahead of time, see [`Network::mark_cut_through`].
    pub cut_through: Vec<bool>,
    /// Pacers: the link each sits in front of, and which pacer.
    pub pacers: Vec<(LinkId, PacerSpec)>,
}

impl Network {
    pub fn add_link(&mut self, link: Link, name: String) -> LinkId {
        self.links.push(link);
        self.names.push(name);
        (self.links.len() - 1) as LinkId
    }

    pub fn link_named(&self, name: &str) -> Option<LinkId> {
        self.names.iter().position(|n| n == name).map(|l| l as LinkId)
    }

    /// Add the shortest route from node `from` to node `to` (by name), for
    /// traffic other than the topology's own flows; `None` if either is
    /// unknown or they are not connected.
    pub fn connect(&mut self, from: &str, to: &str) -> Option<u32> {
        let at = |name: &str| self.nodes.iter().position(|n| n == name).map(|i| i as u32);
        let (a, b) = (at(from)?, at(to)?);
        let path = self.router.path(a, b)?;
        Some(self.add_route(&path))
    }

    /// Put the pacers `pacing` asks for in front of their links: those named
    /// in `pacing.links`, or else the first `pacing.fraction` of
    /// [`pace_by_default`](Self::pace_by_default).
    pub fn place_pacers(&mut self, pacing: &Pacing) -> Result<(), InvalidField> {
        // Named links are checked whether or not the scheme paces (a typo passed unseen with pacing off,
        // issue 33).
        let named: Option<Vec<LinkId>> = match &pacing.links {
            Some(names) => Some(
                names
                    .iter()
                    .map(|n| {
                        self.link_named(n).ok_or_else(|| InvalidField {
                            field: "pacing.links".into(),
                            message: format!(
                                "no link named {n:?} (links are named like core, edge_in.0, access.0.up)"
                            ),
                        })
                    })
                    .collect::<Result<_, _>>()?,
            ),
            None => None,
        };
        if pacing.link_pacer(1).is_none() {
            return Ok(());
        }
        if pacing.links.is_none() && self.pace_by_default.is_empty() {
            return Err(InvalidField {
                field: "pacing.links".into(),
                message: "this topology paces no link by default: name the links to pace".into(),
            });
        }
        let links: Vec<LinkId> = match named {
            Some(links) => links,
            None => {
                let n = (pacing.fraction * self.pace_by_default.len() as f64).round() as usize;
                self.pace_by_default[..n].to_vec()
            }
        };
        for l in links {
            let spec: PacerSpec =
                pacing.link_pacer(self.links[l as usize].rate_bps).expect("scheme paces links");
            if let Some(why) = match spec {
                PacerSpec::Qlbp(q) => q.unusable(),
                PacerSpec::Edge { .. } => None,
            } {
                // The rule of thumb's parameters follow from utilization and max_delay.
                let field = match &pacing.scheme {
                    PacingScheme::Qlbp(q) => q.q_max_field(),
                    _ => "pacing.q_max",
                };
                let message = format!("on link {}: {why}", self.names[l as usize]);
                return Err(InvalidField { field: field.into(), message });
            }
            self.pacers.push((l, spec));
        }
        Ok(())
    }

    pub fn add_route(&mut self, links: &[LinkId]) -> u32 {
        let start = self.hops.len() as u32;
        self.hops.extend_from_slice(links);
        self.routes.push(start..self.hops.len() as u32);
        (self.routes.len() - 1) as u32
    }

    /// The links of route `r`, in order.
    pub fn route(&self, r: u32) -> &[LinkId] {
        let span = &self.routes[r as usize];
        &self.hops[span.start as usize..span.end as usize]
    }

    /// Mark the links a packet can cross without an event at their entrance,
    /// and those that need no queue bookkeeping ([`Link::set_untracked`]).
    ///
    /// A link qualifies when every route through it enters from the same
    /// upstream link, it never drops and it is not paced. Packets then
    /// reach it in the order they were admitted upstream (a FIFO of fixed
    /// delay), so nothing can overtake a packet between the two: the world
    /// offers it to this link the moment the upstream link admits it, at
    /// the time it will arrive, and saves one event per packet. A measured
    /// one accounts each packet at its own time (`Link::set_window`), so
    /// its report is the same as with the event (E-base: every egress
    /// edge link, one event fewer per data packet).
    pub fn mark_cut_through(&mut self) {
        #[derive(Clone, Copy, PartialEq)]
        enum Upstream {
            Unseen,
            Only(LinkId),
            Many,
        }
        let mut upstream = vec![Upstream::Unseen; self.links.len()];
        for span in &self.routes {
            let route = &self.hops[span.start as usize..span.end as usize];
            for (i, &l) in route.iter().enumerate() {
                let from = if i == 0 { Upstream::Many } else { Upstream::Only(route[i - 1]) };
                let u = &mut upstream[l as usize];
                *u = match *u {
                    Upstream::Unseen => from,
                    seen if seen == from => seen,
                    _ => Upstream::Many,
                };
            }
        }
        let measured: std::collections::HashSet<LinkId> = self.measured.iter().copied().collect();
        let never_drops: Vec<bool> = self
            .links
            .iter()
            .map(|l| l.queue().is_none_or(|q| *q == crate::net::DropTail::unlimited()))
            .collect();
        self.cut_through = (0..self.links.len())
            .map(|l| {
                matches!(upstream[l], Upstream::Only(_))
                    && never_drops[l]
                    && !self.pacers.iter().any(|&(p, _)| p == l as LinkId)
            })
            .collect();
        let quiet = (0..self.links.len()).map(|l| never_drops[l] && !measured.contains(&(l as LinkId)));
        // The same links, and any other that never drops and is not
        // reported, need no queue bookkeeping at all.
        for (link, quiet) in self.links.iter_mut().zip(quiet.collect::<Vec<_>>()) {
            if quiet {
                link.set_untracked();
            }
        }
    }

    /// The first link of flow `f`'s data route (leaving its sender) and of
    /// its ACK route (leaving its sink).
    pub fn sender_link(&self, f: usize) -> LinkId {
        self.route(self.flows[f].fwd)[0]
    }

    pub fn sink_link(&self, f: usize) -> LinkId {
        self.route(self.flows[f].rev)[0]
    }

    /// Round-trip time of an idle network for a `data`-byte packet out and an `ack`-byte one back.
    pub fn base_rtt(&self, flow: usize, data: u32, ack: u32) -> Time {
        let p = self.flows[flow];
        let one_way = |route: u32, size: u32| -> Time {
            self.route(route)
                .iter()
                .map(|&l| {
                    let l = &self.links[l as usize];
                    l.delay + l.tx_time(size)
                })
                .sum()
        };
        one_way(p.fwd, data) + one_way(p.rev, ack)
    }
}

/// Helpers for the builders' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::Network;
    use crate::net::core_link::{Core, QueueKind};

    pub fn core(rate: u64, delay: u64, buffer: u64) -> Core {
        Core {
            rate,
            delay,
            buffer,
            buffer_packets: None,
            queue: QueueKind::Droptail,
            red: Default::default(),
            codel: Default::default(),
            fq_codel: Default::default(),
            pie: Default::default(),
        }
    }

    /// Smallest and largest base RTT over the flows, ms (1040 B out, 40 B back).
    pub fn rtt_range_ms(net: &Network) -> (f64, f64) {
        (0..net.flows.len())
            .map(|f| net.base_rtt(f, 1040, 40) as f64 / 1e6)
            .fold((f64::MAX, 0f64), |(a, b), r| (a.min(r), b.max(r)))
    }
}
