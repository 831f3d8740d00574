//! Open-loop UDP sources: constant bit rate, Poisson (exponential gaps),
//! Markov ON-OFF, paper A's truncated fBm, with fixed, uniform or listed
//! packet sizes; and video frame traces cut into packets ([`super::video`]).
//!
//! As in papers A (Sec V-A) and E (Sec 5), all real-time traffic is one
//! aggregate source on its own access link: open-loop traffic aggregates
//! without loss of generality. Paper E-fig13: 5.5 Mb/s Poisson, sizes
//! U[100, 300] B; paper A-fig11: 5 Mb/s Poisson, 200 B; A-fig2 and A-fig3:
//! movie traces.
//!
//! Every kind but a trace holds the configured mean rate in wire bytes. CBR
//! sends packet n + 1 when the bits of packets 0..=n have left at exactly
//! `rate` (so variable sizes keep the rate, and integer rounding never
//! drifts); Poisson draws each gap from an exponential of mean
//! E[size] * 8 / rate. Gaps come from the "udp.gap" stream and sizes from
//! "udp.size", both indexed by the source, so adding a source shifts
//! nobody's draws.

use rand_distr::{Distribution, Exp};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::fbm::{FbmSource, Fgn};
pub use super::sizes::Sizes;
use super::trace::{Trace, TraceSpec};
use super::video::VideoSource;
use crate::sim::rng::{stream, Stream};
use crate::sim::Time;
use crate::spec::InvalidField;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum UdpKind {
    Cbr,
    Poisson,
    /// Paper A's truncated fBm at 1 us resolution (see [`super::fbm`]); needs
    /// `hurst`. Paper E Sec 5 draws its sizes U[100, 300] B.
    Fbm,
    /// Markov ON-OFF (paper Q Sec IV-C; paper W's cross traffic): CBR at the
    /// peak `rate` during ON periods, silent during OFF, both exponential
    /// with means `on` and `off`, starting ON. Mean rate h on / (on + off),
    /// i.e. h r1 / (r1 + r2) with r1 = 1/off, r2 = 1/on.
    Onoff,
    /// A video frame trace (paper A Sec II; see [`super::video`]); needs
    /// `trace`, and `rate` is optional.
    Trace,
}

impl UdpKind {
    /// "an fbm source", as an error names a source of this kind.
    fn source(self) -> String {
        let name =
            serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        let article = if matches!(self, UdpKind::Fbm | UdpKind::Onoff) { "an" } else { "a" };
        format!("{article} {name} source")
    }
}

/// fBm resolution (paper A Sec V-A: 1 us) and noise block length (2^20
/// samples, about 1 s: correlation is exact below it, see `fbm`).
const FBM_DT: Time = 1_000;
const FBM_BLOCK: usize = 1 << 20;

