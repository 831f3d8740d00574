//! A world simulating one half of a split network (`engine::partition`):
//! which half owns what, the packets taken in from the other half, and the
//! join of the two halves' results.

use std::sync::Arc;

use super::hop::{self, Hop};
use super::{Event, World};
use crate::engine::partition::{Cut, Outbox};
use crate::net::LinkId;
use crate::pacing::LinkPacer;
use crate::sim::Time;

impl World {
    /// Simulate one half of a split network: that half's events only, and
    /// packets reaching the far end of a cut link go to the outbox.
    pub fn split(&mut self, side: u8) {
        let cut = self.cut.as_ref().expect("a network with a cut");
        for hop in hop::unshared(&mut self.route_hops) {
            if cut.crosses(hop.link() as LinkId) {
                hop.0 |= Hop::CROSSES;
            }
        }
        self.pacing_across =
            (0..self.pacers.len() as u32).filter(|&i| cut.crosses(self.net.pacers[i as usize].0)).collect();
        self.side = Some(side);
        self.origin = side;
    }

    /// Share `twin`'s hop words and pacer index, the same as this half's
    /// (both halves are made from one network and marked by one cut): held
    /// once, not twice (at a million flows, 40 MB and 16 MB). Their
    /// networks share their routes and names already, as copies.
    pub fn share_routes(&mut self, twin: &World) {
        debug_assert!(self.route_hops == twin.route_hops && self.pacer_at == twin.pacer_at);
        self.route_hops = Arc::clone(&twin.route_hops);
        self.pacer_at = Arc::clone(&twin.pacer_at);
    }

    /// Fold half 1's results (`other`) into this world, half 0's, which then
    /// reports for both: each link, pacer, flow end and source from the half
    /// that simulated it, a flow's losses summed over both.
    pub fn join(&mut self, other: &mut World) {
        let (a, b) = (self, other);
        let cut = a.cut.clone().expect("a split world");
        for l in (0..a.net.links.len()).filter(|&l| cut.side(l as LinkId) == 1) {
            std::mem::swap(&mut a.net.links[l], &mut b.net.links[l]);
        }
        for (i, &(link, _)) in a.net.pacers.iter().enumerate() {
            if cut.side(link) == 1 {
                std::mem::swap(&mut a.pacers[i], &mut b.pacers[i]);
            }
        }
        let flows = a.flows.len();
        let (senders, sinks): (Vec<bool>, Vec<bool>) =
            (0..flows).map(|f| (b.owns_sender(f), b.owns_sink(f))).unzip();
        a.senders.join(&mut b.senders, flows, |f| senders[f]);
        a.measured_senders.join(&mut b.measured_senders, flows, |f| senders[f]);
        a.sinks.join(&mut b.sinks, flows, |f| sinks[f]);
        a.measured_sinks.join(&mut b.measured_sinks, flows, |f| sinks[f]);
        for (x, y) in a.flows.iter_mut().zip(&b.flows) {
            x.lost += y.lost;
        }
        for (x, y) in a.sources.iter_mut().zip(&b.sources) {
            x.sent += y.sent;
            x.received += y.received;
        }
        if let (Some((_, x)), Some((_, y))) = (&mut a.progress, &b.progress) {
            x.merge(y);
        }
        if let (Some((_, x)), Some((_, y))) = (&mut a.delay, &b.delay) {
            x.merge(y);
        }
        a.join_series(b);
    }

    /// The clock this half may post, having run every event before `clock`:
    /// no packet it sends from now on makes an event in the other half
    /// before this plus the other half's lookahead (`Cut::into`). That is
    /// `clock`, or earlier for a departure that a pacer in front of a cut
    /// link has yet to put on its link (`World::release`): by as much as
    /// that link's own lookahead (`Cut::across`) falls short of the
    /// half's.
    ///
    /// (A pacer puts its packets on its link by a timer half the link's
    /// delay after their departure. Posting the departure itself, a half
    /// could wait for the other while the other waited for it, both
    /// clocks still, when the pacer's link is slower to cross than the
    /// lookahead: found with random graphs, bench/fuzz/split_graphs.py.)
    pub fn sends_from(&self, clock: Time) -> Time {
        let cut = self.cut.as_ref().expect("a split world");
        let side = self.side.expect("a split world");
        let into = cut.into[usize::from(1 - side)];
        self.pacing_across
            .iter()
            .filter_map(|&i| {
                let link = self.net.pacers[i as usize].0;
                let departs = self.pacers[i as usize].next_departure()?;
                Some(departs.saturating_add(cut.across(link) - into))
            })
            .fold(clock, Time::min)
    }

    /// Whether this world simulates the half of the network where `link`'s queue is.
    pub fn owns(&self, link: LinkId) -> bool {
        match (&self.cut, self.side) {
            (Some(cut), Some(side)) => cut.side(link) == side,
            _ => true,
        }
    }

    /// The half of the network event `ev` happens in (for a world that
    /// simulates both).
    pub(super) fn origin_of(&self, cut: &Cut, ev: Event) -> u8 {
        let net = &self.net;
        match ev {
            Event::Arrive(id) => {
                cut.far_side(self.route_hops[self.packets.get(id).hop as usize].link() as LinkId)
            }
            Event::Rto(f) | Event::HostPace(f) | Event::Start(f) => cut.side(net.sender_link(f as usize)),
            Event::DelAck(f) => cut.side(net.sink_link(f as usize)),
            Event::Pace(i) => cut.side(net.pacers[i as usize].0),
            Event::Transmit(l) => cut.side(l),
            Event::Udp(i) => cut.side(net.route(self.sources[i as usize].route)[0]),
            Event::Warmup | Event::Sample | Event::End => 0,
            // A Tmix run is never split (`Cut::of`).
            Event::TmixStart(_) | Event::TmixApp(_) | Event::Delayed(_) => 0,
        }
    }

