//! DCTCP (Alizadeh et al., "Data Center TCP", SIGCOMM 2010; RFC 8257 as
//! Linux `tcp_dctcp.c` implements it): Reno's window growth and loss
//! response, and a cut on ECN echoes in proportion to the share of data
//! marked (RFC 8257 Sec 3.3, in packets, as this model counts data):
//!
//! - every new ACK adds the packets it acknowledges to `DCTCP.BytesAcked`,
//!   and, if it carries ECE, to `DCTCP.BytesMarked`;
//! - once the ACK reaches the end of the observation window
//!   (`DCTCP.WindowEnd`, the next sequence number to send when the last
//!   window closed), "M = DCTCP.BytesMarked / DCTCP.BytesAcked",
//!   "DCTCP.Alpha = DCTCP.Alpha * (1 - g) + g * M", the window restarts at
//!   the next sequence number to send and both counts at zero. An ACK that
//!   reaches the window's end closes it (Linux: `snd_una` not before
//!   `next_seq`; ns-3 likewise); RFC 8257 step 4 reads "less than or equal
//!   to" it as still inside, one ACK later;
//! - an echo cuts once per window of data (`tcp::ecn`): "cwnd = cwnd * (1 -
//!   DCTCP.Alpha / 2)", ssthresh there (at least 2, as Linux's
//!   `dctcp_ssthresh`), and no ACK of that window opens it again (Linux's
//!   CWR state, ns-3's CA_CWR);
//! - a loss is Reno's (RFC 8257 Sec 3.4: "a DCTCP sender ... MUST react to
//!   loss episodes in the same way as conventional TCP").
//!
//! g is 1/16 (the paper's and Linux's `dctcp_shift_g` 4); alpha starts at 1
//! (Linux's `dctcp_alpha_on_init`, 1024 of 1024: a new flow halves on its
//! first echo).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::algorithm::{Algorithm, Common};
use super::cc::{Congestion, CongestionControl, Window};
use super::ecn::EcnMode;
use super::recovery::Recovery;
use crate::sim::rng::Stream;
use crate::sim::Time;

/// DCTCP's knobs as a scenario gives them, in `[tcp]` (`tcp.dctcp_g`,
/// `tcp.dctcp_alpha_init`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DctcpSpec {
    /// DCTCP: the weight of the newest window's marked share in alpha, in
    /// (0, 1] (RFC 8257's g; the paper's and Linux's 1/16).
    #[serde(rename = "dctcp_g", default = "DctcpSpec::default_g")]
    #[schemars(extend("exclusiveMinimum" = 0.0), range(max = 1.0))]
    pub g: f64,
    /// DCTCP: alpha before the first window closes, in [0, 1] (Linux's
    /// `dctcp_alpha_on_init`: 1).
    #[serde(rename = "dctcp_alpha_init", default = "DctcpSpec::default_alpha_init")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub alpha_init: f64,
}

impl DctcpSpec {
    pub fn default_g() -> f64 {
        1.0 / 16.0
    }
    pub fn default_alpha_init() -> f64 {
        1.0
    }
}

/// RFC 8257 Sec 3.4: loss as conventional TCP; NewReno's recovery.
impl Algorithm for DctcpSpec {
    fn build(&self, _: Common, _: impl FnOnce() -> Stream) -> (Box<dyn CongestionControl>, Recovery) {
        (Box::new(Dctcp::new(*self)), Recovery::newreno())
    }
}

impl Default for DctcpSpec {
    fn default() -> Self {
        DctcpSpec { g: Self::default_g(), alpha_init: Self::default_alpha_init() }
    }
}

#[derive(Debug)]
pub struct Dctcp {
    g: f64,
    /// The estimate of the share of data marked (RFC 8257's DCTCP.Alpha).
    pub alpha: f64,
    /// Packets acknowledged, and those by ACKs with ECE, in this window.
    acked: u64,
    marked: u64,
    /// The sequence number the window closes at (DCTCP.WindowEnd).
    window_end: i64,
    /// Windows closed so far (alpha's updates).
    pub windows: u64,
}

impl Dctcp {
    pub fn new(spec: DctcpSpec) -> Self {
        Dctcp { g: spec.g, alpha: spec.alpha_init, acked: 0, marked: 0, window_end: 0, windows: 0 }
    }
}

