//! Where and how a scenario paces (`[pacing]`), with its checks, and the
//! pacer it puts in front of a paced link.
//!
//! [`Pacing`] is a tagged union: the scheme, with only its own knobs
//! (the edge pacer's d, QLBP's [`QlbpSpec`], the hosts' pacing mode), and
//! where it paces. On the wire (the scenario JSON the Python front sends,
//! and the canonical form the results store hashes into its keys) it is
//! one flat object carrying every scheme's knobs (`FlatPacing`): reading
//! keeps the scheme's and drops the others (after checking QLBP's), so the wire form, and with it
//! every stored run's key, stays as it was.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::qlbp::QlbpSpec;
use super::PacerSpec;
use crate::spec::{bad, InvalidField};
use crate::tcp::pacing::{HostPacerKind, HostPacing, HostPacingMode, WeiSpec};

/// Where traffic is paced (paper E), with the scheme's knobs.
#[derive(Debug, Clone, PartialEq)]
pub enum PacingScheme {
    None,
    /// TCP pacing at the hosts (paper W): the pacer, its rule and options.
    Host(HostPacing),
    /// The edge pacer on the ingress edge links, with delay bound `delay`,
    /// ns (paper E: 10 ms); d = 0 is no pacer at all.
    Edge {
        delay: u64,
    },
    /// Queue Length Based Pacing (paper Q) on the ingress edge links.
    Qlbp(QlbpSpec),
}

/// Where traffic is paced (paper E): nowhere, by TCP at the hosts
/// (`host_pacer`: Wei's ns-2 patch or paper W's prose; `host_mode`:
/// "original" RTT/cwnd, "modified" paper W eq. 7, or the Linux "rate";
/// Wei's options in `[pacing.wei]`), by the optimal delay-bounded edge pacer (delay bound
/// `delay`, paper E uses 10 ms; 0 is no pacer) on the ingress edge links,
/// or by QLBP there (paper Q: `mu_max`, `mu_min`, `q_max`, `q_lim` in
/// packets, or `utilization` and `max_delay` for its rule of thumb).
/// `links` puts the pacers on the named links instead. `fraction` is the
/// share that paces (paper E Sec 6): the first edge nodes by index, or hosts
/// spread evenly over the edges.
// Each field is documented on the wire form (`FlatPacing`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "FlatPacing", into = "FlatPacing")]
pub struct Pacing {
    pub scheme: PacingScheme,
    pub fraction: f64,
    pub links: Option<Vec<String>>,
}

/// A scheme's name on the wire (`pacing.scheme`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
enum SchemeName {
    #[default]
    None,
    Host,
    Edge,
    Qlbp,
}

/// The wire form: every scheme's knobs side by side, with their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct FlatPacing {
    /// Who paces: nobody, the TCP senders (paper W), the edge pacer (paper E
    /// Sec 2.1) or QLBP (paper Q).
    #[serde(default)]
    scheme: SchemeName,
    /// The edge pacer's delay bound d, ns (paper E: 10 ms); 0 is no pacer.
    #[serde(default = "FlatPacing::default_delay")]
    #[schemars(extend("x-unit" = "ns"))]
    delay: u64,
    /// Share of the edge nodes (edge scheme) or hosts (host scheme) that
    /// pace, in [0, 1] (paper E Sec 6, Figs. 16-17): the first edges by
    /// index; hosts spread evenly over the edges.
    #[serde(default = "FlatPacing::default_fraction")]
    #[schemars(range(min = 0.0, max = 1.0))]
    fraction: f64,
    /// How paced hosts space their packets (host scheme): RTT/cwnd, paper W
    /// eq. 7, or the Linux rate (the paper-w pacer only).
    #[serde(default)]
    host_mode: HostPacingMode,
    /// Which host pacer (host scheme): Wei's ns-2 pacing patch, which papers
    /// E and W ran (paper E Sec 3.1, its [21]), or paper W's prose as
    /// pacesim first read it (Sec IV; the default, which stored runs used).
    #[serde(default)]
    #[schemars(extend("x-omit-default" = true))]
    host_pacer: HostPacerKind,
    /// Options of Wei's pacer (host scheme, `host_pacer = "wei"`).
    #[serde(default)]
    #[schemars(extend("x-omit-default" = true))]
    wei: WeiSpec,
    /// QLBP: the rate at `q_max` packets queued (paper Q eq. 1; default from
    /// paper Q Sec V-B, Q-fig18).
    #[serde(default = "QlbpSpec::default_mu_max")]
    #[schemars(extend("x-unit" = "bit/s"), range(min = 1))]
    mu_max: u64,
    /// QLBP: the rate with an empty queue (paper Q eq. 1, Sec V-B); at most `mu_max`.
    #[serde(default = "QlbpSpec::default_mu_min")]
    #[schemars(extend("x-unit" = "bit/s"), range(min = 1))]
    mu_min: u64,
    /// QLBP: the queue length, packets, from which it sends at the link rate
    /// (paper Q Sec V-B).
    #[serde(default = "QlbpSpec::default_q_max")]
    #[schemars(extend("x-unit" = "packets"), range(min = 1))]
    q_max: u32,
    /// QLBP: the pacer's own queue limit, packets (paper Q Sec V-B).
    #[serde(default = "QlbpSpec::default_q_lim")]
    #[schemars(extend("x-unit" = "packets"), range(min = 1))]
    q_lim: u32,
    /// QLBP's rule of thumb (paper Q Sec III-C): the link's utilisation rho,
    /// in (0, 1]; with `max_delay` it sets mu_max, mu_min and q_max.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0.0), range(max = 1.0))]
    utilization: Option<f64>,
    /// QLBP's rule of thumb: the delay tolerance D_max, ns.
    #[serde(default)]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    max_delay: Option<u64>,
    /// Pace exactly these links by name (core, edge_in.0, access.17.up, ...)
    /// instead of the first `fraction` of the ingress edge links.
    #[serde(default)]
    links: Option<Vec<String>>,
}

