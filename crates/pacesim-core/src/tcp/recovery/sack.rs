//! SACK loss recovery as ns-2 2.35's `Agent/TCP/Sack1` (tcp/tcp-sack1.cc,
//! Fall and Floyd, "Simulation-based Comparisons of Tahoe, Reno, and SACK
//! TCP", CCR 1996) with its defaults (`partial_ack_ false`, `bug_fix_`,
//! `singledup_`), paired with the SACK sink (`tcp::sink`).
//!
//! - A duplicate ACK counts only if its SACK blocks tell the scoreboard
//!   something new. The third starts fast recovery (unless `highest_ack <=
//!   recover`, a loss of the same window): `recover = maxseq`, the
//!   congestion control cuts the window (Reno halves it), `pipe = maxseq - highest_ack - 3` estimates the
//!   packets in the network, and `highest_ack + 1` is retransmitted.
//! - In fast recovery every ACK takes one off `pipe`, a partial ACK (one
//!   that advances but stays below `recover`) one more, and restarts the
//!   timer. While `pipe < cwnd` the sender sends, and adds one to `pipe`:
//!   first the next hole the scoreboard knows of (a gap below a SACKed
//!   block, each retransmitted once per recovery), else new data. The
//!   window does not open during recovery; an ACK at or above `recover`
//!   ends it without opening it either.
//! - A timeout clears the scoreboard and ignores duplicate ACKs until the
//!   next new ACK.

use super::LossRecovery;
use crate::net::TcpOptions;
use crate::sim::Time;
use crate::tcp::state::{SendState, DUPACK_THRESHOLD};

/// What the SACK blocks have told the sender: the packets received above
/// the cumulative ACK, and how far retransmission has gone (ns-2
/// `ScoreBoardRQ`, tcp/scoreboard-rq.cc, over its reassembly queue).
#[derive(Debug, Clone, Default)]
pub struct Scoreboard {
    /// SACKed ranges `[left, right)`, sorted, disjoint, above `base`.
    sacked: Vec<(i64, i64)>,
    /// One past the cumulative ACK (ns-2 `sack_min`).
    base: i64,
    /// Next sequence number retransmission may start from (ns-2 `h_seqno_`).
    next_retran: i64,
}

impl Scoreboard {
    pub fn clear(&mut self) {
        self.sacked.clear();
        self.next_retran = -1;
    }

    fn total(&self) -> i64 {
        self.sacked.iter().map(|(l, r)| r - l).sum()
    }

    /// Record an ACK of `highest_ack` with `blocks`; whether it told the
    /// scoreboard anything new (ns-2 `UpdateScoreBoard`, `CheckUpdate`).
    pub fn update(&mut self, highest_ack: i64, blocks: &[(i64, i64)]) -> bool {
        let before = self.total();
        let mut changed = false;
        if self.base <= highest_ack {
            self.base = highest_ack + 1;
            changed = !self.sacked.is_empty();
            let base = self.base;
            self.sacked.retain_mut(|b| {
                b.0 = b.0.max(base);
                b.1 > b.0
            });
        }
        for &(l, r) in blocks {
            self.insert(l.max(self.base), r);
        }
        changed || self.total() != before
    }

    fn insert(&mut self, l: i64, r: i64) {
        if r <= l {
            return;
        }
        // Merge with every block it touches.
        let first = self.sacked.partition_point(|b| b.1 < l);
        let last = self.sacked.partition_point(|b| b.0 <= r);
        if first == last {
            self.sacked.insert(first, (l, r));
        } else {
            let merged = (l.min(self.sacked[first].0), r.max(self.sacked[last - 1].1));
            self.sacked.splice(first..last, [merged]);
        }
    }

    /// The next hole to retransmit: the first sequence number at or after
    /// where retransmission stands that is not SACKed and has a SACKed
    /// block above it (ns-2 `GetNextRetran`).
    pub fn next_hole(&mut self) -> Option<i64> {
        self.next_retran = self.next_retran.max(self.base);
        let from = self.next_retran;
        let i = self.sacked.partition_point(|b| b.1 <= from);
        let &(l, r) = self.sacked.get(i)?;
        let hole = if l > from {
            from
        } else {
            // Inside a block: the hole after it, if another block follows.
            self.sacked.get(i + 1)?;
            r
        };
        self.next_retran = hole;
        Some(hole)
    }

