//! What every TCP sender has, whatever its loss recovery: sequence numbers
//! (counting packets), the window and its congestion control, the
//! retransmission timer and RTT sampling, host pacing, counters; and the
//! rules the recoveries share (ns-2 2.35's `TcpAgent`, tcp/tcp.cc):
//!
//! - New ACK (`SendState::new_ack`): reset the duplicate count, take an RTT
//!   sample if the timed packet is covered, restart the retransmission
//!   timer. The window opens by [`CongestionControl::on_ack`]; with the SYN
//!   modelled, the ACK of packet 0 sets cwnd to the initial window (ns-2
//!   `delay_growth_`).
//! - Duplicate ACKs 1 and 2: limited transmit of one new packet each if
//!   `t_seqno <= highest_ack + cwnd + dupacks` (ns-2 `singledup_`).
//! - Timeout (`SendState::go_back_n`): window closes to one packet, timer
//!   backs off, sending resumes from `highest_ack + 1`, `recover = maxseq`.
//! - Window cuts (`SendState::cut_window`, ns-2 `slowdown`) take the window
//!   in use (stock ns-2) or, with `tcp.window_cut = "flight"` (ns-2 built
//!   with Wei's pacing patch, every agent), the packets in flight as the
//!   recovery counts them ([`LossRecovery::in_flight`](super::LossRecovery)).
//! - Host pacing (`tcp::host_pacing`) is asked before, during and after each
//!   `send_much` (`pace_begin`, `pacing_holds`, `paced`, `pace_end`).
//! - ECN (`tcp::ecn`), for a sender that uses it: each ACK's echo is heard
//!   before the loss recovery acts on the ACK (`ecn_echo`), and may cut the
//!   window once a window; the ACK that cut does not open it (DCTCP's: no
//!   ACK of the window it cut).

use super::cc::{Congestion, CongestionControl, Window};
use super::ecn::{EcnMode, EcnSender};
use super::host_pacing::{HostPacer, Wei};
use super::rate::RateSampler;
use super::rtt::RttEstimator;
use crate::sim::timer::Timer;
use crate::sim::Time;

/// Duplicate ACKs that trigger fast retransmit (ns-2 `numdupacks_`).
pub(super) const DUPACK_THRESHOLD: u32 = 3;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SenderStats {
    pub data_sent: u64,
    pub retransmits: u64,
    pub fast_retransmits: u64,
    /// Partial ACKs in recovery (NewReno's each retransmit one packet).
    pub partial_acks: u64,
    pub timeouts: u64,
    /// Window cuts by ECN echoes (`tcp::ecn`).
    pub ecn_cuts: u64,
}

/// What every sender has, whatever its loss recovery.
pub struct SendState {
    pub(in crate::tcp) cc: Box<dyn CongestionControl>,
    pub w: Window,
    /// Receiver's advertised window, packets (ns-2 `window_`).
    pub(in crate::tcp) wnd: f64,
    /// Window after the SYN is acknowledged (ns-2 `windowInit_`).
    pub(in crate::tcp) wnd_init: f64,
    pub(in crate::tcp) syn: bool,
    /// Next sequence number to send.
    pub(in crate::tcp) t_seqno: i64,
    /// One past the last sequence number the application has to send.
    pub(in crate::tcp) end: i64,
    /// Highest sequence number sent.
    pub(in crate::tcp) maxseq: i64,
    /// Highest cumulative ACK received.
    pub(in crate::tcp) highest_ack: i64,
    /// Duplicate ACKs since the last new ACK (ns-2 `dupacks_`).
    pub(in crate::tcp) dupacks: u32,
    /// Highest sequence number sent when the last recovery started (ns-2 `recover_`).
    pub(in crate::tcp) recover: i64,
    pub(in crate::tcp) rtt: RttEstimator,
    /// Whether a packet is being timed, which, and when it was sent.
    pub(in crate::tcp) rtt_active: bool,
    pub(in crate::tcp) rtt_seq: i64,
    pub(in crate::tcp) rtt_ts: Time,
    /// Retransmission timer.
    pub rtx: Timer,
    /// When each unacknowledged sequence number was first sent, if asked (`with_first_sends`).
    /// Boxed, as is the host pacer: most senders have neither, and a
    /// million senders would carry 192 bytes each of them inline.
    pub(in crate::tcp) first_sends: Option<Box<FirstSends>>,
    /// Host pacing, when this sender paces, and its release timer.
    pub(in crate::tcp) pacer: Option<Box<HostPacer>>,
    pub pace: Timer,
    /// Delivery-rate samples and the pacing rate, for a congestion control
    /// that asks for them (`tcp::rate`); boxed, and absent for the others.
    pub(in crate::tcp) rate: Option<Box<RateSampler>>,
    /// Window cuts from the packets in flight, not the window in use
    /// (`tcp.window_cut`: ns-2 built with Wei's pacing patch).
    pub(in crate::tcp) cut_from_flight: bool,
    /// ECN, for a sender that uses it (`tcp::ecn`); boxed, absent for the others.
    pub(in crate::tcp) ecn: Option<Box<EcnSender>>,
    pub stats: SenderStats,
}

