//! SACK loss recovery as RFC 6675 ("A Conservative Loss Recovery Algorithm
//! Based on Selective Acknowledgment (SACK) for TCP") specifies it, with the
//! three things Linux adds that the RFC leaves open: SACK information kept
//! through a retransmission timeout (Linux `tcp_enter_loss`), a lost
//! retransmission sent again without waiting for the timer, found by RACK
//! (RFC 8985; Linux `tcp_rack_mark_lost`, net/ipv4/tcp_recovery.c, 4.4 on),
//! and the sending in recovery bounded by proportional rate reduction (RFC
//! 6937; Linux `tcp_cwnd_reduction`, 4.x-5.x) for a congestion control that
//! does not set the window itself. Re-derived from those texts; sequence
//! numbers count packets, so SMSS is one packet.
//!
//! - Scoreboard (Sec 4, `Update()`): each packet from `HighACK + 1` to
//!   `HighData` is SACKed or not, lost or not, retransmitted or not, ever
//!   retransmitted or not, with its last transmission's time and place in
//!   the flow's order of transmissions. An ACK counts as a duplicate (Sec 2,
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
//! - Entry (Sec 5 steps 1-4): on a duplicate ACK, at DupThresh duplicates
//!   (step 1) or when `IsLost(HighACK + 1)` (step 2), unless a recovery (fast
//!   or after a timeout) is under way: `RecoveryPoint = HighData`, the
//!   congestion control cuts, `HighACK + 1` is retransmitted at once with
//!   `RescueRxt` set to it (step 4.3), then step C. `IsLost(HighACK + 1)`
//!   is the SACK count's (3 SACKed), not the head's lost mark, which RACK
//!   and a timeout set too: with whole packets DupThresh duplicates have
//!   SACKed 3 packets, so step 2 holds whenever step 1 does, and one ACK
//!   SACKing 3 packets enters by step 2 alone. (Linux enters whenever a
//!   packet is marked lost, `tcp_time_to_recover`; a head RACK found lost
//!   after a timeout here waits for `IsLost` or the timer.)
//! - RACK in recovery (RFC 8985 Sec 6.2, as Linux 4.4-4.17 uses it, once a
//!   recovery has begun): a packet not SACKed whose last transmission was
//!   before that of the most recently sent packet delivered is lost, a
//!   retransmission too, which clears its retransmitted mark. "Before" is
//!   the flow's order of transmissions (a count), so packets sent at one
//!   instant keep the order they left in (Linux's `tcp_rack_sent_after`
//!   orders by send time, then end sequence; its microsecond stamps are
//!   the same for one burst, where a retransmission sent after new data
//!   would be ordered below it). The reordering window is 0, RFC 8985's
//!   while in recovery with no reordering seen: pacesim's links are FIFO
//!   and a flow has one route, so there is none, and no RACK timer is
//!   needed (a packet sent before one delivered has been out for an RTT).
//!   A packet ever retransmitted (the rescue too: Linux's
//!   `TCPCB_EVER_RETRANS`) delivered sooner than the least RTT is not taken
//!   as delivering its last transmission (the original may have been;
//!   `tcp_rack_advance`); the least RTT is of packets sent once (Linux's
//!   `tcp_min_rtt`, a minimum over 300 s, `tcp_min_rtt_wlen`, which no run
//!   here outlasts, so it never expires).
//! - `NextSeg()` (Sec 4), in recovery: (1) the lowest lost packet not SACKed
//!   and not retransmitted since it was found lost (the RFC's `S2 > HighRxt`,
//!   which a lost retransmission reopens); (2) new data the receiver's
//!   window allows; (3) the lowest packet below the highest SACKed, neither
//!   SACKed nor retransmitted; (4) if `HighACK > RescueRxt`, a rescue
//!   retransmission of the highest packet not SACKed, `RescueRxt =
//!   RecoveryPoint` (which leaves the retransmitted marks as they are, and
//!   so `pipe`; Linux has no rescue). After a timeout rules (1) and (2)
//!   only; outside recovery (2).
//! - The window in fast recovery (RFC 6937, PRR-SSRB as Linux 4.x-5.x's
//!   `tcp_cwnd_reduction` runs it), for a congestion control that does not
//!   set the window itself (`CongestionControl::sets_window`: BBR does, as
//!   Linux's `cong_control` bypasses PRR): on each ACK delivering
//!   `DeliveredData` packets (newly ACKed or SACKed), `prr_delivered` grows
//!   by it and `cwnd = pipe + sndcnt`, where while `pipe > ssthresh`
//!   `sndcnt = ceil(ssthresh x prr_delivered / RecoverFS) - prr_out` (the
//!   proportional part; RecoverFS is cwnd before the cut, as Linux's
//!   `prior_cwnd`), else, if the ACK acknowledged a retransmitted packet
//!   and RACK found no retransmission lost on it, `sndcnt = min(ssthresh -
//!   pipe, max(prr_delivered - prr_out, DeliveredData) + 1)` (slow start
//!   back to ssthresh), else `min(ssthresh - pipe, DeliveredData)` (packet
//!   conservation); at least 1 while nothing was sent in the recovery (the
//!   fast retransmit). So every packet found lost leaves `pipe` for good,
//!   where step C alone would send one in its place up to the cwnd of the
//!   one cut: a retransmission lost again lowers what the flow sends, as
//!   RFC 5681 Sec 4.3's second cut asks, by the losses' own measure and
//!   without a second ssthresh. Leaving recovery sets cwnd to ssthresh
//!   (Linux `tcp_end_cwnd_reduction`). PRR rather than the RFC's second
//!   cut since Linux, whose recovery this is, runs it.
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
use crate::tcp::cc::Window;
use crate::tcp::state::{SendState, DUPACK_THRESHOLD};