    /// `seq` was retransmitted (ns-2 `MarkRetran`).
    pub fn mark_retransmitted(&mut self, seq: i64) {
        self.next_retran = self.next_retran.max(seq + 1);
    }
}

/// Sack1's recovery state.
#[derive(Debug, Clone, Default)]
pub struct Sack {
    board: Scoreboard,
    pub fast_recovery: bool,
    /// Estimate of packets in the network during fast recovery (ns-2 `pipe_`).
    pipe: i64,
    /// Cumulative ACK as of the last new ACK outside recovery (ns-2
    /// `last_ack_`); `highest_ack` also moves on partial ACKs.
    last_ack: i64,
    /// A timeout happened and no new ACK has come since (ns-2 `timeout_`).
    timed_out: bool,
}

impl Sack {
    pub fn new() -> Self {
        Sack { last_ack: -1, ..Default::default() }
    }

    /// Whether the window `win` lets another packet go: outside recovery
    /// from `last_ack`; in it while `pipe < cwnd`, or, `by_flight` (Wei's
    /// patched build), while `pipe <= win`.
    fn open(&self, s: &SendState, win: i64, by_flight: bool) -> bool {
        if !self.fast_recovery {
            s.t_seqno <= self.last_ack + win
        } else if by_flight {
            self.pipe <= win
        } else {
            self.pipe < s.w.cwnd as i64
        }
    }

    /// Packets in flight with the ACK point outside recovery at `last_ack`.
    fn in_flight_from(&self, s: &SendState, last_ack: i64) -> i64 {
        if self.fast_recovery {
            self.pipe
        } else {
            s.t_seqno - last_ack
        }
    }

    /// Third duplicate ACK (ns-2 `Sack1TcpAgent::dupack_action`).
    fn fast_retransmit(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        let recovered = s.highest_ack > s.recover;
        if !(recovered || s.highest_ack == 0) {
            return;
        }
        self.pipe = s.maxseq - s.highest_ack - i64::from(DUPACK_THRESHOLD);
        self.fast_recovery = true;
        self.board.mark_retransmitted(s.highest_ack + 1);
        s.enter_recovery(s.maxseq, s.windowd(), self.in_flight(s), now);
        s.output(self.last_ack + 1, now, out);
    }
}

impl LossRecovery for Sack {
    fn uses_sack(&self) -> bool {
        true
    }

    /// Sack1's ACK processing (ns-2 `Sack1TcpAgent::recv`).
    fn on_ack(&mut self, s: &mut SendState, ackno: i64, options: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        let blocks = options.sack.as_slice();
        if !self.fast_recovery {
            if ackno > self.last_ack {
                s.open_window(ackno, now, true, |s| self.in_flight_from(s, ackno));
                self.last_ack = ackno;
                self.timed_out = false;
                self.board.clear();
            } else if ackno == self.last_ack && !self.timed_out && self.board.update(s.highest_ack, blocks) {
                s.dupacks += 1;
                if s.dupacks == DUPACK_THRESHOLD {
                    self.fast_retransmit(s, now, out);
                } else if s.dupacks < DUPACK_THRESHOLD {
                    s.limited_transmit(now, out);
                }
            }
            if s.dupacks == 0 {
                self.send_much(s, now, out);
            }
            return;
        }
        self.pipe -= 1;
        if ackno >= s.recover {
            // Full ACK: recovery is over, the window stays where it was cut.
            s.recover = 0;
            self.fast_recovery = false;
            s.new_ack(ackno, now);
            self.last_ack = ackno;
            self.timed_out = false;
            self.board.clear();
        } else if ackno > s.highest_ack {
            // Partial ACK (ns-2 with `partial_ack_ false`).
            s.highest_ack = ackno;
            self.board.update(ackno, blocks);
            self.pipe -= 1;
            s.newtimer(ackno, now);
            s.rtt.end_backoff();
            s.stats.partial_acks += 1;
        } else if !self.timed_out && self.board.update(s.highest_ack, blocks) && s.dupacks > 0 {
            s.dupacks += 1;
        }
        self.send_much(s, now, out);
    }

