//! The queue-discipline seam: what a discipline sees of an arriving
//! packet, and what the link asks of it.

use crate::sim::Time;

/// What a queue sees of an arriving packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    pub now: Time,
    /// When the link went idle with nothing queued, if it is idle now.
    pub idle_since: Option<Time>,
    /// Bytes and packets waiting (not counting the one on the wire).
    pub queued_bytes: u64,
    pub queued_packets: u64,
    pub size: u32,
}

/// A queue discipline: which arrivals a link's FIFO queue admits. A new
/// discipline is a file beside this one implementing it, a variant of
/// `net::Queue` and an arm in its `dispatch!`.
pub trait Discipline {
    /// Whether the arriving packet is admitted.
    fn admits(&mut self, a: &Arrival) -> bool;

    /// The byte limit an arrival never passes, if any.
    fn limit_bytes(&self) -> Option<u64>;

    /// The packet limit an arrival never passes, if any.
    fn limit_packets(&self) -> Option<u64>;
}
