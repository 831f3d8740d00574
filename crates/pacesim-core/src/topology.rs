//! Networks as the engine runs them: links, the routes flows take over
//! them, and names for the links a run measures. Builders for the papers'
//! topologies live beside this file.

pub mod ebase;

use crate::net::{Link, LinkId};
use crate::pacing::PacerSpec;
use crate::scenario::{InvalidField, Pacing};
use crate::sim::Time;

/// A flow's forward (data) and reverse (ACK) routes, as indices into [`Network::routes`].
#[derive(Debug, Clone, Copy)]
pub struct FlowPath {
    pub fwd: u32,
    pub rev: u32,
}

#[derive(Debug, Default)]
pub struct Network {
    pub links: Vec<Link>,
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

    /// Put the pacers `pacing` asks for in front of their links: those named
    /// in `pacing.links`, or else the first `pacing.fraction` of
    /// [`pace_by_default`](Self::pace_by_default).
    pub fn place_pacers(&mut self, pacing: &Pacing) -> Result<(), InvalidField> {
        if pacing.link_pacer(1).is_none() {
            return Ok(());
        }
        let links: Vec<LinkId> = match &pacing.links {
            Some(names) => names
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
            None => {
                let n = (pacing.fraction * self.pace_by_default.len() as f64).round() as usize;
                self.pace_by_default[..n].to_vec()
            }
        };
        for l in links {
            let spec: PacerSpec =
                pacing.link_pacer(self.links[l as usize].rate_bps).expect("scheme paces links");
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

    /// Mark the links a packet can cross without an event at their entrance.
    ///
    /// A link qualifies when every route through it enters from the same
    /// upstream link, it never drops, it is not measured and not paced. Packets then
    /// reach it in the order they were admitted upstream (a FIFO of fixed
    /// delay), so nothing can overtake a packet between the two: the world
    /// offers it to this link the moment the upstream link admits it, at
    /// the time it will arrive, and saves one event per packet.
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
        self.cut_through = (0..self.links.len())
            .map(|l| {
                matches!(upstream[l], Upstream::Only(_))
                    && self.links[l].queue == crate::net::DropTail::unlimited()
                    && !measured.contains(&(l as LinkId))
                    && !self.pacers.iter().any(|&(p, _)| p == l as LinkId)
            })
            .collect();
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
