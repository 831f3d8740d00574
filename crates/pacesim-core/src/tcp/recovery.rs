//! Loss recovery: what a sender does with duplicate ACKs, partial ACKs and
//! timeouts, and when it may send (the loss-recovery seam, as ns-3's
//! `TcpRecoveryOps`). Each recovery is a file implementing [`LossRecovery`]
//! over the sender's shared [`SendState`] and keeps only its own state:
//! [`reno`] (Reno and NewReno), [`sack`] (SACK, Fall and Floyd's Sack1),
//! [`fack`] (forward acknowledgment), [`rfc6675`] (RFC 6675's SACK recovery
//! with Linux's SACK kept through a timeout and lost retransmissions found).
//! [`Recovery`] is the registry.

pub mod fack;
pub mod reno;
pub mod rfc6675;
pub mod sack;

use super::state::SendState;
use crate::net::TcpOptions;
use crate::sim::Time;

pub use fack::Fack;
pub use reno::RenoRecovery;
pub use rfc6675::Rfc6675;
pub use sack::Sack;

/// What the sender asks of its loss recovery. Sequence numbers to
/// transmit are appended to `out`.
pub trait LossRecovery {
    /// An ACK of cumulative sequence `ackno` with TCP `options` arrived at `now`.
    fn on_ack(&mut self, s: &mut SendState, ackno: i64, options: &TcpOptions, now: Time, out: &mut Vec<i64>);

    /// Send what the window allows (ns-2 `send_much`).
    fn send_much(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>);

    /// The retransmission timer expired.
    fn on_timeout(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>);

    /// Packets in flight as Wei's ns-2 patch counts them (its
    /// `packet_in_flight`, from which it cuts the window, `tcp.window_cut`).
    fn in_flight(&self, s: &SendState) -> i64;

    /// Whether this recovery needs a sink that reports SACK blocks.
    fn uses_sack(&self) -> bool {
        false
    }
}

/// The loss recoveries a sender may have: the seam's registry. A new one is
/// a file beside this one implementing [`LossRecovery`], a variant here and
/// an arm in `dispatch!` (and its choice by the variants that use it, in
/// their registry, `tcp/spec.rs`). A scoreboard is boxed: a sender carries
/// its recovery inline, and Reno's 8 bytes would otherwise take FACK's 80
/// (64 MB more for a million Reno senders).
#[derive(Debug, Clone)]
pub enum Recovery {
    Reno(RenoRecovery),
    Sack(Box<Sack>),
    Fack(Box<Fack>),
    Rfc6675(Box<Rfc6675>),
}

impl Recovery {
    /// Fast recovery ends at the first new ACK (ns-2 `Agent/TCP/Reno`).
    pub fn reno() -> Self {
        Recovery::Reno(RenoRecovery::new(false))
    }

    /// Partial ACKs keep fast recovery going (ns-2 `Agent/TCP/Newreno`).
    pub fn newreno() -> Self {
        Recovery::Reno(RenoRecovery::new(true))
    }

    /// A SACK scoreboard and a pipe estimate (ns-2 `Agent/TCP/Sack1`).
    pub fn sack() -> Self {
        Recovery::Sack(Box::new(Sack::new()))
    }

    /// Forward acknowledgment, with or without rampdown (ns-2 `Agent/TCP/Fack`).
    pub fn fack(rampdown: bool) -> Self {
        Recovery::Fack(Box::new(Fack::new(rampdown)))
    }

    /// RFC 6675's scoreboard, pipe and `NextSeg()`, SACK kept through a
    /// timeout and lost retransmissions sent again (Linux's recovery).
    pub fn rfc6675() -> Self {
        Recovery::Rfc6675(Box::new(Rfc6675::new()))
    }
}

/// `$body` with `$r` bound to the recovery a [`Recovery`] holds: the one
/// place a `Recovery` is matched (statically, so each call inlines).
macro_rules! dispatch {
    ($recovery:expr, $r:ident => $body:expr) => {
        match $recovery {
            Recovery::Reno($r) => $body,
            Recovery::Sack($r) => $body,
            Recovery::Fack($r) => $body,
            Recovery::Rfc6675($r) => $body,
        }
    };
}

impl LossRecovery for Recovery {
    #[inline]
    fn on_ack(&mut self, s: &mut SendState, ackno: i64, options: &TcpOptions, now: Time, out: &mut Vec<i64>) {
        dispatch!(self, r => r.on_ack(s, ackno, options, now, out))
    }

    #[inline]
    fn send_much(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        dispatch!(self, r => r.send_much(s, now, out))
    }

    fn on_timeout(&mut self, s: &mut SendState, now: Time, out: &mut Vec<i64>) {
        dispatch!(self, r => r.on_timeout(s, now, out))
    }

    fn in_flight(&self, s: &SendState) -> i64 {
        dispatch!(self, r => r.in_flight(s))
    }

    fn uses_sack(&self) -> bool {
        dispatch!(self, r => r.uses_sack())
    }
}
