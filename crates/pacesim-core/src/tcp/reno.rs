//! Reno's window rules (RFC 5681), as ns-2's `TcpAgent` applies them with
//! its defaults (`windowOption_ 1`, `decrease_num_ 0.5`, `precisionReduce_`):
//!
//! - per new ACK: `cwnd += 1` below ssthresh, else `cwnd += 1/cwnd`;
//! - fast retransmit: `ssthresh = max(2, floor(W/2))`, `cwnd = W/2`
//!   (ns-2 `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)`, where W is the
//!   window in use including Reno's fast-recovery inflation);
//! - timeout: `ssthresh = max(2, floor(W/2))`, `cwnd = 1`
//!   (`CLOSE_CWND_RESTART` with `wnd_restart_` 1).
//!
//! Reno, NewReno, SACK and FACK grow and cut their windows by these rules
//! and differ in their loss recovery; FACK's knob is here, [`FackSpec`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::algorithm::{Algorithm, Common};
use super::cc::{Congestion, CongestionControl, Window};
use super::recovery::Recovery;
use crate::sim::rng::Stream;
use crate::sim::Time;

pub struct Reno;

impl CongestionControl for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn reno_window(&self) -> bool {
        true
    }

    fn on_ack(&mut self, w: &mut Window, _now: Time) {
        w.reno_increase();
    }

    fn on_congestion(&mut self, w: &mut Window, flight: f64, event: Congestion, _now: Time) {
        w.reno_decrease(flight, event);
    }
}

/// FACK's knob as a scenario gives it, in `[tcp]` (`tcp.rampdown`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct FackSpec {
    /// FACK's rampdown (Mathis and Mahdavi Sec 4.3; ns-2 `rampdown_`); FACK only.
    #[serde(default)]
    pub rampdown: bool,
}

/// Reno's window rules with forward-acknowledgment recovery.
impl Algorithm for FackSpec {
    fn build(&self, _: Common, _: impl FnOnce() -> Stream) -> (Box<dyn CongestionControl>, Recovery) {
        (Box::new(Reno), Recovery::fack(self.rampdown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_by_one_per_ack_in_slow_start_and_one_per_window_after() {
        let mut w = Window { cwnd: 2.0, ssthresh: 4.0 };
        let mut r = Reno;
        r.on_ack(&mut w, 0);
        r.on_ack(&mut w, 0);
        assert_eq!(w.cwnd, 4.0);
        // A full window of ACKs in congestion avoidance adds about one packet.
        for _ in 0..4 {
            r.on_ack(&mut w, 0);
        }
        // 4 -> 4.25 -> 4.4853 -> 4.7082 -> 4.9206
        assert!((w.cwnd - 4.9206).abs() < 1e-4, "{}", w.cwnd);
    }

    #[test]
    fn halves_on_fast_retransmit_and_restarts_on_timeout() {
        let mut r = Reno;
        let mut w = Window { cwnd: 11.0, ssthresh: 1000.0 };
        r.on_congestion(&mut w, 11.0, Congestion::FastRetransmit, 0);
        assert_eq!(w, Window { cwnd: 5.5, ssthresh: 5.0 });
        r.on_congestion(&mut w, 3.0, Congestion::Timeout, 0);
        assert_eq!(w, Window { cwnd: 1.0, ssthresh: 2.0 });
    }
}
