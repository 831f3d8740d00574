//! Reno and NewReno loss recovery, as ns-2 2.35's `RenoTcpAgent` and
//! `NewRenoTcpAgent` (tcp/tcp-reno.cc, tcp-newreno.cc) with their defaults.
//!
//! - Sending: while `t_seqno <= highest_ack + win`, send `t_seqno`, where
//!   `win = min(int(cwnd) + dupwnd, window)`.
//! - New ACK: leave fast recovery (`dupwnd = 0`) and open the window.
//! - Third duplicate ACK: fast retransmit, unless a loss in the same window
//!   was already handled (`highest_ack <= recover`, ns-2 `bug_fix_`); the
//!   window closes, `recover = maxseq`, and fast recovery inflates the window
//!   by one per further duplicate (`dupwnd`), starting from 3.
//! - NewReno: an ACK that advances but stays below `recover` is partial: it
//!   deflates the window, retransmits the next hole and keeps recovery going
//!   (see `partial_ack`); only a full ACK ends it, and no second fast
//!   retransmit happens before that.
//! - Timeout: go-back-N (`SendState::go_back_n`).

use super::LossRecovery;
use crate::net::TcpOptions;
use crate::sim::Time;
use crate::tcp::state::{SendState, DUPACK_THRESHOLD};

/// What the sender did last to its window (ns-2 `last_cwnd_action_`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CwndAction {
    None,
    DupAck,
    Timeout,
    /// A new ACK arrived after a fast retransmit.
    Exited,
}

/// Reno's (or NewReno's) recovery state.
#[derive(Debug, Clone)]
pub struct RenoRecovery {
    /// Partial ACKs keep recovery going (NewReno).
    newreno: bool,
    /// Fast-recovery window inflation, packets.
    dupwnd: u32,
    last_action: CwndAction,
    /// NewReno: a partial ACK has restarted the timer in this recovery.
    first_partial_seen: bool,
}

impl RenoRecovery {
    pub fn new(newreno: bool) -> Self {
        RenoRecovery { newreno, dupwnd: 0, last_action: CwndAction::None, first_partial_seen: false }
    }

    /// NewReno: an ACK inside the window being recovered. Deflate the window
    /// by what it acknowledged (less one), retransmit the next hole, and
    /// restart the timer on the first such ACK only (ns-2 `partialnewack`).
    fn partial_ack(&mut self, s: &mut SendState, ackno: i64, now: Time, out: &mut Vec<i64>) {
        if !self.first_partial_seen {
            self.first_partial_seen = true;
            s.newtimer(ackno, now);
        }
        let deflate = (ackno - s.highest_ack) as u32;
        if self.dupwnd > deflate {
            self.dupwnd -= deflate - 1;
        } else {
            s.w.cwnd -= f64::from(deflate - self.dupwnd);
            self.dupwnd = 1;
        }
        s.w.cwnd = s.w.cwnd.max(1.0);
        s.advance_in_recovery(ackno);
        s.end_timing(ackno);
        s.stats.partial_acks += 1;
        s.output(s.highest_ack + 1, now, out);
    }

    fn fast_retransmit(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        let recovered = s.highest_ack > s.recover;
        let first_packet_lost = s.highest_ack == 0;
        // Reno may fast-retransmit again while still in recovery; NewReno not.
        let again = !self.newreno && self.last_action == CwndAction::DupAck;
        if !(recovered || again || first_packet_lost) {
            return;
        }
        self.last_action = CwndAction::DupAck;
        s.enter_recovery(s.maxseq, s.flight(self.dupwnd), self.in_flight(s), now);
        s.output(s.highest_ack + 1, now, out);
        self.dupwnd = DUPACK_THRESHOLD;
    }
}

impl LossRecovery for RenoRecovery {
    fn on_ack(&mut self, s: &mut SendState, ackno: i64, _: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        let in_recovery = self.last_action == CwndAction::DupAck;
        if ackno > s.highest_ack && self.newreno && in_recovery && ackno < s.recover {
            self.partial_ack(s, ackno, now, out);
        } else if ackno > s.highest_ack {
            // Reno leaves fast recovery on any new ACK; NewReno (here on a full
            // ACK) only if the window was inflated.
            if !self.newreno || self.dupwnd > 0 {
                if in_recovery {
                    self.last_action = CwndAction::Exited;
                }
                self.dupwnd = 0;
            }
            self.first_partial_seen = false;
            s.open_window(ackno, now, !in_recovery, |s| self.in_flight(s));
        } else if ackno == s.highest_ack {
            s.dupacks += 1;
            if s.dupacks == DUPACK_THRESHOLD {
                self.fast_retransmit(s, now, out);
            } else if s.dupacks > DUPACK_THRESHOLD && self.last_action == CwndAction::DupAck {
                self.dupwnd += 1;
            } else if s.dupacks < DUPACK_THRESHOLD {
                s.limited_transmit(now, out);
            }
        }
        if s.dupacks == 0 || s.dupacks >= DUPACK_THRESHOLD {
            self.send_much(s, now, out);
        }
    }

    /// ns-2 `TcpAgent::send_much`. The window, packets, is read before the
    /// pacer's step (`pace_begin`, the patch's `setup_maxburst`), which may
    /// move Wei's inflation, and again after each packet: a call that sends
    /// nothing tests the loop and the pacing timer with the window as it was
    /// before the step (so the timer's expiry that inflates the window
    /// sends nothing itself).
    fn send_much(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        let mut win = s.window(self.dupwnd);
        let flight = self.in_flight(s) as f64;
        let Some(most) = s.pace_begin(now, |cwnd| flight >= cwnd) else {
            return;
        };
        let open = |s: &SendState, win: i64| s.t_seqno <= s.highest_ack + win && s.has_data(s.t_seqno);
        let mut sent = 0;
        while sent < most && open(s, win) {
            if s.pacing_holds(now) {
                return;
            }
            s.output(s.t_seqno, now, out);
            s.t_seqno += 1;
            s.paced(now);
            sent += 1;
            win = s.window(self.dupwnd);
        }
        s.pace_end(now, open(s, win));
    }

    fn on_timeout(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        self.dupwnd = 0;
        s.go_back_n(now, s.flight(0), self.in_flight(s));
        self.last_action = CwndAction::Timeout;
        self.send_much(s, now, out);
    }

    /// `t_seqno - highest_ack`, at least 0 (ns-2 `TcpAgent::packet_in_flight`).
    fn in_flight(&self, s: &SendState) -> i64 {
        (s.t_seqno - s.highest_ack).max(0)
    }
}