/// An open-loop UDP source (papers A Sec V-A, E Sec 5), `[[traffic.udp]]`:
/// "cbr", "poisson" (exponential gaps), "fbm" (paper A's truncated
/// fractional Brownian motion at 1 us resolution with Hurst parameter
/// `hurst`, each packet sent when the motion's bytes complete it) at mean
/// `rate` in wire bits, "onoff" (paper Q: CBR at peak `rate` during
/// exponential ON periods of mean `on`, silent for exponential OFF periods
/// of mean `off`), or "trace" (paper A Sec II: the video frames of `trace`
/// cut into packets, played as recorded or scaled to mean `rate`), from host
/// `from` to host `to` (A-base and E-base with `topology.udp` name them
/// "s-udp" and "d-udp"), first packet at `start`. Packet sizes on the wire:
/// `size`, one value or a [low, high] range drawn uniformly, or a list drawn
/// from with equal weights (a scenario file's `sizes`); a trace frame's last
/// packet carries what is left of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UdpSpec {
    /// The source's process (required).
    pub kind: UdpKind,
    /// Mean wire rate in bits per second (the peak for onoff); required but
    /// for a trace, which plays as recorded without it and is scaled to it with it.
    #[serde(default)]
    #[schemars(extend("x-unit" = "bit/s"), range(min = 1))]
    pub rate: Option<u64>,
    /// Packet sizes on the wire, bytes.
    #[schemars(extend("x-unit" = "bytes"))]
    pub size: Sizes,
    /// Time of the first packet, ns.
    #[serde(default)]
    #[schemars(extend("x-unit" = "ns"))]
    pub start: u64,
    /// fbm: the Hurst parameter, in [1/2, 1) (paper A Sec V-A uses 0.85).
    #[serde(default)]
    #[schemars(range(min = 0.5), extend("exclusiveMaximum" = 1.0))]
    pub hurst: Option<f64>,
    /// onoff: mean of the exponential ON periods, ns (paper Q: 100 ms).
    #[serde(default)]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub on: Option<u64>,
    /// onoff: mean of the exponential OFF periods, ns (paper Q: 200 ms).
    #[serde(default)]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub off: Option<u64>,
    /// trace: the video frame trace, `[traffic.udp.trace]`.
    #[serde(default)]
    pub trace: Option<TraceSpec>,
    /// The sending host, by name.
    #[serde(default = "UdpSpec::default_from")]
    pub from: String,
    /// The receiving host, by name.
    #[serde(default = "UdpSpec::default_to")]
    pub to: String,
}

impl UdpSpec {
    /// The UDP hosts of A-base, and of E-base with `topology.udp`.
    fn default_from() -> String {
        "s-udp".into()
    }
    fn default_to() -> String {
        "d-udp".into()
    }

    /// The trace a trace source plays: its file's, scaled to `rate` if given
    /// (None for the other kinds); an error on `{field}.trace.file` or `{field}.rate`.
    pub fn played_trace(&self, field: &str) -> Result<Option<Trace>, InvalidField> {
        let Some(t) = &self.trace else { return Ok(None) };
        let trace = t.read(&format!("{field}.trace"))?;
        match self.rate {
            None => Ok(Some(trace)),
            Some(rate) => trace.scaled_to(rate).map(Some).ok_or_else(|| InvalidField {
                field: format!("{field}.rate"),
                message: "too low for this trace: every frame rounds to 0 bytes".into(),
            }),
        }
    }

    /// Mean wire rate, bit/s: `rate`, an ON-OFF source's over its ON share,
    /// a trace source's that of `played` (its [`UdpSpec::played_trace`]).
    pub fn mean_rate(&self, played: Option<&Trace>) -> f64 {
        let rate = self.rate.unwrap_or(0) as f64;
        match (self.kind, played, self.on, self.off) {
            (UdpKind::Trace, Some(t), ..) => t.mean_rate(),
            (UdpKind::Onoff, _, Some(on), Some(off)) => rate * on as f64 / (on as f64 + off as f64),
            _ => rate,
        }
    }

    pub fn validate(&self, field: &str) -> Result<(), InvalidField> {
        let bad = |key: &str, message: &str| InvalidField {
            field: format!("{field}.{key}"),
            message: message.into(),
        };
        let kind = self.kind;
        match self.rate {
            Some(0) => return Err(bad("rate", "must be greater than zero")),
            None if kind != UdpKind::Trace => {
                return Err(bad("rate", &format!("required for {}", kind.source())))
            }
            _ => {}
        }
        self.size.validate(&format!("{field}.size"))?;
        for (key, given, wanted) in [
            ("hurst", self.hurst.is_some(), UdpKind::Fbm),
            ("on", self.on.is_some(), UdpKind::Onoff),
            ("off", self.off.is_some(), UdpKind::Onoff),
            ("trace", self.trace.is_some(), UdpKind::Trace),
        ] {
            if given != (kind == wanted) {
                let message = if given {
                    format!("only {} takes {key}", wanted.source())
                } else {
                    format!("{} needs {key}", kind.source())
                };
                return Err(bad(key, &message));
            }
        }
        if self.from == self.to {
            return Err(bad("to", "is the sending host (from): a source needs a path to cross"));
        }
        if self.on == Some(0) || self.off == Some(0) {
            return Err(bad(if self.on == Some(0) { "on" } else { "off" }, "must be greater than zero"));
        }
        if let Some(t) = &self.trace {
            t.validate(&format!("{field}.trace"))?;
        }
        match (kind, self.hurst) {
            (UdpKind::Fbm, Some(h)) if !(0.5..1.0).contains(&h) => Err(bad("hurst", "must be in [0.5, 1)")),
            _ => Ok(()),
        }
    }
}

