//! SACK loss recovery as RFC 6675 ("A Conservative Loss Recovery Algorithm
//! Based on Selective Acknowledgment (SACK) for TCP") specifies it, with the
//! two things Linux adds that the RFC leaves open: SACK information kept
//! through a retransmission timeout (Linux `tcp_enter_loss`) and a lost
//! retransmission sent again without waiting for the timer, found by RACK
//! (RFC 8985; Linux `tcp_rack_mark_lost`, net/ipv4/tcp_recovery.c, 4.4 on).
//! Re-derived from those texts; sequence numbers count packets, so SMSS is
//! one packet.
//!
//! - Scoreboard (Sec 4, `Update()`): each packet from `HighACK + 1` to
//!   `HighData` is SACKed or not, lost or not, retransmitted or not, with
//!   its last transmission's time. An ACK counts as a duplicate (Sec 2,
//!   `DupAck`) if it SACKs a packet not SACKed before, whether or not it
//!   also moves the cumulative ACK (which first resets the count, Sec 5
//!   step 2).
//! - `IsLost(S)` (Sec 4): DupThresh (3) discontiguous SACKed sequences above
//!   S, or more than (DupThresh - 1) SMSS SACKed above it; with whole
//!   packets both come to 3 SACKed packets above S, so every packet below
//!   the third highest SACKed. That point never falls (SACKs are never
//!   reneged here), so a packet once lost stays lost: the scoreboard marks it.
//! - `SetPipe()` (Sec 4): each packet not SACKed counts 1 if not lost and 1
//!   if retransmitted (the RFC's `S1 <= HighRxt`, each packet's own mark
//!   here, as Linux's `retrans_out`): `pipe = outstanding - SACKed - lost +
//!   retransmitted`. The sender sends while `pipe < cwnd`, in recovery (Sec
//!   5 step C) and outside it (Linux `tcp_cwnd_test`; RFC 6675 Sec 5 step
//!   3.3's limited transmit by pipe is its case).
//! - Entry (Sec 5 steps 3-4): at DupThresh duplicates or when
//!   `IsLost(HighACK + 1)`, unless a recovery (fast or after a timeout) is under way:
//!   `RecoveryPoint = HighData`, the congestion control cuts, `HighACK + 1`
//!   is retransmitted at once, then step C.
//! - RACK in recovery (RFC 8985 Sec 6.2, as Linux 4.4-4.17 uses it, once a
//!   recovery has begun): a packet not SACKed whose last transmission was
//!   before that of the most recently sent packet delivered (ties by
//!   sequence number) is lost, a retransmission too, which clears its
//!   retransmitted mark. The reordering window is 0, RFC 8985's while in
//!   recovery with no reordering seen: pacesim's links are FIFO and a flow
//!   has one route, so there is none, and no RACK timer is needed (a
//!   packet sent before one delivered has been out for an RTT). A
//!   retransmission delivered sooner than the least RTT since its sending
//!   is not taken as delivering it (the original may have been; Sec 6.2
//!   step 2).
//! - `NextSeg()` (Sec 4), in recovery: (1) the lowest lost packet not SACKed
//!   and not retransmitted since it was found lost (the RFC's `S2 > HighRxt`,
//!   which a lost retransmission reopens); (2) new data the receiver's
//!   window allows; (3) the lowest packet below the highest SACKed, neither
//!   SACKed nor retransmitted; (4) once per recovery, a rescue
//!   retransmission of the highest packet not SACKed (`RescueRxt`, which
//!   leaves the marks as they are). After a timeout rules (1) and (2) only;
//!   outside recovery (2).
//! - Exit (Sec 5 step A): a cumulative ACK at or beyond `RecoveryPoint`;
//!   the scoreboard above it is kept.
//! - Timeout (Sec 5.1, Linux `tcp_enter_loss`): `RecoveryPoint = HighData`,
//!   fast recovery ends and none starts until the ACK reaches it; every
//!   packet not SACKed is lost and its retransmission forgotten, SACKed
//!   ones stay SACKed and are not sent again; the window closes to one
//!   (the common rule, `SendState::go_back_n`), and rules (1) and (2) send
//!   as it opens. New data continues from `HighData + 1` (Linux's `snd_nxt`
//!   is not rewound).
//! - A rate-sampling sender's samples (`tcp::rate`) hear of what RACK
//!   finds lost from here, on the ACK after the one that found it.

