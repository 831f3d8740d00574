//! What the world measures beyond the links: the window's opening, flows'
//! progress samples and packets received, one-way delays, and the packets
//! it holds. (A flow's
//! losses are counted where packets are dropped, `World::lose`.)

use super::{Event, World};
use crate::metrics::Transit;
use crate::net::{Packet, PacketKind};
use crate::pacing::LinkPacer;
use crate::sim::Time;

impl World {
    /// Whether the one-way delay of packets of `kind` is measured (they are then stamped when sent).
    pub(super) fn measures_delay(&self, kind: PacketKind) -> bool {
        self.delay.as_ref().is_some_and(|(k, _)| *k == kind)
    }

    /// Note every flow's progress, and sample again an interval later.
    pub(super) fn sample(&mut self) {
        let first = self.setup.first_data();
        let segment = self.setup.tcp.segment_size;
        // A split run samples each flow in the half that has its sink.
        // The topology's flows (not Tmix ends).
        let flows = self.flows.len().min(self.tmix_base() as usize);
        let sampled: Vec<bool> = (0..flows).map(|f| self.owns_sink(f)).collect();
        let Some((interval, table)) = &mut self.progress else { return };
        for i in (0..flows).filter(|&i| sampled[i]) {
            table.t_s.push(crate::sim::time::secs(self.now));
            table.flow.push(i as u32);
            table.bytes.push(self.sinks[i].delivered_in_all(first) as u64 * segment);
        }
        let next = self.now + *interval;
        self.schedule(next, Event::Sample);
    }

    /// Data packet `p` of an open connection reaches its sink, its last bit
    /// at `at` (ns; after the end if `late`): its flow counts it for its
    /// goodput (`flow::Goodput`) by the share of its arrival inside the
    /// window, if it is data (not the SYN) the sink has not had, and, if
    /// `late`, is next in order.
    pub(super) fn count_received(&mut self, p: &Packet, at: Time, late: bool) {
        if p.seq < self.setup.first_data() {
            return;
        }
        let last = self.route_hops[p.last_hop as usize - 1].link();
        let tx = self.net.links[last].tx_time(p.size);
        let sink = &mut self.sinks[p.flow as usize];
        if sink.has(p.seq) || (late && p.seq != sink.delivered()) {
            return;
        }
        let share = sink.received.count(self.window, at, tx);
        if !late && share < 1.0 && share > 0.0 {
            self.measured_sinks[p.flow as usize].goodput.straddler = Some((p.conn, p.seq, share));
        }
    }

    /// At the run's end: count the data packets still on their route's last
    /// link then (in the event queue, or due from the other half), as
    /// [`World::count_received`] counts them when they arrive: the share of
    /// their arrival before the end (the rest would fall in a window after it).
    pub fn count_late_arrivals(&mut self) {
        let mut late = std::mem::take(&mut self.late);
        late.extend(self.queue.iter().filter_map(|(at, &e)| match Event::from(e) {
            Event::Arrive(id) => Some((at, *self.packets.get(id))),
            _ => None,
        }));
        for (at, p) in late {
            if p.kind == PacketKind::Data
                && p.hop + 1 == p.last_hop
                && self.flows[p.flow as usize].accepts(p.conn)
            {
                self.count_received(&p, at, true);
            }
        }
    }

    /// The measurement window opens: links open theirs themselves
    /// (`Link::set_window`); flows and pacers start counting afresh (but
    /// for the packets flows receive, counted by their share of the window
    /// whenever they arrive), each end of a flow where it is.
    pub(super) fn open_window(&mut self) {
        for f in self.senders.span() {
            let m = &mut self.measured_senders[f];
            (m.stats_at_warmup, m.syns_sent) = (self.senders[f].state.stats, 0);
            self.senders[f].cwnd.restart(self.now);
        }
        for f in self.sinks.span() {
            let m = &mut self.measured_sinks[f];
            m.open_goodput(&self.flows[f], &self.sinks[f]);
            m.delays = (0, 0);
            if let Some(t) = &mut m.transit {
                **t = Transit::default();
            }
        }
        for f in &mut self.flows {
            f.lost = 0;
        }
        for p in &mut self.pacers {
            p.restart_stats();
        }
        if let Some((_, stats)) = &mut self.delay {
            stats.restart();
        }
    }

    /// Packets the event queue carries (each live packet is on exactly one
    /// link or in a DelayBox) plus those held by pacers and by queues that
    /// hold their packets.
    pub fn packets_in_queue(&self) -> u64 {
        let on_links = self
            .queue
            .iter()
            .filter(|&(_, &e)| matches!(Event::from(e), Event::Arrive(_) | Event::Delayed(_)))
            .count();
        let pacing: usize = self.pacers.iter().map(|p| p.queued()).sum();
        let held: usize = self.net.links.iter().map(|l| l.held_packets()).sum();
        (on_links + pacing + held) as u64
    }
}