impl SendState {
    pub(in crate::tcp) fn new(
        cc: Box<dyn CongestionControl>,
        window: u64,
        initial_window: u64,
        syn: bool,
        rtt: RttEstimator,
    ) -> Self {
        let wnd = window as f64;
        let wnd_init = initial_window as f64;
        let rate = cc.wants_rate_samples().then(Box::default);
        SendState {
            cc,
            w: Window { cwnd: if syn { 1.0 } else { wnd_init }, ssthresh: wnd },
            wnd,
            wnd_init,
            syn,
            t_seqno: 0,
            end: i64::MAX,
            maxseq: -1,
            highest_ack: -1,
            dupacks: 0,
            recover: 0,
            rtt,
            rtt_active: false,
            rtt_seq: -1,
            rtt_ts: 0,
            rtx: Timer::default(),
            first_sends: None,
            pacer: None,
            pace: Timer::default(),
            rate,
            cut_from_flight: false,
            ecn: None,
            stats: SenderStats::default(),
        }
    }

    /// Whether the application has data at `seq`.
    pub(in crate::tcp) fn has_data(&self, seq: i64) -> bool {
        seq < self.end
    }

    /// Wei's pacer, if this sender paces with it.
    fn wei(&self) -> Option<&Wei> {
        match self.pacer.as_deref() {
            Some(HostPacer::Wei(p)) => Some(p),
            _ => None,
        }
    }

    fn wei_mut(&mut self) -> Option<&mut Wei> {
        match self.pacer.as_deref_mut() {
            Some(HostPacer::Wei(p)) => Some(p),
            _ => None,
        }
    }

    /// Whether cwnd no longer limits sending (Wei's `pure_rate_control`).
    pub(in crate::tcp) fn pure_rate(&self) -> bool {
        self.wei().is_some_and(Wei::pure_rate)
    }

    /// Usable window with `inflation` packets of fast-recovery inflation,
    /// packets (ns-2 `RenoTcpAgent::window`), with Wei's pacing inflation,
    /// or the advertised window alone under its pure rate control.
    pub(in crate::tcp) fn window(&self, inflation: u32) -> i64 {
        if self.pure_rate() {
            return self.wnd as i64;
        }
        let paced = self.wei().map_or(0, Wei::inflation);
        (self.w.cwnd as i64 + i64::from(inflation) + i64::from(paced)).min(self.wnd as i64)
    }

    /// Window in use with `inflation` packets of fast-recovery inflation
    /// (ns-2 `RenoTcpAgent::windowd`).
    pub(in crate::tcp) fn flight(&self, inflation: u32) -> f64 {
        (self.w.cwnd + f64::from(inflation)).min(self.wnd)
    }

    /// Window in use (ns-2 `TcpAgent::windowd`, with Wei's pacing
    /// inflation, or the advertised window under its pure rate control).
    pub(in crate::tcp) fn windowd(&self) -> f64 {
        if self.pure_rate() {
            return self.wnd;
        }
        self.flight(self.wei().map_or(0, Wei::inflation))
    }

