//! The TCP sink (ns-2 `Agent/TCPSink`): each data packet is answered by a
//! cumulative ACK carrying the highest sequence number received in order.
//!
//! With delayed ACKs (ns-2 `Agent/TCPSink/DelAck`, RFC 1122 / 5681 Sec 4.2)
//! an in-order packet that finds no ACK pending is not answered at once: a
//! timer of `interval` (ns-2 `interval_`, 100 ms) starts, and the ACK goes
//! out when the next packet arrives or the timer expires, whichever is first.
//! A packet that fills a gap, is out of order, or is the SYN (packet 0) is
//! acknowledged at once (ns-2 `RFC2581_immediate_ack_`, `SYN_immediate_ack_`).
//!
//! A SACK sink (ns-2 `Agent/TCPSink/Sack1`, the `Sacker` in tcp/tcp-sink.cc,
//! `append_ack`; RFC 2018 Sec 4) also reports up to three blocks of data
//! received above the cumulative ACK, most recent first: the block holding
//! the packet just received, then the blocks of earlier ACKs (a stack of
//! three) not covered by it. Blocks are `[left, right)` in packets. An
//! arrival at or below the cumulative ACK (in order, or a duplicate) while
//! holes remain above it has no block of its own: as in ns-2 its ACK carries
//! only the history, up to three blocks, less those now below the cumulative
//! ACK, which it drops. Once the cumulative ACK reaches the highest packet
//! seen the history is dropped too and ACKs carry no blocks.
//!
//! A sink of a flow that uses ECN echoes CE marks on its ACKs (`tcp::ecn`:
//! ECE until CWR, or DCTCP's per-packet echo, which sends a delayed ACK
//! early when the CE state changes).

use std::collections::VecDeque;

use super::ecn::{EcnEcho, EcnMode};
use crate::net::packet::{SackBlocks, TcpOptions, MAX_SACK_BLOCKS};
use crate::sim::timer::Timer;
use crate::sim::Time;

#[derive(Debug, Clone, Default)]
pub struct TcpSink {
    /// Next sequence number expected in order.
    next: i64,
    /// `seen[k]`: whether `next + 1 + k` has arrived (out of order; `next`
    /// itself never has, so an in-order packet touches no entry of its own).
    seen: VecDeque<bool>,
    /// Highest sequence number received.
    max_seen: i64,
    /// Delayed-ACK interval, if ACKs are delayed.
    delay: Option<Time>,
    /// Fires when a delayed ACK is due.
    pub timer: Timer,
    /// A SACK sink's history and next options (boxed: only SACK flows
    /// read options, and the others carry 8 bytes for them, not 104).
    sack: Option<Box<Sacker>>,
    /// The last cumulative ACK sent (ns-2 `last_ack_sent_`).
    last_ack_sent: i64,
    /// The ECN echo, for a flow that uses ECN (`tcp::ecn`).
    ecn: Option<Box<EcnEcho>>,
}

/// What a SACK sink keeps for its ACKs (the senders that read options are
/// SACK's and FACK's, `TcpSender::uses_sack`).
#[derive(Debug, Clone, Default)]
struct Sacker {
    /// The blocks of earlier ACKs, most recent first (ns-2 `SackStack`).
    stack: VecDeque<(i64, i64)>,
    /// Options for the next ACK: SACK blocks, and the send time to echo.
    options: TcpOptions,
}

impl TcpSink {
    /// A sink that delays ACKs by up to `delay` (None: ACK every packet)
    /// and, if `sack`, reports SACK blocks.
    pub fn new(delay: Option<Time>, sack: bool) -> Self {
        let sack = sack.then(|| {
            Box::new(Sacker {
                stack: VecDeque::with_capacity(MAX_SACK_BLOCKS),
                options: TcpOptions::default(),
            })
        });
        TcpSink { max_seen: -1, delay, sack, ..Default::default() }
    }

    /// Echo ECN marks as `mode` says (`tcp::ecn`).
    pub fn with_ecn(mut self, mode: EcnMode) -> Self {
        self.ecn = (mode != EcnMode::Off).then(|| Box::new(EcnEcho::new(mode)));
        self
    }

