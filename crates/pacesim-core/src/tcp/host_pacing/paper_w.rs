//! Host pacing as paper W's prose describes it (Sec IV), pacesim's first
//! reading (`pacing.host_pacer = "paper-w"`):
//!
//! After a packet leaves at t, the next new packet may leave at t + gap,
//! with the congestion window as it stands at t:
//!
//! - original: gap = RTT / cwnd;
//! - modified (paper W eq. 7): gap = RTT / max(cwnd + 1, min(2 cwnd, ssthresh)),
//!   pacing with the window expected in the next RTT so that slow start is
//!   not slowed down;
//! - rate (Linux `sk_pacing_rate`, as ns-3 offers it): rate = f max(cwnd,
//!   in flight) / RTT with f = 2 while cwnd < ssthresh / 2, else 1.2, so
//!   gap = RTT / (f max(cwnd, in flight)).
//!
//! The window still limits what may be sent; pacing only delays it.
//! The fast retransmission, NewReno's partial-ACK retransmission and
//! limited transmit go at once, without moving the pacing clock; whatever
//! the sender's `send_much` sends is paced, including the resend after a
//! timeout and SACK's hole retransmissions (as bench/ns2/paced/tcp-paced.cc
//! does in ns-2). RTT is an exact exponentially weighted
//! mean (gain 1/8, RFC 6298) of the sender's RTT samples, not the
//! tick-rounded srtt of the retransmission timer; until the first sample
//! nothing is paced. The gap is fixed when a packet leaves: an ACK does not
//! move it (Wei's patch re-evaluates it, `tcp::host_pacing::wei`).

use super::HostPacingMode;
use crate::sim::time::round_ns;
use crate::sim::Time;
use crate::tcp::cc::Window;

#[derive(Debug, Clone)]
pub struct PaperW {
    mode: HostPacingMode,
    /// Smoothed RTT, ns.
    srtt: Option<f64>,
    /// Earliest time the next new packet may leave.
    next: Time,
}

impl PaperW {
    pub fn new(mode: HostPacingMode) -> Self {
        PaperW { mode, srtt: None, next: 0 }
    }

    pub fn on_rtt_sample(&mut self, rtt: Time) {
        let r = rtt as f64;
        self.srtt = Some(self.srtt.map_or(r, |s| s + (r - s) / 8.0));
    }

    /// Whether a new packet may leave at `now`; if not, when it may.
    pub fn hold_until(&self, now: Time) -> Option<Time> {
        (self.next > now).then_some(self.next)
    }

    /// Packets per RTT the current mode paces at.
    fn packets_per_rtt(&self, w: &Window, in_flight: f64) -> f64 {
        match self.mode {
            HostPacingMode::Original => w.cwnd,
            HostPacingMode::Modified => (w.cwnd + 1.0).max((2.0 * w.cwnd).min(w.ssthresh)),
            HostPacingMode::Rate => {
                let factor = if w.cwnd < w.ssthresh / 2.0 { 2.0 } else { 1.2 };
                factor * w.cwnd.max(in_flight)
            }
        }
    }

    /// A new packet left at `now` with the window `w` and `in_flight` packets outstanding.
    pub fn sent(&mut self, now: Time, w: &Window, in_flight: f64) {
        if let Some(rtt) = self.srtt {
            self.next = now + round_ns(rtt / self.packets_per_rtt(w, in_flight));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_follow_each_mode_to_the_nanosecond() {
        let w = Window { cwnd: 8.0, ssthresh: 12.0 };
        let gap = |mode, in_flight| {
            let mut p = PaperW::new(mode);
            p.on_rtt_sample(240_000_000);
            p.sent(1_000, &w, in_flight);
            p.hold_until(1_000).unwrap() - 1_000
        };
        assert_eq!(gap(HostPacingMode::Original, 8.0), 30_000_000); // 240 ms / 8
        assert_eq!(gap(HostPacingMode::Modified, 8.0), 20_000_000); // 240 ms / min(16, 12)
        assert_eq!(gap(HostPacingMode::Rate, 10.0), 20_000_000); // 240 ms / (1.2 * 10)
        let slow_start = Window { cwnd: 4.0, ssthresh: 100.0 };
        let mut p = PaperW::new(HostPacingMode::Rate);
        p.on_rtt_sample(240_000_000);
        p.sent(0, &slow_start, 4.0);
        assert_eq!(p.hold_until(0), Some(30_000_000)); // 240 ms / (2 * 4)
    }

    #[test]
    fn nothing_is_held_before_an_rtt_sample_and_the_mean_is_smoothed() {
        let mut p = PaperW::new(HostPacingMode::Original);
        p.sent(0, &Window { cwnd: 2.0, ssthresh: 10.0 }, 2.0);
        assert_eq!(p.hold_until(0), None);
        p.on_rtt_sample(80);
        p.on_rtt_sample(160); // 80 + (160 - 80) / 8 = 90
        p.sent(0, &Window { cwnd: 1.0, ssthresh: 10.0 }, 1.0);
        assert_eq!(p.hold_until(0), Some(90));
    }
}
