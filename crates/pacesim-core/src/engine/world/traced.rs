//! Packet traces (`[trace]`, see `net::packet_trace`): the traced links'
//! hops carry `Hop::TRACED`, so a run without a trace pays one bit test per
//! packet-hop and nothing else. A traced run is simulated on one thread
//! (`engine::run`), so its packets are numbered in one creation order.

use super::forward::Hop;
use super::World;
use crate::net::packet_trace::{PacketTrace, PacketTraceSpec, TraceNodes};
use crate::spec::InvalidField;

impl World {
    /// Trace the links `spec` names to its file, from now on.
    pub(crate) fn start_trace(&mut self, spec: &PacketTraceSpec) -> Result<(), InvalidField> {
        let net = &self.net;
        let links = spec.link_ids(|name| net.link_named(name))?;
        let ends = |route: u32| {
            let hops = net.route(route);
            (net.router.half_ends(hops[0]).0, net.router.half_ends(hops[hops.len() - 1]).1)
        };
        let nodes = TraceNodes {
            links: (0..net.links.len() as u32).map(|l| net.router.half_ends(l)).collect(),
            flows: net.flows.iter().map(|f| ends(f.fwd)).collect(),
            sources: self.sources.iter().map(|s| ends(s.route)).collect(),
        };
        self.trace = Some(Box::new(PacketTrace::create(spec, nodes)?));
        for hop in &mut self.route_hops {
            if links.contains(&(hop.link() as u32)) {
                hop.0 |= Hop::TRACED;
            }
        }
        Ok(())
    }
}