    /// A data packet with ECN `bits` arrives, before [`TcpSink::on_data`]
    /// takes it: a DCTCP sink whose CE state it changes while an ACK is
    /// delayed sends that ACK now, for the packets before it, with the old
    /// ECE (RFC 8257 Sec 3.2): returned as (ACK number, ECE).
    pub fn on_ecn(&mut self, bits: u8) -> Option<(i64, bool)> {
        let pending = self.timer.is_pending();
        let ece = self.ecn.as_deref_mut()?.arrive(bits, pending)?;
        self.timer.cancel();
        Some((self.ack(), ece))
    }

    /// Whether the next ACK carries ECE.
    pub fn ece(&self) -> bool {
        self.ecn.as_deref().is_some_and(EcnEcho::ece)
    }

    /// Whether this sink reports SACK blocks (its sender reads them,
    /// `TcpSender::uses_sack`).
    pub fn sacks(&self) -> bool {
        self.sack.is_some()
    }

    /// Options for the ACK of the last packet received: SACK blocks and
    /// the echo of its send time (a sink without SACK keeps none: no
    /// blocks, no echo, as no sender reads them).
    pub fn options(&self) -> TcpOptions {
        self.sack.as_deref().map_or_else(TcpOptions::default, |s| s.options)
    }

    /// The blocks for an ACK of `seq` (ns-2 `Sacker::append_ack`), given
    /// whether `seq` had been received before.
    fn build_sack(&mut self, seq: i64, duplicate: bool) {
        let Some(sacker) = self.sack.as_deref_mut() else { return };
        let stack = &mut sacker.stack;
        let ack = self.next - 1;
        let max_seen = self.max_seen;
        let mut blocks = SackBlocks::default();
        if ack >= max_seen && !stack.is_empty() {
            stack.clear();
        } else if ack < max_seen || duplicate {
            let seen = |q: i64| received(self.next, &self.seen, q);
            let right = (seq..=max_seen).find(|&q| !seen(q)).unwrap_or(max_seen + 1);
            // An arrival at or below the ACK reports no block of its own; its
            // `[0, ack + 1)` only clears the history below the ACK.
            let recent = if seq <= ack {
                (0, right)
            } else {
                let left = ((ack + 1)..right).rev().find(|&q| !seen(q)).map_or(ack + 1, |q| q + 1);
                blocks.push((left, right));
                (left, right)
            };
            let mut k = 0;
            while !blocks.is_full() && k < stack.len() {
                let (l, r) = stack[k];
                if r > max_seen + 1 {
                    break;
                }
                if recent.0 <= l && recent.1 >= r {
                    stack.remove(k);
                    continue;
                }
                blocks.push((l, r));
                k += 1;
            }
            if seq > ack {
                stack.truncate(MAX_SACK_BLOCKS - 1);
                stack.push_front(recent);
            }
        }
        sacker.options.sack = blocks;
    }

    /// A data packet `seq`, sent at `sent`, arrived at `now`; returns the
    /// ACK number to send now, or `None` if the ACK is delayed.
    ///
    /// The send time echoed is that of the latest packet that was next in
    /// order (or older) when it arrived, not of packets beyond a hole (ns-2
    /// `Acker::update_ts` with `ts_echo_bugfix_`, TCP/IP Illustrated Vol. 2
    /// p. 870): during a loss the echo ages.
    pub fn on_data(&mut self, seq: i64, sent: Time, now: Time) -> Option<i64> {
        if let Some(s) = self.sack.as_deref_mut() {
            if seq <= self.last_ack_sent + 1 && sent >= s.options.timestamp {
                s.options.timestamp = sent;
            }
        }
        let fills_gap = seq < self.max_seen;
        let duplicate = received(self.next, &self.seen, seq);
        self.max_seen = self.max_seen.max(seq);
        if seq == self.next {
            // Each step of `next` shifts the map by one entry.
            self.next += 1;
            while self.seen.pop_front() == Some(true) {
                self.next += 1;
            }
        } else if seq > self.next {
            let k = (seq - self.next - 1) as usize;
            if self.seen.len() <= k {
                self.seen.resize(k + 1, false);
            }
            self.seen[k] = true;
        }
        self.build_sack(seq, duplicate);
        if let Some(interval) = self.delay {
            let in_order = seq == self.next - 1;
            // DCTCP: a packet that changed the CE state is acknowledged at once.
            let ce_changed = self.ecn.as_deref_mut().is_some_and(|e| std::mem::take(&mut e.ack_now));
            if !self.timer.is_pending() && in_order && !fills_gap && seq != 0 && !ce_changed {
                self.timer.set(now + interval);
                return None;
            }
            self.timer.cancel();
        }
        Some(self.ack())
    }

