//! Pacers in front of links putting the packets they let out on their link.

use super::hop::Hop;
use super::{Event, World};
use crate::pacing::LinkPacer;
use crate::sim::Time;

impl World {
    /// Put what pacer `i` has let out by now on its link, each packet at
    /// the moment it left.
    ///
    /// A pacer's packets go onto its link late, here, rather than by an
    /// event at each departure: nothing but the pacer feeds that link, so
    /// the link sees the same packets at the same times either way, and a
    /// packet put on it at t reaches the far end no sooner than t plus the
    /// link's delay. The pacer's timer therefore needs to fire only half
    /// that delay after its next departure ([`World::arm_pacer`]), and
    /// arrivals at the pacer let out what is due before they join it: a
    /// pacer event per timer, not per departure.
    pub(super) fn release(&mut self, i: u32) {
        self.release_before(i, self.now + 1);
        // Nothing is left to leave by now, but the pacer moves on to it.
        self.pacers[i as usize].advance(self.now, &mut self.released);
        debug_assert!(self.released.is_empty(), "a departure the pacer had not announced");
    }

    /// Put pacer `i`'s departures before `t` on its link.
    pub(super) fn release_before(&mut self, i: u32, t: Time) {
        while let Some(due) = self.pacers[i as usize].next_departure().filter(|&d| d < t) {
            self.release_at(i, due);
        }
    }

    /// Advance pacer `i` to `t` (<= now) and put the packets it lets out
    /// on its link at `t`.
    pub(super) fn release_at(&mut self, i: u32, t: Time) {
        let mut released = std::mem::take(&mut self.released);
        self.pacers[i as usize].advance(t, &mut released);
        self.note_pacer(i, t);
        // Whether the pacer's link may mark (its packets' hop is that link's).
        let marks = released
            .first()
            .is_some_and(|&id| self.route_hops[self.packets.get(id).hop as usize].has(Hop::MARKS));
        for id in released.drain(..) {
            self.carry_from(id, t, marks);
        }
        self.released = released;
    }

    /// Every pacer lets out what left before `t`, at `t`'s events that
    /// precede any departure at `t` (the window opening, the end).
    pub(super) fn release_all_before(&mut self, t: Time) {
        for i in 0..self.pacers.len() as u32 {
            if let (Some(cut), None) = (&self.cut, self.side) {
                self.origin = self.origin_of(cut, Event::Pace(i));
            }
            self.release_before(i, t);
        }
    }

    /// Arm pacer `i`'s timer for half its link's delay after its next departure.
    pub(super) fn arm_pacer(&mut self, i: u32) {
        let link = self.net.pacers[i as usize].0 as usize;
        let slack = self.net.links[link].delay / 2;
        let p = &mut self.pacers[i as usize];
        match p.next_departure() {
            Some(at) => p.timer().set(at + slack),
            None => p.timer().cancel(),
        }
        if let Some(at) = p.timer().needs_event() {
            self.schedule(at, Event::Pace(i));
        }
    }
}
