//! A link's queue discipline: which arrivals it admits. Drop-tail everywhere
//! by default; the core queue may be RED (paper E Fig. 9).

use super::{DropTail, Red};
use crate::net::red::RedConfig;
use crate::scenario::{Core, QueueKind};
use crate::sim::rng::stream;
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

#[derive(Debug, Clone)]
pub enum Queue {
    DropTail(DropTail),
    Red(Red),
}

impl From<DropTail> for Queue {
    fn from(q: DropTail) -> Self {
        Queue::DropTail(q)
    }
}

impl PartialEq<DropTail> for Queue {
    fn eq(&self, other: &DropTail) -> bool {
        matches!(self, Queue::DropTail(q) if q == other)
    }
}

impl Queue {
    /// The queue `core` describes; RED draws from the stream ("core.red",
    /// `half`) of the master `seed` (0 for the core's forward half, 1 for
    /// its reverse half under two-way traffic).
    pub fn core(core: &Core, seed: u64, half: u64) -> Self {
        match core.queue {
            QueueKind::Droptail => {
                DropTail { limit_bytes: Some(core.buffer), limit_packets: core.buffer_packets }.into()
            }
            QueueKind::Red => {
                let r = &core.red;
                let unit = if r.byte_mode { 1.0 } else { r.mean_packet as f64 };
                let config = RedConfig {
                    min_th: r.min_th(core.buffer) as f64 / unit,
                    max_th: r.max_th(core.buffer) as f64 / unit,
                    max_p: r.max_p,
                    w_q: r.w_q,
                    gentle: r.gentle,
                    byte_mode: r.byte_mode,
                    mean_pktsize: r.mean_packet as u32,
                    limit: if r.byte_mode { core.buffer } else { core.buffer / r.mean_packet },
                    rate_bps: core.rate,
                };
                Queue::Red(Red::new(config, stream(seed, "core.red", half)))
            }
        }
    }

    /// Byte limit: drop-tail's, or RED's hard limit in byte mode.
    pub fn limit_bytes(&self) -> Option<u64> {
        match self {
            Queue::DropTail(q) => q.limit_bytes,
            Queue::Red(r) => r.config.byte_mode.then_some(r.config.limit),
        }
    }

    /// Packet limit: drop-tail's, or RED's hard limit in packet mode.
    pub fn limit_packets(&self) -> Option<u64> {
        match self {
            Queue::DropTail(q) => q.limit_packets,
            Queue::Red(r) => (!r.config.byte_mode).then_some(r.config.limit),
        }
    }

    /// Whether the arriving packet is admitted.
    #[inline]
    pub fn admits(&mut self, a: &Arrival) -> bool {
        match self {
            Queue::DropTail(q) => q.admits(a.queued_bytes, a.queued_packets, u64::from(a.size)),
            Queue::Red(q) => q.admits(a),
        }
    }
}
