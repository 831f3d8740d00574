//! Burstiness at time scales (paper A Sec III-B, Figs. 7-8): beta(s), the
//! coefficient of variation (standard deviation over mean) of the bytes
//! arriving at a queue per interval of length s, for s = 2^k finest bins.
//!
//! One pass, constant memory: bins are counted at the finest scale and
//! aggregated upward by powers of two. For each scale k the recorder holds
//! the open bin (index `i >> k` of the finest bin `i`) and the sums of the
//! closed bins' values and squares; empty bins add nothing to either sum,
//! so an arrival costs one update per scale whatever the gaps between
//! arrivals, and the number of bins per scale comes from the span at the
//! end. For self-similar traffic beta(s) ~ s^(H-1), so the Hurst parameter
//! is one plus the least-squares slope of log beta on log s; Poisson
//! arrivals give slope -1/2 (H = 1/2).
//!
//! Optionally the recorder also keeps the finest bins themselves (memory
//! linear in the window), for statistics beta(s) does not give, such as the
//! auto-covariance of the rate that paper Q's Theorem 2 predicts (Sec III-B).

use crate::sim::Time;

#[derive(Debug, Clone)]
pub struct Burstiness {
    /// Finest bin, ns, and the start of bin 0.
    bin: Time,
    start: Time,
    /// Per scale: the open bin's index and bytes, and the closed bins' sum and sum of squares.
    open: Vec<(u64, f64)>,
    sum: Vec<f64>,
    sum_sq: Vec<f64>,
    /// Bytes per finest bin, when kept (`keep_series`).
    series: Option<Vec<u64>>,
}

impl Burstiness {
    /// Bins of `bin` ns from `start`, aggregated over `scales` powers of two (1, 2, ..., 2^(scales-1) bins).
    pub fn new(bin: Time, start: Time, scales: usize) -> Self {
        Burstiness {
            bin,
            start,
            open: vec![(0, 0.0); scales],
            sum: vec![0.0; scales],
            sum_sq: vec![0.0; scales],
            series: None,
        }
    }

    /// Also keep the bytes of every finest bin (see [`Burstiness::series`]).
    pub fn keep_series(mut self) -> Self {
        self.series = Some(Vec::new());
        self
    }

    /// `bytes` arrive at `t` (>= start, in time order).
    #[inline]
    pub fn arrive(&mut self, t: Time, bytes: u32) {
        let i = (t - self.start) / self.bin;
        if let Some(series) = &mut self.series {
            let idx = i as usize;
            if idx >= series.len() {
                series.resize(idx + 1, 0);
            }
            series[idx] += u64::from(bytes);
        }
        for (k, open) in self.open.iter_mut().enumerate() {
            let idx = i >> k;
            if idx != open.0 {
                self.sum[k] += open.1;
                self.sum_sq[k] += open.1 * open.1;
                *open = (idx, 0.0);
            }
            open.1 += f64::from(bytes);
        }
    }

    /// Bytes per finest bin over the whole bins of [start, end), when kept.
    pub fn series(&self, end: Time) -> Option<Vec<u64>> {
        let n = ((end - self.start) / self.bin) as usize;
        self.series.as_ref().map(|s| {
            let mut s = s.clone();
            s.resize(n, 0);
            s
        })
    }

    /// beta at every scale over [start, end): (scale in bins, CoV); only
    /// scales with at least two whole bins in the span, and bins cut by
    /// `end` are left out.
    pub fn beta(&self, end: Time) -> Vec<(u64, f64)> {
        let finest = (end - self.start) / self.bin;
        (0..self.open.len())
            .filter_map(|k| {
                let n = finest >> k;
                if n < 2 {
                    return None;
                }
                let (idx, v) = self.open[k];
                let (s, sq) = if idx < n {
                    (self.sum[k] + v, self.sum_sq[k] + v * v)
                } else {
                    (self.sum[k], self.sum_sq[k])
                };
                let mean = s / n as f64;
                let var = (sq / n as f64 - mean * mean).max(0.0);
                (mean > 0.0).then(|| (1u64 << k, var.sqrt() / mean))
            })
            .collect()
    }
}

/// 1 + the least-squares slope of log2 beta on log2 s over the given points.
pub fn hurst(points: &[(u64, f64)]) -> f64 {
    let xy: Vec<(f64, f64)> = points.iter().map(|&(s, b)| ((s as f64).log2(), b.log2())).collect();
    let n = xy.len() as f64;
    let (mx, my) = xy.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let sxy: f64 = xy.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xy.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    1.0 + sxy / sxx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::stream;
    use rand_distr::{Distribution, Exp};

    #[test]
    fn small_case_by_hand() {
        // Bins of 10 ns from 0: bytes per finest bin [3, 0, 1, 0] over 40 ns.
        let mut b = Burstiness::new(10, 0, 3);
        b.arrive(2, 1);
        b.arrive(9, 2);
        b.arrive(25, 1);
        let got = b.beta(40);
        // Scale 1: mean 1, values 3 0 1 0: var = (9 + 1)/4 - 1 = 1.5.
        // Scale 2: [3, 1]: mean 2, var 1. Scale 4: one bin only, left out.
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, 1);
        assert!((got[0].1 - 1.5f64.sqrt()).abs() < 1e-12);
        assert!((got[1].1 - 0.5).abs() < 1e-12);
        assert_eq!(b.series(40), None);
    }

    #[test]
    fn series_keeps_every_whole_bin() {
        // The same arrivals, plus one in the bin cut by the end (45 of [40, 50)).
        let mut b = Burstiness::new(10, 100, 2).keep_series();
        for (t, bytes) in [(102, 1), (109, 2), (125, 1), (145, 7)] {
            b.arrive(t, bytes);
        }
        assert_eq!(b.series(140), Some(vec![3, 0, 1, 0]));
        // Trailing empty bins are there too.
        assert_eq!(b.series(170), Some(vec![3, 0, 1, 0, 7, 0, 0]));
    }

    #[test]
    fn poisson_burstiness_falls_as_the_inverse_square_root() {
        // Poisson arrivals of rate r in bins of s: counts Poisson(r s), CoV
        // 1/sqrt(r s). 2e6 arrivals at 1 per us in 1 us bins, scales 1-1024 us.
        let mut rng = stream(5, "test.poisson", 0);
        let exp = Exp::new(1.0 / 1000.0).unwrap();
        let mut b = Burstiness::new(1000, 0, 11);
        let mut t = 0.0;
        while t < 2e9 {
            b.arrive(t as Time, 1);
            t += exp.sample(&mut rng);
        }
        let beta = b.beta(2_000_000_000);
        for &(s, cov) in &beta {
            // Counts are Poisson(l), l = s: the sample variance of n bins has
            // relative sd sqrt((2 + 1/l) / n), so the CoV about half that, and
            // the sample mean relative sd sqrt(1 / (l n)); 4 sd of each.
            let (l, n) = (s as f64, 2e6 / s as f64);
            let tol = 4.0 * (0.5 * ((2.0 + 1.0 / l) / n).sqrt() + (1.0 / (l * n)).sqrt());
            let want = 1.0 / l.sqrt();
            assert!((cov / want - 1.0).abs() < tol, "s {s}: {cov} vs {want} (tolerance {tol})");
        }
        let h = hurst(&beta);
        assert!((h - 0.5).abs() < 0.02, "H {h}");
    }
}