/// How a source spaces packets whose sizes it draws one by one.
enum Gaps {
    /// Wire bits sent so far.
    Cbr { rate: u64, start: Time, bits: u128 },
    /// The next departure in exact (unrounded) ns.
    Poisson { clock: f64, gap: Exp<f64>, rng: Stream },
    /// The next departure in exact ns, and when the current ON period ends.
    OnOff { rate: u64, clock: f64, on_end: f64, on: Exp<f64>, off: Exp<f64>, rng: Stream },
    /// Paper A's fBm: the end of the noise interval whose bytes cover the
    /// packet just sent.
    Fbm(Box<FbmSource>),
}

impl Gaps {
    /// When the packet after one of `size` bytes sent now is due.
    fn after(&mut self, size: u32) -> Time {
        match self {
            Gaps::Cbr { rate, start, bits } => {
                *bits += u128::from(size) * 8;
                *start + (*bits * 1_000_000_000 / u128::from(*rate)) as Time
            }
            Gaps::Poisson { clock, gap, rng } => {
                *clock += gap.sample(rng);
                *clock as Time
            }
            Gaps::OnOff { rate, clock, on_end, on, off, rng } => {
                *clock += f64::from(size) * 8e9 / *rate as f64;
                if *clock >= *on_end {
                    *clock = *on_end + off.sample(rng);
                    *on_end = *clock + on.sample(rng);
                }
                *clock as Time
            }
            Gaps::Fbm(source) => source.next_departure(size),
        }
    }
}

/// How a source makes its packets.
enum Pattern {
    /// One by one: a size drawn from `sizes`, then the gap to the next.
    Drawn { sizes: Sizes, rng: Stream, gaps: Gaps },
    /// A trace's frames cut into packets.
    Video(Box<VideoSource>),
}

/// A running source: when its next packet is due and how big it is.
pub struct UdpSource {
    pattern: Pattern,
    start: Time,
    /// The route its packets take (an index into `Network::routes`).
    pub route: u32,
    pub sent: u64,
    pub received: u64,
}

impl UdpSource {
    /// Source `index` of a run with master seed `seed`, sending on `route`,
    /// a trace source playing `played` (its [`UdpSpec::played_trace`]); an
    /// fBm source whose noise cannot be generated is an error on `field`.
    pub fn new(
        spec: &UdpSpec,
        played: Option<Trace>,
        seed: u64,
        index: u64,
        route: u32,
        field: &str,
    ) -> Result<Self, InvalidField> {
        let rng = |purpose| stream(seed, purpose, index);
        let rate = || spec.rate.expect("validated: every kind but a trace has a rate");
        let drawn = |gaps| Pattern::Drawn { sizes: spec.size.clone(), rng: rng("udp.size"), gaps };
        let pattern = match spec.kind {
            UdpKind::Cbr => drawn(Gaps::Cbr { rate: rate(), start: spec.start, bits: 0 }),
            UdpKind::Poisson => {
                let mean_gap_ns = spec.size.mean() * 8.0 * 1e9 / rate() as f64;
                let gap = Exp::new(1.0 / mean_gap_ns).expect("validated positive rate");
                drawn(Gaps::Poisson { clock: spec.start as f64, gap, rng: rng("udp.gap") })
            }
            UdpKind::Onoff => {
                let exp =
                    |mean: Option<u64>| Exp::new(1.0 / mean.unwrap_or(0) as f64).expect("validated positive");
                let (on, off, mut rng) = (exp(spec.on), exp(spec.off), rng("udp.onoff"));
                let on_end = spec.start as f64 + on.sample(&mut rng);
                drawn(Gaps::OnOff { rate: rate(), clock: spec.start as f64, on_end, on, off, rng })
            }
            UdpKind::Fbm => {
                let h = spec.hurst.unwrap_or(f64::NAN);
                let noise = Fgn::new(h, FBM_BLOCK, rng("udp.fgn"))
                    .map_err(|e| InvalidField { field: format!("{field}.hurst"), message: e.to_string() })?;
                drawn(Gaps::Fbm(Box::new(FbmSource::new(noise, rate(), FBM_DT, spec.start))))
            }
            UdpKind::Trace => {
                let (t, trace) =
                    spec.trace.as_ref().zip(played).expect("validated: a trace source has a trace");
                let video = VideoSource::new(trace, t.send, spec.size.clone(), rng("udp.size"), spec.start);
                Pattern::Video(Box::new(video))
            }
        };
        Ok(UdpSource { pattern, start: spec.start, route, sent: 0, received: 0 })
    }

