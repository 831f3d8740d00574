//! The scenario: everything a run needs, in SI integers.
//!
//! Times are nanoseconds, rates bit/s, sizes bytes. The Python front parses
//! human units ("10Mbps", "5KB", "100ms") from TOML and hands this structure
//! over as JSON; keys mirror the TOML keys so an error names the same path.
//! Unknown keys are rejected, and [`Scenario::validate`] names the field of
//! every inconsistency, so bad input never reaches the engine.
//!
//! Each part is declared and validated beside the component it configures
//! (the core link and its queue in `net`, TCP in `tcp`, pacing in `pacing`,
//! each topology in `topology`, traffic sources in `traffic`); this file
//! holds the whole and the measurement requests, and checks what spans parts.

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::metrics::series::SeriesSpec;
pub use crate::net::core_link::{Core, QueueKind};
pub use crate::net::packet_trace::PacketTraceSpec;
pub use crate::net::red::RedParams;
pub use crate::pacing::spec::{Pacing, PacingScheme};
use crate::spec::human::{size, time};
use crate::spec::{at_most, bad, bounds, ordered, variants, MS};
pub use crate::spec::{DelayClass, InvalidField, Range, MAX_PACKET, MAX_TIME};
pub use crate::tcp::host_pacing::HostPacingMode;
pub use crate::tcp::spec::{Tcp, TcpVariant};
pub use crate::topology::Topology;

/// A whole run: the network, its TCP, its traffic, and the measurement
/// window [warmup, duration] over which the report's numbers are taken.
/// Every default is paper E's E-base (Sec 3.1), with ns-2 2.35's defaults
/// for the TCP details the paper leaves out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Seed of every random stream, each derived from it by name: same
    /// scenario and seed, same results.
    #[serde(default = "Scenario::default_seed")]
    pub seed: u64,
    /// Simulated time, ns; the measurement window ends here (paper E Sec 3.1: 400 s).
    #[serde(default = "Scenario::default_duration")]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub duration: u64,
    /// The measurement window [warmup, duration] opens here, ns (paper E: after 100 s).
    #[serde(default = "Scenario::default_warmup")]
    #[schemars(extend("x-unit" = "ns", "x-no-build" = true))]
    pub warmup: u64,
    /// The network, `[topology]`: a named kind or a graph.
    pub topology: Topology,
    /// The core (bottleneck) link and its queue, `[core]`.
    pub core: Core,
    /// Every TCP flow's variant and parameters, `[tcp]`.
    #[serde(deserialize_with = "variants::deserialize", serialize_with = "variants::serialize")]
    #[schemars(schema_with = "variants::table_schema::<Tcp>", extend("x-no-build" = true))]
    pub tcp: Tcp,
    /// Flow starts, short-lived users and UDP sources, `[traffic]`.
    pub traffic: Traffic,
    /// Where traffic is paced, `[pacing]`.
    #[serde(default, deserialize_with = "variants::deserialize", serialize_with = "variants::serialize")]
    #[schemars(schema_with = "variants::table_schema::<Pacing>", transform = each_key_its_default)]
    pub pacing: Pacing,
    /// Measure burstiness at time scales at one link, `[burstiness]` (paper A
    /// Sec III-B); absent: not measured.
    #[serde(default)]
    pub burstiness: Option<BurstinessSpec>,
    /// Sample every flow's progress over the whole run, `[progress]` (paper W
    /// Figs. 2-5); absent: not sampled.
    #[serde(default)]
    #[schemars(extend("x-no-build" = true))]
    pub progress: Option<ProgressSpec>,
    /// Measure one-way packet delays, `[delay]` (paper Q Table III, Fig. 19);
    /// absent: not measured.
    #[serde(default)]
    #[schemars(extend("x-no-build" = true))]
    pub delay: Option<DelaySpec>,
    /// Measure each TCP flow's transit delays and jitter, `[transit]` (ns-3
    /// FlowMonitor's delay and jitter, per flow); absent: not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-no-build" = true))]
    pub transit: Option<TransitSpec>,
    /// Record flows', links' and pacers' state over time, `[series]`; absent: not recorded.
    #[serde(default)]
    pub series: Option<SeriesSpec>,
    /// Write a packet trace of some links, `[trace]`; absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<PacketTraceSpec>,
}

