//! Where and how a scenario paces (`[pacing]`), with its checks, and the
//! pacer it puts in front of a paced link.
//!
//! [`PacingScheme`] is a tagged union: the scheme, with only its own knobs,
//! declared beside their pacers (the edge pacer's d on its variant here,
//! QLBP's [`QlbpSpec`] in `qlbp.rs`, the hosts' [`HostPacing`] in
//! `tcp/host_pacing.rs`). `[pacing]` writes them beside the common keys
//! (`scheme = "qlbp"`, `q_max = 80`, `fraction = 0.5`); its [`Table`] reads and
//! writes it as one table (`spec::variants`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::qlbp::QlbpSpec;
use super::PacerSpec;
use crate::spec::variants::{Table, Variants};
use crate::spec::{bad, first_repeat, InvalidField};
use crate::tcp::host_pacing::{HostPacing, HostPacingMode};

/// Who paces: nobody, the TCP senders (paper W), the edge pacer (paper E
/// Sec 2.1) or QLBP (paper Q).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "scheme", rename_all = "kebab-case")]
#[schemars(title = "Pacing")]
pub enum PacingScheme {
    #[default]
    None,
    /// TCP pacing at the hosts (paper W): the pacer, its rule and options.
    Host(HostPacing),
    /// The edge pacer on the ingress edge links.
    Edge {
        /// The edge pacer's delay bound d, ns (paper E: 10 ms); 0 is no pacer.
        #[serde(default = "default_delay")]
        #[schemars(title = "Pacer delay d", extend("x-unit" = "ns"))]
        delay: u64,
    },
    /// Queue Length Based Pacing (paper Q) on the ingress edge links.
    Qlbp(QlbpSpec),
}

/// The edge pacer's d when a scenario gives none (paper E: 10 ms), ns.
fn default_delay() -> u64 {
    10_000_000
}

impl Variants for PacingScheme {
    const TAG: &'static str = "scheme";

    fn validate(&self) -> Result<(), InvalidField> {
        match self {
            PacingScheme::Qlbp(q) => q.validate("pacing"),
            PacingScheme::Host(host) => host.validate("pacing"),
            PacingScheme::None | PacingScheme::Edge { .. } => Ok(()),
        }
    }
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
// Read and written with its scheme as one table (its `Table`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Pacing {
    /// The scheme with its knobs, `pacing.scheme` (read by its [`Table`]).
    #[serde(skip)]
    pub scheme: PacingScheme,
    /// Share of the edge nodes (edge scheme) or hosts (host scheme) that
    /// pace, in [0, 1] (paper E Sec 6, Figs. 16-17): the first edges by
    /// index; hosts spread evenly over the edges.
    #[schemars(title = "Fraction pacing", range(min = 0.0, max = 1.0))]
    pub fraction: f64,
    /// Pace exactly these links by name (core, edge_in.0, access.17.up, ...)
    /// instead of the first `fraction` of the ingress edge links.
    pub links: Option<Vec<String>>,
}

/// `[pacing]` as one table: the scheme and its knobs beside the common keys.
impl Table for Pacing {
    type Variant = PacingScheme;
    const AT: &'static str = "pacing";

    fn variant(&self) -> &PacingScheme {
        &self.scheme
    }

    fn with(self, scheme: PacingScheme) -> Self {
        Pacing { scheme, ..self }
    }
}

