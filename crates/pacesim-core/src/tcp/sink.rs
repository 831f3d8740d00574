//! The TCP sink (ns-2 `Agent/TCPSink`): each data packet is answered by a
//! cumulative ACK carrying the highest sequence number received in order.
//!
//! With delayed ACKs (ns-2 `Agent/TCPSink/DelAck`, RFC 1122 / 5681 Sec 4.2)
//! an in-order packet that finds no ACK pending is not answered at once: a
//! timer of `interval` (ns-2 `interval_`, 100 ms) starts, and the ACK goes
//! out when the next packet arrives or the timer expires, whichever is first.
//! A packet that fills a gap, is out of order, or is the SYN (packet 0) is
//! acknowledged at once (ns-2 `RFC2581_immediate_ack_`, `SYN_immediate_ack_`).

use std::collections::VecDeque;

use crate::sim::timer::Timer;
use crate::sim::Time;

#[derive(Debug, Clone, Default)]
pub struct TcpSink {
    /// Next sequence number expected in order.
    next: i64,
    /// `seen[k]`: whether `next + k` has arrived (out of order).
    seen: VecDeque<bool>,
    /// Highest sequence number received.
    max_seen: i64,
    /// Delayed-ACK interval, if ACKs are delayed.
    delay: Option<Time>,
    /// Fires when a delayed ACK is due.
    pub timer: Timer,
}

impl TcpSink {
    /// A sink that delays ACKs by up to `delay` (None: ACK every packet).
    pub fn new(delay: Option<Time>) -> Self {
        TcpSink { max_seen: -1, delay, ..Default::default() }
    }

    /// A data packet `seq` arrived at `now`; returns the ACK number to send
    /// now, or `None` if the ACK is delayed.
    pub fn on_data(&mut self, seq: i64, now: Time) -> Option<i64> {
        let fills_gap = seq < self.max_seen;
        self.max_seen = self.max_seen.max(seq);
        if seq >= self.next {
            let k = (seq - self.next) as usize;
            if self.seen.len() <= k {
                self.seen.resize(k + 1, false);
            }
            self.seen[k] = true;
            while self.seen.front() == Some(&true) {
                self.seen.pop_front();
                self.next += 1;
            }
        }
        if let Some(interval) = self.delay {
            let in_order = seq == self.next - 1;
            if !self.timer.is_pending() && in_order && !fills_gap && seq != 0 {
                self.timer.set(now + interval);
                return None;
            }
            self.timer.cancel();
        }
        Some(self.next - 1)
    }

    /// The delayed-ACK timer expired: the ACK to send.
    pub fn on_timer(&mut self) -> i64 {
        self.next - 1
    }

    /// Packets delivered in order so far.
    pub fn delivered(&self) -> i64 {
        self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acks_are_cumulative_and_fill_holes() {
        let mut s = TcpSink::new(None);
        let acks: Vec<i64> = [0, 1, 3, 4, 2, 2, 6, 5].iter().map(|&q| s.on_data(q, 0).unwrap()).collect();
        assert_eq!(acks, vec![0, 1, 1, 1, 4, 4, 4, 6]);
        assert_eq!(s.delivered(), 7);
        // First packet lost: ACK -1 (nothing in order yet).
        assert_eq!(TcpSink::new(None).on_data(1, 0), Some(-1));
    }

    #[test]
    fn delayed_acks_go_every_other_packet_or_on_the_timer() {
        let ms = 1_000_000;
        let mut s = TcpSink::new(Some(100 * ms));
        assert_eq!(s.on_data(0, 0), Some(0), "the SYN is acknowledged at once");
        assert_eq!(s.on_data(1, ms), None, "delayed");
        assert_eq!(s.timer.deadline(), Some(101 * ms));
        assert_eq!(s.on_data(2, 2 * ms), Some(2), "second packet: ACK both");
        assert!(!s.timer.is_pending());
        assert_eq!(s.on_data(3, 3 * ms), None);
        assert_eq!(s.on_timer(), 3, "timer: ACK what has arrived");
        // Out of order: at once (a duplicate ACK); the gap filler too.
        assert_eq!(s.on_data(5, 4 * ms), Some(3));
        assert_eq!(s.on_data(4, 5 * ms), Some(5));
    }
}