/// A table's schema without a default of its own: each of its keys has
/// its default (`[pacing]`'s written default holds only its scheme's knobs).
fn each_key_its_default(schema: &mut schemars::Schema) {
    schema.remove("default");
}

/// The one-way delay (first bit sent to last bit received) of every packet
/// of `class` ("data": TCP segments; "udp") delivered in the measurement
/// window: the summary's mean and quantiles, and its CDF (`Result.delay`).
/// For TCP data it runs from the first transmission of its sequence number,
/// so a retransmission's delay includes the wait for it (paper Q Fig. 19:
/// "long delays are caused by retransmissions").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DelaySpec {
    /// Which packets: TCP data (from a segment's first transmission) or UDP.
    #[serde(default)]
    pub class: DelayClass,
}

/// Each TCP flow's transit delays over the measurement window, as ns-3's
/// FlowMonitor gives them per flow: the one-way delay of every data packet
/// delivered, from the transmission of that very packet (a retransmission's
/// runs from its own), their mean, median, 95th and 99th percentiles (to
/// within 2.1 %), and the mean jitter |d_i - d_(i-1)| over consecutive
/// deliveries (`Result.flows`: `transit_*_ms`, `jitter_ms`). Its data
/// packets are then stamped when sent, and each flow keeps a histogram of
/// a few hundred bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransitSpec {}

/// Every `interval` from time 0 to the end, each TCP flow's payload bytes
/// delivered in order (`Result.progress`; at most 2^24 samples): the time to
/// transfer a given amount, throughput over time (paper W Figs. 2-5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProgressSpec {
    /// Time between samples of every flow's in-order bytes, ns.
    #[serde(default = "ProgressSpec::default_interval")]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub interval: u64,
}

impl ProgressSpec {
    fn default_interval() -> u64 {
        100 * MS
    }

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

/// Burstiness at time scales (paper A Sec III-B):
/// the report's `burstiness` gives beta(s), the CoV of bytes arriving at
/// link `link` per interval s = bin x 2^k for k < `scales`, over the
/// measurement window, and the Hurst parameter from its slope
/// (beta ~ s^(H-1)). With `series` it also gives the bytes of every bin over
/// the window (`Result.bin_series`; at most 2^24 bins), e.g. for the rate's
/// auto-covariance (paper Q Theorem 2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BurstinessSpec {
    /// The link whose arrivals are binned, by name.
    #[serde(default = "BurstinessSpec::default_link")]
    pub link: String,
    /// The smallest time scale, ns (paper A: 1 us).
    #[serde(default = "BurstinessSpec::default_bin")]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub bin: u64,
    /// Number of time scales, bin x 1, 2, 4, ...
    #[serde(default = "BurstinessSpec::default_scales")]
    #[schemars(range(min = 1, max = 40))]
    pub scales: u32,
    /// Also report the bytes of every bin over the window (at most
    /// 2^24 of them).
    #[serde(default)]
    pub series: bool,
}

impl BurstinessSpec {
    fn default_link() -> String {
        "core".into()
    }
    fn default_bin() -> u64 {
        1_000
    }
    fn default_scales() -> u32 {
        20
    }
}

/// The longest bin series a run may ask for (8 bytes a bin in the engine).
pub const MAX_SERIES_BINS: u64 = 1 << 24;