impl Pacing {
    /// Check the pacing parameters' rules across keys (each key's bounds are
    /// its schema's, `spec::bounds`); the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        // A link named twice would get a pacer for each name (issue 33: 1.9 million names of one link, a 15 MB
        // scenario, aborted the process at 3.7 GB building their pacers).
        if let Some((i, name)) = first_repeat(self.links.iter().flatten()) {
            return Err(bad(&format!("pacing.links[{i}]"), format!("{name:?} is named twice")));
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
    /// No pacing; every edge (or host) would pace.
    fn default() -> Self {
        Pacing { scheme: PacingScheme::None, fraction: 1.0, links: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::host_pacing::{HostPacerKind, WeiSpec};

    fn read(json: &str) -> Result<Pacing, String> {
        let de = &mut serde_json::Deserializer::from_str(json);
        crate::spec::variants::deserialize(de).map_err(|e| e.to_string())
    }

    /// The table reads into the scheme's knobs alone (another scheme's
    /// read, checked and unused) and writes back the scheme's knobs.
    #[test]
    fn the_table_keeps_the_schemes_knobs() {
        let flat = r#"{"scheme":"edge","delay":5000000,"fraction":0.5,"host_mode":"original","mu_max":100000000,"q_max":40,"links":null}"#;
        let p = read(flat).unwrap();
        assert_eq!(p, Pacing { scheme: PacingScheme::Edge { delay: 5_000_000 }, fraction: 0.5, links: None });
        let mut out = Vec::new();
        crate::spec::variants::serialize(&p, &mut serde_json::Serializer::new(&mut out)).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"scheme":"edge","fraction":0.5,"links":null,"delay":5000000}"#
        );
        let host = read(r#"{"scheme":"host","delay":0,"fraction":1.0,"host_mode":"rate"}"#).unwrap();
        let rate = HostPacing { mode: HostPacingMode::Rate, ..Default::default() };
        assert_eq!(host.scheme, PacingScheme::Host(rate));
        assert_eq!(host.link_pacer(1), None);
        assert_eq!(read("{}").unwrap(), Pacing::default());
    }

    /// Wei's pacer and its options: read into the host scheme, refused
    /// where they do not apply, whatever the scheme.
    #[test]
    fn weis_pacer_and_options_are_read_and_checked() {
        let wire = r#"{"scheme":"host","delay":10000000,"fraction":1.0,"host_mode":"modified","host_pacer":"wei","wei":{"ack_counting":false,"loss_filter":-2,"inflation_ratio":0,"pure_rate_control":false,"overhead":1000,"random_pace":true},"mu_max":100000000,"mu_min":1000000,"q_max":40,"q_lim":2000,"utilization":null,"max_delay":null,"links":null}"#;
        let p = read(wire).unwrap();
        let wei = WeiSpec { loss_filter: -2, overhead: 1000, random_pace: true, ..Default::default() };
        let host = HostPacing { pacer: HostPacerKind::Wei, mode: HostPacingMode::Modified, wei };
        assert_eq!(p.host(), Some(&host));
        let err = |json: &str| read(json).unwrap_err();
        let rate = err(r#"{"scheme":"host","host_mode":"rate","host_pacer":"wei"}"#);
        assert!(rate.starts_with("pacing.host_mode: \"rate\" is the paper-w pacer's"), "{rate}");
        let paper_w = err(r#"{"scheme":"host","wei":{"inflation_ratio":3}}"#);
        assert!(paper_w.starts_with("pacing.wei.inflation_ratio: an option of Wei's pacer"), "{paper_w}");
        let jitter = err(r#"{"scheme":"none","host_pacer":"wei","wei":{"random_pace":true}}"#);
        assert!(jitter.starts_with("pacing.wei.random_pace: jitters only with"), "{jitter}");
        let qlbp = err(r#"{"scheme":"edge","mu_min":200000000}"#);
        assert!(qlbp.starts_with("pacing.mu_min: 200Mbps must not exceed"), "{qlbp}");
        let edge = read(r#"{"scheme":"edge","host_pacer":"wei"}"#).unwrap();
        assert_eq!(edge.host(), None, "another scheme's knob is read, checked and unused");
    }

    /// Issue 33: a link named twice in `pacing.links` got a pacer for each name; it is refused naming the
    /// second, whatever the scheme, and links named once each pass.
    #[test]
    fn a_link_named_twice_to_pace_is_refused() {
        let links = |names: &[&str]| Pacing {
            links: Some(names.iter().map(|&n| n.into()).collect()),
            ..Default::default()
        };
        let e = links(&["core", "edge_in.0", "core"]).validate().unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("pacing.links[2]", "\"core\" is named twice"));
        assert!(links(&["core", "edge_in.0"]).validate().is_ok());
    }
}
