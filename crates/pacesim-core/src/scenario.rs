//! The scenario: everything a run needs, in SI integers.
//!
//! Times are nanoseconds, rates bit/s, sizes bytes. The Python front parses
//! human units ("10Mbps", "5KB", "100ms") from TOML and hands this structure
//! over as JSON; keys mirror the TOML keys so an error names the same path.
//! Unknown keys are rejected, and [`Scenario::validate`] names the field of
//! every inconsistency, so bad input never reaches the engine.

use serde::{Deserialize, Serialize};

/// A closed interval drawn uniformly per element; `[v, v]` is a fixed value.
pub type Range = [u64; 2];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Master seed; every random stream is derived from it by name.
    pub seed: u64,
    /// Simulated time, ns.
    pub duration: u64,
    /// Start of the measurement window, ns; the window is [warmup, duration].
    pub warmup: u64,
    pub topology: Topology,
    pub core: Core,
    pub tcp: Tcp,
    pub traffic: Traffic,
    #[serde(default)]
    pub pacing: Pacing,
    /// Measure burstiness at time scales at one link (paper A Sec III-B).
    #[serde(default)]
    pub burstiness: Option<BurstinessSpec>,
    /// Sample every flow's progress over the whole run (paper W Figs. 2-5).
    #[serde(default)]
    pub progress: Option<ProgressSpec>,
    /// Measure the one-way delay of delivered packets (paper Q Table III, Fig. 19).
    #[serde(default)]
    pub delay: Option<DelaySpec>,
}

/// The one-way delay of every packet of class `class` delivered in the
/// measurement window, first bit sent to last bit received; for TCP data
/// from the first transmission of its sequence number, so a retransmission's
/// delay includes the wait for it (paper Q Fig. 19: "long delays are caused
/// by retransmissions").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DelaySpec {
    #[serde(default)]
    pub class: DelayClass,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DelayClass {
    /// TCP data segments.
    #[default]
    Data,
    /// Real-time UDP datagrams.
    Udp,
}

impl DelayClass {
    pub fn kind(self) -> crate::net::PacketKind {
        match self {
            DelayClass::Data => crate::net::PacketKind::Data,
            DelayClass::Udp => crate::net::PacketKind::Udp,
        }
    }
}

/// Every `interval` from time 0 to the end, the payload bytes each TCP flow
/// has delivered in order: latency to a given amount, throughput over time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressSpec {
    /// Sampling interval, ns.
    pub interval: u64,
}

impl ProgressSpec {
    /// Most rows a progress table may have (samples x flows).
    pub const MAX_ROWS: u64 = 1 << 24;

    /// Check that sampling `flows` flows over `duration` stays within `MAX_ROWS`.
    pub fn check(&self, duration: u64, flows: usize) -> Result<(), InvalidField> {
        let rows = (duration / self.interval + 1).saturating_mul(flows as u64);
        if rows > Self::MAX_ROWS {
            let message = format!(
                "{rows} samples (one per flow per interval) exceed {}: sample less often",
                Self::MAX_ROWS
            );
            return Err(bad("progress.interval", message));
        }
        Ok(())
    }
}

/// beta(s) of the bytes arriving at link `link` over the measurement
/// window, for s = `bin` x 2^k, k < `scales` (see `metrics::burstiness`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BurstinessSpec {
    pub link: String,
    /// Finest interval, ns (paper A: 1 us).
    pub bin: u64,
    pub scales: u32,
    /// Also report the bytes of every finest bin over the window (at most
    /// `MAX_SERIES_BINS` of them), e.g. for the rate's auto-covariance.
    #[serde(default)]
    pub series: bool,
}

/// The longest bin series a run may ask for (8 bytes a bin in the engine).
pub const MAX_SERIES_BINS: u64 = 1 << 24;

pub use crate::topology::Topology;

/// The core link (E-base's C0 -> C1; the bottleneck of every named
/// topology) and its queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Core {
    pub rate: u64,
    pub delay: u64,
    /// Byte limit of the queue (ns-2 DropTail byte mode).
    pub buffer: u64,
    /// Optional packet limit on top of the byte limit (drop-tail only).
    #[serde(default)]
    pub buffer_packets: Option<u64>,
    pub queue: QueueKind,
    /// RED's parameters, used when `queue` is `red`.
    #[serde(default)]
    pub red: RedParams,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QueueKind {
    /// ns-2 `Queue/DropTail` in byte mode, limit `buffer`.
    Droptail,
    /// Floyd-Jacobson RED as ns-2 `Queue/RED` (see `net::red`), hard limit `buffer`.
    Red,
}

