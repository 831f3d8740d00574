//! TCP's parameters as a scenario gives them (`[tcp]`), with their checks.
//!
//! [`TcpVariant`] is a tagged union: each variant with only its own knobs
//! (FACK's rampdown, FAST's alpha and gamma). On the wire (the scenario
//! JSON the Python front sends, and the canonical form the results store
//! hashes into its keys) `[tcp]` is one flat object with every variant's
//! knobs at their defaults (`FlatTcp`): reading keeps the variant's own and
//! rejects a knob set for a variant that has none (rampdown without FACK),
//! so the wire form, and every stored run's key, stays as it was.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::fast::FastSpec;
use crate::spec::{bad, positive, InvalidField, MS};

/// The congestion control and loss recovery, with their knobs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TcpVariant {
    Reno,
    /// Reno window rules with NewReno recovery (RFC 6582; ns-2 `Agent/TCP/Newreno`).
    Newreno,
    /// Reno window rules with SACK recovery (RFC 2018; ns-2 `Agent/TCP/Sack1`
    /// with `Agent/TCPSink/Sack1`).
    Sack,
    /// Reno window rules with forward-acknowledgment recovery (Mathis and
    /// Mahdavi 1996; ns-2 `Agent/TCP/Fack` with `Agent/TCPSink/Sack1`), with
    /// or without rampdown (Sec 4.3; ns-2 `rampdown_`, off by default: the
    /// window falls smoothly to half during recovery).
    Fack {
        rampdown: bool,
    },
    /// BIC-TCP (Xu, Harfoush, Rhee 2004; Linux `tcp_bic.c`) with SACK recovery.
    Bic,
    /// CUBIC (RFC 9438) with SACK recovery.
    Cubic,
    /// FAST TCP (Jin, Wei, Low 2004) with SACK recovery.
    Fast(FastSpec),
}

/// One-way TCP as ns-2's `Agent/TCP`: names and defaults as ns-2 2.35's
/// (paper E's 1000 B segments).
// Each parameter is documented on its wire form (`FlatTcp`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "FlatTcp", into = "FlatTcp")]
pub struct Tcp {
    pub variant: TcpVariant,
    pub segment_size: u64,
    pub header_size: u64,
    pub ack_size: u64,
    pub window: u64,
    pub initial_window: u64,
    pub syn: bool,
    pub tick: u64,
    pub min_rto: u64,
    pub max_rto: u64,
    pub initial_rto: u64,
    pub delayed_ack: Option<u64>,
    pub window_cut: WindowCut,
}

/// What a window cut (ns-2 `slowdown`: fast retransmit, timeout) halves
/// (`tcp.window_cut`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WindowCut {
    /// The window in use, cwnd (stock ns-2).
    #[default]
    Cwnd,
    /// The packets in flight, as ns-2 built with Wei's pacing patch does for
    /// every agent, paced or not (Reno, NewReno: `t_seqno - highest_ack`;
    /// SACK: `pipe` in recovery, which it then also fills to the window,
    /// `pipe <= window`, not `pipe < cwnd`; FACK: `t_seqno - fack +
    /// retran_data`).
    Flight,
    /// "flight" in a run whose hosts pace (`pacing.scheme = "host"`: the
    /// patched build), "cwnd" otherwise (paper E Sec 3.1: its host pacing ran
    /// in ns-2.28 with Wei's patch, its edge pacer in ns-2.33).
    FlightIfHostPaced,
}

impl WindowCut {
    /// Whether cuts come from the packets in flight, in a run whose hosts
    /// pace (`host_paced_run`) or not.
    pub fn from_flight(self, host_paced_run: bool) -> bool {
        match self {
            WindowCut::Cwnd => false,
            WindowCut::Flight => true,
            WindowCut::FlightIfHostPaced => host_paced_run,
        }
    }
}

/// A variant's name on the wire (`tcp.variant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
enum VariantName {
    Reno,
    Newreno,
    Sack,
    Fack,
    Bic,
    Cubic,
    Fast,
}

