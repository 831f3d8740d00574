//! Forward Acknowledgment (Mathis and Mahdavi, "Forward Acknowledgment:
//! Refining TCP Congestion Control", SIGCOMM 1996) as ns-2 2.35's
//! `Agent/TCP/Fack` (tcp/tcp-fack.cc, with tcp/scoreboard.cc), with the SACK
//! sink of `tcp::sink`.
//!
//! - `snd.fack` ("fack") is the forward-most data the receiver holds: the
//!   highest SACKed sequence number, or the cumulative ACK. Data in the
//!   network is estimated as `awnd = snd.nxt - snd.fack + retran_data`
//!   (Sec 3), so the sender sends while `t_seqno <= fack + win - retran_data`.
//! - Recovery starts when `fack - highest_ack - 1 >= 3` (more than three
//!   packets' worth SACKed beyond the first hole; no duplicate-ACK count):
//!   ssthresh halves as the congestion control says, and, as ns-2 does it
//!   (`slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_RESTART)`), cwnd restarts
//!   from 1 and opens on every ACK during recovery; `recover = snd.nxt`.
//! - Rampdown (Sec 4.3; ns-2 `rampdown_`, off by default): a window
//!   trim of half the data in flight at the loss, `(snd.nxt - fack - 1) / 2`,
//!   added to the window and worn down by half of each advance of `fack`,
//!   so the sending rate falls smoothly instead of pausing.
//! - Holes (unSACKed packets below the highest SACK, not yet retransmitted)
//!   go first, then new data; `retran_data` counts retransmissions not yet
//!   ACKed or SACKed. A retransmission is known lost again when data sent
//!   after it is SACKed: sending then stops until the timer fires.
//! - Recovery ends on an ACK without SACK blocks at or above `recover`.
//!
//! As ns-2's Fack, every ACK that does not simply advance the window (one
//! with SACK blocks) also gives an RTT sample from the echoed send time of
//! the packet that triggered it, on top of the timed packet.

use std::collections::VecDeque;

use super::LossRecovery;
use crate::net::TcpOptions;
use crate::sim::Time;
use crate::tcp::cc::Congestion;
use crate::tcp::state::{SendState, DUPACK_THRESHOLD};

/// One packet above the cumulative ACK (ns-2 `ScoreBoardNode`).
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    sacked: bool,
    /// Retransmitted, and `t_seqno` at that moment.
    retransmitted: Option<i64>,
}

/// Per-packet scoreboard from the cumulative ACK to the highest SACK
/// (ns-2 `ScoreBoard`).
#[derive(Debug, Clone, Default)]
struct Board {
    base: i64,
    entries: VecDeque<Entry>,
}

impl Board {
    fn clear(&mut self) {
        self.entries.clear();
    }

    /// Record an ACK of `ack` with `blocks`; returns how many retransmitted
    /// packets it acknowledged (ns-2 `UpdateScoreBoard`).
    fn update(&mut self, ack: i64, blocks: &[(i64, i64)]) -> i64 {
        let mut acked_retransmissions = 0;
        while !self.entries.is_empty() && self.base <= ack {
            let e = self.entries.pop_front().unwrap();
            acked_retransmissions += i64::from(e.retransmitted.is_some());
            self.base += 1;
        }
        if self.entries.is_empty() && !blocks.is_empty() {
            self.base = ack + 1;
            self.entries.push_back(Entry::default());
        }
        for &(l, r) in blocks {
            while self.base + (self.entries.len() as i64) < r {
                self.entries.push_back(Entry::default());
            }
            let (from, to) = ((l - self.base).max(0), (r - self.base).max(0));
            for e in self.entries.range_mut(from as usize..to as usize) {
                e.sacked = true;
                acked_retransmissions += i64::from(e.retransmitted.take().is_some());
            }
        }
        acked_retransmissions
    }

    /// A retransmission sent before data now SACKed was lost again (ns-2
    /// `CheckSndNxt`); forgets it.
    fn retransmission_lost(&mut self, blocks: &[(i64, i64)]) -> bool {
        let mut lost = false;
        for &(_, r) in blocks {
            let to = ((r - self.base).max(0) as usize).min(self.entries.len());
            for e in self.entries.range_mut(..to) {
                if e.retransmitted.is_some_and(|next| next < r) {
                    e.retransmitted = None;
                    lost = true;
                }
            }
        }
        lost
    }

