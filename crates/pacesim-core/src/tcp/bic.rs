//! BIC-TCP (Xu, Harfoush and Rhee, "Binary Increase Congestion Control for
//! Fast, Long Distance Networks", INFOCOM 2004) as Linux 2.6.22's
//! `tcp_bic.c` computes it, the module ns-2's `Agent/TCP/Linux` runs
//! (`bictcp_update`, `bictcp_recalc_ssthresh`), with its defaults: beta
//! 819/1024, `low_window` 14, `max_increment` (S_max) 16, B = 4,
//! `smooth_part` 20, fast convergence on. (The paper's S_max is 32; the
//! code every simulation here is checked against uses 16.)
//!
//! In congestion avoidance the window grows by one packet every `cnt`
//! ACKs, `cnt` set from the distance to the window at the last loss,
//! `W_max` (paper Sec 3.1, "binary search increase"):
//!
//! - `W <= low_window`: Reno (`cnt = W`);
//! - `W < W_max`: towards the midpoint, `dist = (W_max - W) / B` per RTT,
//!   at most S_max (additive increase), at least 1/5 (`cnt = W / dist`,
//!   `W / S_max`, or `W smooth_part / B` when `dist <= 1`);
//! - `W >= W_max` ("max probing"): slowly at first (`W smooth_part / B`
//!   within B of W_max), then `(W - W_max) / (B - 1)` per RTT, then S_max;
//! - before the first loss at least 5 % per RTT (`cnt <= 20`).
//!
//! On a loss: `W_max = W`, or with fast convergence `W (1 + beta) / 2` if W
//! is below the previous W_max; `ssthresh = W beta` (`W / 2` at or below
//! `low_window`); a timeout also forgets `W_max` (Linux `bictcp_reset` on
//! entering the Loss state). Integer arithmetic as in the module; its 1/32 s
//! rate limit on recomputing `cnt` is left out.
//!
//! `cnt` is scaled by the module's estimate of packets per ACK,
//! `delayed_ack / 16` (`bictcp_acked`: "ratio = (15 ratio + sample) / 16",
//! updated by new ACKs outside recovery, starting at 2). In its unsigned
//! integer form the estimate stops at 31/16 when every ACK covers one
//! packet (`1 - (32 >> 4)` wraps to -1 once, then `1 - (31 >> 4)` is 0),
//! so without delayed ACKs Linux 2.6.22's BIC, and ns-2's Agent/TCP/Linux
//! running it, grow about 1.94 times as fast as the nominal rule; this
//! model keeps that.

use super::cc::{Congestion, CongestionControl, Window};
use crate::sim::Time;

/// Linux `tcp_bic.c` parameters.
const BETA: u64 = 819;
const BETA_SCALE: u64 = 1024;
const LOW_WINDOW: u64 = 14;
const MAX_INCREMENT: u64 = 16;
const B: u64 = 4;
const SMOOTH_PART: u64 = 20;

/// Packets per ACK << 4 before any is measured (`2 << ACK_RATIO_SHIFT`).
const DELAYED_ACK_INIT: u32 = 2 << 4;

#[derive(Debug)]
pub struct Bic {
    /// Window at the last loss after fast convergence (`last_max_cwnd`).
    w_max: u64,
    /// Window at the last loss, 0 before any (`loss_cwnd`).
    loss_cwnd: u64,
    /// Packets per ACK << 4 (`delayed_ack`).
    delayed_ack: u32,
}

impl Default for Bic {
    fn default() -> Self {
        Bic { w_max: 0, loss_cwnd: 0, delayed_ack: DELAYED_ACK_INIT }
    }
}

impl Bic {
    /// ACKs per one-packet increase at integer window `w` (`bictcp_update`).
    pub fn cnt(&self, w: u64) -> u64 {
        if w <= LOW_WINDOW {
            return w.max(1);
        }
        let mut cnt = if w < self.w_max {
            // Binary search increase: towards (W_max + W) / 2, here 1/B of the way per RTT.
            let dist = (self.w_max - w) / B;
            if dist > MAX_INCREMENT {
                w / MAX_INCREMENT
            } else if dist <= 1 {
                w * SMOOTH_PART / B
            } else {
                w / dist
            }
        } else if w < self.w_max + B {
            // Max probing: slow start "in the vicinity of W_max", then faster.
            w * SMOOTH_PART / B
        } else if w < self.w_max + MAX_INCREMENT * (B - 1) {
            w * (B - 1) / (w - self.w_max)
        } else {
            w / MAX_INCREMENT
        };
        if self.loss_cwnd == 0 {
            cnt = cnt.min(20);
        }
        ((cnt << 4) / u64::from(self.delayed_ack)).max(1)
    }
}

