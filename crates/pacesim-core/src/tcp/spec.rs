//! TCP's parameters as a scenario gives them (`[tcp]`), with their checks.

use serde::{Deserialize, Serialize};

use crate::spec::{bad, positive, InvalidField};

/// One-way TCP, parameters named as in ns-2 (`Agent/TCP`) with its defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tcp {
    pub variant: TcpVariant,
    /// Payload per data segment (ns-2 `packetSize_`), bytes.
    pub segment_size: u64,
    /// TCP/IP header added on the wire (ns-2 `tcpip_base_hdr_size_`, with
    /// `useHeaders_ true`): data packets are segment_size + header_size.
    pub header_size: u64,
    /// ACK size on the wire (ns-2 `Agent/TCPSink packetSize_`).
    pub ack_size: u64,
    /// Advertised window limit, packets (ns-2 `window_`).
    pub window: u64,
    /// Initial window after the SYN is acknowledged (ns-2 `windowInit_`).
    pub initial_window: u64,
    /// Model the SYN as a header-only first packet with cwnd 1 until it is
    /// acknowledged (ns-2 `syn_ true`, `delay_growth_ true`).
    pub syn: bool,
    /// Retransmission timer clock granularity (ns-2 `tcpTick_`), ns.
    pub tick: u64,
    pub min_rto: u64,
    pub max_rto: u64,
    /// RTO before any RTT sample (ns-2 `rtxcur_init_`), ns.
    pub initial_rto: u64,
    /// Delayed ACKs at the sink with this timer, ns (ns-2
    /// `Agent/TCPSink/DelAck`, `interval_` 100 ms); off when absent, as in
    /// the papers.
    #[serde(default)]
    pub delayed_ack: Option<u64>,
    /// FACK's rampdown (Mathis and Mahdavi Sec 4.3; ns-2 `rampdown_`, off
    /// by default): the window falls smoothly to half during recovery.
    #[serde(default)]
    pub rampdown: bool,
    /// FAST's alpha: packets each flow keeps queued at equilibrium (FAST
    /// paper's experiments: 200).
    #[serde(default = "Tcp::default_fast_alpha")]
    pub fast_alpha: f64,
    /// FAST's gamma, the update's step in (0, 1] (FAST paper: 0.5).
    #[serde(default = "Tcp::default_fast_gamma")]
    pub fast_gamma: f64,
}

impl Tcp {
    /// Check the TCP parameters; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        let t = self;
        positive("tcp.segment_size", t.segment_size)?;
        positive("tcp.ack_size", t.ack_size)?;
        if t.syn {
            positive("tcp.header_size", t.header_size)?;
        }
        positive("tcp.window", t.window)?;
        positive("tcp.initial_window", t.initial_window)?;
        positive("tcp.tick", t.tick)?;
        if t.min_rto > t.max_rto {
            return Err(bad("tcp.min_rto", "must not exceed tcp.max_rto"));
        }
        positive("tcp.initial_rto", t.initial_rto)?;
        if let Some(d) = t.delayed_ack {
            positive("tcp.delayed_ack", d)?;
        }
        if !(t.fast_alpha > 0.0 && t.fast_alpha.is_finite()) {
            return Err(bad(
                "tcp.fast_alpha",
                format!("{} is not a positive number of packets", t.fast_alpha),
            ));
        }
        if !(t.fast_gamma > 0.0 && t.fast_gamma <= 1.0) {
            return Err(bad("tcp.fast_gamma", format!("{} is not in (0, 1]", t.fast_gamma)));
        }
        if t.rampdown && t.variant != TcpVariant::Fack {
            return Err(bad("tcp.rampdown", "only FACK ramps down (tcp.variant = \"fack\")"));
        }
        Ok(())
    }

    fn default_fast_alpha() -> f64 {
        200.0
    }
    fn default_fast_gamma() -> f64 {
        0.5
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TcpVariant {
    Reno,
    /// Reno window rules with NewReno recovery (RFC 6582; ns-2 `Agent/TCP/Newreno`).
    Newreno,
    /// Reno window rules with SACK recovery (RFC 2018; ns-2 `Agent/TCP/Sack1`
    /// with `Agent/TCPSink/Sack1`).
    Sack,
    /// Reno window rules with forward-acknowledgment recovery (Mathis and
    /// Mahdavi 1996; ns-2 `Agent/TCP/Fack` with `Agent/TCPSink/Sack1`).
    Fack,
    /// BIC-TCP (Xu, Harfoush, Rhee 2004; Linux `tcp_bic.c`) with SACK recovery.
    Bic,
    /// CUBIC (RFC 9438) with SACK recovery.
    Cubic,
    /// FAST TCP (Jin, Wei, Low 2004) with SACK recovery.
    Fast,
}