use std::collections::VecDeque;

use super::LossRecovery;
use crate::net::TcpOptions;
use crate::sim::Time;
use crate::tcp::state::{SendState, DUPACK_THRESHOLD};

/// A packet's marks on the scoreboard.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Marks {
    sacked: bool,
    lost: bool,
    /// Retransmitted, and not found lost since.
    retransmitted: bool,
    /// When it was last sent, ns.
    sent: Time,
}

/// The scoreboard: the marks of every packet from the cumulative ACK to
/// the highest sent, their counts (packets) for `pipe`, and RACK's state.
#[derive(Debug, Clone, Default)]
struct Scoreboard {
    /// Sequence number of `marks[0]`: `HighACK + 1`.
    base: i64,
    marks: VecDeque<Marks>,
    sacked: i64,
    /// Lost and not SACKed.
    lost: i64,
    /// Retransmitted (not since found lost) and not SACKed.
    retransmitted: i64,
    /// Lost, not SACKed, not retransmitted: what rule (1) may send.
    waiting: i64,
    /// Highest sequence number SACKed (below `base`: none above the ACK).
    highest_sacked: i64,
    /// Every packet not SACKed below this one has been marked by `IsLost`.
    lost_below: i64,
    /// RACK: the last transmission (time, sequence number) of the most
    /// recently sent packet delivered, and the least RTT, ns.
    rack: Option<(Time, i64)>,
    min_rtt: Option<Time>,
}

impl Scoreboard {
    fn at_mut(&mut self, seq: i64) -> Option<&mut Marks> {
        usize::try_from(seq - self.base).ok().and_then(|i| self.marks.get_mut(i))
    }

    /// `SetPipe()`: packets in the network, by the counts.
    fn pipe(&self) -> i64 {
        self.marks.len() as i64 - self.sacked - self.lost + self.retransmitted
    }

    /// `IsLost(HighACK + 1)`.
    fn head_lost(&self) -> bool {
        self.marks.front().is_some_and(|m| m.lost)
    }

    /// A new packet `seq` (`HighData + 1`) was sent at `now`.
    fn sent_new(&mut self, seq: i64, now: Time) {
        if self.marks.is_empty() {
            self.base = seq;
        }
        debug_assert_eq!(seq, self.base + self.marks.len() as i64, "new data in order");
        self.marks.push_back(Marks { sent: now, ..Marks::default() });
    }

    /// `seq` was retransmitted at `now`: a packet rules (1) and (3) send is
    /// marked (the RFC's `HighRxt`); the rescue is not (`rescued`).
    fn retransmitted(&mut self, seq: i64, now: Time) {
        let Some(m) = self.at_mut(seq) else { return };
        m.sent = now;
        if m.retransmitted || m.sacked {
            return;
        }
        m.retransmitted = true;
        let waited = m.lost;
        self.retransmitted += 1;
        self.waiting -= i64::from(waited);
    }

    /// The rescue retransmission of `seq` left at `now`: its time only.
    fn rescued(&mut self, seq: i64, now: Time) {
        if let Some(m) = self.at_mut(seq) {
            m.sent = now;
        }
    }

    /// Mark a packet not SACKed and not waiting lost, forgetting its
    /// retransmission: it waits for rule (1).
    fn lose(m: &mut Marks, lost: &mut i64, retransmitted: &mut i64, waiting: &mut i64) {
        *lost += i64::from(!m.lost);
        *retransmitted -= i64::from(m.retransmitted);
        m.lost = true;
        m.retransmitted = false;
        *waiting += 1;
    }