    /// In loss recovery as Wei's pacer sees it: the ACK point at or below
    /// `recover` (ns-2 `recover_ >= highest_ack_`).
    fn in_recovery(&self) -> bool {
        self.recover >= self.highest_ack
    }

    /// Before `send_much` sends: None if the pacer lets nothing go now, else
    /// at most how many packets. `congested(c)`: whether the packets in
    /// flight fill a window of c packets (ns-2 `is_congestion`).
    pub(in crate::tcp) fn pace_begin(&mut self, now: Time, congested: impl Fn(f64) -> bool) -> Option<usize> {
        let in_recovery = self.in_recovery();
        match self.pacer.as_deref_mut() {
            Some(HostPacer::Wei(p)) => p.begin(now, &mut self.pace, &self.w, in_recovery, congested),
            Some(HostPacer::Delayed(d)) => d.begin(&self.pace),
            _ => Some(usize::MAX),
        }
    }

    /// Whether the congestion control's pacing rate or the host pacer holds
    /// the next packet (the timer then set).
    pub(in crate::tcp) fn pacing_holds(&mut self, now: Time) -> bool {
        if let Some(at) = self.rate.as_deref().and_then(|r| r.holds(now)) {
            self.pace.set(at);
            return true;
        }
        match self.pacer.as_deref_mut() {
            Some(HostPacer::PaperW(p)) => match p.hold_until(now) {
                Some(at) => {
                    self.pace.set(at);
                    true
                }
                None => false,
            },
            Some(HostPacer::Wei(p)) => p.holds(now, &mut self.pace),
            Some(HostPacer::Delayed(d)) => d.holds(now, &mut self.pace),
            None => false,
        }
    }

    /// Tell the host pacer a new packet of `send_much` left.
    pub(in crate::tcp) fn paced(&mut self, now: Time) {
        if let Some(r) = self.rate.as_deref_mut() {
            r.paced(now);
        }
        if let Some(HostPacer::PaperW(p)) = self.pacer.as_deref_mut() {
            p.sent(now, &self.w, (self.t_seqno - 1 - self.highest_ack) as f64);
        }
    }

    /// After `send_much`'s loop: whether the window would let another
    /// packet go (`more`), for Wei's pacer to set its timer.
    pub(in crate::tcp) fn pace_end(&mut self, now: Time, more: bool) {
        let in_recovery = self.in_recovery();
        if let Some(HostPacer::Wei(p)) = self.pacer.as_deref_mut() {
            p.end(now, &mut self.pace, &self.w, in_recovery, more);
        }
    }

    /// The pacing timer expired: the `send_much` that follows is its.
    pub(in crate::tcp) fn pace_fired(&mut self) {
        match self.pacer.as_deref_mut() {
            Some(HostPacer::Wei(p)) => p.fired(),
            Some(HostPacer::Delayed(d)) => d.fired(),
            _ => {}
        }
    }

    /// An ACK arrived (Wei's ack counting counts them).
    pub(in crate::tcp) fn ack_arrived(&mut self) {
        if let Some(p) = self.wei_mut() {
            p.ack();
        }
    }

    /// An RTT sample of `rtt` from an echoed send time (FACK's, on every
    /// ACK with SACK blocks): Wei's pacer takes it (ns-2 `rtt_update`); the
    /// paper-w reading takes only the timed packet's.
    pub(in crate::tcp) fn echo_rtt_sample(&mut self, rtt: Time) {
        let cwnd = self.w.cwnd;
        if let Some(p) = self.wei_mut() {
            p.on_rtt_sample(rtt, cwnd);
        }
    }

    /// An ACK of `ackno` with SACK `blocks` arrived: if the congestion
    /// control takes rate samples, it hears this ACK's before the loss
    /// recovery acts on it (Linux calls `cong_control` after its loss
    /// detection, before sending; here a fast retransmit this ACK brings
    /// reaches it after, by `on_congestion`), and may set the window and
    /// the pacing rate.
    #[inline]
    pub(in crate::tcp) fn rate_sample(&mut self, ackno: i64, blocks: &[(i64, i64)], now: Time) {
        let Some(r) = self.rate.as_deref_mut() else { return };
        let in_recovery = self.recover > ackno.max(self.highest_ack);
        let sample = r.on_ack(ackno, blocks, now, in_recovery);
        self.cc.on_rate_sample(&mut self.w, &mut r.control, &sample, now);
        if std::mem::take(&mut r.control.mark_app_limited) {
            r.mark_app_limited();
        }
    }

