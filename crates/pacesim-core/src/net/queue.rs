//! A link's queue discipline: which arrivals it admits, and which packet
//! it drops. Drop-tail everywhere by default; the core queue may be RED
//! (paper E Fig. 9), CoDel (RFC 8289), FQ-CoDel (RFC 8290) or PIE (RFC
//! 8033), a written-out graph's links any of them but RED; a discipline
//! from outside the crate goes in `Other`.

use rand::RngCore;

use super::core_link::{Core, QueueKind, QueueKnobs};
use super::discipline::{Arrival, Discipline, Limits, OtherDiscipline, Queued, Verdict};
use super::red::RedConfig;
use super::threshold::Threshold;
use super::{Codel, DropTail, FqCodel, Pie, Red};
use crate::sim::rng::{stream, Stream};
use crate::sim::Time;

/// The disciplines a link's queue may have: the seam's registry.
#[derive(Debug, Clone)]
pub enum Queue {
    DropTail(DropTail),
    /// Drop-tail marking at a threshold (`[core.droptail]`).
    Threshold(Threshold),
    Red(Red),
    Codel(Codel),
    FqCodel(FqCodel),
    Pie(Pie),
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
    /// its reverse half under two-way traffic), the others from ("core.queue", `half`).
    pub fn core(core: &Core, seed: u64, half: u64) -> Self {
        match core.queue {
            QueueKind::Droptail | QueueKind::Codel | QueueKind::FqCodel | QueueKind::Pie => Queue::of(
                core.queue,
                DropTail { limit_bytes: Some(core.buffer), limit_packets: core.buffer_packets },
                &core.knobs,
                stream(seed, "core.queue", half),
            ),
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
                    ecn: r.ecn,
                };
                Queue::Red(Red::new(config, stream(seed, "core.red", half)))
            }
        }
    }
}

impl Queue {
    /// A queue of `kind` that is not RED (whose thresholds and random
    /// stream are the core's), with the hard limit `limit`; FQ-CoDel
    /// draws its hash perturbation from `rng` (the link's queue stream),
    /// PIE its drops.
    pub fn of(kind: QueueKind, limit: DropTail, knobs: &QueueKnobs, mut rng: Stream) -> Self {
        match kind {
            QueueKind::Droptail if knobs.droptail.marks() => {
                Queue::Threshold(Threshold::new(limit, &knobs.droptail))
            }
            QueueKind::Droptail | QueueKind::Red => limit.into(),
            QueueKind::Codel => Queue::Codel(Codel::new(knobs.codel.clone(), limit)),
            QueueKind::FqCodel => {
                let (fq, codel) = (knobs.fq_codel.clone(), knobs.codel.clone());
                Queue::FqCodel(FqCodel::new(fq, codel, limit, rng.next_u64()))
            }
            QueueKind::Pie => Queue::Pie(Pie::new(knobs.pie.clone(), limit, rng)),
        }
    }
}

/// `$body` with `$q` bound to the discipline a [`Queue`] holds: the one
/// place a `Queue` is matched (statically, so each call inlines).
macro_rules! dispatch {
    ($queue:expr, $q:ident => $body:expr) => {
        match $queue {
            Queue::DropTail($q) => $body,
            Queue::Threshold($q) => $body,
            Queue::Red($q) => $body,
            Queue::Codel($q) => $body,
            Queue::FqCodel($q) => $body,
            Queue::Pie($q) => $body,
            Queue::Other($q) => $body,
        }
    };
}

impl Discipline for Queue {
    #[inline]
    fn verdict(&mut self, a: &Arrival) -> Verdict {
        dispatch!(self, q => q.verdict(a))
    }

    fn marks(&self) -> bool {
        dispatch!(self, q => q.marks())
    }

    fn holds(&self) -> bool {
        dispatch!(self, q => q.holds())
    }

    fn enqueue(&mut self, a: &Arrival, p: Queued, dropped: &mut Vec<Queued>) {
        dispatch!(self, q => q.enqueue(a, p, dropped))
    }

    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<Queued> {
        dispatch!(self, q => q.dequeue(now, dropped))
    }

    fn limits(&self) -> Limits {
        dispatch!(self, q => q.limits())
    }
}