    /// The first packet neither SACKed nor retransmitted (ns-2 `GetNextRetran`).
    fn next_hole(&self) -> Option<i64> {
        let i = self.entries.iter().position(|e| !e.sacked && e.retransmitted.is_none())?;
        Some(self.base + i as i64)
    }

    fn mark_retransmitted(&mut self, seq: i64, t_seqno: i64) {
        if seq >= self.base {
            if let Some(e) = self.entries.get_mut((seq - self.base) as usize) {
                e.retransmitted = Some(t_seqno);
            }
        }
    }
}

/// FACK's recovery state.
#[derive(Debug, Clone, Default)]
pub struct Fack {
    board: Board,
    pub fast_recovery: bool,
    /// Forward-most data held by the receiver (ns-2 `fack_`).
    fack: i64,
    /// Retransmissions in the network (ns-2 `retran_data_`).
    retran_data: i64,
    /// Rampdown's window trim, packets (ns-2 `wintrim_`).
    wintrim: f64,
    rampdown: bool,
    /// A retransmission was lost again: no sending until the timer (ns-2 `timeout_`).
    stalled: bool,
    /// `fack - highest_ack - 1` at the last ACK with SACK blocks (ns-2's `dupacks_`).
    beyond: i64,
}

/// Rampdown keeps half of the flight (ns-2 `wintrimmult_` without `ss-div4_`).
const WINTRIM_MULT: f64 = 0.5;

/// The highest SACKed sequence number in `blocks` (ns-2 `maxsack`).
fn max_sacked(blocks: &[(i64, i64)]) -> i64 {
    blocks.iter().map(|b| b.1).max().unwrap_or(-1) - 1
}

impl Fack {
    pub fn new(rampdown: bool) -> Self {
        Fack { fack: -1, rampdown, ..Default::default() }
    }

    /// FACK's usable window: `min(cwnd + inflation, wnd) + wintrim`, with
    /// Wei's pacing inflation, or the advertised window alone under his pure
    /// rate control (ns-2 `FackTcpAgent::window` with the patch).
    fn window(&self, s: &SendState) -> i64 {
        if s.pure_rate() {
            return s.wnd as i64;
        }
        (s.windowd() + self.wintrim) as i64
    }

    /// An ACK of `ackno` echoing send time `echo` that does not end loss
    /// recovery by itself (ns-2 `FackTcpAgent::oldack`): move the ACK point
    /// and the timer, sample the RTT, no window growth.
    fn oldack(&mut self, s: &mut SendState, ackno: i64, echo: Time, now: Time) {
        s.advance_in_recovery(ackno);
        self.fack = self.fack.max(ackno);
        s.maxseq = s.maxseq.max(ackno);
        s.newtimer(ackno, now);
        s.end_timing(ackno);
        s.rtt.update(echo, now);
        s.echo_rtt_sample(now - echo);
    }

    fn leave_recovery(&mut self) {
        self.fast_recovery = false;
        self.stalled = false;
        self.board.clear();
        self.retran_data = 0;
        self.wintrim = 0.0;
        self.beyond = 0;
    }

    fn fast_retransmit(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        s.enter_recovery(s.t_seqno, s.windowd(), self.in_flight(s), now);
        s.w.cwnd = 1.0;
        if self.rampdown {
            self.wintrim = (s.t_seqno - self.fack - 1) as f64 * WINTRIM_MULT;
        }
        self.fast_recovery = true;
        self.board.mark_retransmitted(s.highest_ack + 1, s.t_seqno);
        self.retran_data += 1;
        s.output(s.highest_ack + 1, now, out);
    }
}

impl LossRecovery for Fack {
    fn uses_sack(&self) -> bool {
        true
    }