/// The edge pacer's d when a scenario gives none (paper E: 10 ms), ns.
const DEFAULT_DELAY: u64 = 10_000_000;

impl FlatPacing {
    fn default_delay() -> u64 {
        DEFAULT_DELAY
    }
    /// Every edge (or host) paces.
    fn default_fraction() -> f64 {
        1.0
    }
}

/// Reading checks QLBP's knobs whatever the scheme, as a knob of another
/// scheme is carried on the wire but not kept: a bad one is named rather
/// than silently dropped.
impl TryFrom<FlatPacing> for Pacing {
    type Error = InvalidField;

    fn try_from(f: FlatPacing) -> Result<Self, InvalidField> {
        let qlbp = QlbpSpec {
            mu_max: f.mu_max,
            mu_min: f.mu_min,
            q_max: f.q_max,
            q_lim: f.q_lim,
            utilization: f.utilization,
            max_delay: f.max_delay,
        };
        qlbp.validate("pacing")?;
        f.wei.validate("pacing.wei")?;
        let scheme = match f.scheme {
            SchemeName::None => PacingScheme::None,
            SchemeName::Host => {
                let host = HostPacing { pacer: f.host_pacer, mode: f.host_mode, wei: f.wei };
                host.validate("pacing")?;
                PacingScheme::Host(host)
            }
            SchemeName::Edge => PacingScheme::Edge { delay: f.delay },
            SchemeName::Qlbp => PacingScheme::Qlbp(qlbp),
        };
        Ok(Pacing { scheme, fraction: f.fraction, links: f.links })
    }
}

impl From<Pacing> for FlatPacing {
    fn from(p: Pacing) -> Self {
        let (name, delay, host, q) = match p.scheme {
            PacingScheme::None => {
                (SchemeName::None, DEFAULT_DELAY, HostPacing::default(), QlbpSpec::default())
            }
            PacingScheme::Host(host) => (SchemeName::Host, DEFAULT_DELAY, host, QlbpSpec::default()),
            PacingScheme::Edge { delay } => {
                (SchemeName::Edge, delay, HostPacing::default(), QlbpSpec::default())
            }
            PacingScheme::Qlbp(q) => (SchemeName::Qlbp, DEFAULT_DELAY, HostPacing::default(), q),
        };
        FlatPacing {
            scheme: name,
            delay,
            fraction: p.fraction,
            host_mode: host.mode,
            host_pacer: host.pacer,
            wei: host.wei,
            mu_max: q.mu_max,
            mu_min: q.mu_min,
            q_max: q.q_max,
            q_lim: q.q_lim,
            utilization: q.utilization,
            max_delay: q.max_delay,
            links: p.links,
        }
    }
}