impl CongestionControl for Dctcp {
    fn name(&self) -> &'static str {
        "dctcp"
    }

    /// ECN always, DCTCP's way, whatever `tcp.ecn` says.
    fn ecn_mode(&self, _asked: bool) -> EcnMode {
        EcnMode::Dctcp
    }

    fn on_ack(&mut self, w: &mut Window, _now: Time) {
        w.reno_increase();
    }

    fn on_congestion(&mut self, w: &mut Window, flight: f64, event: Congestion, _now: Time) {
        w.reno_decrease(flight, event);
    }

    fn on_ecn_ack(&mut self, acked: u64, ece: bool, ackno: i64, snd_nxt: i64) {
        self.acked += acked;
        if ece {
            self.marked += acked;
        }
        // The ACK point (SND.UNA) is ackno + 1.
        if ackno + 1 < self.window_end {
            return;
        }
        // "M = DCTCP.BytesMarked / DCTCP.BytesAcked"
        let m = self.marked as f64 / self.acked as f64;
        // "DCTCP.Alpha = DCTCP.Alpha * (1 - g) + g * M"
        self.alpha = self.alpha * (1.0 - self.g) + self.g * m;
        self.window_end = snd_nxt;
        self.acked = 0;
        self.marked = 0;
        self.windows += 1;
    }

    fn on_ece(&mut self, w: &mut Window, _flight: f64, _now: Time) {
        // "cwnd = cwnd * (1 - DCTCP.Alpha / 2)"
        let cwnd = w.cwnd * (1.0 - self.alpha / 2.0);
        w.ssthresh = cwnd.max(2.0);
        w.cwnd = cwnd.max(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SYN's ACK (unmarked, 10 more sent by then) closes the first
    /// window: alpha stays 0. Then windows of 10 packets, one ACK each: after n
    /// windows all marked, alpha is 1 - (15/16)^n; a window with 3 of 10
    /// marked moves it a sixteenth of the way to 0.3.
    #[test]
    fn alpha_is_the_ewma_of_the_marked_share_once_a_window() {
        let mut d = Dctcp::new(DctcpSpec { alpha_init: 0.0, ..Default::default() });
        d.on_ecn_ack(1, false, 0, 11);
        assert_eq!((d.alpha, d.windows), (0.0, 1));
        let window = |d: &mut Dctcp, k: i64, marked: i64| {
            // Window k holds 10 (k - 1) + 1 ..= 10 k; sending stood at 10 k
            // + 1 when it closed (the sender keeps a window ahead).
            for seq in 10 * (k - 1) + 1..=10 * k {
                d.on_ecn_ack(1, seq - 10 * (k - 1) <= marked, seq, 10 * (k + 1) + 1);
            }
        };
        for n in 1..=20 {
            window(&mut d, n, 10);
            let want = 1.0 - (15.0f64 / 16.0).powi(n as i32);
            assert!((d.alpha - want).abs() < 1e-12, "window {n}: {} against {want}", d.alpha);
        }
        assert_eq!(d.windows, 21, "one update a window");
        let before = d.alpha;
        window(&mut d, 21, 3);
        assert!((d.alpha - (before * 15.0 / 16.0 + 0.3 / 16.0)).abs() < 1e-12);
    }

    #[test]
    fn an_echo_cuts_by_half_alpha_and_a_loss_halves() {
        let mut d = Dctcp::new(DctcpSpec::default());
        d.alpha = 0.25;
        let mut w = Window { cwnd: 40.0, ssthresh: 1000.0 };
        d.on_ece(&mut w, 40.0, 0);
        assert_eq!(w, Window { cwnd: 35.0, ssthresh: 35.0 });
        d.on_congestion(&mut w, 35.0, Congestion::FastRetransmit, 0);
        assert_eq!(w, Window { cwnd: 17.5, ssthresh: 17.0 });
    }

    /// g in (0, 1] and alpha's start in [0, 1], as the spec's schema says
    /// (`spec::bounds` holds them; NaN, which JSON writes as null, too).
    #[test]
    fn the_knobs_are_held_to_their_schema_bounds() {
        let past = |spec: DctcpSpec| crate::spec::bounds::past_bound(&spec);
        let d = DctcpSpec::default();
        assert_eq!(past(DctcpSpec { g: 1.0, alpha_init: 0.0 }), None);
        for g in [0.0, 1.5, f64::NAN] {
            assert_eq!(past(DctcpSpec { g, ..d }).as_deref(), Some("dctcp_g"), "{g}");
        }
        for a in [-0.5, 1.5, f64::NAN] {
            assert_eq!(past(DctcpSpec { alpha_init: a, ..d }).as_deref(), Some("dctcp_alpha_init"), "{a}");
        }
    }
}
