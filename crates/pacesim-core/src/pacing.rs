//! Pacers: components that hold packets back to smooth traffic before it
//! meets a small buffer. In front of a link: [`edge`], the optimal
//! delay-bounded pacer of paper E Sec 2.1 (Sivaraman et al. 2009), and
//! [`qlbp`], Queue Length Based Pacing (paper Q); at the sender, TCP
//! pacing (paper W) is part of the sender (`tcp::pacing`). [`spec`] says
//! where a scenario paces and how. [`taut_string`] is the offline optimum
//! the edge pacer is measured against.

pub mod edge;
pub mod qlbp;
pub mod spec;
pub mod taut_string;

pub use edge::EdgePacer;
pub use qlbp::{Qlbp, QlbpParams};
pub use spec::{Pacing, PacingScheme};

pub use crate::metrics::DelayStats;
use crate::net::PacketId;
use crate::sim::timer::Timer;
use crate::sim::Time;

/// Which pacer to put in front of a link.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PacerSpec {
    /// The edge pacer with delay bound `d`.
    Edge {
        d: Time,
    },
    Qlbp(QlbpParams),
}

impl PacerSpec {
    /// The pacer, in front of a link of `link_rate` bit/s.
    pub fn build(&self, link_rate: u64) -> Pacer {
        match *self {
            PacerSpec::Edge { d } => Pacer::Edge(EdgePacer::new(d)),
            PacerSpec::Qlbp(p) => Pacer::Qlbp(Qlbp::new(p, link_rate)),
        }
    }

    /// "edge" or "qlbp", as `pacing.scheme` names it.
    pub fn kind(&self) -> &'static str {
        match self {
            PacerSpec::Edge { .. } => "edge",
            PacerSpec::Qlbp(_) => "qlbp",
        }
    }

    /// The delay a packet should not exceed (Theorem 1 for QLBP, in steady state).
    pub fn delay_bound(&self) -> Time {
        match *self {
            PacerSpec::Edge { d } => d,
            PacerSpec::Qlbp(p) => crate::sim::time::tx_time(u64::from(p.q_max) * 1500, p.mu_max),
        }
    }
}

/// A pacer in front of a link.
#[derive(Debug, Clone)]
pub enum Pacer {
    Edge(EdgePacer),
    Qlbp(Qlbp),
}

impl Pacer {
    /// A packet arrives at `now` (after [`advance`](Self::advance) to `now`);
    /// false if the pacer drops it.
    pub fn arrive(&mut self, now: Time, id: PacketId, size: u32) -> bool {
        match self {
            Pacer::Edge(p) => {
                p.arrive(now, id, size);
                true
            }
            Pacer::Qlbp(p) => p.arrive(now, id, size),
        }
    }

    /// Release onto the link what is due by `now`, in order.
    pub fn advance(&mut self, now: Time, out: &mut Vec<PacketId>) {
        match self {
            Pacer::Edge(p) => p.advance(now, out),
            Pacer::Qlbp(p) => p.advance(now, out),
        }
    }

    pub fn next_departure(&self) -> Option<Time> {
        match self {
            Pacer::Edge(p) => p.next_departure(),
            Pacer::Qlbp(p) => p.next_departure(),
        }
    }

    pub fn timer(&mut self) -> &mut Timer {
        match self {
            Pacer::Edge(p) => &mut p.timer,
            Pacer::Qlbp(p) => &mut p.timer,
        }
    }

    pub fn queued(&self) -> usize {
        match self {
            Pacer::Edge(p) => p.queued(),
            Pacer::Qlbp(p) => p.queued(),
        }
    }

    /// Packets dropped since the window opened.
    pub fn drops(&self) -> u64 {
        match self {
            Pacer::Edge(_) => 0,
            Pacer::Qlbp(p) => p.drops,
        }
    }

    /// Open a new measurement window.
    pub fn restart_stats(&mut self) {
        match self {
            Pacer::Edge(p) => p.delays.restart(),
            Pacer::Qlbp(p) => {
                p.delays.restart();
                p.drops = 0;
            }
        }
    }

    pub fn delays(&mut self) -> &mut DelayStats {
        match self {
            Pacer::Edge(p) => &mut p.delays,
            Pacer::Qlbp(p) => &mut p.delays,
        }
    }
}

/// Random arrival sequences for the pacers' property tests: up to `max_len`
/// packets of 40-1500 B, gaps of 0 (simultaneous) to `max_gap` ns.
#[cfg(test)]
pub(crate) fn arrival_sequences(
    max_gap: Time,
    max_len: usize,
) -> impl proptest::strategy::Strategy<Value = Vec<(Time, u32)>> {
    use proptest::prelude::*;
    prop::collection::vec((0..max_gap, 40u32..=1500), 1..max_len).prop_map(|gaps| {
        let mut t = 0;
        gaps.into_iter()
            .map(|(g, s)| {
                t += g;
                (t, s)
            })
            .collect()
    })
}
