//! Open-loop UDP sources: constant bit rate, or Poisson (exponential gaps),
//! with fixed, uniform or listed packet sizes.
//!
//! As in papers A (Sec V-A) and E (Sec 5), all real-time traffic is one
//! aggregate source on its own access link: open-loop traffic aggregates
//! without loss of generality. Paper E-fig13: 5.5 Mb/s Poisson, sizes
//! U[100, 300] B; paper A-fig11: 5 Mb/s Poisson, 200 B.
//!
//! Both kinds hold the configured mean rate in wire bytes. CBR sends packet
//! n + 1 when the bits of packets 0..=n have left at exactly `rate` (so
//! variable sizes keep the rate, and integer rounding never drifts);
//! Poisson draws each gap from an exponential of mean E[size] * 8 / rate.
//! Gaps come from the "udp.gap" stream and sizes from "udp.size", both
//! indexed by the source, so adding a source shifts nobody's draws.

use rand::Rng;
use rand_distr::{Distribution, Exp};
use serde::{Deserialize, Serialize};

use super::fbm::{FbmSource, Fgn};
use crate::scenario::InvalidField;
use crate::sim::rng::{stream, uniform, Stream};
use crate::sim::Time;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UdpKind {
    Cbr,
    Poisson,
    /// Paper A's truncated fBm at 1 us resolution (see [`super::fbm`]); needs
    /// `hurst` and a fixed packet size.
    Fbm,
    /// Markov ON-OFF (paper Q Sec IV-C; paper W's cross traffic): CBR at the
    /// peak `rate` during ON periods, silent during OFF, both exponential
    /// with means `on` and `off`, starting ON. Mean rate h on / (on + off),
    /// i.e. h r1 / (r1 + r2) with r1 = 1/off, r2 = 1/on.
    Onoff,
}

/// fBm resolution (paper A Sec V-A: 1 us) and noise block length (2^20
/// samples, about 1 s: correlation is exact below it, see `fbm`).
const FBM_DT: Time = 1_000;
const FBM_BLOCK: usize = 1 << 20;

/// Packet sizes on the wire, bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sizes {
    /// Uniform over the closed range (`[s, s]`: always s).
    Range([u64; 2]),
    /// Each packet one of these, equally likely.
    List(Vec<u64>),
}

impl Sizes {
    pub fn mean(&self) -> f64 {
        match self {
            Sizes::Range([lo, hi]) => (lo + hi) as f64 / 2.0,
            Sizes::List(l) => l.iter().sum::<u64>() as f64 / l.len() as f64,
        }
    }

    fn draw(&self, rng: &mut Stream) -> u32 {
        match self {
            Sizes::Range(r) => uniform(rng, *r) as u32,
            Sizes::List(l) => l[rng.gen_range(0..l.len())] as u32,
        }
    }

    /// Sizes must be positive (a list non-empty) and fit a packet.
    pub fn validate(&self, field: &str) -> Result<(), InvalidField> {
        let bad = |message: String| InvalidField { field: field.into(), message };
        let (lo, hi) = match self {
            Sizes::Range([lo, hi]) if lo > hi => {
                return Err(bad(format!("range lower bound {lo} exceeds upper bound {hi}")))
            }
            Sizes::Range([lo, hi]) => (*lo, *hi),
            Sizes::List(l) if l.is_empty() => return Err(bad("the list of sizes is empty".into())),
            Sizes::List(l) => (*l.iter().min().unwrap(), *l.iter().max().unwrap()),
        };
        if lo == 0 || hi > u64::from(u32::MAX) {
            return Err(bad(format!("packet sizes must be in [1, {}] bytes", u32::MAX)));
        }
        Ok(())
    }
}

/// One source as a scenario describes it (`[[traffic.udp]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UdpSpec {
    pub kind: UdpKind,
    /// Mean rate in wire bits per second.
    pub rate: u64,
    pub size: Sizes,
    /// First packet, ns.
    pub start: u64,
    /// Hurst parameter of an fBm source, in [1/2, 1).
    #[serde(default)]
    pub hurst: Option<f64>,
    /// Mean ON and OFF durations of an ON-OFF source, ns.
    #[serde(default)]
    pub on: Option<u64>,
    #[serde(default)]
    pub off: Option<u64>,
    /// Sending and receiving hosts, by name (A-base: `s-udp`, `d-udp`).
    pub from: String,
    pub to: String,
}

impl UdpSpec {
    pub fn validate(&self, field: &str) -> Result<(), InvalidField> {
        if self.rate == 0 {
            return Err(InvalidField {
                field: format!("{field}.rate"),
                message: "must be greater than zero".into(),
            });
        }
        self.size.validate(&format!("{field}.size"))?;
        let bad = |key: &str, message: &str| InvalidField {
            field: format!("{field}.{key}"),
            message: message.into(),
        };
        let kind = self.kind;
        for (key, given, wanted) in [
            ("hurst", self.hurst.is_some(), UdpKind::Fbm),
            ("on", self.on.is_some(), UdpKind::Onoff),
            ("off", self.off.is_some(), UdpKind::Onoff),
        ] {
            if given != (kind == wanted) {
                let message = if given {
                    "not a key of this kind of source"
                } else {
                    "required for this kind of source"
                };
                return Err(bad(key, message));
            }
        }
        if self.on == Some(0) || self.off == Some(0) {
            return Err(bad(if self.on == Some(0) { "on" } else { "off" }, "must be greater than zero"));
        }
        match (kind, self.hurst, &self.size) {
            (UdpKind::Fbm, Some(h), _) if !(0.5..1.0).contains(&h) => {
                Err(bad("hurst", "must be in [0.5, 1)"))
            }
            (UdpKind::Fbm, _, Sizes::Range([lo, hi])) if lo == hi => Ok(()),
            (UdpKind::Fbm, _, _) => Err(bad("size", "an fbm source sends packets of one fixed size")),
            _ => Ok(()),
        }
    }
}

