//! Short-lived TCP: closed-loop users (paper E Sec 3.4, paper A Sec VI,
//! after the closed-loop flow arrival model both cite).
//!
//! Each user transfers a file whose size is Pareto distributed, waits for
//! the transfer to finish, thinks for an exponential time, then opens a new
//! connection for the next file: fresh TCP state (initial window, slow
//! start, RTT estimator and timers as at the first start). Paper E uses mean
//! 100 KB and shape 1.2, paper A shape 1.5; both think for 1 s on average.
//! A persistent user (issue 31's reading of paper E's users) keeps its first
//! connection instead, and its state, for every later file.
//!
//! Sizes come from the "short.size" stream and think times from
//! "short.think", both indexed by flow, so a user's sequence of files does
//! not depend on the network. A file of `s` bytes is ceil(s / segment)
//! packets: the last one is sent full-size, as ns-2 one-way TCP counts
//! packets, not bytes.
//!
//! A transfer's completion time runs from the moment the connection opens
//! (its SYN, or first packet, leaves) to the moment the sender receives the
//! ACK of its last packet.

use rand_distr::{Distribution, Exp, Pareto};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::report::TransferTable;
use crate::sim::rng::{stream, Stream};
use crate::sim::time::{secs, NS_PER_SEC};
use crate::sim::Time;

/// Closed-loop users of short-lived TCP transfers, `[traffic.short]`
/// (paper E Sec 3.4, paper A Sec VI): each transfers a file of Pareto size
/// (`mean_size`, `shape`), thinks for an exponential time of mean
/// `mean_think`, then opens a new connection (slow start again) for the
/// next file. `fraction` of the flows, spread evenly, are users; the rest
/// stay long-lived. The defaults are paper E's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ShortSpec {
    /// Share of the TCP flows run by users rather than as long-lived bulk
    /// transfers, spread evenly over the flows (flow i is a user when
    /// floor((i+1) f) > floor(i f); 0.5: every second flow); 1 makes every flow a user.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub fraction: f64,
    /// Mean of the Pareto file size, bytes (paper E Sec 3.4: 100 KB).
    #[schemars(extend("x-unit" = "bytes"), range(min = 1))]
    pub mean_size: u64,
    /// Pareto shape (tail index) alpha, above 1 so that the mean exists
    /// (paper E: 1.2; paper A: 1.5).
    #[schemars(extend("exclusiveMinimum" = 1.0))]
    pub shape: f64,
    /// Mean of the exponential think time between a transfer's end and the
    /// next one's start, ns (papers E and A: 1 s).
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub mean_think: u64,
    /// Keep one connection for all of a user's files, as one ns-2 agent fed
    /// file after file (`advanceby`): no SYN after the first file, and each
    /// file starts with the window, ssthresh and RTT estimate the last one
    /// left (ns-2 cancels the idle connection's timer, so no slow-start
    /// restart). Off (paper E Sec 3.4): a new connection per file.
    pub persistent: bool,
}

/// Paper E's users (Sec 3.4): every flow, 100 KB files of shape 1.2, 1 s
/// of thought.
impl Default for ShortSpec {
    fn default() -> Self {
        ShortSpec { fraction: 1.0, mean_size: 100_000, shape: 1.2, mean_think: NS_PER_SEC, persistent: false }
    }
}

impl ShortSpec {
    /// Whether flow `i` is a user.
    pub fn is_user(&self, i: usize) -> bool {
        crate::spec::evenly(i, self.fraction)
    }

    /// Pareto scale x_m giving the mean: E[X] = alpha x_m / (alpha - 1).
    pub fn scale(&self) -> f64 {
        self.mean_size as f64 * (self.shape - 1.0) / self.shape
    }
}

/// One finished transfer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transfer {
    pub start: Time,
    pub end: Time,
    pub bytes: u64,
}

/// A user's draws and the transfer in progress.
#[derive(Debug, Clone)]
pub struct User {
    sizes: Pareto<f64>,
    think: Exp<f64>,
    size_rng: Stream,
    think_rng: Stream,
    /// The current file: when its connection opened, and its size in bytes.
    current: Option<(Time, u64)>,
    /// One connection for every file (`ShortSpec::persistent`).
    pub persistent: bool,
}

impl User {
    pub fn new(spec: &ShortSpec, seed: u64, flow: u64) -> Self {
        User {
            sizes: Pareto::new(spec.scale(), spec.shape).expect("validated: scale > 0, shape > 1"),
            think: Exp::new(1.0 / spec.mean_think as f64).expect("validated: mean think > 0"),
            size_rng: stream(seed, "short.size", flow),
            think_rng: stream(seed, "short.think", flow),
            current: None,
            persistent: spec.persistent,
        }
    }

    /// Whether a transfer is in progress (not thinking).
    pub fn busy(&self) -> bool {
        self.current.is_some()
    }

    /// Open the next transfer at `now`: its size in packets of `segment` bytes.
    pub fn begin(&mut self, now: Time, segment: u64) -> u64 {
        let bytes = self.sizes.sample(&mut self.size_rng).ceil() as u64;
        self.current = Some((now, bytes));
        bytes.div_ceil(segment)
    }