/// One TCP flow per sender host, started uniformly over `start`:
/// long-lived bulk transfers (ns-2 FTP), or short-lived closed-loop users
/// (`[traffic.short]`); and UDP sources (`[[traffic.udp]]`). With `two_way`
/// (paper A Sec VII, Fig. 23) every flow has a twin from its receiver back
/// to its sender, so data and ACKs of both directions share the core, whose
/// reverse half then takes `[core]`'s queue too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Traffic {
    /// TCP flows start at times drawn uniformly over this range, ns.
    #[serde(default = "Traffic::default_start")]
    #[schemars(extend("x-unit" = "ns"))]
    pub start: Range,
    /// UDP sources, `[[traffic.udp]]` tables, each from one host to another.
    #[serde(default)]
    pub udp: Vec<crate::traffic::udp::UdpSpec>,
    /// Closed-loop short-lived users, `[traffic.short]`; absent: every flow long-lived.
    #[serde(default)]
    pub short: Option<crate::traffic::short::ShortSpec>,
    /// Every flow gets a twin in the other direction (paper A Sec VII,
    /// Fig. 23); the core's reverse half, now a bottleneck for the twins'
    /// data, takes `[core]`'s queue too.
    #[serde(default)]
    pub two_way: bool,
    /// Tmix clouds, `[[traffic.tmix]]`: TCP connections replayed from
    /// connection vectors (paper Q Sec IV-C2), each between two hosts.
    #[serde(default)]
    pub tmix: Vec<crate::traffic::tmix::TmixSpec>,
}

impl Traffic {
    /// Paper E Sec 3.1: flows start uniformly over the first 10 s.
    fn default_start() -> Range {
        [0, 10_000 * MS]
    }
}

impl Scenario {
    fn default_seed() -> u64 {
        1
    }
    /// Paper E Sec 3.1: 400 s runs measured after 100 s.
    fn default_duration() -> u64 {
        400_000 * MS
    }
    fn default_warmup() -> u64 {
        100_000 * MS
    }
}

/// The parse error's message with a number shown as `text` has it: serde_json
/// reads an integer past 2^64 as a float and would print
/// 18446744073709551616 as `1.8446744073709552e+19`; such an integer becomes
/// "invalid value: integer `18446744073709551616`, expected u64", as one
/// within u64 but past the field's type is shown, and a fraction keeps its digits.
fn as_written(text: &str, e: serde_json::Error) -> String {
    // Without serde's " at line L column C": the field's path places the
    // fault, and the JSON is the front's, not a file the user wrote.
    let whole = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    let message = whole.strip_suffix(&position).unwrap_or(&whole).to_string();
    let Some(shown) = message.split_once("floating point `").and_then(|(_, rest)| rest.split_once('`'))
    else {
        return message;
    };
    // The error's column is the value's last character (1-based).
    let line = text.lines().nth(e.line().saturating_sub(1)).unwrap_or("");
    let end = e.column().min(line.len());
    let start =
        line[..end].rfind(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c))).map_or(0, |i| i + 1);
    let token = &line[start..end];
    if token.is_empty() || token.parse::<f64>().ok() != shown.0.parse::<f64>().ok() {
        return message; // not the number serde read: leave its own words
    }
    let integer = token.strip_prefix('-').unwrap_or(token).bytes().all(|b| b.is_ascii_digit());
    let what = if integer {
        format!("invalid value: integer `{token}`")
    } else {
        format!("invalid type: floating point `{token}`")
    };
    message.replacen(&format!("invalid type: floating point `{}`", shown.0), &what, 1)
}

