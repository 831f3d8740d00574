//! One flow's transit delays, as ns-3's FlowMonitor keeps them per flow
//! (src/flow-monitor, `FlowStats`): the one-way delay of each packet
//! delivered, from the transmission of that very packet (a retransmission
//! is a packet of its own) to its last bit received; their sum (`delaySum`),
//! the sum of |d_i - d_(i-1)| over consecutive deliveries (`jitterSum`), and
//! a histogram for quantiles (`delayHistogram`, there linear).
//!
//! The histogram has the 2 %-wide log-spaced bins of [`DelayStats`]
//! (1 us to 1000 s), but only the run of them from the flow's least delay
//! to its greatest: a flow's delays lie within a few queues of its path's
//! fixed delay, a few to a few tens of bins (8 B each), where all 1000
//! would cost 8 KB per flow.
//!
//! [`DelayStats`]: super::DelayStats

use super::delay::{bin, quantile};
use crate::sim::Time;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Transit {
    /// Packets delivered.
    pub count: u64,
    /// Sum of their delays, ns.
    pub sum: u128,
    /// Sum over consecutive deliveries of the change in delay |d_i - d_(i-1)|, ns.
    pub jitter_sum: u128,
    /// The last delivery's delay, ns.
    last: Time,
    pub max: Time,
    /// Delays in bins `first`, `first + 1`, ... of the 2 % bins.
    first: u16,
    counts: Vec<u64>,
}

impl Transit {
    /// A packet delivered `delay` ns after it was sent.
    pub fn record(&mut self, delay: Time) {
        if self.count > 0 {
            self.jitter_sum += u128::from(delay.abs_diff(self.last));
        }
        self.last = delay;
        self.count += 1;
        self.sum += u128::from(delay);
        self.max = self.max.max(delay);
        let b = bin(delay) as u16; // < 1000 bins
        if self.counts.is_empty() {
            self.first = b;
        } else if b < self.first {
            let below = usize::from(self.first - b);
            self.counts.splice(0..0, std::iter::repeat_n(0, below));
            self.first = b;
        }
        let i = usize::from(b - self.first);
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
    }

    /// Mean delay, ns (None: nothing delivered).
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// Mean change in delay between consecutive deliveries, ns (None: fewer than two).
    pub fn jitter(&self) -> Option<f64> {
        (self.count > 1).then(|| self.jitter_sum as f64 / (self.count - 1) as f64)
    }

    /// The q-quantile of the delays (0 < q <= 1), ns: the nearest rank, at
    /// most 2.1 % above it and never below (None: nothing delivered).
    pub fn quantile(&self, q: f64) -> Option<Time> {
        let bins = self.counts.iter().enumerate().map(|(i, &n)| (usize::from(self.first) + i, n));
        (self.count > 0).then(|| quantile(bins, self.count, self.max, q))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Delays 10, 12, 11, 15 ms: mean 12, jitter (2 + 1 + 4) / 3, median
    /// (rank 2 of 4) 11 ms, 95th and 99th the maximum (rank 4) exactly.
    #[test]
    fn mean_jitter_and_quantiles_of_a_hand_worked_sequence() {
        let ms = 1_000_000;
        let mut t = Transit::default();
        for d in [10, 12, 11, 15] {
            t.record(d * ms);
        }
        assert_eq!(t.mean(), Some(12e6));
        assert_eq!(t.jitter(), Some(7e6 / 3.0));
        let median = t.quantile(0.5).unwrap() as f64;
        assert!((11e6..=11e6 * 1.021).contains(&median), "{median}");
        assert_eq!((t.quantile(0.95), t.quantile(0.99)), (Some(15 * ms), Some(15 * ms)));
        // Bins from 10 to 15 ms only: ln 1.5 / ln 1.0209 = 19.6, so 20 or 21 of them.
        assert!((20..=21).contains(&t.counts.len()), "{}", t.counts.len());
    }

    #[test]
    fn one_delay_or_none() {
        let mut t = Transit::default();
        assert_eq!((t.mean(), t.jitter(), t.quantile(0.5)), (None, None, None));
        t.record(123_456);
        assert_eq!(
            (t.mean(), t.jitter(), t.quantile(0.5), t.quantile(0.99)),
            (Some(123_456.0), None, Some(123_456), Some(123_456))
        );
    }

    /// A later, lower delay grows the run of bins downwards and keeps the
    /// counts: the quantiles over 100 us, 1 ms, 10 us are those of the
    /// sorted list.
    #[test]
    fn bins_grow_both_ways() {
        let mut t = Transit::default();
        for d in [100_000, 1_000_000, 10_000] {
            t.record(d);
        }
        let q = |p| t.quantile(p).unwrap() as f64;
        assert!((10_000.0..=10_210.0).contains(&q(0.1)), "{}", q(0.1));
        assert!((100_000.0..=102_100.0).contains(&q(0.5)), "{}", q(0.5));
        assert_eq!(q(1.0), 1e6);
        assert_eq!(t.counts.iter().sum::<u64>(), 3);
        assert_eq!(t.counts.len(), usize::from(bin(1_000_000) as u16 - t.first) + 1);
        assert_eq!(t.jitter(), Some((900_000.0 + 990_000.0) / 2.0));
    }
}
