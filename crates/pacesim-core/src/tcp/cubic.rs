//! CUBIC (RFC 9438) with its defaults: C = 0.4, beta_cubic = 0.7, fast
//! convergence and the Reno-friendly region, windows in packets.
//!
//! - Sec 4.2, window growth after a congestion event, with t the time since
//!   the first ACK of the avoidance epoch:
//!   "W_cubic(t) = C * (t - K)^3 + W_max" (eq. 1), where
//!   "K = cubic_root((W_max - cwnd_epoch) / C)" (eq. 2), cwnd_epoch the
//!   window when the epoch starts (W_max = cwnd_epoch, K = 0, if the window
//!   is already above W_max).
//! - Sec 4.3, Reno-friendly region: "W_est = W_est + alpha_cubic *
//!   segments_acked / cwnd" (eq. 4) with "alpha_cubic = 3 (1 - beta_cubic)
//!   / (1 + beta_cubic)"; "Once W_est has grown to reach the cwnd at the
//!   time of most recently setting ssthresh -- that is, W_est >= cwnd_prior
//!   -- the sender SHOULD set alpha_cubic to 1" (cwnd_prior: the window
//!   just before the last cut, 0 before any, so alpha is 1 then); where
//!   W_cubic(t) < W_est, cwnd follows W_est. (Linux's `tcp_cubic.c` keeps
//!   alpha at 3 (1 - beta) / (1 + beta) throughout.)
//! - Sec 4.4-4.5, concave and convex regions: target = W_cubic(t + RTT),
//!   clamped to [cwnd, 1.5 cwnd]; cwnd grows by (target - cwnd) / cwnd for
//!   each new ACK.
//! - Sec 4.6: on congestion "ssthresh = cwnd * beta_cubic", cwnd =
//!   max(ssthresh, 2) (fast retransmit) or 1 (Sec 4.8, timeout).
//! - Sec 4.7, fast convergence: "if cwnd < W_max: W_max = cwnd * (1 +
//!   beta_cubic) / 2, else W_max = cwnd".
//! - Sec 4.8, after a timeout: "During the first congestion avoidance stage
//!   after a timeout, CUBIC increases its congestion window size using
//!   Figure 1, where t is the elapsed time since the beginning of the
//!   current congestion avoidance stage, K is set to 0, and W_max is set to
//!   the congestion window size at the beginning of the current congestion
//!   avoidance stage" (Linux forgets `last_max_cwnd` on entering Loss,
//!   `bictcp_reset`, to the same effect): W_max is forgotten at the
//!   timeout, so the epoch starts with W_max = cwnd_epoch, K = 0 and W_est
//!   = cwnd_epoch.
//!
//! RTT is a smoothed RTT: an EWMA (gain 1/8) of the sender's Karn samples.

use super::cc::{Congestion, CongestionControl, Window};
use crate::sim::time::secs;
use crate::sim::Time;

const C: f64 = 0.4;
const BETA: f64 = 0.7;

#[derive(Debug, Default)]
pub struct Cubic {
    w_max: f64,
    /// Start of the current avoidance epoch and its K, once it began.
    epoch: Option<(Time, f64)>,
    w_est: f64,
    /// The window just before the last cut, packets (RFC 9438's
    /// cwnd_prior; 0 before any).
    cwnd_prior: f64,
    /// Smoothed RTT, s (0 before any sample).
    srtt: f64,
}

impl Cubic {
    /// RFC 9438 eq. 1 at `t` seconds into the epoch.
    pub fn w_cubic(&self, t: f64, k: f64) -> f64 {
        // "W_cubic(t) = C * (t - K)^3 + W_max"
        C * (t - k).powi(3) + self.w_max
    }

    /// Eq. 2, for an epoch starting at window `cwnd_epoch`.
    pub fn k(&self, cwnd_epoch: f64) -> f64 {
        // "K = cubic_root((W_max - cwnd_epoch) / C)"
        ((self.w_max - cwnd_epoch).max(0.0) / C).cbrt()
    }
}