/// RED parameters (Floyd and Jacobson 1993, Sec 4; ns-2 `Queue/RED`). The
/// defaults are paper E Fig. 9's: `max_th` = the buffer, `min_th` = 40 % of
/// it, `max_p` 0.1, `w_q` 0.002, with ns-2 2.35's `gentle_ true` and byte
/// mode (`queue_in_bytes_`, `bytes_`) with `mean_pktsize_` 1000 B.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedParams {
    /// Average queue where early drops start, bytes (default 40 % of `core.buffer`).
    #[serde(default)]
    pub min_th: Option<u64>,
    /// Average queue where the drop probability reaches `max_p`, bytes (default `core.buffer`).
    #[serde(default)]
    pub max_th: Option<u64>,
    #[serde(default = "RedParams::default_max_p")]
    pub max_p: f64,
    /// EWMA weight of the average queue.
    #[serde(default = "RedParams::default_w_q")]
    pub w_q: f64,
    /// Drop probability rising from `max_p` to 1 over [max_th, 2 max_th]
    /// instead of jumping to 1 at `max_th`.
    #[serde(default = "RedParams::default_true")]
    pub gentle: bool,
    /// Queue measured in bytes and drop probability scaled by packet size;
    /// else in packets of `mean_packet` bytes.
    #[serde(default = "RedParams::default_true")]
    pub byte_mode: bool,
    /// Packet size the idle-time correction (and packet mode) assume, bytes.
    #[serde(default = "RedParams::default_mean_packet")]
    pub mean_packet: u64,
}

impl RedParams {
    fn default_max_p() -> f64 {
        0.1
    }
    fn default_w_q() -> f64 {
        0.002
    }
    fn default_true() -> bool {
        true
    }
    fn default_mean_packet() -> u64 {
        1000
    }

    /// `min_th` in bytes for a queue of `buffer` bytes.
    pub fn min_th(&self, buffer: u64) -> u64 {
        self.min_th.unwrap_or(buffer * 2 / 5)
    }

    /// `max_th` in bytes for a queue of `buffer` bytes.
    pub fn max_th(&self, buffer: u64) -> u64 {
        self.max_th.unwrap_or(buffer)
    }
}

impl Default for RedParams {
    fn default() -> Self {
        RedParams {
            min_th: None,
            max_th: None,
            max_p: Self::default_max_p(),
            w_q: Self::default_w_q(),
            gentle: true,
            byte_mode: true,
            mean_packet: Self::default_mean_packet(),
        }
    }
}

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

/// One TCP flow per sender host, long-lived (bulk) or short-lived (closed-loop
/// users, `[traffic.short]`), and open-loop UDP sources.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Traffic {
    /// Flow start times, drawn uniformly per flow, ns.
    pub start: Range,
    /// Real-time sources (`[[traffic.udp]]`), each from one host to another.
    #[serde(default)]
    pub udp: Vec<crate::traffic::udp::UdpSpec>,
    /// Which flows are short-lived users, and their files (none: all bulk).
    #[serde(default)]
    pub short: Option<crate::traffic::short::ShortSpec>,
    /// Two-way TCP (paper A Sec VII, Fig. 23): every flow of the topology
    /// has a twin from its receiver back to its sender, and the core's
    /// reverse half, now a bottleneck for the twins' data, takes `[core]`'s
    /// queue too (see `topology::graph`).
    #[serde(default)]
    pub two_way: bool,
}