/// A packet's marks on the scoreboard.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Marks {
    sacked: bool,
    lost: bool,
    /// Retransmitted, and not found lost since.
    retransmitted: bool,
    /// Retransmitted at least once, the rescue too (Linux `TCPCB_EVER_RETRANS`).
    ever_retransmitted: bool,
    /// When it was last sent, ns.
    sent: Time,
    /// Its last transmission's place in the flow's order of transmissions.
    order: u64,
}

/// What one ACK told the scoreboard (`Update()`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Acked {
    /// Packets newly delivered, ACKed or SACKed: RFC 6937's `DeliveredData`.
    delivered: i64,
    /// Whether any packet was newly SACKed: a duplicate ACK (Sec 2).
    newly_sacked: bool,
    /// Whether the cumulative ACK covered a packet ever retransmitted
    /// (Linux `FLAG_RETRANS_DATA_ACKED`).
    retransmission_acked: bool,
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
    /// Transmissions so far, the order the next one takes.
    sends: u64,
    /// RACK: the order of the last transmission of the most recently sent
    /// packet delivered, and the least RTT of packets sent once, ns.
    rack: Option<u64>,
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

    /// `IsLost(HighACK + 1)`: DupThresh packets SACKed above it (every
    /// packet SACKed is; the head is not, or the ACK would cover it).
    fn head_lost(&self) -> bool {
        !self.marks.is_empty() && self.sacked >= i64::from(DUPACK_THRESHOLD)
    }

    /// The next transmission's place in the flow's order.
    fn next_order(&mut self) -> u64 {
        self.sends += 1;
        self.sends
    }

    /// A new packet `seq` (`HighData + 1`) was sent at `now`.
    fn sent_new(&mut self, seq: i64, now: Time) {
        if self.marks.is_empty() {
            self.base = seq;
        }
        debug_assert_eq!(seq, self.base + self.marks.len() as i64, "new data in order");
        let order = self.next_order();
        self.marks.push_back(Marks { sent: now, order, ..Marks::default() });
    }

    /// `seq` was sent again at `now`, by rules (1) and (3) or as the
    /// rescue (4): its time and order, and that it was retransmitted once.
    fn resent(&mut self, seq: i64, now: Time) -> Option<&mut Marks> {
        let order = self.next_order();
        let m = self.at_mut(seq)?;
        (m.sent, m.order, m.ever_retransmitted) = (now, order, true);
        Some(m)
    }

    /// `seq` was retransmitted at `now`: a packet rules (1) and (3) send is
    /// marked (the RFC's `HighRxt`); the rescue is not (`resent` only).
    fn retransmitted(&mut self, seq: i64, now: Time) {
        let Some(m) = self.resent(seq, now) else { return };
        if m.retransmitted || m.sacked {
            return;
        }
        m.retransmitted = true;
        let waited = m.lost;
        self.retransmitted += 1;
        self.waiting -= i64::from(waited);
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
    /// (`[left, right)`) arrived at `now`. Packets the ACK covers leave the
    /// board; RACK hears of each packet newly delivered.
    fn update(&mut self, ackno: i64, blocks: &[(i64, i64)], now: Time) -> Acked {
        let mut acked = Acked::default();
        while self.base <= ackno {
            let Some(m) = self.marks.pop_front() else {
                self.base = ackno + 1;
                break;
            };
            if !m.sacked {
                self.delivered(m, now);
                acked.delivered += 1;
            }
            acked.retransmission_acked |= m.ever_retransmitted;
            self.base += 1;
            self.uncount(m);
        }
        for &(l, r) in blocks {
            for seq in l.max(self.base)..r {
                let Some(m) = self.at_mut(seq) else { break };
                if m.sacked {
                    continue;
                }
                let was = *m;
                m.sacked = true;
                self.uncount(was);
                self.delivered(was, now);
                self.sacked += 1;
                self.highest_sacked = self.highest_sacked.max(seq);
                acked.delivered += 1;
                acked.newly_sacked = true;
            }
        }
        acked
    }

    /// RACK's update for a packet with marks `m` delivered at `now` (RFC
    /// 8985 Sec 6.2 steps 1-2, Linux `tcp_rack_advance`).
    fn delivered(&mut self, m: Marks, now: Time) {
        let rtt = now - m.sent;
        if m.ever_retransmitted && self.min_rtt.is_some_and(|least| rtt < least) {
            return;
        }
        if !m.ever_retransmitted {
            self.min_rtt = Some(self.min_rtt.map_or(rtt, |least| least.min(rtt)));
        }
        self.rack = self.rack.max(Some(m.order));
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
    /// found, appended to `found`, and whether a retransmission was among
    /// them (Linux `FLAG_LOST_RETRANS`).
    fn rack_mark_lost(&mut self, found: &mut Vec<i64>) -> bool {
        let Some(rack) = self.rack else { return false };
        let base = self.base;
        let (mut lost, mut retransmitted, mut waiting) = (self.lost, self.retransmitted, self.waiting);
        let before = retransmitted;
        for (i, m) in self.marks.iter_mut().enumerate() {
            let waits = m.lost && !m.retransmitted;
            if !m.sacked && !waits && m.order < rack {
                Self::lose(m, &mut lost, &mut retransmitted, &mut waiting);
                found.push(base + i as i64);
            }
        }
        (self.lost, self.retransmitted, self.waiting) = (lost, retransmitted, waiting);
        retransmitted < before
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

/// Proportional rate reduction (RFC 6937, Linux `tcp_cwnd_reduction`) in
/// one fast recovery; counts in packets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Prr {
    /// `RecoverFS`: cwnd before the cut (Linux `prior_cwnd`), at least 1.
    prior_cwnd: i64,
    /// `prr_delivered`: packets delivered (ACKed or SACKed) in the recovery.
    delivered: i64,
    /// `prr_out`: packets sent in the recovery.
    out: i64,
}

impl Prr {
    /// An ACK delivered `acked.delivered` packets, `pipe` in flight after
    /// it, `lost_retransmission` whether RACK found a retransmission lost
    /// on it: cwnd = pipe + sndcnt (RFC 6937 Sec 3.1 with Linux's choice of
    /// bound, 4.x-5.x). An ACK delivering nothing leaves cwnd as it was.
    fn on_ack(&mut self, w: &mut Window, pipe: i64, acked: Acked, lost_retransmission: bool) {
        if acked.delivered <= 0 {
            return;
        }
        let ssthresh = w.ssthresh as i64;
        self.delivered += acked.delivered;
        let room = ssthresh - pipe;
        let sndcnt = if room < 0 {
            // ceil(ssthresh x prr_delivered / RecoverFS) - prr_out
            (ssthresh * self.delivered + self.prior_cwnd - 1) / self.prior_cwnd - self.out
        } else if acked.retransmission_acked && !lost_retransmission {
            room.min((self.delivered - self.out).max(acked.delivered) + 1)
        } else {
            room.min(acked.delivered)
        };
        // The fast retransmit goes out whatever.
        let sndcnt = sndcnt.max(i64::from(self.out == 0));
        w.cwnd = (pipe + sndcnt) as f64;
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
    /// `RescueRxt`: `HighACK + 1` on entering fast recovery (Sec 5 step
    /// 4.3), the recovery point once the rescue has gone (rule 4).
    rescue: Option<i64>,
    /// PRR's state in fast recovery, if the congestion control leaves the
    /// window to the recovery.
    prr: Option<Prr>,
    /// Packets RACK found lost on this ACK (kept to spare an allocation).
    found: Vec<i64>,
}

impl Rfc6675 {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sec 5 steps 4.1-4.3 but the retransmission (`fast_retransmit`):
    /// `RecoveryPoint = HighData`, the cut, `HighACK + 1` lost and
    /// `RescueRxt` it; PRR from the window before the cut.
    fn enter(&mut self, s: &mut SendState, now: Time) {
        self.phase = Phase::Fast;
        let prior_cwnd = (s.w.cwnd as i64).max(1);
        s.enter_recovery(s.maxseq, s.windowd(), self.board.pipe(), now);
        self.rescue = Some(s.highest_ack + 1);
        self.board.lose_head();
        self.prr = (!s.cc.sets_window()).then_some(Prr { prior_cwnd, ..Prr::default() });
    }

    /// Sec 5 step 4.3: `HighACK + 1` retransmitted at once.
    fn fast_retransmit(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        let head = s.highest_ack + 1;
        self.board.retransmitted(head, now);
        s.output(head, now, out);
        if let Some(p) = self.prr.as_mut() {
            p.out += 1;
        }
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
    /// count, exit, entry, PRR's window, then sending.
    fn on_ack(&mut self, s: &mut SendState, ackno: i64, options: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        let advanced = ackno > s.highest_ack;
        let acked = self.board.update(ackno, options.sack.as_slice(), now);
        self.board.mark_lost();
        let mut lost_retransmission = false;
        if self.phase != Phase::Open {
            lost_retransmission = self.board.rack_mark_lost(&mut self.found);
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
                    // Step A: recovery is over, the window where the cut
                    // left it, or with PRR at ssthresh.
                    if self.prr.take().is_some() {
                        s.w.cwnd = s.w.ssthresh;
                    }
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
        s.dupacks += u32::from(acked.newly_sacked);
        let entering = self.phase == Phase::Open
            && acked.newly_sacked
            && (s.dupacks >= DUPACK_THRESHOLD || self.board.head_lost());
        if entering {
            self.enter(s, now);
        }
        if let Some(p) = self.prr.as_mut() {
            p.on_ack(&mut s.w, self.board.pipe(), acked, lost_retransmission);
        }
        if entering {
            self.fast_retransmit(s, now, out);
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
                    // `RescueRxt = RecoveryPoint`; `HighRxt` (the marks)
                    // and so `pipe` as they were; RACK knows it was resent.
                    self.rescue = Some(s.recover);
                    self.board.resent(seq, now);
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
            if let Some(p) = self.prr.as_mut() {
                p.out += 1;
            }
            sent += 1;
        }
        s.pace_end(now, found && self.board.pipe() < s.window(0));
    }

    /// Sec 5.1 with Linux's `tcp_enter_loss`: the common timeout, every
    /// packet not SACKed lost, new data from where it stood.
    fn on_timeout(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        self.phase = Phase::Timeout;
        self.prr = None;
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

    fn sender() -> SendState {
        let rtt = RttEstimator::new(10_000_000, 0, 200_000_000, 60_000_000_000, 1_000_000_000);
        SendState::new(Box::new(Reno), 1000, 2, false, rtt)
    }

    /// A sender with packets 0..=19 sent (packet k at k ns, the k + 1-th
    /// transmission), the application's data ending at `end`, and the ACK
    /// of 9 at 100 ns with blocks [12, 14), [15, 16), [17, 18): 12, 13, 15
    /// and 17 SACKed, the least RTT 83 ns (17's). In `Phase::Fast` the
    /// recovery entered on it as `on_ack` enters (`enter`,
    /// `fast_retransmit`): 10 resent at 100 ns (the 21st transmission),
    /// RecoveryPoint 19; in the other phases RecoveryPoint is 19 too.
    fn board(end: i64, phase: Phase) -> (SendState, Rfc6675) {
        let mut s = sender();
        (s.highest_ack, s.maxseq, s.t_seqno, s.end, s.recover) = (9, 19, 20, end, 19);
        let mut r = Rfc6675::new();
        for seq in 0..20 {
            r.board.sent_new(seq, seq as Time);
        }
        assert!(r.board.update(9, &[(12, 14), (15, 16), (17, 18)], 100).newly_sacked);
        r.board.mark_lost();
        if phase == Phase::Fast {
            r.enter(&mut s, 100);
            r.fast_retransmit(&mut s, 100, &mut Vec::new());
        }
        r.phase = phase;
        (s, r)
    }

    /// What `NextSeg()` hands out at `now`, in order, each taken as `send_much` takes it.
    fn drain_at(s: &mut SendState, r: &mut Rfc6675, now: Time) -> Vec<i64> {
        let mut out = Vec::new();
        s.w.cwnd = 1000.0;
        r.send_much(s, now, &mut out);
        out
    }

    fn drain(s: &mut SendState, r: &mut Rfc6675) -> Vec<i64> {
        drain_at(s, r, 1000)
    }

    /// `on_ack` with `blocks`, what it sent.
    fn ack(r: &mut Rfc6675, s: &mut SendState, ackno: i64, blocks: &[(i64, i64)], now: Time) -> Vec<i64> {
        let mut options = TcpOptions::default();
        for &b in blocks {
            options.sack.push(b);
        }
        let mut out = Vec::new();
        r.on_ack(s, ackno, &options, now, &mut out);
        out
    }

    /// IsLost by hand: above 11 four packets are SACKed (12, 13, 15, 17),
    /// above 10 too: both lost; above 14 two (15, 17), above 16 one: not.
    /// Entry resent 10 and set RescueRxt = 10 (Sec 5 step 4.3): pipe = 10
    /// outstanding - 4 SACKed - 2 lost + 1 retransmitted = 5. NextSeg: rule
    /// (1) 11 (pipe 6), then (2) new data 20, 21; with none, (3) 14 and 16
    /// (below the highest SACKed, 17); no rescue (4) while HighACK (9) is
    /// above RescueRxt: not on the entry ACK. The ACK of 11 (HighACK 11 >
    /// 10) lets it go: 21, the highest not SACKed, once, RescueRxt =
    /// RecoveryPoint (19), pipe unchanged by it. (Without RescueRxt set on
    /// entry the rescue went out with the first burst.)
    #[test]
    fn next_seg_takes_lost_packets_then_new_data_then_holes_then_a_rescue() {
        let (mut s, mut r) = board(22, Phase::Fast);
        let lost: Vec<bool> = r.board.marks.iter().map(|m| m.lost).collect();
        assert_eq!(lost, [true, true, false, false, false, false, false, false, false, false]);
        assert_eq!((r.board.pipe(), r.rescue, s.recover), (5, Some(10), 19));
        assert_eq!(drain(&mut s, &mut r), [11, 20, 21, 14, 16]);
        assert_eq!(r.board.pipe(), 5 + 1 + 2 + 2, "one lost resent, two new, two holes");
        r.board.update(11, &[], 2000);
        s.advance_in_recovery(11);
        // 12 ... 21 less 4 SACKed, 14 and 16 resent.
        assert_eq!(r.board.pipe(), 10 - 4 + 2);
        assert_eq!(drain_at(&mut s, &mut r, 2000), [21]);
        assert_eq!((r.board.pipe(), r.rescue), (8, Some(19)), "RescueRxt = RecoveryPoint; pipe as it was");
        assert!(drain(&mut s, &mut r).is_empty(), "one rescue a recovery");
        // Outside recovery only new data; after a timeout no rule (3) or (4).
        let (mut s, mut r) = board(22, Phase::Open);
        assert_eq!(drain(&mut s, &mut r), [20, 21]);
        let (mut s, mut r) = board(20, Phase::Timeout);
        assert_eq!(drain(&mut s, &mut r), [10, 11]);
    }

    /// The rescue is a retransmission to RACK. Transmissions as above: 10
    /// the 21st (100 ns), 11, 20, 21, 14, 16 the 22nd-26th (1000 ns), the
    /// ACK of 11 at 2000 ns (11's retransmission's RTT 1000 ns: RACK's most
    /// recent is the 22nd), the rescue of 21 the 27th. The SACK of 21 at
    /// 2010 ns is its original's (sent at 1000 ns), not the rescue's 10 ns
    /// later: 10 ns is under the least RTT (83 ns), so it moves neither
    /// RACK nor the least RTT, and RACK finds lost only what was sent
    /// before the 22nd: 18 and 19. (Unflagged, the rescue set the least RTT
    /// to 10 ns and made every packet sent before it lost, the
    /// retransmissions of 11, 14 and 16 in flight and 20 too.)
    #[test]
    fn the_rescue_is_a_retransmission_to_rack() {
        let (mut s, mut r) = board(22, Phase::Fast);
        assert_eq!(drain(&mut s, &mut r), [11, 20, 21, 14, 16]);
        assert!(r.board.update(11, &[], 2000).retransmission_acked);
        s.advance_in_recovery(11);
        assert_eq!(drain_at(&mut s, &mut r, 2000), [21]);
        assert_eq!(r.board.update(11, &[(21, 22)], 2010).delivered, 1);
        r.board.mark_lost();
        let mut found = Vec::new();
        assert!(!r.board.rack_mark_lost(&mut found));
        assert_eq!((found.as_slice(), r.board.min_rtt), ([18, 19].as_slice(), Some(83)));
    }

    /// RACK orders transmissions, not send times and sequence numbers: the
    /// burst at 1000 ns sends 11 (rule 1), 20, 21 (rule 2), then 14, 16
    /// (rule 3), the 22nd-26th transmissions. The SACK of 20 (the 23rd) at
    /// 1100 ns finds lost every packet not SACKed sent before it: the
    /// retransmissions of 10 (21st, 100 ns) and 11 (22nd), and 18 and 19
    /// (19th, 20th); not 14 and 16, sent after 20 in its burst, nor 21. 14
    /// is lost by IsLost now (15, 17, 20 above), its retransmission
    /// standing: pipe = 12 outstanding - 5 SACKed - 5 lost + 2
    /// retransmitted (14, 16) = 4. Rule (1) resends 10, 11, 18, 19. (By
    /// time then sequence number 14 and 16 were lost too, and resent.)
    #[test]
    fn rack_finds_lost_retransmissions_by_the_order_they_were_sent_in() {
        let (mut s, mut r) = board(22, Phase::Fast);
        assert_eq!(drain(&mut s, &mut r), [11, 20, 21, 14, 16]);
        let acked = r.board.update(9, &[(20, 21)], 1100);
        assert_eq!((acked.delivered, acked.newly_sacked, acked.retransmission_acked), (1, true, false));
        r.board.mark_lost();
        let mut found = Vec::new();
        assert!(r.board.rack_mark_lost(&mut found), "retransmissions among them");
        assert_eq!(found, [10, 11, 18, 19]);
        assert_eq!(r.board.pipe(), 12 - 5 - 5 + 2);
        assert_eq!(drain(&mut s, &mut r), [10, 11, 18, 19]);
    }

    /// PRR (RFC 6937) bounds what a recovery sends, Reno's window 10 over
    /// packets 0..=9, 0 lost. 100 ns: 1-3 SACKed, one duplicate ACK:
    /// IsLost(0) enters; cut to ssthresh 5 from RecoverFS 10; pipe 6 > 5, so
    /// sndcnt = ceil(5 x 3 / 10) - 0 = 2, cwnd = 8: 0 resent, then new data
    /// 10 (prr_out 2). 200 ns: 5-7 SACKed, 4 lost by IsLost: pipe 11 - 6 -
    /// 2 + 1 = 4 <= 5, no retransmission ACKed: sndcnt = min(5 - 4, 3) = 1,
    /// cwnd 5: 4 resent. 300 ns: 10 SACKed, RACK finds 0's retransmission
    /// (sent before 10) lost, and 8 and 9: pipe 11 - 7 - 4 + 1 = 1, a
    /// retransmission lost: sndcnt = min(5 - 1, 1) = 1, cwnd 2: only 0 goes
    /// again. (Step C alone kept cwnd at 5 and sent 0, 8, 9 and new data
    /// 11: four packets for each one delivered, into the loss.) The ACK of
    /// the recovery point sets cwnd to ssthresh.
    #[test]
    fn prr_sends_what_is_delivered_after_a_lost_retransmission() {
        let mut s = sender();
        s.w.cwnd = 10.0;
        let mut r = Rfc6675::new();
        let mut out = Vec::new();
        r.send_much(&mut s, 0, &mut out);
        assert_eq!(out, (0..10).collect::<Vec<_>>());
        assert_eq!(ack(&mut r, &mut s, -1, &[(1, 4)], 100), [0, 10]);
        assert_eq!((r.phase, s.dupacks, s.w.ssthresh, s.w.cwnd), (Phase::Fast, 1, 5.0, 8.0));
        assert_eq!(ack(&mut r, &mut s, -1, &[(1, 4), (5, 8)], 200), [4]);
        assert_eq!(s.w.cwnd, 5.0);
        assert_eq!(ack(&mut r, &mut s, -1, &[(1, 4), (5, 8), (10, 11)], 300), [0]);
        assert_eq!((s.w.cwnd, r.prr.map(|p| (p.delivered, p.out))), (2.0, Some((7, 4))));
        ack(&mut r, &mut s, 10, &[], 400);
        assert_eq!((r.phase, r.prr, s.w.cwnd), (Phase::Open, None, 5.0));
    }

    /// The third duplicate ACK (each SACKing one more packet above the
    /// hole at 5) starts recovery: RecoveryPoint = HighData, 5 resent at
    /// once; the ACK of 8 is partial and that of RecoveryPoint ends it.
    /// With whole packets the third duplicate has SACKed three packets, so
    /// IsLost(HighACK + 1) holds with it (step 2 with step 1); one ACK
    /// SACKing three packets enters by step 2 alone (`prr_...` above).
    #[test]
    fn three_duplicates_start_recovery_and_the_recovery_point_ends_it() {
        let mut s = sender();
        s.w.cwnd = 10.0;
        let mut r = Rfc6675::new();
        let mut out = Vec::new();
        r.send_much(&mut s, 0, &mut out);
        assert_eq!(out, (0..10).collect::<Vec<_>>());
        ack(&mut r, &mut s, 4, &[], 100);
        assert_eq!(r.phase, Phase::Open);
        ack(&mut r, &mut s, 4, &[(6, 7)], 100);
        ack(&mut r, &mut s, 4, &[(6, 8)], 100);
        assert_eq!((r.phase, s.dupacks), (Phase::Open, 2));
        let out = ack(&mut r, &mut s, 4, &[(6, 9)], 100);
        assert_eq!((r.phase, s.recover, out[0]), (Phase::Fast, s.maxseq, 5));
        let recover = s.recover;
        ack(&mut r, &mut s, 8, &[], 200);
        assert_eq!((r.phase, s.stats.partial_acks), (Phase::Fast, 1));
        ack(&mut r, &mut s, recover, &[], 300);
        assert_eq!(r.phase, Phase::Open);
    }

    /// Entry is Sec 5's, on a duplicate ACK: a head marked lost by a
    /// timeout (or RACK), not by the SACKs, starts nothing. After a
    /// timeout with RecoveryPoint 10 every packet not SACKed is lost (10,
    /// 11, 14, 16, 18, 19); the ACK of 10 ends that recovery, SACKing
    /// nothing new: no fast recovery, though 11 is marked lost. The next
    /// ACK SACKs 19, a duplicate, and IsLost(11) holds (5 SACKed above):
    /// fast recovery, 11 resent at once. (Reading the head's mark, the
    /// ACK of 10 entered, cutting the window a second time for one loss.)
    #[test]
    fn a_head_lost_by_a_timeout_waits_for_a_duplicate_ack() {
        let (mut s, mut r) = board(22, Phase::Timeout);
        s.recover = 10;
        r.board.time_out();
        let blocks = [(12, 14), (15, 16), (17, 18)];
        ack(&mut r, &mut s, 10, &blocks, 200);
        assert!(r.board.marks[0].lost);
        assert_eq!((r.phase, s.stats.fast_retransmits), (Phase::Open, 0));
        let out = ack(&mut r, &mut s, 10, &[(19, 20), (12, 14), (15, 16)], 300);
        assert_eq!((r.phase, s.stats.fast_retransmits, s.dupacks, out[0]), (Phase::Fast, 1, 1, 11));
    }

    /// A timeout keeps what the receiver SACKed: 10 (retransmitted on
    /// entry), 11 (by rule 1), 14, 16, 18 and 19 are lost, the window one
    /// packet: 10; as it opens, the others in order and then new data,
    /// never 12, 13, 15 or 17 (Sack1 resends everything from 10).
    #[test]
    fn a_timeout_resends_only_what_was_not_sacked() {
        let (mut s, mut r) = board(22, Phase::Fast);
        s.w.cwnd = 6.0;
        let mut out = Vec::new();
        r.send_much(&mut s, 200, &mut out);
        assert_eq!(out, [11]);
        out.clear();
        r.on_timeout(&mut s, 300, &mut out);
        assert_eq!((out.as_slice(), s.w.cwnd, r.board.pipe()), ([10].as_slice(), 1.0, 1));
        assert_eq!(r.phase, Phase::Timeout);
        assert_eq!(drain(&mut s, &mut r), [11, 14, 16, 18, 19, 20, 21]);
    }
}
