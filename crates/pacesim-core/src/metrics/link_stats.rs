//! Counters and time averages of one link's output queue over the
//! measurement window.
//!
//! The queue length is piecewise constant: it changes only when a packet is
//! admitted or starts transmission. The link reports each change in time
//! order, and the integrals (byte- and packet-seconds, time spent empty,
//! time the link is idle) are exact sums over those pieces.

use crate::net::PacketKind;
use crate::report::{ClassReport, LinkReport};
use crate::sim::time::{secs, Time};

/// Arrivals and drops of one traffic class at a queue, and its departures
/// in packets and in bytes on the wire (a class's packets differ in size: a
/// SYN is a bare header, a Tmix segment may be short), counted by the link's
/// rule (see [`LinkStats::departure`]): the classes' departures add up to the link's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassCounts {
    pub arrivals: u64,
    pub drops: u64,
    pub departures: u64,
    pub departed_bytes: u64,
}

#[derive(Debug, Clone)]
pub struct LinkStats {
    pub arrivals: u64,
    pub drops: u64,
    pub departures: u64,
    pub departed_bytes: u64,
    /// ECN-capable arrivals the queue marked CE instead of dropping.
    pub marks: u64,
    /// Arrivals, drops and departures by traffic class (indexed by `PacketKind as usize`):
    /// paper A's anomaly is UDP loss at the core, A-fig23 is ACK loss, TCP's
    /// throughput on the core is its data class's departed bytes.
    pub by_class: [ClassCounts; 3],
    /// Start of the current window.
    since: Time,
    /// Time up to which the integrals below are accounted.
    mark: Time,
    /// End of the measurement window: nothing after it is accounted.
    end: Time,
    area_bytes: u128,
    area_packets: u128,
    empty: Time,
    idle: Time,
}

impl Default for LinkStats {
    fn default() -> Self {
        LinkStats {
            arrivals: 0,
            drops: 0,
            departures: 0,
            departed_bytes: 0,
            marks: 0,
            by_class: Default::default(),
            since: 0,
            mark: 0,
            end: Time::MAX,
            area_bytes: 0,
            area_packets: 0,
            empty: 0,
            idle: 0,
        }
    }
}

impl LinkStats {
    /// Whether something happening at `t` falls inside the window (which
    /// ends, as the run does, just before `end`).
    #[inline]
    pub fn counts(&self, t: Time) -> bool {
        t < self.end
    }

    /// A packet of `kind`, `size` bytes, began transmission and sends its last bit at
    /// `finish`: it departs in the window if it is sent whole by the window's
    /// end (one begun before the window was counted before it opened, and
    /// the opening's restart forgot it). So the bytes departed never exceed
    /// what the link can send in the window; counted when they began, a
    /// 1 Mb/s link reported up to a packet per window more (1.00256 Mb/s).
    #[inline]
    pub fn departure(&mut self, finish: Time, size: u32, kind: PacketKind) {
        let counts = u64::from(finish <= self.end);
        self.departures += counts;
        self.departed_bytes += counts * u64::from(size);
        let c = &mut self.by_class[kind as usize];
        c.departures += counts;
        c.departed_bytes += counts * u64::from(size);
    }

    /// Accumulate the queue state held over [mark, t), up to the window's end.
    #[inline]
    pub fn hold(&mut self, t: Time, queued_packets: u64, queued_bytes: u64) {
        let t = t.min(self.end);
        let dt = t - self.mark;
        if queued_packets == 0 {
            self.empty += dt;
        } else {
            self.area_bytes += u128::from(dt) * u128::from(queued_bytes);
            self.area_packets += u128::from(dt) * u128::from(queued_packets);
        }
        self.mark = t;
    }

    /// The link sat idle over [from, to), counted up to the window's end.
    #[inline]
    pub fn idle_over(&mut self, from: Time, to: Time) {
        self.idle += to.min(self.end).saturating_sub(from);
    }