    /// When the first packet is due.
    pub fn first(&self) -> Time {
        match &self.pattern {
            Pattern::Video(v) => v.first(),
            _ => self.start,
        }
    }

    /// The packet due now: its size, and when the next one is due.
    pub fn emit(&mut self) -> (u32, Time) {
        self.sent += 1;
        match &mut self.pattern {
            Pattern::Drawn { sizes, rng, gaps } => {
                let size = sizes.draw(rng);
                (size, gaps.after(size))
            }
            Pattern::Video(v) => v.emit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::trace::{Column, Spacing};

    fn spec(kind: UdpKind, rate: u64, size: Sizes) -> UdpSpec {
        UdpSpec {
            kind,
            rate: Some(rate),
            size,
            start: 1_000,
            hurst: None,
            on: None,
            off: None,
            trace: None,
            from: "s".into(),
            to: "d".into(),
        }
    }

    /// A trace source of `size`-byte packets reading `file` as `columns` at 25 frames/s.
    fn video(file: &str, columns: Vec<Column>, size: u64, rate: Option<u64>) -> UdpSpec {
        let trace = TraceSpec { file: file.into(), columns, fps: Some(25.0), send: Spacing::Spread };
        UdpSpec { rate, trace: Some(trace), ..spec(UdpKind::Trace, 1, Sizes::Range([size, size])) }
    }

    fn source(spec: &UdpSpec, seed: u64, index: u64, route: u32) -> UdpSource {
        UdpSource::new(spec, spec.played_trace("udp").unwrap(), seed, index, route, "udp").unwrap()
    }

    /// Run a source for `n` packets: (bytes, time of the n-th departure after start).
    fn run(s: &mut UdpSource, n: usize) -> (u64, Time) {
        let (mut bytes, mut t) = (0u64, s.first());
        for _ in 0..n {
            let (size, next) = s.emit();
            bytes += u64::from(size);
            t = next;
        }
        (bytes, t - s.first())
    }

    /// Pinned: the packet stream of each kind for seed 5 (sum of sizes, sum of
    /// departure times, last departure over 5000 packets), so a change to the
    /// sources' code cannot silently change their output.
    #[test]
    fn packet_streams_are_pinned() {
        let pin = |spec: UdpSpec| {
            let mut s = source(&spec, 5, 1, 0);
            let (mut bytes, mut times, mut last) = (0u64, 0u128, 0);
            for _ in 0..5000 {
                let (size, next) = s.emit();
                (bytes, times, last) = (bytes + u64::from(size), times + u128::from(next), next);
            }
            (bytes, times, last)
        };
        let sizes = Sizes::Range([100, 300]);
        let onoff = UdpSpec {
            on: Some(100_000_000),
            off: Some(200_000_000),
            ..spec(UdpKind::Onoff, 2_000_000, sizes.clone())
        };
        let fbm = UdpSpec { hurst: Some(0.85), ..spec(UdpKind::Fbm, 5_000_000, Sizes::Range([200, 200])) };
        let cbr = spec(UdpKind::Cbr, 5_000_000, sizes.clone());
        assert_eq!(pin(cbr), (1_006_913, 4_031_905_376_000, 1_611_061_800));
        let poisson = spec(UdpKind::Poisson, 5_000_000, Sizes::List(vec![40, 200, 1000]));
        assert_eq!(pin(poisson), (2_071_200, 8_376_928_461_718, 3_306_035_986));
        assert_eq!(pin(onoff), (1_006_913, 33_512_050_107_217, 12_780_598_506));
        assert_eq!(pin(fbm), (1_000_000, 4_089_165_053_000, 1_586_497_000));
    }

    #[test]
    fn fbm_with_uniform_sizes_cuts_the_same_bytes() {
        // Paper E Sec 5: fBm of mean 6 Mb/s cut into U[100, 300] B packets.
        // The sizes come from their own stream, so the noise's bytes are
        // those of the fixed-size source: the packet completing the first
        // 1 MB leaves when the fixed source's 5000th 200 B packet does, or
        // within the intervals that make one more packet (under 300 B).
        let fbm = |size| UdpSpec { hurst: Some(0.85), ..spec(UdpKind::Fbm, 6_000_000, size) };
        let until_1mb = |spec: &UdpSpec| {
            let mut s = source(spec, 3, 0, 0);
            let (mut bytes, mut sizes) = (0u64, vec![]);
            while bytes < 1_000_000 {
                let (size, next) = s.emit();
                bytes += u64::from(size);
                sizes.push(size);
                if bytes >= 1_000_000 {
                    return (next, sizes);
                }
            }
            unreachable!()
        };
        let (fixed, _) = until_1mb(&fbm(Sizes::Range([200, 200])));
        let (drawn, sizes) = until_1mb(&fbm(Sizes::Range([100, 300])));
        assert!(sizes.iter().all(|s| (100..=300).contains(s)));
        // Mean of ~5000 U[100, 300] draws: 200 B, standard error 0.8 B.
        let mean = sizes.iter().map(|&s| f64::from(s)).sum::<f64>() / sizes.len() as f64;
        assert!((mean - 200.0).abs() < 4.0, "{mean}");
        assert!(drawn.abs_diff(fixed) < 5_000_000, "{drawn} vs {fixed} ns");
    }

    #[test]
    fn cbr_holds_its_rate_exactly_with_variable_sizes() {
        // 5 Mb/s of U[100, 300] B: after n packets the clock is at bits/rate, to the ns.
        let mut s = source(&spec(UdpKind::Cbr, 5_000_000, Sizes::Range([100, 300])), 1, 0, 0);
        let (bytes, t) = run(&mut s, 10_000);
        assert_eq!(t, (u128::from(bytes) * 8 * 1_000_000_000 / 5_000_000) as Time);
        // Fixed 200 B at 5 Mb/s: exactly 320 us apart.
        let mut s = source(&spec(UdpKind::Cbr, 5_000_000, Sizes::Range([200, 200])), 1, 0, 0);
        assert_eq!(s.emit(), (200, 1_000 + 320_000));
        assert_eq!(s.emit(), (200, 1_000 + 640_000));
    }

    #[test]
    fn poisson_mean_rate_within_four_standard_errors() {
        // n exponential gaps: the total has relative sd 1/sqrt(n) (gaps) and the
        // bytes of U[100, 300] sizes relative sd (57.7/200)/sqrt(n); 4 sd bound.
        let n = 100_000;
        let mut s = source(&spec(UdpKind::Poisson, 5_500_000, Sizes::Range([100, 300])), 3, 0, 0);
        let (bytes, t) = run(&mut s, n);
        let rate = bytes as f64 * 8.0 / (t as f64 * 1e-9);
        let sd = (1.0 + (57.735f64 / 200.0).powi(2)).sqrt() / (n as f64).sqrt();
        assert!((rate / 5.5e6 - 1.0).abs() < 4.0 * sd, "rate {rate}, 4 sd = {}", 4.0 * sd);
        // Exponential gaps: coefficient of variation 1 (sd of the estimate ~ 1/sqrt(n)).
        let mut s = source(&spec(UdpKind::Poisson, 1_000_000, Sizes::Range([125, 125])), 4, 0, 0);
        let mut last = s.first();
        let gaps: Vec<f64> = (0..n)
            .map(|_| {
                let (_, next) = s.emit();
                let g = (next - last) as f64;
                last = next;
                g
            })
            .collect();
        let mean = gaps.iter().sum::<f64>() / n as f64;
        let cv = (gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / n as f64).sqrt() / mean;
        assert!((mean / 1e6 - 1.0).abs() < 4.0 / (n as f64).sqrt(), "mean gap {mean} ns, want 1 ms");
        // The sample sd of an exponential has relative sd sqrt((kurtosis - 1) / 4n) = sqrt(2/n).
        assert!((cv - 1.0).abs() < 4.0 * (2.0 / n as f64).sqrt(), "cv {cv}");
    }

    #[test]
    fn listed_sizes_are_drawn_evenly() {
        let mut s = source(&spec(UdpKind::Cbr, 1_000_000, Sizes::List(vec![40, 1000])), 1, 0, 0);
        let n = 10_000;
        let big = (0..n).filter(|_| s.emit().0 == 1000).count();
        // Binomial(n, 1/2): sd = sqrt(n)/2 = 50.
        assert!((big as i64 - n as i64 / 2).abs() < 4 * 50, "{big}");
    }

    #[test]
    fn bad_specs_name_their_field() {
        let e = spec(UdpKind::Cbr, 0, Sizes::Range([1, 2])).validate("traffic.udp[0]").unwrap_err();
        assert_eq!(e.field, "traffic.udp[0].rate");
        let e = spec(UdpKind::Cbr, 1, Sizes::List(vec![])).validate("traffic.udp[1]").unwrap_err();
        assert_eq!(e.field, "traffic.udp[1].size");
        let e = spec(UdpKind::Cbr, 1, Sizes::Range([0, 2])).validate("traffic.udp[1]").unwrap_err();
        assert!(e.message.contains("[1,"), "{e}");
        let fbm = |hurst, size| UdpSpec { hurst, ..spec(UdpKind::Fbm, 1, size) };
        assert_eq!(fbm(None, Sizes::Range([200, 200])).validate("u").unwrap_err().field, "u.hurst");
        assert_eq!(fbm(Some(1.0), Sizes::Range([200, 200])).validate("u").unwrap_err().field, "u.hurst");
        assert!(fbm(Some(0.8), Sizes::Range([100, 300])).validate("u").is_ok());
        let poisson = UdpSpec { hurst: Some(0.8), ..spec(UdpKind::Poisson, 1, Sizes::Range([1, 1])) };
        assert_eq!(poisson.validate("u").unwrap_err().field, "u.hurst");
        let onoff = |on, off| UdpSpec { on, off, ..spec(UdpKind::Onoff, 1, Sizes::Range([1, 1])) };
        assert_eq!(onoff(Some(1), None).validate("u").unwrap_err().field, "u.off");
        assert_eq!(onoff(Some(0), Some(1)).validate("u").unwrap_err().field, "u.on");
        assert!(onoff(Some(1), Some(1)).validate("u").is_ok());
        let v = video("f", vec![Column::Bytes], 1, None);
        assert!(v.validate("u").is_ok() && UdpSpec { rate: Some(1), ..v.clone() }.validate("u").is_ok());
        assert_eq!(UdpSpec { trace: None, ..v.clone() }.validate("u").unwrap_err().field, "u.trace");
        let cbr = UdpSpec { kind: UdpKind::Cbr, rate: Some(1), ..v.clone() };
        assert_eq!(cbr.validate("u").unwrap_err().field, "u.trace");
        assert_eq!(UdpSpec { rate: None, trace: None, ..cbr }.validate("u").unwrap_err().field, "u.rate");
        let mut no_fps = v;
        no_fps.trace.as_mut().unwrap().fps = None;
        assert_eq!(no_fps.validate("u").unwrap_err().field, "u.trace.fps");
    }

    #[test]
    fn a_trace_source_plays_its_file_at_its_rate_or_the_given_one() {
        // 25 frames/s of 1000 and 500 B: 1500 B per 80 ms = 150 kb/s; 200 B
        // packets, five then three (the last 100 B), spread over 40 ms.
        let path = std::env::temp_dir().join(format!("pacesim-udp-trace-{}.txt", std::process::id()));
        std::fs::write(&path, "# two frames\n0 I 1000\n1 P 500\n").unwrap();
        let file = path.to_string_lossy();
        let video = |rate| video(&file, vec![Column::Frame, Column::Type, Column::Bytes], 200, rate);
        let mut s = source(&video(None), 1, 0, 0);
        assert_eq!(s.first(), 1_000);
        let p: Vec<(u32, Time)> = (0..9).map(|_| s.emit()).collect();
        let sizes: Vec<u32> = p.iter().map(|x| x.0).collect();
        assert_eq!(sizes, [200, 200, 200, 200, 200, 200, 200, 100, 200]);
        // The next departures: 8 ms apart, then the P frame at 40 ms (200/500 of
        // 40 ms = 16 ms apart), then the loop at 80 ms.
        let ms: Vec<f64> = p.iter().map(|x| (x.1 - 1_000) as f64 / 1e6).collect();
        assert_eq!(ms, [8.0, 16.0, 24.0, 32.0, 40.0, 56.0, 72.0, 80.0, 88.0]);
        // 300 kb/s doubles every frame: 3000 B per 80 ms, fifteen packets; the
        // next loop's I frame has ten, 4 ms apart.
        let mut s = source(&video(Some(300_000)), 1, 0, 0);
        assert_eq!((0..15).map(|_| s.emit().0).sum::<u32>(), 3000);
        assert_eq!(s.emit().1, 1_000 + 80_000_000 + 4_000_000);
        assert_eq!(video(None).mean_rate(video(None).played_trace("u").unwrap().as_ref()), 150_000.0);
        let e = video(Some(1)).played_trace("traffic.udp[1]").unwrap_err();
        assert_eq!(e.field, "traffic.udp[1].rate");
        std::fs::remove_file(&path).unwrap();
        let e = video(None).played_trace("traffic.udp[1]").unwrap_err();
        assert_eq!(e.field, "traffic.udp[1].trace.file");
    }

    #[test]
    fn onoff_mean_rate_is_peak_times_on_share() {
        // Paper Q-fig15: peak 2 Mb/s, ON 100 ms, OFF 200 ms: mean 2/3 Mb/s.
        // The ON time of a two-state Markov chain (rates a = 1/off, b = 1/on)
        // over T has variance 2ab/(a+b)^3 T: over T = 2000 s the ON share
        // 1/3 has relative sd sqrt(2 * 50 / 3375 * 2000) / 666.7 = 1.15 %; 4 sd.
        let s = UdpSpec {
            on: Some(100_000_000),
            off: Some(200_000_000),
            ..spec(UdpKind::Onoff, 2_000_000, Sizes::Range([1000, 1000]))
        };
        let mut src = source(&s, 7, 0, 0);
        let mut bytes = 0u64;
        let mut t = src.first();
        while t < 2_000_000_000_000 {
            let (size, next) = src.emit();
            bytes += u64::from(size);
            t = next;
        }
        let rate = bytes as f64 * 8.0 / 2000.0;
        assert!((rate / (2e6 / 3.0) - 1.0).abs() < 4.0 * 0.0115, "{rate}");
        // During ON the packets are 4 ms apart (1000 B at 2 Mb/s).
        let mut src = source(&s, 7, 0, 0);
        let gaps: Vec<Time> =
            (0..1000).map(|_| src.emit().1).collect::<Vec<_>>().windows(2).map(|w| w[1] - w[0]).collect();
        assert!(
            gaps.iter().all(|&g| g >= 4_000_000) && gaps.iter().filter(|&&g| g == 4_000_000).count() > 900
        );
    }
}