impl CongestionControl for Bic {
    fn name(&self) -> &'static str {
        "bic"
    }

    fn on_acked(&mut self, packets: u64) {
        let sample = (packets as u32).wrapping_sub(self.delayed_ack >> 4);
        self.delayed_ack = self.delayed_ack.wrapping_add(sample);
    }

    fn on_ack(&mut self, w: &mut Window, _now: Time) {
        if w.in_slow_start() {
            w.slow_start();
        } else {
            w.cwnd += 1.0 / self.cnt(w.cwnd as u64) as f64;
        }
    }

    fn on_congestion(&mut self, w: &mut Window, flight: f64, event: Congestion, _now: Time) {
        let cwnd = flight as u64;
        self.w_max = if cwnd < self.w_max { cwnd * (BETA_SCALE + BETA) / (2 * BETA_SCALE) } else { cwnd };
        self.loss_cwnd = cwnd;
        let ssthresh = if cwnd <= LOW_WINDOW { cwnd / 2 } else { cwnd * BETA / BETA_SCALE };
        w.ssthresh = ssthresh.max(2) as f64;
        match event {
            Congestion::FastRetransmit => w.cwnd = w.ssthresh,
            Congestion::Timeout => {
                w.cwnd = 1.0;
                *self = Bic::default();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Congestion avoidance for one RTT: one ACK per packet of the window,
    /// each acknowledging one packet, as the sender reports them.
    fn rtt(b: &mut Bic, w: &mut Window) {
        for _ in 0..w.cwnd as u64 {
            b.on_acked(1);
            b.on_ack(w, 0);
        }
    }

    #[test]
    fn ack_ratio_estimate_settles_where_linux_integer_filter_does() {
        let settle = |packets: u64| {
            let mut b = Bic::default();
            for _ in 0..100 {
                b.on_acked(packets);
            }
            b.delayed_ack
        };
        // One packet per ACK: 32 -> 31 (1 - 2 wraps to -1), then 1 - 1 = 0.
        assert_eq!(settle(1), 31);
        assert_eq!(settle(2), 32);
        // Three: +1 per ACK until 48 >> 4 = 3.
        assert_eq!(settle(3), 48);
    }

    /// A loss at W = 1000 (the first, so no fast convergence): W_max = 1000,
    /// ssthresh = cwnd = floor(1000 * 819 / 1024) = 799. The distance /4 is
    /// 50 > S_max: additive increase, cnt = floor(floor(W / 16) * 16 / 31),
    /// about 32 packets per RTT (S_max 16 times the 31/16 ACK ratio), until
    /// (1000 - W) / 4 <= 16, i.e. W >= 936. Then binary search: each RTT
    /// adds the quarter distance times 31/16, so the gap to W_max shrinks to
    /// about 1 - 31/64 = 0.52 of itself per RTT, never overshooting W_max,
    /// until within 8 (dist <= 1) where growth slows to 31/16 / 5 = 0.39 per
    /// RTT (and carries on past W_max: max probing).
    #[test]
    fn binary_search_toward_w_max() {
        let mut b = Bic::default();
        let mut w = Window { cwnd: 1000.0, ssthresh: 1e9 };
        b.on_congestion(&mut w, 1000.0, Congestion::FastRetransmit, 0);
        assert_eq!(w, Window { cwnd: 799.0, ssthresh: 799.0 });
        let mut trace = vec![w.cwnd];
        for _ in 0..30 {
            rtt(&mut b, &mut w);
            trace.push(w.cwnd);
        }
        // Additive phase: about 32 per RTT.
        let additive: Vec<_> = trace.windows(2).take_while(|p| p[1] < 936.0).collect();
        assert!(additive.len() >= 3, "{trace:?}");
        for pair in additive {
            let step = pair[1] - pair[0];
            assert!((30.5..33.5).contains(&step), "{pair:?}");
        }
        // Binary search: the gap to 1000 shrinks to about half per RTT.
        let gaps: Vec<f64> = trace.iter().map(|c| 1000.0 - c).filter(|&g| g < 64.0 && g > 8.0).collect();
        assert!(gaps.len() >= 2, "{trace:?}");
        for g in gaps.windows(2) {
            assert!((0.4..0.65).contains(&(g[1] / g[0])), "{gaps:?}");
        }
        assert!(trace[..20].iter().all(|&c| c < 1000.0), "no overshoot: {trace:?}");
        // The plateau: W / (5 W * 16 / 31) = 0.39 packets per RTT.
        let plateau = (trace[25] - trace[15]) / 10.0;
        assert!((0.37..0.41).contains(&plateau), "{plateau}");
    }

    #[test]
    fn fast_convergence_and_low_window() {
        let mut b = Bic::default();
        let mut w = Window { cwnd: 1000.0, ssthresh: 1e9 };
        b.on_congestion(&mut w, 1000.0, Congestion::FastRetransmit, 0);
        // A second loss below W_max: W_max = 900 (1024 + 819) / 2048 = 809.
        b.on_congestion(&mut w, 900.0, Congestion::FastRetransmit, 0);
        assert_eq!(b.w_max, 809);
        assert_eq!(w.ssthresh, (900 * 819 / 1024) as f64);
        // At or below low_window: Reno's half, and Reno's cnt = W (before
        // the ACK-ratio scaling, as in the module).
        b.on_congestion(&mut w, 11.0, Congestion::FastRetransmit, 0);
        assert_eq!(w.ssthresh, 5.0);
        assert_eq!(b.cnt(11), 11);
        // Before any loss: at least 5 % per RTT (cnt <= 20, scaled).
        assert_eq!(Bic::default().cnt(1000), 20 * 16 / 32);
    }
}
