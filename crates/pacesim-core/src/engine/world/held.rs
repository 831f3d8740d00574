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
