//! A one-way TCP sender with Reno or NewReno loss recovery, following ns-2
//! 2.35's `TcpAgent`, `RenoTcpAgent` and `NewRenoTcpAgent` (tcp/tcp.cc,
//! tcp-reno.cc, tcp-newreno.cc) with their defaults. Sequence numbers count
//! packets. A bulk application always has data; a finite one (a short-lived
//! transfer, `with_data`) has packets up to `end`, and the sender is `done`
//! once all of them are acknowledged (ns-2 `advance`, `finish`).
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
//! - NewReno: an ACK that advances but stays below `recover` is partial: it
//!   deflates the window, retransmits the next hole and keeps recovery going
//!   (see `partial_ack`); only a full ACK ends it, and no second fast
//!   retransmit happens before that.
//! - Timeout: window closes to one packet, timer backs off, sending resumes
//!   from `highest_ack + 1` (go-back-N), `recover = maxseq`.
//!
//! SACK and FACK recovery replace the duplicate-ACK and sending rules above
//! (see [`sack`], [`fack`]); sequence numbers, timers, RTT sampling and
//! pacing stay shared.

mod fack;
mod sack;

use self::fack::FackState;
use self::sack::SackState;
use super::cc::{Congestion, CongestionControl, Window};
use super::pacing::HostPacer;
use super::rtt::RttEstimator;
use super::Recovery;
use crate::net::TcpOptions;
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
    /// NewReno partial ACKs (each retransmits one packet).
    pub partial_acks: u64,
    pub timeouts: u64,
}

pub struct TcpSender {
    cc: Box<dyn CongestionControl>,
    recovery: Recovery,
    /// NewReno: a partial ACK has restarted the timer in this recovery.
    first_partial_seen: bool,
    /// SACK: scoreboard, pipe and recovery state.
    sack: SackState,
    /// FACK: scoreboard, forward-most ACK and retransmissions in flight.
    fack: FackState,
    pub w: Window,
    /// Receiver's advertised window, packets (ns-2 `window_`).
    wnd: f64,
    /// Window after the SYN is acknowledged (ns-2 `windowInit_`).
    wnd_init: f64,
    syn: bool,
    /// Next sequence number to send.
    t_seqno: i64,
    /// One past the last sequence number the application has to send.
    end: i64,
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
    /// When each unacknowledged sequence number was first sent, if asked (`with_first_sends`).
    first_sends: Option<FirstSends>,
    /// Host pacing, when this sender paces, and its release timer.
    pacer: Option<HostPacer>,
    pub pace: Timer,
    pub stats: SenderStats,
}

impl TcpSender {
    pub fn new(
        (cc, recovery): (Box<dyn CongestionControl>, Recovery),
        window: u64,
        initial_window: u64,
        syn: bool,
        rtt: RttEstimator,
    ) -> Self {
        let wnd = window as f64;
        let wnd_init = initial_window as f64;
        TcpSender {
            cc,
            recovery,
            first_partial_seen: false,
            sack: SackState::new(),
            fack: FackState::new(matches!(recovery, Recovery::Fack { rampdown: true })),
            w: Window { cwnd: if syn { 1.0 } else { wnd_init }, ssthresh: wnd },
            wnd,
            wnd_init,
            syn,
            t_seqno: 0,
            end: i64::MAX,
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
            first_sends: None,
            pacer: None,
            pace: Timer::default(),
            stats: SenderStats::default(),
        }
    }

    /// Pace new packets with `pacer` (see `tcp::pacing`).
    pub fn with_pacing(mut self, pacer: HostPacer) -> Self {
        self.pacer = Some(pacer);
        self
    }

    /// Remember when each sequence number was first sent (see `first_sent`).
    pub fn with_first_sends(mut self) -> Self {
        self.first_sends = Some(FirstSends::default());
        self
    }

    /// When `seq`, sent by now and not yet acknowledged, was first sent (if remembered).
    pub fn first_sent(&self, seq: i64) -> Option<Time> {
        self.first_sends.as_ref().and_then(|f| f.get(seq))
    }

    /// Send only sequence numbers below `end` (a finite transfer).
    pub fn with_data(mut self, end: i64) -> Self {
        self.end = end;
        self
    }

    /// Whether the application has data at `seq`.
    fn has_data(&self, seq: i64) -> bool {
        seq < self.end
    }