/// Where traffic is paced (paper E): nowhere, at the hosts (TCP pacing), or
/// by the edge pacer on the ingress edge links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PacingScheme {
    #[default]
    None,
    Host,
    Edge,
    /// Queue Length Based Pacing (paper Q) on the ingress edge links.
    Qlbp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pacing {
    pub scheme: PacingScheme,
    /// Edge pacer delay bound d, ns (paper E: 10 ms).
    pub delay: u64,
    /// Share of the edge nodes (edge scheme) or hosts (host scheme) that
    /// pace, in [0, 1] (paper E Sec 6, Figs. 16-17): the first edges by
    /// index; hosts spread evenly over the edges.
    pub fraction: f64,
    /// How paced hosts space their packets.
    #[serde(default)]
    pub host_mode: HostPacingMode,
    /// QLBP (paper Q eq. 1): rates in bit/s, queue lengths in packets.
    #[serde(default = "Pacing::default_mu_max")]
    pub mu_max: u64,
    #[serde(default = "Pacing::default_mu_min")]
    pub mu_min: u64,
    #[serde(default = "Pacing::default_q_max")]
    pub q_max: u32,
    #[serde(default = "Pacing::default_q_lim")]
    pub q_lim: u32,
    /// QLBP rule of thumb (paper Q Sec III-C) instead of the four values
    /// above, per link of rate C at utilisation rho with delay tolerance
    /// D_max: mu_max = (1 + rho) C / 2, mu_min = rho C / 2, Q_max = D_max
    /// mu_max in 1000 B packets, Q_lim unchanged.
    #[serde(default)]
    pub utilization: Option<f64>,
    #[serde(default)]
    pub max_delay: Option<u64>,
    /// Pace exactly these links (by name) instead of the first `fraction`
    /// of the ingress edge links.
    #[serde(default)]
    pub links: Option<Vec<String>>,
}

impl Pacing {
    // Paper Q Sec V-B (Q-fig18): mu_max 100 Mb/s, mu_min 1 Mb/s, Q_max 40, Q_lim 2000.
    fn default_mu_max() -> u64 {
        100_000_000
    }
    fn default_mu_min() -> u64 {
        1_000_000
    }
    fn default_q_max() -> u32 {
        40
    }
    fn default_q_lim() -> u32 {
        2000
    }

    /// The pacer this scheme puts in front of a paced link of `link_rate`
    /// bit/s, if any. An edge pacer with d = 0 is no pacer at all.
    pub fn link_pacer(&self, link_rate: u64) -> Option<crate::pacing::PacerSpec> {
        use crate::pacing::{PacerSpec, QlbpParams};
        match self.scheme {
            PacingScheme::Edge if self.delay > 0 => Some(PacerSpec::Edge { d: self.delay }),
            PacingScheme::Qlbp => Some(PacerSpec::Qlbp(match (self.utilization, self.max_delay) {
                (Some(rho), Some(d_max)) => {
                    let c = link_rate as f64;
                    let mu_max = ((1.0 + rho) * c / 2.0).round() as u64;
                    let q_max = (d_max as f64 * 1e-9 * mu_max as f64 / 8000.0).ceil().max(1.0) as u32;
                    QlbpParams { mu_max, mu_min: (rho * c / 2.0).round() as u64, q_max, q_lim: self.q_lim }
                }
                _ => QlbpParams {
                    mu_max: self.mu_max,
                    mu_min: self.mu_min,
                    q_max: self.q_max,
                    q_lim: self.q_lim,
                },
            })),
            PacingScheme::Edge | PacingScheme::None | PacingScheme::Host => None,
        }
    }
}

/// Host pacing rule (see `pacing::host`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HostPacingMode {
    /// RTT / cwnd (Wei's ns-2 patch, `pace_packet_ 1`).
    #[default]
    Original,
    /// RTT / max(cwnd + 1, min(2 cwnd, ssthresh)) (paper W eq. 7).
    Modified,
    /// Linux / ns-3 pacing rate: 2 or 1.2 times max(cwnd, in flight) per RTT.
    Rate,
}

impl Default for Pacing {
    fn default() -> Self {
        Pacing {
            scheme: PacingScheme::None,
            delay: 10_000_000,
            fraction: 1.0,
            host_mode: HostPacingMode::Original,
            mu_max: Pacing::default_mu_max(),
            mu_min: Pacing::default_mu_min(),
            q_max: Pacing::default_q_max(),
            q_lim: Pacing::default_q_lim(),
            utilization: None,
            max_delay: None,
            links: None,
        }
    }
}

/// A scenario field that is out of range, with its path (`core.buffer`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct InvalidField {
    pub field: String,
    pub message: String,
}

/// Whether element `i` is among a share `fraction` of elements spread evenly:
/// when floor((i+1) f) > floor(i f).
pub fn evenly(i: usize, fraction: f64) -> bool {
    ((i + 1) as f64 * fraction).floor() > (i as f64 * fraction).floor()
}

fn bad(field: &str, message: impl Into<String>) -> InvalidField {
    InvalidField { field: field.to_string(), message: message.into() }
}

