//! The queue-discipline seam: what a discipline sees of an arriving packet.

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