    /// The transfer in progress finished at `now`: it, and when the next starts.
    pub fn finish(&mut self, now: Time) -> (Transfer, Time) {
        let (start, bytes) = self.current.take().expect("a transfer is in progress");
        let think = self.think.sample(&mut self.think_rng).round() as Time;
        (Transfer { start, end: now, bytes }, now + think)
    }
}

impl TransferTable {
    /// The transfers of `done` that started at or after `warmup`, in the
    /// order they finished. Transfers still running at the end are left
    /// out (as a trace of completions would), which favours small files.
    pub fn window(done: &[(u32, Transfer)], warmup: Time) -> Self {
        let mut t = TransferTable::default();
        for (flow, x) in done.iter().filter(|(_, x)| x.start >= warmup) {
            t.flow.push(*flow);
            t.start_s.push(secs(x.start));
            t.bytes.push(x.bytes);
            t.fct_s.push(secs(x.end - x.start));
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::bounds::past_bound;

    fn spec(shape: f64) -> ShortSpec {
        ShortSpec { fraction: 1.0, mean_size: 100_000, shape, mean_think: 1_000_000_000, persistent: false }
    }

    /// Shape 2.5 has a finite variance, x_m^2 alpha / ((alpha-1)^2 (alpha-2))
    /// = (60 KB)^2 * 2.5 / (1.5^2 * 0.5) = 8e9 B^2, so the mean of n = 200,000
    /// files has standard error sqrt(8e9 / n) = 200 B: 5 of them is 1 KB.
    #[test]
    fn pareto_sizes_have_the_configured_mean() {
        let s = spec(2.5);
        let mut u = User::new(&s, 3, 0);
        let n = 200_000;
        let mean = (0..n)
            .map(|i| {
                u.begin(i, 1);
                u.finish(i).0.bytes as f64
            })
            .sum::<f64>()
            / n as f64;
        // Rounding up to whole bytes adds 0.5 B on average.
        assert!((mean - 100_000.5).abs() < 1_000.0, "mean {mean}");
    }

    /// With shape 1.2 the variance is infinite and the sample mean converges
    /// too slowly to test; the median x_m 2^(1/alpha) is sharp instead. Of
    /// n = 40,000 draws, the fraction below it has standard deviation
    /// sqrt(0.25 / n) = 0.0025: 5 of them is 0.0125.
    #[test]
    fn pareto_sizes_have_the_median_of_their_shape_and_mean() {
        let s = spec(1.2);
        let median = s.scale() * 2f64.powf(1.0 / 1.2);
        assert!((s.scale() - 16_666.67).abs() < 0.01);
        let mut u = User::new(&s, 5, 0);
        let n = 40_000;
        let below = (0..n)
            .filter(|&i| {
                u.begin(i, 1);
                (u.finish(i).0.bytes as f64) < median
            })
            .count();
        assert!((below as f64 / n as f64 - 0.5).abs() < 0.0125, "{below} of {n} below the median");
    }

    /// Think times: exponential of mean 1 s; over n = 40,000 the mean has
    /// standard error 1 s / 200 = 5 ms.
    #[test]
    fn think_times_are_exponential_with_the_configured_mean() {
        let mut u = User::new(&spec(1.2), 7, 2);
        let n = 40_000;
        let mut total = 0.0;
        for _ in 0..n {
            u.begin(0, 1000);
            let (t, next) = u.finish(10);
            assert_eq!((t.start, t.end), (0, 10));
            total += (next - 10) as f64;
        }
        let mean_s = total / n as f64 / 1e9;
        assert!((mean_s - 1.0).abs() < 0.025, "mean think {mean_s} s");
    }

    #[test]
    fn files_are_whole_packets_rounded_up() {
        let mut u = User::new(&spec(1.2), 1, 0);
        for _ in 0..1000 {
            let packets = u.begin(0, 1000);
            let bytes = u.finish(0).0.bytes;
            assert_eq!(packets, bytes.div_ceil(1000));
            assert!(bytes as f64 >= spec(1.2).scale());
        }
    }

    #[test]
    fn users_are_spread_evenly_and_bad_values_name_their_field() {
        let s = ShortSpec { fraction: 0.25, ..spec(1.2) };
        let users: Vec<usize> = (0..8).filter(|&i| s.is_user(i)).collect();
        assert_eq!(users, vec![3, 7]);
        // Every bound is the schema's (`spec::bounds`): NaN is null on the wire.
        let bound = |s: ShortSpec| past_bound(&s).unwrap();
        assert_eq!(bound(ShortSpec { shape: 1.0, ..spec(1.2) }), "shape");
        assert_eq!(bound(ShortSpec { fraction: 1.5, ..spec(1.2) }), "fraction");
        assert_eq!(bound(ShortSpec { shape: f64::NAN, ..spec(1.2) }), "shape");
        assert_eq!(bound(ShortSpec { mean_size: 0, ..spec(1.2) }), "mean_size");
        assert_eq!(bound(ShortSpec { mean_think: 0, ..spec(1.2) }), "mean_think");
        assert_eq!(ShortSpec::default(), spec(1.2));
    }
}