impl Pacing {
    /// Check the pacing parameters; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        if !(0.0..=1.0).contains(&self.fraction) {
            return Err(bad("pacing.fraction", format!("{} is not a share in [0, 1]", self.fraction)));
        }
        match &self.scheme {
            PacingScheme::Qlbp(q) => q.validate("pacing"),
            PacingScheme::Host(host) => host.validate("pacing"),
            PacingScheme::None | PacingScheme::Edge { .. } => Ok(()),
        }
    }

    /// How paced hosts space their packets, if hosts pace.
    pub fn host_mode(&self) -> Option<HostPacingMode> {
        self.host().map(|h| h.mode)
    }

    /// How paced hosts pace, if hosts pace.
    pub fn host(&self) -> Option<&HostPacing> {
        match &self.scheme {
            PacingScheme::Host(host) => Some(host),
            _ => None,
        }
    }

    /// The pacer this scheme puts in front of a paced link of `link_rate`
    /// bit/s, if any. An edge pacer with d = 0 is no pacer at all.
    pub fn link_pacer(&self, link_rate: u64) -> Option<PacerSpec> {
        match &self.scheme {
            PacingScheme::Edge { delay } if *delay > 0 => Some(PacerSpec::Edge { d: *delay }),
            PacingScheme::Qlbp(q) => Some(PacerSpec::Qlbp(q.params(link_rate))),
            PacingScheme::Edge { .. } | PacingScheme::None | PacingScheme::Host(_) => None,
        }
    }
}

impl Default for Pacing {
    fn default() -> Self {
        Pacing { scheme: PacingScheme::None, fraction: 1.0, links: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wire form reads into the scheme's knobs alone, and writes back
    /// as the same flat object (the store's keys hash that form).
    #[test]
    fn flat_wire_form_keeps_the_schemes_knobs_and_round_trips() {
        let flat = r#"{"scheme":"edge","delay":5000000,"fraction":0.5,"host_mode":"original","host_pacer":"paper-w","wei":{"ack_counting":false,"loss_filter":0,"inflation_ratio":0,"pure_rate_control":false,"overhead":0,"random_pace":false},"mu_max":100000000,"mu_min":1000000,"q_max":40,"q_lim":2000,"utilization":null,"max_delay":null,"links":null}"#;
        let p: Pacing = serde_json::from_str(flat).unwrap();
        assert_eq!(p, Pacing { scheme: PacingScheme::Edge { delay: 5_000_000 }, fraction: 0.5, links: None });
        assert_eq!(serde_json::to_string(&p).unwrap(), flat);
        let host: Pacing =
            serde_json::from_str(r#"{"scheme":"host","delay":0,"fraction":1.0,"host_mode":"rate"}"#).unwrap();
        let rate = HostPacing { mode: HostPacingMode::Rate, ..Default::default() };
        assert_eq!(host.scheme, PacingScheme::Host(rate));
        assert_eq!(host.link_pacer(1), None);
    }

    /// Wei's pacer and its options: read into the host scheme (the front
    /// leaves them out of the wire form at their defaults, `x-omit-default`,
    /// so stored runs' keys stay), refused where they do not apply.
    #[test]
    fn weis_pacer_and_options_are_read_and_checked() {
        let wire = r#"{"scheme":"host","delay":10000000,"fraction":1.0,"host_mode":"modified","host_pacer":"wei","wei":{"ack_counting":false,"loss_filter":-2,"inflation_ratio":0,"pure_rate_control":false,"overhead":1000,"random_pace":true},"mu_max":100000000,"mu_min":1000000,"q_max":40,"q_lim":2000,"utilization":null,"max_delay":null,"links":null}"#;
        let p: Pacing = serde_json::from_str(wire).unwrap();
        let wei = WeiSpec { loss_filter: -2, overhead: 1000, random_pace: true, ..Default::default() };
        let host = HostPacing { pacer: HostPacerKind::Wei, mode: HostPacingMode::Modified, wei };
        assert_eq!(p.host(), Some(&host));
        assert_eq!(serde_json::to_string(&p).unwrap(), wire);
        let err = |json: &str| serde_json::from_str::<Pacing>(json).unwrap_err().to_string();
        let rate = err(r#"{"scheme":"host","host_mode":"rate","host_pacer":"wei"}"#);
        assert!(rate.starts_with("pacing.host_mode: \"rate\" is the paper-w pacer's"), "{rate}");
        let paper_w = err(r#"{"scheme":"host","wei":{"inflation_ratio":3}}"#);
        assert!(paper_w.starts_with("pacing.wei.inflation_ratio: an option of Wei's pacer"), "{paper_w}");
        let jitter = err(r#"{"scheme":"none","wei":{"random_pace":true}}"#);
        assert!(jitter.starts_with("pacing.wei.random_pace: jitters only with"), "{jitter}");
        let edge: Pacing = serde_json::from_str(r#"{"scheme":"edge","host_pacer":"wei"}"#).unwrap();
        assert_eq!(edge.host(), None, "another scheme's knob is dropped");
    }
}