    /// Mark `HighACK + 1` lost: with whole packets `IsLost` holds for it
    /// at DupThresh duplicates already, and the RFC retransmits it whatever.
    fn lose_head(&mut self) {
        let Some(m) = self.marks.front_mut().filter(|m| !m.lost && !m.sacked) else { return };
        m.lost = true;
        self.lost += 1;
        self.waiting += i64::from(!m.retransmitted);
    }

    /// `Update()`: the cumulative ACK `ackno` and its SACK `blocks`
    /// (`[left, right)`) arrived at `now`; whether any packet was newly
    /// SACKed. Packets the ACK covers leave the board; RACK hears of each
    /// packet newly delivered.
    fn update(&mut self, ackno: i64, blocks: &[(i64, i64)], now: Time) -> bool {
        while self.base <= ackno {
            let Some(m) = self.marks.pop_front() else {
                self.base = ackno + 1;
                break;
            };
            if !m.sacked {
                self.delivered(m, self.base, now);
            }
            self.base += 1;
            self.uncount(m);
        }
        let mut newly = false;
        for &(l, r) in blocks {
            for seq in l.max(self.base)..r {
                let Some(m) = self.at_mut(seq) else { break };
                if m.sacked {
                    continue;
                }
                let was = *m;
                m.sacked = true;
                self.uncount(was);
                self.delivered(was, seq, now);
                self.sacked += 1;
                self.highest_sacked = self.highest_sacked.max(seq);
                newly = true;
            }
        }
        newly
    }

    /// RACK's update for packet `seq` (marks `m`) delivered at `now` (RFC
    /// 8985 Sec 6.2 steps 1-2).
    fn delivered(&mut self, m: Marks, seq: i64, now: Time) {
        let rtt = now - m.sent;
        if m.retransmitted && self.min_rtt.is_some_and(|least| rtt < least) {
            return;
        }
        if !m.retransmitted && !m.lost {
            self.min_rtt = Some(self.min_rtt.map_or(rtt, |least| least.min(rtt)));
        }
        self.rack = self.rack.max(Some((m.sent, seq)));
    }

    /// Take a packet's marks (as they were) off the counts of packets not SACKed.
    fn uncount(&mut self, m: Marks) {
        if m.sacked {
            self.sacked -= 1;
            return;
        }
        self.lost -= i64::from(m.lost);
        self.retransmitted -= i64::from(m.retransmitted);
        self.waiting -= i64::from(m.lost && !m.retransmitted);
    }

    /// Mark lost every packet `IsLost` says is: those not SACKed below the
    /// DupThresh-th highest SACKed one, from where the last marking stopped.
    fn mark_lost(&mut self) {
        if self.sacked < i64::from(DUPACK_THRESHOLD) {
            return;
        }
        let mut above = 0;
        let Some(top) = self.marks.iter().rposition(|m| {
            above += u32::from(m.sacked);
            above == DUPACK_THRESHOLD
        }) else {
            return;
        };
        let from = usize::try_from(self.lost_below - self.base).unwrap_or(0);
        let (mut lost, mut waiting) = (0, 0);
        for m in self.marks.range_mut(from.min(top)..top).filter(|m| !m.sacked && !m.lost) {
            // A packet rules (3) or (4) retransmitted keeps its mark (pipe counts it once).
            m.lost = true;
            lost += 1;
            waiting += i64::from(!m.retransmitted);
        }
        self.lost += lost;
        self.waiting += waiting;
        self.lost_below = self.lost_below.max(self.base + top as i64);
    }

