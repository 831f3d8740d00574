//! Pacers: components that hold packets back to smooth traffic before it
//! meets a small buffer. In front of a link: [`edge`], the optimal
//! delay-bounded pacer of paper E Sec 2.1 (Sivaraman et al. 2009), and
//! [`qlbp`], Queue Length Based Pacing (paper Q). At the sender: [`host`],
//! TCP pacing (paper W). [`taut_string`] is the offline optimum the edge
//! pacer is measured against.

pub mod edge;
pub mod host;
pub mod qlbp;
pub mod taut_string;

pub use edge::EdgePacer;
pub use host::HostPacer;
pub use qlbp::{Qlbp, QlbpParams};

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

/// Pacing delays seen by a pacer: count, mean, maximum, and a histogram
/// with 1000 log-spaced bins from 1 us to 1000 s (2 % wide) for the 99th
/// percentile.
#[derive(Debug, Clone)]
pub struct DelayStats {
    pub count: u64,
    pub sum: u128,
    pub max: Time,
    bins: Vec<u64>,
}

const BINS: usize = 1000;
/// Decades the bins span, from 1 us (1e3 ns) up.
const DECADES: f64 = 9.0;

impl Default for DelayStats {
    fn default() -> Self {
        DelayStats { count: 0, sum: 0, max: 0, bins: vec![0; BINS] }
    }
}

impl DelayStats {
    /// Forget what was seen (a new measurement window).
    pub fn restart(&mut self) {
        *self = DelayStats::default();
    }

    pub fn record(&mut self, delay: Time) {
        self.count += 1;
        self.sum += u128::from(delay);
        self.max = self.max.max(delay);
        let position = (delay as f64 / 1e3).max(1.0).log10() / DECADES * BINS as f64;
        self.bins[(position as usize).min(BINS - 1)] += 1;
    }

    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// 99th percentile, to within 2 % (and never above the maximum).
    pub fn p99(&self) -> Time {
        let target = (self.count * 99).div_ceil(100);
        let mut seen = 0;
        for (i, &n) in self.bins.iter().enumerate() {
            seen += n;
            if n > 0 && seen >= target {
                let upper = 1e3 * 10f64.powf((i + 1) as f64 * DECADES / BINS as f64);
                return (upper as Time).min(self.max);
            }
        }
        self.max
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p99_is_within_two_percent() {
        let mut d = DelayStats::default();
        for i in 1..=1000u64 {
            d.record(i * 10_000); // 10 us .. 10 ms
        }
        let p99 = d.p99() as f64;
        assert!((p99 / 9_900_000.0 - 1.0).abs() <= 0.021, "{p99}");
        assert_eq!(d.max, 10_000_000);
        assert!((d.mean() - 5_005_000.0).abs() < 1e-6);
    }
}
