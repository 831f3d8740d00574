//! The core link's spec (E-base's C0 -> C1; the bottleneck of every named
//! topology; a graph's link with core = true): its rate, delay, buffer and
//! queue discipline, as a scenario's `[core]` gives them. `Queue::core`
//! builds its queue.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::codel::CodelParams;
use super::red::RedParams;
use crate::spec::InvalidField;

/// The core link (E-base's C0 -> C1; the bottleneck of every named
/// topology; a graph's link with core = true) and its queue: drop-tail,
/// RED with `red`, or CoDel with `codel`. A scenario leaving out its rate, delay or buffer takes
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
    /// The core queue's discipline: drop-tail, RED with `[core.red]` (paper
    /// E Fig. 9), or CoDel with `[core.codel]` (RFC 8289).
    #[serde(default)]
    pub queue: QueueKind,
    /// RED's parameters, used when `queue` is `red`.
    #[serde(default)]
    pub red: RedParams,
    /// CoDel's parameters, used when `queue` is `codel`.
    #[serde(default)]
    pub codel: CodelParams,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum QueueKind {
    /// ns-2 `Queue/DropTail` in byte mode, limit `buffer`.
    #[default]
    Droptail,
    /// Floyd-Jacobson RED as ns-2 `Queue/RED` (see `net::red`), hard limit `buffer`.
    Red,
    /// CoDel (RFC 8289, see `net::codel`): drops at dequeue once packets
    /// have waited above `target` for an `interval`; hard limit `buffer`
    /// (and `buffer_packets`) at arrival.
    Codel,
}

impl Core {
    /// Check the core link and its queue; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        match self.queue {
            QueueKind::Red => self.red.validate(self.buffer, self.buffer_packets)?,
            QueueKind::Codel => self.codel.validate("core.codel")?,
            QueueKind::Droptail => {}
        }
        Ok(())
    }
}
