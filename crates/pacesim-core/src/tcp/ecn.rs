//! ECN at the TCP ends (RFC 3168 Sec 6.1; DCTCP's echo, RFC 8257 Sec 3.2):
//! what an ECN-capable sender puts on its data and does with an echo
//! ([`EcnSender`]), and how a sink echoes the marks ([`EcnEcho`]). How
//! much a sender cuts is its congestion control's
//! (`CongestionControl::on_ece`, DCTCP's alpha in `tcp::dctcp`).
//!
//! Sender (RFC 3168 Sec 6.1.2), for every ECN-capable variant:
//! - its new data carries ECT; a retransmission does not ("the TCP sender
//!   MUST NOT set an ECT codepoint on retransmitted data packets", Sec
//!   6.1.5), except DCTCP's, whose every data packet is ECT (Linux sets ECT
//!   on everything a congestion control that needs ECN sends, SYN and
//!   retransmissions included);
//! - an ACK with ECE cuts the window once per window of data: "the TCP
//!   source halves the congestion window cwnd and reduces the slow start
//!   threshold ssthresh" (DCTCP: by alpha / 2), then no cut for an echo
//!   until the ACK passes the highest packet sent at the cut, nor for one
//!   inside a loss recovery's window (whose cut covers it); "the TCP source
//!   should not increase the congestion window in response to the receipt
//!   of an ECN-Echo ACK packet" that cut it; DCTCP's, as Linux's, does
//!   not increase it on any ACK of the window it cut (Linux holds the CWR
//!   state, in which `tcp_cong_control` reduces cwnd and never raises it,
//!   until `snd_una` passes `high_seq`, the next sequence number to send at
//!   the cut; ns-3's `TcpSocketBase` likewise, its CA_CWR until the ACK
//!   passes `m_recover`), unless a loss recovery or a timeout began since,
//!   whose own rules then govern the window (Linux: Recovery or Loss
//!   replaces CWR);
//! - the first new data after a cut carries CWR;
//! - a fast retransmit inside the window an echo cut does not cut again
//!   (Linux: entering recovery while in CWR keeps ssthresh; ns-2: no cut
//!   after `CWND_ACTION_ECN` in the same window); a timeout cuts.
//!
//! Sink: a classic (RFC 3168) sink sets ECE on every ACK from a CE
//! arrival until a data packet with CWR arrives. A DCTCP sink echoes each
//! packet's CE on its own ACK (RFC 8257 Sec 3.2): with delayed ACKs, when
//! the CE bit differs from the last packet's, the ACK pending for the
//! packets before it goes at once with the old ECE, and this packet is
//! acknowledged at once with the new one (Linux `dctcp_ece_ack_update`),
//! so that each ACK covers packets of one kind.

use crate::net::packet::ecn;

/// How a flow uses ECN: not at all, classic RFC 3168, or DCTCP's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EcnMode {
    #[default]
    Off,
    /// RFC 3168: ECT on new data, ECE latched at the sink until CWR.
    Classic,
    /// RFC 8257: ECT on every data packet, ECE per packet at the sink.
    Dctcp,
}

/// An ECN-capable sender's state beside its window.
#[derive(Debug, Default)]
pub(in crate::tcp) struct EcnSender {
    pub(in crate::tcp) mode: EcnMode,
    /// The highest sequence number sent at the last cut by ECE: echoes on
    /// ACKs up to it are of the same window (-1 before any).
    pub(in crate::tcp) recover: i64,
    /// CWR goes on the next new data packet.
    cwr: bool,
    /// This ACK's echo cut the window: it does not also open it.
    pub(in crate::tcp) just_cut: bool,
    /// The ECN bits of each packet the sender emitted since the caller last
    /// took them, in the order of their sequence numbers in its output.
    pub(in crate::tcp) bits: Vec<u8>,
}

impl EcnSender {
    pub(in crate::tcp) fn new(mode: EcnMode) -> Self {
        EcnSender { mode, recover: -1, ..Default::default() }
    }

    /// Data packet `seq` goes out, `new` if never sent before; `syn`: it
    /// is the SYN. Its ECN bits are kept for the caller.
    pub(in crate::tcp) fn sent(&mut self, new: bool, syn: bool) {
        let bits = match self.mode {
            EcnMode::Off => 0,
            EcnMode::Dctcp => ecn::ECT,
            EcnMode::Classic if new && !syn => {
                ecn::ECT | if std::mem::take(&mut self.cwr) { ecn::CWR } else { 0 }
            }
            EcnMode::Classic => 0,
        };
        self.bits.push(bits);
    }

