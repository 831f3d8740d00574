//! A one-way TCP sender following ns-2 2.35's `TcpAgent` (tcp/tcp.cc) with
//! its defaults: its shared state ([`SendState`], `tcp::state`) and its loss
//! recovery ([`Recovery`]: Reno or NewReno, SACK, FACK), which decides what
//! an ACK, a timeout and an open window do. A bulk application always has
//! data; a finite one (a short-lived transfer, `with_data`) has packets up
//! to `end`, and the sender is `done` once all of them are acknowledged
//! (ns-2 `advance`, `finish`).

use super::cc::CongestionControl;
use super::ecn::EcnMode;
use super::host_pacing::HostPacer;
use super::recovery::{LossRecovery, Recovery};
use super::rtt::RttEstimator;
use super::state::SendState;
pub use super::state::SenderStats;
use crate::net::TcpOptions;
use crate::sim::Time;

/// A TCP sender: its shared state and its loss recovery.
pub struct TcpSender {
    pub state: SendState,
    recovery: Recovery,
}

impl TcpSender {
    pub fn new(
        (cc, recovery): (Box<dyn CongestionControl>, Recovery),
        window: u64,
        initial_window: u64,
        syn: bool,
        rtt: RttEstimator,
    ) -> Self {
        TcpSender { state: SendState::new(cc, window, initial_window, syn, rtt), recovery }
    }

    /// Pace new packets with `pacer` (see `tcp::host_pacing`).
    pub fn with_pacing(mut self, pacer: HostPacer) -> Self {
        self.state.pacer = Some(Box::new(pacer));
        self
    }

    /// Cut the window from the packets in flight (`tcp.window_cut`, ns-2
    /// built with Wei's pacing patch) rather than from the window in use.
    pub fn with_cuts_from_flight(mut self, from_flight: bool) -> Self {
        self.state.cut_from_flight = from_flight;
        self
    }

    /// Use ECN as the congestion control does with `tcp.ecn` `asked`
    /// (`CongestionControl::ecn_mode`: classic if asked, DCTCP's always; `tcp::ecn`).
    pub fn with_ecn(mut self, asked: bool) -> Self {
        let mode = self.state.cc.ecn_mode(asked);
        self.state.set_ecn(mode);
        self
    }

    /// How this sender uses ECN, and its sink is to echo.
    pub fn ecn_mode(&self) -> EcnMode {
        self.state.ecn.as_deref().map_or(EcnMode::Off, |e| e.mode)
    }

    /// The ECN bits of the packets emitted since last asked, one per
    /// sequence number appended to the output, in order; `None` for a
    /// sender that does not use ECN. The caller empties it.
    pub fn ecn_bits(&mut self) -> Option<&mut Vec<u8>> {
        self.state.ecn.as_deref_mut().map(|e| &mut e.bits)
    }

    /// Remember when each sequence number was first sent (see `first_sent`).
    pub fn with_first_sends(mut self) -> Self {
        self.state.first_sends = Some(Box::default());
        self
    }

    /// When `seq`, sent by now and not yet acknowledged, was first sent (if remembered).
    pub fn first_sent(&self, seq: i64) -> Option<Time> {
        self.state.first_sends.as_ref().and_then(|f| f.get(seq))
    }

    /// Send only sequence numbers below `end` (a finite transfer).
    pub fn with_data(mut self, end: i64) -> Self {
        self.state.end = end;
        self
    }

    /// A finite transfer's application gives `packets` more (ns-2
    /// `advanceby` on an agent whose data is all acknowledged).
    pub fn send_more(&mut self, packets: i64) {
        self.state.check_app_limited();
        self.state.end += packets;
    }

    /// A receive window of `window` packets set after the sender was made
    /// (ns-2 `window_` set on an agent after its `reset`, as Tmix sets a
    /// connection's): the slow-start threshold keeps its value.
    pub fn with_window(mut self, window: u64) -> Self {
        self.state.wnd = window as f64;
        self
    }

    /// The application has `packets` more packets to send (ns-2
    /// `sendmsg`/`advanceby`), after the SYN if it is modelled and not yet
    /// counted: send what the window allows now.
    pub fn advance(&mut self, packets: i64, now: Time, out: &mut Vec<i64>) {
        self.state.check_app_limited();
        self.state.end = self.state.end.max(i64::from(self.state.syn)) + packets;
        self.recovery.send_much(&mut self.state, now, out);
    }

    /// Whether every packet of a finite transfer is acknowledged.
    pub fn done(&self) -> bool {
        self.state.highest_ack >= self.state.end - 1
    }

    /// The connection closes: no more timers.
    pub fn close(&mut self) {
        self.state.rtx.cancel();
        self.state.pace.cancel();
    }

    /// Whether this sender needs SACK blocks from its sink.
    pub fn uses_sack(&self) -> bool {
        self.recovery.uses_sack()
    }

