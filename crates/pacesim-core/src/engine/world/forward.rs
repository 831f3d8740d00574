//! Forwarding: a packet from its source along its route, through the pacer
//! in front of a link if there is one, across cut-through links at once, to
//! its endpoint, where the sink acknowledges data and the sender answers
//! ACKs with what it may send next.

use super::hop::Hop;
use super::{traced, Event, World, NO_PACER, SACK_BLOCK_BYTES};
use crate::net::packet::ecn;
use crate::net::{Packet, PacketId, PacketKind, TcpOptions};
use crate::pacing::LinkPacer;
use crate::sim::Time;

impl World {
    /// Hand the packet to the link of its current hop, through the link's
    /// pacer if it has one, or to its queue if that holds its packets.
    #[inline]
    pub(super) fn forward(&mut self, id: PacketId) {
        let hop = self.route_hops[self.packets.get(id).hop as usize];
        if !hop.has(Hop::HELD) {
            return self.transmit_packet(id);
        }
        if hop.has(Hop::DELAYED) && self.delay_box(id) {
            return;
        }
        self.forward_held(id, hop)
    }

    /// Hand the packet to the link of its current hop `hop`, which holds
    /// it: through the link's pacer, or to its queue if that holds its
    /// packets; or, past a DelayBox or to a queue that may mark it, onto
    /// the link.
    pub(super) fn forward_held(&mut self, id: PacketId, hop: Hop) {
        let i = self.pacer_at[hop.link()];
        if i == NO_PACER {
            if !self.net.links[hop.link()].holds() {
                return self.carry_from(id, self.now, hop.has(Hop::MARKS));
            }
            return self.hold(hop, id);
        }
        self.release(i);
        if !self.pacers[i as usize].arrive(self.now, id, self.packets.get(id).size) {
            self.lose(id);
        }
        self.note_pacer(i, self.now);
        self.arm_pacer(i);
    }

    /// Put the packet on the link of its current hop now.
    #[inline]
    pub(super) fn transmit_packet(&mut self, id: PacketId) {
        self.carry(id, self.now);
    }

    /// Offer the packet to the link of its current hop at `at`, and straight
    /// on across any cut-through links after it (see
    /// `Network::mark_cut_through`); schedule its arrival at the end of the
    /// last one, or hand it to the other half at the end of a cut link. The
    /// arrival is ordered among its ties as ns-2 orders it (`sim::event`):
    /// as if scheduled when its transmission on that link started, at its
    /// place in the link's train (`Passage::train`). An offer to a traced
    /// link is recorded (only a run with a trace marks a hop `Hop::TRACED`).
    /// The first link's queue does not mark (`carry_from` for one that may).
    #[inline]
    pub(super) fn carry(&mut self, id: PacketId, at: Time) {
        self.carry_at::<false>(id, at);
    }

    /// [`World::carry`], the first link's queue shown the packet's ECN bits
    /// if `marks` (its hop is `Hop::MARKS`). Only the first: a queue that
    /// may mark is never cut through.
    pub(super) fn carry_from(&mut self, id: PacketId, at: Time, marks: bool) {
        if marks {
            self.carry_at::<true>(id, at);
        } else {
            self.carry_at::<false>(id, at);
        }
    }

    #[inline(always)]
    fn carry_at<const MARKS: bool>(&mut self, id: PacketId, mut at: Time) {
        let net = &mut self.net;
        let p = self.packets.get_mut(id);
        let mut started: (Time, u16);
        let mut marks = MARKS;
        let crossed = loop {
            let hop = self.route_hops[p.hop as usize];
            let link = &mut net.links[hop.link()];
            let passage = if marks {
                marks = false;
                link.pass::<true>(at, p.size, p.kind, &mut p.ecn)
            } else {
                link.pass::<false>(at, p.size, p.kind, &mut p.ecn)
            };
            if hop.has(Hop::TRACED) {
                traced::offered(self.trace.as_deref_mut(), self.now, hop, link, id, p, at, passage);
            }
            match passage {
                Some(passage) => {
                    at = passage.arrives;
                    started = (passage.start, passage.train);
                }
                None => {
                    self.lose(id);
                    return;
                }
            }
            self.hops += 1;
            if hop.has(Hop::CROSSES) {
                break true;
            }
            if !hop.has(Hop::ONWARD) {
                break false;
            }
            p.hop += 1;
        };
        if crossed {
            let options = self.packets.attached_options(id);
            self.outbox.push(at, started, self.origin, *self.packets.get(id), options);
            self.packets.release(id);
        } else {
            self.schedule_as(at, started, Event::Arrive(id));
        }
    }