/// The wire form: the common parameters and every variant's knobs, a key
/// left out taking ns-2 2.35's default (`FlatTcp::default`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
struct FlatTcp {
    /// Congestion control and loss recovery: ns-2's Reno, NewReno, Sack1,
    /// Fack; BIC and CUBIC (Linux, paper W), FAST (paper W).
    variant: VariantName,
    /// Payload per data segment (ns-2 `packetSize_`; paper E: 1000 B), bytes.
    #[schemars(extend("x-unit" = "bytes"), range(min = 1))]
    segment_size: u64,
    /// TCP/IP header added on the wire (ns-2 `tcpip_base_hdr_size_`, with
    /// `useHeaders_ true`): data packets are segment_size + header_size.
    #[schemars(extend("x-unit" = "bytes"))]
    header_size: u64,
    /// ACK size on the wire (ns-2 `Agent/TCPSink packetSize_`).
    #[schemars(extend("x-unit" = "bytes"), range(min = 1))]
    ack_size: u64,
    /// Receiver's advertised window limit, packets (ns-2 `window_`; large so
    /// that it never binds).
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    window: u64,
    /// Congestion window once the SYN is acknowledged, packets (ns-2 `windowInit_`).
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    initial_window: u64,
    /// Model the SYN as a header-only first packet with cwnd 1 until it is
    /// acknowledged (ns-2 `syn_ true`, `delay_growth_ true`).
    syn: bool,
    /// Granularity of the RTT estimator and the retransmission timer (ns-2 `tcpTick_`), ns.
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    tick: u64,
    /// Least retransmission timeout (ns-2 `minrto_`), ns.
    #[schemars(extend("x-unit" = "ns"))]
    min_rto: u64,
    /// Largest retransmission timeout, back-off included (ns-2 `maxrto_`), ns.
    #[schemars(extend("x-unit" = "ns"))]
    max_rto: u64,
    /// Retransmission timeout before the first RTT sample (ns-2 `rtxcur_init_`), ns.
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    initial_rto: u64,
    /// Delayed ACKs at the sink with this timer, ns (ns-2
    /// `Agent/TCPSink/DelAck`, `interval_` 100 ms); off when absent, as in
    /// the papers.
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    delayed_ack: Option<u64>,
    /// What window cuts (fast retransmit, timeout) halve: the window in use
    /// (stock ns-2), the packets in flight (ns-2 built with Wei's pacing
    /// patch, every agent paced or not), or the packets in flight only in
    /// runs whose hosts pace (paper E's two builds).
    #[schemars(extend("x-omit-default" = true))]
    window_cut: WindowCut,
    /// FACK's rampdown (Mathis and Mahdavi Sec 4.3; ns-2 `rampdown_`); FACK only.
    rampdown: bool,
    /// FAST: packets each flow keeps queued in the network (Jin, Wei, Low 2004).
    #[schemars(extend("exclusiveMinimum" = 0.0))]
    fast_alpha: f64,
    /// FAST: the step of its window update, in (0, 1].
    #[schemars(extend("exclusiveMinimum" = 0.0), range(max = 1.0))]
    fast_gamma: f64,
}

/// ns-2 2.35's `Agent/TCP` defaults (paper E's 1000 B segments), Reno.
impl Default for FlatTcp {
    fn default() -> Self {
        FlatTcp {
            variant: VariantName::Reno,
            segment_size: 1000,
            header_size: 40,
            ack_size: 40,
            window: 1000,
            initial_window: 2,
            syn: true,
            tick: 10 * MS,
            min_rto: 200 * MS,
            max_rto: 60_000 * MS,
            initial_rto: 3000 * MS,
            delayed_ack: None,
            window_cut: WindowCut::Cwnd,
            rampdown: false,
            fast_alpha: FastSpec::default_alpha(),
            fast_gamma: FastSpec::default_gamma(),
        }
    }
}

impl TryFrom<FlatTcp> for Tcp {
    type Error = InvalidField;

