//! Packet traces (`[trace]`, see `net::packet_trace`): the traced links'
//! hops carry `Hop::TRACED`, a bit of the hop `World::carry` reads anyway,
//! so a run without a trace pays one test of it per hop carried and one
//! test per packet created.
//! A traced run is simulated on one thread (`engine::run`), so its packets
//! are numbered in one creation order.

use super::hop::{self, Hop};
use super::World;
use crate::net::packet_trace::{PacketTrace, PacketTraceSpec, TraceNodes};
use crate::net::{Link, Packet, PacketId, PacketKind, Passage};
use crate::sim::Time;
use crate::spec::InvalidField;

/// Packet `id` (`p`) was offered at `at` to the traced link of `hop`,
/// which answered `passage` (`None`: dropped). A link whose queue holds
/// its packets recorded the `+` at the arrival (`World::hold`): this is
/// the packet let go.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(super) fn offered(
    trace: Option<&mut PacketTrace>,
    now: Time,
    hop: Hop,
    link: &Link,
    id: PacketId,
    p: &Packet,
    at: Time,
    passage: Option<Passage>,
) {
    let passage = passage.map(|q| [q.start, q.arrives]);
    let trace = trace.expect("a traced hop has a trace");
    let l = hop.link() as u32;
    match passage {
        Some([start, arrives]) if link.holds() => {
            trace.event(now, l, id, p, start, b'-');
            trace.event(now, l, id, p, arrives, b'r');
        }
        _ => trace.offered(now, l, id, p, at, passage),
    }
}

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
        self.traced_links.clone_from(&links);
        for hop in hop::unshared(&mut self.route_hops) {
            if links.contains(&(hop.link() as u32)) {
                hop.0 |= Hop::TRACED;
            }
        }
        Ok(())
    }

    /// Packet `id` (`p`) was just created, the run's latest.
    #[cold]
    #[inline(never)]
    pub(super) fn trace_created(&mut self, id: PacketId, p: &Packet) {
        let cuts = match p.kind {
            PacketKind::Data => {
                let s = &self.senders[p.flow as usize].state.stats;
                s.fast_retransmits + s.timeouts
            }
            _ => 0,
        };
        let trace = self.trace.as_deref_mut().expect("created only when tracing");
        trace.created(id, self.packets.created() - 1, p, cuts);
    }
}
