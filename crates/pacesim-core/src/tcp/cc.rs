//! The congestion-control seam: how the window opens on ACKs and closes on
//! congestion. Sequence numbers, timers and loss recovery stay in the
//! sender; a variant only answers these two questions (after Linux's
//! `tcp_congestion_ops` and quinn's `Controller`). A variant that asks
//! (`wants_rate_samples`) also sees every ACK's delivery-rate sample, the
//! packets in flight and the least RTT (`tcp::rate`, Linux's `tcp_rate.c`)
//! and may set the pacing rate and the window directly (`on_rate_sample`).
//! An ECN-capable sender's variant hears each ACK's echo (`on_ecn_ack`)
//! and cuts on one (`on_ece`; `tcp::ecn`). What a scenario's checks and a
//! flow's setup ask of a variant (`reno_window`, `ecn_mode`) it says here
//! too, so that adding one names it only in its file and its registry line.

use super::ecn::EcnMode;
use super::rate::{RateControl, RateSample};
use crate::sim::Time;

/// The window state congestion control acts on, in packets (ns-2 `cwnd_`,
/// `ssthresh_`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    pub cwnd: f64,
    pub ssthresh: f64,
}

impl Window {
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// Slow start: one packet per ACK (RFC 5681 Sec 3.1).
    pub fn slow_start(&mut self) {
        self.cwnd += 1.0;
    }

    /// Congestion avoidance: `increase` packets per window of ACKs, i.e.
    /// `cwnd += increase / cwnd` per ACK (ns-2 `windowOption_ 1`).
    pub fn additive_increase(&mut self, increase: f64) {
        self.cwnd += increase / self.cwnd;
    }

    /// Reno's reduction on `event` with `flight` packets of window in use
    /// (ns-2 `slowdown`): ssthresh = max(2, floor(flight / 2)); cwnd to
    /// half (fast retransmit, `CLOSE_CWND_HALF`, with no floor: half of a
    /// SACK pipe of one, cut from flight, is half a packet, which sends
    /// nothing until the timer) or to one (timeout).
    pub fn reno_decrease(&mut self, flight: f64, event: Congestion) {
        let half = flight / 2.0;
        self.ssthresh = half.floor().max(2.0);
        self.cwnd = match event {
            Congestion::FastRetransmit => half,
            Congestion::Timeout => 1.0,
        };
    }

    /// Reno's growth: slow start below ssthresh, else one packet per window.
    pub fn reno_increase(&mut self) {
        if self.in_slow_start() {
            self.slow_start();
        } else {
            self.additive_increase(1.0);
        }
    }
}

/// What the sender detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Congestion {
    /// Three duplicate ACKs: fast retransmit.
    FastRetransmit,
    /// The retransmission timer expired.
    Timeout,
}

pub trait CongestionControl: Send {
    fn name(&self) -> &'static str;

    /// Whether the window grows and is cut by Reno's rules (`tcp::reno`),
    /// whose rounds Wei's ACK counting counts (`pacing.wei.ack_counting`).
    fn reno_window(&self) -> bool {
        false
    }

    /// How a flow of this variant uses ECN, `asked` its `tcp.ecn`: classic
    /// (RFC 3168) if asked, unless the variant has its own way (DCTCP).
    fn ecn_mode(&self, asked: bool) -> EcnMode {
        if asked {
            EcnMode::Classic
        } else {
            EcnMode::Off
        }
    }

    /// An ACK advanced the cumulative ACK point (ns-2 `opencwnd`).
    fn on_ack(&mut self, w: &mut Window, now: Time);

    /// Congestion was detected while `flight` packets' worth of window was
    /// in use (ns-2 `windowd()`); set the new `ssthresh` and `cwnd`.
    fn on_congestion(&mut self, w: &mut Window, flight: f64, event: Congestion, now: Time);

    /// A new ACK outside loss recovery acknowledged `packets` packets
    /// (Linux `pkts_acked` in the Open state); called before [`on_ack`](Self::on_ack).
    fn on_acked(&mut self, _packets: u64) {}

    /// An RTT sample was taken (Karn's rule: one timed packet per RTT);
    /// delay-based and time-based variants use it.
    fn on_rtt(&mut self, _w: &mut Window, _rtt: Time, _now: Time) {}

    /// Whether this variant takes a delivery-rate sample on every ACK
    /// (`on_rate_sample`); the sender then keeps a send-time snapshot per
    /// packet (`tcp::rate`), which the others do without.
    fn wants_rate_samples(&self) -> bool {
        false
    }

    /// An ACK arrived with its rate sample (Linux `cong_control`, ns-3
    /// `CongControl`), before the loss recovery acts on it: the variant may
    /// set `w.cwnd` and the flow's pacing rate in `control`. Called only if
    /// `wants_rate_samples`.
    fn on_rate_sample(&mut self, _w: &mut Window, _control: &mut RateControl, _rs: &RateSample, _now: Time) {}

    /// Whether this variant sets the window on every ACK itself, in loss
    /// recovery too (Linux's `cong_control`, which bypasses the stack's
    /// proportional rate reduction): a recovery that bounds its sending
    /// by PRR (RFC 6937, `recovery::rfc6675`) then leaves the window to it.
    fn sets_window(&self) -> bool {
        false
    }

    /// An ECN-capable sender's new ACK acknowledged `acked` packets, with
    /// ECE or not, up to `ackno`, `snd_nxt` the next sequence number to
    /// send (DCTCP's alpha, `tcp::dctcp`); before any cut it brings
    /// (`on_ece`) and before `on_ack`.
    fn on_ecn_ack(&mut self, _acked: u64, _ece: bool, _ackno: i64, _snd_nxt: i64) {}

    /// An ECN echo cuts the window, once per window of data (`tcp::ecn`),
    /// `flight` packets of window in use: RFC 3168 Sec 6.1.2's response is
    /// the variant's own to a fast retransmit ("the same as ... a single
    /// dropped packet"), unless it says otherwise.
    fn on_ece(&mut self, w: &mut Window, flight: f64, now: Time) {
        self.on_congestion(w, flight, Congestion::FastRetransmit, now);
    }
}
