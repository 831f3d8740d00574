//! A one-way TCP sender with Reno loss recovery, following ns-2 2.35's
//! `TcpAgent` and `RenoTcpAgent` (tcp/tcp.cc, tcp/tcp-reno.cc) with their
//! defaults. Sequence numbers count packets; the application always has data.
//!
//! - Sending (`send_much`): while `t_seqno <= highest_ack + win`, send
//!   `t_seqno`, where `win = min(int(cwnd) + dupwnd, window)`.
//! - New ACK: reset the duplicate count, leave fast recovery (`dupwnd = 0`),
//!   take an RTT sample if the timed packet is covered, restart the
//!   retransmission timer, open the window ([`CongestionControl::on_ack`]).
//!   With the SYN modelled, the ACK of packet 0 sets cwnd to the initial
//!   window (ns-2 `delay_growth_`).
//! - Duplicate ACKs 1 and 2: limited transmit of one new packet each if
//!   `t_seqno <= highest_ack + cwnd + dupacks` (ns-2 `singledup_`).
//! - Third duplicate ACK: fast retransmit, unless a loss in the same window
//!   was already handled (`highest_ack <= recover`, ns-2 `bug_fix_`); the
//!   window closes, `recover = maxseq`, and fast recovery inflates the window
//!   by one per further duplicate (`dupwnd`), starting from 3.
//! - Timeout: window closes to one packet, timer backs off, sending resumes
//!   from `highest_ack + 1` (go-back-N), `recover = maxseq`.

use super::cc::{Congestion, CongestionControl, Window};
use super::rtt::RttEstimator;
use crate::sim::timer::Timer;
use crate::sim::Time;

/// Duplicate ACKs that trigger fast retransmit (ns-2 `numdupacks_`).
const DUPACK_THRESHOLD: u32 = 3;

/// What the sender did last to its window (ns-2 `last_cwnd_action_`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CwndAction {
    None,
    DupAck,
    Timeout,
    /// A new ACK arrived after a fast retransmit.
    Exited,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SenderStats {
    pub data_sent: u64,
    pub retransmits: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
}

pub struct TcpSender {
    cc: Box<dyn CongestionControl>,
    pub w: Window,
    /// Receiver's advertised window, packets (ns-2 `window_`).
    wnd: f64,
    /// Window after the SYN is acknowledged (ns-2 `windowInit_`).
    wnd_init: f64,
    syn: bool,
    /// Next sequence number to send.
    t_seqno: i64,
    /// Highest sequence number sent.
    maxseq: i64,
    /// Highest cumulative ACK received.
    highest_ack: i64,
    dupacks: u32,
    /// Fast-recovery window inflation, packets.
    dupwnd: u32,
    recover: i64,
    last_action: CwndAction,
    rtt: RttEstimator,
    /// Whether a packet is being timed, which, and when it was sent.
    rtt_active: bool,
    rtt_seq: i64,
    rtt_ts: Time,
    /// Retransmission timer.
    pub rtx: Timer,
    pub stats: SenderStats,
}

impl TcpSender {
    pub fn new(
        cc: Box<dyn CongestionControl>,
        window: u64,
        initial_window: u64,
        syn: bool,
        rtt: RttEstimator,
    ) -> Self {
        let wnd = window as f64;
        let wnd_init = initial_window as f64;
        TcpSender {
            cc,
            w: Window {
                cwnd: if syn { 1.0 } else { wnd_init },
                ssthresh: wnd,
            },
            wnd,
            wnd_init,
            syn,
            t_seqno: 0,
            maxseq: -1,
            highest_ack: -1,
            dupacks: 0,
            dupwnd: 0,
            recover: 0,
            last_action: CwndAction::None,
            rtt,
            rtt_active: false,
            rtt_seq: -1,
            rtt_ts: 0,
            rtx: Timer::default(),
            stats: SenderStats::default(),
        }
    }

    /// The application starts: send the initial window. Sequence numbers to
    /// transmit are appended to `out`.
    pub fn start(&mut self, now: Time, out: &mut Vec<i64>) {
        self.send_much(now, out);
    }

    /// Highest cumulative ACK received.
    pub fn highest_ack(&self) -> i64 {
        self.highest_ack
    }

    pub fn srtt(&self) -> Time {
        self.rtt.srtt()
    }

    /// Usable window, packets (ns-2 `RenoTcpAgent::window`).
    fn window(&self) -> i64 {
        (self.w.cwnd as i64 + i64::from(self.dupwnd)).min(self.wnd as i64)
    }

    /// Window in use including fast-recovery inflation (ns-2 `windowd`).
    fn flight(&self) -> f64 {
        (self.w.cwnd + f64::from(self.dupwnd)).min(self.wnd)
    }