impl Scenario {
    /// Parse from JSON, rejecting unknown keys.
    pub fn from_json(text: &str) -> Result<Self, InvalidField> {
        // Each key as given (a variant's unused knobs too) within its bounds,
        // before the rules that span keys, as the front checks them; JSON
        // that does not parse is named below.
        if let Ok(wire) = serde_json::from_str(text) {
            bounds::check(&wire, Self::schema())?;
        }
        let de = &mut serde_json::Deserializer::from_str(text);
        let s: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." { "scenario".to_string() } else { path };
            let message = as_written(text, e.into_inner());
            // A spec read from its wire form names its own field (`tcp.rampdown: ...`).
            match message.split_once(": ") {
                Some((inner, m)) if inner.starts_with(&format!("{field}.")) => bad(inner, m),
                _ => bad(&field, message),
            }
        })?;
        s.validate()?;
        Ok(s)
    }

    /// The JSON Schema of the scenario as [`Scenario::from_json`] reads it
    /// (the wire form, SI integers): each key's doc comment is its
    /// `description`, a serde default its `default`, and a quantity's unit
    /// its `x-unit` ("bytes", "bit/s", "ns", "packets"), a number's bounds
    /// as `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`;
    /// `x-no-build` marks a key that building the network
    /// (`engine::build`: its links, queues, routes, pacers, recorders and
    /// UDP traces) never refuses a scenario for, so that scenarios differing
    /// only in such keys, each valid, are built or refused alike (a sweep
    /// checks one build for them all). The
    /// results store keys a run by the values it gives (python/pacesim/store.py,
    /// `key_form`), not by this layout. The Python front generates its
    /// models from it (python/pacesim/scenario_tables.py), and both hold a scenario
    /// to its bounds (`spec::bounds`).
    pub fn schema() -> &'static serde_json::Value {
        static SCHEMA: OnceLock<serde_json::Value> = OnceLock::new();
        SCHEMA.get_or_init(|| {
            bounds::with_limits(
                schemars::SchemaGenerator::default().into_root_schema_for::<Scenario>().to_value(),
            )
        })
    }

    /// Check every key's bounds in the schema and every cross-field
    /// constraint; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        bounds::check(&bounds::wire(self)?, Self::schema())?;
        self.validate_limits()?;
        let end = format!("the end of the run (duration {})", time(self.duration));
        if self.warmup >= self.duration {
            return Err(bad("warmup", format!("{} must be before {end}", time(self.warmup))));
        }
        self.topology.validate()?;
        self.core.validate()?;
        self.tcp.validate()?;
        ordered("traffic.start", self.traffic.start)?;
        if let Some(b) = &self.burstiness {
            let bins = self.duration.saturating_sub(self.warmup) / b.bin;
            if b.series && bins > MAX_SERIES_BINS {
                let message =
                    format!("a series of {bins} bins is more than {MAX_SERIES_BINS}: use a wider bin");
                return Err(bad("burstiness.series", message));
            }
        }
        if let Some(series) = &self.series {
            series.validate()?;
            series.check_samples(self.duration)?;
        }
        if self.trace.is_some() && !self.traffic.tmix.is_empty() {
            return Err(bad("trace", "a packet trace of a run with Tmix clouds is not supported"));
        }
        for (i, t) in self.traffic.tmix.iter().enumerate() {
            t.validate(&format!("traffic.tmix[{i}]"))?;
        }
        for (i, u) in self.traffic.udp.iter().enumerate() {
            let field = format!("traffic.udp[{i}]");
            u.validate(&field)?;
            if u.start >= self.duration {
                return Err(bad(&format!("{field}.start"), format!("must be before {end}")));
            }
        }
        self.pacing.validate()?;
        if self.pacing.host().is_some_and(|h| h.wei.ack_counting) && !self.tcp.reno_window() {
            let names = Tcp::reno_window_variants();
            let (last, rest) = names.split_last().expect("Reno is one");
            let message = format!("counts Reno's window rounds (tcp.variant {} or {last})", rest.join(", "));
            return Err(bad("pacing.wei.ack_counting", message));
        }
        // (A Tmix connection is never host-paced.)
        let all_paced =
            self.pacing.host().is_some() && self.pacing.fraction >= 1.0 && self.traffic.tmix.is_empty();
        if self.tcp.overhead > 0 && all_paced {
            let message = "delays unpaced flows' sends, and every flow is host-paced (pacing.fraction 1)";
            return Err(bad("tcp.overhead", message));
        }

        // A graph without flows (a Tmix-only run, say) has no flow to start.
        let no_flows = matches!(&self.topology, crate::topology::Topology::Graph(g) if g.flows.is_empty());
        if !no_flows && self.traffic.start[1] >= self.duration {
            let latest = self.traffic.start[1];
            let message = format!("flows must start before {end}, latest start is {}", time(latest));
            return Err(bad("traffic.start", message));
        }
        Ok(())
    }

    /// A data packet, segment and header, within [`MAX_PACKET`] (each
    /// size alone is within it, and every time within [`MAX_TIME`], by the
    /// schema's bounds, `spec::bounds`).
    fn validate_limits(&self) -> Result<(), InvalidField> {
        let t = &self.tcp;
        let with_header = |b| format!("{} with the header", size(b));
        at_most("tcp.segment_size", t.segment_size.saturating_add(t.header_size), MAX_PACKET, with_header)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pacing::{PacerSpec, QlbpParams};
    use crate::spec::tagged::Tagged;

    /// RED's, Tmix's, the users' and the pacers' bounds are held once, by
    /// their schema (`spec::bounds`), not again by their `validate`: a value
    /// past one, as JSON gives it or built in Rust (NaN and infinities are
    /// null on the wire), is refused naming its field.
    #[test]
    fn bounds_held_by_the_schema_alone_name_their_field() {
        use serde_json::json;
        let line = || crate::engine::world::testing::line_scenario(10_000);
        let tmix =
            |scale: f64| json!([{"vectors": "v.cvec", "initiator": "h1", "acceptor": "h2", "scale": scale}]);
        for (at, value, want) in [
            ("/core/red/max_p", json!(1.5), "core.red.max_p: 1.5 must be at most 1.0"),
            ("/core/red/w_q", json!(0.0), "core.red.w_q: 0.0 must be greater than 0.0"),
            ("/traffic/tmix", tmix(0.0), "traffic.tmix[0].scale: 0.0 must be greater than 0.0"),
            ("/traffic/short", json!({"fraction": 1.5}), "traffic.short.fraction: 1.5 must be at most 1.0"),
            ("/traffic/short", json!({"shape": 1.0}), "traffic.short.shape: 1.0 must be greater than 1.0"),
            ("/pacing/fraction", json!(-0.5), "pacing.fraction: -0.5 must be at least 0.0"),
            (
                "/pacing",
                json!({"scheme": "qlbp", "q_max": 0}),
                "pacing.q_max: 0 packets must be at least 1 packets",
            ),
            ("/pacing", json!({"scheme": "qlbp", "mu_min": 0}), "pacing.mu_min: 0bps must be at least 1bps"),
        ] {
            let mut wire = serde_json::to_value(line()).unwrap();
            let (table, key) = at.rsplit_once('/').unwrap();
            wire.pointer_mut(table).unwrap()[key] = value;
            let err = Scenario::from_json(&wire.to_string()).unwrap_err().to_string();
            assert_eq!(err, want);
        }
        let refused = |s: Scenario| s.validate().unwrap_err().to_string();
        let mut s = line();
        s.core.red.max_p = f64::NAN;
        assert_eq!(refused(s), "core.red.max_p: NaN is not a finite number");
        let mut s = line();
        s.traffic.short =
            Some(crate::traffic::short::ShortSpec { shape: f64::INFINITY, ..Default::default() });
        assert_eq!(refused(s), "traffic.short.shape: inf is not a finite number");
        let mut s = line();
        s.pacing.fraction = f64::NAN;
        assert_eq!(refused(s), "pacing.fraction: NaN is not a finite number");
    }

    /// The bounds issue 36's leftovers left written twice, in the schema and
    /// by hand in a `validate`, are the schema's alone (`spec::bounds`): an
    /// optional float (QLBP's utilization, a trace's fps, a marking share,
    /// the Hurst parameter), a UDP source's rate, `on` and `off`, a rate's
    /// range (every rate at least 1 b/s, `bounds::with_limits`), a packet
    /// size within `MAX_PACKET`. Each past its bound is refused naming its
    /// field, as JSON gives it and built in Rust, NaN or an infinity too
    /// (`bounds::wire`: JSON would write null, as if absent).
    #[test]
    fn bounds_declared_once_are_refused_naming_their_field() {
        use crate::pacing::{PacingScheme, QlbpSpec};
        use crate::traffic::frame_trace::{Column, FrameTraceSpec, Spacing};
        use crate::traffic::udp::{Sizes, UdpKind, UdpSpec};
        use serde_json::json;
        let line = || crate::engine::world::testing::line_scenario(10_000);
        let udp = |extra: serde_json::Value| {
            let mut u =
                json!({"kind": "onoff", "rate": 1000, "size": {"range": [100, 100]}, "on": 1, "off": 1});
            u.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            json!([u])
        };
        let trace = |fps: f64| json!({"kind": "trace", "size": {"range": [100, 100]}, "trace": {"file": "f", "columns": ["bytes"], "fps": fps}});
        let link = |rate: serde_json::Value| json!([{"from": "h1", "to": "a", "rate": rate, "delay": [1, 1]}, {"from": "a", "to": "b", "core": true}]);
        for (at, value, want) in [
            (
                "/pacing",
                json!({"scheme": "qlbp", "utilization": 1.5}),
                "pacing.utilization: 1.5 must be at most 1.0",
            ),
            (
                "/pacing",
                json!({"scheme": "qlbp", "utilization": 0.0}),
                "pacing.utilization: 0.0 must be greater than 0.0",
            ),
            ("/traffic/udp", json!([trace(0.0)]), "traffic.udp[0].trace.fps: 0.0 must be at least 1e-6"),
            (
                "/traffic/udp",
                json!([trace(2e9)]),
                "traffic.udp[0].trace.fps: 2000000000.0 must be at most 1000000000.0",
            ),
            (
                "/core/droptail",
                json!({"mark_share": 0.0}),
                "core.droptail.mark_share: 0.0 must be greater than 0.0",
            ),
            (
                "/core/droptail",
                json!({"mark_share": 1.0}),
                "core.droptail.mark_share: 1.0 must be less than 1.0",
            ),
            ("/traffic/udp", udp(json!({"rate": 0})), "traffic.udp[0].rate: 0bps must be at least 1bps"),
            ("/traffic/udp", udp(json!({"on": 0})), "traffic.udp[0].on: 0s must be at least 1ns"),
            ("/traffic/udp", udp(json!({"off": 0})), "traffic.udp[0].off: 0s must be at least 1ns"),
            (
                "/traffic/udp",
                udp(json!({"kind": "fbm", "hurst": 0.96})),
                "traffic.udp[0].hurst: 0.96 must be at most 0.95",
            ),
            ("/topology/links", link(json!([0, 5])), "topology.links[0].rate[0]: 0bps must be at least 1bps"),
            ("/tcp/header_size", json!(65_536), "tcp.header_size: 65536B must be at most 65535B"),
            ("/tcp/ack_size", json!(65_536), "tcp.ack_size: 65536B must be at most 65535B"),
            ("/core/red/mean_packet", json!(65_536), "core.red.mean_packet: 65536B must be at most 65535B"),
            (
                "/traffic/udp",
                udp(json!({"size": {"range": [1, 65_536]}})),
                "traffic.udp[0].size.range[1]: 65536B must be at most 65535B",
            ),
            (
                "/traffic/udp",
                udp(json!({"size": {"list": [200, 0]}})),
                "traffic.udp[0].size.list[1]: 0B must be at least 1B",
            ),
        ] {
            let mut wire = serde_json::to_value(line()).unwrap();
            let (table, key) = at.rsplit_once('/').unwrap();
            let table = wire.pointer_mut(table).unwrap();
            match (&mut table[key], value) {
                (serde_json::Value::Object(t), serde_json::Value::Object(given)) => t.extend(given),
                (slot, value) => *slot = value,
            }
            let err = Scenario::from_json(&wire.to_string()).unwrap_err().to_string();
            assert_eq!(err, want);
        }
        let ebase = |rate: [u64; 2]| {
            let mut wire = serde_json::to_value(line()).unwrap();
            wire["topology"] = json!({"kind": "e-base", "edges": 1, "hosts_per_edge": 1, "edge_rate": rate});
            wire["traffic"]["udp"] = json!([]);
            Scenario::from_json(&wire.to_string()).err().map(|e| e.to_string())
        };
        assert_eq!(ebase([0, 0]).unwrap(), "topology.edge_rate[0]: 0bps must be at least 1bps");
        assert_eq!(ebase([1, 1]), None);

        let refused = |s: Scenario| s.validate().unwrap_err().to_string();
        let mut s = line();
        let qlbp = QlbpSpec { utilization: Some(f64::NAN), max_delay: Some(1), ..Default::default() };
        s.pacing.scheme = PacingScheme::Qlbp(qlbp);
        assert_eq!(refused(s), "pacing.utilization: NaN is not a finite number");
        let mut s = line();
        s.core.knobs.droptail.mark_share = Some(f64::INFINITY);
        assert_eq!(refused(s), "core.droptail.mark_share: inf is not a finite number");
        let fbm = UdpSpec { kind: UdpKind::Fbm, hurst: Some(f64::NAN), ..line().traffic.udp[0].clone() };
        let mut s = line();
        s.traffic.udp = vec![fbm];
        assert_eq!(refused(s), "traffic.udp[0].hurst: NaN is not a finite number");
        let columns = vec![Column::Bytes];
        let video =
            FrameTraceSpec { file: "f".into(), columns, fps: Some(f64::NEG_INFINITY), send: Spacing::Spread };
        let played =
            UdpSpec { kind: UdpKind::Trace, rate: None, trace: Some(video), ..line().traffic.udp[0].clone() };
        let mut s = line();
        s.traffic.udp = vec![played];
        assert_eq!(refused(s), "traffic.udp[0].trace.fps: -inf is not a finite number");
        let mut s = line();
        s.traffic.udp[0].size = Sizes::Range([100, 100]);
        s.traffic.udp[0].rate = Some(0);
        assert_eq!(refused(s), "traffic.udp[0].rate: 0bps must be at least 1bps");
    }

    /// Wei's ACK counting runs under the variants whose congestion control
    /// grows the window by Reno's rules, and is refused under the others
    /// with a message naming those (`CongestionControl::reno_window`).
    #[test]
    fn ack_counting_needs_a_reno_window() {
        let with = |variant: &str| {
            let mut wire =
                serde_json::to_value(crate::engine::world::testing::line_scenario(10_000)).unwrap();
            wire["tcp"]["variant"] = variant.into();
            wire["pacing"] =
                serde_json::json!({"scheme": "host", "host_pacer": "wei", "wei": {"ack_counting": true}});
            Scenario::from_json(&wire.to_string()).map(|_| ()).map_err(|e| e.to_string())
        };
        let refused =
            "pacing.wei.ack_counting: counts Reno's window rounds (tcp.variant reno, newreno, sack or fack)";
        for variant in ["reno", "newreno", "sack", "fack"] {
            assert_eq!(with(variant), Ok(()), "{variant}");
        }
        for variant in ["bic", "cubic", "fast", "bbr", "dctcp"] {
            assert_eq!(with(variant), Err(refused.to_string()), "{variant}");
        }
    }

    /// ns-2's delayed send (`tcp.overhead`) holds unpaced senders: refused
    /// where no flow would take it (every host paced: Wei's pacer has its
    /// own, `pacing.wei.overhead`) and under BBR, which paces itself.
    #[test]
    fn the_delayed_send_is_refused_where_no_flow_takes_it() {
        let with = |variant: &str, pacing: serde_json::Value| {
            let mut wire =
                serde_json::to_value(crate::engine::world::testing::line_scenario(10_000)).unwrap();
            wire["tcp"]["variant"] = variant.into();
            wire["tcp"]["overhead"] = 12_000.into();
            wire["pacing"] = pacing;
            Scenario::from_json(&wire.to_string()).map(|_| ()).map_err(|e| e.to_string())
        };
        let none = serde_json::json!({"scheme": "none"});
        let half = serde_json::json!({"scheme": "host", "host_pacer": "wei", "fraction": 0.5});
        let all = serde_json::json!({"scheme": "host", "host_pacer": "wei"});
        assert_eq!(with("reno", none.clone()), Ok(()));
        assert_eq!(with("sack", half), Ok(()));
        let err = with("reno", all).unwrap_err();
        assert!(
            err.starts_with("tcp.overhead: delays unpaced flows' sends, and every flow is host-paced"),
            "{err}"
        );
        let err = with("bbr", none).unwrap_err();
        assert!(err.starts_with("tcp.overhead: BBR paces itself"), "{err}");
    }

    /// The schema reads the wire form (flat `tcp` and `pacing`), carries the
    /// serde defaults, the units and the bounds, and tags the topology by `kind`.
    #[test]
    fn schema_is_the_wire_form_with_defaults_and_units() {
        let s = Scenario::schema();
        let defs = &s["$defs"];
        let tcp = &defs["Tcp"]["properties"];
        assert_eq!(tcp["min_rto"]["x-unit"], "ns");
        assert_eq!(tcp["segment_size"]["x-unit"], "bytes");
        assert_eq!(tcp["fast_alpha"]["default"], 200.0);
        assert_eq!(tcp["fast_gamma"]["maximum"], 1.0);
        assert_eq!(tcp["rampdown"]["default"], false);
        assert_eq!(tcp["variant"]["enum"].as_array().unwrap().len(), 9);
        assert_eq!((&tcp["dctcp_g"]["default"], &tcp["dctcp_g"]["maximum"]), (&0.0625.into(), &1.0.into()));
        assert_eq!(defs["DropTailParams"]["properties"]["mark_packets"]["x-unit"], "packets");
        assert_eq!(tcp["variant"]["default"], "reno");
        let pacing = &defs["Pacing"]["properties"];
        assert_eq!(pacing["mu_max"]["default"], 100_000_000);
        assert_eq!(pacing["delay"]["default"], 10_000_000);
        assert_eq!(pacing["scheme"]["enum"], serde_json::json!(["none", "host", "edge", "qlbp"]));
        // A variant's knobs carry its name; the common keys none.
        let of = |table: &serde_json::Value, key: &str| table[key].get("x-variant").cloned();
        assert_eq!((of(tcp, "fast_alpha"), of(tcp, "rampdown")), (Some("fast".into()), Some("fack".into())));
        assert_eq!(
            (of(tcp, "bbr_cwnd_gain"), of(tcp, "dctcp_g")),
            (Some("bbr".into()), Some("dctcp".into()))
        );
        assert_eq!((of(pacing, "mu_max"), of(pacing, "delay")), (Some("qlbp".into()), Some("edge".into())));
        assert_eq!((of(tcp, "variant"), of(tcp, "segment_size"), of(pacing, "fraction")), (None, None, None));
        assert_eq!(s["properties"]["pacing"].get("default"), None, "each key its own default");
        // Bounds and defaults the front generates its types from (python/pacesim/scenario_tables.py).
        let red = &defs["RedParams"]["properties"];
        assert_eq!((&red["max_p"]["exclusiveMinimum"], &red["max_p"]["maximum"]), (&0.0.into(), &1.0.into()));
        assert_eq!(s["properties"]["duration"]["minimum"], 1);
        assert_eq!(s["properties"]["duration"]["default"], 400_000_000_000u64);
        assert_eq!(defs["BurstinessSpec"]["properties"]["scales"]["maximum"], 40);
        assert_eq!(
            defs["Traffic"]["properties"]["start"]["default"],
            serde_json::json!([0, 10_000_000_000u64])
        );
        let kinds: Vec<_> = defs["Topology"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| &k["properties"]["kind"]["const"])
            .collect();
        assert_eq!(kinds.len(), Topology::VARIANTS.len());
        for (kind, name) in kinds.iter().zip(Topology::VARIANTS) {
            assert_eq!(*kind, name);
        }
    }

    #[test]
    fn qlbp_rule_of_thumb_from_link_rate_and_utilisation() {
        // 100 Mb/s at rho = 0.5 with D_max = 10 ms: mu_max = 75 Mb/s,
        // mu_min = 25 Mb/s, Q_max = ceil(10 ms * 75 Mb/s / 8000 b) = 94.
        let q = crate::pacing::QlbpSpec {
            utilization: Some(0.5),
            max_delay: Some(10_000_000),
            ..Default::default()
        };
        let p = Pacing { scheme: PacingScheme::Qlbp(q), ..Pacing::default() };
        let want = QlbpParams { mu_max: 75_000_000, mu_min: 25_000_000, q_max: 94, q_lim: 2000 };
        assert_eq!(p.link_pacer(100_000_000), Some(PacerSpec::Qlbp(want)));
        assert_eq!(
            Pacing { scheme: PacingScheme::Edge { delay: 0 }, ..Pacing::default() }.link_pacer(1),
            None
        );
    }
}
