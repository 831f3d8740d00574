//! Pacers: components that hold packets back to smooth traffic before it
//! meets a small buffer. In front of a link: [`edge`], the optimal
//! delay-bounded pacer of paper E Sec 2.1 (Sivaraman et al. 2009), and
//! [`qlbp`], Queue Length Based Pacing (paper Q); at the sender, TCP
//! pacing (paper W) is part of the sender (`tcp::host_pacing`). [`spec`] says
//! where a scenario paces and how. [`taut_string`] is the offline optimum
//! the edge pacer is measured against.

pub mod edge;
pub mod qlbp;
pub mod spec;
pub mod taut_string;

pub use edge::EdgePacer;
pub use qlbp::{Qlbp, QlbpParams, QlbpSpec};
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

/// What the engine asks of a pacer in front of a link: the link-pacer
/// seam. A pacer holds the packets that arrive and lets each out at a
/// departure time of its own; the engine puts what it lets out on the link.
pub trait LinkPacer {
    /// A packet of `size` bytes arrives at `now` (after
    /// [`advance`](Self::advance) to `now`); false if the pacer drops it.
    fn arrive(&mut self, now: Time, id: PacketId, size: u32) -> bool;

    /// Let out what is due by `now`, in order, appending it to `out`.
    fn advance(&mut self, now: Time, out: &mut Vec<PacketId>);

    /// When the next packet leaves, if one waits.
    fn next_departure(&self) -> Option<Time>;

    /// Packets waiting.
    fn queued(&self) -> usize;

    /// The rate it lets packets out at now, bit/s.
    fn rate_bps(&self) -> f64;

    /// The timer the engine arms for the next departure.
    fn timer(&mut self) -> &mut Timer;

    /// Delays of the packets let out since the window opened.
    fn delays(&mut self) -> &mut DelayStats;

    /// Packets dropped since the window opened.
    fn drops(&self) -> u64 {
        0
    }

    /// Open a new measurement window.
    fn restart_stats(&mut self) {
        self.delays().restart();
    }
}

/// The pacers the engine can put in front of a link: the seam's registry.
/// A new pacer is a file beside this one implementing [`LinkPacer`], a
/// variant here, an arm in `dispatch!` and one in [`PacerSpec`].
#[derive(Debug, Clone)]
pub enum Pacer {
    Edge(EdgePacer),
    Qlbp(Qlbp),
}

/// `$body` with `$p` bound to the pacer a [`Pacer`] holds: the one place a
/// `Pacer` is matched (statically, so each call inlines).
macro_rules! dispatch {
    ($pacer:expr, $p:ident => $body:expr) => {
        match $pacer {
            Pacer::Edge($p) => $body,
            Pacer::Qlbp($p) => $body,
        }
    };
}

impl LinkPacer for Pacer {
    #[inline]
    fn arrive(&mut self, now: Time, id: PacketId, size: u32) -> bool {
        dispatch!(self, p => p.arrive(now, id, size))
    }

    #[inline]
    fn advance(&mut self, now: Time, out: &mut Vec<PacketId>) {
        dispatch!(self, p => p.advance(now, out))
    }

    #[inline]
    fn next_departure(&self) -> Option<Time> {
        dispatch!(self, p => p.next_departure())
    }

    fn queued(&self) -> usize {
        dispatch!(self, p => p.queued())
    }

    fn rate_bps(&self) -> f64 {
        dispatch!(self, p => p.rate_bps())
    }

    fn timer(&mut self) -> &mut Timer {
        dispatch!(self, p => p.timer())
    }

    fn delays(&mut self) -> &mut DelayStats {
        dispatch!(self, p => p.delays())
    }

    fn drops(&self) -> u64 {
        dispatch!(self, p => p.drops())
    }

    fn restart_stats(&mut self) {
        dispatch!(self, p => p.restart_stats())
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