fn positive(field: &str, v: u64) -> Result<(), InvalidField> {
    if v == 0 {
        return Err(bad(field, "must be greater than zero"));
    }
    Ok(())
}

fn ordered(field: &str, r: Range) -> Result<(), InvalidField> {
    if r[0] > r[1] {
        return Err(bad(field, format!("range lower bound {} exceeds upper bound {}", r[0], r[1])));
    }
    Ok(())
}

/// The longest time a scenario may give anything (10^6 s, 11.6 days): any
/// time plus a few others, and an RTO backed off 64-fold, stay far within
/// the engine's clock (u64 ns, 584 years).
pub const MAX_TIME: u64 = 1_000_000 * crate::sim::time::NS_PER_SEC;

/// The largest packet a scenario may send or assume (an IP packet's).
pub const MAX_PACKET: u64 = 65_535;

fn at_most(field: &str, v: u64, max: u64, unit: &str) -> Result<(), InvalidField> {
    if v > max {
        return Err(bad(field, format!("{v} {unit} is more than the engine allows ({max} {unit})")));
    }
    Ok(())
}

impl Scenario {
    /// Parse from JSON, rejecting unknown keys.
    pub fn from_json(text: &str) -> Result<Self, InvalidField> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let s: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." { "scenario".to_string() } else { path };
            bad(&field, e.into_inner().to_string())
        })?;
        s.validate()?;
        Ok(s)
    }

    /// Check every cross-field constraint; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        positive("duration", self.duration)?;
        self.validate_limits()?;
        if self.warmup >= self.duration {
            return Err(bad("warmup", "must be before the end of the run (duration)"));
        }
        if let Topology::EBase(e) = &self.topology {
            positive("topology.edges", u64::from(e.edges))?;
            positive("topology.hosts_per_edge", u64::from(e.hosts_per_edge))?;
            for (name, r) in [("topology.access_rate", e.access_rate), ("topology.edge_rate", e.edge_rate)] {
                ordered(name, r)?;
                positive(name, r[0])?;
            }
            ordered("topology.access_delay", e.access_delay)?;
            ordered("topology.edge_delay", e.edge_delay)?;
        }
        positive("core.rate", self.core.rate)?;
        if self.core.buffer_packets == Some(0) {
            return Err(bad("core.buffer_packets", "must be greater than zero when given"));
        }
        if self.core.queue == QueueKind::Red {
            self.validate_red()?;
        }
        let t = &self.tcp;
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
        ordered("traffic.start", self.traffic.start)?;
        if let Some(p) = &self.progress {
            positive("progress.interval", p.interval)?;
        }
        if let Some(b) = &self.burstiness {
            positive("burstiness.bin", b.bin)?;
            if !(1..=40).contains(&b.scales) {
                return Err(bad("burstiness.scales", "must be in [1, 40]"));
            }
            let bins = self.duration.saturating_sub(self.warmup) / b.bin;
            if b.series && bins > MAX_SERIES_BINS {
                let message =
                    format!("a series of {bins} bins is more than {MAX_SERIES_BINS}: use a wider bin");
                return Err(bad("burstiness.series", message));
            }
        }
        if let Some(short) = &self.traffic.short {
            short.validate("traffic.short")?;
        }
        for (i, u) in self.traffic.udp.iter().enumerate() {
            let field = format!("traffic.udp[{i}]");
            u.validate(&field)?;
            if u.start >= self.duration {
                return Err(bad(&format!("{field}.start"), "must be before the end of the run"));
            }
        }
        let p = &self.pacing;
        if !(0.0..=1.0).contains(&p.fraction) {
            return Err(bad("pacing.fraction", format!("{} is not a share in [0, 1]", p.fraction)));
        }
        if p.scheme == PacingScheme::Qlbp {
            positive("pacing.mu_min", p.mu_min)?;
            positive("pacing.q_max", u64::from(p.q_max))?;
            positive("pacing.q_lim", u64::from(p.q_lim))?;
            if p.mu_min > p.mu_max {
                return Err(bad("pacing.mu_min", "must not exceed pacing.mu_max"));
            }
            match (p.utilization, p.max_delay) {
                (Some(rho), Some(_)) if !(rho > 0.0 && rho <= 1.0) => {
                    return Err(bad("pacing.utilization", format!("{rho} is not a utilisation in (0, 1]")))
                }
                (Some(_), None) => {
                    return Err(bad("pacing.max_delay", "the QLBP rule of thumb needs max_delay"))
                }
                (None, Some(_)) => {
                    return Err(bad("pacing.utilization", "the QLBP rule of thumb needs utilization"))
                }
                _ => {}
            }
        }

        if self.traffic.start[1] >= self.duration {
            return Err(bad("traffic.start", "flows must start before the end of the run"));
        }
        Ok(())
    }

    /// Times within [`MAX_TIME`] (those of the topology's links are
    /// checked as the network is built) and packet sizes within
    /// [`MAX_PACKET`].
    fn validate_limits(&self) -> Result<(), InvalidField> {
        let (t, p) = (&self.tcp, &self.pacing);
        let short = self.traffic.short.as_ref().map(|s| s.mean_think);
        let times = [
            ("duration", Some(self.duration)),
            ("core.delay", Some(self.core.delay)),
            ("tcp.tick", Some(t.tick)),
            ("tcp.min_rto", Some(t.min_rto)),
            ("tcp.max_rto", Some(t.max_rto)),
            ("tcp.initial_rto", Some(t.initial_rto)),
            ("tcp.delayed_ack", t.delayed_ack),
            ("pacing.delay", Some(p.delay)),
            ("pacing.max_delay", p.max_delay),
            ("progress.interval", self.progress.as_ref().map(|p| p.interval)),
            ("burstiness.bin", self.burstiness.as_ref().map(|b| b.bin)),
            ("traffic.short.mean_think", short),
        ];
        for (field, v) in times {
            at_most(field, v.unwrap_or(0), MAX_TIME, "ns")?;
        }
        for (i, u) in self.traffic.udp.iter().enumerate() {
            at_most(&format!("traffic.udp[{i}].on"), u.on.unwrap_or(0), MAX_TIME, "ns")?;
            at_most(&format!("traffic.udp[{i}].off"), u.off.unwrap_or(0), MAX_TIME, "ns")?;
        }
        at_most("tcp.header_size", t.header_size, MAX_PACKET, "B")?;
        at_most(
            "tcp.segment_size",
            t.segment_size.saturating_add(t.header_size),
            MAX_PACKET,
            "B with the header",
        )?;
        at_most("tcp.ack_size", t.ack_size, MAX_PACKET, "B")?;
        at_most("core.red.mean_packet", self.core.red.mean_packet, MAX_PACKET, "B")
    }

    fn validate_red(&self) -> Result<(), InvalidField> {
        let (c, r) = (&self.core, &self.core.red);
        if c.buffer_packets.is_some() {
            return Err(bad("core.buffer_packets", "not used by RED, whose hard limit is core.buffer"));
        }
        positive("core.red.mean_packet", r.mean_packet)?;
        if !(r.max_p > 0.0 && r.max_p <= 1.0) {
            return Err(bad("core.red.max_p", format!("{} is not a probability in (0, 1]", r.max_p)));
        }
        if !(r.w_q > 0.0 && r.w_q <= 1.0) {
            return Err(bad("core.red.w_q", format!("{} is not a weight in (0, 1]", r.w_q)));
        }
        let (min_th, max_th) = (r.min_th(c.buffer), r.max_th(c.buffer));
        positive("core.red.max_th", max_th)?;
        if min_th >= max_th {
            return Err(bad("core.red.min_th", format!("{min_th} B must be below max_th ({max_th} B)")));
        }
        if !r.byte_mode && c.buffer < r.mean_packet {
            return Err(bad("core.buffer", "RED in packet mode needs at least one mean_packet of buffer"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pacing::{PacerSpec, QlbpParams};

    #[test]
    fn qlbp_rule_of_thumb_from_link_rate_and_utilisation() {
        // 100 Mb/s at rho = 0.5 with D_max = 10 ms: mu_max = 75 Mb/s,
        // mu_min = 25 Mb/s, Q_max = ceil(10 ms * 75 Mb/s / 8000 b) = 94.
        let p = Pacing {
            scheme: PacingScheme::Qlbp,
            utilization: Some(0.5),
            max_delay: Some(10_000_000),
            ..Pacing::default()
        };
        let want = QlbpParams { mu_max: 75_000_000, mu_min: 25_000_000, q_max: 94, q_lim: 2000 };
        assert_eq!(p.link_pacer(100_000_000), Some(PacerSpec::Qlbp(want)));
        assert_eq!(Pacing { scheme: PacingScheme::Edge, delay: 0, ..Pacing::default() }.link_pacer(1), None);
    }
}