    /// Whether an ACK that moved the ACK point to `highest_ack` leaves the
    /// window as it is (see the module's text): classic, the ACK whose
    /// echo cut it; DCTCP, every ACK up to the highest packet sent at the
    /// cut, while the loss recovery's point (`loss_recover`, raised by a
    /// fast retransmit or a timeout) is still below it.
    pub(in crate::tcp) fn holds_window(&self, highest_ack: i64, loss_recover: i64) -> bool {
        match self.mode {
            EcnMode::Dctcp => highest_ack <= self.recover && loss_recover < self.recover,
            _ => self.just_cut,
        }
    }

    /// The window was cut by an echo with `maxseq` the highest sent.
    pub(in crate::tcp) fn cut(&mut self, maxseq: i64) {
        self.recover = maxseq;
        self.cwr = true;
        self.just_cut = true;
    }
}

/// A sink's ECN echo.
#[derive(Debug, Clone, Default)]
pub struct EcnEcho {
    mode: EcnMode,
    /// Classic: ECE latched since a CE arrival (until CWR). DCTCP: the CE
    /// bit of the last data packet (RFC 8257's DCTCP.CE).
    ce: bool,
    /// DCTCP: the CE bit changed with this packet: acknowledge it at once.
    pub(super) ack_now: bool,
}

impl EcnEcho {
    pub fn new(mode: EcnMode) -> Self {
        EcnEcho { mode, ..Default::default() }
    }

    /// A data packet with ECN `bits` arrives; `pending`: whether an ACK is
    /// being delayed for the packets before it. DCTCP: if its CE bit
    /// differs from the last packet's and an ACK is pending, that ACK goes
    /// now with the old ECE: returned as that ECE (the caller sends it for
    /// the packets before this one and stops the delayed-ACK timer).
    pub fn arrive(&mut self, bits: u8, pending: bool) -> Option<bool> {
        let ce = bits & ecn::CE != 0;
        match self.mode {
            EcnMode::Off => None,
            EcnMode::Classic => {
                // CWR ends the echo; a CE on the same packet starts it again.
                if bits & ecn::CWR != 0 {
                    self.ce = false;
                }
                self.ce |= ce;
                None
            }
            EcnMode::Dctcp if ce != self.ce => {
                let old = std::mem::replace(&mut self.ce, ce);
                self.ack_now = true;
                pending.then_some(old)
            }
            EcnMode::Dctcp => None,
        }
    }

    /// Whether the next ACK carries ECE.
    pub fn ece(&self) -> bool {
        self.ce
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_new_data_is_ect_the_first_after_a_cut_carries_cwr_and_retransmissions_neither() {
        let mut s = EcnSender::new(EcnMode::Classic);
        s.sent(true, true); // the SYN
        s.sent(true, false);
        s.cut(1);
        s.sent(false, false); // a retransmission
        s.sent(true, false);
        s.sent(true, false);
        assert_eq!(s.bits, vec![0, ecn::ECT, 0, ecn::ECT | ecn::CWR, ecn::ECT]);
        let mut d = EcnSender::new(EcnMode::Dctcp);
        d.sent(true, true);
        d.cut(0);
        d.sent(false, false);
        assert_eq!(d.bits, vec![ecn::ECT, ecn::ECT], "DCTCP: all ECT, no CWR");
    }

    #[test]
    fn a_classic_sink_echoes_from_ce_until_cwr() {
        let mut e = EcnEcho::new(EcnMode::Classic);
        let arrivals = [
            ecn::ECT,
            ecn::ECT | ecn::CE,
            ecn::ECT,
            ecn::ECT | ecn::CWR,
            ecn::ECT,
            ecn::ECT | ecn::CWR | ecn::CE,
        ];
        let echoed: Vec<bool> = arrivals
            .iter()
            .map(|&b| {
                assert_eq!(e.arrive(b, true), None);
                e.ece()
            })
            .collect();
        assert_eq!(echoed, [false, true, true, false, false, true]);
    }

    /// RFC 8257 Sec 3.2's two-state machine: a change of CE sends the
    /// pending ACK with the old state and acknowledges this packet at once.
    #[test]
    fn a_dctcp_sink_echoes_each_packet_and_flushes_the_pending_ack_on_a_change() {
        let mut e = EcnEcho::new(EcnMode::Dctcp);
        assert_eq!((e.arrive(ecn::ECT, true), e.ack_now), (None, false));
        assert_eq!(e.arrive(ecn::ECT | ecn::CE, true), Some(false), "pending ACK flushed with ECE 0");
        assert!(e.ece() && std::mem::take(&mut e.ack_now));
        assert_eq!(e.arrive(ecn::ECT | ecn::CE, false), None);
        assert!(e.ece() && !e.ack_now);
        assert_eq!(e.arrive(ecn::ECT, false), None, "nothing pending: nothing to flush");
        assert!(!e.ece() && e.ack_now);
    }
}