/// How a source spaces its packets.
enum Gaps {
    /// Wire bits sent so far.
    Cbr {
        bits: u128,
    },
    /// The next departure in exact (unrounded) ns.
    Poisson {
        clock: f64,
        gap: Exp<f64>,
        rng: Stream,
    },
    Fbm(Box<FbmSource>),
    /// The next departure in exact ns, and when the current ON period ends.
    OnOff {
        clock: f64,
        on_end: f64,
        on: Exp<f64>,
        off: Exp<f64>,
        rng: Stream,
    },
}

/// A running source: when its next packet is due and how big it is.
pub struct UdpSource {
    gaps: Gaps,
    rate_bps: u64,
    sizes: Sizes,
    start: Time,
    size_rng: Stream,
    /// The route its packets take (an index into `Network::routes`).
    pub route: u32,
    pub sent: u64,
    pub received: u64,
}

impl UdpSource {
    /// Source `index` of a run with master seed `seed`, sending on `route`;
    /// an fBm source whose noise cannot be generated is an error on `field`.
    pub fn new(spec: &UdpSpec, seed: u64, index: u64, route: u32, field: &str) -> Result<Self, InvalidField> {
        let rng = |purpose| stream(seed, purpose, index);
        let gaps = match spec.kind {
            UdpKind::Cbr => Gaps::Cbr { bits: 0 },
            UdpKind::Poisson => {
                let mean_gap_ns = spec.size.mean() * 8.0 * 1e9 / spec.rate as f64;
                let gap = Exp::new(1.0 / mean_gap_ns).expect("validated positive rate");
                Gaps::Poisson { clock: spec.start as f64, gap, rng: rng("udp.gap") }
            }
            UdpKind::Fbm => {
                let h = spec.hurst.unwrap_or(f64::NAN);
                let noise = Fgn::new(h, FBM_BLOCK, rng("udp.fgn"))
                    .map_err(|e| InvalidField { field: format!("{field}.hurst"), message: e.to_string() })?;
                let size = spec.size.mean() as u32;
                Gaps::Fbm(Box::new(FbmSource::new(noise, spec.rate, size, FBM_DT, spec.start)))
            }
            UdpKind::Onoff => {
                let exp =
                    |mean: Option<u64>| Exp::new(1.0 / mean.unwrap_or(0) as f64).expect("validated positive");
                let (on, off, mut rng) = (exp(spec.on), exp(spec.off), rng("udp.onoff"));
                let on_end = spec.start as f64 + on.sample(&mut rng);
                Gaps::OnOff { clock: spec.start as f64, on_end, on, off, rng }
            }
        };
        Ok(UdpSource {
            gaps,
            rate_bps: spec.rate,
            sizes: spec.size.clone(),
            start: spec.start,
            size_rng: rng("udp.size"),
            route,
            sent: 0,
            received: 0,
        })
    }

    /// When the first packet is due.
    pub fn first(&self) -> Time {
        self.start
    }

    /// The packet due now: its size, and when the next one is due.
    pub fn emit(&mut self) -> (u32, Time) {
        let size = self.sizes.draw(&mut self.size_rng);
        self.sent += 1;
        let next = match &mut self.gaps {
            Gaps::Cbr { bits } => {
                *bits += u128::from(size) * 8;
                self.start + (*bits * 1_000_000_000 / u128::from(self.rate_bps)) as Time
            }
            Gaps::Poisson { clock, gap, rng } => {
                *clock += gap.sample(rng);
                *clock as Time
            }
            Gaps::Fbm(f) => f.next_departure(),
            Gaps::OnOff { clock, on_end, on, off, rng } => {
                *clock += f64::from(size) * 8e9 / self.rate_bps as f64;
                if *clock >= *on_end {
                    *clock = *on_end + off.sample(rng);
                    *on_end = *clock + on.sample(rng);
                }
                *clock as Time
            }
        };
        (size, next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(kind: UdpKind, rate: u64, size: Sizes) -> UdpSpec {
        UdpSpec {
            kind,
            rate,
            size,
            start: 1_000,
            hurst: None,
            on: None,
            off: None,
            from: "s".into(),
            to: "d".into(),
        }
    }

    fn source(spec: &UdpSpec, seed: u64, index: u64, route: u32) -> UdpSource {
        UdpSource::new(spec, seed, index, route, "udp").unwrap()
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
        assert_eq!(fbm(Some(0.8), Sizes::Range([100, 200])).validate("u").unwrap_err().field, "u.size");
        assert!(fbm(Some(0.8), Sizes::Range([200, 200])).validate("u").is_ok());
        let poisson = UdpSpec { hurst: Some(0.8), ..spec(UdpKind::Poisson, 1, Sizes::Range([1, 1])) };
        assert_eq!(poisson.validate("u").unwrap_err().field, "u.hurst");
        let onoff = |on, off| UdpSpec { on, off, ..spec(UdpKind::Onoff, 1, Sizes::Range([1, 1])) };
        assert_eq!(onoff(Some(1), None).validate("u").unwrap_err().field, "u.off");
        assert_eq!(onoff(Some(0), Some(1)).validate("u").unwrap_err().field, "u.on");
        assert!(onoff(Some(1), Some(1)).validate("u").is_ok());
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
