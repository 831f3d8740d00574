//! A link's queue discipline: which arrivals it admits, and which packet
//! it drops. Drop-tail everywhere by default; the core queue may be RED
//! (paper E Fig. 9); a discipline from outside the crate goes in `Other`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::discipline::{Arrival, Discipline, OtherDiscipline, Verdict};
use super::red::{RedConfig, RedParams};
use super::{DropTail, Red};
use crate::sim::rng::stream;
use crate::spec::InvalidField;

/// The core link (E-base's C0 -> C1; the bottleneck of every named
/// topology; a graph's link with core = true) and its queue: drop-tail, or
/// RED with `red`. A scenario leaving out its rate, delay or buffer takes
/// its topology's (the topology spec's `x-core`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Core {
    /// The core link's rate, bit/s; absent: the topology's (E-base: 100 Mb/s, paper E Sec 3.1).
    #[schemars(extend("x-unit" = "bit/s"), range(min = 1))]
    pub rate: u64,
    /// The core link's one-way propagation delay, ns; absent: the topology's (E-base: 100 ms).
    #[schemars(extend("x-unit" = "ns"))]
    pub delay: u64,
    /// Drop-tail limit in bytes (ns-2 DropTail byte mode: a packet is dropped
    /// when bytes waiting + its size >= it); absent: the topology's (E-base: 10 KB).
    #[schemars(extend("x-unit" = "bytes"))]
    pub buffer: u64,
    /// Drop-tail limit in packets, alone or with `buffer` (paper Q counts its
    /// core buffer in packets); drop-tail only.
    #[serde(default)]
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    pub buffer_packets: Option<u64>,
    /// The core queue's discipline: drop-tail, or RED with `[core.red]` (paper E Fig. 9).
    #[serde(default)]
    pub queue: QueueKind,
    /// RED's parameters, used when `queue` is `red`.
    #[serde(default)]
    pub red: RedParams,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum QueueKind {
    /// ns-2 `Queue/DropTail` in byte mode, limit `buffer`.
    #[default]
    Droptail,
    /// Floyd-Jacobson RED as ns-2 `Queue/RED` (see `net::red`), hard limit `buffer`.
    Red,
}

impl Core {
    /// Check the core link and its queue; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        if self.queue == QueueKind::Red {
            self.red.validate(self.buffer, self.buffer_packets)?;
        }
        Ok(())
    }
}

/// The disciplines a link's queue may have: the seam's registry.
#[derive(Debug, Clone)]
pub enum Queue {
    DropTail(DropTail),
    Red(Red),
    /// A discipline written outside the crate (called through a pointer).
    Other(Box<dyn OtherDiscipline>),
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
}

/// `$body` with `$q` bound to the discipline a [`Queue`] holds: the one
/// place a `Queue` is matched (statically, so each call inlines).
macro_rules! dispatch {
    ($queue:expr, $q:ident => $body:expr) => {
        match $queue {
            Queue::DropTail($q) => $body,
            Queue::Red($q) => $body,
            Queue::Other($q) => $body,
        }
    };
}

impl Discipline for Queue {
    #[inline]
    fn verdict(&mut self, a: &Arrival) -> Verdict {
        dispatch!(self, q => q.verdict(a))
    }

    fn drops_queued(&self) -> bool {
        dispatch!(self, q => q.drops_queued())
    }

    fn limit_bytes(&self) -> Option<u64> {
        dispatch!(self, q => q.limit_bytes())
    }

    fn limit_packets(&self) -> Option<u64> {
        dispatch!(self, q => q.limit_packets())
    }
}