    /// Start a new window at `t`, ending at `end` (the caller has accounted
    /// everything before `t`).
    pub fn restart(&mut self, t: Time, end: Time) {
        *self = LinkStats { since: t, mark: t, end, ..LinkStats::default() };
    }

    /// A packet of `kind` arrived at `t`, and was dropped or not.
    #[inline]
    pub fn arrival(&mut self, t: Time, kind: PacketKind, dropped: bool) {
        let counts = u64::from(self.counts(t));
        let dropped = counts * u64::from(dropped);
        self.arrivals += counts;
        self.drops += dropped;
        let c = &mut self.by_class[kind as usize];
        c.arrivals += counts;
        c.drops += dropped;
    }

    /// An arrival at `t` was marked CE (and admitted).
    pub fn marked(&mut self, t: Time) {
        self.marks += u64::from(self.counts(t));
    }

    /// A packet of `kind` that had joined the queue was dropped from it at `t`.
    pub fn drop_queued(&mut self, t: Time, kind: PacketKind) {
        let counts = u64::from(self.counts(t));
        self.drops += counts;
        self.by_class[kind as usize].drops += counts;
    }

    pub fn since(&self) -> Time {
        self.since
    }

    /// Summarise the window [since, mark].
    pub fn report(&self) -> LinkReport {
        let span = (self.mark - self.since).max(1) as f64;
        LinkReport {
            arrivals: self.arrivals,
            drops: self.drops,
            departures: self.departures,
            departed_bytes: self.departed_bytes,
            marks: self.marks,
            throughput_mbps: self.departed_bytes as f64 * 8.0 / secs(self.mark - self.since).max(1e-12) / 1e6,
            loss_rate: if self.arrivals == 0 { 0.0 } else { self.drops as f64 / self.arrivals as f64 },
            mean_queue_bytes: self.area_bytes as f64 / span,
            mean_queue_packets: self.area_packets as f64 / span,
            empty_prob: self.empty as f64 / span,
            idle_prob: self.idle as f64 / span,
            data: ClassReport::from(self.by_class[PacketKind::Data as usize]),
            ack: ClassReport::from(self.by_class[PacketKind::Ack as usize]),
            udp: ClassReport::from(self.by_class[PacketKind::Udp as usize]),
        }
    }
}
impl From<ClassCounts> for ClassReport {
    fn from(c: ClassCounts) -> Self {
        let loss_rate = if c.arrivals == 0 { 0.0 } else { c.drops as f64 / c.arrivals as f64 };
        ClassReport {
            arrivals: c.arrivals,
            drops: c.drops,
            loss_rate,
            departures: c.departures,
            departed_bytes: c.departed_bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A class's departed bytes are its packets' own sizes (a 40 B SYN counts 40 B, not a segment's 1040 B),
    /// by the link's rule: a packet counts if its last bit is sent by the window's end, so the classes add
    /// up to the link's departures whatever arrived or was dropped.
    #[test]
    fn class_departures_are_the_packets_sizes_sent_in_the_window() {
        let mut s = LinkStats::default();
        s.restart(100, 1_000);
        s.arrival(100, PacketKind::Data, false);
        s.arrival(300, PacketKind::Data, true);
        s.drop_queued(500, PacketKind::Data);
        s.departure(200, 1040, PacketKind::Data);
        s.departure(400, 40, PacketKind::Data);
        s.departure(600, 40, PacketKind::Ack);
        s.departure(1_000, 1500, PacketKind::Udp);
        s.departure(1_001, 1040, PacketKind::Data);
        let r = s.report();
        assert_eq!((r.data.arrivals, r.data.drops), (2, 2));
        assert_eq!((r.data.departures, r.data.departed_bytes), (2, 1_080));
        assert_eq!((r.ack.departures, r.ack.departed_bytes), (1, 40));
        assert_eq!((r.udp.departures, r.udp.departed_bytes), (1, 1_500));
        assert_eq!((r.departures, r.departed_bytes), (4, 2_620));
    }
}
