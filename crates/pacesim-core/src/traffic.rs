//! Applications driving the network: long-lived bulk transfers behind the
//! TCP senders (ns-2 FTP: always data to send), each starting at a time
//! drawn from the "flow.start" stream of its flow; closed-loop users of
//! short-lived transfers ([`short`]), starting alike; TCP connections
//! replayed from Tmix connection vectors ([`tmix`]); and open-loop
//! real-time sources ([`udp`]) injecting datagrams on their own routes,
//! among them video frame traces ([`frame_trace`] reads them, [`video`] cuts them
//! into packets).

pub mod fbm;
pub mod frame_trace;
pub mod short;
pub mod sizes;
pub mod tmix;
pub mod udp;
pub mod video;

use crate::sim::rng::{stream, uniform};
use crate::sim::Time;
use crate::spec::Range;

/// Start time of bulk flow `flow`, uniform over `range`.
pub fn bulk_start(seed: u64, flow: u64, range: Range) -> Time {
    uniform(&mut stream(seed, "flow.start", flow), range)
}
