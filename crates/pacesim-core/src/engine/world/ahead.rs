//! Preparing for the events ahead: while one event is handled, the cache
//! lines the next few will read are brought in (`sim::prefetch`), so that
//! their misses overlap instead of following one another.
//!
//! An arrival reads its packet, then its route's next hop, then that hop's
//! link; an arrival at the end of the route reads its flow and the flow's
//! sink (data) or sender (an ACK), as a timer event does. Each step needs the one
//! before it, so each is taken a few events later than the one before:
//! the packet [`FAR`] events ahead, its hop (or its flow) [`MID`] ahead,
//! the hop's link [`NEAR`] ahead, when the earlier lines are in. E-base at
//! 100,000 flows spent most of its time waiting on exactly these loads
//! (`perf record`: the packet of each popped arrival, its route hop and
//! the link's side in a split run, bench/speed/README.md). Only the events of
//! the queue's current slot are seen (about 19 at 1000 flows, 1,900 at
//! 100,000), and nothing the run computes depends on what is prepared.
//! A network whose flows fit in the caches has nothing to gain and the
//! instructions to lose: fewer than [`FROM_FLOWS`] flows prepare nothing.

use super::{Event, World};
use crate::sim::prefetch::prefetch;

/// How many events ahead of the one handled each line is asked for.
const FAR: usize = 12;
const MID: usize = 8;
const NEAR: usize = 4;

/// Flows from which the world prepares for its events ahead: 10,000 flows
/// hold 8 MB of senders and sinks, more than a core's second-level cache
/// (1 MB here) many times over.
const FROM_FLOWS: usize = 10_000;

impl World {
    /// Whether a world of `flows` flows prepares for its events ahead.
    pub(super) fn prepares_for(flows: usize) -> bool {
        flows >= FROM_FLOWS
    }

    /// Ask for what the events [`FAR`], [`MID`] and [`NEAR`] places ahead will read.
    #[inline(always)]
    pub(super) fn prepare_ahead(&self) {
        if let Some(&e) = self.queue.ahead(FAR) {
            match Event::from(e) {
                Event::Arrive(id) => prefetch(self.packets.get(id)),
                Event::Rto(f) | Event::HostPace(f) => prefetch(&self.senders[f as usize]),
                Event::DelAck(f) => prefetch(&self.sinks[f as usize]),
                _ => {}
            }
        }
        if let Some(&e) = self.queue.ahead(MID) {
            if let Event::Arrive(id) = Event::from(e) {
                let p = self.packets.get(id);
                let next = p.hop + 1;
                if next < p.last_hop {
                    prefetch(&self.route_hops[next as usize]);
                } else if let Some(flow) = self.flows.get(p.flow as usize) {
                    prefetch(flow);
                    let f = p.flow as usize;
                    match p.kind {
                        crate::net::PacketKind::Data => self.sinks.get(f).map(prefetch),
                        crate::net::PacketKind::Ack => self.senders.get(f).map(prefetch),
                        crate::net::PacketKind::Udp => None,
                    };
                }
            }
        }
        if let Some(&e) = self.queue.ahead(NEAR) {
            if let Event::Arrive(id) = Event::from(e) {
                let p = self.packets.get(id);
                let next = p.hop + 1;
                if next < p.last_hop {
                    let link = self.route_hops[next as usize].link();
                    prefetch(&self.net.links[link]);
                }
                if let (Some(cut), None) = (&self.cut, self.side) {
                    prefetch(cut.ends_of(self.route_hops[p.hop as usize].link() as u32));
                }
            }
        }
    }
}