    /// FACK's ACK processing (ns-2 `FackTcpAgent::recv`).
    fn on_ack(&mut self, s: &mut SendState, ackno: i64, options: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        let blocks = options.sack.as_slice();
        if self.fast_recovery {
            self.oldack(s, ackno, options.timestamp, now);
            let ms = max_sacked(blocks);
            if ms > self.fack {
                if self.rampdown {
                    self.wintrim = (self.wintrim - (ms - self.fack) as f64 * WINTRIM_MULT).max(0.0);
                }
                self.fack = ms;
            }
            s.t_seqno = s.t_seqno.max(self.fack + 1);
            self.retran_data -= self.board.update(s.highest_ack, blocks);
            self.stalled |= self.board.retransmission_lost(blocks);
            s.open_cwnd(now, self.in_flight(s));
            if blocks.is_empty() && s.highest_ack >= s.recover {
                self.leave_recovery();
            }
            return self.send_much(s, now, out);
        }
        if ackno > s.highest_ack && blocks.is_empty() {
            s.open_window(ackno, now, true, |s| self.in_flight(s));
            self.fack = ackno;
            self.leave_recovery();
        } else if ackno >= s.highest_ack {
            self.retran_data -= self.board.update(s.highest_ack, blocks);
            self.oldack(s, ackno, options.timestamp, now);
            self.fack = self.fack.max(max_sacked(blocks));
            s.t_seqno = s.t_seqno.max(self.fack + 1);
            self.beyond = self.fack - s.highest_ack - 1;
            if self.beyond >= i64::from(DUPACK_THRESHOLD) {
                self.fast_retransmit(s, now, out);
            }
        }
        if self.beyond == 0 {
            self.send_much(s, now, out);
        }
    }

    /// FACK's sending rule (ns-2 `FackTcpAgent::send_much`). Wei's pacer
    /// re-arms its timer after every one (as the patch's FACK does).
    fn send_much(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        // The window as before the pacer's step (ns-2 reads it first; the
        // step may move Wei's inflation), read again after a retransmission.
        let mut win = self.window(s);
        let (flight, stalled) = (self.in_flight(s) as f64, self.stalled);
        let Some(most) = s.pace_begin(now, |cwnd| !stalled && flight > cwnd) else {
            return;
        };
        let mut sent = 0;
        while sent < most && s.t_seqno <= self.fack + win - self.retran_data && !self.stalled {
            if s.pacing_holds(now) {
                return;
            }
            let seq = match self.board.next_hole() {
                Some(hole) => {
                    self.board.mark_retransmitted(hole, s.t_seqno);
                    self.retran_data += 1;
                    win = self.window(s);
                    hole
                }
                None if self.fast_recovery && s.t_seqno > s.highest_ack + s.wnd as i64 => break,
                None if !s.has_data(s.t_seqno) => return,
                None => s.t_seqno,
            };
            s.output(seq, now, out);
            s.t_seqno = s.t_seqno.max(seq + 1);
            s.paced(now);
            sent += 1;
        }
        s.pace_end(now, true);
    }

    /// The retransmission timer expired (ns-2 `FackTcpAgent::timeout`):
    /// window to one, go back to the cumulative ACK; recovery is not left.
    fn on_timeout(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        self.stalled = false;
        self.retran_data = 0;
        if s.highest_ack == s.maxseq {
            s.w.cwnd = 1.0;
        } else {
            s.stats.timeouts += 1;
            s.cut_window(s.windowd(), self.in_flight(s), Congestion::Timeout, now);
            s.rtt.back_off();
        }
        self.board.clear();
        s.restart_timer(now);
        s.rtt_active = false;
        self.fack = s.highest_ack;
        s.t_seqno = s.highest_ack + 1;
        self.send_much(s, now, out);
    }

    /// `t_seqno - fack + retran_data` (the patch's `FackTcpAgent::packet_in_flight`).
    fn in_flight(&self, s: &SendState) -> i64 {
        s.t_seqno - self.fack + self.retran_data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_tracks_sacks_retransmissions_and_their_loss() {
        let mut b = Board::default();
        // ACK 9, 11..=12 SACKed: entries 10, 11, 12.
        assert_eq!(b.update(9, &[(11, 13)]), 0);
        assert_eq!(b.next_hole(), Some(10));
        b.mark_retransmitted(10, 20);
        assert_eq!(b.next_hole(), None);
        // 15 SACKed: 13, 14 become holes.
        b.update(9, &[(15, 16), (11, 13)]);
        assert_eq!(b.next_hole(), Some(13));
        b.mark_retransmitted(13, 21);
        // The retransmission of 10 left with t_seqno 20: a SACK of 19, sent
        // before it, says nothing; one of 20, sent after it, means 10 was
        // lost again (13's, sent before 21, still stands).
        assert!(!b.retransmission_lost(&[(19, 20)]));
        assert!(b.retransmission_lost(&[(20, 21)]));
        assert_eq!(b.next_hole(), Some(10), "retransmittable again");
        // ACK 13 acknowledges the retransmitted 13: one retransmission less.
        assert_eq!(b.update(13, &[]), 1);
        assert_eq!(b.base, 14);
    }
}
