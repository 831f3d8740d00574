//! Links whose queue holds its packets (`Link::holds`: the discipline may
//! drop packets already queued, at an arrival or at dequeue, or choose
//! which of its queues goes next): a packet joins the queue when it
//! reaches the link, and the discipline's next packet goes on the link
//! when the transmitter frees, by a `Transmit` event at that time.

use super::hop::Hop;
use super::{Event, World};
use crate::net::discipline::Queued;
use crate::net::PacketId;

impl World {
    /// Packet `id` reaches the queue of `hop`'s link, which holds its
    /// packets; those the discipline drops leave the run.
    pub(super) fn hold(&mut self, hop: Hop, id: PacketId) {
        let l = hop.link();
        let p = *self.packets.get(id);
        let q = Queued { id, kind: p.kind, size: p.size, flow: p.flow, enqueued: self.now };
        let mut dropped = std::mem::take(&mut self.queue_drops);
        let mut ecn = p.ecn;
        if !self.net.links[l].enqueue(q, &mut ecn, &mut dropped) {
            dropped.push(q);
        }
        self.packets.get_mut(id).ecn = ecn;
        if let Some(trace) = self.trace.as_deref_mut().filter(|_| hop.has(Hop::TRACED)) {
            trace.event(self.now, l as u32, id, &p, self.now, b'+');
        }
        self.queue_dropped(l as u32, &mut dropped);
        self.queue_drops = dropped;
        self.start_held(l as u32);
    }

    /// Put on link `l` the held packets its transmitter is free for now,
    /// and arm its `Transmit` event for the next.
    pub(super) fn start_held(&mut self, l: u32) {
        let mut dropped = std::mem::take(&mut self.queue_drops);
        while let Some(id) = self.net.links[l as usize].next_held(self.now, &mut dropped) {
            self.queue_dropped(l, &mut dropped);
            self.carry(id, self.now);
        }
        self.queue_dropped(l, &mut dropped);
        self.queue_drops = dropped;
        if let Some(at) = self.net.links[l as usize].arm_transmit() {
            self.schedule(at, Event::Transmit(l));
        }
    }

    /// The queue of link `l` dropped the packets `dropped` now: they leave
    /// the run (`d` in a trace of the link).
    fn queue_dropped(&mut self, l: u32, dropped: &mut Vec<Queued>) {
        if let Some(trace) = self.trace.as_deref_mut().filter(|_| self.traced_links.contains(&l)) {
            for d in dropped.iter() {
                trace.event(self.now, l, d.id, self.packets.get(d.id), self.now, b'd');
            }
        }
        for d in dropped.drain(..) {
            self.lose(d.id);
        }
    }
}

#[cfg(test)]
mod tests {
    /// The core's departures (packets, bytes) over [1, 3] ms when UDP CBR
    /// of 1040 B packets at 1.2 times its rate of `rate` b/s keeps it busy,
    /// its queue `queue` with a 1 MB limit.
    fn saturated(rate: u64, queue: &str) -> (u64, u64) {
        let json = format!(
            r#"{{"seed":1,"duration":3000000,"warmup":1000000,
            "topology":{{"kind":"graph","nodes":[],"hosts":["a","b"],"links":[{{"from":"a","to":"b","core":true}}],"flows":[]}},
            "core":{{"rate":{rate},"delay":1000000,"buffer":1000000,"queue":"{queue}"}},
            "tcp":{{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":20,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000}},
            "traffic":{{"start":[0,0],"udp":[{{"kind":"cbr","rate":{},"size":{{"range":[1040,1040]}},"start":0,"from":"a","to":"b"}}]}}}}"#,
            rate / 5 * 6
        );
        let r = crate::run(&crate::Scenario::from_json(&json).unwrap()).unwrap();
        let core = &r.links["core"];
        (core.departures, core.departed_bytes)
    }

    /// A busy link sends at exactly its rate whichever discipline serves
    /// it: over the 2 ms window as many 1040 B packets as fit at the rate,
    /// to within one, under drop-tail and RED (whose packets wait in the
    /// link) and CoDel, FQ-CoDel and PIE (which hold theirs). At 100 Gb/s a
    /// packet takes 83.2 ns: a held one took 84 (23,809 a window for
    /// 24,038); at 10,000,000,007 b/s the fraction is kept in units of
    /// 1 / rate ns, beyond a u32; at 99,999,999,977 b/s a packet takes
    /// 83.2000000191 ns.
    #[test]
    fn a_saturated_link_sends_at_its_rate_under_every_discipline() {
        for rate in [100_000_000_000u64, 10_000_000_007, 99_999_999_977] {
            // Packets whose last bit leaves within the window (the first
            // packet's start there is at most a packet's time in).
            let fit = (u128::from(rate) * 2_000_000 / (8320 * 1_000_000_000)) as u64;
            for queue in ["droptail", "red", "codel", "fq_codel", "pie"] {
                let (packets, bytes) = saturated(rate, queue);
                assert!(packets.abs_diff(fit) <= 1, "{queue} at {rate} b/s: {packets} packets for {fit}");
                assert_eq!(bytes, packets * 1040, "{queue}");
            }
        }
    }
}