impl CongestionControl for Cubic {
    fn name(&self) -> &'static str {
        "cubic"
    }

    fn on_ack(&mut self, w: &mut Window, now: Time) {
        if w.in_slow_start() {
            w.slow_start();
            return;
        }
        let (start, k) = match self.epoch {
            Some(epoch) => epoch,
            None => {
                self.w_max = self.w_max.max(w.cwnd);
                self.w_est = w.cwnd;
                *self.epoch.insert((now, self.k(w.cwnd)))
            }
        };
        // "alpha_cubic = 3 * (1 - beta_cubic) / (1 + beta_cubic)", 1 once W_est >= cwnd_prior (Sec 4.3).
        let alpha = if self.w_est >= self.cwnd_prior { 1.0 } else { 3.0 * (1.0 - BETA) / (1.0 + BETA) };
        // "W_est = W_est + alpha_cubic * segments_acked / cwnd" (eq. 4)
        self.w_est += alpha / w.cwnd;
        let t = secs(now - start);
        if self.w_cubic(t, k) < self.w_est {
            w.cwnd = self.w_est;
            return;
        }
        // target = W_cubic(t + RTT), within [cwnd, 1.5 cwnd] (Sec 4.2); cwnd
        // grows by (target - cwnd) / cwnd per new ACK (Sec 4.4-4.5).
        let target = self.w_cubic(t + self.srtt, k).clamp(w.cwnd, 1.5 * w.cwnd);
        w.cwnd += (target - w.cwnd) / w.cwnd;
    }

    fn on_congestion(&mut self, w: &mut Window, flight: f64, event: Congestion, _now: Time) {
        let cwnd = flight;
        self.cwnd_prior = cwnd;
        // Fast convergence (Sec 4.7): "W_max = cwnd * (1 + beta_cubic) / 2" if cwnd < W_max.
        self.w_max = if cwnd < self.w_max { cwnd * (1.0 + BETA) / 2.0 } else { cwnd };
        self.epoch = None;
        // "ssthresh = cwnd * beta_cubic" (Sec 4.6)
        w.ssthresh = (cwnd * BETA).max(2.0);
        w.cwnd = match event {
            Congestion::FastRetransmit => w.ssthresh,
            Congestion::Timeout => {
                // Sec 4.8: the next epoch takes W_max from its own start (K = 0).
                self.w_max = 0.0;
                1.0
            }
        };
    }

    fn on_rtt(&mut self, _w: &mut Window, rtt: Time, _now: Time) {
        let sample = secs(rtt);
        self.srtt = if self.srtt == 0.0 { sample } else { 0.875 * self.srtt + 0.125 * sample };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    /// A loss at W = 1000 gives cwnd 700 and K = cbrt(300 / 0.4) = 9.09 s.
    /// ACKs then arrive one per packet over each 100 ms RTT; the window at
    /// time t is C (t - K)^3 + W_max to within the one-RTT look-ahead
    /// (the window leads eq. 1 by at most what it grows in one RTT), flat
    /// near W_max at t = K and convex after. The Reno-friendly estimate
    /// (alpha 0.53 per RTT: 700 -> 748 by K) stays below throughout.
    #[test]
    fn window_follows_the_cubic_after_a_loss() {
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 1000.0, ssthresh: 1e9 };
        c.on_rtt(&mut w, 100 * MS, 0);
        c.on_congestion(&mut w, 1000.0, Congestion::FastRetransmit, 0);
        assert_eq!(w, Window { cwnd: 700.0, ssthresh: 700.0 });
        let k = (300.0f64 / 0.4).cbrt();
        let mut now = 0;
        for round in 1..=150 {
            let n = w.cwnd as u64;
            for i in 0..n {
                c.on_ack(&mut w, now + i * 100 * MS / n);
            }
            now += 100 * MS;
            let t = secs(now) - 0.1; // the epoch began at the first ACK, t = 0
            let (lo, hi) = (c.w_cubic(t, k), c.w_cubic(t + 0.1, k));
            if round % 10 == 0 {
                assert!(
                    w.cwnd >= lo - 1.0 && w.cwnd <= hi + 1.0,
                    "t {t:.1}: cwnd {} vs W_cubic [{lo:.1}, {hi:.1}]",
                    w.cwnd
                );
            }
        }
        assert!(c.w_est < c.w_cubic(k, k));
    }

    /// RFC 9438 Sec 4.8: after a timeout at W = 100 (ssthresh 70, cwnd 1),
    /// slow start to ssthresh, then the first avoidance epoch has K = 0 and
    /// W_max = W_est = 70, the window where it starts; without Sec 4.8 W_max
    /// would stay 100 and K = cbrt(30 / 0.4) = 4.2 s. A fast retransmit
    /// keeps W_max (K > 0 after it).
    #[test]
    fn after_a_timeout_the_epoch_starts_at_its_own_window() {
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 100.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 100.0, Congestion::Timeout, 0);
        assert_eq!(w, Window { cwnd: 1.0, ssthresh: 70.0 });
        while w.in_slow_start() {
            c.on_ack(&mut w, 0);
        }
        assert_eq!(w.cwnd, 70.0);
        c.on_ack(&mut w, MS);
        let (_, k) = c.epoch.unwrap();
        assert_eq!((k, c.w_max), (0.0, 70.0));
        // W_est from 70; alpha 0.53 while W_est < cwnd_prior = 100 (Sec 4.3).
        assert!((c.w_est - (70.0 + 0.9 / 1.7 / 70.0)).abs() < 1e-9, "{}", c.w_est);
        let mut w = Window { cwnd: 100.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 100.0, Congestion::FastRetransmit, 0);
        c.on_ack(&mut w, MS);
        let (_, k) = c.epoch.unwrap();
        assert!((k - (30.0f64 / 0.4).cbrt()).abs() < 1e-9 && c.w_max == 100.0, "{k} {}", c.w_max);
    }

    /// RFC 9438 Sec 4.3: alpha_cubic turns 1 once W_est reaches
    /// cwnd_prior, the window before the last cut, not W_max. Cuts at 1000
    /// and then 700 leave W_max = 595 (fast convergence) and cwnd_prior =
    /// 700: with W_est at 650, an ACK adds 0.53 / cwnd to it; at 700, 1 /
    /// cwnd.
    #[test]
    fn reno_friendly_alpha_turns_one_at_the_window_before_the_cut() {
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 1000.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 1000.0, Congestion::FastRetransmit, 0);
        c.on_congestion(&mut w, 700.0, Congestion::FastRetransmit, 0);
        assert_eq!((c.w_max, c.cwnd_prior), (595.0, 700.0));
        c.on_ack(&mut w, 0);
        for (w_est, alpha) in [(650.0, 0.9 / 1.7), (700.0, 1.0)] {
            c.w_est = w_est;
            let cwnd = w.cwnd;
            c.on_ack(&mut w, 0);
            assert!((c.w_est - (w_est + alpha / cwnd)).abs() < 1e-12, "W_est {w_est}: {}", c.w_est);
        }
    }

    #[test]
    fn fast_convergence_and_reno_friendly_region() {
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 1000.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 1000.0, Congestion::FastRetransmit, 0);
        c.on_congestion(&mut w, 700.0, Congestion::FastRetransmit, 0);
        assert!((c.w_max - 700.0 * 0.85).abs() < 1e-9, "{}", c.w_max);
        // Small windows: W_cubic barely moves in 1 s, Reno's estimate does
        // (alpha = 0.9 / 1.7 per RTT), and cwnd follows it.
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 10.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 10.0, Congestion::FastRetransmit, 0);
        for round in 0..20u64 {
            for _ in 0..w.cwnd as u64 {
                c.on_ack(&mut w, round * 10 * MS);
            }
        }
        assert!(w.cwnd > 7.0 + 20.0 * 0.9 / 1.7 * 0.8, "{}", w.cwnd);
        assert_eq!(w.cwnd, c.w_est);
    }
}
