//! A network as the engine runs it: routers and hosts, links with their
//! names, the routes flows take over them, the links a run measures and
//! where pacers sit. Every topology is built into one ([`super::Graph::build`]).

use super::{route, Names, Routes};
use crate::net::{Link, LinkId};
use crate::pacing::PacerSpec;
use crate::pacing::{Pacing, PacingScheme};
use crate::sim::Time;
use crate::spec::InvalidField;

/// A flow's forward (data) and reverse (ACK) routes, as indices into [`Network::routes`].
#[derive(Debug, Clone, Copy)]
pub struct FlowPath {
    pub fwd: u32,
    pub rev: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Network {
    /// Routers then hosts, by name (the graph's node indices).
    pub nodes: Names,
    /// How many of `nodes` are routers.
    pub routers: usize,
    pub router: route::Router,
    pub links: Vec<Link>,
    /// The core link: the one the summary reports.
    pub core: LinkId,
    /// Every link's name (`core`, `edge_in.3`, `access.17.up`, ...), by id.
    pub names: Names,
    /// Every route's links (shared by copies, as `names`).
    pub routes: Routes,
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
    pub fn add_link(&mut self, link: Link, name: &str) -> LinkId {
        self.links.push(link);
        self.names.push(name);
        (self.links.len() - 1) as LinkId
    }

    pub fn link_named(&self, name: &str) -> Option<LinkId> {
        self.names.position(name).map(|l| l as LinkId)
    }

    /// This network's first link names, for an error naming none of them
    /// (a graph's, not E-base's: `pacesim topology show` lists them all).
    fn some_names(&self) -> String {
        const SHOWN: usize = 6;
        let first = self.names.iter().take(SHOWN).collect::<Vec<_>>().join(", ");
        match self.names.len() {
            n if n > SHOWN => {
                format!("its links are {first}, ... ({n} in all: pacesim topology show lists them)")
            }
            _ => format!("its links are {first}"),
        }
    }

    /// Why `name` cannot send or receive traffic: no node has that name, or
    /// it is a router (which forwards but neither sends nor receives); None
    /// for a host.
    pub fn not_a_host(&self, name: &str) -> Option<String> {
        match self.nodes.position(name) {
            Some(i) if i >= self.routers => None,
            Some(_) => Some(format!("{name:?} is a router, not a host")),
            None => Some(format!("no host named {name:?}")),
        }
    }

    /// Add the shortest route from node `from` to node `to` (by name), for
    /// traffic other than the topology's own flows; `None` if either is
    /// unknown or they are not connected. Only before [`Network::settle`].
    pub fn connect(&mut self, from: &str, to: &str) -> Option<u32> {
        let at = |name: &str| self.nodes.position(name).map(|i| i as u32);
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
                            message: format!("no link named {n:?}; {}", self.some_names()),
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
                let message = format!("on link {}: {why}", self.names.get(l as usize));
                return Err(InvalidField { field: field.into(), message });
            }
            self.pacers.push((l, spec));
        }
        Ok(())
    }

    /// Once every route is added: forget how paths are found
    /// ([`route::Router::settle`]) and give back the room the route tables
    /// and the names grew by doubling (`connect` would then panic).
    pub fn settle(&mut self) {
        self.router.settle();
        self.names.shrink_to_fit();
        self.nodes.shrink_to_fit();
        self.routes.shrink_to_fit();
        self.flows.shrink_to_fit();
    }

    pub fn add_route(&mut self, links: &[LinkId]) -> u32 {
        self.routes.add(links)
    }

    /// The links of route `r`, in order.
    #[inline]
    pub fn route(&self, r: u32) -> &[LinkId] {
        self.routes.get(r)
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
        for route in self.routes.iter() {
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
    #[inline]
    pub fn sender_link(&self, f: usize) -> LinkId {
        self.route(self.flows[f].fwd)[0]
    }

    #[inline]
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