    /// RACK (RFC 8985 Sec 6.2 step 5, reordering window 0): every packet
    /// not SACKed last sent before the most recently sent one delivered is
    /// lost, unless it waits for rule (1) already; the sequence numbers
    /// found, appended to `found`.
    fn rack_mark_lost(&mut self, found: &mut Vec<i64>) {
        let Some(rack) = self.rack else { return };
        let base = self.base;
        let (mut lost, mut retransmitted, mut waiting) = (self.lost, self.retransmitted, self.waiting);
        for (i, m) in self.marks.iter_mut().enumerate() {
            let seq = base + i as i64;
            let waits = m.lost && !m.retransmitted;
            if !m.sacked && !waits && (m.sent, seq) < rack {
                Self::lose(m, &mut lost, &mut retransmitted, &mut waiting);
                found.push(seq);
            }
        }
        (self.lost, self.retransmitted, self.waiting) = (lost, retransmitted, waiting);
    }

    /// A timeout (Linux `tcp_enter_loss`): every packet not SACKed is lost,
    /// its retransmission forgotten; SACKed packets stay SACKed.
    fn time_out(&mut self) {
        let (mut lost, mut retransmitted, mut waiting) = (self.lost, self.retransmitted, 0);
        for m in self.marks.iter_mut().filter(|m| !m.sacked) {
            Self::lose(m, &mut lost, &mut retransmitted, &mut waiting);
        }
        (self.lost, self.retransmitted, self.waiting) = (lost, retransmitted, waiting);
    }

    /// `NextSeg()` rule (1): the lowest lost packet neither SACKed nor retransmitted.
    fn next_lost(&self) -> Option<i64> {
        if self.waiting == 0 {
            return None;
        }
        let i = self.marks.iter().position(|m| m.lost && !m.sacked && !m.retransmitted)?;
        Some(self.base + i as i64)
    }

    /// `NextSeg()` rule (3): the lowest packet below the highest SACKed,
    /// neither SACKed nor retransmitted.
    fn next_unsacked(&self) -> Option<i64> {
        let below = usize::try_from(self.highest_sacked - self.base).ok()?;
        let i = self.marks.iter().take(below).position(|m| !m.sacked && !m.retransmitted)?;
        Some(self.base + i as i64)
    }

    /// `NextSeg()` rule (4)'s packet: the highest one not SACKed.
    fn highest_unsacked(&self) -> Option<i64> {
        let i = self.marks.iter().rposition(|m| !m.sacked)?;
        Some(self.base + i as i64)
    }
}

/// Where the sender stands (Linux's `icsk_ca_state` Open, Recovery, Loss).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Phase {
    #[default]
    Open,
    /// Fast recovery (Sec 5), until the ACK reaches `recover`.
    Fast,
    /// After a timeout (Sec 5.1), until the ACK reaches `recover`.
    Timeout,
}

/// RFC 6675's recovery state.
#[derive(Debug, Clone, Default)]
pub struct Rfc6675 {
    board: Scoreboard,
    phase: Phase,
    /// `RescueRxt`: the recovery point of the last rescue retransmission.
    rescue: Option<i64>,
    /// Packets RACK found lost on this ACK (kept to spare an allocation).
    found: Vec<i64>,
}

impl Rfc6675 {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sec 5 step 4: fast retransmit and loss recovery.
    fn enter(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        self.phase = Phase::Fast;
        s.enter_recovery(s.maxseq, s.windowd(), self.board.pipe(), now);
        let head = s.highest_ack + 1;
        self.board.lose_head();
        self.board.retransmitted(head, now);
        s.output(head, now, out);
    }

    /// `NextSeg()` as the phase allows it.
    fn next_seg(&self, s: &SendState) -> Option<Next> {
        if self.phase != Phase::Open {
            if let Some(seq) = self.board.next_lost() {
                return Some(Next::Retransmit(seq));
            }
        }
        if s.has_data(s.t_seqno) && s.t_seqno <= s.highest_ack + s.wnd as i64 {
            return Some(Next::New(s.t_seqno));
        }
        if self.phase != Phase::Fast {
            return None;
        }
        if let Some(seq) = self.board.next_unsacked() {
            return Some(Next::Retransmit(seq));
        }
        if self.rescue.is_none_or(|r| s.highest_ack > r) {
            return self.board.highest_unsacked().map(Next::Rescue);
        }
        None
    }
}