    /// Whether every packet of a finite transfer is acknowledged.
    pub fn done(&self) -> bool {
        self.highest_ack >= self.end - 1
    }

    /// The connection closes: no more timers.
    pub fn close(&mut self) {
        self.rtx.cancel();
        self.pace.cancel();
    }

    /// Whether this sender needs SACK blocks from its sink.
    pub fn uses_sack(&self) -> bool {
        self.recovery.uses_sack()
    }

    pub fn is_paced(&self) -> bool {
        self.pacer.is_some()
    }

    /// The application starts: send the initial window. Sequence numbers to
    /// transmit are appended to `out`.
    pub fn start(&mut self, now: Time, out: &mut Vec<i64>) {
        self.send_much(now, out);
    }

    /// The RTT estimator: smoothed RTT and retransmission timeout.
    pub fn rtt(&self) -> &RttEstimator {
        &self.rtt
    }

    /// Highest cumulative ACK received.
    pub fn highest_ack(&self) -> i64 {
        self.highest_ack
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
        match self.recovery {
            Recovery::Sack => return self.send_much_sack(now, out),
            Recovery::Fack { .. } => return self.send_much_fack(now, out),
            Recovery::Reno | Recovery::NewReno => {}
        }
        while self.t_seqno <= self.highest_ack + self.window() && self.has_data(self.t_seqno) {
            if self.pacing_holds(now) {
                return;
            }
            self.output(self.t_seqno, now, out);
            self.t_seqno += 1;
            self.paced(now);
        }
    }

    /// Whether the host pacer holds the next packet (its timer then set).
    fn pacing_holds(&mut self, now: Time) -> bool {
        match self.pacer.as_ref().and_then(|p| p.hold_until(now)) {
            Some(at) => {
                self.pace.set(at);
                true
            }
            None => false,
        }
    }

    /// Tell the host pacer a packet left.
    fn paced(&mut self, now: Time) {
        if let Some(p) = &mut self.pacer {
            p.sent(now, &self.w, (self.t_seqno - 1 - self.highest_ack) as f64);
        }
    }

    /// The pacing timer expired: send what the window allows.
    pub fn on_pace(&mut self, now: Time, out: &mut Vec<i64>) {
        self.send_much(now, out);
    }