    /// Whether this world simulates the sender of flow `f`, and its sink.
    pub fn owns_sender(&self, f: usize) -> bool {
        self.owns(self.net.sender_link(f))
    }

    pub fn owns_sink(&self, f: usize) -> bool {
        self.owns(self.net.sink_link(f))
    }

    /// Take in the packets the other half sent across, in order, but those
    /// due at or after `end`. Each reaches the far end of its cut link at
    /// `at` (later than anything this half has simulated) and goes on
    /// exactly as it would have in one world: across the cut-through links
    /// after the cut at once, or by an arrival event, ordered as if
    /// scheduled when the packet started across the cut link.
    pub fn receive(&mut self, inbox: &mut Outbox, end: Time) {
        inbox.drain(|c, options| {
            if c.at >= end {
                self.late.push((c.at, c.packet));
                self.unreceived += 1;
                return;
            }
            let id = self.packets.adopt(c.packet);
            if let Some(options) = options {
                self.packets.set_options(id, options);
            }
            let p = self.packets.get_mut(id);
            if self.route_hops[p.hop as usize].has(Hop::ONWARD) {
                p.hop += 1;
                let origin = std::mem::replace(&mut self.origin, c.origin);
                self.carry(id, c.at);
                self.origin = origin;
            } else {
                self.schedule_from(c.at, (c.sent, c.place), c.origin, Event::Arrive(id));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{line, line_scenario};
    use super::*;
    use crate::net::PacketKind;

    /// The line's two halves: b -> h2 is cut through, which leaves no 2 ms
    /// of lookahead around the core's near end a, so it splits at the core:
    /// h1 and a in half 0, b and h2 in half 1.
    fn halves() -> (World, World) {
        let (mut a, mut b) = (line(10_000), line(10_000));
        let cut = Cut::of(&line_scenario(10_000), &a.net).expect("the line splits");
        // Lookahead into half 1: the core's 20 ms and then b -> h2's 1 ms
        // at once; into half 0 (the flow's ACKs) the core's reverse half and
        // a -> h1's, alike.
        assert_eq!(cut.into, [21_000_000, 21_000_000]);
        (a.cut, b.cut) = (Some(cut.clone()), Some(cut));
        a.split(0);
        b.split(1);
        (a, b)
    }

    /// Half 0 sends `n` UDP packets of 1040 B at time 0 and runs dry.
    fn send(a: &mut World, n: usize) {
        let route = a.sources[0].route;
        for _ in 0..n {
            let id = a.alloc(0, route, PacketKind::Udp, 1040, 0, 0);
            a.forward(id);
        }
        a.run_until(Time::MAX, &mut |_| {});
    }

    #[test]
    fn a_packet_crosses_the_cut_at_the_far_end_and_goes_on_there_as_in_one_world() {
        let (mut a, mut b) = halves();
        let core = a.net.core;
        assert!(a.owns(core) && !b.owns(core), "the core's queue is in half 0");
        assert!(a.owns_sender(0) && !a.owns_sink(0) && b.owns_sink(0));
        send(&mut a, 3);
        // Each reaches b, the core's far end, 20 ms after it leaves the core
        // (one world: at 1.9152, 2.7472 and 3.5792 ms, see `forward`'s
        // tests), and half 0 hands it over instead of scheduling its arrival.
        let mut crossed = Vec::new();
        let mut inbox = Outbox::default();
        a.outbox.drain(|c, options| {
            crossed.push(c.at);
            inbox.push(c.at, (c.sent, c.place), c.origin, c.packet, options);
        });
        assert_eq!(crossed, vec![21_915_200, 22_747_200, 23_579_200]);
        assert_eq!(a.delivered, 0);
        // Those due at or after the end are not taken in; the others reach
        // h2 as in one world, across b -> h2 at once.
        b.receive(&mut inbox, 23_000_000);
        assert_eq!(b.unreceived, 1);
        b.run_until(Time::MAX, &mut |_| {});
        assert_eq!((b.delivered, b.now), (2, 23_830_400));
        assert_eq!(b.queue.popped(), 2, "one arrival event each, at h2");
    }

    #[test]
    fn joining_takes_each_link_and_source_count_from_the_half_that_has_it() {
        let (mut a, mut b) = halves();
        send(&mut a, 1);
        b.receive(&mut a.outbox, Time::MAX);
        b.run_until(Time::MAX, &mut |_| {});
        a.sources[0].sent = 1;
        // The route's last link, b -> h2, is in half 1.
        let last = *a.net.route(a.sources[0].route).last().expect("a route") as usize;
        let (mine, theirs) = (format!("{:?}", a.net.links[0]), format!("{:?}", b.net.links[last]));
        assert_ne!(format!("{:?}", a.net.links[last]), theirs, "half 0 never used b's links");
        a.join(&mut b);
        assert_eq!((a.sources[0].sent, a.sources[0].received), (1, 1));
        assert_eq!(format!("{:?}", a.net.links[0]), mine, "half 0's own link stays");
        assert_eq!(format!("{:?}", a.net.links[last]), theirs, "half 1's link comes over");
    }
}