/// What `NextSeg()` chose: a retransmission by rule (1) or (3), new data
/// (2), or the rescue (4).
enum Next {
    Retransmit(i64),
    New(i64),
    Rescue(i64),
}

impl LossRecovery for Rfc6675 {
    fn uses_sack(&self) -> bool {
        true
    }

    /// Sec 5's steps for each ACK: `Update()`, loss marking, the duplicate
    /// count, exit, entry, then sending.
    fn on_ack(&mut self, s: &mut SendState, ackno: i64, options: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        let advanced = ackno > s.highest_ack;
        let newly_sacked = self.board.update(ackno, options.sack.as_slice(), now);
        self.board.mark_lost();
        if self.phase != Phase::Open {
            self.board.rack_mark_lost(&mut self.found);
            if let Some(r) = s.rate.as_deref_mut() {
                for &seq in &self.found {
                    r.found_lost(seq);
                }
            }
            self.found.clear();
        }
        if advanced {
            match self.phase {
                Phase::Fast if ackno < s.recover => {
                    // A partial ACK: the timer restarts (RFC 6298 5.3), no RTT sample.
                    s.advance_in_recovery(ackno);
                    s.end_timing(ackno);
                    s.newtimer(ackno, now);
                    s.stats.partial_acks += 1;
                }
                Phase::Fast => {
                    // Step A: recovery is over, the window where the cut left it.
                    s.new_ack(ackno, now);
                    self.phase = Phase::Open;
                }
                Phase::Timeout | Phase::Open => {
                    let pipe = self.board.pipe();
                    s.open_window(ackno, now, true, |_| pipe);
                    if ackno >= s.recover {
                        self.phase = Phase::Open;
                    }
                }
            }
        }
        s.dupacks += u32::from(newly_sacked);
        if self.phase == Phase::Open && (s.dupacks >= DUPACK_THRESHOLD || self.board.head_lost()) {
            self.enter(s, now, out);
        }
        self.send_much(s, now, out);
    }

    /// Sec 5 step C: while `pipe < cwnd`, `NextSeg()`.
    fn send_much(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        let flight = self.board.pipe() as f64;
        let Some(most) = s.pace_begin(now, |cwnd| flight >= cwnd) else {
            return;
        };
        let mut sent = 0;
        let mut found = true;
        while sent < most && self.board.pipe() < s.window(0) {
            if s.pacing_holds(now) {
                return;
            }
            let seq = match self.next_seg(s) {
                Some(Next::Retransmit(seq)) => {
                    self.board.retransmitted(seq, now);
                    seq
                }
                Some(Next::New(seq)) => {
                    self.board.sent_new(seq, now);
                    seq
                }
                Some(Next::Rescue(seq)) => {
                    // `RescueRxt = RecoveryPoint`; `HighRxt` (the marks) as it was.
                    self.rescue = Some(s.recover);
                    self.board.rescued(seq, now);
                    seq
                }
                None => {
                    found = false;
                    break;
                }
            };
            s.output(seq, now, out);
            s.t_seqno = s.t_seqno.max(seq + 1);
            s.paced(now);
            sent += 1;
        }
        s.pace_end(now, found && self.board.pipe() < s.window(0));
    }

    /// Sec 5.1 with Linux's `tcp_enter_loss`: the common timeout, every
    /// packet not SACKed lost, new data from where it stood.
    fn on_timeout(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        self.phase = Phase::Timeout;
        s.go_back_n(now, s.windowd(), self.board.pipe());
        s.t_seqno = s.maxseq + 1;
        self.board.time_out();
        self.send_much(s, now, out);
    }

