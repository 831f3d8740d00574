//! TCP's parameters as a scenario gives them (`[tcp]`), with their checks.
//!
//! [`TcpVariant`] is a tagged union, made by its registry (`tcp_variants!`,
//! one line a variant): each variant with only its own knobs, declared
//! beside its algorithm (FAST's in `fast.rs`, [`FastSpec`]; FACK's rampdown
//! in `reno.rs`, [`FackSpec`]). `[tcp]` writes them beside the common keys
//! (`variant = "fast"`, `fast_alpha = 20.0`); its [`Table`] reads and writes
//! it as one table (`spec::variants`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::algorithm::{Algorithm, Common};
use super::bbr::BbrSpec;
use super::bic;
use super::cc::CongestionControl;
use super::cubic::CubicSpec;
use super::dctcp::DctcpSpec;
use super::fast::FastSpec;
use super::recovery::Recovery;
use super::reno::{FackSpec, Reno};
use crate::sim::rng::{stream, Stream};
use crate::spec::human::time;
use crate::spec::variants::{Table, Variants};
use crate::spec::{bad, positive, InvalidField, MAX_PACKET, MS};

/// The registry of TCP variants, one line each, its doc comment the
/// variant's: `"name" => Variant(Spec)` for a variant with knobs, its spec
/// declared beside its algorithm (each knob's wire name, doc comment, unit,
/// bounds and serde default) and implementing [`Algorithm`] there (the
/// spec's path may be written in the line: `super::fixed::FixedSpec`);
/// `"name" => Variant = (congestion control, loss recovery)` for one without.
/// The line makes the `TcpVariant` variant (its wire name the literal), its
/// name among `tcp.variant`'s choices, its knobs among `[tcp]`'s keys, and its
/// arms of `TcpVariant::build` (what [`Tcp::congestion`] makes),
/// `TcpVariant::every` and `Variants::validate`. What else is asked of a
/// variant its congestion control answers (`CongestionControl::reno_window`,
/// `ecn_mode`), so nothing else names it.
macro_rules! tcp_variants {
    ($($(#[$meta:meta])* $name:literal => $variant:ident $(($spec:ty))? $(= ($cc:expr, $recovery:expr))?),* $(,)?) => {
        /// Congestion control and loss recovery: ns-2's Reno, NewReno, Sack1,
        /// Fack; BIC and CUBIC (Linux, paper W), FAST (paper W); BBR v1 (Linux);
        /// DCTCP (RFC 8257).
        #[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "variant")]
        #[schemars(title = "TCP variant")]
        pub enum TcpVariant {
            $($(#[$meta])* #[serde(rename = $name)] $variant $(($spec))?,)*
        }

        impl TcpVariant {
            /// Every variant, by its wire name, with its knobs' defaults.
            fn every() -> Vec<(&'static str, TcpVariant)> {
                vec![$(($name, TcpVariant::$variant $((<$spec>::default()))?)),*]
            }

            /// A flow's congestion control and loss recovery, as the variant
            /// and its knobs make them ([`Tcp::congestion`]).
            fn build(
                &self,
                common: Common,
                rng: impl FnOnce() -> Stream,
            ) -> (Box<dyn CongestionControl>, Recovery) {
                match self {
                    $(tcp_variants!(@pattern knobs, $variant $(($spec))?) =>
                        tcp_variants!(@build knobs, common, rng, $(($spec))? $(= ($cc, $recovery))?),)*
                }
            }
        }

        impl Variants for TcpVariant {
            const TAG: &'static str = "variant";

            fn validate(&self) -> Result<(), InvalidField> {
                match self {
                    $(tcp_variants!(@pattern knobs, $variant $(($spec))?) =>
                        tcp_variants!(@validate knobs $(($spec))?),)*
                }
            }
        }
    };
    // A line's pattern, its knobs (if any) bound to `$knobs`.
    (@pattern $knobs:ident, $variant:ident($spec:ty)) => { TcpVariant::$variant($knobs) };
    (@pattern $knobs:ident, $variant:ident) => { TcpVariant::$variant };
    (@build $knobs:ident, $common:ident, $rng:ident, ($spec:ty)) => { Algorithm::build($knobs, $common, $rng) };
    (@build $knobs:ident, $common:ident, $rng:ident, = ($cc:expr, $recovery:expr)) => {
        (Box::new($cc), $recovery)
    };
    (@validate $knobs:ident ($spec:ty)) => { Algorithm::validate($knobs) };
    (@validate $knobs:ident) => { Ok(()) };
}

tcp_variants! {
    #[default]
    "reno" => Reno = (Reno, Recovery::reno()),
    /// Reno window rules with NewReno recovery (RFC 6582; ns-2 `Agent/TCP/Newreno`).
    "newreno" => Newreno = (Reno, Recovery::newreno()),
    /// Reno window rules with SACK recovery (RFC 2018; ns-2 `Agent/TCP/Sack1`
    /// with `Agent/TCPSink/Sack1`).
    "sack" => Sack = (Reno, Recovery::sack()),
    /// Reno window rules with forward-acknowledgment recovery (Mathis and
    /// Mahdavi 1996; ns-2 `Agent/TCP/Fack` with `Agent/TCPSink/Sack1`).
    "fack" => Fack(FackSpec),
    // The high-speed variants recover with SACK, as Linux (and ns-2's
    // Agent/TCP/Linux, paper W's BIC and FAST runs) do.
    /// BIC-TCP (Xu, Harfoush, Rhee 2004; Linux `tcp_bic.c`) with SACK recovery.
    "bic" => Bic = (bic::Bic::default(), Recovery::sack()),
    /// CUBIC (RFC 9438), with Linux's HyStart if `cubic_hystart`, and SACK recovery.
    "cubic" => Cubic(CubicSpec),
    /// FAST TCP (Jin, Wei, Low 2004) with SACK recovery.
    "fast" => Fast(FastSpec),
    /// BBR v1 (Cardwell et al. 2016; Linux `tcp_bbr.c`, ns-3 `TcpBbr`):
    /// paces at its bandwidth estimate, cwnd from bandwidth x least RTT,
    /// with RFC 6675's SACK recovery as Linux's (SACK kept through a
    /// timeout, lost retransmissions sent again: `recovery::rfc6675`).
    "bbr" => Bbr(BbrSpec),
    /// DCTCP (Alizadeh et al. 2010; RFC 8257, Linux `tcp_dctcp.c`): ECN
    /// always, the window cut by alpha / 2 on echoes, alpha the share of
    /// data marked (EWMA with weight `dctcp_g`); Reno's growth and loss
    /// response with NewReno recovery.
    "dctcp" => Dctcp(DctcpSpec),
}

/// One-way TCP as ns-2's `Agent/TCP`: names and defaults as ns-2 2.35's
/// (paper E's 1000 B segments).
// Read and written with its variant as one table (its `Table`); a key left
// out takes `Tcp::default`'s value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Tcp {
    /// The variant with its knobs, `tcp.variant` (read by its [`Table`]).
    #[serde(skip)]
    pub variant: TcpVariant,
    /// Payload per data segment (ns-2 `packetSize_`; paper E: 1000 B),
    /// bytes; with `header_size`, at most the engine's largest packet.
    #[schemars(extend("x-unit" = "bytes"), range(min = 1, max = MAX_PACKET))]
    pub segment_size: u64,
    /// TCP/IP header added on the wire (ns-2 `tcpip_base_hdr_size_`, with
    /// `useHeaders_ true`): data packets are segment_size + header_size.
    #[schemars(extend("x-unit" = "bytes"), range(max = MAX_PACKET))]
    pub header_size: u64,
    /// ACK size on the wire (ns-2 `Agent/TCPSink packetSize_`).
    #[schemars(extend("x-unit" = "bytes"), range(min = 1, max = MAX_PACKET))]
    pub ack_size: u64,
    /// Receiver's advertised window limit, packets (ns-2 `window_`; large so
    /// that it never binds).
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    pub window: u64,
    /// Congestion window once the SYN is acknowledged, packets (ns-2 `windowInit_`).
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    pub initial_window: u64,
    /// Model the SYN as a header-only first packet with cwnd 1 until it is
    /// acknowledged (ns-2 `syn_ true`, `delay_growth_ true`).
    pub syn: bool,
    /// Granularity of the RTT estimator and the retransmission timer (ns-2 `tcpTick_`), ns.
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub tick: u64,
    /// Least retransmission timeout (ns-2 `minrto_`), ns.
    #[schemars(extend("x-unit" = "ns"))]
    pub min_rto: u64,
    /// Largest retransmission timeout, back-off included (ns-2 `maxrto_`), ns.
    #[schemars(extend("x-unit" = "ns"))]
    pub max_rto: u64,
    /// Retransmission timeout before the first RTT sample (ns-2 `rtxcur_init_`), ns.
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub initial_rto: u64,
    /// Delayed ACKs at the sink with this timer, ns (ns-2
    /// `Agent/TCPSink/DelAck`, `interval_` 100 ms); off when absent, as in
    /// the papers.
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub delayed_ack: Option<u64>,
    /// What window cuts (fast retransmit, timeout) halve: the window in use
    /// (stock ns-2), the packets in flight (ns-2 built with Wei's pacing
    /// patch, every agent paced or not), or the packets in flight only in
    /// runs whose hosts pace (paper E's two builds).
    pub window_cut: WindowCut,
    /// ECN (RFC 3168): new data goes ECN-capable, the sink echoes CE marks
    /// (ECE until the sender's CWR) and an echo cuts the window as the
    /// variant cuts on a fast retransmit, once per window (BBR v1: no cut,
    /// as Linux's). DCTCP uses ECN whatever this says, with its own echo
    /// and cut.
    pub ecn: bool,
    /// ns-2's delayed send (`overhead_`), ns: a `send_much` that would send
    /// waits a uniform draw in [0, overhead) first, then sends all the
    /// window allows (ns-2 added it to break a deterministic run's phase
    /// effects: `tcp/host_pacing/delayed.rs`); 0, ns-2's default: no wait.
    /// Flows that are not host-paced; BBR paces itself and refuses it.
    #[schemars(extend("x-unit" = "ns"))]
    pub overhead: u64,
}

/// ns-2 2.35's `Agent/TCP` defaults (paper E's 1000 B segments), Reno.
impl Default for Tcp {
    fn default() -> Self {
        Tcp {
            variant: TcpVariant::Reno,
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
            ecn: false,
            overhead: 0,
        }
    }
}

/// `[tcp]` as one table: the variant and its knobs beside the common keys.
impl Table for Tcp {
    type Variant = TcpVariant;
    const AT: &'static str = "tcp";

    fn variant(&self) -> &TcpVariant {
        &self.variant
    }

    fn with(self, variant: TcpVariant) -> Self {
        Tcp { variant, ..self }
    }
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

impl Tcp {
    /// Whether the window grows by Reno's rules, as the variant's congestion
    /// control says (`CongestionControl::reno_window`).
    pub fn reno_window(&self) -> bool {
        // A throwaway stream: only BBR draws from it, and only when it runs;
        // pacing changes no variant's window rules.
        self.congestion(false, || stream(0, "tcp.bbr", 0)).0.reno_window()
    }

    /// The wire names of the variants whose window grows by Reno's rules.
    pub fn reno_window_variants() -> Vec<&'static str> {
        let reno = |variant| Tcp { variant, ..Tcp::default() }.reno_window();
        TcpVariant::every().into_iter().filter(|&(_, v)| reno(v)).map(|(name, _)| name).collect()
    }

    /// A flow's congestion control and loss recovery, as `tcp.variant` and
    /// its knobs make them (its registry, `tcp_variants!`), for a flow Linux
    /// would count as paced or not (`linux_paced`, see `Common`); `rng`, the
    /// flow's stream for BBR's first ProbeBW phase ("tcp.bbr"), is drawn
    /// from only by BBR.
    pub fn congestion(
        &self,
        linux_paced: bool,
        rng: impl FnOnce() -> Stream,
    ) -> (Box<dyn CongestionControl>, Recovery) {
        let common = Common {
            segment_size: self.segment_size,
            initial_window: self.initial_window,
            syn: self.syn,
            linux_paced,
        };
        self.variant.build(common, rng)
    }

    /// Check the TCP parameters; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        let t = self;
        if t.syn {
            positive("tcp.header_size", t.header_size)?;
        }
        if t.min_rto > t.max_rto {
            let message = format!("{} must not exceed tcp.max_rto ({})", time(t.min_rto), time(t.max_rto));
            return Err(bad("tcp.min_rto", message));
        }
        if t.overhead > 0 && matches!(t.variant, TcpVariant::Bbr(_)) {
            let message =
                "BBR paces itself at its own rate; the delayed send is ns-2's, for its window-clocked agents";
            return Err(bad("tcp.overhead", message));
        }
        t.variant.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<Tcp, String> {
        let de = &mut serde_json::Deserializer::from_str(json);
        crate::spec::variants::deserialize(de).map_err(|e| e.to_string())
    }

    /// The table reads into the variant's knobs alone, every variant's knobs
    /// checked whatever the variant, and writes back the variant's knobs
    /// beside the common keys.
    #[test]
    fn the_table_keeps_the_variants_knobs_and_checks_every_variants() {
        let t = read(r#"{"variant":"fast","segment_size":1500,"fast_alpha":20.0}"#).unwrap();
        assert_eq!(t.variant, TcpVariant::Fast(FastSpec { alpha: 20.0, gamma: 0.5 }));
        assert_eq!(t.segment_size, 1500);
        let mut out = Vec::new();
        crate::spec::variants::serialize(&t, &mut serde_json::Serializer::new(&mut out)).unwrap();
        let written = String::from_utf8(out).unwrap();
        assert!(written.starts_with(r#"{"variant":"fast","segment_size":1500,"#), "{written}");
        assert!(
            written.ends_with(r#""ecn":false,"overhead":0,"fast_alpha":20.0,"fast_gamma":0.5}"#),
            "{written}"
        );
        assert_eq!(read(&written).unwrap(), t);
        let fack = read(r#"{"variant":"fack","rampdown":true}"#).unwrap();
        assert_eq!(fack.variant, TcpVariant::Fack(FackSpec { rampdown: true }));
        let cubic = read(r#"{"variant":"cubic","cubic_hystart":true}"#).unwrap();
        assert_eq!(cubic.variant, TcpVariant::Cubic(CubicSpec { hystart: true, rfc6675: false }));
        let linux = read(r#"{"variant":"cubic","cubic_rfc6675":true}"#).unwrap();
        assert_eq!(linux.variant, TcpVariant::Cubic(CubicSpec { hystart: false, rfc6675: true }));
        let err = read(r#"{"variant":"cubic","cubic_rfc6675":"yes"}"#).unwrap_err();
        assert!(err.starts_with("tcp.cubic_rfc6675: invalid type"), "{err}");
        assert_eq!(read(r#"{"variant":"cubic"}"#).unwrap().variant, TcpVariant::Cubic(CubicSpec::default()));
        let err = read(r#"{"variant":"cubic","cubic_hystart":1}"#).unwrap_err();
        assert!(err.starts_with("tcp.cubic_hystart: invalid type"), "{err}");
        assert_eq!(read("{}").unwrap(), Tcp::default());
        // Another variant's knob: read, checked, unused.
        assert_eq!(read(r#"{"variant":"reno","fast_gamma":0.25}"#).unwrap(), Tcp::default());
        let err = read(r#"{"variant":"reno","fast_gamma":"x"}"#).unwrap_err();
        assert!(err.starts_with("tcp.fast_gamma: invalid type"), "{err}");
        // Each variant's knobs held to the bounds their spec's schema gives
        // them (the clock's for a time), whatever the variant chosen.
        for (knobs, want) in [
            (r#""fast_alpha":-1.0"#, "tcp.fast_alpha: -1.0 must be greater than 0.0"),
            (r#""fast_gamma":1.5"#, "tcp.fast_gamma: 1.5 must be at most 1.0"),
            (r#""bbr_cwnd_gain":0.5"#, "tcp.bbr_cwnd_gain: 0.5 must be at least 1.0"),
            (r#""bbr_bw_rounds":0"#, "tcp.bbr_bw_rounds: 0 must be at least 1"),
            (r#""bbr_min_rtt_window":0"#, "tcp.bbr_min_rtt_window: 0s must be at least 1ns"),
            (r#""dctcp_g":0"#, "tcp.dctcp_g: 0 must be greater than 0.0"),
            (r#""dctcp_alpha_init":1.5"#, "tcp.dctcp_alpha_init: 1.5 must be at most 1.0"),
        ] {
            assert_eq!(read(&format!(r#"{{"variant":"fast",{knobs}}}"#)).unwrap_err(), want);
        }
        let past = crate::spec::MAX_TIME + 1;
        let err = read(&format!(r#"{{"variant":"bbr","bbr_probe_rtt_time":{past}}}"#)).unwrap_err();
        assert!(err.starts_with("tcp.bbr_probe_rtt_time: "), "{err}");
        let err = read(r#"{"variant":"vegas"}"#).unwrap_err();
        assert!(err.starts_with("tcp.variant: unknown variant `vegas`"), "{err}");
        let err = read(r#"{"variant":"reno","colour":1}"#).unwrap_err();
        assert!(err.starts_with("tcp.colour: unknown field `colour`"), "{err}");
    }

    /// What the variants' congestion controls say of them: Reno's window
    /// rules for Reno, NewReno, SACK and FACK (Wei's ACK counting refused
    /// for the others), DCTCP's ECN for DCTCP whatever `tcp.ecn` says,
    /// classic ECN for the others only when asked.
    #[test]
    fn each_variant_says_its_window_rules_and_its_ecn() {
        use crate::tcp::ecn::EcnMode;
        assert_eq!(Tcp::reno_window_variants(), ["reno", "newreno", "sack", "fack"]);
        assert_eq!(TcpVariant::every().len(), 9);
        for (name, variant) in TcpVariant::every() {
            let (cc, _) = Tcp { variant, ..Tcp::default() }.congestion(false, || stream(0, "tcp.bbr", 0));
            for (asked, classic) in [(false, EcnMode::Off), (true, EcnMode::Classic)] {
                let want = if name == "dctcp" { EcnMode::Dctcp } else { classic };
                assert_eq!(cc.ecn_mode(asked), want, "{name}, tcp.ecn {asked}");
            }
        }
    }

    /// A knob built in Rust as NaN or an infinity (its wire form null) is
    /// refused naming it, by the schema's bounds as the scenario holds them.
    #[test]
    fn a_knob_that_is_not_a_number_is_refused() {
        use crate::tcp::{bbr::BbrSpec, dctcp::DctcpSpec};
        let knobs = [
            TcpVariant::Fast(FastSpec { alpha: f64::NAN, gamma: 0.5 }),
            TcpVariant::Fast(FastSpec { alpha: 200.0, gamma: f64::INFINITY }),
            TcpVariant::Bbr(BbrSpec { cwnd_gain: f64::NAN, ..Default::default() }),
            TcpVariant::Dctcp(DctcpSpec { g: f64::NAN, ..Default::default() }),
        ];
        let keys =
            [("fast_alpha", "NaN"), ("fast_gamma", "inf"), ("bbr_cwnd_gain", "NaN"), ("dctcp_g", "NaN")];
        for (variant, (key, value)) in knobs.into_iter().zip(keys) {
            let mut s = crate::engine::world::testing::line_scenario(10_000);
            s.tcp.variant = variant;
            assert_eq!(
                s.validate().unwrap_err().to_string(),
                format!("tcp.{key}: {value} is not a finite number")
            );
        }
    }
}