    /// Use ECN as `mode` says.
    pub(in crate::tcp) fn set_ecn(&mut self, mode: EcnMode) {
        self.ecn = (mode != EcnMode::Off).then(|| Box::new(EcnSender::new(mode)));
    }

    /// An ECN-capable sender's ACK of `ackno`, with ECE or not, before its
    /// loss recovery acts on it: the congestion control hears of the
    /// packets a new ACK acknowledges, and an echo past the window of the
    /// last cut (by an echo or a loss) cuts the window (`tcp::ecn`).
    pub(in crate::tcp) fn ecn_echo(&mut self, ackno: i64, ece: bool, now: Time) {
        let Some(e) = self.ecn.as_deref() else { return };
        if ackno > self.highest_ack {
            let acked = (ackno - self.highest_ack) as u64;
            self.cc.on_ecn_ack(acked, ece, ackno, self.maxseq + 1);
        }
        if ece && ackno > e.recover.max(self.recover) {
            let flight = self.windowd();
            self.cc.on_ece(&mut self.w, flight, now);
            let maxseq = self.maxseq;
            self.ecn.as_deref_mut().expect("ECN sender").cut(maxseq);
            self.stats.ecn_cuts += 1;
        }
    }

    /// The recovery has acted on the ACK the echo of which cut the window.
    pub(in crate::tcp) fn ecn_acted(&mut self) {
        if let Some(e) = self.ecn.as_deref_mut() {
            e.just_cut = false;
        }
    }

    /// The retransmission timer expired: the rate sampler presumes every
    /// packet outstanding lost.
    pub(in crate::tcp) fn rate_timeout(&mut self) {
        if let Some(r) = self.rate.as_deref_mut() {
            r.on_timeout();
        }
    }

    /// A finite application gives more data: with none waiting and the
    /// window not full, the rate sampler marks the sender app-limited
    /// (Linux `tcp_rate_check_app_limited` in `tcp_sendmsg`).
    pub(in crate::tcp) fn check_app_limited(&mut self) {
        let waiting = self.has_data(self.t_seqno);
        if let Some(r) = self.rate.as_deref_mut() {
            if !waiting && (r.in_flight() as f64) < self.w.cwnd {
                r.mark_app_limited();
            }
        }
    }

    /// An RTT sample of `rtt` for the host pacer (not the timer's).
    fn pacer_rtt_sample(&mut self, rtt: Time) {
        match self.pacer.as_deref_mut() {
            Some(HostPacer::PaperW(p)) => p.on_rtt_sample(rtt),
            Some(HostPacer::Wei(p)) => p.on_rtt_sample(rtt, self.w.cwnd),
            Some(HostPacer::Delayed(_)) | None => {}
        }
    }