    fn send_much(&mut self, now: Time, out: &mut Vec<i64>) {
        while self.t_seqno <= self.highest_ack + self.window() {
            self.output(self.t_seqno, now, out);
            self.t_seqno += 1;
        }
    }

    fn output(&mut self, seq: i64, now: Time, out: &mut Vec<i64>) {
        let nothing_outstanding = self.highest_ack == self.maxseq;
        out.push(seq);
        self.stats.data_sent += 1;
        if seq > self.maxseq {
            self.maxseq = seq;
            if !self.rtt_active {
                self.rtt_active = true;
                if seq > self.rtt_seq {
                    self.rtt_seq = seq;
                    self.rtt_ts = now;
                }
            }
        } else {
            self.stats.retransmits += 1;
        }
        if !self.rtx.is_pending() || nothing_outstanding {
            self.restart_timer(now);
        }
    }

    fn restart_timer(&mut self, now: Time) {
        self.rtx.set(now + self.rtt.rto());
    }

    /// An ACK for cumulative sequence `ackno` arrived.
    pub fn on_ack(&mut self, ackno: i64, now: Time, out: &mut Vec<i64>) {
        if ackno > self.highest_ack {
            if self.last_action == CwndAction::DupAck {
                self.last_action = CwndAction::Exited;
            }
            self.dupwnd = 0;
            self.new_ack(ackno, now);
            self.cc.on_ack(&mut self.w, now);
            if self.syn && self.highest_ack == 0 {
                self.w.cwnd = self.wnd_init;
            }
        } else if ackno == self.highest_ack {
            self.dupacks += 1;
            if self.dupacks == DUPACK_THRESHOLD {
                self.fast_retransmit(now, out);
            } else if self.dupacks > DUPACK_THRESHOLD && self.last_action == CwndAction::DupAck {
                self.dupwnd += 1;
            } else if self.dupacks < DUPACK_THRESHOLD {
                self.limited_transmit(now, out);
            }
        }
        if self.dupacks == 0 || self.dupacks >= DUPACK_THRESHOLD {
            self.send_much(now, out);
        }
    }

    fn new_ack(&mut self, ackno: i64, now: Time) {
        self.dupacks = 0;
        self.highest_ack = ackno;
        self.t_seqno = self.t_seqno.max(ackno + 1);
        if self.rtt_active && ackno >= self.rtt_seq {
            self.rtt_active = false;
            self.rtt.sample(self.rtt_ts, now);
        }
        if self.t_seqno > ackno || ackno < self.maxseq || self.w.cwnd < 1.0 {
            self.restart_timer(now);
        } else {
            self.rtx.cancel();
        }
    }

    fn limited_transmit(&mut self, now: Time, out: &mut Vec<i64>) {
        let next = self.t_seqno as f64;
        let ack = self.highest_ack as f64;
        if next <= ack + self.wnd && next <= ack + self.w.cwnd + f64::from(self.dupacks) {
            self.output(self.t_seqno, now, out);
            self.t_seqno += 1;
        }
    }

    fn fast_retransmit(&mut self, now: Time, out: &mut Vec<i64>) {
        let recovered = self.highest_ack > self.recover;
        let first_packet_lost = self.highest_ack == 0;
        if !(recovered || self.last_action == CwndAction::DupAck || first_packet_lost) {
            return;
        }
        self.recover = self.maxseq;
        self.last_action = CwndAction::DupAck;
        let flight = self.flight();
        self.cc
            .on_congestion(&mut self.w, flight, Congestion::FastRetransmit, now);
        self.stats.fast_retransmits += 1;
        self.restart_timer(now);
        self.rtt_active = false;
        self.output(self.highest_ack + 1, now, out);
        self.dupwnd = DUPACK_THRESHOLD;
    }

    /// The retransmission timer expired.
    pub fn on_timeout(&mut self, now: Time, out: &mut Vec<i64>) {
        self.dupwnd = 0;
        self.dupacks = 0;
        self.recover = self.maxseq;
        if self.highest_ack == -1 {
            // The SYN (or first packet) was lost: no larger initial window.
            self.wnd_init = 1.0;
        }
        let outstanding = self.highest_ack != self.maxseq;
        if outstanding {
            self.stats.timeouts += 1;
            self.last_action = CwndAction::Timeout;
            let flight = self.flight();
            self.cc
                .on_congestion(&mut self.w, flight, Congestion::Timeout, now);
            self.rtt.back_off();
        } else {
            self.w.cwnd = 1.0;
        }
        self.restart_timer(now);
        self.t_seqno = self.highest_ack + 1;
        self.rtt_active = false;
        self.last_action = CwndAction::Timeout;
        self.send_much(now, out);
    }
}
