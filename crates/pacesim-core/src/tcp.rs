//! One-way TCP as ns-2 simulates it: packet-counted sequence numbers, a
//! sender agent and a sink agent, no connection handshake beyond an
//! optional SYN packet, data always available (bulk transfer).
//!
//! The sender ([`sender`]) owns sequence numbers, the retransmission timer
//! ([`rtt`]) and loss recovery; how the window grows and shrinks is a
//! [`cc::CongestionControl`] chosen by name ([`reno`], [`bic`], [`cubic`],
//! [`fast`]).

pub mod bic;
pub mod cc;
pub mod cubic;
pub mod fast;
pub mod reno;
pub mod rtt;
pub mod sender;
pub mod sink;

pub use cc::{Congestion, CongestionControl, Window};
pub use sender::TcpSender;
pub use sink::TcpSink;

use crate::scenario::{Tcp, TcpVariant};

/// How the sender recovers from a loss detected by duplicate ACKs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// Fast recovery ends at the first new ACK; a second loss in the same
    /// window waits for the timer (ns-2 `Agent/TCP/Reno`).
    Reno,
    /// Partial ACKs retransmit the next hole and keep fast recovery going
    /// until everything sent before the loss is acknowledged (ns-2
    /// `Agent/TCP/Newreno` with its defaults: partial window deflation, the
    /// timer restarted on the first partial ACK only).
    NewReno,
    /// A SACK scoreboard and a pipe estimate drive retransmission in fast
    /// recovery (ns-2 `Agent/TCP/Sack1`; see `sender::sack`).
    Sack,
    /// Forward acknowledgment: the highest SACKed packet bounds the data in
    /// the network (ns-2 `Agent/TCP/Fack`, optionally with `rampdown_`; see
    /// `sender::fack`).
    Fack { rampdown: bool },
}

impl Recovery {
    /// Whether this recovery needs a sink that reports SACK blocks.
    pub fn uses_sack(self) -> bool {
        matches!(self, Recovery::Sack | Recovery::Fack { .. })
    }
}

/// The congestion control and loss recovery `tcp.variant` selects, with their parameters.
pub fn variant(tcp: &Tcp) -> (Box<dyn CongestionControl>, Recovery) {
    match tcp.variant {
        TcpVariant::Reno => (Box::new(reno::Reno), Recovery::Reno),
        TcpVariant::Newreno => (Box::new(reno::Reno), Recovery::NewReno),
        TcpVariant::Sack => (Box::new(reno::Reno), Recovery::Sack),
        TcpVariant::Fack => (Box::new(reno::Reno), Recovery::Fack { rampdown: tcp.rampdown }),
        // The high-speed variants recover with SACK, as Linux (and ns-2's
        // Agent/TCP/Linux, paper W's BIC and FAST runs) do.
        TcpVariant::Bic => (Box::new(bic::Bic::default()), Recovery::Sack),
        TcpVariant::Cubic => (Box::new(cubic::Cubic::default()), Recovery::Sack),
        TcpVariant::Fast => (Box::new(fast::Fast::new(tcp.fast_alpha, tcp.fast_gamma)), Recovery::Sack),
    }
}