    fn output(&mut self, seq: i64, now: Time, out: &mut Vec<i64>) {
        let nothing_outstanding = self.highest_ack == self.maxseq;
        if let Some(f) = &mut self.first_sends {
            f.sent(seq, now, self.highest_ack);
        }
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

    /// An ACK for cumulative sequence `ackno` arrived, with TCP `options`
    /// (read only by SACK and FACK).
    pub fn on_ack(&mut self, ackno: i64, options: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        match self.recovery {
            Recovery::Sack => return self.on_ack_sack(ackno, options.sack.as_slice(), now, out),
            Recovery::Fack { .. } => return self.on_ack_fack(ackno, options, now, out),
            Recovery::Reno | Recovery::NewReno => {}
        }
        let in_recovery = self.last_action == CwndAction::DupAck;
        if ackno > self.highest_ack
            && self.recovery == Recovery::NewReno
            && in_recovery
            && ackno < self.recover
        {
            self.partial_ack(ackno, now, out);
        } else if ackno > self.highest_ack {
            // Reno leaves fast recovery on any new ACK; NewReno (here on a full
            // ACK) only if the window was inflated.
            if self.recovery == Recovery::Reno || self.dupwnd > 0 {
                if in_recovery {
                    self.last_action = CwndAction::Exited;
                }
                self.dupwnd = 0;
            }
            self.first_partial_seen = false;
            if !in_recovery {
                self.cc.on_acked((ackno - self.highest_ack) as u64);
            }
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
            if let Some(p) = &mut self.pacer {
                p.on_rtt_sample(now - self.rtt_ts);
            }
            self.cc.on_rtt(&mut self.w, now - self.rtt_ts, now);
        }
        self.newtimer(ackno, now);
    }

    /// Restart the timer while data is outstanding, else stop it (ns-2 `newtimer`).
    fn newtimer(&mut self, ackno: i64, now: Time) {
        if self.t_seqno > ackno || ackno < self.maxseq || self.w.cwnd < 1.0 {
            self.restart_timer(now);
        } else {
            self.rtx.cancel();
        }
    }

    /// NewReno: an ACK inside the window being recovered. Deflate the window
    /// by what it acknowledged (less one), retransmit the next hole, and
    /// restart the timer on the first such ACK only (ns-2 `partialnewack`).
    fn partial_ack(&mut self, ackno: i64, now: Time, out: &mut Vec<i64>) {
        if !self.first_partial_seen {
            self.first_partial_seen = true;
            self.newtimer(ackno, now);
        }
        let deflate = (ackno - self.highest_ack) as u32;
        if self.dupwnd > deflate {
            self.dupwnd -= deflate - 1;
        } else {
            self.w.cwnd -= f64::from(deflate - self.dupwnd);
            self.dupwnd = 1;
        }
        self.w.cwnd = self.w.cwnd.max(1.0);
        self.highest_ack = ackno;
        self.t_seqno = self.t_seqno.max(ackno + 1);
        if self.rtt_active && ackno >= self.rtt_seq {
            self.rtt_active = false;
            self.rtt.end_backoff();
        }
        self.stats.partial_acks += 1;
        self.output(self.highest_ack + 1, now, out);
    }

    fn limited_transmit(&mut self, now: Time, out: &mut Vec<i64>) {
        let next = self.t_seqno as f64;
        let ack = self.highest_ack as f64;
        let room = next <= ack + self.wnd && next <= ack + self.w.cwnd + f64::from(self.dupacks);
        if room && self.has_data(self.t_seqno) {
            self.output(self.t_seqno, now, out);
            self.t_seqno += 1;
        }
    }

    fn fast_retransmit(&mut self, now: Time, out: &mut Vec<i64>) {
        let recovered = self.highest_ack > self.recover;
        let first_packet_lost = self.highest_ack == 0;
        // Reno may fast-retransmit again while still in recovery; NewReno not.
        let again = self.recovery == Recovery::Reno && self.last_action == CwndAction::DupAck;
        if !(recovered || again || first_packet_lost) {
            return;
        }
        self.recover = self.maxseq;
        self.last_action = CwndAction::DupAck;
        let flight = self.flight();
        self.cc.on_congestion(&mut self.w, flight, Congestion::FastRetransmit, now);
        self.stats.fast_retransmits += 1;
        self.restart_timer(now);
        self.rtt_active = false;
        self.output(self.highest_ack + 1, now, out);
        self.dupwnd = DUPACK_THRESHOLD;
    }

    /// The retransmission timer expired.
    pub fn on_timeout(&mut self, now: Time, out: &mut Vec<i64>) {
        match self.recovery {
            Recovery::Sack => self.sack_timeout(),
            Recovery::Fack { .. } => return self.fack_timeout(now, out),
            Recovery::Reno | Recovery::NewReno => {}
        }
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
            self.cc.on_congestion(&mut self.w, flight, Congestion::Timeout, now);
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

/// First transmission times of the sequence numbers from `base` on: a
/// queue trimmed as the cumulative ACK passes them.
#[derive(Debug, Default)]
struct FirstSends {
    base: i64,
    times: std::collections::VecDeque<Time>,
}

impl FirstSends {
    /// `seq` goes out at `now`, everything up to `acked` acknowledged.
    fn sent(&mut self, seq: i64, now: Time, acked: i64) {
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

    fn get(&self, seq: i64) -> Option<Time> {
        usize::try_from(seq - self.base).ok().and_then(|i| self.times.get(i).copied())
    }
}

#[cfg(test)]
mod tests {
    //! Hand-worked cases on a scripted network: a pipe of fixed one-way delay
    //! and no serialisation, losing exactly the transmissions a test names.

    use super::*;
    use crate::sim::EventQueue;
    use crate::tcp::pacing::HostPacer;
    use crate::tcp::pacing::HostPacingMode;
    use crate::tcp::{reno::Reno, Recovery, TcpSink};

    const MS: Time = 1_000_000;

    #[derive(Clone, Copy)]
    enum Ev {
        /// Sequence number and send time.
        Data(i64, Time),
        Ack(i64, TcpOptions),
        Rto,
        Pace,
    }

    struct Pipe {
        q: EventQueue<Ev>,
        tx: TcpSender,
        rx: TcpSink,
        one_way: Time,
        /// (seq, nth transmission of it) pairs to lose.
        lose: Vec<(i64, u32)>,
        sent: Vec<(Time, i64)>,
        out: Vec<i64>,
    }

    impl Pipe {
        fn new(window: u64, lose: Vec<(i64, u32)>) -> Self {
            Self::build(window, lose, None, Recovery::Reno)
        }

        fn paced(window: u64, lose: Vec<(i64, u32)>, pacing: Option<HostPacingMode>) -> Self {
            Self::build(window, lose, pacing, Recovery::Reno)
        }

        /// RTT 100 ms.
        fn build(
            window: u64,
            lose: Vec<(i64, u32)>,
            pacing: Option<HostPacingMode>,
            recovery: Recovery,
        ) -> Self {
            Self::with_delay(window, lose, pacing, recovery, 50 * MS)
        }

        fn with_delay(
            window: u64,
            lose: Vec<(i64, u32)>,
            pacing: Option<HostPacingMode>,
            recovery: Recovery,
            one_way: Time,
        ) -> Self {
            let rtt = RttEstimator::new(10 * MS, 0, 200 * MS, 60_000 * MS, 3_000 * MS);
            let mut tx = TcpSender::new((Box::new(Reno), recovery), window, 2, true, rtt);
            if let Some(mode) = pacing {
                tx = tx.with_pacing(HostPacer::new(mode));
            }
            let mut p = Pipe {
                q: EventQueue::default(),
                tx,
                rx: TcpSink::new(None, recovery.uses_sack()),
                one_way,
                lose,
                sent: vec![],
                out: vec![],
            };
            p.tx.start(0, &mut p.out);
            p.flush(0);
            p
        }

        fn flush(&mut self, now: Time) {
            for seq in self.out.drain(..) {
                let nth = self.sent.iter().filter(|s| s.1 == seq).count() as u32;
                self.sent.push((now, seq));
                if !self.lose.contains(&(seq, nth)) {
                    self.q.push(now + self.one_way, Ev::Data(seq, now));
                }
            }
            if let Some(at) = self.tx.rtx.needs_event() {
                self.q.push(at, Ev::Rto);
            }
            if let Some(at) = self.tx.pace.needs_event() {
                self.q.push(at, Ev::Pace);
            }
        }

        fn run_until(&mut self, end: Time) {
            while self.q.peek_time().is_some_and(|t| t <= end) {
                let (now, ev) = self.q.pop().unwrap();
                match ev {
                    Ev::Data(seq, sent) => {
                        let ack = self.rx.on_data(seq, sent, now).expect("no delayed ACKs here");
                        self.q.push(now + self.one_way, Ev::Ack(ack, self.rx.options()));
                    }
                    Ev::Ack(a, options) => self.tx.on_ack(a, &options, now, &mut self.out),
                    Ev::Rto => {
                        if self.tx.rtx.fires(now) {
                            self.tx.on_timeout(now, &mut self.out)
                        }
                    }
                    Ev::Pace => {
                        if self.tx.pace.fires(now) {
                            self.tx.on_pace(now, &mut self.out)
                        }
                    }
                }
                self.flush(now);
            }
        }

        fn transmissions_of(&self, seq: i64) -> Vec<Time> {
            self.sent.iter().filter(|s| s.1 == seq).map(|s| s.0).collect()
        }
    }

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

    #[test]
    fn slow_start_doubles_per_rtt_until_the_window_limit() {
        let mut p = Pipe::new(20, vec![]);
        // RTT 100 ms. SYN alone, then 2, 4, 8, 16 packets per round, then capped at 20.
        let per_round: Vec<usize> =
            (0..7).map(|r| p.sent.iter().filter(|s| s.0 / (100 * MS) == r).count()).collect();
        assert_eq!(per_round[0], 1);
        p.run_until(5_000 * MS);
        let per_round: Vec<usize> =
            (0..7).map(|r| p.sent.iter().filter(|s| s.0 / (100 * MS) == r).count()).collect();
        assert_eq!(per_round, vec![1, 2, 4, 8, 16, 20, 20]);
        assert_eq!(p.tx.maxseq - p.tx.highest_ack(), 20, "window limit reached exactly");
        assert_eq!(p.tx.stats.retransmits, 0);
        assert_eq!(p.rx.delivered(), p.tx.highest_ack() + 1);
    }

    #[test]
    fn one_loss_gives_one_fast_retransmit_and_half_the_window() {
        // RTT 100 ms. Rounds send 1 (SYN), 2, 4, 8, 16, 32 packets; packet 40
        // goes out at t = 500 ms in the round 31..62 and is lost. At 600 ms
        // ACKs 31..39 raise cwnd to 41 (slow start, +1 each) and then the
        // duplicates of ACK 39 arrive: two limited transmits, then fast
        // retransmit with flight 41: ssthresh = floor(41/2) = 20, cwnd = 20.5.
        let mut p = Pipe::new(1000, vec![(40, 0)]);
        p.run_until(600 * MS - 1);
        assert_eq!(p.tx.stats.fast_retransmits, 0);
        assert_eq!(p.tx.w.cwnd, 32.0);
        p.run_until(600 * MS);
        assert_eq!(p.tx.stats.fast_retransmits, 1);
        assert_eq!(p.tx.w, Window { cwnd: 20.5, ssthresh: 20.0 });
        assert_eq!(p.transmissions_of(40), vec![500 * MS, 600 * MS]);
        assert_eq!(p.transmissions_of(82), vec![600 * MS], "second limited transmit");
        // At 700 ms the retransmission's ACK covers everything: fast recovery
        // ends with one congestion-avoidance step from cwnd 20.5.
        p.run_until(700 * MS);
        assert_eq!(p.tx.w.cwnd, 20.5 + 1.0 / 20.5);
        p.run_until(2_000 * MS);
        assert_eq!((p.tx.stats.fast_retransmits, p.tx.stats.timeouts, p.tx.stats.retransmits), (1, 0, 1));
        assert_eq!(p.rx.delivered(), p.tx.highest_ack() + 1);
    }

    #[test]
    fn lost_retransmissions_back_off_the_timer() {
        // Lose packet 5 three times: fast retransmit, then two timeouts.
        let mut p = Pipe::new(1000, vec![(5, 0), (5, 1), (5, 2)]);
        p.run_until(30_000 * MS);
        let t = p.transmissions_of(5);
        assert_eq!(t.len(), 4, "{t:?}");
        assert_eq!(p.tx.stats.fast_retransmits, 1);
        assert_eq!(p.tx.stats.timeouts, 2);
        // Timeouts fire RTO after the fast retransmit and then twice that.
        let (rto1, rto2) = (t[2] - t[1], t[3] - t[2]);
        assert_eq!(rto2, 2 * rto1);
        // RTO from samples of a 100 ms RTT (10 ticks): srtt 10, rttvar decays
        // from 5 toward 0, so RTO is above 200 ms (min_rto) and below 300 ms.
        assert!((200 * MS..=300 * MS).contains(&rto1), "{rto1}");
        assert_eq!(p.tx.w.ssthresh, 2.0);
        assert_eq!(p.rx.delivered(), p.tx.highest_ack() + 1);
    }

    /// Paper W Sec IV's example: in slow start the window goes from 4 to 8
    /// within one RTT, so 8 packets should leave within that RTT. Here they
    /// are packets 7..14 (SYN, then rounds of 2 and 4; RTT 100 ms).
    /// "Original" pacing spaces them by RTT/cwnd with the window of the
    /// moment and lets the 8th slip past one RTT (the paper's intervals
    /// 1/5, 1/6, 1/6, 1/7, 1/7, 1/8, 1/8 RTT sum to 1.07 RTT; its "1.3 RTT"
    /// counts 1/5 twice); "modified" pacing (eq. 7) keeps all 8 within it.
    #[test]
    fn modified_pacing_keeps_slow_start_on_schedule_and_original_does_not() {
        let span = |mode| {
            let mut p = Pipe::paced(1000, vec![], Some(mode));
            p.run_until(2_000 * MS);
            let t7 = p.transmissions_of(7)[0];
            let t14 = p.transmissions_of(14)[0];
            (t14 - t7) as f64 / (100 * MS) as f64
        };
        let original = span(HostPacingMode::Original);
        let modified = span(HostPacingMode::Modified);
        let paper_intervals = 1.0 / 5.0 + 2.0 / 6.0 + 2.0 / 7.0 + 2.0 / 8.0;
        assert!((original - paper_intervals).abs() < 1e-6, "original pacing: p8 after {original} RTT");
        assert!(modified <= 1.0, "modified pacing: p8 after {modified} RTT");
    }

    #[test]
    fn paced_sends_are_spaced_by_rtt_over_cwnd_to_the_nanosecond() {
        // RTT samples are exactly 100 ms. The SYN's ACK at 100 ms sets cwnd 2:
        // packet 1 leaves at once, packet 2 100/2 ms later. ACK 1 (200 ms,
        // cwnd 3) releases 3 at once and 4 after 100/3 ms; packet 5 waits
        // 100/3 ms more, and ACK 2 (250 ms, cwnd 4) has by then made the gap
        // after 5 100/4 ms. Every recovery paces alike (none is active).
        for recovery in
            [Recovery::Reno, Recovery::NewReno, Recovery::Sack, Recovery::Fack { rampdown: false }]
        {
            let mut p = Pipe::build(1000, vec![], Some(HostPacingMode::Original), recovery);
            p.run_until(295 * MS);
            let first: Vec<Time> = (1..=6).map(|q| p.transmissions_of(q)[0]).collect();
            let third = (100 * MS as u128 / 3) as Time; // 33_333_333 ns
            assert_eq!(
                first,
                vec![
                    100 * MS,
                    150 * MS,
                    200 * MS,
                    200 * MS + third,
                    200 * MS + 2 * third,
                    200 * MS + 2 * third + 25 * MS
                ],
                "{recovery:?}"
            );
        }
    }

    /// Two losses in one window (packets 40 and 45, both sent at 500 ms).
    /// Reno: the ACK of the retransmitted 40 (44, at 700 ms) ends fast
    /// recovery, and with `bug_fix_` the duplicates that follow cannot
    /// trigger another fast retransmit in the same window: a timeout.
    /// NewReno: 44 is below `recover` (82, the highest sent at the fast
    /// retransmit), a partial ACK: the inflated window (41) deflates by
    /// 44 - 39 - 1 = 4 and 45 goes out at once, with 101 behind it (window
    /// 44 + 20 + 37). At 800 ms the ACK of 45 covers everything (recovery
    /// ends, one avoidance step from 20.5) and the ACK of 101 makes a second.
    #[test]
    fn newreno_recovers_two_losses_without_a_timeout_and_reno_cannot() {
        let lose = vec![(40, 0), (45, 0)];
        let mut reno = Pipe::new(1000, lose.clone());
        reno.run_until(5_000 * MS);
        assert_eq!((reno.tx.stats.fast_retransmits, reno.tx.stats.timeouts), (1, 1));

        let mut nr = Pipe::build(1000, lose, None, Recovery::NewReno);
        nr.run_until(800 * MS);
        assert_eq!(nr.transmissions_of(45), vec![500 * MS, 700 * MS]);
        let exit = 20.5 + 1.0 / 20.5;
        assert_eq!(nr.tx.w.cwnd, exit + 1.0 / exit);
        assert_eq!(nr.transmissions_of(101), vec![700 * MS]);
        nr.run_until(5_000 * MS);
        let st = nr.tx.stats;
        assert_eq!((st.fast_retransmits, st.partial_acks, st.timeouts, st.retransmits), (1, 1, 0, 2));
        assert_eq!(nr.rx.delivered(), nr.tx.highest_ack() + 1);
    }

    /// Three losses in one window, RTT 80 ms (so that the 200 ms minimum
    /// RTO exceeds two RTTs): 40, 45 and 50, all sent at 400 ms (the round
    /// 31..62; at 480 ms ACKs 31..39 raise cwnd to 41 and release 63..80,
    /// two limited transmits send 81 and 82, the third duplicate
    /// fast-retransmits 40 with cwnd 20.5, ssthresh 20, recover 82).
    ///
    /// Reno: the first new ACK ends recovery and the next losses wait for
    /// the timer. NewReno: one recovery, one retransmission per partial
    /// ACK, so 45 goes at 560 ms and 50 at 640 ms. SACK: `pipe` starts at
    /// 82 - 39 - 3 = 40 and the 17 further duplicates of the 480 ms window
    /// bring it to 23; at 560 ms the SACKs of 63, 64, 65 bring it to 20 and
    /// that of 66 below cwnd: the scoreboard's holes 45 and 50 go out at
    /// once (ACKs of 66 and 67), then new data. All three within one RTT;
    /// the ACK of 50 at 640 ms covers everything and ends recovery with
    /// the window where the loss left it.
    ///
    /// FACK: no duplicate count; the SACK of 43 puts `fack` 4 beyond the
    /// ACK point (39): recovery with ssthresh 20, cwnd restarted at 1 and
    /// `retran_data` 1; the 17 further ACKs at 480 ms slow-start cwnd to 18
    /// while `fack` reaches 62, short of sending (62 + 18 - 1 < 81). At
    /// 560 ms the SACK of 63 (cwnd 19) allows one packet: hole 45; that of
    /// 64 (cwnd 20) hole 50, then new data: again all three within one RTT.
    #[test]
    fn three_losses_in_one_window_reno_newreno_sack_fack() {
        let lose = vec![(40, 0), (45, 0), (50, 0)];
        let run = |recovery| {
            let mut p = Pipe::with_delay(1000, lose.clone(), None, recovery, 40 * MS);
            p.run_until(5_000 * MS);
            p
        };
        let reno = run(Recovery::Reno);
        assert!(reno.tx.stats.timeouts >= 1);

        let times = |p: &Pipe| [40, 45, 50].map(|q| p.transmissions_of(q)[1] / MS);
        let nr = run(Recovery::NewReno);
        assert_eq!(times(&nr), [480, 560, 640]);
        let st = nr.tx.stats;
        assert_eq!((st.fast_retransmits, st.partial_acks, st.timeouts, st.retransmits), (1, 2, 0, 3));

        let mut sack = Pipe::with_delay(1000, lose.clone(), None, Recovery::Sack, 40 * MS);
        sack.run_until(560 * MS);
        assert_eq!(sack.tx.w, Window { cwnd: 20.5, ssthresh: 20.0 });
        assert_eq!(times(&sack), [480, 560, 560]);
        let at_50 = sack.sent.iter().position(|s| s.1 == 50 && s.0 == 560 * MS).unwrap();
        assert_eq!(sack.sent[at_50 + 1].1, 83, "then new data");
        sack.run_until(640 * MS);
        assert!(!sack.tx.sack.fast_recovery);
        assert!(sack.tx.highest_ack() >= 82, "everything sent before the loss acknowledged");
        // No growth in recovery nor on the exit ACK: from 20.5, one
        // avoidance step per ACK of the new data sent at 560 ms after 50.
        let new_data = sack.sent.iter().filter(|s| s.0 == 560 * MS && s.1 > 82).count();
        let want = (0..new_data).fold(20.5, |w, _| w + 1.0 / w);
        assert_eq!(sack.tx.w.cwnd, want, "{new_data} ACKs after the exit");
        sack.run_until(5_000 * MS);
        let st = sack.tx.stats;
        assert_eq!((st.fast_retransmits, st.timeouts, st.retransmits), (1, 0, 3));

        let mut fack =
            Pipe::with_delay(1000, lose.clone(), None, Recovery::Fack { rampdown: false }, 40 * MS);
        fack.run_until(480 * MS);
        assert_eq!(fack.tx.w, Window { cwnd: 18.0, ssthresh: 20.0 });
        fack.run_until(5_000 * MS);
        assert_eq!(times(&fack), [480, 560, 560]);
        let at_50 = fack.sent.iter().position(|s| s.1 == 50 && s.0 == 560 * MS).unwrap();
        assert_eq!(fack.sent[at_50 + 1].1, 81, "then new data");
        let st = fack.tx.stats;
        assert_eq!((st.fast_retransmits, st.timeouts, st.retransmits), (1, 0, 3));

        // FACK with rampdown: the trim starts at (81 - 43 - 1) / 2 = 18.5 and
        // wears off by half of each advance of fack, so with fack = k after
        // the ACK of k (k - 43 - skipped ACKs into recovery, cwnd 1 + that)
        // the window reaches t_seqno = 81 near k = 58, still at 480 ms: the
        // holes go out one RTT earlier than without it.
        let mut ramp = Pipe::with_delay(1000, lose, None, Recovery::Fack { rampdown: true }, 40 * MS);
        ramp.run_until(5_000 * MS);
        assert_eq!(times(&ramp), [480, 480, 480]);
        let st = ramp.tx.stats;
        assert_eq!((st.fast_retransmits, st.timeouts, st.retransmits), (1, 0, 3));
    }
}