    /// Packet `id` was dropped: it leaves the run, and counts against its
    /// flow if it is TCP data (ns-3 FlowMonitor's `lostPackets`, counted at
    /// the drop).
    pub(super) fn lose(&mut self, id: PacketId) {
        let p = self.packets.get(id);
        if p.kind == PacketKind::Data {
            self.flows[p.flow as usize].lost += 1;
        }
        self.packets.release(id);
        self.dropped += 1;
    }

    /// A new packet of `flow`, at the start of its route.
    pub(super) fn alloc(
        &mut self,
        flow: u32,
        route: u32,
        kind: PacketKind,
        size: u32,
        seq: i64,
        conn: u32,
    ) -> PacketId {
        let span = self.net.routes.span(route);
        let p = Packet { flow, hop: span.start, last_hop: span.end, kind, conn, size, seq, ecn: 0 };
        let id = self.packets.alloc(p);
        if self.trace.is_some() {
            self.trace_created(id, &p);
        }
        id
    }

    /// The sink of `flow` acknowledges `ackno`, with ECE or not, and with
    /// its options if the sender reads them.
    pub(super) fn inject_ack(&mut self, flow: u32, ackno: i64, ece: bool) {
        let (f, sink) = (&self.flows[flow as usize], &self.sinks[flow as usize]);
        let (options, rev, with_options, conn) = (sink.options(), f.path.rev, sink.sacks(), f.conn);
        let size = self.sizes.ack + SACK_BLOCK_BYTES * options.sack.as_slice().len() as u32;
        let id = self.alloc(flow, rev, PacketKind::Ack, size, ackno, conn);
        if ece {
            self.packets.get_mut(id).ecn = ecn::ECE;
        }
        if with_options {
            self.packets.set_options(id, options);
        }
        self.forward(id);
    }

    pub(super) fn arrive(&mut self, id: PacketId) {
        let p = self.packets.get_mut(id);
        p.hop += 1;
        if p.hop < p.last_hop {
            self.forward(id);
            return;
        }
        let p = *p;
        let options = self.packets.options(id);
        self.packets.release(id);
        self.delivered += 1;
        if let Some((kind, stats)) = &mut self.delay {
            if *kind == p.kind {
                let sent = if p.kind == PacketKind::Data { options.first_sent } else { options.timestamp };
                let delay = self.now - sent;
                stats.record(delay);
                if p.kind == PacketKind::Data {
                    let d = &mut self.measured_sinks[p.flow as usize].delays;
                    *d = (d.0 + 1, d.1 + u128::from(delay));
                }
            }
        }
        if self.measures_transit && p.kind == PacketKind::Data {
            if let Some(t) = &mut self.measured_sinks[p.flow as usize].transit {
                t.record(self.now - options.timestamp);
            }
        }
        match p.kind {
            PacketKind::Data | PacketKind::Ack if !self.flows[p.flow as usize].accepts(p.conn) => {}
            PacketKind::Data => {
                let tmix = p.flow >= self.tmix_base();
                let before = if tmix { self.sinks[p.flow as usize].delivered() } else { 0 };
                self.count_received(&p, self.now, false);
                let sink = &mut self.sinks[p.flow as usize];
                if p.ecn != 0 {
                    if let Some((ackno, ece)) = sink.on_ecn(p.ecn) {
                        self.inject_ack(p.flow, ackno, ece);
                    }
                }
                let sink = &mut self.sinks[p.flow as usize];
                if let Some(ackno) = sink.on_data(p.seq, options.timestamp, self.now) {
                    let ece = sink.ece();
                    self.inject_ack(p.flow, ackno, ece);
                }
                self.arm_sink(p.flow);
                if tmix {
                    let after = self.sinks[p.flow as usize].delivered();
                    if after > before {
                        self.tmix_delivered(p.flow, before, after);
                    }
                }
            }
            PacketKind::Ack => {
                let sender = &mut self.senders[p.flow as usize];
                sender.on_ack(p.seq, p.ecn & ecn::ECE != 0, &options, self.now, &mut self.out);
                if self.flows[p.flow as usize].user.is_some() && sender.done() {
                    self.finish_transfer(p.flow);
                }
                self.transmit(p.flow);
                if p.flow >= self.tmix_base() {
                    self.tmix_acked(p.flow);
                }
            }
            PacketKind::Udp => self.sources[p.flow as usize].received += 1,
        }
    }