    /// `pipe`.
    fn in_flight(&self, _s: &SendState) -> i64 {
        self.board.pipe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::reno::Reno;
    use crate::tcp::rtt::RttEstimator;

    /// A sender with packets 0..=19 sent (packet k at k ns), 0..=9
    /// acknowledged, the application's data ending at `end`, and its
    /// recovery with SACKed 12, 13, 15 and 17 (the ACK of 9 at 100 ns with
    /// blocks [12, 14), [15, 16), [17, 18)).
    fn board(end: i64, phase: Phase) -> (SendState, Rfc6675) {
        let rtt = RttEstimator::new(10_000_000, 0, 200_000_000, 60_000_000_000, 1_000_000_000);
        let mut s = SendState::new(Box::new(Reno), 1000, 2, false, rtt);
        (s.highest_ack, s.maxseq, s.t_seqno, s.end, s.recover) = (9, 19, 20, end, 19);
        let mut r = Rfc6675 { phase, ..Rfc6675::new() };
        for seq in 0..20 {
            r.board.sent_new(seq, seq as Time);
        }
        assert!(r.board.update(9, &[(12, 14), (15, 16), (17, 18)], 100));
        r.board.mark_lost();
        (s, r)
    }

    /// What `NextSeg()` hands out at 1000 ns, in order, each taken as `send_much` takes it.
    fn drain(s: &mut SendState, r: &mut Rfc6675) -> Vec<i64> {
        let mut out = Vec::new();
        s.w.cwnd = 1000.0;
        r.send_much(s, 1000, &mut out);
        out
    }

    /// IsLost by hand: above 11 four packets are SACKed (12, 13, 15, 17),
    /// above 10 too: both lost; above 14 two (15, 17), above 16 one: not.
    /// pipe = 10 outstanding - 4 SACKed - 2 lost = 4 (14, 16, 18, 19).
    /// NextSeg: rule (1) 10 then 11 (pipe 5, 6), then (2) new data 20, 21;
    /// with none, (3) 14 and 16 (below the highest SACKed, 17), then the
    /// rescue (4), 21, the highest not SACKed, once: pipe unchanged by it.
    #[test]
    fn next_seg_takes_lost_packets_then_new_data_then_holes_then_a_rescue() {
        let (mut s, mut r) = board(22, Phase::Fast);
        let lost: Vec<bool> = r.board.marks.iter().map(|m| m.lost).collect();
        assert_eq!(lost, [true, true, false, false, false, false, false, false, false, false]);
        assert_eq!(r.board.pipe(), 4);
        assert_eq!(drain(&mut s, &mut r), [10, 11, 20, 21, 14, 16, 21]);
        assert_eq!(r.board.pipe(), 4 + 2 + 2 + 2, "two lost resent, two new, two holes; not the rescue");
        assert_eq!(r.rescue, Some(19), "RescueRxt = RecoveryPoint");
        assert!(drain(&mut s, &mut r).is_empty(), "one rescue a recovery");
        // Outside recovery only new data; after a timeout no rule (3) or (4).
        let (mut s, mut r) = board(22, Phase::Open);
        assert_eq!(drain(&mut s, &mut r), [20, 21]);
        let (mut s, mut r) = board(20, Phase::Timeout);
        assert_eq!(drain(&mut s, &mut r), [10, 11]);
    }

    /// RACK: at 200 ns 10 and 11 are retransmitted and 20 and 21 sent, at
    /// 300 ns 14 (rule 3). The SACK of 20 at 400 ns: every packet not
    /// SACKed last sent before 20 (at 200 ns, or at 200 ns with a lower
    /// sequence number) is lost: 10's and 11's retransmissions, and 16, 18
    /// and 19 (sent at 16-19 ns); not 14 (resent at 300 ns) nor 21. 14 is
    /// lost by IsLost now (15, 17, 20 above), its retransmission standing:
    /// pipe = 12 outstanding - 5 SACKed - 6 lost + 1 retransmitted = 2.
    /// Rule (1) resends 10, 11, 16, 18, 19; the rescue, 21. (Sack1 resends
    /// each hole once a recovery: a lost retransmission waits for the timer.)
    #[test]
    fn rack_finds_lost_retransmissions_by_what_was_sent_later() {
        let (mut s, mut r) = board(22, Phase::Fast);
        s.w.cwnd = 8.0; // pipe 4: 10, 11, 20, 21
        let mut out = Vec::new();
        r.send_much(&mut s, 200, &mut out);
        assert_eq!(out, [10, 11, 20, 21]);
        s.w.cwnd = 9.0;
        out.clear();
        r.send_much(&mut s, 300, &mut out);
        assert_eq!(out, [14]);
        assert!(r.board.update(9, &[(20, 21)], 400));
        r.board.mark_lost();
        let mut found = Vec::new();
        r.board.rack_mark_lost(&mut found);
        assert_eq!(found, [10, 11, 16, 18, 19]);
        assert_eq!(r.board.pipe(), 12 - 5 - 6 + 1);
        assert_eq!(drain(&mut s, &mut r), [10, 11, 16, 18, 19, 21]);
    }

    /// A timeout keeps what the receiver SACKed: 10, 11 (retransmitted
    /// already), 14, 16, 18 and 19 are lost, the window one packet: 10;
    /// as it opens, the others in order and then new data, never 12, 13,
    /// 15 or 17 (Sack1 resends everything from 10).
    #[test]
    fn a_timeout_resends_only_what_was_not_sacked() {
        let (mut s, mut r) = board(22, Phase::Fast);
        s.w.cwnd = 6.0;
        let mut out = Vec::new();
        r.send_much(&mut s, 200, &mut out);
        assert_eq!(out, [10, 11]);
        out.clear();
        r.on_timeout(&mut s, 300, &mut out);
        assert_eq!((out.as_slice(), s.w.cwnd, r.board.pipe()), ([10].as_slice(), 1.0, 1));
        assert_eq!(r.phase, Phase::Timeout);
        assert_eq!(drain(&mut s, &mut r), [11, 14, 16, 18, 19, 20, 21]);
    }

    /// The third duplicate ACK (each SACKing one more packet above the
    /// hole at 10) starts recovery: RecoveryPoint = HighData, 10 resent at
    /// once; the ACK of 19 ends it, and the ACK of 15 before it is partial.
    #[test]
    fn three_duplicates_start_recovery_and_the_recovery_point_ends_it() {
        let rtt = RttEstimator::new(10_000_000, 0, 200_000_000, 60_000_000_000, 1_000_000_000);
        let mut s = SendState::new(Box::new(Reno), 1000, 2, false, rtt);
        s.w.cwnd = 10.0;
        let mut r = Rfc6675::new();
        let mut out = Vec::new();
        r.send_much(&mut s, 0, &mut out);
        assert_eq!(out, (0..10).collect::<Vec<_>>());
        let ack =
            |r: &mut Rfc6675, s: &mut SendState, ackno, blocks: &[(i64, i64)], now, out: &mut Vec<i64>| {
                let mut options = TcpOptions::default();
                for &b in blocks {
                    options.sack.push(b);
                }
                out.clear();
                r.on_ack(s, ackno, &options, now, out);
            };
        ack(&mut r, &mut s, 4, &[], 100, &mut out);
        assert_eq!(r.phase, Phase::Open);
        ack(&mut r, &mut s, 4, &[(6, 7)], 100, &mut out);
        ack(&mut r, &mut s, 4, &[(6, 8)], 100, &mut out);
        assert_eq!((r.phase, s.dupacks), (Phase::Open, 2));
        ack(&mut r, &mut s, 4, &[(6, 9)], 100, &mut out);
        assert_eq!((r.phase, s.recover, out[0]), (Phase::Fast, s.maxseq, 5));
        let recover = s.recover;
        ack(&mut r, &mut s, 8, &[], 200, &mut out);
        assert_eq!((r.phase, s.stats.partial_acks), (Phase::Fast, 1));
        ack(&mut r, &mut s, recover, &[], 300, &mut out);
        assert_eq!(r.phase, Phase::Open);
    }
}
