//! FAST TCP (Jin, Wei and Low, "FAST TCP: Motivation, Architecture,
//! Algorithms, Performance", INFOCOM 2004, Sec 3.3): a delay-based window
//! update once per RTT,
//!
//!   "w <- min{ 2w, (1 - gamma) w + gamma (baseRTT / RTT * w + alpha) }",
//!
//! with baseRTT the smallest RTT seen and RTT the latest (one Karn sample
//! per RTT, so one update per RTT). Its fixed point puts `alpha` packets of
//! each flow in the bottleneck queue: `w = w baseRTT / RTT + alpha`, i.e.
//! `rate * queueing delay = alpha`, so flows with equal alpha get equal
//! rates whatever their RTT. Defaults from the paper's experiments:
//! alpha = 200 packets, gamma = 0.5. Between updates the window is left as
//! it is; losses halve it (fast retransmit) or restart it from one
//! (timeout), with ssthresh at half, as Reno.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::algorithm::{Algorithm, Common};
use super::cc::{Congestion, CongestionControl, Window};
use super::recovery::Recovery;
use crate::sim::rng::Stream;
use crate::sim::Time;

/// FAST's knobs as a scenario gives them, in `[tcp]` (`tcp.fast_alpha`,
/// `tcp.fast_gamma`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FastSpec {
    /// FAST: packets each flow keeps queued in the network (Jin, Wei, Low 2004).
    #[serde(rename = "fast_alpha", default = "FastSpec::default_alpha")]
    #[schemars(extend("exclusiveMinimum" = 0.0))]
    pub alpha: f64,
    /// FAST: the step of its window update, in (0, 1].
    #[serde(rename = "fast_gamma", default = "FastSpec::default_gamma")]
    #[schemars(extend("exclusiveMinimum" = 0.0), range(max = 1.0))]
    pub gamma: f64,
}

impl Default for FastSpec {
    fn default() -> Self {
        FastSpec { alpha: Self::default_alpha(), gamma: Self::default_gamma() }
    }
}

impl FastSpec {
    pub fn default_alpha() -> f64 {
        200.0
    }
    pub fn default_gamma() -> f64 {
        0.5
    }
}

/// FAST recovers with SACK, as Linux (and ns-2's Agent/TCP/Linux, paper W's
/// FAST runs) does.
impl Algorithm for FastSpec {
    fn build(&self, _: Common, _: impl FnOnce() -> Stream) -> (Box<dyn CongestionControl>, Recovery) {
        (Box::new(Fast::new(*self)), Recovery::sack())
    }
}

#[derive(Debug)]
pub struct Fast {
    alpha: f64,
    gamma: f64,
    base_rtt: Option<Time>,
}

impl Fast {
    pub fn new(spec: FastSpec) -> Self {
        Fast { alpha: spec.alpha, gamma: spec.gamma, base_rtt: None }
    }

    /// The window after one update at `rtt` (the paper's equation).
    pub fn update(&self, w: f64, base_rtt: Time, rtt: Time) -> f64 {
        let ratio = base_rtt as f64 / rtt as f64;
        // "w <- min{2w, (1 - gamma) w + gamma (baseRTT / RTT * w + alpha)}"
        (2.0 * w).min((1.0 - self.gamma) * w + self.gamma * (ratio * w + self.alpha))
    }
}

impl CongestionControl for Fast {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn on_ack(&mut self, _w: &mut Window, _now: Time) {}

    fn on_congestion(&mut self, w: &mut Window, flight: f64, event: Congestion, _now: Time) {
        w.reno_decrease(flight, event);
    }

    fn on_rtt(&mut self, w: &mut Window, rtt: Time, _now: Time) {
        let base = *self.base_rtt.insert(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        w.cwnd = self.update(w.cwnd, base, rtt).max(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    #[test]
    fn doubles_when_the_queue_is_empty_and_settles_at_alpha_queued() {
        let mut f = Fast::new(FastSpec { alpha: 200.0, gamma: 0.5 });
        let mut w = Window { cwnd: 10.0, ssthresh: 1e9 };
        // No queueing (RTT = baseRTT): min(2w, w + alpha/2) doubles a small window.
        f.on_rtt(&mut w, 100 * MS, 0);
        assert_eq!(w.cwnd, 20.0);
        // One flow on a 1000 packets/s link with 100 ms propagation: the RTT
        // is 100 ms + w / 1000 s past the 100-packet pipe. The fixed point
        // has w - 100 = alpha packets queued: w = 300.
        for _ in 0..200 {
            let queued = (w.cwnd - 100.0).max(0.0);
            f.on_rtt(&mut w, 100 * MS + (queued * MS as f64) as Time, 0);
        }
        assert!((w.cwnd - 300.0).abs() < 0.5, "{}", w.cwnd);
    }
}