    /// Whether a host pacer paces it (a delayed send is not pacing).
    pub fn is_paced(&self) -> bool {
        matches!(self.state.pacer.as_deref(), Some(HostPacer::PaperW(_) | HostPacer::Wei(_)))
    }

    /// Highest cumulative ACK received.
    pub fn highest_ack(&self) -> i64 {
        self.state.highest_ack
    }

    /// The RTT estimator: smoothed RTT and retransmission timeout.
    pub fn rtt(&self) -> &RttEstimator {
        &self.state.rtt
    }

    /// The application starts: send the initial window. Sequence numbers to
    /// transmit are appended to `out`.
    pub fn start(&mut self, now: Time, out: &mut Vec<i64>) {
        self.recovery.send_much(&mut self.state, now, out);
    }

    /// The pacing timer expired: send what the window allows.
    pub fn on_pace(&mut self, now: Time, out: &mut Vec<i64>) {
        self.state.pace_fired();
        self.recovery.send_much(&mut self.state, now, out);
    }

    /// An ACK for cumulative sequence `ackno` arrived, with ECE or not
    /// (heard only by a sender that uses ECN) and TCP `options` (read only
    /// by SACK and FACK).
    #[inline]
    pub fn on_ack(&mut self, ackno: i64, ece: bool, options: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        self.state.ack_arrived();
        self.state.rate_sample(ackno, options.sack.as_slice(), now);
        if self.state.ecn.is_some() {
            self.on_ecn_ack(ackno, ece, options, now, out);
        } else {
            self.recovery.on_ack(&mut self.state, ackno, options, now, out);
        }
    }

    /// [`TcpSender::on_ack`] for a sender that uses ECN: the echo is heard
    /// first (`tcp::ecn`). Out of line, so that the others' path stays as it was.
    #[inline(never)]
    fn on_ecn_ack(&mut self, ackno: i64, ece: bool, options: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        self.state.ecn_echo(ackno, ece, now);
        self.recovery.on_ack(&mut self.state, ackno, options, now, out);
        self.state.ecn_acted();
    }

    /// The retransmission timer expired.
    pub fn on_timeout(&mut self, now: Time, out: &mut Vec<i64>) {
        self.state.rate_timeout();
        self.recovery.on_timeout(&mut self.state, now, out);
    }
}

#[cfg(test)]
mod tests {
    //! Hand-worked cases on a scripted network: a pipe of fixed one-way delay
    //! and no serialisation, losing exactly the transmissions a test names.

    use super::*;
    use crate::sim::EventQueue;
    use crate::tcp::cc::Window;
    use crate::tcp::host_pacing::HostPacingMode;
    use crate::tcp::host_pacing::{HostPacer, PaperW, Wei, WeiSpec};
    use crate::tcp::{reno::Reno, Recovery, TcpSink};

    const MS: Time = 1_000_000;

