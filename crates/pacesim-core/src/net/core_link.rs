//! The core link's spec (E-base's C0 -> C1; the bottleneck of every named
//! topology; a graph's link with core = true): its rate, delay, buffer and
//! queue discipline, as a scenario's `[core]` gives them. `Queue::core`
//! builds its queue.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::codel::CodelParams;
use super::fq_codel::FqCodelParams;
use super::pie::PieParams;
use super::red::RedParams;
use crate::spec::InvalidField;

/// The core link (E-base's C0 -> C1; the bottleneck of every named
/// topology; a graph's link with core = true) and its queue: drop-tail,
/// RED with `red`, CoDel with `codel`, FQ-CoDel with `fq_codel` (and
/// `codel`), or PIE with `pie`. A scenario leaving out its rate, delay or buffer takes
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
    /// E Fig. 9), CoDel with `[core.codel]` (RFC 8289), FQ-CoDel with
    /// `[core.fq_codel]` and `[core.codel]` (RFC 8290), or PIE with
    /// `[core.pie]` (RFC 8033).
    #[serde(default)]
    pub queue: QueueKind,
    /// RED's parameters, used when `queue` is `red`.
    #[serde(default)]
    pub red: RedParams,
    /// CoDel's parameters, used when `queue` is `codel`, and by each flow
    /// queue when it is `fq_codel`.
    #[serde(default)]
    pub codel: CodelParams,
    /// FQ-CoDel's parameters, used when `queue` is `fq_codel`.
    #[serde(default)]
    pub fq_codel: FqCodelParams,
    /// PIE's parameters, used when `queue` is `pie`.
    #[serde(default)]
    pub pie: PieParams,
}

impl Core {
    /// A drop-tail core of `rate` bit/s, `delay` ns and `buffer` bytes,
    /// every other discipline's parameters at their defaults.
    pub fn droptail(rate: u64, delay: u64, buffer: u64) -> Self {
        Core {
            rate,
            delay,
            buffer,
            buffer_packets: None,
            queue: QueueKind::Droptail,
            red: RedParams::default(),
            codel: CodelParams::default(),
            fq_codel: FqCodelParams::default(),
            pie: PieParams::default(),
        }
    }
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
    /// FQ-CoDel (RFC 8290, see `net::fq_codel`): flows hashed into queues
    /// served by deficit round robin, each with its own CoDel; an overflow
    /// of `buffer` (or `buffer_packets`, or its `limit`) drops from the
    /// largest queue.
    #[serde(rename = "fq_codel")]
    FqCodel,
    /// PIE (RFC 8033, see `net::pie`): arrivals dropped at random with a
    /// probability updated every `t_update` from the queue delay; hard
    /// limit `buffer` (and `buffer_packets`, and its `limit`) at arrival.
    Pie,
}

impl Core {
    /// Check the core link and its queue; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        match self.queue {
            QueueKind::Red => self.red.validate(self.buffer, self.buffer_packets),
            kind => self.knobs().validate(kind, "core"),
        }
    }

    /// The knobs of the disciplines `[core]` gives.
    pub fn knobs(&self) -> Knobs<'_> {
        Knobs { codel: &self.codel, fq_codel: &self.fq_codel, pie: &self.pie }
    }
}

/// The knobs of the disciplines a link may take, as its table (`[core]`,
/// a graph link's half) gives them, each used when its queue is of that kind.
#[derive(Debug, Clone, Copy)]
pub struct Knobs<'a> {
    pub codel: &'a CodelParams,
    pub fq_codel: &'a FqCodelParams,
    pub pie: &'a PieParams,
}

impl Knobs<'_> {
    /// Check the knobs a queue of `kind` uses, given in the table at `at`
    /// (`core`); the error names the field. RED's are the core's own.
    pub fn validate(&self, kind: QueueKind, at: &str) -> Result<(), InvalidField> {
        match kind {
            // PIE's knobs, and FQ-CoDel's own, have only the schema's bounds.
            QueueKind::Droptail | QueueKind::Red | QueueKind::Pie => Ok(()),
            // FQ-CoDel's flow queues each run CoDel with `codel`.
            QueueKind::Codel | QueueKind::FqCodel => self.codel.validate(&format!("{at}.codel")),
        }
    }
}