    /// Sack1's sending rule (ns-2 `Sack1TcpAgent::send_much`): outside
    /// recovery the window from `last_ack`, inside it `pipe < cwnd` (with
    /// `tcp.window_cut = "flight"`, Wei's patched build: `pipe <= window`);
    /// holes first, then new data up to the advertised window.
    fn send_much(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        // The window as before the pacer's step (ns-2 reads it first; the
        // step may move Wei's inflation), read again after a retransmission.
        let mut win = s.window(0);
        let flight = self.in_flight(s) as f64;
        let Some(most) = s.pace_begin(now, |cwnd| flight >= cwnd) else {
            return;
        };
        let wnd = s.wnd as i64;
        let mut sent = 0;
        let mut found = true;
        while sent < most && self.open(s, win, s.cut_from_flight) {
            if s.pacing_holds(now) {
                return;
            }
            let seq = match self.board.next_hole() {
                Some(hole) if s.recover > 0 && hole <= s.highest_ack + wnd => {
                    self.board.mark_retransmitted(hole);
                    win = s.window(0);
                    hole
                }
                Some(_) => {
                    found = false;
                    break;
                }
                None => {
                    let limit = s.highest_ack + if self.fast_recovery { wnd } else { win };
                    if s.t_seqno > limit || !s.has_data(s.t_seqno) {
                        found = false;
                        break;
                    }
                    s.t_seqno
                }
            };
            s.output(seq, now, out);
            s.t_seqno = s.t_seqno.max(seq + 1);
            self.pipe += 1;
            s.paced(now);
            sent += 1;
        }
        // Wei's timer, if the stock rule would send again (the patch's test).
        s.pace_end(now, found && self.open(s, win, false) && s.has_data(s.t_seqno));
    }

    /// Sack1's timeout (ns-2 `Sack1TcpAgent::timeout`): the scoreboard is
    /// forgotten and duplicates ignored until a new ACK; then the common one.
    fn on_timeout(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        self.fast_recovery = false;
        self.timed_out = true;
        self.last_ack = self.last_ack.max(s.highest_ack);
        self.board.clear();
        s.go_back_n(now, s.windowd(), self.in_flight(s));
        self.send_much(s, now, out);
    }

    /// `pipe` in fast recovery, else `t_seqno - last_ack` (ns-2
    /// `Sack1TcpAgent::packet_in_flight`).
    fn in_flight(&self, s: &SendState) -> i64 {
        self.in_flight_from(s, self.last_ack)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::reno::Reno;
    use crate::tcp::rtt::RttEstimator;

    /// In recovery the stock rule sends while pipe < cwnd; Wei's patched
    /// build while pipe <= the window (its `packet_in_flight() <= win`),
    /// one packet more; outside recovery both send up to last_ack + window.
    #[test]
    fn the_patched_build_fills_the_pipe_to_the_window() {
        let rtt = RttEstimator::new(10_000_000, 0, 0, 1, 1);
        let mut s = SendState::new(Box::new(Reno), 1000, 2, false, rtt);
        s.w.cwnd = 20.5;
        let mut sack = Sack { fast_recovery: true, pipe: 20, ..Sack::new() };
        assert!(!sack.open(&s, 20, false) && sack.open(&s, 20, true));
        sack.pipe = 19;
        assert!(sack.open(&s, 20, false));
        sack.pipe = 21;
        assert!(!sack.open(&s, 20, true));
        let after = Sack { last_ack: 9, ..Sack::new() };
        s.t_seqno = 29;
        assert!(after.open(&s, 20, false) && after.open(&s, 20, true));
        s.t_seqno = 30;
        assert!(!after.open(&s, 20, false) && !after.open(&s, 20, true));
    }

    #[test]
    fn scoreboard_finds_holes_below_sacked_blocks_once_each() {
        let mut b = Scoreboard::default();
        b.clear();
        // ACK 9; 11..13 and 15..16 SACKed (10, 13, 14 missing).
        assert!(b.update(9, &[(15, 17), (11, 13)]));
        assert!(!b.update(9, &[(11, 12)]), "nothing new");
        assert_eq!(b.next_hole(), Some(10));
        b.mark_retransmitted(10);
        assert_eq!(b.next_hole(), Some(13));
        b.mark_retransmitted(13);
        assert_eq!(b.next_hole(), Some(14));
        b.mark_retransmitted(14);
        assert_eq!(b.next_hole(), None, "nothing above 17 is known lost");
        // A partial ACK of 13 merges nothing new but moves the base; a block
        // touching 15 merges with it.
        assert!(b.update(13, &[(17, 18)]));
        assert_eq!(b.sacked, vec![(15, 18)]);
        b.clear();
        b.update(13, &[(15, 18)]);
        assert_eq!(b.next_hole(), Some(14));
    }
}
