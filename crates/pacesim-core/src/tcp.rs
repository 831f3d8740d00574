//! One-way TCP as ns-2 simulates it: packet-counted sequence numbers, a
//! sender agent and a sink agent, no connection handshake beyond an
//! optional SYN packet, data always available (bulk transfer).
//!
//! The sender ([`sender`]) owns sequence numbers and the retransmission
//! timer ([`rtt`]); what it does about a loss is its [`recovery`] (Reno,
//! NewReno, SACK, FACK); how the window grows and shrinks is a
//! [`cc::CongestionControl`] chosen by name ([`reno`], [`bic`], [`cubic`],
//! [`fast`], [`bbr`], which takes the delivery-rate samples of [`rate`]
//! and sets its own pacing rate, [`dctcp`], which cuts by the share of
//! its data marked). ECN at both ends is [`ecn`]. A paced sender spaces
//! its packets ([`host_pacing`]).

pub mod algorithm;
pub mod bbr;
pub mod bic;
pub mod cc;
pub mod cubic;
pub mod dctcp;
pub mod ecn;
pub mod fast;
pub mod host_pacing;
pub mod rate;
pub mod recovery;
pub mod reno;
pub mod rtt;
pub mod sender;
pub mod sink;
pub mod spec;
pub mod state;

pub use cc::{Congestion, CongestionControl, Window};
pub use recovery::{LossRecovery, Recovery};
pub use sender::TcpSender;
pub use sink::TcpSink;

use crate::sim::rng::{stream, uniform};
use crate::sim::Time;
use host_pacing::{DelayedSend, HostPacer, HostPacing};
use rtt::RttEstimator;
pub use spec::{Tcp, TcpVariant};

/// Builds a flow's sender and sink as the scenario configures TCP. A
/// long-lived flow gets one pair; a short-lived one a new pair per
/// connection, each exactly like its first.
#[derive(Debug, Clone)]
pub struct TcpSetup {
    pub tcp: Tcp,
    seed: u64,
    /// How paced senders pace.
    host: HostPacing,
    /// Every sender cuts its window from the packets in flight (`tcp.window_cut`).
    cut_from_flight: bool,
    /// Senders remember first transmission times (for data packets' one-way delays).
    pub first_sends: bool,
}

impl TcpSetup {
    /// Senders as `tcp` says, paced ones as `host` says; `host_paced_run`:
    /// whether the run's hosts pace (`tcp.window_cut` may depend on it).
    pub fn new(tcp: &Tcp, seed: u64, host: HostPacing, host_paced_run: bool) -> Self {
        let cut_from_flight = tcp.window_cut.from_flight(host_paced_run);
        TcpSetup { tcp: tcp.clone(), seed, host, cut_from_flight, first_sends: false }
    }

    /// A sender for `flow`, pacing if `paced`. Its TCP clock has the
    /// flow's phase (ns-2 `boot_time_`), drawn from the "tcp.boot" stream;
    /// Wei's pacing jitter draws from the "tcp.pace" stream, an unpaced
    /// sender's delayed send (`tcp.overhead`) from "tcp.overhead".
    pub fn sender(&self, flow: usize, paced: bool) -> TcpSender {
        let t = &self.tcp;
        let boot: Time = uniform(&mut stream(self.seed, "tcp.boot", flow as u64), [0, t.tick - 1]);
        let rtt = RttEstimator::new(t.tick, boot, t.min_rto, t.max_rto, t.initial_rto);
        let cc = t.congestion(paced && self.host.is_linux(), || stream(self.seed, "tcp.bbr", flow as u64));
        let mut sender = TcpSender::new(cc, t.window, t.initial_window, t.syn, rtt)
            .with_cuts_from_flight(self.cut_from_flight)
            .with_ecn(t.ecn);
        if self.first_sends {
            sender = sender.with_first_sends();
        }
        if paced {
            sender.with_pacing(HostPacer::new(&self.host, || stream(self.seed, "tcp.pace", flow as u64)))
        } else if t.overhead > 0 {
            let rng = stream(self.seed, "tcp.overhead", flow as u64);
            sender.with_pacing(HostPacer::Delayed(DelayedSend::new(t.overhead, rng)))
        } else {
            sender
        }
    }

    /// A sink for `sender`.
    pub fn sink(&self, sender: &TcpSender) -> TcpSink {
        TcpSink::new(self.tcp.delayed_ack, sender.uses_sack()).with_ecn(sender.ecn_mode())
    }

    /// The first sequence number carrying data (packet 0 is the SYN when modelled).
    pub fn first_data(&self) -> i64 {
        i64::from(self.tcp.syn)
    }
}