    /// The delayed-ACK timer expired: the ACK to send.
    pub fn on_timer(&mut self) -> i64 {
        self.ack()
    }

    fn ack(&mut self) -> i64 {
        self.last_ack_sent = self.next - 1;
        self.last_ack_sent
    }

    /// Packets delivered in order so far.
    pub fn delivered(&self) -> i64 {
        self.next
    }

    /// Whether packet `seq` has arrived (in order or not).
    pub fn has(&self, seq: i64) -> bool {
        received(self.next, &self.seen, seq)
    }

    /// The packets held out of order (arrived above a hole), ascending.
    pub fn out_of_order(&self) -> impl Iterator<Item = i64> + '_ {
        let next = self.next;
        self.seen.iter().enumerate().filter(|&(_, &seen)| seen).map(move |(k, _)| next + 1 + k as i64)
    }
}

/// Whether `seq` has arrived, given the next expected in order and which
/// packets after it have arrived.
fn received(next: i64, seen: &VecDeque<bool>, seq: i64) -> bool {
    seq < next || (seq > next && seen.get((seq - next - 1) as usize) == Some(&true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acks_are_cumulative_and_fill_holes() {
        let mut s = TcpSink::new(None, false);
        let acks: Vec<i64> = [0, 1, 3, 4, 2, 2, 6, 5].iter().map(|&q| s.on_data(q, 0, 0).unwrap()).collect();
        assert_eq!(acks, vec![0, 1, 1, 1, 4, 4, 4, 6]);
        assert_eq!(s.delivered(), 7);
        // First packet lost: ACK -1 (nothing in order yet).
        assert_eq!(TcpSink::new(None, false).on_data(1, 0, 0), Some(-1));
    }

    /// RFC 8257 Sec 3.2 with delayed ACKs: packet 1 (not marked) waits for
    /// a second; 2 comes marked: the ACK pending for 1 goes at once with
    /// ECE 0, and 2 is acknowledged at once with ECE 1; 3 (marked) waits
    /// and 4 (marked) takes it, ECE 1; 5, not marked, with nothing pending,
    /// is acknowledged at once with ECE 0.
    #[test]
    fn a_dctcp_sink_with_delayed_acks_acknowledges_each_change_of_ce_at_once() {
        use crate::net::packet::ecn::{CE, ECT};
        let ms = 1_000_000;
        let mut s = TcpSink::new(Some(100 * ms), false).with_ecn(EcnMode::Dctcp);
        let mut arrive = |seq: i64, bits: u8| {
            let early = s.on_ecn(bits);
            (early, s.on_data(seq, 0, seq as Time * ms).map(|a| (a, s.ece())))
        };
        assert_eq!(arrive(0, ECT), (None, Some((0, false))), "the SYN at once");
        assert_eq!(arrive(1, ECT), (None, None));
        assert_eq!(arrive(2, ECT | CE), (Some((1, false)), Some((2, true))));
        assert_eq!(arrive(3, ECT | CE), (None, None));
        assert_eq!(arrive(4, ECT | CE), (None, Some((4, true))));
        assert_eq!(arrive(5, ECT), (None, Some((5, false))));
        assert!(!s.timer.is_pending());
    }

    #[test]
    fn delayed_acks_go_every_other_packet_or_on_the_timer() {
        let ms = 1_000_000;
        let mut s = TcpSink::new(Some(100 * ms), false);
        assert_eq!(s.on_data(0, 0, 0), Some(0), "the SYN is acknowledged at once");
        assert_eq!(s.on_data(1, 0, ms), None, "delayed");
        assert_eq!(s.timer.deadline(), Some(101 * ms));
        assert_eq!(s.on_data(2, 0, 2 * ms), Some(2), "second packet: ACK both");
        assert!(!s.timer.is_pending());
        assert_eq!(s.on_data(3, 0, 3 * ms), None);
        assert_eq!(s.on_timer(), 3, "timer: ACK what has arrived");
        // Out of order: at once (a duplicate ACK); the gap filler too.
        assert_eq!(s.on_data(5, 0, 4 * ms), Some(3));
        assert_eq!(s.on_data(4, 0, 5 * ms), Some(5));
    }

    #[test]
    fn sack_blocks_most_recent_first_as_ns2_sack1() {
        let mut s = TcpSink::new(None, true);
        let mut ack = |q| {
            let a = s.on_data(q, 0, 0).unwrap();
            (a, s.options().sack.as_slice().to_vec())
        };
        // 0..=2 in order: no blocks.
        for q in 0..3 {
            assert_eq!(ack(q), (q, vec![]));
        }
        // 3 lost; 4, 5 arrive: one growing block.
        assert_eq!(ack(4), (2, vec![(4, 5)]));
        assert_eq!(ack(5), (2, vec![(4, 6)]));
        // 7 lost; 8: a new block first, the old one after it.
        assert_eq!(ack(8), (2, vec![(8, 9), (4, 6)]));
        // 10 lost; 11, then 13 (12 lost): three blocks, newest first.
        assert_eq!(ack(11), (2, vec![(11, 12), (8, 9), (4, 6)]));
        assert_eq!(ack(13), (2, vec![(13, 14), (11, 12), (8, 9)]));
        // 7 fills a hole: its block joins 8 and leaves out the covered (8, 9).
        assert_eq!(ack(7), (2, vec![(7, 9), (13, 14), (11, 12)]));
        // 3 arrives: the ACK jumps to 5; no block of its own, all three of
        // the history (ns-2's ACK of such an arrival is 40 B + 3 x 8 B).
        assert_eq!(ack(3), (5, vec![(7, 9), (13, 14), (11, 12)]));
        // 6 arrives: the ACK jumps to 8; (7, 9), now below it, leaves the history.
        assert_eq!(ack(6), (8, vec![(13, 14), (11, 12)]));
        // A duplicate below the ACK while holes remain: the history alone.
        assert_eq!(ack(4), (8, vec![(13, 14), (11, 12)]));
        assert_eq!(ack(9), (9, vec![(13, 14), (11, 12)]));
        assert_eq!(ack(10), (11, vec![(13, 14)]));
        // Everything up to the highest seen: history dropped, no blocks.
        assert_eq!(ack(12), (13, vec![]));
        // A duplicate of old data: no block either.
        assert_eq!(ack(9), (13, vec![]));
    }

    #[test]
    fn sack_blocks_match_ns2_sack1_ack_by_ack() {
        // bench/ns2/wei/sack_blocks.tcl on ns-2 2.35 (results/sack_blocks.txt):
        // a FACK flow whose packets 40, 41, 43, 46, 48 and 50 are lost,
        // retransmitted in that order after 80. Each arrival's ACK number and
        // number of blocks (from the ACK's size, 40 B + 8 B a block), as ns-2
        // sent them.
        let mut arrivals: Vec<i64> = (0..40).collect();
        arrivals.extend([42, 44, 45, 47, 49]);
        arrivals.extend(51..=80);
        arrivals.extend([40, 41, 43, 46, 48, 50, 81, 82]);
        let mut want: Vec<(i64, usize)> = (0..40).map(|q| (q, 0)).collect();
        want.extend([(39, 1), (39, 2), (39, 2)]);
        want.extend([(39, 3); 32]);
        want.extend([(40, 3), (42, 3), (45, 3), (47, 2), (49, 1), (80, 0), (81, 0), (82, 0)]);
        let mut s = TcpSink::new(None, true);
        let got: Vec<(i64, usize)> = arrivals
            .iter()
            .map(|&q| (s.on_data(q, 0, 0).unwrap(), s.options().sack.as_slice().len()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_sink_without_sack_keeps_no_options() {
        // No sender without SACK reads an ACK's options: such a sink keeps
        // neither blocks nor the echo (its 72 bytes are SACK's alone).
        let mut s = TcpSink::new(None, false);
        for q in [0, 2, 1] {
            s.on_data(q, 10 * q as Time + 5, 0);
            assert_eq!(s.options(), TcpOptions::default());
        }
    }

    #[test]
    fn echo_is_the_send_time_of_the_latest_packet_in_order() {
        let mut s = TcpSink::new(None, true);
        let mut echo = |q, sent| {
            s.on_data(q, sent, 0);
            s.options().timestamp
        };
        assert_eq!(echo(0, 10), 10);
        assert_eq!(echo(1, 20), 20);
        // 2 lost: 3 and 4 are beyond the hole, the echo stays at 1's.
        assert_eq!(echo(3, 40), 20);
        assert_eq!(echo(4, 50), 20);
        // The retransmission of 2 fills the hole: its time is echoed.
        assert_eq!(echo(2, 90), 90);
        assert_eq!(echo(5, 60), 90, "older than the echo: kept");
    }
}
