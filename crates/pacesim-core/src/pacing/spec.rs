//! Where and how a scenario paces (`[pacing]`), with its checks, and the
//! pacer it puts in front of a paced link.

use serde::{Deserialize, Serialize};

use super::{PacerSpec, QlbpParams};
use crate::spec::{bad, positive, InvalidField};
use crate::tcp::pacing::HostPacingMode;

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
    /// Check the pacing parameters; the error names the field.
    pub fn validate(&self) -> Result<(), InvalidField> {
        let p = self;
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
        Ok(())
    }

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
    pub fn link_pacer(&self, link_rate: u64) -> Option<PacerSpec> {
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