    pub(super) fn arm_sink(&mut self, f: u32) {
        if let Some(at) = self.sinks[f as usize].timer.needs_event() {
            self.schedule(at, Event::DelAck(f));
        }
    }

    /// Data packet `seq` of flow `f` (on `route`, of connection `conn`,
    /// stamped with its send times if `stamped`) with ECN bits `ecn` goes out.
    #[inline(always)]
    fn send_data(&mut self, (f, route, conn, stamped): (u32, u32, u32, bool), seq: i64, ecn: u8) {
        let size = match self.sizes.syn {
            Some(syn) if seq == 0 => {
                self.measured_senders[f as usize].syns_sent += 1;
                syn
            }
            _ => self.sizes.data,
        };
        let id = self.alloc(f, route, PacketKind::Data, size, seq, conn);
        if ecn != 0 {
            self.packets.get_mut(id).ecn = ecn;
        }
        if stamped {
            let first_sent = self.senders[f as usize].first_sent(seq).unwrap_or(self.now);
            self.packets
                .set_options(id, TcpOptions { timestamp: self.now, first_sent, ..Default::default() });
        }
        self.forward(id);
    }

    /// Send what the flow's sender emitted, arm its timers, and note its window
    /// (and its state, when recorded).
    pub(super) fn transmit(&mut self, f: u32) {
        let mut out = std::mem::take(&mut self.out);
        let flow = &self.flows[f as usize];
        let stamped = self.senders[f as usize].uses_sack()
            || self.measures_delay(PacketKind::Data)
            || self.measures_transit;
        let data = (f, flow.path.fwd, flow.conn, stamped);
        match self.senders[f as usize].ecn_bits() {
            None => {
                for seq in out.drain(..) {
                    self.send_data(data, seq, 0);
                }
            }
            // The ECN bits of the packets in `out`, one each.
            Some(b) => {
                let mut bits = std::mem::take(&mut self.ecn_bits);
                std::mem::swap(b, &mut bits);
                debug_assert_eq!(bits.len(), out.len());
                for (i, seq) in out.drain(..).enumerate() {
                    self.send_data(data, seq, bits.get(i).copied().unwrap_or(0));
                }
                bits.clear();
                self.ecn_bits = bits;
            }
        }
        self.out = out;
        let (flow, sender) = (&mut self.flows[f as usize], &mut self.senders[f as usize]);
        if flow.active() {
            sender.cwnd.set(self.now, Some(sender.state.w.cwnd));
        }
        if let Some(at) = sender.state.rtx.needs_event() {
            self.schedule(at, Event::Rto(f));
        }
        if let Some(at) = self.senders[f as usize].state.pace.needs_event() {
            self.schedule(at, Event::HostPace(f));
        }
        self.note_flow(f);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{line, line_scenario};
    use super::*;
    use crate::engine::build::build_world;

    /// Put `n` UDP packets of 1040 B on source 0's route at time 0 and run
    /// the world dry; the times each reached h2.
    fn send(w: &mut World, n: usize) -> Vec<Time> {
        send_kinds(w, &vec![PacketKind::Udp; n])
    }

    /// Put packets of 1040 B of these kinds on the route h1 -> h2 at time
    /// 0, in order (UDP of source 0; data of flow 0, of a connection it
    /// does not have, so that its sink ignores them and no ACK follows),
    /// and run the world dry; the times each reached h2.
    fn send_kinds(w: &mut World, kinds: &[PacketKind]) -> Vec<Time> {
        for &kind in kinds {
            let route = if kind == PacketKind::Udp { w.sources[0].route } else { w.flows[0].path.fwd };
            let id = w.alloc(0, route, kind, 1040, 1, 99);
            w.packets.set_options(id, TcpOptions { timestamp: 0, ..Default::default() });
            w.forward(id);
        }
        let mut delivered = Vec::new();
        while let Some((t, ev)) = w.queue.pop_before(Time::MAX) {
            w.now = t;
            let Event::Arrive(id) = Event::from(ev) else { panic!("only arrivals are due") };
            let before = w.delivered;
            w.arrive(id);
            if w.delivered > before {
                delivered.push(t);
            }
        }
        delivered
    }

    #[test]
    fn packets_cross_an_idle_route_in_its_delays_and_serialisations() {
        // 1040 B: 83.2 us at 100 Mb/s, 832 us at 10 Mb/s. The first packet
        // reaches a at 1.0832 ms, leaves the core at 1.9152 ms, reaches b
        // 20 ms later and h2 at 21.9984 + 1 = 22.9984 ms. The second leaves
        // h1 at 166.4 us, waits at the core for the first until 1.9152 ms,
        // and follows it one core serialisation (832 us) later.
        let mut w = line(10_000);
        assert_eq!(send(&mut w, 2), vec![22_998_400, 23_830_400]);
        assert_eq!((w.delivered, w.dropped, w.sources[0].received), (2, 0, 2));
        // The core's far end and b -> h2 (one upstream, never drops) are
        // crossed without an event: two per packet, at a and at h2.
        assert_eq!(w.queue.popped(), 4);
        assert_eq!(w.hops, 6);
    }

    #[test]
    fn a_full_queue_drops_the_arrival() {
        // 1500 B of core buffer: the third packet reaches a at 249.6 us +
        // 1 ms while the first is on the core's wire and the second (1040 B)
        // waits, and 2080 B would not fit.
        let mut w = line(1_500);
        assert_eq!(send(&mut w, 3), vec![22_998_400, 23_830_400]);
        assert_eq!((w.delivered, w.dropped, w.sources[0].received), (2, 1, 2));
        assert_eq!(w.packets.live(), 0, "a dropped packet is released");
    }

    /// The line of `a_full_queue_drops_the_arrival`, with transit delays
    /// measured: three data packets of flow 0 sent at 0 reach h2 at
    /// 22.9984 and 23.8304 ms, the third dropped at the core. The flow
    /// loses one packet; its transits are those arrival times, their
    /// jitter the core's serialisation, 0.832 ms; the 99th percentile is
    /// the larger delay (the maximum, exactly), the median the smaller
    /// one to within its bin (2.1 %). A UDP packet dropped instead (source
    /// 0, the same index as flow 0) is no loss of the flow.
    #[test]
    fn a_flow_counts_its_dropped_data_once_and_its_transit_delays_and_jitter() {
        let with_transit = || {
            let mut s = line_scenario(1_500);
            s.transit = Some(crate::scenario::TransitSpec {});
            build_world(&s, &|_| None).expect("a network")
        };
        let mut w = with_transit();
        let data = PacketKind::Data;
        assert_eq!(send_kinds(&mut w, &[data; 3]), vec![22_998_400, 23_830_400]);
        assert_eq!((w.dropped, w.flows[0].lost), (1, 1));
        let t = w.measured_sinks[0].transit.as_ref().expect("measured");
        assert_eq!(t.count, 2);
        assert_eq!(t.mean(), Some((22_998_400.0 + 23_830_400.0) / 2.0));
        assert_eq!(t.jitter(), Some(832_000.0));
        assert_eq!(t.quantile(0.99), Some(23_830_400));
        let median = t.quantile(0.5).unwrap() as f64;
        assert!((22_998_400.0..=22_998_400.0 * 1.021).contains(&median), "{median}");

        let mut w = with_transit();
        assert_eq!(send_kinds(&mut w, &[data, data, PacketKind::Udp]).len(), 2);
        assert_eq!((w.dropped, w.flows[0].lost, w.sources[0].received), (1, 0, 0));
        assert_eq!(w.measured_sinks[0].transit.as_ref().unwrap().count, 2);
    }
}
