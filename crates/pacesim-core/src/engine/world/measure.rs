//! What the world measures beyond the links: the window's opening, flows'
//! progress samples, one-way delays, and the packets it holds. (A flow's
//! losses are counted where packets are dropped, `World::lose`.)

use super::{Event, World};
use crate::metrics::Transit;
use crate::net::PacketKind;
use crate::pacing::LinkPacer;

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
        for (i, f) in self.flows[..flows].iter().enumerate().filter(|&(i, _)| sampled[i]) {
            table.t_s.push(crate::sim::time::secs(self.now));
            table.flow.push(i as u32);
            table.bytes.push(f.delivered(first) as u64 * segment);
        }
        let next = self.now + *interval;
        self.schedule(next, Event::Sample);
    }

    /// The measurement window opens: links open theirs themselves
    /// (`Link::set_window`); flows and pacers start counting afresh.
    pub(super) fn open_window(&mut self) {
        let first = self.setup.first_data();
        for f in &mut self.flows {
            f.delivered_at_warmup = f.delivered(first);
            f.stats_at_warmup = f.sender.state.stats;
            f.cwnd.restart(self.now);
            f.delays = (0, 0);
            f.lost = 0;
            f.syns_sent = 0;
            if let Some(t) = &mut f.transit {
                **t = Transit::default();
            }
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
            .filter(|&&e| matches!(Event::from(e), Event::Arrive(_) | Event::Delayed(_)))
            .count();
        let pacing: usize = self.pacers.iter().map(|p| p.queued()).sum();
        let held: usize = self.net.links.iter().map(|l| l.held_packets()).sum();
        (on_links + pacing + held) as u64
    }
}
