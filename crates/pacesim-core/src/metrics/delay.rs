//! Delay distributions: count, mean, maximum, and a histogram of 1000
//! log-spaced bins from 1 us to 1000 s (each 2 % wide) for quantiles and
//! the CDF. Pacers keep one of their pacing delays; a run keeps one of the
//! one-way delays of the packets it delivers (paper Q Table III, Fig. 19).

use crate::report::DelayReport;
use crate::sim::Time;
use crate::spec::DelayClass;

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

/// Upper edge of bin `i`, ns.
pub(super) fn upper(i: usize) -> f64 {
    1e3 * 10f64.powf((i + 1) as f64 * DECADES / BINS as f64)
}

/// The bin of a delay of `ns`, by its definition: the log-spaced position
/// of `ns` above 1 us.
fn bin_by_log(ns: Time) -> usize {
    let position = (ns as f64 / 1e3).max(1.0).log10() / DECADES * BINS as f64;
    (position as usize).min(BINS - 1)
}

/// Sub-octaves [`bin`] splits each power of two into: each spans at most
/// 1/64 of its start, narrower than a bin (2.1 %), so it meets at most
/// two bins.
const SUB_BITS: u32 = 6;

/// The bin tables: for each bin, the least delay (integer ns) that falls
/// in it or above, found once by bisection on [`bin_by_log`] (which rises
/// with the delay); and for each sub-octave of the u64 range (its power of
/// two, then the next [`SUB_BITS`] bits), the bin of its least delay.
struct Tables {
    edges: [Time; BINS],
    first: Vec<u16>,
}

fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut edges = [0; BINS];
        for (i, edge) in edges.iter_mut().enumerate().skip(1) {
            let (mut lo, mut hi) = (0, 1 << 50);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if bin_by_log(mid) >= i {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            *edge = lo;
        }
        let first = (0..64u64 << SUB_BITS)
            .map(|k| {
                let (octave, sub) = (k >> SUB_BITS, k & ((1 << SUB_BITS) - 1));
                let mantissa = (1 << SUB_BITS) | sub;
                let least = if octave >= u64::from(SUB_BITS) {
                    mantissa << (octave - u64::from(SUB_BITS))
                } else {
                    mantissa >> (u64::from(SUB_BITS) - octave)
                };
                (edges.partition_point(|&e| e <= least) - 1) as u16
            })
            .collect();
        Tables { edges, first }
    })
}

/// The bin of a delay of `ns`, as [`bin_by_log`] has it but without a
/// logarithm (every paced packet's delay is recorded, and a logarithm or a
/// float guess refined on the edges cost a measurable share of an
/// edge-paced run, bench/speed/README.md): the bin of its sub-octave's least
/// delay, or the next one up.
#[inline]
pub(super) fn bin(ns: Time) -> usize {
    let t = tables();
    let ns = ns.max(1);
    let octave = 63 - ns.leading_zeros();
    let sub = if octave >= SUB_BITS { ns >> (octave - SUB_BITS) } else { ns << (SUB_BITS - octave) };
    let mut b = t.first[((octave << SUB_BITS) as u64 | (sub & ((1 << SUB_BITS) - 1))) as usize] as usize;
    while b + 1 < BINS && t.edges[b + 1] <= ns {
        b += 1;
    }
    b
}

