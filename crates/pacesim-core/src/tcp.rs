//! One-way TCP as ns-2 simulates it: packet-counted sequence numbers, a
//! sender agent and a sink agent, no connection handshake beyond an
//! optional SYN packet, data always available (bulk transfer).
//!
//! The sender ([`sender`]) owns sequence numbers, the retransmission timer
//! ([`rtt`]) and loss recovery; how the window grows and shrinks is a
//! [`cc::CongestionControl`] chosen by name ([`reno`] so far).

pub mod cc;
pub mod reno;
pub mod rtt;
pub mod sender;
pub mod sink;

pub use cc::{Congestion, CongestionControl, Window};
pub use sender::TcpSender;
pub use sink::TcpSink;

use crate::scenario::TcpVariant;

/// The congestion control a variant name selects.
pub fn congestion_control(variant: TcpVariant) -> Box<dyn CongestionControl> {
    match variant {
        TcpVariant::Reno => Box::new(reno::Reno),
    }
}
