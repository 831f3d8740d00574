//! Links whose queue holds its packets (`Link::holds`: the discipline may
//! drop packets already queued, as drop-head does): a packet joins the
//! queue when it reaches the link, the discipline may drop it or the
//! packet at the head, and the head goes on the link when the
//! transmitter frees, by a `Transmit` event at that time.

use super::hop::Hop;
use super::{Event, World};
use crate::net::PacketId;

impl World {
    /// Packet `id` reaches the queue of `hop`'s link, which holds its
    /// packets; those the discipline drops leave the run.
    pub(super) fn hold(&mut self, hop: Hop, id: PacketId) {
        let l = hop.link();
        let p = *self.packets.get(id);
        let mut dropped = std::mem::take(&mut self.released);
        if !self.net.links[l].enqueue(self.now, id, p.size, p.kind, &mut dropped) {
            dropped.push(id);
        }
        if let Some(trace) = self.trace.as_deref_mut().filter(|_| hop.has(Hop::TRACED)) {
            trace.event(self.now, l as u32, id, &p, self.now, b'+');
            for &d in &dropped {
                trace.event(self.now, l as u32, d, self.packets.get(d), self.now, b'd');
            }
        }
        for d in dropped.drain(..) {
            self.lose(d);
        }
        self.released = dropped;
        self.start_held(l as u32);
    }

    /// Put on link `l` the held packets its transmitter is free for now,
    /// and arm its `Transmit` event for the next.
    pub(super) fn start_held(&mut self, l: u32) {
        while let Some(id) = self.net.links[l as usize].next_held(self.now) {
            self.carry(id, self.now);
        }
        if let Some(at) = self.net.links[l as usize].arm_transmit() {
            self.schedule(at, Event::Transmit(l));
        }
    }
}