    /// Transmit `seq` (appended to `out`), timing it if it is new and
    /// nothing is being timed, and starting the timer if it is idle.
    pub(in crate::tcp) fn output(&mut self, seq: i64, now: Time, out: &mut Vec<i64>) {
        let nothing_outstanding = self.highest_ack == self.maxseq;
        if let Some(f) = &mut self.first_sends {
            f.sent(seq, now, self.highest_ack);
        }
        if let Some(r) = self.rate.as_deref_mut() {
            r.sent(seq, now, nothing_outstanding);
        }
        if let Some(e) = self.ecn.as_deref_mut() {
            e.sent(seq > self.maxseq, self.syn && seq == 0);
        }
        out.push(seq);
        self.stats.data_sent += 1;
        if let Some(p) = self.wei_mut() {
            p.sent(now);
        }
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

    pub(in crate::tcp) fn restart_timer(&mut self, now: Time) {
        self.rtx.set(now + self.rtt.rto());
    }

    /// A new ACK of `ackno` opens the window: the congestion control hears
    /// of the packets it acknowledged (if `count_acked`) and of the ACK (see
    /// `open_cwnd`, `in_flight` as there), and the ACK of the SYN sets the
    /// initial window.
    pub(in crate::tcp) fn open_window(
        &mut self,
        ackno: i64,
        now: Time,
        count_acked: bool,
        in_flight: impl FnOnce(&Self) -> i64,
    ) {
        if count_acked {
            self.cc.on_acked((ackno - self.highest_ack) as u64);
        }
        self.new_ack(ackno, now);
        let flight = in_flight(self);
        self.open_cwnd(now, flight);
        if self.syn && ackno == 0 {
            self.w.cwnd = self.wnd_init;
        }
    }

    /// Open the window on an ACK (ns-2 `opencwnd`): the congestion control,
    /// or Wei's ack counting with `in_flight` packets in flight.
    pub(in crate::tcp) fn open_cwnd(&mut self, now: Time, in_flight: i64) {
        if self.ecn.as_deref().is_some_and(|e| e.holds_window(self.highest_ack, self.recover)) {
            return;
        }
        let w = &mut self.w;
        let counted = match self.pacer.as_deref_mut() {
            Some(HostPacer::Wei(p)) => p.open(w, now, in_flight),
            _ => false,
        };
        if !counted {
            self.cc.on_ack(w, now);
        }
    }

    /// Cut the window on `event` (ns-2 `slowdown`): the congestion control
    /// cuts from the window in use, `windowd` (stock ns-2), or from the
    /// `in_flight` packets (`tcp.window_cut`); Wei's loss filter may stop
    /// or soften the cut.
    /// A fast retransmit inside the window an ECN echo cut does not cut
    /// again (`tcp::ecn`).
    pub(in crate::tcp) fn cut_window(&mut self, windowd: f64, in_flight: i64, event: Congestion, now: Time) {
        let cut_by_echo = self.ecn.as_deref().is_some_and(|e| self.highest_ack <= e.recover);
        if event == Congestion::FastRetransmit && cut_by_echo {
            return;
        }
        let rtt = self.rtt.last();
        if self.wei_mut().is_some_and(|p| p.filters_cut(now, rtt)) {
            return;
        }
        let flight = if self.cut_from_flight { in_flight as f64 } else { windowd };
        let before = self.w.cwnd;
        self.cc.on_congestion(&mut self.w, flight, event, now);
        if let Some(p) = self.wei() {
            self.w.cwnd = p.softened(before, self.w.cwnd);
        }
    }

    /// The cumulative ACK moves to `ackno`: RTT sample, timer (ns-2 `newack`).
    pub(in crate::tcp) fn new_ack(&mut self, ackno: i64, now: Time) {
        self.dupacks = 0;
        self.highest_ack = ackno;
        self.t_seqno = self.t_seqno.max(ackno + 1);
        if self.rtt_active && ackno >= self.rtt_seq {
            self.rtt_active = false;
            self.rtt.sample(self.rtt_ts, now);
            self.pacer_rtt_sample(now - self.rtt_ts);
            self.cc.on_rtt(&mut self.w, now - self.rtt_ts, now);
        }
        self.newtimer(ackno, now);
    }

    /// An ACK of `ackno` in recovery moves the ACK point, and nothing sent
    /// before it is sent again.
    pub(in crate::tcp) fn advance_in_recovery(&mut self, ackno: i64) {
        self.highest_ack = ackno;
        self.t_seqno = self.t_seqno.max(ackno + 1);
    }

    /// The timed packet, if `ackno` covers it, ends the timer's backoff
    /// without an RTT sample (ACKs in recovery).
    pub(in crate::tcp) fn end_timing(&mut self, ackno: i64) {
        if self.rtt_active && ackno >= self.rtt_seq {
            self.rtt_active = false;
            self.rtt.end_backoff();
        }
    }

    /// Restart the timer while data is outstanding, else stop it (ns-2 `newtimer`).
    pub(in crate::tcp) fn newtimer(&mut self, ackno: i64, now: Time) {
        if self.t_seqno > ackno || ackno < self.maxseq || self.w.cwnd < 1.0 {
            self.restart_timer(now);
        } else {
            self.rtx.cancel();
        }
    }

    /// Duplicate ACK 1 or 2: one new packet if the window plus the
    /// duplicates allow it (ns-2 `singledup_`).
    pub(in crate::tcp) fn limited_transmit(&mut self, now: Time, out: &mut Vec<i64>) {
        let next = self.t_seqno as f64;
        let ack = self.highest_ack as f64;
        let room = next <= ack + self.wnd && next <= ack + self.w.cwnd + f64::from(self.dupacks);
        if room && self.has_data(self.t_seqno) {
            self.output(self.t_seqno, now, out);
            self.t_seqno += 1;
        }
    }

    /// Start fast recovery up to `recover`: the window is cut (`cut_window`:
    /// from `windowd` or `in_flight`), the timer restarts and nothing is timed.
    pub(in crate::tcp) fn enter_recovery(&mut self, recover: i64, windowd: f64, in_flight: i64, now: Time) {
        self.recover = recover;
        self.cut_window(windowd, in_flight, Congestion::FastRetransmit, now);
        self.stats.fast_retransmits += 1;
        self.restart_timer(now);
        self.rtt_active = false;
    }

    /// The common timeout (ns-2 `TcpAgent::timeout` with `slowdown`): window
    /// to one, ssthresh cut (from `windowd` or `in_flight`, `cut_window`) if
    /// data was outstanding, timer backed off, and go-back-N from the
    /// cumulative ACK. The recovery sends afterwards.
    pub(in crate::tcp) fn go_back_n(&mut self, now: Time, windowd: f64, in_flight: i64) {
        self.dupacks = 0;
        self.recover = self.maxseq;
        if self.highest_ack == -1 {
            // The SYN (or first packet) was lost: no larger initial window.
            self.wnd_init = 1.0;
        }
        if self.highest_ack != self.maxseq {
            self.stats.timeouts += 1;
            self.cut_window(windowd, in_flight, Congestion::Timeout, now);
            self.rtt.back_off();
        } else {
            self.w.cwnd = 1.0;
        }
        self.restart_timer(now);
        self.t_seqno = self.highest_ack + 1;
        self.rtt_active = false;
    }
}

/// First transmission times of the sequence numbers from `base` on: a
/// queue trimmed as the cumulative ACK passes them.
#[derive(Debug, Default)]
pub(in crate::tcp) struct FirstSends {
    base: i64,
    times: std::collections::VecDeque<Time>,
}

impl FirstSends {
    /// `seq` goes out at `now`, everything up to `acked` acknowledged.
    pub(in crate::tcp) fn sent(&mut self, seq: i64, now: Time, acked: i64) {
        while self.base <= acked && self.times.pop_front().is_some() {
            self.base += 1;
        }
        if self.times.is_empty() {
            self.base = self.base.max(acked + 1);
        }
        if seq == self.base + self.times.len() as i64 {
            self.times.push_back(now);
        }
    }

    pub(in crate::tcp) fn get(&self, seq: i64) -> Option<Time> {
        usize::try_from(seq - self.base).ok().and_then(|i| self.times.get(i).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sends_remember_the_first_transmission_until_acknowledged() {
        let mut f = FirstSends::default();
        for seq in 0..5 {
            f.sent(seq, 10 * seq as Time, -1);
        }
        f.sent(2, 99, -1); // a retransmission keeps the first time
        assert_eq!(
            (0..6).map(|q| f.get(q)).collect::<Vec<_>>(),
            vec![Some(0), Some(10), Some(20), Some(30), Some(40), None]
        );
        f.sent(5, 50, 2); // 0..=2 acknowledged
        assert_eq!((f.get(2), f.get(3), f.get(5)), (None, Some(30), Some(50)));
        f.sent(9, 90, 8); // all acknowledged, and a jump (go-back-N or a new connection's base)
        assert_eq!((f.get(5), f.get(9)), (None, Some(90)));
    }
}