    /// A Reno-window sender with `recovery`, initial window 2 after the SYN,
    /// ns-2's timer defaults, pacing with `pacer` if any.
    fn sender(window: u64, recovery: Recovery, pacer: Option<HostPacer>) -> TcpSender {
        let rtt = RttEstimator::new(10 * MS, 0, 200 * MS, 60_000 * MS, 3_000 * MS);
        let tx = TcpSender::new((Box::new(Reno), recovery), window, 2, true, rtt);
        match pacer {
            Some(p) => tx.with_pacing(p),
            None => tx,
        }
    }

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
            Self::build(window, lose, None, Recovery::reno())
        }

        fn paced(window: u64, lose: Vec<(i64, u32)>, pacing: Option<HostPacingMode>) -> Self {
            Self::build(window, lose, pacing, Recovery::reno())
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
            let pacer = pacing.map(|mode| HostPacer::PaperW(PaperW::new(mode)));
            Self::from_sender(sender(window, recovery, pacer), lose, one_way)
        }

        fn from_sender(tx: TcpSender, lose: Vec<(i64, u32)>, one_way: Time) -> Self {
            let rx = TcpSink::new(None, tx.uses_sack());
            let mut p = Pipe { q: EventQueue::default(), tx, rx, one_way, lose, sent: vec![], out: vec![] };
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
            if let Some(at) = self.tx.state.rtx.needs_event() {
                self.q.push(at, Ev::Rto);
            }
            if let Some(at) = self.tx.state.pace.needs_event() {
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
                    Ev::Ack(a, options) => self.tx.on_ack(a, false, &options, now, &mut self.out),
                    Ev::Rto => {
                        if self.tx.state.rtx.fires(now) {
                            self.tx.on_timeout(now, &mut self.out)
                        }
                    }
                    Ev::Pace => {
                        if self.tx.state.pace.fires(now) {
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
        assert_eq!(p.tx.state.maxseq - p.tx.highest_ack(), 20, "window limit reached exactly");
        assert_eq!(p.tx.state.stats.retransmits, 0);
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
        assert_eq!(p.tx.state.stats.fast_retransmits, 0);
        assert_eq!(p.tx.state.w.cwnd, 32.0);
        p.run_until(600 * MS);
        assert_eq!(p.tx.state.stats.fast_retransmits, 1);
        assert_eq!(p.tx.state.w, Window { cwnd: 20.5, ssthresh: 20.0 });
        assert_eq!(p.transmissions_of(40), vec![500 * MS, 600 * MS]);
        assert_eq!(p.transmissions_of(82), vec![600 * MS], "second limited transmit");
        // At 700 ms the retransmission's ACK covers everything: fast recovery
        // ends with one congestion-avoidance step from cwnd 20.5.
        p.run_until(700 * MS);
        assert_eq!(p.tx.state.w.cwnd, 20.5 + 1.0 / 20.5);
        p.run_until(2_000 * MS);
        assert_eq!(
            (p.tx.state.stats.fast_retransmits, p.tx.state.stats.timeouts, p.tx.state.stats.retransmits),
            (1, 0, 1)
        );
        assert_eq!(p.rx.delivered(), p.tx.highest_ack() + 1);
    }

    #[test]
    fn lost_retransmissions_back_off_the_timer() {
        // Lose packet 5 three times: fast retransmit, then two timeouts.
        let mut p = Pipe::new(1000, vec![(5, 0), (5, 1), (5, 2)]);
        p.run_until(30_000 * MS);
        let t = p.transmissions_of(5);
        assert_eq!(t.len(), 4, "{t:?}");
        assert_eq!(p.tx.state.stats.fast_retransmits, 1);
        assert_eq!(p.tx.state.stats.timeouts, 2);
        // Timeouts fire RTO after the fast retransmit and then twice that.
        let (rto1, rto2) = (t[2] - t[1], t[3] - t[2]);
        assert_eq!(rto2, 2 * rto1);
        // RTO from samples of a 100 ms RTT (10 ticks): srtt 10, rttvar decays
        // from 5 toward 0, so RTO is above 200 ms (min_rto) and below 300 ms.
        assert!((200 * MS..=300 * MS).contains(&rto1), "{rto1}");
        assert_eq!(p.tx.state.w.ssthresh, 2.0);
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
        for recovery in [Recovery::reno(), Recovery::newreno(), Recovery::sack(), Recovery::fack(false)] {
            let mut p = Pipe::build(1000, vec![], Some(HostPacingMode::Original), recovery.clone());
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

    /// ns-2's delayed send (`tcp.overhead`) at 1 ms, RTT 100 ms: every
    /// burst `send_much` would send waits a draw in [0, 1 ms) and then goes
    /// whole, so slow start's rounds (1, 2, 4, 8, 16, 32 packets: the SYN,
    /// then the ACKs of a round arrive at one instant) each leave at one
    /// instant, 100 ms plus a draw after the round before, the SYN a draw
    /// after 0. A fast retransmit is sent outside `send_much`: packet 40,
    /// lost in the round of 31-62, goes again at the instant the third
    /// duplicate ACK arrives, 100 ms after that round, undelayed.
    #[test]
    fn a_delayed_send_holds_each_burst_a_draw_and_not_a_fast_retransmit() {
        use crate::sim::rng::stream;
        use crate::tcp::host_pacing::DelayedSend;
        let delayed = HostPacer::Delayed(DelayedSend::new(MS, stream(1, "tcp.overhead", 0)));
        let tx = sender(1000, Recovery::reno(), Some(delayed));
        assert!(!tx.is_paced(), "a delayed send is not pacing");
        let mut p = Pipe::from_sender(tx, vec![(40, 0)], 50 * MS);
        p.run_until(700 * MS);
        let mut bursts: Vec<(Time, usize)> = vec![];
        for &(t, _) in p.sent.iter().filter(|s| s.1 < 63) {
            match bursts.last_mut() {
                Some((at, n)) if *at == t => *n += 1,
                _ => bursts.push((t, 1)),
            }
        }
        assert_eq!(bursts.iter().map(|b| b.1).collect::<Vec<_>>()[..6], [1, 2, 4, 8, 16, 32]);
        let mut after = 0;
        let mut waits = vec![];
        for &(at, _) in &bursts[..6] {
            waits.push(at - after);
            after = at + 100 * MS;
        }
        assert!(waits.iter().all(|&w| w < MS), "each burst a draw in [0, 1 ms) late: {waits:?}");
        assert!(waits.iter().any(|&w| w > 0), "the draws are not all 0: {waits:?}");
        let round = bursts[5].0;
        assert_eq!(p.transmissions_of(40), vec![round, round + 100 * MS], "the retransmission undelayed");
        assert_eq!(p.tx.state.stats.fast_retransmits, 1);
    }

    fn wei(modified: bool) -> HostPacer {
        HostPacer::Wei(Wei::new(modified, &WeiSpec::default(), None))
    }

    /// Wei's pacer, RTT 100 ms (every sample exactly that, so the pacing
    /// RTT stays 100 ms). The SYN's ACK (100 ms, cwnd 2) sends packet 1 and
    /// sets the timer 100/2 ms on: packet 2 at 150 ms, and the window is
    /// full, so no timer. ACK 1 (200 ms, cwnd 3): 3 at once, timer 100/3 ms
    /// on (4 at 233.3 ms, window full again). ACK 2 (250 ms, cwnd 4) finds no
    /// timer pending: 5 at once, though only 16.7 ms after 4 (the paper-w
    /// reading holds it to 266.7 ms); 6 at 275. ACK 3 (300 ms, cwnd 5): 7,
    /// 8 at 320 ms. ACK 4 (333.3 ms, cwnd 6): 9, timer at 350 ms. ACK 5 comes
    /// at 350 ms before the timer's event: cwnd 7, 16.7 ms >= 100/7 since 9
    /// left, so 10 goes, 11 at 364.3 ms and the timer at 378.6. ACK 6 (375
    /// ms, cwnd 8): only 10.7 ms since 11 left, less than 100/8: nothing
    /// goes and the timer is pulled in to 364.3 + 12.5 = 376.8 ms, when 12
    /// leaves.
    #[test]
    fn wei_pacing_re_evaluates_the_gap_on_every_ack_and_pulls_the_timer_in() {
        let mut p = Pipe::from_sender(sender(1000, Recovery::reno(), Some(wei(false))), vec![], 50 * MS);
        p.run_until(376 * MS);
        assert_eq!(p.tx.state.pace.deadline(), Some(376_785_714), "pulled in from 378_571_428");
        p.run_until(377 * MS);
        let first: Vec<Time> = (1..=12).map(|q| p.transmissions_of(q)[0]).collect();
        // 100, 150, 200, 200 + 100/3, 250, 275, 300, 320, 300 + 100/3, + 100/6,
        // 350 + 100/7 and + 12.5 ms (each gap rounded to the nanosecond).
        let want = [100, 150, 200, 233, 250, 275, 300, 320, 333, 350, 364, 376].map(|ms| ms * MS);
        let fractions = [0, 0, 0, 333_333, 0, 0, 0, 0, 333_333, 0, 285_714, 785_714];
        assert_eq!(first, want.iter().zip(fractions).map(|(t, f)| t + f).collect::<Vec<_>>());
    }

    /// FACK re-arms Wei's timer after every `send_much` (as the patch's
    /// FACK does), and a new sender counts as in recovery (`recover` 0 at
    /// or above its ACK point -1) until the SYN's ACK. Before that ACK, its
    /// first RTT sample, nothing is paced and no timer is set: the SYN
    /// alone leaves at 0, and the next packets at the ACK, 100 ms on. (A
    /// gap from the unsampled least RTT, 0, fired the timer every
    /// nanosecond until then.)
    #[test]
    fn fack_with_wei_sets_no_pacing_timer_before_the_first_rtt_sample() {
        let mut p = Pipe::from_sender(sender(20, Recovery::fack(false), Some(wei(false))), vec![], 50 * MS);
        assert_eq!(p.sent, vec![(0, 0)], "the SYN");
        assert_eq!(p.tx.state.pace.deadline(), None, "no gap before the first sample");
        p.run_until(100 * MS - 1);
        assert_eq!(p.sent.len(), 1);
        p.run_until(160 * MS);
        assert_eq!(p.transmissions_of(1), vec![100 * MS], "the SYN's ACK: the first sample, paced from then");
        assert_eq!(p.transmissions_of(2), vec![150 * MS], "100 ms / cwnd 2");
    }

    /// Under Wei's pure rate control the advertised window alone limits
    /// sending, FACK's too (the patch's `FackTcpAgent::window` is `wnd_`):
    /// modified pacing in slow start sends 2 cwnd packets an RTT, 100 / 4
    /// ms apart from the SYN's ACK (cwnd 2), twice what cwnd would let out,
    /// so FACK sends what Reno sends, packet for packet, until the 20 fill
    /// the window (after 400 ms: FACK then waits for its timer, Reno sends
    /// on the next ACK). (FACK's window was min(cwnd, wnd): packets 1 and
    /// 2, then nothing until ACK 1.)
    #[test]
    fn fack_under_pure_rate_control_is_held_by_the_advertised_window_alone() {
        let run = |recovery: Recovery| {
            let spec = WeiSpec { pure_rate_control: true, ..Default::default() };
            let tx = sender(20, recovery, Some(HostPacer::Wei(Wei::new(true, &spec, None))));
            let mut p = Pipe::from_sender(tx, vec![], 50 * MS);
            p.run_until(400 * MS);
            p.sent
        };
        let fack = run(Recovery::fack(false));
        let first: Vec<Time> = fack.iter().filter(|s| (1..=4).contains(&s.1)).map(|s| s.0).collect();
        assert_eq!(first, vec![100 * MS, 125 * MS, 150 * MS, 175 * MS]);
        assert_eq!(fack, run(Recovery::reno()));
    }

    /// Modified pacing (`pace_packet_ 2`) in slow start paces at 2 cwnd per
    /// RTT: after the SYN's ACK (cwnd 2) packet 2 follows packet 1 by
    /// 100 / 4 ms, and ACK 1 (cwnd 3) spaces 3 and 4 by 100 / 6 ms.
    #[test]
    fn wei_modified_pacing_uses_twice_the_window_in_slow_start() {
        let mut p = Pipe::from_sender(sender(1000, Recovery::reno(), Some(wei(true))), vec![], 50 * MS);
        p.run_until(230 * MS);
        let first: Vec<Time> = (1..=4).map(|q| p.transmissions_of(q)[0]).collect();
        assert_eq!(first, vec![100 * MS, 125 * MS, 200 * MS, 200 * MS + 16_666_667]);
    }

    /// With `tcp.window_cut = "flight"` (Wei's patched ns-2) the fast
    /// retransmit of `one_loss_gives_one_fast_retransmit_and_half_the_window`
    /// halves the packets in flight: t_seqno 83 (two limited transmits after
    /// 80) less highest_ack 39 = 44, so ssthresh = cwnd = 22, not 20 from
    /// cwnd 41. SACK halves its pipe, 82 - 39 - 3 = 40: 20 and 20, not 20.5.
    #[test]
    fn cuts_from_flight_halve_the_packets_in_flight() {
        let run = |recovery: Recovery, flight: bool| {
            let tx = sender(1000, recovery, None).with_cuts_from_flight(flight);
            let mut p = Pipe::from_sender(tx, vec![(40, 0)], 50 * MS);
            p.run_until(600 * MS);
            assert_eq!(p.tx.state.stats.fast_retransmits, 1);
            p.tx.state.w
        };
        assert_eq!(run(Recovery::reno(), true), Window { cwnd: 22.0, ssthresh: 22.0 });
        assert_eq!(run(Recovery::reno(), false), Window { cwnd: 20.5, ssthresh: 20.0 });
        assert_eq!(run(Recovery::newreno(), true), Window { cwnd: 22.0, ssthresh: 22.0 });
        assert_eq!(run(Recovery::sack(), true), Window { cwnd: 20.0, ssthresh: 20.0 });
        assert_eq!(run(Recovery::sack(), false), Window { cwnd: 20.5, ssthresh: 20.0 });
    }

    /// A timeout with cuts from flight halves t_seqno - highest_ack as it
    /// stands when the timer fires. Advertised window 9: from the ACKs at
    /// 400 ms on it alone limits sending, and 15..=23 leave then, a whole
    /// window, all lost: no ACK comes. The timer (200 ms, the samples of
    /// 100 ms having brought srtt + 4 rttvar below it) fires at 600 ms with
    /// t_seqno 24 and highest_ack 14: ssthresh floor(10 / 2) = 5, where the
    /// window in use, min(cwnd 16, 9), gives 4.
    #[test]
    fn a_timeout_cuts_from_the_packets_in_flight() {
        let run = |flight: bool| {
            let tx = sender(9, Recovery::reno(), None).with_cuts_from_flight(flight);
            let lose = (15..=23).map(|q| (q, 0)).collect();
            let mut p = Pipe::from_sender(tx, lose, 50 * MS);
            p.run_until(599 * MS);
            assert_eq!(p.tx.state.stats.timeouts, 0);
            p.run_until(600 * MS);
            assert_eq!((p.tx.state.stats.timeouts, p.tx.state.t_seqno), (1, 16), "go-back-N from 15");
            p.tx.state.w
        };
        assert_eq!(run(true), Window { cwnd: 1.0, ssthresh: 5.0 });
        assert_eq!(run(false), Window { cwnd: 1.0, ssthresh: 4.0 });
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
        assert_eq!((reno.tx.state.stats.fast_retransmits, reno.tx.state.stats.timeouts), (1, 1));

        let mut nr = Pipe::build(1000, lose, None, Recovery::newreno());
        nr.run_until(800 * MS);
        assert_eq!(nr.transmissions_of(45), vec![500 * MS, 700 * MS]);
        let exit = 20.5 + 1.0 / 20.5;
        assert_eq!(nr.tx.state.w.cwnd, exit + 1.0 / exit);
        assert_eq!(nr.transmissions_of(101), vec![700 * MS]);
        nr.run_until(5_000 * MS);
        let st = nr.tx.state.stats;
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
        let reno = run(Recovery::reno());
        assert!(reno.tx.state.stats.timeouts >= 1);

        let times = |p: &Pipe| [40, 45, 50].map(|q| p.transmissions_of(q)[1] / MS);
        let nr = run(Recovery::newreno());
        assert_eq!(times(&nr), [480, 560, 640]);
        let st = nr.tx.state.stats;
        assert_eq!((st.fast_retransmits, st.partial_acks, st.timeouts, st.retransmits), (1, 2, 0, 3));

        let mut sack = Pipe::with_delay(1000, lose.clone(), None, Recovery::sack(), 40 * MS);
        sack.run_until(560 * MS);
        assert_eq!(sack.tx.state.w, Window { cwnd: 20.5, ssthresh: 20.0 });
        assert_eq!(times(&sack), [480, 560, 560]);
        let at_50 = sack.sent.iter().position(|s| s.1 == 50 && s.0 == 560 * MS).unwrap();
        assert_eq!(sack.sent[at_50 + 1].1, 83, "then new data");
        sack.run_until(640 * MS);
        assert!(matches!(&sack.tx.recovery, Recovery::Sack(r) if !r.fast_recovery));
        assert!(sack.tx.highest_ack() >= 82, "everything sent before the loss acknowledged");
        // No growth in recovery nor on the exit ACK: from 20.5, one
        // avoidance step per ACK of the new data sent at 560 ms after 50.
        let new_data = sack.sent.iter().filter(|s| s.0 == 560 * MS && s.1 > 82).count();
        let want = (0..new_data).fold(20.5, |w, _| w + 1.0 / w);
        assert_eq!(sack.tx.state.w.cwnd, want, "{new_data} ACKs after the exit");
        sack.run_until(5_000 * MS);
        let st = sack.tx.state.stats;
        assert_eq!((st.fast_retransmits, st.timeouts, st.retransmits), (1, 0, 3));

        let mut fack = Pipe::with_delay(1000, lose.clone(), None, Recovery::fack(false), 40 * MS);
        fack.run_until(480 * MS);
        assert_eq!(fack.tx.state.w, Window { cwnd: 18.0, ssthresh: 20.0 });
        fack.run_until(5_000 * MS);
        assert_eq!(times(&fack), [480, 560, 560]);
        let at_50 = fack.sent.iter().position(|s| s.1 == 50 && s.0 == 560 * MS).unwrap();
        assert_eq!(fack.sent[at_50 + 1].1, 81, "then new data");
        let st = fack.tx.state.stats;
        assert_eq!((st.fast_retransmits, st.timeouts, st.retransmits), (1, 0, 3));

        // FACK with rampdown: the trim starts at (81 - 43 - 1) / 2 = 18.5 and
        // wears off by half of each advance of fack, so with fack = k after
        // the ACK of k (k - 43 - skipped ACKs into recovery, cwnd 1 + that)
        // the window reaches t_seqno = 81 near k = 58, still at 480 ms: the
        // holes go out one RTT earlier than without it.
        let mut ramp = Pipe::with_delay(1000, lose, None, Recovery::fack(true), 40 * MS);
        ramp.run_until(5_000 * MS);
        assert_eq!(times(&ramp), [480, 480, 480]);
        let st = ramp.tx.state.stats;
        assert_eq!((st.fast_retransmits, st.timeouts, st.retransmits), (1, 0, 3));
    }
    /// A retransmission lost (packet 40, sent three times, the second lost
    /// too; RTT 80 ms, Reno's window): Sack1 sends each hole once a
    /// recovery, so the second loss waits for the timer; RFC 6675 as Linux
    /// runs it finds it lost by RACK once a packet sent after it is SACKed,
    /// within the next round trip, and sends it a third time with no timeout.
    #[test]
    fn a_lost_retransmission_waits_for_the_timer_in_sack1_not_in_rfc6675() {
        let lose = vec![(40, 0), (40, 1)];
        let run = |recovery| {
            let mut p = Pipe::with_delay(1000, lose.clone(), None, recovery, 40 * MS);
            p.run_until(5_000 * MS);
            p
        };
        let sack = run(Recovery::sack());
        assert_eq!((sack.tx.state.stats.timeouts, sack.transmissions_of(40).len()), (1, 3));
        let rfc = run(Recovery::rfc6675());
        let t = rfc.transmissions_of(40);
        assert_eq!((rfc.tx.state.stats.timeouts, t.len()), (0, 3), "{t:?}");
        assert!(t[2] - t[1] < 2 * 80 * MS, "{t:?}");
        assert_eq!(rfc.tx.state.stats.retransmits, 2, "nothing else sent twice");
    }

    /// ns-2's own run of this episode (bench/ns2/wei/reno_episode.tcl: data
    /// packets 40 and 45 lost, RTT 100 ms), cwnd, ssthresh and t_seqno every
    /// 50 ms from 0.1 ms, on stock ns-2 2.35 and on the build with Wei's patch
    /// (results/reno_episode_stock.txt, _wei.txt): the fast retransmit at 0.6 s
    /// halves 41 packets of window (stock) or 44 in flight (patched), and the
    /// timeout at 0.9 s halves 20.5 or the 59 in flight. Every sample agrees;
    /// here a few of each.
    #[test]
    fn reno_cuts_follow_ns2_through_a_fast_retransmit_and_a_timeout() {
        let ns2 = [
            (
                false,
                [
                    (600, 20.5, 20.0, 83, None),
                    (900, 1.0, 10.0, 46, None),
                    (1400, 11.4952, 10.0, 136, None),
                    (2950, 25.8254, 10.0, 417, None),
                ],
            ),
            (
                true,
                [
                    (600, 22.0, 22.0, 83, None),
                    (900, 1.0, 29.0, 46, None),
                    (1400, 29.1033, 29.0, 162, None),
                    (2950, 43.7197, 29.0, 708, None),
                ],
            ),
        ];
        for (flight, samples) in ns2 {
            follows_ns2(1000, Recovery::reno(), &[(40, 0), (45, 0)], flight, &samples);
        }
    }

    /// ns-2's sample of a sender's state at `ms` + 0.1 ms (its traces print
    /// every 50 ms from 0.1 ms): cwnd (packets, 6 digits), ssthresh, t_seqno
    /// and, where the trace has it, the highest ACK.
    type Ns2Sample = (Time, f64, f64, i64, Option<i64>);

    /// A sender of `window` packets with `recovery`, cutting from packets in
    /// flight (the patched build) or not (stock ns-2), on a 100 ms pipe that
    /// loses `lose`, is in ns-2's state at each of `samples`.
    fn follows_ns2(
        window: u64,
        recovery: Recovery,
        lose: &[(i64, u32)],
        flight: bool,
        samples: &[Ns2Sample],
    ) {
        let tx = sender(window, recovery, None).with_cuts_from_flight(flight);
        let mut p = Pipe::from_sender(tx, lose.to_vec(), 50 * MS);
        for &(ms, cwnd, ssthresh, t_seqno, ack) in samples {
            p.run_until(ms * MS + 100_000);
            let s = &p.tx.state;
            assert!((s.w.cwnd - cwnd).abs() < 1e-4, "flight {flight} at {ms} ms: cwnd {}", s.w.cwnd);
            let got = (s.w.ssthresh, s.t_seqno, ack.map(|_| p.tx.highest_ack()));
            assert_eq!(got, (ssthresh, t_seqno, ack), "flight {flight} at {ms} ms");
        }
    }

    /// ns-2's own run of a Sack1 flow whose advertised window, 4, binds
    /// (bench/ns2/wei/sack_episode.tcl: data packet 20 lost, RTT 100 ms),
    /// cwnd, ssthresh, t_seqno and the ACK every 50 ms from 0.1 ms, on stock
    /// ns-2 2.35 and on the build with Wei's patch (results/
    /// sack_episode_stock.txt, _wei.txt). At the third duplicate ACK 4
    /// packets are out and Sack1's pipe is 1: the patched build halves it
    /// to half a packet, which sends nothing from the full ACK at 0.9 s until
    /// the timeout at 1.1 s (ns-2's `slowdown` has no floor); stock ns-2
    /// halves the window in use, 4, to 2.
    #[test]
    fn a_fast_retransmit_halves_a_pipe_of_one_to_half_a_packet() {
        let ns2 = [
            (
                false,
                [
                    (750, 7.11243, 4.0, 24, Some(19)),
                    (800, 2.0, 2.0, 24, Some(19)),
                    (900, 2.0, 2.0, 26, Some(23)),
                    (1000, 2.9, 2.0, 28, Some(25)),
                    (1100, 3.55301, 2.0, 31, Some(27)),
                    (1250, 4.33944, 2.0, 35, Some(30)),
                ],
            ),
            (
                true,
                [
                    (750, 7.11243, 4.0, 24, Some(19)),
                    (800, 0.5, 2.0, 24, Some(19)),
                    (900, 0.5, 2.0, 24, Some(23)),
                    (1050, 0.5, 2.0, 24, Some(23)),
                    (1100, 1.0, 2.0, 25, Some(23)),
                    (1250, 2.0, 2.0, 27, Some(24)),
                ],
            ),
        ];
        for (flight, samples) in ns2 {
            follows_ns2(4, Recovery::sack(), &[(20, 0)], flight, &samples);
        }
    }

    /// Classic ECN (RFC 3168) by hand. The SYN's ACK and ACKs 1..=8 open
    /// the window in slow start to 10 with 18 sent; ACK 9 echoes CE: the
    /// window in use, 10, is halved (ssthresh and cwnd 5) and this ACK
    /// does not open it. Echoes on ACKs up to 18 (the highest sent at the
    /// cut) are of the same window: no cut. The first new packet after the
    /// cut carries CWR, and its ACK's echo cuts again. The SYN and a
    /// retransmission (after a timeout) are not ECN-capable.
    #[test]
    fn classic_ecn_cuts_once_a_window_and_sends_cwr() {
        use crate::net::packet::ecn::{CWR, ECT};
        let mut tx = sender(1000, Recovery::reno(), None).with_ecn(true);
        let mut sent: Vec<(i64, u8)> = vec![];
        let mut out = vec![];
        let mut take = |tx: &mut TcpSender, out: &mut Vec<i64>| {
            let bits = std::mem::take(tx.ecn_bits().expect("an ECN sender"));
            assert_eq!(bits.len(), out.len());
            sent.extend(out.drain(..).zip(bits));
            sent.clone()
        };
        tx.start(0, &mut out);
        assert_eq!(take(&mut tx, &mut out), vec![(0, 0)], "the SYN");
        for k in 0..=8 {
            tx.on_ack(k, false, &TcpOptions::default(), (100 + k as Time) * MS, &mut out);
        }
        assert_eq!((tx.state.w.cwnd, tx.state.maxseq), (10.0, 18));
        tx.on_ack(9, true, &TcpOptions::default(), 110 * MS, &mut out);
        assert_eq!(tx.state.w, Window { cwnd: 5.0, ssthresh: 5.0 });
        assert_eq!(tx.state.stats.ecn_cuts, 1);
        for k in 10..=18 {
            tx.on_ack(k, true, &TcpOptions::default(), (100 + k as Time) * MS, &mut out);
        }
        assert_eq!(tx.state.stats.ecn_cuts, 1, "echoes of the window already cut");
        let sent = take(&mut tx, &mut out);
        assert!(sent.iter().filter(|s| (1..=18).contains(&s.0)).all(|s| s.1 == ECT));
        let after: Vec<(i64, u8)> = sent.iter().filter(|s| s.0 > 18).copied().collect();
        assert_eq!(after[0], (19, ECT | CWR), "{sent:?}");
        assert!(after[1..].iter().all(|s| s.1 == ECT));
        tx.on_ack(19, true, &TcpOptions::default(), 120 * MS, &mut out);
        assert_eq!(tx.state.stats.ecn_cuts, 2, "an echo of the next window");
        take(&mut tx, &mut out);
        tx.on_timeout(2_000 * MS, &mut out);
        assert_eq!(take(&mut tx, &mut out).last(), Some(&(20, 0)), "a retransmission is not ECN-capable");
    }

    /// DCTCP holds the window it cut, as Linux's CWR state and ns-3's
    /// CA_CWR do. As in the classic case the SYN's ACK and ACKs 1..=8 open
    /// the window to 10 with 18 sent, and ACK 9's echo cuts it (by alpha /
    /// 2). ACKs 10..=18, without echoes, acknowledge the window cut (18 the
    /// highest sent at the cut): the window stays as cut. ACK 19 passes it:
    /// Reno's growth resumes, 1 / cwnd in congestion avoidance. A timeout
    /// inside the cut's window ends the hold: slow start from 1 on the next
    /// ACK.
    #[test]
    fn dctcp_does_not_open_the_window_it_cut_until_an_ack_passes_it() {
        let dctcp = crate::tcp::dctcp::Dctcp::new(Default::default());
        let rtt = RttEstimator::new(10 * MS, 0, 200 * MS, 60_000 * MS, 3_000 * MS);
        let mut tx =
            TcpSender::new((Box::new(dctcp), Recovery::newreno()), 1000, 2, true, rtt).with_ecn(false);
        assert_eq!(tx.ecn_mode(), EcnMode::Dctcp, "DCTCP's ECN whatever tcp.ecn says");
        let mut out = vec![];
        tx.start(0, &mut out);
        let ack = |tx: &mut TcpSender, out: &mut Vec<i64>, k: i64, ece: bool| {
            tx.on_ack(k, ece, &TcpOptions::default(), (100 + k as Time) * MS, out);
            tx.state.w
        };
        for k in 0..=8 {
            ack(&mut tx, &mut out, k, false);
        }
        assert_eq!((tx.state.w.cwnd, tx.state.maxseq), (10.0, 18));
        let cut = ack(&mut tx, &mut out, 9, true);
        assert!(cut.cwnd < 10.0 && cut.ssthresh == cut.cwnd, "{cut:?}");
        for k in 10..=18 {
            assert_eq!(ack(&mut tx, &mut out, k, false), cut, "ACK {k} is of the window cut");
        }
        let after = ack(&mut tx, &mut out, 19, false);
        assert_eq!(after, Window { cwnd: cut.cwnd + 1.0 / cut.cwnd, ssthresh: cut.ssthresh });
        assert_eq!(tx.state.stats.ecn_cuts, 1);

        let maxseq = tx.state.maxseq;
        ack(&mut tx, &mut out, maxseq - 2, true);
        assert_eq!(tx.state.stats.ecn_cuts, 2);
        tx.on_timeout(2_000 * MS, &mut out);
        assert_eq!(tx.state.w.cwnd, 1.0);
        assert_eq!(ack(&mut tx, &mut out, maxseq - 1, false).cwnd, 2.0, "slow start after the timeout");
    }
}