    fn try_from(f: FlatTcp) -> Result<Self, InvalidField> {
        if f.rampdown && f.variant != VariantName::Fack {
            return Err(bad("tcp.rampdown", "only FACK ramps down (tcp.variant = \"fack\")"));
        }
        let variant = match f.variant {
            VariantName::Reno => TcpVariant::Reno,
            VariantName::Newreno => TcpVariant::Newreno,
            VariantName::Sack => TcpVariant::Sack,
            VariantName::Fack => TcpVariant::Fack { rampdown: f.rampdown },
            VariantName::Bic => TcpVariant::Bic,
            VariantName::Cubic => TcpVariant::Cubic,
            VariantName::Fast => TcpVariant::Fast(FastSpec { alpha: f.fast_alpha, gamma: f.fast_gamma }),
        };
        Ok(Tcp {
            variant,
            segment_size: f.segment_size,
            header_size: f.header_size,
            ack_size: f.ack_size,
            window: f.window,
            initial_window: f.initial_window,
            syn: f.syn,
            tick: f.tick,
            min_rto: f.min_rto,
            max_rto: f.max_rto,
            initial_rto: f.initial_rto,
            delayed_ack: f.delayed_ack,
            window_cut: f.window_cut,
        })
    }
}

impl From<Tcp> for FlatTcp {
    fn from(t: Tcp) -> Self {
        let (variant, rampdown, fast) = match t.variant {
            TcpVariant::Reno => (VariantName::Reno, false, None),
            TcpVariant::Newreno => (VariantName::Newreno, false, None),
            TcpVariant::Sack => (VariantName::Sack, false, None),
            TcpVariant::Fack { rampdown } => (VariantName::Fack, rampdown, None),
            TcpVariant::Bic => (VariantName::Bic, false, None),
            TcpVariant::Cubic => (VariantName::Cubic, false, None),
            TcpVariant::Fast(spec) => (VariantName::Fast, false, Some(spec)),
        };
        FlatTcp {
            variant,
            segment_size: t.segment_size,
            header_size: t.header_size,
            ack_size: t.ack_size,
            window: t.window,
            initial_window: t.initial_window,
            syn: t.syn,
            tick: t.tick,
            min_rto: t.min_rto,
            max_rto: t.max_rto,
            initial_rto: t.initial_rto,
            delayed_ack: t.delayed_ack,
            window_cut: t.window_cut,
            rampdown,
            fast_alpha: fast.map_or_else(FastSpec::default_alpha, |f| f.alpha),
            fast_gamma: fast.map_or_else(FastSpec::default_gamma, |f| f.gamma),
        }
    }
}

impl Tcp {
    /// Whether the window grows by Reno's rules (Reno, NewReno, SACK, FACK).
    pub fn reno_window(&self) -> bool {
        matches!(
            self.variant,
            TcpVariant::Reno | TcpVariant::Newreno | TcpVariant::Sack | TcpVariant::Fack { .. }
        )
    }

    /// Check the TCP parameters; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        let t = self;
        if t.syn {
            positive("tcp.header_size", t.header_size)?;
        }
        if t.min_rto > t.max_rto {
            let message = format!("{} ns must not exceed tcp.max_rto ({} ns)", t.min_rto, t.max_rto);
            return Err(bad("tcp.min_rto", message));
        }
        if let TcpVariant::Fast(f) = t.variant {
            f.validate()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAT: &str = r#"{"variant":"fast","segment_size":1000,"header_size":40,"ack_size":40,"window":1000,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000,"delayed_ack":null,"window_cut":"cwnd","rampdown":false,"fast_alpha":20.0,"fast_gamma":0.5}"#;

    /// The wire form reads into the variant's knobs alone and writes back
    /// as the same flat object (the store's keys hash that form).
    #[test]
    fn flat_wire_form_keeps_the_variants_knobs_and_round_trips() {
        let t: Tcp = serde_json::from_str(FLAT).unwrap();
        assert_eq!(t.variant, TcpVariant::Fast(FastSpec { alpha: 20.0, gamma: 0.5 }));
        assert_eq!(serde_json::to_string(&t).unwrap(), FLAT);
        let fack: Tcp =
            serde_json::from_str(&FLAT.replace(r#""fast""#, r#""fack""#).replace("false", "true")).unwrap();
        assert_eq!(fack.variant, TcpVariant::Fack { rampdown: true });
        let err = serde_json::from_str::<Tcp>(&FLAT.replace("false", "true")).unwrap_err().to_string();
        assert!(err.starts_with("tcp.rampdown: only FACK"), "{err}");
    }
}