/// The q-quantile (0 < q <= 1) of `count` delays at most `max` ns, counted
/// in `bins` (bin index, delays in it) in rising order: the nearest rank,
/// the least delay with at least ceil(q count) delays at or below it, read
/// as the upper edge of its bin (at most 2.1 % above it, never below) or the
/// maximum if that is less.
pub(super) fn quantile(bins: impl Iterator<Item = (usize, u64)>, count: u64, max: Time, q: f64) -> Time {
    let target = ((count as f64 * q).ceil() as u64).max(1);
    let mut seen = 0;
    for (i, n) in bins {
        seen += n;
        if n > 0 && seen >= target {
            return (upper(i) as Time).min(max);
        }
    }
    max
}

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
        self.bins[bin(delay)] += 1;
    }

    /// Add the delays `other` has seen.
    pub fn merge(&mut self, other: &DelayStats) {
        self.count += other.count;
        self.sum += other.sum;
        self.max = self.max.max(other.max);
        self.bins.iter_mut().zip(&other.bins).for_each(|(a, b)| *a += b);
    }

    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// The q-quantile (0 < q <= 1), to within 2 % (and never above the maximum).
    pub fn quantile(&self, q: f64) -> Time {
        quantile(self.bins.iter().copied().enumerate(), self.count, self.max, q)
    }

    /// 99th percentile, to within 2 %.
    pub fn p99(&self) -> Time {
        self.quantile(0.99)
    }

    /// The CDF at the upper edge of every non-empty bin (the last at the
    /// maximum): (delay ns, fraction of delays at or below it).
    pub fn cdf(&self) -> Vec<(Time, f64)> {
        let mut seen = 0;
        let mut out = Vec::new();
        for (i, &n) in self.bins.iter().enumerate().filter(|(_, &n)| n > 0) {
            seen += n;
            out.push(((upper(i) as Time).min(self.max), seen as f64 / self.count as f64));
        }
        out
    }
}

impl DelayReport {
    /// The report of the delays `d` measured of packets of class `class`.
    pub fn new(class: DelayClass, d: &DelayStats) -> Self {
        let ms = |t: u64| t as f64 / 1e6;
        let (cdf_ms, cdf) = d.cdf().into_iter().map(|(t, f)| (ms(t), f)).unzip();
        DelayReport {
            class,
            packets: d.count,
            mean_ms: d.mean() / 1e6,
            p50_ms: ms(d.quantile(0.5)),
            p99_ms: ms(d.p99()),
            max_ms: ms(d.max),
            cdf_ms,
            cdf,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_within_two_percent() {
        let mut d = DelayStats::default();
        for i in 1..=1000u64 {
            d.record(i * 10_000); // 10 us .. 10 ms
        }
        let p99 = d.p99() as f64;
        assert!((p99 / 9_900_000.0 - 1.0).abs() <= 0.021, "{p99}");
        let median = d.quantile(0.5) as f64;
        assert!((median / 5_000_000.0 - 1.0).abs() <= 0.021, "{median}");
        assert_eq!(d.max, 10_000_000);
        assert!((d.mean() - 5_005_000.0).abs() < 1e-6);
    }

    #[test]
    fn the_table_bins_every_delay_as_the_logarithm_does() {
        // Around every bin edge, and across the whole range.
        let edges = &tables().edges;
        assert!(edges.windows(2).all(|w| w[0] < w[1]));
        for &edge in &edges[1..] {
            for ns in edge.saturating_sub(3)..=edge + 3 {
                assert_eq!(bin(ns), bin_by_log(ns), "{ns} ns");
            }
        }
        let mut ns = 1u64;
        while ns < 1 << 52 {
            assert_eq!(bin(ns), bin_by_log(ns), "{ns} ns");
            ns = ns * 11 / 10 + 1;
        }
        assert_eq!((bin(0), bin(999), bin(1000), bin(u64::MAX)), (0, 0, 0, BINS - 1));
    }

    #[test]
    fn cdf_rises_to_one_at_the_maximum() {
        let mut d = DelayStats::default();
        for t in [2_000, 2_000, 50_000, 3_000_000] {
            d.record(t);
        }
        let cdf = d.cdf();
        assert_eq!(cdf.len(), 3);
        assert!((cdf[0].1 - 0.5).abs() < 1e-12 && (cdf[0].0 as f64 / 2_000.0 - 1.0).abs() <= 0.021);
        assert_eq!(*cdf.last().unwrap(), (3_000_000, 1.0));
    }
}
